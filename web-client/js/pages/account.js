// The account page (/account): who is signed in, and everything about the account: its passkeys
// (account/passkey-list.js), its password (account/password-change.js), the mails it gets
// (account/email-settings.js), its vacations (account/vacation.js), the notifications on this device
// (account/push-settings.js), the devices signed in to it
// (account/session-list.js), the recent sign-ins (account/sign-in-history.js), what moderators decided about it
// (moderationList below), the export of its data and its
// deletion (account/data-and-deletion.js). Each part changes one thing through js/core/accounts.js; the page then
// asks for the account again (GET /api/account) and draws every part from the answer. A page that is not (or
// no longer) signed in offers to sign in. A change of language draws it again from the last answer, keeping
// what was typed (relabel).
import { h, replace, keepValues } from '../core/dom.js';
import { t, language } from '../core/i18n/index.js';
import { errorText } from '../core/errors.js';
import { signInPath, accountPath } from '../core/route.js';
import { timeWords } from '../models/account-rules.js';
import { moderationWords } from '../models/chat-log.js';
import { createPasskeyList } from './account/passkey-list.js';
import { createPasswordChange } from './account/password-change.js';
import { createEmailSettings } from './account/email-settings.js';
import { createVacation } from './account/vacation.js';
import { createPushSettings } from './account/push-settings.js';
import { createSessionList } from './account/session-list.js';
import { signInHistory } from './account/sign-in-history.js';
import { createDataAndDeletion } from './account/data-and-deletion.js';

export function mountAccount(root, ctx) {
  const { navigate, notify, setTitle, accounts } = ctx;
  let details = null; // the last answer of GET /api/account
  let failure = null; // the error of the last attempt, when it failed
  let loading = false;
  let destroyed = false;

  const parts = {
    passkeys: createPasskeyList({ accounts, reload: () => load(), redraw: () => draw() }),
    password: createPasswordChange({ accounts, reload: () => load() }),
    email: createEmailSettings({ accounts, reload: () => load(), redraw: () => draw() }),
    vacation: createVacation({ accounts, reload: () => load() }),
    push: createPushSettings({ accounts, reload: () => load(), redraw: () => draw() }),
    sessions: createSessionList({
      accounts, reload: () => load(), redraw: () => draw(),
      onSignedOut: (count) => notify(t('account.sessions.signedOutAll', { count }), 'info'),
    }),
    data: createDataAndDeletion({
      accounts,
      onDeleted: () => {
        notify(t('account.delete.done'), 'info');
        navigate('/', { replace: true });
      },
    }),
  };

  function signedOutView() {
    return h('section', { class: 'card auth-done', 'data-testid': 'account-signed-out' },
      h('p', null, t('account.notSignedIn')),
      h('div', { class: 'buttons' },
        h('a', { class: 'btn primary', href: signInPath(accountPath), 'data-link': '', 'data-testid': 'account-sign-in' }, t('account.signIn')),
        h('a', { class: 'btn', href: signInPath(accountPath, 'sign-up'), 'data-link': '' }, t('account.signUp.heading'))));
  }

  function summary() {
    const a = details.account;
    return h('section', { class: 'card account-summary', 'aria-labelledby': 'account-h' },
      h('p', { class: 'account-summary-name' },
        h('span', { class: 'account-icon account-icon--big', 'aria-hidden': 'true' }),
        h('strong', { 'data-testid': 'account-page-name' }, a.name)),
      h('p', { class: 'hint' }, t('account.since', { when: timeWords(a.created_at, language()) })),
      h('p', { class: 'hint' }, t('account.summary')),
      h('div', { class: 'buttons' },
        h('button', {
          type: 'button', class: 'btn', 'data-testid': 'account-sign-out',
          onclick: async () => {
            try {
              await accounts.signOut();
              notify(t('account.signedOut'), 'info');
            } catch (err) {
              notify(errorText(err), 'error');
            }
          },
        }, t('account.signOut'))));
  }

  /** What moderators decided about the account (newest first), when anything. */
  function moderationList() {
    const entries = Array.isArray(details.moderation) ? details.moderation : [];
    if (!entries.length) return null;
    return h('section', { class: 'card', 'aria-labelledby': 'account-moderation-h', 'data-testid': 'account-moderation' },
      h('h2', { id: 'account-moderation-h' }, t('account.moderation.heading')),
      h('ul', { class: 'moderation-list' }, entries.map((m) => {
        const words = moderationWords(m, language());
        return h('li', null, h('span', null, t(words.key, words.params)), ' ',
          h('small', { class: 'hint' }, timeWords(m.at, language())));
      })));
  }

  function draw() {
    if (destroyed) return;
    setTitle(t('app.title.account'));
    const heading = h('h1', { tabindex: '-1', id: 'account-h' }, t('account.heading'));
    let body;
    if (accounts.known && !accounts.account) body = [signedOutView()];
    else if (details) {
      body = [summary(), parts.passkeys.render(details), parts.password.render(details), parts.email.render(details),
        parts.vacation.render(details), parts.push.render(details), parts.sessions.render(details),
        signInHistory(details), moderationList(), ...parts.data.render(details)];
    } else if (failure) {
      body = [h('section', { class: 'card', role: 'alert' }, h('p', null, errorText(failure)),
        h('button', { type: 'button', class: 'btn', onclick: () => load() }, t('account.tryAgain')))];
    } else {
      body = [h('p', { class: 'hint' }, t('common.loading'))];
    }
    keepValues(root, () => replace(root, h('div', { class: 'account-page', 'aria-busy': loading ? 'true' : null }, h('div', { class: 'page-head' }, heading), body)));
    for (const part of [parts.passkeys, parts.email, parts.vacation, parts.sessions]) {
      const target = part.takeFocus(root);
      if (target) target.focus();
    }
  }

  async function load() {
    if (destroyed) return;
    if (accounts.known && !accounts.account) {
      details = null;
      draw();
      return;
    }
    loading = true;
    try {
      details = await accounts.details();
      failure = null;
    } catch (err) {
      if (err.code === 'not_signed_in') details = null;
      else failure = err;
    } finally {
      loading = false;
    }
    draw();
  }

  draw();
  load();
  // Signed in or out meanwhile (the header, another part, a session that ended): ask again.
  const off = accounts.on(({ account }) => {
    if (account && details && details.account.id === account.id) return;
    details = null;
    if (account) load();
    else draw();
  });
  return {
    destroy() {
      destroyed = true;
      off();
    },
    relabel: draw,
  };
}
