// On another player's profile, for a signed-in viewer: where they stand with that player and what they can do,
// from the same state as the lobby's Friends panel (js/ui/friends.js): "Add friend", "Request sent",
// "Accept request" or "Friends", and "Block" / "Unblock". A refusal is said below the buttons.
import { h } from '../../core/dom.js';
import { t } from '../../core/i18n/index.js';
import { errorText } from '../../core/errors.js';
import { formStatus } from '../../ui/form-status.js';
import { relationOf } from '../../models/friends-model.js';

/** Returns {render(name): element, destroy}; `redraw()` draws the page again (keeping the focus by data-focus). */
export function createFriendActions({ friends, redraw }) {
  const status = formStatus('profile-friend-status');
  let busy = false;
  const off = friends.on('change', redraw);

  async function act(type, name, done) {
    if (busy) return;
    busy = true;
    try {
      const reply = await friends.ask(type, name);
      status.set('ok', () => t(done, { name: reply.name }));
    } catch (err) {
      status.set('error', () => errorText(err, 'friends'));
    } finally {
      busy = false;
    }
    redraw();
  }

  const button = (label, type, name, done, { kind = '', testid }) => h('button', {
    type: 'button', class: ['btn', 'small', kind], 'data-testid': testid, 'data-focus': `profile-friend-${kind || 'main'}`,
    onclick: () => act(type, name, done),
  }, label);

  /** The element, or null until the friends state is known (it would offer "Add friend" to a friend). */
  function render(name) {
    if (!friends.known) return null;
    const relation = relationOf(friends.state, name);
    const main = {
      none: button(t('friends.profile.add'), 'friend_request', name, 'friends.add.sent', { kind: 'primary', testid: 'profile-friend-add' }),
      outgoing: h('span', { class: 'badge', 'data-testid': 'profile-friend-state' }, t('friends.profile.sent')),
      incoming: button(t('friends.profile.accept'), 'friend_accept', name, 'friends.accepted', { kind: 'primary', testid: 'profile-friend-accept' }),
      friend: h('span', { class: 'badge', 'data-testid': 'profile-friend-state' }, t('friends.profile.friends')),
      blocked: null,
    }[relation];
    const block = relation === 'blocked'
      ? button(t('friends.unblock'), 'unblock', name, 'friends.unblocked', { kind: 'subtle', testid: 'profile-unblock' })
      : button(t('friends.block'), 'block', name, 'friends.blockedNow', { kind: 'subtle', testid: 'profile-block' });
    return h('div', { class: 'profile-friend', 'data-testid': 'profile-friend', 'data-relation': relation },
      h('div', { class: 'buttons' }, main, block),
      status.render());
  }

  return { render, destroy: off };
}
