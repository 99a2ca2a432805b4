// Signing in (/account/sign-in) and up (/account/sign-up): the two ways side by side, a passkey first
// (js/pages/sign-in/passkey-way.js) and a name with a password (js/pages/sign-in/password-way.js), in one form.
// A sign-up asks the account's name once, above both ways. Whichever way, the seat tokens this browser keeps go
// along (js/core/store.js), so the games played as a guest become the account's. Once signed in, js/main.js
// opens the WebSocket again (signed in now) and the page goes where it came from (`next`, js/core/route.js).
// A change of language draws it again in place, keeping what was typed (relabel).
import { h, replace, keepValues } from '../core/dom.js';
import { t } from '../core/i18n/index.js';
import { accountPath, signInPath } from '../core/route.js';
import { cleanName } from '../ui/name-form.js';
import { tokensToAsk } from '../models/my-games-model.js';
import { createPasskeyWay } from './sign-in/passkey-way.js';
import { createPasswordWay } from './sign-in/password-way.js';

/** `mode` 'sign-in' | 'sign-up'; `next` the checked path to go to afterwards (js/core/route.js safeNext). */
export function mountSignIn(root, ctx, { mode = 'sign-in', next = '/' } = {}) {
  const { store, navigate, notify, setTitle, accounts } = ctx;
  const signUp = mode === 'sign-up';
  let nameInput = null;
  let nameError = null;
  let nameProblem = false;

  const seats = () => tokensToAsk(store.seatTokens());

  /** The sign-up's name, checked; null (marked and focused, the reason said under it) when it cannot be one. */
  function readName() {
    const name = cleanName(nameInput.value);
    nameProblem = name === null;
    showNameProblem();
    if (nameProblem) {
      nameInput.focus();
      return null;
    }
    return name;
  }

  function showNameProblem() {
    if (!nameInput) return;
    if (nameProblem) nameInput.setAttribute('aria-invalid', 'true');
    else nameInput.removeAttribute('aria-invalid');
    nameError.textContent = nameProblem ? t('account.name.problem') : '';
  }

  function done(reply) {
    const name = reply.account ? reply.account.name : '';
    notify(signUp ? t('account.welcomeNew', { name }) : t('account.welcomeBack', { name }), 'info');
    if (reply.claimed > 0) notify(t('account.claimed', { count: reply.claimed }), 'info');
    navigate(next, { replace: true });
  }

  const passkey = createPasskeyWay({ accounts, mode, readName, seats, onDone: done });
  const password = createPasswordWay({ accounts, mode, readName, seats, onDone: done, defaultName: store.name() });

  function nameSection() {
    nameInput = h('input', {
      type: 'text', id: 'sign-up-name', name: 'username', autocomplete: 'username', required: true, maxlength: '64',
      spellcheck: 'false', autocapitalize: 'off', value: store.name(), 'data-testid': 'sign-up-name',
      'aria-describedby': 'sign-up-name-hint sign-up-name-error',
    });
    nameError = h('p', { class: 'form-status', id: 'sign-up-name-error', 'data-kind': 'error', 'aria-live': 'polite' });
    return h('div', { class: 'field auth-name' },
      h('label', { for: 'sign-up-name' }, t('account.name.label')),
      nameInput,
      h('p', { class: 'hint', id: 'sign-up-name-hint' }, t('account.name.hint')),
      nameError);
  }

  function signedInAlready() {
    return h('section', { class: 'card auth-done', 'data-testid': 'signed-in-already' },
      h('p', null, t('account.signedInAs', { name: accounts.account.name })),
      h('div', { class: 'buttons' },
        h('a', { class: 'btn primary', href: accountPath, 'data-link': '' }, t('account.menu.account')),
        h('a', { class: 'btn', href: next, 'data-link': '' }, t('account.continue'))));
  }

  function render() {
    setTitle(t(signUp ? 'app.title.signUp' : 'app.title.signIn'));
    const kept = store.seatTokens().length;
    const heading = h('h1', { tabindex: '-1' }, t(signUp ? 'account.signUp.heading' : 'account.signIn.heading'));
    if (accounts.account) {
      replace(root, h('div', { class: 'auth' }, heading, signedInAlready()));
      return;
    }
    const form = h('form', {
      class: 'auth-form', novalidate: true, 'aria-labelledby': 'auth-h',
      onsubmit: (e) => {
        e.preventDefault();
        if (e.submitter && e.submitter.value === 'password') password.submit();
        else passkey.submit();
      },
    },
    signUp ? nameSection() : null,
    h('div', { class: 'auth-ways' }, passkey.render(), password.render()));
    heading.id = 'auth-h';
    replace(root, h('div', { class: 'auth' },
      h('div', { class: 'page-head' }, heading),
      h('p', { class: 'tagline' }, t(signUp ? 'account.signUp.intro' : 'account.signIn.intro')),
      kept > 0 ? h('p', { class: 'auth-seats', 'data-testid': 'auth-seats' }, t('account.seatsComeAlong', { count: kept })) : null,
      h('div', { class: 'card' }, form),
      h('p', { class: 'auth-switch' },
        t(signUp ? 'account.signUp.haveOne' : 'account.signIn.noAccount'), ' ',
        h('a', { href: signInPath(next, signUp ? 'sign-in' : 'sign-up'), 'data-link': '', 'data-testid': 'auth-switch' },
          t(signUp ? 'account.signUp.toSignIn' : 'account.signIn.toSignUp'))),
      h('p', { class: 'hint' }, t('account.guestsWelcome'))));
    showNameProblem();
  }

  render();
  const again = () => keepValues(root, render);
  const off = accounts.on(again);
  return { destroy: off, relabel: again };
}
