// The friends model (web-client/js/models/friends-model.js): the `friends` frame taken whole, `friend` frames
// upserted by name (case aside) and removed by `none`, the panel's order, presence in words, and the invitations
// (added, replaced, gone on join / decline / the table's start); and the app-wide keeper of that state
// (web-client/js/ui/friends.js) on a fake connection.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  emptyFriends, applyFriends, applyFriend, relationOf, sortFriends, inviteChoices, addInvitation, removeInvitation, tableNews,
  joinRequest, invitationGone, presenceWords, agoText,
} from '../../web-client/js/models/friends-model.js';
import { Friends } from '../../web-client/js/ui/friends.js';
import { translate } from '../../web-client/js/core/i18n/index.js';
import en from '../../web-client/js/core/i18n/en.js';

const tr = (key, params) => translate(en, key, params);
const NOW_S = 1796000000;
const names = (list) => list.map((x) => x.name);

const FRAME = {
  type: 'friends', re: 'r1',
  friends: [
    { name: 'zed', presence: { status: 'offline', last_seen: NOW_S - 3 * 3600 }, since: NOW_S - 86400 },
    { name: 'Bo', presence: { status: 'online' } },
    { name: 'ann', presence: { status: 'playing', table: 't1', game: 'medici' } },
    { name: 'Cy', presence: { status: 'playing' } },
    { name: 'Al', presence: { status: 'offline' } },
    { presence: { status: 'online' } }, // no name: dropped
  ],
  incoming: [{ name: 'Di', at: NOW_S }],
  outgoing: [{ name: 'Ed', at: NOW_S }],
  blocked: [{ name: 'Fy' }],
  invitations: [{ type: 'invitation', table: 't9', game: 'medici', from: 'Bo', players: 3, invite: 'k9', at: NOW_S }, { game: 'x' }],
};

test('the friends frame is taken whole: playing, online, offline, then by name (case aside)', () => {
  const s = applyFriends(FRAME);
  assert.deepEqual(names(s.friends), ['ann', 'Cy', 'Bo', 'Al', 'zed']);
  assert.deepEqual(s.friends[0].presence, { status: 'playing', table: 't1', game: 'medici' });
  assert.deepEqual(s.friends[4].presence, { status: 'offline', lastSeen: NOW_S - 3 * 3600 });
  assert.equal(s.friends[4].since, NOW_S - 86400);
  assert.deepEqual(names(s.incoming), ['Di']);
  assert.deepEqual(names(s.outgoing), ['Ed']);
  assert.deepEqual(names(s.blocked), ['Fy']);
  assert.deepEqual(s.invitations, [{ table: 't9', game: 'medici', from: 'Bo', players: 3, invite: 'k9', at: NOW_S }]);
  assert.deepEqual(applyFriends({ type: 'friends' }), emptyFriends(), 'missing lists are empty');
});

test('a friend frame moves the name to the list of its relation, whatever case it is written in', () => {
  let s = applyFriends(FRAME);
  s = applyFriend(s, { type: 'friend', name: 'DI', relation: 'friend', presence: { status: 'online' } });
  assert.deepEqual(names(s.incoming), []);
  assert.deepEqual(names(s.friends), ['ann', 'Cy', 'Bo', 'DI', 'Al', 'zed']);
  assert.equal(relationOf(s, 'di'), 'friend');

  const before = s;
  s = applyFriend(s, { type: 'friend', name: 'Gus', relation: 'outgoing' }, NOW_S);
  assert.deepEqual(s.outgoing, [{ name: 'Ed', at: NOW_S }, { name: 'Gus', at: NOW_S }]);
  assert.equal(before.outgoing.length, 1, 'the state given is not modified');
  assert.equal(relationOf(s, 'gus'), 'outgoing');

  s = applyFriend(s, { type: 'friend', name: 'Hal', relation: 'incoming', at: NOW_S - 5 });
  assert.equal(relationOf(s, 'Hal'), 'incoming');
  assert.equal(relationOf(s, 'nobody'), 'none');
});

