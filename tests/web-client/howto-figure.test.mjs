// The how-to's picture of each board (js/ui/howto.js): the layout width and scale a board is drawn at, where the
// numbered callouts go over their parts (figureLayout, calloutSpots), and each game's figure
// (games/<game>/howto-figure.js): its parts named in the game's strings, and its example position (example.js, made
// by scripts/example-views.mjs) a spectator's view in the middle of a game — nothing a seat keeps to itself, nothing
// only the full view has. tests/browser/howto.test.mjs draws them.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import { gameModule, knownGames } from '../../web-client/games/registry.js';
import { CALLOUT_R, FIGURE_MIN_WIDTH, FIGURE_SCALE, calloutSpots, figureLayout } from '../../web-client/js/ui/howto.js';

describe('figureLayout: a board laid out wider than the picture and scaled down to it', () => {
  test('as wide as the scale aims at, within the figure\'s widths, scaled to fit', () => {
    const desktop = figureLayout(670, 1120);
    assert.equal(desktop.layout, Math.round(670 / FIGURE_SCALE));
    assert.ok(Math.abs(desktop.scale - 670 / desktop.layout) < 1e-9);
    assert.deepEqual(figureLayout(670, 820), { layout: 820, scale: 670 / 820 }, 'never wider than the figure says');
    assert.deepEqual(figureLayout(200, 820), { layout: FIGURE_MIN_WIDTH, scale: 200 / FIGURE_MIN_WIDTH }, 'never narrower than a board wraps well');
    assert.deepEqual(figureLayout(330, 1000, 580), { layout: 580, scale: 330 / 580 }, 'a figure\'s own narrowest width');
  });
  test('never enlarged; nothing to fit in no width', () => {
    assert.deepEqual(figureLayout(1200, 800), { layout: 800, scale: 1 });
    assert.equal(figureLayout(0, 800).scale, 0);
  });
});

describe('calloutSpots: each callout over its part, none over another', () => {
  const box = (left, top, width, height) => ({ left, top, width, height });
  const inside = (s, b) => s.x >= b.left && s.x <= b.left + b.width && s.y >= b.top && s.y <= b.top + b.height;
  test('just inside the top left corner; at the centre of a box smaller than that', () => {
    const [big, tiny] = calloutSpots([box(100, 50, 300, 200), box(10, 10, 1, 1)]);
    assert.deepEqual(big, { x: 101, y: 51, match: 0 });
    assert.deepEqual(tiny, { x: 10.5, y: 10.5, match: 0 });
  });
  test('a part whose corner is taken moves along its box, right then down, and stays inside it', () => {
    const outer = box(0, 0, 400, 300);
    const nested = box(0, 0, 30, 300); // same corner, too narrow to move right
    const [a, b, c] = calloutSpots([outer, box(0, 0, 400, 100), nested]);
    const gap = 2 * CALLOUT_R + 2;
    for (const [s, bx] of [[a, outer], [b, box(0, 0, 400, 100)], [c, nested]]) assert.ok(inside(s, bx), JSON.stringify(s));
    for (const [p, q] of [[a, b], [a, c], [b, c]]) assert.ok(Math.hypot(p.x - q.x, p.y - q.y) >= gap, `${JSON.stringify(p)} ${JSON.stringify(q)}`);
  });
  test('a part with several boxes takes the first free one; the parts with fewer boxes choose first', () => {
    // the tower has one box, at the corner where the first wall would go: the wall takes its second box
    const tower = box(0, 0, 10, 10);
    const walls = [box(10, 0, 10, 10), box(200, 0, 10, 10)];
    const [wall, only] = calloutSpots([walls, [tower]]);
    assert.equal(only.match, 0);
    assert.equal(wall.match, 1);
    assert.ok(inside(wall, walls[1]) && inside(only, tower));
  });
  test('no callout for a part with no box of any size', () => {
    assert.deepEqual(calloutSpots([[], null, box(0, 0, 0, 10), [box(5, 5, 0, 0)]]), [null, null, null, null]);
  });
});

/** The fields only the full view has, by game (engine/README.md), and what a seat keeps to itself. */
const FULL_ONLY = { medici: ['bag', 'removed'], silkroad: ['deck'], medina: [], merkator: ['piles', 'bonus_pile', 'building_pile', 'chart_letters'] };
const SEAT_SECRETS = {
  medici: () => [],
  silkroad: (seat) => [...(seat.hand !== null ? ['hand'] : []), ...(seat.coins !== null ? ['coins'] : [])],
  medina: (seat) => (seat.stock !== null && !seat.stock_public ? ['stock'] : []),
  merkator: () => [],
};

describe('each game\'s figure', () => {
  test('every game the registry lists has one', () => {
    assert.deepEqual(Object.keys(FULL_ONLY).sort(), [...knownGames()].sort());
  });
  for (const id of knownGames()) {
    describe(id, async () => {
      const { default: figure } = await import(`../../web-client/games/${id}/howto-figure.js`);
      const strings = gameModule(id).strings;

      test('5 to 8 parts, each found by a selector and named in the game\'s strings, every part entry used', () => {
        assert.ok(figure.parts.length >= 5 && figure.parts.length <= 8, `${figure.parts.length} parts`);
        const keys = figure.parts.map((p) => p.key);
        assert.equal(new Set(keys).size, keys.length, 'each part once');
        for (const p of figure.parts) {
          assert.ok(p.key.startsWith(`howto.${id}.part.`), p.key);
          assert.ok(typeof strings[p.key] === 'string' && strings[p.key].length > 10, `${p.key} in ${id}'s English strings`);
          assert.ok(typeof p.selector === 'string' && p.selector.trim(), `${p.key}: a selector`);
        }
        assert.deepEqual(Object.keys(strings).filter((k) => k.startsWith(`howto.${id}.part.`)).sort(), [...keys].sort(), 'no part entry left unused');
        assert.ok(Number.isInteger(figure.width) && figure.width >= FIGURE_MIN_WIDTH, `width ${figure.width}`);
        if (figure.minWidth !== undefined) assert.ok(figure.minWidth >= FIGURE_MIN_WIDTH && figure.minWidth <= figure.width);
      });

      test('its example is a spectator\'s view in the middle of a game', () => {
        const { seats, view } = figure.example;
        assert.equal(view.game, id);
        assert.ok(Number.isInteger(view.version) && view.version > 10, `version ${view.version}`);
        assert.notEqual(view.phase, 'over');
        assert.equal(view.result, null);
        assert.equal(seats.length, view.players);
        assert.equal(view.seats.length, view.players);
        seats.forEach((s, i) => {
          assert.equal(s.seat, i);
          assert.ok(typeof s.name === 'string' && s.name, `seat ${i} has a name`);
          assert.deepEqual(Object.keys(s).filter((k) => !['seat', 'name', 'bot'].includes(k)), [], `seat ${i}: only its name and bot level`);
        });
        for (const k of FULL_ONLY[id]) assert.ok(!(k in view), `no "${k}": only the full view has it`);
        view.seats.forEach((seat, i) => assert.deepEqual(SEAT_SECRETS[id](seat), [], `seat ${i} shows nothing it keeps to itself`));
      });
    });
  }
});
