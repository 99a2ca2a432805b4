// Signing in or up with a passkey (js/pages/sign-in.js puts it first: no password to remember or to leak).
// Sign-up: the name (the page's field) and an optional label for the passkey, then the browser makes the
// passkey (navigator.credentials.create); sign-in: no name, the browser offers the passkeys it has for this site.
// Where the browser has no passkeys (no PublicKeyCredential, not a secure page) it says so and offers nothing.
// The ceremony itself is js/core/accounts.js's.
import { h } from '../../core/dom.js';
import { t } from '../../core/i18n/index.js';
import { errorText } from '../../core/errors.js';
import { formStatus } from '../../ui/form-status.js';
import { cleanLabel } from '../../models/account-rules.js';

/**
 * `mode` 'sign-in' | 'sign-up'; `readName()` the name field's checked value (null: it said why);
 * `seats()` the seat tokens to hand over; `onDone(reply, 'passkey')` once signed in.
 * render() gives the way's <fieldset> (the page's form holds it: its submit button has the value "passkey").
 */
export function createPasskeyWay({ accounts, mode, readName, seats, onDone }) {
  let busy = false;
  const status = formStatus('passkey-status');
  let button = null;
  let labelInput = null;

  async function submit() {
    if (busy || !accounts.passkeys) return;
    const signUp = mode === 'sign-up';
    const name = signUp ? readName() : '';
    if (name === null) return;
    const label = signUp ? cleanLabel(labelInput.value) : '';
    if (label === null) {
      labelInput.setAttribute('aria-invalid', 'true');
      labelInput.focus();
      status.set('error', () => t('account.passkey.labelTooLong'));
      return;
    }
    if (labelInput) labelInput.removeAttribute('aria-invalid');
    setBusy(true);
    status.set('busy', () => t('account.passkey.waiting'));
    try {
      const reply = signUp
        ? await accounts.signUpWithPasskey({ name, label, seats: seats() })
        : await accounts.signInWithPasskey({ seats: seats() });
      status.clear();
      onDone(reply, 'passkey');
    } catch (err) {
      status.set('error', () => errorText(err));
      setBusy(false);
      if (button) button.focus();
    } finally {
      setBusy(false);
    }
  }

  function setBusy(on) {
    busy = on;
    if (button) {
      button.disabled = on;
      button.setAttribute('aria-busy', String(on));
    }
  }

  function render() {
    const supported = accounts.passkeys;
    const signUp = mode === 'sign-up';
    button = h('button', {
      type: 'submit', value: 'passkey', class: 'btn primary big', 'data-testid': signUp ? 'passkey-sign-up' : 'passkey-sign-in',
      disabled: !supported || busy, 'aria-describedby': 'passkey-about',
    }, t(signUp ? 'account.passkey.signUp' : 'account.passkey.signIn'));
    labelInput = signUp ? h('input', {
      type: 'text', id: 'passkey-label', name: 'passkey-label', autocomplete: 'off', maxlength: '80', spellcheck: 'false',
      placeholder: t('account.passkey.labelPlaceholder'), 'aria-describedby': 'passkey-label-hint', disabled: !supported,
    }) : null;
    const el = h('fieldset', { class: ['auth-way', 'auth-way--passkey'], 'data-testid': 'passkey-way' },
      h('legend', null, t('account.passkey.heading'), ' ', h('span', { class: 'badge badge--recommended' }, t('account.passkey.recommended'))),
      h('p', { id: 'passkey-about', class: 'auth-about' }, t(signUp ? 'account.passkey.aboutSignUp' : 'account.passkey.aboutSignIn')),
      supported ? null : h('p', { class: 'auth-unsupported', 'data-testid': 'passkey-unsupported' }, t('account.passkey.unsupported')),
      labelInput ? h('div', { class: 'field' },
        h('label', { for: 'passkey-label' }, t('account.passkey.label')),
        labelInput,
        h('p', { class: 'hint', id: 'passkey-label-hint' }, t('account.passkey.labelHint'))) : null,
      h('div', { class: 'buttons' }, button),
      status.render());
    setBusy(busy);
    if (!supported) button.disabled = true;
    return el;
  }

  return { render, submit };
}