test('a presence change keeps the friend once, re-sorted, with the date of the friendship', () => {
  let s = applyFriends(FRAME);
  s = applyFriend(s, { type: 'friend', name: 'zed', relation: 'friend', presence: { status: 'playing', table: 't2', game: 'medina' } });
  assert.deepEqual(names(s.friends), ['ann', 'Cy', 'zed', 'Bo', 'Al']);
  const zed = s.friends.find((f) => f.name === 'zed');
  assert.equal(zed.since, NOW_S - 86400);
  assert.deepEqual(zed.presence, { status: 'playing', table: 't2', game: 'medina' });
  s = applyFriend(s, { type: 'friend', name: 'ann', relation: 'friend', presence: { status: 'offline', last_seen: NOW_S } });
  assert.deepEqual(names(s.friends), ['Cy', 'zed', 'Bo', 'Al', 'ann']);
  assert.deepEqual(s.friends.at(-1).presence, { status: 'offline', lastSeen: NOW_S }, 'no table once offline');
});

test('relation none removes the name from every list; blocked ends a friendship and drops their invitations', () => {
  let s = applyFriends(FRAME);
  s = applyFriend(s, { type: 'friend', name: 'ed', relation: 'none' });
  assert.deepEqual(names(s.outgoing), []);
  s = applyFriend(s, { type: 'friend', name: 'bo', relation: 'blocked' });
  assert.equal(relationOf(s, 'Bo'), 'blocked');
  assert.ok(!names(s.friends).includes('Bo'));
  assert.deepEqual(s.invitations, [], 'Bo\'s invitation goes with the block');
  s = applyFriend(s, { type: 'friend', name: 'bo', relation: 'none' });
  assert.equal(relationOf(s, 'Bo'), 'none');
  assert.deepEqual(names(s.blocked), ['Fy']);
  assert.equal(applyFriend(s, { type: 'friend', relation: 'friend' }), s, 'a frame without a name changes nothing');
});

test('sorting is stable on names that differ only in case; invite choices put online friends first', () => {
  const f = (name, status) => ({ name, presence: { status } });
  const once = names(sortFriends([f('b', 'online'), f('B', 'online'), f('a', 'offline')]));
  assert.deepEqual(names(sortFriends([f('B', 'online'), f('b', 'online'), f('a', 'offline')])), once, 'the same order whatever came first');
  assert.equal(once[2], 'a');
  const s = applyFriends(FRAME);
  assert.deepEqual(names(inviteChoices(s)), ['Bo', 'ann', 'Cy', 'Al', 'zed']);
});

test('presence in words: playing a game (with its table), playing a private table, online, last seen', () => {
  const gameTitle = (id) => ({ medici: 'Medici' }[id] || id);
  const now = NOW_S * 1000;
  assert.deepEqual(presenceWords({ status: 'playing', table: 't1', game: 'medici' }, { tr, nowMs: now, gameTitle }),
    { status: 'playing', text: 'Playing Medici', table: 't1' });
  assert.deepEqual(presenceWords({ status: 'playing' }, { tr, nowMs: now }), { status: 'playing', text: 'Playing', table: null });
  assert.deepEqual(presenceWords({ status: 'online' }, { tr, nowMs: now }), { status: 'online', text: 'Online', table: null });
  assert.equal(presenceWords({ status: 'offline' }, { tr, nowMs: now }).text, 'Offline');
  const seen = presenceWords({ status: 'offline', lastSeen: NOW_S - 3 * 3600 }, { tr, lang: 'en', nowMs: now });
  assert.equal(seen.text, `Offline · last seen ${new Intl.RelativeTimeFormat('en', { style: 'narrow' }).format(-3, 'hour')}`);
  assert.match(seen.text, /^Offline · last seen 3\s?h\S* ago$/);
});

