// The lobby's Friends panel (signed-in players; a guest is told to sign in): "Add a friend" by name, the requests
// that came (Accept / Decline / Block: someone who will not stop asking) and went (Cancel), the friends with their presence ("Playing Medici" linking to
// the table, "Online", "Offline · last seen 3 h ago") with Remove (asked first) and Block, and the blocked names
// (folded) with Unblock. Kept by js/ui/friends.js; drawn again on every change, the form as it was.
import { h, replace, keepFocus } from '../../core/dom.js';
import { t, language } from '../../core/i18n/index.js';
import { errorText } from '../../core/errors.js';
import { profilePath, signInPath, tablePath } from '../../core/route.js';
import { formStatus } from '../../ui/form-status.js';
import { presenceWords } from '../../models/friends-model.js';

const REDRAW_MS = 60000; // "last seen 3 min ago" moves on

/** `gameTitle(id)` names a game. Returns {el, destroy}. */
export function createFriendsPanel({ friends, gameTitle }) {
  const el = h('section', { class: 'card friends', 'aria-labelledby': 'friends-h', 'data-testid': 'friends-panel' });
  const addStatus = formStatus('friend-add-status');
  const listStatus = formStatus('friends-status');
  const input = h('input', {
    type: 'text', id: 'friend-add-name', name: 'friend-name', autocomplete: 'off', spellcheck: 'false', autocapitalize: 'off',
    maxlength: '64', required: true, 'data-testid': 'friend-add-name',
  });
  const addButton = h('button', { type: 'submit', class: 'btn', 'data-testid': 'friend-add' }, t('friends.add.submit'));
  const form = h('form', { class: 'friend-add', onsubmit: (e) => { e.preventDefault(); sendRequest(); } },
    h('label', { for: 'friend-add-name' }, t('friends.add.label')),
    h('div', { class: 'inline-field' }, input, addButton),
    addStatus.render());
  const lists = h('div', { class: 'friends-lists' });
  let confirming = null; // the friend whose removal is asked
  let blockedOpen = false;
  let busy = false;

  async function sendRequest() {
    const name = input.value.trim();
    if (!name || busy) {
      input.focus();
      return;
    }
    busy = true;
    addButton.disabled = true;
    input.removeAttribute('aria-invalid');
    addStatus.set('busy', () => t('friends.add.sending'));
    try {
      const reply = await friends.ask('friend_request', name);
      addStatus.set('ok', () => t(reply.relation === 'friend' ? 'friends.add.nowFriends' : 'friends.add.sent', { name: reply.name }));
      input.value = '';
    } catch (err) {
      input.setAttribute('aria-invalid', 'true');
      addStatus.set('error', () => errorText(err, 'friends'));
    } finally {
      busy = false;
      addButton.disabled = false;
      input.focus();
    }
  }

  /**
   * One change to `name`'s relation; then the keyboard goes to that name's row where it now is (its first
   * button), else to the panel's heading.
   */
  async function act(type, name, done) {
    if (busy) return;
    busy = true;
    listStatus.clear();
    try {
      const reply = await friends.ask(type, name);
      confirming = null;
      listStatus.set('ok', () => t(done, { name: reply.name }));
    } catch (err) {
      listStatus.set('error', () => errorText(err, 'friends'));
      draw();
    } finally {
      busy = false;
    }
    const row = el.querySelector(`[data-friend="${CSS.escape(name)}"] button`);
    const shown = row && !row.closest('details:not([open])'); // not folded away (a name just blocked)
    (shown ? row : el.querySelector('#friends-h')).focus({ preventScroll: true });
  }

  /** A row's button; `data-focus` keeps the keyboard on it when a push draws the lists again. */
  const button = (label, onclick, { kind = '', testid, aria = null }) => h('button', {
    type: 'button', class: ['btn', 'small', kind], 'data-testid': testid, 'aria-label': aria, 'data-focus': `${testid}:${aria || label}`, onclick,
  }, label);

  function friendRow(f) {
    const p = presenceWords(f.presence, { tr: t, lang: language(), gameTitle });
    const where = p.table ? h('a', { href: tablePath(p.table), 'data-link': '', 'data-testid': 'friend-table' }, p.text) : p.text;
    let actions;
    if (confirming === f.name) {
      const ask = t('friends.remove.ask', { name: f.name });
      actions = h('div', { class: 'confirm-inline', role: 'group', 'aria-label': ask },
        h('span', null, ask),
        button(t('friends.remove.yes'), () => act('friend_remove', f.name, 'friends.removed'), { kind: 'danger', testid: 'friend-remove-yes' }),
        button(t('common.cancel'), () => {
          confirming = null;
          draw();
          el.querySelector(`[data-friend="${CSS.escape(f.name)}"] [data-testid=friend-remove]`)?.focus();
        }, { kind: 'subtle', testid: 'friend-remove-no' }));
    } else {
      actions = h('div', { class: 'buttons' },
        button(t('friends.remove'), () => {
          confirming = f.name;
          listStatus.clear();
          draw();
          el.querySelector('[data-testid=friend-remove-yes]')?.focus();
        }, { kind: 'subtle', testid: 'friend-remove', aria: t('friends.removeLabel', { name: f.name }) }),
        button(t('friends.block'), () => act('block', f.name, 'friends.blockedNow'), { kind: 'subtle', testid: 'friend-block', aria: t('friends.blockLabel', { name: f.name }) }));
    }
    return h('li', { class: 'friend', 'data-friend': f.name, 'data-status': p.status, 'data-testid': 'friend' },
      h('div', { class: 'friend-main' },
        h('span', { class: `presence-dot presence-dot--${p.status}`, 'aria-hidden': 'true' }),
        h('a', { class: 'friend-name', href: profilePath(f.name), 'data-link': '' }, f.name),
        h('span', { class: 'friend-presence', 'data-testid': 'friend-presence' }, where)),
      actions);
  }

  function requestRow(r, testid, buttons) {
    return h('li', { class: 'friend', 'data-friend': r.name, 'data-testid': testid },
      h('div', { class: 'friend-main' }, h('a', { class: 'friend-name', href: profilePath(r.name), 'data-link': '' }, r.name)),
      h('div', { class: 'buttons' }, buttons));
  }

  function section(id, heading, items) {
    if (items.length === 0) return null;
    return h('div', { class: 'friends-section' }, h('h3', { id }, heading), h('ul', { class: 'friend-list', 'aria-labelledby': id }, items));
  }

  function draw() {
    const s = friends.state;
    const label = (key, name) => t(key, { name });
    keepFocus(lists, () => replace(lists,
      section('friends-incoming-h', t('friends.incoming'), s.incoming.map((r) => requestRow(r, 'friend-incoming', [
        button(t('friends.accept'), () => act('friend_accept', r.name, 'friends.accepted'), { kind: 'primary', testid: 'friend-accept', aria: label('friends.acceptLabel', r.name) }),
        button(t('friends.decline'), () => act('friend_decline', r.name, 'friends.declined'), { kind: 'subtle', testid: 'friend-decline', aria: label('friends.declineLabel', r.name) }),
        button(t('friends.block'), () => act('block', r.name, 'friends.blockedNow'), { kind: 'subtle', testid: 'friend-block', aria: label('friends.blockLabel', r.name) }),
      ]))),
      section('friends-outgoing-h', t('friends.outgoing'), s.outgoing.map((r) => requestRow(r, 'friend-outgoing', [
        h('span', { class: 'muted' }, t('friends.pending')),
        button(t('friends.cancel'), () => act('friend_cancel', r.name, 'friends.cancelled'), { kind: 'subtle', testid: 'friend-cancel', aria: label('friends.cancelLabel', r.name) }),
      ]))),
      h('div', { class: 'friends-section' },
        h('h3', { id: 'friends-list-h' }, t('friends.list', { count: s.friends.length })),
        s.friends.length
          ? h('ul', { class: 'friend-list', 'aria-labelledby': 'friends-list-h', 'data-testid': 'friend-list' }, s.friends.map(friendRow))
          : h('p', { class: 'empty' }, t('friends.none'))),
      s.blocked.length ? h('details', {
        class: 'friends-blocked', open: blockedOpen, ontoggle: (e) => { blockedOpen = e.currentTarget.open; }, 'data-testid': 'friends-blocked',
      },
      h('summary', null, t('friends.blocked', { count: s.blocked.length })),
      h('ul', { class: 'friend-list' }, s.blocked.map((b) => requestRow(b, 'friend-blocked', [
        button(t('friends.unblock'), () => act('unblock', b.name, 'friends.unblocked'), { kind: 'subtle', testid: 'friend-unblock', aria: label('friends.unblockLabel', b.name) }),
      ])))) : null,
      listStatus.render()));
  }

  function render() {
    // Until the state comes (signed in), or the connection says who this is.
    if (!friends.known && (friends.signedIn || !friends.conn.ready)) {
      replace(el, h('h2', { id: 'friends-h', tabindex: '-1' }, t('friends.heading')), h('p', { class: 'hint' }, t('common.loading')));
      return;
    }
    if (!friends.signedIn) {
      replace(el, h('h2', { id: 'friends-h', tabindex: '-1' }, t('friends.heading')),
        h('p', { class: 'hint', 'data-testid': 'friends-guest' }, t('friends.guest'), ' ',
          h('a', { href: signInPath('/'), 'data-link': '' }, t('account.signIn'))));
      return;
    }
    if (!el.contains(form)) replace(el, h('h2', { id: 'friends-h', tabindex: '-1' }, t('friends.heading')), form, lists);
    draw();
  }

  const off = friends.on('change', render);
  const timer = setInterval(() => { if (friends.signedIn && !el.contains(document.activeElement)) draw(); }, REDRAW_MS);
  render();
  return {
    el,
    destroy() {
      off();
      clearInterval(timer);
    },
  };
}
