// js/models/rematch-rules.js: what a finished table offers ("Play again", "Ann offers a rematch — Join", a link
// to the new table) and the seats a rematch keeps for the players of the previous game.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import { isReserved, rematchState, reservedWords } from '../../web-client/js/models/rematch-rules.js';
import { seatedCount } from '../../web-client/js/models/table-model.js';
import { t } from '../../web-client/js/core/i18n/index.js';

const seats = [{ seat: 0, name: 'Ann', connected: true }, { seat: 1, name: 'Bo', connected: true }, { seat: 2, name: 'Bot 1', bot: 'normal', connected: true }];
const table = (over = {}) => ({ id: 'T', game: 'medici', players: 3, state: 'finished', seats, ...over });

describe('the rematch offer', () => {
  test('nothing before the end', () => {
    assert.deepEqual(rematchState(table({ state: 'playing' }), 0), { kind: 'none' });
    assert.deepEqual(rematchState(null, 0), { kind: 'none' });
  });

  test('"Play again" for the players when nobody has offered yet; nothing for spectators', () => {
    assert.deepEqual(rematchState(table(), 1), { kind: 'offer' });
    assert.deepEqual(rematchState(table(), null), { kind: 'none' });
  });

  test('the offer to the others, with the offerer\'s name', () => {
    const offered = table({ rematch: { table: 'N', by: 0 } });
    assert.deepEqual(rematchState(offered, 1), { kind: 'join', table: 'N', by: 0, name: 'Ann' });
    assert.deepEqual(rematchState(offered, null), { kind: 'watch', table: 'N', by: 0, name: 'Ann' });
  });

  test('a link for the offerer and for whoever already sits at the new table', () => {
    const offered = table({ rematch: { table: 'N', by: 0, invite: 'abc' } });
    assert.deepEqual(rematchState(offered, 0), { kind: 'open', table: 'N', by: 0, name: 'Ann', mine: true });
    assert.deepEqual(rematchState(offered, 1, (id) => id === 'N'), { kind: 'open', table: 'N', by: 0, name: 'Ann', mine: false });
    assert.equal(rematchState(offered, 1, (id) => id === 'other').kind, 'join');
  });

  test('an offer with an unknown seat still shows', () => {
    assert.deepEqual(rematchState(table({ rematch: { table: 'N', by: 9 } }), 1), { kind: 'join', table: 'N', by: 9, name: null });
  });
});

describe('reserved seats', () => {
  const kept = { seat: 1, name: 'Bo', reserved: true, connected: false };

  test('"kept for Bo", and not counted as seated', () => {
    assert.equal(isReserved(kept), true);
    assert.equal(isReserved(seats[1]), false);
    assert.equal(isReserved({ seat: 1, reserved: true }), false, 'a reservation needs a name');
    assert.equal(reservedWords(kept, t), 'kept for Bo');
    assert.equal(reservedWords(seats[0], t), null);
    assert.equal(seatedCount({ seats: [seats[0], kept, { seat: 2, name: null }] }), 1);
  });
});
