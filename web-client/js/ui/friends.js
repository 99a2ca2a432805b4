// The signed-in player's friends, requests, blocks and invitations, kept for every page from the app-wide
// connection (js/main.js makes one): after each hello of a signed-in connection it asks {"type":"friends"}; then
// it applies the `friend` and `invitation` frames the server pushes, and the replies to the requests made here.
// The state itself is js/models/friends-model.js's (hence this layer, above the models, though it draws
// nothing): the pages, the invitation notices and the header share this one. Listeners: 'change' (the state),
// 'declined' (an `invitation_declined` frame: someone declined this player's invitation).
import {
  emptyFriends, applyFriends, applyFriend, addInvitation, removeInvitation, tableNews, joinRequest, invitationGone,
} from '../models/friends-model.js';

export class Friends {
  constructor(conn) {
    this.conn = conn;
    this.state = emptyFriends();
    this.known = false; // the `friends` frame came on this connection
    this.listeners = { change: new Set(), declined: new Set() };
    conn.whenReady(() => this.load());
    conn.on('message', (f) => this.onFrame(f));
  }

  /** 'change' (state) or 'declined' ({table, name}); returns the function that stops it. */
  on(type, fn) {
    this.listeners[type].add(fn);
    return () => this.listeners[type].delete(fn);
  }

  emit(type, value) {
    for (const fn of [...this.listeners[type]]) {
      try { fn(value); } catch (e) { console.error(`emporium: a friends ${type} listener failed`, e); }
    }
  }

  set(state) {
    if (state === this.state) return; // nothing changed (news of a table nobody invited this player to)
    this.state = state;
    this.emit('change', state);
  }

  /** Whether the connection is signed in (friends are for accounts only). */
  get signedIn() {
    return Boolean(this.conn.account);
  }

  async load() {
    this.known = false;
    if (!this.conn.account) {
      this.set(emptyFriends());
      return;
    }
    try {
      const reply = await this.conn.request({ type: 'friends' });
      this.known = true;
      this.set(applyFriends(reply));
    } catch (err) {
      if (err.code !== 'disconnected') console.warn('emporium: the friends list could not be loaded', err);
      this.emit('change', this.state);
    }
  }

  onFrame(f) {
    if (f.type === 'friend') this.set(applyFriend(this.state, f));
    else if (f.type === 'invitation') this.set(addInvitation(this.state, f));
    else if (f.type === 'invitation_declined') this.emit('declined', { table: f.table, name: f.name });
    else if (f.type === 'table' || f.type === 'lobby_changed') this.set(tableNews(this.state, f.table));
    else if (f.type === 'lobby_removed') this.set(removeInvitation(this.state, f.table));
  }

  /** friend_request, friend_accept, friend_decline, friend_cancel, friend_remove, block or unblock of `name`. */
  async ask(type, name) {
    const reply = await this.conn.request({ type, name });
    this.set(applyFriend(this.state, reply));
    return reply;
  }

  /** Invites friend `name` to `table` (where this player is seated); resolves with the `invited` reply. */
  invite(table, name) {
    return this.conn.request({ type: 'invite', table, name });
  }

  /** Runs `work` for an invitation; it goes when that succeeds, or fails because the invitation is gone. */
  async settle(inv, work) {
    try {
      const reply = await work();
      this.set(removeInvitation(this.state, inv.table));
      return reply;
    } catch (err) {
      if (invitationGone(err.code)) this.set(removeInvitation(this.state, inv.table));
      throw err;
    }
  }

  /** Accepts an invitation: joins its table; resolves with the join reply (a seat). */
  join(inv) {
    return this.settle(inv, () => this.conn.request(joinRequest(inv)));
  }

  decline(inv) {
    return this.settle(inv, () => this.conn.request({ type: 'decline_invitation', table: inv.table }));
  }
}
