// The account page's password: set one (an account made with a passkey has none) or change it, the current one
// asked once one is set. The fields and their rule are js/ui/password-fields.js; a wrong current password is
// said as such (the server answers bad_credentials).
import { h } from '../../core/dom.js';
import { t } from '../../core/i18n/index.js';
import { errorText } from '../../core/errors.js';
import { formStatus } from '../../ui/form-status.js';
import { passwordFields } from '../../ui/password-fields.js';

export function createPasswordChange({ accounts, reload }) {
  const status = formStatus('password-change-status');
  let busy = false;
  let fields = null;

  async function submit(hasPassword) {
    if (busy) return;
    const read = fields.read();
    if (read.error) {
      status.set('error', read.error);
      return;
    }
    busy = true;
    status.set('busy', () => t('account.working'));
    try {
      await accounts.setPassword({ current: hasPassword ? read.current : null, password: read.password });
      fields.clear();
      status.set('ok', () => t(hasPassword ? 'account.password.changed' : 'account.password.set'));
      busy = false;
      await reload();
    } catch (err) {
      status.set('error', () => (err.code === 'bad_credentials' ? t('account.password.wrongCurrent') : errorText(err)));
      fields.focus();
    } finally {
      busy = false;
    }
  }

  function render(details) {
    const hasPassword = Boolean(details.account.has_password);
    fields = passwordFields({ prefix: 'change', mode: 'new', current: hasPassword });
    return h('section', { class: 'card account-section', 'aria-labelledby': 'password-h', 'data-testid': 'account-password' },
      h('h2', { id: 'password-h' }, t('account.password.sectionHeading')),
      h('p', { class: 'hint', 'data-testid': 'password-state' }, t(hasPassword ? 'account.password.has' : 'account.password.none')),
      h('form', {
        class: 'account-form', novalidate: true,
        onsubmit: (e) => { e.preventDefault(); submit(hasPassword); },
      },
      // For password managers: whose password this is.
      h('input', { type: 'text', name: 'username', autocomplete: 'username', value: details.account.name, hidden: true, readOnly: true }),
      fields.el,
      h('div', { class: 'buttons' },
        h('button', { type: 'submit', class: 'btn', 'data-testid': 'password-change' }, t(hasPassword ? 'account.password.change' : 'account.password.setOne'))),
      status.render()));
  }

  return { render };
}
