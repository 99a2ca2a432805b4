// js/core/store.js (what the browser remembers) and js/core/route.js (what a path means).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import { Store, MemoryStorage, MAX_TRANSCRIPT, rememberSeat } from '../../web-client/js/core/store.js';
import {
  parseRoute, tablePath, replayPath, invitePath, inviteUrl, myGamesPath, accountPath, signInPath, safeNext, profilePath, leaderboardPath,
} from '../../web-client/js/core/route.js';

describe('Store', () => {
  test('remembers the name', () => {
    const local = new MemoryStorage();
    const store = new Store(local, new MemoryStorage());
    assert.equal(store.name(), '');
    store.setName('Ann');
    assert.equal(new Store(local, null).name(), 'Ann', 'kept across page loads');
  });

  test('a guest keeps the name the server gave first, and says it in every hello until a name is chosen', () => {
    const local = new MemoryStorage();
    const store = new Store(local, null);
    assert.equal(store.helloName(), '', 'the first hello has no name: the server makes one up');
    store.keepGuestName('Guest-x1Yz');
    const reloaded = new Store(local, null);
    assert.equal(reloaded.helloName(), 'Guest-x1Yz', 'the same guest after a reload');
    reloaded.keepGuestName('Guest-other');
    assert.equal(reloaded.helloName(), 'Guest-x1Yz', 'the first one stays');
    assert.equal(reloaded.name(), '', 'not a chosen name (the name form stays empty)');
    reloaded.setName('Ann');
    assert.equal(reloaded.helloName(), 'Ann', 'a chosen name wins');
    const chosen = new Store(new MemoryStorage(), null);
    chosen.setName('Bo');
    chosen.keepGuestName('Guest-abc');
    assert.equal(chosen.guestName(), '', 'with a name chosen, no guest name is kept');
    const empty = new Store(new MemoryStorage(), null);
    empty.keepGuestName('');
    empty.keepGuestName(null);
    assert.equal(empty.helloName(), '');
  });

  test('keeps seat tokens by table, merges updates and forgets them', () => {
    let now = 1;
    const local = new MemoryStorage();
    const store = new Store(local, new MemoryStorage(), () => now++);
    assert.equal(store.seat('t1'), null);
    store.saveSeat('t1', { token: 'tok-1', seat: 2, game: 'medici', state: 'waiting' });
    store.saveSeat('t2', { token: 'tok-2', seat: 0, game: 'medici' });
    store.saveSeat('t1', { seat: 1, state: 'playing' }); // renumbered at the start
    const again = new Store(local, null);
    assert.deepEqual({ ...again.seat('t1'), savedAt: 0 }, { token: 'tok-1', seat: 1, game: 'medici', state: 'playing', savedAt: 0 });
    assert.deepEqual(again.seatList().map((s) => s.table), ['t1', 't2'], 'newest first');
    assert.ok(again.seatList().every((s) => !('token' in s)), 'the list never carries tokens');
    again.forgetSeat('t1');
    assert.equal(again.seat('t1'), null);
    assert.equal(again.seat('t2').token, 'tok-2');
  });

  test('rememberSeat keeps the seat (and a private table\'s invite) a reply gives', () => {
    const store = new Store(new MemoryStorage(), null);
    rememberSeat(store, { token: 'tok-7', seat: 1, table: { id: 't7', game: 'medina', state: 'waiting' }, invite: 'inv-7' });
    assert.deepEqual({ ...store.seat('t7'), savedAt: 0 }, { token: 'tok-7', seat: 1, game: 'medina', state: 'waiting', savedAt: 0 });
    assert.equal(store.invite('t7'), 'inv-7');
    assert.equal(store.tableForInvite('inv-7'), 't7');
    rememberSeat(store, { token: 'tok-8', seat: 0, table: { id: 't8', game: 'medici', state: 'playing' } });
    assert.equal(store.seat('t8').token, 'tok-8');
    assert.equal(store.invite('t8'), null, 'a public table has no invite');
  });

  test('a seat record without a token is no seat', () => {
    const store = new Store(new MemoryStorage(), null);
    store.saveSeat('t9', { seat: 1 });
    assert.equal(store.seat('t9'), null);
  });

  test('keeps at most 50 seats, dropping the oldest', () => {
    let now = 0;
    const store = new Store(new MemoryStorage(), null, () => ++now);
    for (let i = 0; i < 60; i++) store.saveSeat(`t${i}`, { token: `k${i}`, seat: 0 });
    assert.equal(Object.keys(store.seats()).length, 50);
    assert.equal(store.seat('t0'), null);
    assert.equal(store.seat('t59').token, 'k59');
  });

  test('the tokens for my_games, and the your-turn signals chosen (off until chosen)', () => {
    const store = new Store(new MemoryStorage(), new MemoryStorage(), () => 7);
    store.saveSeat('t1', { token: 'secret-1', seat: 0 });
    store.saveSeat('t2', { seat: 1 });
    assert.deepEqual(store.seatTokens(), [{ table: 't1', token: 'secret-1', savedAt: 7 }]);
    assert.deepEqual(store.attention(), { sound: false, notify: false, asked: false });
    store.setAttention({ sound: true });
    store.setAttention({ asked: true, notify: true });
    assert.deepEqual(store.attention(), { sound: true, notify: true, asked: true });
  });

  test('invite codes by table and back', () => {
    const store = new Store(new MemoryStorage(), null);
    store.saveInvite('t1', 'INV_1');
    assert.equal(store.invite('t1'), 'INV_1');
    assert.equal(store.tableForInvite('INV_1'), 't1');
    assert.equal(store.tableForInvite('nope'), null);
    assert.equal(store.invite('t2'), null);
  });

  test('transcripts live per tab and are capped', () => {
    const session = new MemoryStorage();
    const store = new Store(new MemoryStorage(), session);
    assert.deepEqual(store.transcript('t1'), { log: [], chat: [] });
    const log = Array.from({ length: MAX_TRANSCRIPT + 20 }, (_, i) => ({ text: `e${i}`, version: i }));
    store.saveTranscript('t1', { log, chat: [{ from: 'Ann', seat: 0, text: '<b>hi</b>' }] });
    const back = new Store(new MemoryStorage(), session).transcript('t1');
    assert.equal(back.log.length, MAX_TRANSCRIPT);
    assert.equal(back.log.at(-1).text, `e${MAX_TRANSCRIPT + 19}`);
    assert.equal(back.chat[0].text, '<b>hi</b>');
  });

  test('survives broken or unavailable storage', () => {
    const broken = { getItem() { throw new Error('denied'); }, setItem() { throw new Error('quota'); }, removeItem() { throw new Error('x'); } };
    const store = new Store(broken, broken);
    store.setName('Bo');
    assert.equal(store.name(), 'Bo', 'falls back to memory');
    store.saveSeat('t', { token: 'k', seat: 0 });
    assert.equal(store.seat('t').token, 'k');
    const garbage = new MemoryStorage();
    garbage.setItem('emporium.seats', '{not json');
    assert.deepEqual(new Store(garbage, null).seats(), {});
  });
});

