// The account page's passkeys: each with its label, when it was added and last used; rename (in place),
// remove (asked first; the server refuses the account's last way to sign in, said in words), and add another
// (js/core/accounts.js does the ceremony). Where the browser has no passkeys, adding says why it cannot.
import { h } from '../../core/dom.js';
import { t, language } from '../../core/i18n/index.js';
import { errorText } from '../../core/errors.js';
import { formStatus } from '../../ui/form-status.js';
import { createActor } from './act.js';
import { cleanLabel, passkeyRows, timeWords } from '../../models/account-rules.js';

/**
 * `reload()` asks for the account again and draws the page, `redraw()` draws it from the last answer; returns
 * {render(details), takeFocus(root)}.
 */
export function createPasskeyList({ accounts, reload, redraw }) {
  const status = formStatus('passkeys-status');
  let editing = null; // the id of the passkey being renamed
  let confirming = null; // the id of the passkey whose removal is asked
  let focusAfter = null; // a selector to focus after the next render

  /** Runs one change, says how it went, and draws the page again from a fresh answer. */
  const act = createActor({
    status, reload, describe: (err) => passkeyError(err),
    settle(err, { after = null }) {
      if (!err) {
        editing = null;
        confirming = null;
        focusAfter = after;
      } else if (confirming) {
        // Not removed (the last way to sign in, say): back to the row's buttons, the reason below the list.
        focusAfter = `[data-passkey="${CSS.escape(confirming)}"] [data-testid=passkey-remove]`;
        confirming = null;
      }
    },
  });

  const renameButton = (id) => `[data-passkey="${CSS.escape(id)}"] [data-testid=passkey-rename]`;

  function passkeyError(err) {
    if (err && err.code === 'bad_name') return t('account.passkey.badLabel');
    return errorText(err);
  }

  function row(p) {
    const label = p.label || t('account.passkey.unnamed');
    const facts = h('span', { class: 'account-item-facts' },
      t('account.passkey.added', { when: timeWords(p.created_at, language()) }), ' · ',
      p.last_used_at ? t('account.passkey.used', { when: timeWords(p.last_used_at, language()) }) : t('account.passkey.neverUsed'));
    let actions;
    if (editing === p.id) {
      const inputId = `passkey-rename-${p.id}`;
      const input = h('input', { type: 'text', id: inputId, name: 'label', value: p.label || '', maxlength: '80', autocomplete: 'off', 'data-testid': 'passkey-rename-input' });
      actions = h('form', {
        class: 'inline-edit',
        onsubmit: (e) => {
          e.preventDefault();
          const next = cleanLabel(input.value);
          if (!next) {
            input.setAttribute('aria-invalid', 'true');
            input.focus();
            status.set('error', () => (next === null ? t('account.passkey.labelTooLong') : t('account.passkey.labelEmpty')));
            return;
          }
          act(() => accounts.renamePasskey(p.id, next), { ok: () => t('account.passkey.renamed', { label: next }), after: renameButton(p.id) });
        },
      },
      h('label', { for: inputId, class: 'visually-hidden' }, t('account.passkey.newLabel', { label })),
      input,
      h('button', { type: 'submit', class: 'btn small primary', 'data-testid': 'passkey-rename-save' }, t('common.save')),
      h('button', { type: 'button', class: 'btn small subtle', onclick: () => { editing = null; focusAfter = renameButton(p.id); redraw(); } }, t('common.cancel')));
    } else if (confirming === p.id) {
      actions = h('div', { class: 'confirm-inline', role: 'group', 'aria-label': t('account.passkey.removeAsk', { label }) },
        h('span', null, t('account.passkey.removeAsk', { label })),
        h('button', {
          type: 'button', class: 'btn small danger', 'data-testid': 'passkey-remove-yes',
          onclick: () => act(() => accounts.removePasskey(p.id), { ok: () => t('account.passkey.removed', { label }), after: '[data-testid=passkey-add]' }),
        }, t('account.passkey.removeYes')),
        h('button', { type: 'button', class: 'btn small subtle', onclick: () => { confirming = null; focusAfter = `[data-passkey="${CSS.escape(p.id)}"] [data-testid=passkey-remove]`; redraw(); } }, t('common.cancel')));
    } else {
      actions = h('div', { class: 'buttons' },
        h('button', {
          type: 'button', class: 'btn small', 'data-testid': 'passkey-rename', 'aria-label': t('account.passkey.renameLabel', { label }),
          onclick: () => { editing = p.id; confirming = null; status.clear(); focusAfter = '[data-testid=passkey-rename-input]'; redraw(); },
        }, t('account.passkey.rename')),
        h('button', {
          type: 'button', class: 'btn small subtle', 'data-testid': 'passkey-remove', 'aria-label': t('account.passkey.removeLabel', { label }),
          onclick: () => { confirming = p.id; editing = null; status.clear(); focusAfter = '[data-testid=passkey-remove-yes]'; redraw(); },
        }, t('account.passkey.remove')));
    }
    return h('li', { class: 'account-item', 'data-testid': 'passkey', 'data-passkey': p.id },
      h('div', { class: 'account-item-main' }, h('strong', { class: 'account-item-title', 'data-testid': 'passkey-label' }, label), facts),
      actions);
  }

  function addForm() {
    const supported = accounts.passkeys;
    const input = h('input', {
      type: 'text', id: 'passkey-add-label', name: 'passkey-add-label', maxlength: '80', autocomplete: 'off', disabled: !supported,
      placeholder: t('account.passkey.labelPlaceholder'), 'aria-describedby': 'passkey-add-hint',
    });
    return h('form', {
      class: 'account-add',
      onsubmit: (e) => {
        e.preventDefault();
        const label = cleanLabel(input.value);
        if (label === null) {
          input.setAttribute('aria-invalid', 'true');
          input.focus();
          status.set('error', () => t('account.passkey.labelTooLong'));
          return;
        }
        act(async () => { await accounts.addPasskey({ label }); input.value = ''; }, { ok: () => t('account.passkey.addedNow'), after: '[data-testid=passkey-add]' });
      },
    },
    h('h3', null, t('account.passkey.addHeading')),
    supported ? null : h('p', { class: 'auth-unsupported' }, t('account.passkey.unsupported')),
    h('div', { class: 'field' },
      h('label', { for: 'passkey-add-label' }, t('account.passkey.label')),
      h('div', { class: 'inline-field' }, input,
        h('button', { type: 'submit', class: 'btn', disabled: !supported, 'data-testid': 'passkey-add' }, t('account.passkey.add'))),
      h('p', { class: 'hint', id: 'passkey-add-hint' }, t('account.passkey.addHint'))));
  }

  function render(details) {
    const rows = passkeyRows(details.passkeys);
    const el = h('section', { class: 'card account-section', 'aria-labelledby': 'passkeys-h', 'data-testid': 'account-passkeys' },
      h('h2', { id: 'passkeys-h' }, t('account.passkeys.heading')),
      h('p', { class: 'hint' }, t('account.passkeys.intro')),
      rows.length
        ? h('ul', { class: 'account-list', 'data-testid': 'passkey-list' }, rows.map(row))
        : h('p', { class: 'empty' }, t('account.passkeys.none')),
      status.render(),
      addForm());
    return el;
  }

  /** The element to focus once the page is drawn (after an action), or null. */
  function takeFocus(root) {
    const selector = focusAfter;
    focusAfter = null;
    return selector ? root.querySelector(selector) : null;
  }

  return { render, takeFocus };
}
