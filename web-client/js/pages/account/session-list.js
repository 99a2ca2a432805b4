// The account page's sessions: every device signed in to the account (its browser and system as the server
// named them, when it signed in, when it was last seen), this one marked; each can be signed out, or all at
// once ("sign out everywhere", asked first). Signing out this device's session signs the page out.
import { h } from '../../core/dom.js';
import { t, language } from '../../core/i18n/index.js';
import { errorText } from '../../core/errors.js';
import { formStatus } from '../../ui/form-status.js';
import { deviceWords, sessionRows, timeWords } from '../../models/account-rules.js';

/** `onSignedOut(count)` after "sign out everywhere" (this page is signed out too). */
export function createSessionList({ accounts, reload, redraw, onSignedOut }) {
  const status = formStatus('sessions-status');
  let asking = false; // "sign out everywhere?" is asked
  let busy = false;
  let focusAfter = null;

  async function signOutOne(s) {
    if (busy) return;
    busy = true;
    status.set('busy', () => t('account.working'));
    try {
      await accounts.signOutSession(s.id, { current: Boolean(s.current) });
      status.set('ok', () => t('account.sessions.signedOutOne', { device: deviceWords(s.device, t) }));
      focusAfter = '[data-testid=sign-out-everywhere]';
    } catch (err) {
      status.set('error', () => errorText(err));
    } finally {
      busy = false;
    }
    if (!s.current) await reload();
  }

  async function signOutAll() {
    if (busy) return;
    busy = true;
    status.set('busy', () => t('account.working'));
    try {
      const count = await accounts.signOutEverywhere();
      asking = false;
      status.clear();
      onSignedOut(count);
    } catch (err) {
      status.set('error', () => errorText(err));
      redraw();
    } finally {
      busy = false;
    }
  }

  function row(s) {
    const device = deviceWords(s.device, t);
    const seen = timeWords(s.last_seen_at, language());
    return h('li', { class: ['account-item', s.current ? 'is-current' : ''], 'data-testid': 'session', 'data-current': s.current ? 'true' : 'false' },
      h('div', { class: 'account-item-main' },
        h('strong', { class: 'account-item-title' }, device,
          s.current ? h('span', { class: 'badge', 'data-testid': 'this-device' }, t('account.sessions.thisDevice')) : null),
        h('span', { class: 'account-item-facts' },
          t('account.sessions.since', { when: timeWords(s.created_at, language()) }), ' · ', t('account.sessions.seen', { when: seen }))),
      h('div', { class: 'buttons' },
        h('button', {
          type: 'button', class: 'btn small subtle', 'data-testid': 'session-sign-out',
          'aria-label': t(s.current ? 'account.sessions.signOutThisLabel' : 'account.sessions.signOutLabel', { device, when: seen }),
          onclick: () => signOutOne(s),
        }, t('account.signOut'))));
  }

  function render(details) {
    const rows = sessionRows(details.sessions);
    const everywhere = asking
      ? h('div', { class: 'confirm-inline', role: 'group', 'aria-labelledby': 'everywhere-ask' },
        h('span', { id: 'everywhere-ask' }, t('account.sessions.everywhereAsk', { count: rows.length })),
        h('button', { type: 'button', class: 'btn small danger', 'data-testid': 'sign-out-everywhere-yes', onclick: signOutAll }, t('account.sessions.everywhere')),
        h('button', {
          type: 'button', class: 'btn small subtle',
          onclick: () => { asking = false; focusAfter = '[data-testid=sign-out-everywhere]'; redraw(); },
        }, t('common.cancel')))
      : h('div', { class: 'buttons' },
        h('button', {
          type: 'button', class: 'btn', 'data-testid': 'sign-out-everywhere',
          onclick: () => { asking = true; status.clear(); focusAfter = '[data-testid=sign-out-everywhere-yes]'; redraw(); },
        }, t('account.sessions.everywhere')));
    return h('section', { class: 'card account-section', 'aria-labelledby': 'sessions-h', 'data-testid': 'account-sessions' },
      h('h2', { id: 'sessions-h' }, t('account.sessions.heading')),
      h('p', { class: 'hint' }, t('account.sessions.intro')),
      h('ul', { class: 'account-list', 'data-testid': 'session-list' }, rows.map(row)),
      everywhere,
      status.render());
  }

  function takeFocus(root) {
    const selector = focusAfter;
    focusAfter = null;
    return selector ? root.querySelector(selector) : null;
  }

  return { render, takeFocus };
}
