// games/board-parts.js placeTip: where a board's hint goes beside its control, covering no other control.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { placeTip } from '../../web-client/games/board-parts.js';

const rect = (left, top, width, height) => ({ left, top, width, height, right: left + width, bottom: top + height });
const overlaps = (a, b) => !(a.right <= b.left || a.left >= b.right || a.bottom <= b.top || a.top >= b.bottom);

test('with room below and nothing there, the hint goes just below its control, centred', () => {
  const at = placeTip(rect(300, 100, 100, 30), 160, 40, [], 1000, 700);
  assert.deepEqual(at, { left: 270, top: 136 });
  assert.deepEqual(placeTip(rect(300, 640, 100, 30), 160, 40, [], 1000, 700), { left: 270, top: 594 }, 'above at the bottom of the window');
});

test('a control right below ("Stop" under "Draw a tile"): the hint goes near, never over it', () => {
  const draw = rect(300, 100, 100, 30);
  const stop = rect(300, 136, 100, 30);
  const at = placeTip(draw, 160, 40, [stop], 1000, 700);
  assert.ok(at, 'a place is found');
  const tip = rect(at.left, at.top, 160, 40);
  assert.ok(!overlaps(tip, stop) && !overlaps(tip, draw), JSON.stringify(at));
  assert.ok(tip.bottom <= draw.top || tip.top >= stop.bottom || tip.left >= draw.right || tip.right <= draw.left, 'beside them');
  assert.ok(Math.abs(tip.top - draw.top) < 120, 'near the control');
});

test('rows of controls below and above: the hint slides beside the control, inside the window', () => {
  const me = rect(200, 300, 120, 30);
  const rows = [];
  for (let y = 40; y < 700; y += 36) for (let x = 0; x < 340; x += 124) if (x !== 200 || y !== 300) rows.push(rect(x, y, 120, 30));
  const at = placeTip(me, 200, 60, rows, 1000, 700);
  assert.ok(at);
  const tip = rect(at.left, at.top, 200, 60);
  for (const r of [me, ...rows]) assert.ok(!overlaps(tip, r), `covers ${JSON.stringify(r)}`);
  assert.ok(tip.left >= 4 && tip.right <= 996 && tip.top >= 4 && tip.bottom <= 696);
});

test('no free place at all: no hint (null) rather than one over a control', () => {
  const me = rect(10, 10, 50, 20);
  const wall = rect(0, 0, 390, 844);
  assert.equal(placeTip(me, 200, 60, [wall], 390, 844), null);
});
