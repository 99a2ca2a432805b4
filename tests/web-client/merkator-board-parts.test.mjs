// The pure parts of the Merkator board: the map layout (name plates clear of nodes, stacks and each other)
// and the last-move keys (which places a move changed, and whose move it was).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { layoutMap, intersects, segmentHitsBox, labelWidth } from '../../web-client/games/merkator/map-layout.js';
import { moveKeys, noteEvents } from '../../web-client/games/merkator/marks.js';
import { createLastMoves } from '../../web-client/js/models/last-moves.js';
import { root } from './fixture.mjs';

const DATA = JSON.parse(readFileSync(path.join(root, 'engine/games/merkator/merkator-data.json'), 'utf8'));
const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '±0');

function boxesOf(layout) {
  return [...layout.places].flatMap(([id, p]) => [[`${id} node`, p.node], [`${id} stack`, p.stack], [`${id} plate`, p.label]])
    .filter(([, b]) => b);
}
function clashes(layout) {
  const boxes = boxesOf(layout);
  const out = [];
  for (const [i, [a, ba]] of boxes.entries()) for (const [b, bb] of boxes.slice(i + 1)) if (intersects(ba, bb)) out.push(`${a}/${b}`);
  return out;
}

describe('map layout', () => {
  const locations = DATA.locations.map((l) => ({ id: l.id, kind: l.kind, text: `${l.name} ${signed(l.time)}` }));

  test('no plate, stack or node of the shipped map overlaps another', () => {
    const layout = layoutMap(locations, DATA.roads);
    assert.equal(layout.places.size, DATA.locations.length);
    assert.deepEqual(clashes(layout), []);
    for (const l of DATA.locations) assert.equal(Boolean(layout.places.get(l.id).stack), l.kind === 'major', `${l.id}: a stack only on a major place`);
  });

  test('everything lies inside the view box', () => {
    const { viewBox: vb, places } = layoutMap(locations, DATA.roads);
    for (const [id, b] of boxesOf({ places })) {
      assert.ok(b.x >= vb.x && b.y >= vb.y && b.x + b.w <= vb.x + vb.w && b.y + b.h <= vb.y + vb.h, id);
    }
  });

  test('longer names (another data file) still get clear plates', () => {
    const long = locations.map((l) => ({ ...l, text: `${l.text} (${l.id.toUpperCase()})` }));
    assert.deepEqual(clashes(layoutMap(long, DATA.roads)), []);
    assert.ok(labelWidth('Dutch Republic +1') > labelWidth('Spain −1'));
  });

  test('a segment crosses a box only where it passes through it', () => {
    const b = { x: 0, y: 0, w: 10, h: 10 };
    assert.ok(segmentHitsBox([-5, 5], [15, 5], b));
    assert.ok(!segmentHitsBox([-5, -5], [15, -5], b));
    assert.ok(!segmentHitsBox([11, 0], [20, 20], b));
  });
});

describe('last-move keys', () => {
  test('a trip marks the destination and the pawn under the traveller', () => {
    assert.deepEqual(moveKeys({ type: 'travel', player: 1, location: 'sweden', paid: 0, time: 3 }, 1),
      { player: 1, keys: ['loc:sweden', 'pawn', null] });
    assert.deepEqual(moveKeys({ type: 'travel', player: 2, location: 'spain', paid: 1, time: 0 }, 2).keys, ['loc:spain', 'pawn', 'time:2']);
  });

  test('a forced loss belongs to the trip, a chosen one to the player who chose', () => {
    assert.equal(moveKeys({ type: 'goods_lost', player: 0, goods: { ham: 1 }, column: 'B', chosen: false }, 2).player, 2);
    assert.equal(moveKeys({ type: 'goods_lost', player: 0, goods: { ham: 1 }, column: 'B', chosen: true }, 2).player, 0);
    assert.equal(moveKeys({ type: 'turn', player: 0 }, 2), null);
  });

  test('a turn is one move: the destination stays marked while the traveller takes cubes; a joiner moves apart', () => {
    const marks = createLastMoves({ now: () => 0 });
    const moves = new Map();
    noteEvents(marks, moves, [{ type: 'turn', player: 1, turn: 3 }, { type: 'end_investment', player: 1, coins: 0, lost: 0 }], 0);
    noteEvents(marks, moves, [{ type: 'travel', player: 1, location: 'sweden', paid: 0, time: 3 }, { type: 'restock', added: ['gdansk'] }], 1);
    noteEvents(marks, moves, [{ type: 'take', player: 1, location: 'sweden', goods: { iron: 1 } }], 1);
    assert.equal(marks.at('loc:sweden').player, 1);
    assert.equal(marks.at('stack:gdansk').player, 1);
    assert.equal(marks.at('office:1').player, 1);
    noteEvents(marks, moves, [{ type: 'join', player: 2, paid: 1, to: 1, time: 0, active_time: 4 }], 1);
    assert.equal(marks.at('loc:sweden').player, 1, 'the trip stays the traveller\'s');
    assert.equal(marks.at('seat:2').player, 2);
    assert.equal(marks.at('seat:2').latest, true);
    assert.equal(marks.at('loc:sweden').latest, false);
    // The next turn: the traveller's marks stay until their next move.
    noteEvents(marks, moves, [{ type: 'turn', player: 2, turn: 4 }, { type: 'end_investment', player: 2, coins: 0, lost: 0 }], 1);
    noteEvents(marks, moves, [{ type: 'travel', player: 2, location: 'spain', paid: 1, time: 0 }], 2);
    assert.equal(marks.at('loc:sweden').player, 1);
    assert.equal(marks.at('seat:2'), null, 'a new move replaces the joiner\'s mark');
    assert.equal(marks.at('loc:spain').player, 2);
  });
});
