// The replay page's pure part (web-client/js/models/replay-model.js).
import test from 'node:test';
import assert from 'node:assert/strict';
import { stepFor, replayTable, replayDataPath } from '../../web-client/js/models/replay-model.js';

test('keys and controls step within the game', () => {
  assert.equal(stepFor('ArrowRight', 3, 10), 4);
  assert.equal(stepFor('next', 10, 10), 10);
  assert.equal(stepFor('ArrowLeft', 0, 10), 0);
  assert.equal(stepFor('previous', 5, 10), 4);
  assert.equal(stepFor('PageDown', 5, 10), 10);
  assert.equal(stepFor('PageUp', 5, 10), 0);
  assert.equal(stepFor('Home', 7, 10), 0);
  assert.equal(stepFor('End', 2, 10), 10);
  assert.equal(stepFor('first', 7, 10), 0);
  assert.equal(stepFor('last', 2, 10), 10);
  assert.equal(stepFor('x', 2, 10), null);
  assert.equal(stepFor(' ', 2, 10), null);
});

test('the replay header becomes a finished table with everyone present', () => {
  const info = replayTable({ table: 't1', game: 'medici', players: 2, options: {},
    seats: [{ seat: 0, name: 'Ann' }, { seat: 1, name: 'Bot 1', bot: 'easy' }] });
  assert.equal(info.state, 'finished');
  assert.deepEqual(info.seats.map((s) => [s.name, s.bot, s.connected]), [['Ann', undefined, true], ['Bot 1', 'easy', true]]);
  assert.equal(replayDataPath('t1'), '/tables/t1/replay.json');
  assert.equal(replayDataPath('t1', 'c/d'), '/tables/t1/replay.json?invite=c%2Fd');
});
