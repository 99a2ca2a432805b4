// The account page's last two sections: "Export my data" (a download of everything the server keeps of the
// account, GET /api/account/export) and "Delete my account", which says first what happens and is confirmed by
// typing the account's name again (the server checks it too: confirm_with_name).
import { h } from '../../core/dom.js';
import { t } from '../../core/i18n/index.js';
import { errorText } from '../../core/errors.js';
import { EXPORT_PATH } from '../../core/accounts.js';
import { formStatus } from '../../ui/form-status.js';

/** `onDeleted(name)` once the account is gone (the page is signed out). */
export function createDataAndDeletion({ accounts, onDeleted }) {
  const status = formStatus('delete-status');
  let busy = false;

  async function remove(input, name) {
    if (busy) return;
    if (input.value.trim() === '') {
      input.setAttribute('aria-invalid', 'true');
      input.focus();
      status.set('error', () => t('account.delete.typeName', { name }));
      return;
    }
    input.removeAttribute('aria-invalid');
    busy = true;
    status.set('busy', () => t('account.working'));
    try {
      await accounts.deleteAccount(input.value);
      status.clear();
      onDeleted(name);
    } catch (err) {
      status.set('error', () => (err.code === 'confirm_with_name' ? t('account.delete.typeName', { name }) : errorText(err)));
      input.setAttribute('aria-invalid', 'true');
      input.focus();
    } finally {
      busy = false;
    }
  }

  function render(details) {
    const name = details.account.name;
    const input = h('input', {
      type: 'text', id: 'delete-confirm', name: 'delete-confirm', autocomplete: 'off', spellcheck: 'false', autocapitalize: 'off',
      'aria-describedby': 'delete-what', 'data-testid': 'delete-confirm',
    });
    return [
      h('section', { class: 'card account-section', 'aria-labelledby': 'export-h', 'data-testid': 'account-export' },
        h('h2', { id: 'export-h' }, t('account.export.heading')),
        h('p', null, t('account.export.intro')),
        h('a', { class: 'btn', href: EXPORT_PATH, download: 'emporium-account.json', 'data-testid': 'export' }, t('account.export.button'))),
      h('section', { class: 'card account-section danger-zone', 'aria-labelledby': 'delete-h', 'data-testid': 'account-delete' },
        h('h2', { id: 'delete-h' }, t('account.delete.heading')),
        h('div', { id: 'delete-what' },
          h('p', null, t('account.delete.what')),
          h('ul', { class: 'delete-list' },
            h('li', null, t('account.delete.finished')),
            h('li', null, t('account.delete.running'))),
          h('p', null, h('strong', null, t('account.delete.final')))),
        h('form', {
          class: 'account-form', novalidate: true,
          onsubmit: (e) => { e.preventDefault(); remove(input, name); },
        },
        h('div', { class: 'field' },
          h('label', { for: 'delete-confirm' }, t('account.delete.confirmLabel', { name })),
          input),
        h('div', { class: 'buttons' },
          h('button', { type: 'submit', class: 'btn danger', 'data-testid': 'delete-account' }, t('account.delete.button'))),
        status.render())),
    ];
  }

  return { render };
}