describe('routes', () => {
  test('paths to routes', () => {
    assert.deepEqual(parseRoute('/'), { name: 'lobby' });
    assert.deepEqual(parseRoute(''), { name: 'lobby' });
    assert.deepEqual(parseRoute('/t/Ab_9-x'), { name: 'table', id: 'Ab_9-x' });
    assert.deepEqual(parseRoute('/t/Ab_9-x/'), { name: 'table', id: 'Ab_9-x' });
    assert.deepEqual(parseRoute('/i/Qm9vZ3JhcGh5'), { name: 'invite', code: 'Qm9vZ3JhcGh5' });
    assert.deepEqual(parseRoute(replayPath('Ab_9-x')), { name: 'replay', id: 'Ab_9-x' });
    assert.deepEqual(parseRoute('/t/Ab_9-x/replay/'), { name: 'replay', id: 'Ab_9-x' });
    for (const bad of ['/t/', '/t/a b', '/t/a%20b', '/x/abc', '/t/abc/def', `/t/${'a'.repeat(129)}`, '/i/<script>', '/t/a/replay/x']) {
      assert.deepEqual(parseRoute(bad), { name: 'notFound' }, bad);
    }
  });

  test('"My games" by path or hash', () => {
    assert.deepEqual(parseRoute(myGamesPath), { name: 'myGames' });
    assert.deepEqual(parseRoute('/my-games/'), { name: 'myGames' });
    assert.deepEqual(parseRoute('/', '#/my-games'), { name: 'myGames' });
    assert.deepEqual(parseRoute('/', '#/other'), { name: 'lobby' });
  });

  test('the account\'s pages, and where signing in goes back to', () => {
    assert.deepEqual(parseRoute(accountPath), { name: 'account' });
    assert.deepEqual(parseRoute('/account/'), { name: 'account' });
    assert.deepEqual(parseRoute('/account/sign-in'), { name: 'signIn', mode: 'sign-in' });
    assert.deepEqual(parseRoute('/account/sign-up'), { name: 'signIn', mode: 'sign-up' });
    assert.deepEqual(parseRoute('/account/other'), { name: 'notFound' });
    assert.equal(signInPath(), '/account/sign-in');
    assert.equal(signInPath('/'), '/account/sign-in');
    assert.equal(signInPath('/t/abc'), '/account/sign-in?next=%2Ft%2Fabc');
    assert.equal(signInPath('/t/abc', 'sign-up'), '/account/sign-up?next=%2Ft%2Fabc');
    assert.equal(signInPath('/account/sign-up'), '/account/sign-in', 'never back to signing in');
    assert.equal(safeNext('?next=%2Ft%2Fabc'), '/t/abc');
    assert.equal(safeNext('?next=%2Faccount'), '/account');
    assert.equal(safeNext('/my-games'), '/my-games');
    assert.equal(safeNext(''), '/');
    for (const bad of ['?next=https%3A%2F%2Fevil.example', '?next=%2F%2Fevil.example', '?next=%2F%5Cevil.example', 'javascript:alert(1)',
      '?next=%2Fnowhere%2Fat%2Fall', '?other=1', 'relative/path', '?next=%2Faccount%2Fsign-in']) {
      assert.equal(safeNext(bad), '/', bad);
    }
  });

  test('profiles by any name, URL-encoded both ways; leaderboards by game', () => {
    for (const name of ['Ann', 'Ann Lee', 'Zoë/ß', '李小龍', 'a?b#c%d']) {
      assert.deepEqual(parseRoute(profilePath(name)), { name: 'profile', player: name }, name);
    }
    assert.equal(profilePath('Ann Lee'), '/u/Ann%20Lee');
    assert.equal(profilePath('a/b'), '/u/a%2Fb');
    for (const bad of ['/u/', '/u/%E0%A4%A', '/u/%20', '/u/a/b', `/u/${'a'.repeat(129)}`]) {
      assert.deepEqual(parseRoute(bad), { name: 'notFound' }, bad);
    }
    assert.deepEqual(parseRoute(leaderboardPath('medici')), { name: 'leaderboard', game: 'medici' });
    assert.deepEqual(parseRoute('/leaderboard'), { name: 'leaderboard', game: null });
    assert.deepEqual(parseRoute('/leaderboard/a b'), { name: 'notFound' });
    assert.equal(safeNext('?next=%2Fu%2FAnn'), '/u/Ann', 'signing in from a profile comes back to it');
  });

  test('routes to paths and the invite URL', () => {
    assert.equal(tablePath('t8f3k2'), '/t/t8f3k2');
    assert.equal(invitePath('Qm9v'), '/i/Qm9v');
    assert.equal(inviteUrl('http://localhost:8080', 'Qm9v'), 'http://localhost:8080/i/Qm9v');
    assert.deepEqual(parseRoute(tablePath('a-b_c')), { name: 'table', id: 'a-b_c' });
  });
});

test('the colour scheme chosen in the header is remembered; anything else means following the system', () => {
  const store = new Store(new MemoryStorage(), new MemoryStorage());
  assert.equal(store.theme(), '');
  store.setTheme('dark');
  assert.equal(store.theme(), 'dark');
  store.setTheme('light');
  assert.equal(store.theme(), 'light');
  store.setTheme('sepia');
  assert.equal(store.theme(), '');
});
