// Signing in or up with a name and a password (js/pages/sign-in.js, beside the passkey). Sign-up: the page's
// name field, a password chosen twice (the rule shown: js/ui/password-fields.js); sign-in: its own name field
// and the password. Enter in these fields sends this way, not the passkey's.
import { h } from '../../core/dom.js';
import { t } from '../../core/i18n/index.js';
import { errorText } from '../../core/errors.js';
import { formStatus } from '../../ui/form-status.js';
import { passwordFields } from '../../ui/password-fields.js';
import { cleanName } from '../../ui/name-form.js';

/**
 * `mode` 'sign-in' | 'sign-up'; `readName()` the page's name field for a sign-up (null: it said why);
 * `defaultName` fills the sign-in's name; `seats()` the tokens to hand over; `onDone(reply, 'password')`.
 * render() gives the way's <fieldset> (its submit button has the value "password").
 */
export function createPasswordWay({ accounts, mode, readName, defaultName = '', seats, onDone }) {
  let busy = false;
  const status = formStatus('password-status');
  let button = null;
  let fields = null;
  let nameInput = null;

  function setBusy(on) {
    busy = on;
    if (button) {
      button.disabled = on;
      button.setAttribute('aria-busy', String(on));
    }
  }

  /** The sign-in's name: anything not empty (whether it is an account's is the server's answer). */
  function signInName() {
    const name = cleanName(nameInput.value);
    if (name === null) {
      nameInput.setAttribute('aria-invalid', 'true');
      nameInput.focus();
      status.set('error', () => t('account.name.problem'));
      return null;
    }
    nameInput.removeAttribute('aria-invalid');
    return name;
  }

  async function submit() {
    if (busy) return;
    const signUp = mode === 'sign-up';
    const name = signUp ? readName() : signInName();
    if (name === null) return;
    const read = fields.read();
    if (read.error) {
      status.set('error', read.error);
      return;
    }
    setBusy(true);
    status.set('busy', () => t(signUp ? 'account.password.creating' : 'account.password.checking'));
    try {
      const reply = signUp
        ? await accounts.signUpWithPassword({ name, password: read.password, seats: seats() })
        : await accounts.signInWithPassword({ name, password: read.password, seats: seats() });
      fields.clear();
      status.clear();
      onDone(reply, 'password');
    } catch (err) {
      status.set('error', () => errorText(err));
      fields.focus();
    } finally {
      setBusy(false);
    }
  }

  function render() {
    const signUp = mode === 'sign-up';
    fields = passwordFields({ prefix: signUp ? 'sign-up' : 'sign-in', mode: signUp ? 'new' : 'existing' });
    button = h('button', {
      type: 'submit', value: 'password', class: 'btn', 'data-testid': signUp ? 'password-sign-up' : 'password-sign-in',
    }, t(signUp ? 'account.password.signUp' : 'account.password.signIn'));
    nameInput = signUp ? null : h('input', {
      type: 'text', id: 'sign-in-name', name: 'username', autocomplete: 'username', required: true, maxlength: '64',
      spellcheck: 'false', autocapitalize: 'off', value: defaultName, 'data-testid': 'sign-in-name',
    });
    const el = h('fieldset', { class: 'auth-way', 'data-testid': 'password-way' },
      h('legend', null, t('account.password.heading')),
      h('p', { class: 'auth-about' }, t(signUp ? 'account.password.aboutSignUp' : 'account.password.aboutSignIn')),
      nameInput ? h('div', { class: 'field' }, h('label', { for: 'sign-in-name' }, t('account.name.label')), nameInput) : null,
      fields.el,
      h('div', { class: 'buttons' }, button),
      status.render());
    // Enter in a field of this way sends it (the form's first button is the passkey's).
    el.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' || e.target.tagName !== 'INPUT' || e.target.type === 'checkbox' || e.isComposing) return;
      e.preventDefault();
      submit();
    });
    setBusy(busy);
    return el;
  }

  return { render, submit };
}