test('"ago" picks minutes, hours or days, at least a minute, in the language asked', () => {
  const now = NOW_S * 1000;
  const rtf = (lang) => new Intl.RelativeTimeFormat(lang, { style: 'narrow' });
  assert.equal(agoText(NOW_S - 10, now, 'en'), rtf('en').format(-1, 'minute'));
  assert.equal(agoText(NOW_S - 25 * 60, now, 'en'), rtf('en').format(-25, 'minute'));
  assert.equal(agoText(NOW_S - 5 * 3600, now, 'en'), rtf('en').format(-5, 'hour'));
  assert.equal(agoText(NOW_S - 3 * 86400, now, 'ja'), rtf('ja').format(-3, 'day'));
  assert.equal(agoText(NOW_S + 60, now, 'en'), rtf('en').format(-1, 'minute'), 'a clock ahead is "a minute ago", not the future');
});

test('invitations: added (a newer one to the same table replaces it), removed on join or decline', () => {
  let s = emptyFriends();
  s = addInvitation(s, { type: 'invitation', table: 't1', game: 'medici', from: 'Ann', players: 3, invite: 'k1', at: NOW_S });
  s = addInvitation(s, { type: 'invitation', table: 't2', game: 'medina', from: 'Bo', players: 2, at: NOW_S });
  s = addInvitation(s, { type: 'invitation', table: 't1', game: 'medici', from: 'Cy', players: 3, invite: 'k1', at: NOW_S + 1 });
  assert.deepEqual(s.invitations.map((i) => [i.table, i.from]), [['t2', 'Bo'], ['t1', 'Cy']]);
  assert.equal(addInvitation(s, { type: 'invitation', from: 'Ed' }), s, 'no table: ignored');
  assert.deepEqual(joinRequest(s.invitations[1]), { type: 'join', invite: 'k1' });
  assert.deepEqual(joinRequest(s.invitations[0]), { type: 'join', table: 't2' });
  const joined = removeInvitation(s, 't1');
  assert.deepEqual(joined.invitations.map((i) => i.table), ['t2']);
  assert.equal(removeInvitation(joined, 't1'), joined, 'removing one that is gone changes nothing');
  assert.ok(invitationGone('no_such_invitation') && invitationGone('already_started') && invitationGone('cannot_join'));
  assert.ok(!invitationGone('disconnected') && !invitationGone('rate_limited'), 'a passing failure keeps it');
});

test('an invitation goes when its table starts or closes, not while it waits', () => {
  let s = addInvitation(emptyFriends(), { type: 'invitation', table: 't1', game: 'medici', from: 'Ann', players: 3, at: NOW_S });
  assert.equal(tableNews(s, { id: 't1', state: 'waiting' }), s);
  assert.equal(tableNews(s, { id: 't2', state: 'playing' }), s);
  s = tableNews(s, { id: 't1', state: 'playing' });
  assert.deepEqual(s.invitations, []);
  assert.equal(tableNews(s, undefined), s);
});

// ---- the app-wide keeper (web-client/js/ui/friends.js), on a fake connection ----

/** A connection's surface as Friends uses it; `answer(msg)` is the server (a frame, or an error to refuse). */
class FakeConn {
  constructor(answer) {
    this.answer = answer;
    this.ready = false;
    this.account = null;
    this.fns = { ready: new Set(), message: new Set() };
    this.sent = [];
  }
  whenReady(fn) { this.fns.ready.add(fn); return () => this.fns.ready.delete(fn); }
  on(type, fn) { this.fns[type].add(fn); return () => this.fns[type].delete(fn); }
  request(msg) {
    this.sent.push(msg);
    const reply = this.answer(msg);
    return reply instanceof Error ? Promise.reject(reply) : Promise.resolve(reply);
  }
  async hello(account) {
    this.account = account;
    this.ready = true;
    await Promise.all([...this.fns.ready].map((fn) => fn()));
  }
  push(frame) { for (const fn of this.fns.message) fn(frame); }
}
const refusal = (code) => Object.assign(new Error(code), { code });
const INVITE = { type: 'invitation', table: 't7', game: 'medici', from: 'Ann', players: 2, invite: 'k7', at: NOW_S };

