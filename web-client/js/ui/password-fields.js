// Password fields, shared by signing up and in (js/pages/sign-in/) and the account page's change of password
// (js/pages/account/): each labelled, the rule said beside a new password (8 to 256 bytes, js/models/account-rules.js),
// an optional confirmation and current password, and a "show" switch. read() checks them before anything is
// sent: what is wrong is marked (aria-invalid) and focused, and its words returned for the form's status line.
import { h } from '../core/dom.js';
import { t } from '../core/i18n/index.js';
import { PASSWORD_MAX_BYTES, PASSWORD_MIN_BYTES, passwordProblem } from '../models/account-rules.js';

/**
 * `prefix` makes the ids (kept across a redraw by keepValues); `mode` 'new' (a password to choose: the rule,
 * `confirm` asks it twice) or 'existing' (to sign in with); `current` adds the current password first.
 */
export function passwordFields({ prefix, mode = 'new', confirm = mode === 'new', current = false, label = null }) {
  const ruleId = `${prefix}-rule`;
  const field = (id, text, autocomplete, extra = {}) => {
    const input = h('input', {
      id, name: id, type: 'password', autocomplete, required: true, spellcheck: 'false', autocapitalize: 'off', ...extra,
    });
    return { input, el: h('div', { class: 'field' }, h('label', { for: id }, text), input) };
  };
  const currentField = current ? field(`${prefix}-current`, t('account.password.current'), 'current-password') : null;
  const main = mode === 'new'
    ? field(`${prefix}-new`, label || t('account.password.new'), 'new-password', { 'aria-describedby': ruleId, 'data-testid': `${prefix}-password` })
    : field(`${prefix}-password`, label || t('account.password.label'), 'current-password', { 'data-testid': `${prefix}-password` });
  const confirmField = mode === 'new' && confirm ? field(`${prefix}-confirm`, t('account.password.confirm'), 'new-password') : null;
  const inputs = [currentField, main, confirmField].filter(Boolean).map((f) => f.input);
  const show = h('input', {
    type: 'checkbox', id: `${prefix}-show`, name: `${prefix}-show`, value: 'show',
    onchange: () => { for (const i of inputs) i.type = show.checked ? 'text' : 'password'; },
  });
  const el = h('div', { class: 'password-fields' },
    currentField && currentField.el,
    main.el,
    mode === 'new' ? h('p', { class: 'hint', id: ruleId }, t('account.password.rule', { min: PASSWORD_MIN_BYTES, max: PASSWORD_MAX_BYTES })) : null,
    confirmField && confirmField.el,
    h('div', { class: 'field field--check' }, show, h('label', { for: `${prefix}-show`, class: 'check-label' }, t(inputs.length > 1 ? 'account.password.show' : 'account.password.showOne'))));

  const mark = (input) => {
    for (const i of inputs) i.removeAttribute('aria-invalid');
    if (input) {
      input.setAttribute('aria-invalid', 'true');
      input.focus();
    }
  };

  /** {password, current} to send, or {error} (a function giving the words; the field in question is marked and focused). */
  function read() {
    if (currentField && currentField.input.value === '') {
      mark(currentField.input);
      return { error: () => t('account.password.problem.current') };
    }
    if (mode === 'existing') {
      if (main.input.value === '') {
        mark(main.input);
        return { error: () => t('account.password.problem.empty') };
      }
      mark(null);
      return { password: main.input.value, current: null };
    }
    const problem = passwordProblem(main.input.value, confirmField ? confirmField.input.value : undefined);
    if (problem) {
      mark(problem === 'mismatch' ? confirmField.input : main.input);
      return { error: () => t(`account.password.problem.${problem}`, { min: PASSWORD_MIN_BYTES, max: PASSWORD_MAX_BYTES }) };
    }
    mark(null);
    return { password: main.input.value, current: currentField ? currentField.input.value : null };
  }

  /** Empties the fields (after a change went through: a password never stays on screen). */
  function clear() {
    for (const i of inputs) i.value = '';
  }

  return { el, read, clear, focus: () => (currentField || main).input.focus() };
}
