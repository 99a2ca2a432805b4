// The invitations to tables (js/ui/friends.js), shown on every page under the header as they come: "Ann invites
// you to Medici (3 players)" with Join (takes a seat, then opens the table) and Decline. A polite live region:
// a new invitation is read out without interrupting. It stays until answered, or until the table starts.
import { h, replace, keepFocus } from '../core/dom.js';
import { t } from '../core/i18n/index.js';
import { errorText } from '../core/errors.js';
import { rememberSeat } from '../core/store.js';
import { tablePath } from '../core/route.js';

/** `gameTitle(id)` names a game; `navigate(path)` opens a page. Returns {el, render}. */
export function createInvitationNotices({ friends, store, navigate, notify, gameTitle }) {
  const el = h('div', { class: 'invitations', 'aria-live': 'polite', 'data-testid': 'invitations' });
  let busy = false;

  /** Runs Join or Decline; after a decline (or a refusal) the keyboard goes to the next notice, else to the page. */
  async function answer(inv, work) {
    if (busy) return;
    busy = true;
    try {
      if (await work() === 'away') return; // joined: the table's page takes the keyboard
    } catch (err) {
      notify(errorText(err, 'friends'), 'error');
    } finally {
      busy = false;
    }
    const next = el.querySelector('[data-testid=invitation-join]');
    if (next) next.focus({ preventScroll: true });
    else if (!document.activeElement || document.activeElement === document.body) document.getElementById('app')?.focus({ preventScroll: true });
  }

  function notice(inv) {
    const game = gameTitle(inv.game);
    const text = inv.players ? t('invitation.text', { name: inv.from, game, count: inv.players }) : t('invitation.textNoCount', { name: inv.from, game });
    return h('div', { class: 'invitation', role: 'group', 'aria-label': t('invitation.label', { name: inv.from }), 'data-testid': 'invitation', 'data-table': inv.table },
      h('span', { class: 'invitation-text' }, text),
      h('span', { class: 'buttons' },
        h('button', {
          type: 'button', class: 'btn primary small', 'data-testid': 'invitation-join', 'data-focus': `invitation-join-${inv.table}`,
          onclick: () => answer(inv, async () => {
            const reply = await friends.join(inv);
            rememberSeat(store, reply);
            navigate(tablePath(reply.table.id));
            return 'away';
          }),
        }, t('invitation.join')),
        h('button', {
          type: 'button', class: 'btn subtle small', 'data-testid': 'invitation-decline', 'data-focus': `invitation-decline-${inv.table}`,
          onclick: () => answer(inv, () => friends.decline(inv)),
        }, t('invitation.decline'))));
  }

  function render() {
    keepFocus(el, () => replace(el, friends.state.invitations.map(notice)));
  }

  friends.on('change', render);
  render();
  return { el, render };
}
