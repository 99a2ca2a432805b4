// The last-move marks after an undo (issue 37): a step taken back leaves the player's mark
// (js/models/last-moves.js forget, and Merkator's move in progress, games/merkator/marks.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createLastMoves } from '../../web-client/js/models/last-moves.js';
import { noteEvents } from '../../web-client/games/merkator/marks.js';

test('forget: the keys of a step taken back leave the mark; the mark goes when nothing is left of it', () => {
  const marks = createLastMoves({ now: () => 0 });
  marks.note(0, ['a']);
  marks.note(1, ['b']);
  marks.add(1, ['c']);
  marks.forget(1, ['c']);
  assert.equal(marks.at('c'), null, 'the undone place is no longer marked');
  assert.equal(marks.at('b').player, 1, 'the rest of the move stays');
  marks.forget(1, 'b');
  assert.equal(marks.at('b'), null);
  assert.equal(marks.at('a').player, 0, 'another player\'s mark stays');
  // The player's next step starts a mark again.
  marks.add(1, ['d']);
  assert.equal(marks.at('d').player, 1);
  marks.forget(1);
  assert.equal(marks.at('d'), null, 'without keys the whole mark goes');
  marks.forget(5, ['x']); // nobody's: nothing happens
  assert.equal(marks.at('a').player, 0);
});

test('Merkator: a sale taken back leaves the move in progress, the trip before it stays', () => {
  const marks = createLastMoves({ now: () => 0 });
  const moves = new Map();
  noteEvents(marks, moves, [{ type: 'turn', player: 1, turn: 3 }], 0);
  noteEvents(marks, moves, [{ type: 'travel', player: 1, location: 'sweden', paid: 0, time: 3 }], 1);
  const sale = { type: 'sell', player: 1, contract: 'c1', coins: 4 };
  noteEvents(marks, moves, [sale], 1);
  assert.equal(marks.at('coins:1').player, 1);
  noteEvents(marks, moves, [{ type: 'undo', player: 1, undone: [sale] }], 1);
  assert.equal(marks.at('coins:1'), null, 'the sale is no longer marked');
  assert.equal(marks.at('loc:sweden').player, 1, 'the trip still is');
  assert.deepEqual(moves.get(1), ['loc:sweden', 'pawn']);
  // The next step joins what is left of the move.
  noteEvents(marks, moves, [{ type: 'take', player: 1, location: 'sweden', goods: { iron: 1 } }], 1);
  assert.equal(marks.at('office:1').player, 1);
  assert.equal(marks.at('loc:sweden').player, 1);
});