test('the keeper asks for the friends after a signed-in hello only, and says each change', async () => {
  const conn = new FakeConn((msg) => (msg.type === 'friends' ? { type: 'friends', friends: [{ name: 'Bo', presence: { status: 'online' } }] } : null));
  const friends = new Friends(conn);
  let changes = 0;
  friends.on('change', () => { changes += 1; });
  await conn.hello(null);
  assert.deepEqual(conn.sent, [], 'a guest asks nothing');
  assert.equal(friends.signedIn, false);
  await conn.hello({ id: 'a1', name: 'Ann' });
  assert.deepEqual(conn.sent, [{ type: 'friends' }]);
  assert.ok(friends.known);
  assert.deepEqual(names(friends.state.friends), ['Bo']);
  const before = changes;
  conn.push({ type: 'friend', name: 'Bo', relation: 'friend', presence: { status: 'playing' } });
  assert.equal(friends.state.friends[0].presence.status, 'playing');
  conn.push({ type: 'table', table: { id: 'elsewhere', state: 'playing' } });
  assert.equal(changes, before + 1, 'news of a table nobody invited to changes nothing');
  conn.push(INVITE);
  assert.deepEqual(friends.state.invitations.map((i) => i.table), ['t7']);
  conn.push({ type: 'table', table: { id: 't7', state: 'playing' } });
  assert.deepEqual(friends.state.invitations, [], 'the table started: the invitation goes');
});

test('the keeper applies the reply to its own request, and passes invitation_declined on', async () => {
  const conn = new FakeConn((msg) => {
    if (msg.type === 'friends') return { type: 'friends' };
    if (msg.type === 'friend_request') return { type: 'friend', name: 'Bo', relation: 'outgoing' };
    return refusal('no_such_player');
  });
  const friends = new Friends(conn);
  await conn.hello({ id: 'a1', name: 'Ann' });
  const reply = await friends.ask('friend_request', 'bo');
  assert.deepEqual(conn.sent.at(-1), { type: 'friend_request', name: 'bo' });
  assert.equal(reply.name, 'Bo');
  assert.equal(relationOf(friends.state, 'Bo'), 'outgoing');
  await assert.rejects(friends.ask('block', 'Nobody'), { code: 'no_such_player' });
  assert.equal(relationOf(friends.state, 'Nobody'), 'none', 'a refusal changes nothing');
  const declined = [];
  friends.on('declined', (d) => declined.push(d));
  conn.push({ type: 'invitation_declined', table: 't7', name: 'Bo' });
  assert.deepEqual(declined, [{ table: 't7', name: 'Bo' }]);
});

test('joining or declining ends the invitation; a refusal ends it only when it is gone', async () => {
  let joinAnswer = { type: 'joined', table: { id: 't7' }, seat: 1 };
  const conn = new FakeConn((msg) => {
    if (msg.type === 'friends') return { type: 'friends', invitations: [INVITE, { ...INVITE, table: 't8', invite: undefined }] };
    if (msg.type === 'join') return joinAnswer;
    return refusal('no_such_invitation');
  });
  const friends = new Friends(conn);
  await conn.hello({ id: 'b1', name: 'Bo' });
  const [t7, t8] = friends.state.invitations;
  joinAnswer = refusal('disconnected');
  await assert.rejects(friends.join(t7), { code: 'disconnected' });
  assert.equal(friends.state.invitations.length, 2, 'a lost connection keeps it: try again');
  joinAnswer = { type: 'joined', table: { id: 't7' }, seat: 1 };
  await friends.join(t7);
  assert.deepEqual(conn.sent.at(-1), { type: 'join', invite: 'k7' });
  assert.deepEqual(friends.state.invitations.map((i) => i.table), ['t8']);
  await assert.rejects(friends.decline(t8), { code: 'no_such_invitation' });
  assert.deepEqual(conn.sent.at(-1), { type: 'decline_invitation', table: 't8' });
  assert.deepEqual(friends.state.invitations, [], 'gone on the server: gone here');
});
