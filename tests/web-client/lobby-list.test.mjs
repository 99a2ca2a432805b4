// js/models/lobby-list.js: the lobby's list from the whole list, then changes only.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import { applyLobbyFrame, isLobbyFrame } from '../../web-client/js/models/lobby-list.js';

const table = (id, state = 'waiting', extra = {}) => ({ id, game: 'medici', players: 3, state, seats: [], ...extra });
const ids = (tables) => tables.map((x) => x.id);

describe('the lobby list', () => {
  const start = applyLobbyFrame([], { type: 'lobby', re: 1, tables: [table('b'), table('a'), table('p', 'playing')] });

  test('the reply to watch_lobby is the whole list, in the server\'s order', () => {
    assert.deepEqual(ids(start), ['b', 'a', 'p']);
    assert.deepEqual(applyLobbyFrame(start, { type: 'lobby', tables: [] }), []);
  });

  test('a new table comes first among the waiting ones', () => {
    assert.deepEqual(ids(applyLobbyFrame(start, { type: 'lobby_changed', table: table('c') })), ['c', 'b', 'a', 'p']);
    assert.deepEqual(ids(applyLobbyFrame(start, { type: 'lobby_changed', table: table('q', 'playing') })), ['b', 'a', 'q', 'p']);
  });

  test('a changed table is replaced where it is, or moves when its state does', () => {
    const seated = applyLobbyFrame(start, { type: 'lobby_changed', table: table('a', 'waiting', { spectators: 2 }) });
    assert.deepEqual(ids(seated), ['b', 'a', 'p']);
    assert.equal(seated[1].spectators, 2);
    assert.deepEqual(ids(applyLobbyFrame(start, { type: 'lobby_changed', table: table('b', 'playing') })), ['a', 'b', 'p']);
  });

  test('a removed table goes; an unknown one changes nothing', () => {
    assert.deepEqual(ids(applyLobbyFrame(start, { type: 'lobby_removed', table: 'a' })), ['b', 'p']);
    assert.deepEqual(ids(applyLobbyFrame(start, { type: 'lobby_removed', table: 'zz' })), ['b', 'a', 'p']);
  });

  test('the list given is never modified, and other frames leave it as it is', () => {
    const before = JSON.stringify(start);
    applyLobbyFrame(start, { type: 'lobby_changed', table: table('a', 'playing') });
    applyLobbyFrame(start, { type: 'lobby_removed', table: 'b' });
    assert.equal(JSON.stringify(start), before);
    assert.equal(applyLobbyFrame(start, { type: 'table', table: table('x') }), start);
    assert.ok(isLobbyFrame({ type: 'lobby_changed' }) && isLobbyFrame({ type: 'lobby_removed' }) && !isLobbyFrame({ type: 'table' }));
  });
});
