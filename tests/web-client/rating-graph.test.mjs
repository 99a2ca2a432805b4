// js/models/rating-graph.js: the rating graph's geometry: round ticks that cover every point, the points from
// left to right inside the plot, higher ratings higher up, one point in the middle, none drawn for no points.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { GRAPH_SIZE, gameTicks, graphGeometry, niceStep, niceTicks } from '../../web-client/js/models/rating-graph.js';

const points = (...values) => values.map((value, i) => ({ at: 1000 + i, value }));

test('steps are 1, 2, 2.5 or 5 times a power of ten', () => {
  assert.equal(niceStep(23, 4), 10);
  assert.equal(niceStep(700, 4), 200);
  assert.equal(niceStep(1, 4), 0.25);
  assert.equal(niceStep(9000, 4), 2500);
});

test('value ticks are round, evenly spaced and cover the range; a flat line gets room', () => {
  assert.deepEqual(niceTicks(1000, 1023), [1000, 1010, 1020, 1030]);
  assert.deepEqual(niceTicks(900, 1600), [800, 1000, 1200, 1400, 1600]);
  assert.deepEqual(niceTicks(1000, 1000), [990, 995, 1000, 1005, 1010]);
  for (const [lo, hi] of [[0, 1], [987, 1013], [1234, 1876], [12, 2900]]) {
    const ticks = niceTicks(lo, hi);
    assert.ok(ticks[0] <= lo && ticks[ticks.length - 1] >= hi, `${lo}..${hi}: ${ticks}`);
    assert.ok(ticks.length >= 2 && ticks.length <= 7, `${lo}..${hi}: ${ticks}`);
    const steps = new Set(ticks.slice(1).map((v, i) => Math.round((v - ticks[i]) * 1000)));
    assert.equal(steps.size, 1, `even steps: ${ticks}`);
  }
});

test('game ticks: the first and the last game, a few round ones between, never crowded', () => {
  assert.deepEqual(gameTicks(0), []);
  assert.deepEqual(gameTicks(1), [1]);
  assert.deepEqual(gameTicks(3), [1, 2, 3]);
  assert.deepEqual(gameTicks(100), [1, 25, 50, 75, 100]);
  for (const n of [6, 7, 12, 33, 250]) {
    const ticks = gameTicks(n);
    assert.equal(ticks[0], 1);
    assert.equal(ticks[ticks.length - 1], n);
    assert.ok(ticks.length <= 6, `${n}: ${ticks}`);
    assert.deepEqual([...ticks].sort((a, b) => a - b), ticks);
  }
});

test('the line goes through every point, left to right inside the plot, higher ratings higher up', () => {
  const g = graphGeometry(points(1000, 1023, 1011, 1060));
  const { x0, x1, y0, y1 } = g.plot;
  assert.equal(g.dots.length, 4);
  assert.equal(g.dots[0].x, x0);
  assert.equal(g.dots[3].x, x1);
  for (const d of g.dots) assert.ok(d.x >= x0 && d.x <= x1 && d.y <= y0 && d.y >= y1, JSON.stringify(d));
  for (let i = 1; i < 4; i++) assert.ok(g.dots[i].x > g.dots[i - 1].x);
  assert.ok(g.dots[1].y < g.dots[0].y, '1023 is above 1000');
  assert.ok(g.dots[2].y > g.dots[1].y, '1011 is below 1023');
  assert.equal(g.path, g.dots.map((d, i) => `${i ? 'L' : 'M'}${d.x} ${d.y}`).join(' '));
  assert.deepEqual(g.summary, { count: 4, first: 1000, last: 1060, min: 1000, max: 1060 });
  // The value ticks span the plot from bottom to top, and a tick's value sits at its height.
  assert.equal(g.yTicks[0].y, y0);
  assert.equal(g.yTicks[g.yTicks.length - 1].y, y1);
  const tickAt = (value) => g.yTicks.find((tk) => tk.value === value);
  assert.equal(tickAt(1000).y, g.dots[0].y);
  assert.deepEqual(g.xTicks.map((tk) => tk.game), [1, 2, 3, 4]);
  assert.equal(g.xTicks[3].x, g.dots[3].x);
});

test('one point sits in the middle; no points draw nothing', () => {
  const one = graphGeometry(points(1000));
  assert.equal(one.dots[0].x, (one.plot.x0 + one.plot.x1) / 2);
  assert.match(one.path, /^M[\d.]+ [\d.]+$/);
  const none = graphGeometry([]);
  assert.deepEqual([none.path, none.dots, none.xTicks, none.yTicks, none.summary.count], ['', [], [], [], 0]);
  assert.equal(none.width, GRAPH_SIZE.width);
});
