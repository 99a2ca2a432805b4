// The Medina reducer against the engine itself: build/tests/engine_fixture plays random games and
// prints, for every viewer, the initial view and per action the events, legal actions and view.
// Applying each step's events to the previous view must give exactly the engine's view (the wall
// arms, palace statuses, stocks, domes and every seat's live score included).
// The score helper must give the engine's final result; the log sentences never tell a viewer a
// stock that is still behind its screen; the legal list grouped by piece covers it exactly.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import {
  applyEvent, applyEvents, legalByPiece, pieceKey, describeEvent, statusText, resultSentence, toMove, isOver,
  scoreOf, scores, squares, armNext, ARMS, quotaForTurn, piecesLeft, placeText, stockText, forcedDome, key,
  COLOURS, WIDTH, HEIGHT, isWallSpace, towerAt, columnName, rowName, squareName, wallName, edgeLabels, claimants,
} from '../../web-client/games/medina/model.js';
import '../../web-client/games/registry.js'; // the games' strings join t()'s catalog
import { t } from '../../web-client/js/core/i18n/index.js';
import { engineGame, replayViewers } from './fixture.mjs';

const SEEDS = [1, 7, 42, 2024];
const EVENT_TYPES = ['place', 'turn', 'skip', 'palace_tile', 'tower_tile', 'colour_closed', 'palace_completed',
  'stock_revealed', 'dome_removed', 'game_over'];
const NAMES = ['Anna', 'Bo', 'Cy', 'Di'];

const game = (players, seed) => engineGame('medina', players, seed);

const noKey = (s) => !s.includes('⟦') && !/\{\w+\}/.test(s);

describe('applyEvents reproduces the engine views', () => {
  for (let players = 2; players <= 4; players++) {
    for (const seed of SEEDS) {
      test(`${players} players, seed ${seed}: every viewer, every step`, () => {
        replayViewers(game(players, seed), players, applyEvents, {
          minSteps: 30,
          atEnd: (view, who) => {
            assert.ok(isOver(view), `${who}: the game ends`);
            assert.deepEqual(toMove(view), []);
            view.seats.forEach((s, p) => assert.ok(s.stock, `${who}: the stock of seat ${p} is shown at the end`));
          },
        });
      });
    }
  }

  test('the fixtures exercise every event type, both dome kinds and revealed stocks', () => {
    const seen = new Set();
    const domes = new Set();
    for (let players = 2; players <= 4; players++) {
      for (const seed of SEEDS) {
        for (const step of game(players, seed).viewers[0].steps) {
          for (const e of step.events) {
            seen.add(e.type);
            if (e.type === 'place' && e.piece === 'dome') domes.add(e.dome || 'plain');
          }
        }
      }
    }
    assert.deepEqual([...seen].sort(), [...EVENT_TYPES].sort());
    assert.deepEqual([...domes].sort(), ['blocking', 'plain', 'scoring']);
  });

  test('an unknown event type leaves the view as it was', () => {
    const view = game(3, 1).viewers[0].initial;
    assert.equal(applyEvent(view, { type: 'something_new' }), view);
    assert.deepEqual(applyEvents(view, [{ type: 'something_new' }], 5), { ...view, version: 5 });
    assert.equal(applyEvents(view, []).version, view.version + 1);
  });

  test('other seats\' stocks stay null until the rules reveal them', () => {
    for (const seed of SEEDS) {
      const g = game(3, seed);
      for (const viewer of g.viewers) {
        let view = viewer.initial;
        for (const step of viewer.steps) {
          const revealed = new Set(step.events.filter((e) => e.type === 'stock_revealed').map((e) => e.player));
          const publicBefore = view.seats.map((s) => s.stock_public);
          view = applyEvents(view, step.events, step.view.version);
          view.seats.forEach((s, p) => {
            if (p === viewer.seat) { assert.ok(s.stock, 'own stock shown'); return; }
            if (!publicBefore[p] && !revealed.has(p)) assert.equal(s.stock, null, `seat ${p}'s stock is hidden`);
          });
        }
      }
    }
  });
});

describe('scores', () => {
  test('the live score helper equals the engine\'s score in every view of every game', () => {
    for (let players = 2; players <= 4; players++) {
      for (const seed of SEEDS) {
        for (const step of game(players, seed).viewers[players].steps) {
          const all = scores(step.view);
          step.view.seats.forEach((s, p) => assert.deepEqual(all[p], s.score, `${players}p seed ${seed} v${step.view.version} seat ${p}`));
        }
      }
    }
  });

  test('at the end the helper gives the points of the engine\'s result', () => {
    for (let players = 2; players <= 4; players++) {
      for (const seed of SEEDS) {
        const g = game(players, seed);
        const steps = g.viewers[players].steps;
        const final = steps[steps.length - 1];
        const over = final.events.find((e) => e.type === 'game_over');
        assert.ok(over, 'the last step ends the game');
        assert.deepEqual(final.view.result, over.result);
        for (const r of over.result.ranking) {
          assert.equal(scoreOf(final.view, r.player).total, r.points, `${players}p seed ${seed}: seat ${r.player}`);
        }
        const best = Math.max(...over.result.ranking.map((r) => r.points));
        assert.deepEqual(over.result.winners, over.result.ranking.filter((r) => r.points === best).map((r) => r.player).sort((a, b) => a - b));
        assert.ok(best > 0, 'someone scores');
      }
    }
  });

  test('a hand-made city: residents and walls beside a palace count once; blocking domes score nothing', () => {
    const view = {
      palaces: [
        { id: 0, colour: 'grey', pieces: [[0, 0], [1, 0]], stables: [[0, 1]], owner: 0, blocking: false },
        { id: 1, colour: 'orange', pieces: [[5, 5]], stables: [], owner: 1, blocking: true },
        { id: 2, colour: 'black', pieces: [[9, 9]], stables: [], owner: null, blocking: false },
      ],
      residents: [[1, 1], [2, 0], [5, 6]],
      // Tower 1's north arm holds (0,-1), its west arm (-1,0) and (-1,1).
      arms: [1, 0, 0, 0, 0, 0, 0, 2].map((length) => ({ length })),
      palace_tiles: { grey: 0, black: null, brown: null, orange: 1 },
      tower_tiles: [0, null, 1, null],
      seats: [{}, {}],
    };
    const s0 = scoreOf(view, 0);
    // 2 pieces + 1 stable + residents (1,1) and (2,0) + walls (0,-1), (-1,0), (-1,1); (1,1) touches two of them: once.
    assert.deepEqual(s0.palaces, [{ palace: 0, pieces: 2, stables: 1, residents: 2, walls: 3, points: 8 }]);
    assert.equal(s0.palace_tiles, 1);
    assert.equal(s0.tower_tiles, 1);
    assert.equal(s0.total, 10);
    const s1 = scoreOf(view, 1);
    assert.deepEqual(s1.palaces, []);
    assert.equal(s1.total, 4 + 3);
    assert.equal(squares(view).get(key(1, 1)).kind, 'resident');
    assert.deepEqual(squares(view).get(key(-1, 1)), { kind: 'wall', tower: 1 });
  });
});

describe('legal squares by piece', () => {
  test('grouping keys and order', () => {
    const legal = [
      { type: 'place', piece: 'wall', x: 0, y: -1 },
      { type: 'place', piece: 'resident', x: 3, y: 3 },
      { type: 'place', piece: 'stable', x: 4, y: 4 },
      { type: 'place', piece: 'palace', colour: 'orange', x: 1, y: 1 },
      { type: 'place', piece: 'palace', colour: 'grey', x: 1, y: 1 },
      { type: 'place', piece: 'palace', colour: 'grey', x: 2, y: 1 },
      { type: 'place', piece: 'dome', dome: 'blocking', x: 7, y: 7 },
      { type: 'place', piece: 'dome', dome: 'scoring', x: 7, y: 7 },
      { type: 'place', piece: 'dome', x: 8, y: 8 },
      { type: 'pass' }, null, { type: 'place', piece: 'palace', colour: 'grey' },
    ];
    const groups = legalByPiece(legal);
    assert.deepEqual(groups.map((g) => g.key), ['palace:grey', 'palace:orange', 'dome', 'dome:scoring', 'dome:blocking', 'stable', 'resident', 'wall']);
    const grey = groups[0];
    assert.deepEqual([...grey.squares], ['1,1', '2,1']);
    assert.equal(grey.colour, 'grey');
    assert.deepEqual(grey.actions.get('2,1'), legal[5]);
    assert.equal(groups.find((g) => g.key === 'dome:blocking').dome, 'blocking');
    assert.equal(groups.find((g) => g.key === 'dome').dome, null);
    assert.deepEqual([...groups.find((g) => g.key === 'wall').squares], ['0,-1']);
    assert.deepEqual(legalByPiece(undefined), []);
    assert.equal(pieceKey({ piece: 'dome', dome: 'scoring' }), 'dome:scoring');
  });

  test('every legal list of real games is covered exactly, square by square', () => {
    for (let players = 2; players <= 4; players++) {
      for (const seed of SEEDS.slice(0, 2)) {
        const g = game(players, seed);
        for (const viewer of g.viewers.slice(0, players)) {
          let view = viewer.initial;
          for (const step of viewer.steps) {
            view = step.view;
            const groups = legalByPiece(step.legal);
            const n = groups.reduce((sum, gr) => sum + gr.actions.size, 0);
            assert.equal(n, step.legal.length, 'no action lost, none twice');
            for (const gr of groups) {
              for (const [sq, a] of gr.actions) {
                assert.equal(sq, key(a.x, a.y));
                assert.equal(pieceKey(a), gr.key);
                // A legal square is free, except a dome's (a piece of an unclaimed palace).
                const s = squares(view);
                if (a.piece === 'dome') assert.equal(s.get(sq).kind, 'palace');
                else if (view.phase !== 'over') assert.ok(!s.get(sq) || false, `${sq} is free for ${gr.key}`);
                if (a.piece === 'wall') assert.ok(isWallSpace(a.x, a.y));
              }
            }
            if (step.legal.length === 0) assert.ok(!toMove(step.view).includes(viewer.seat) || isOver(step.view));
          }
        }
      }
    }
  });
});

describe('the board\'s geometry', () => {
  test('arms, towers and wall spaces', () => {
    assert.equal(ARMS.length, 8);
    ARMS.forEach((a, i) => assert.equal(ARMS[a.opposite].opposite, i));
    assert.deepEqual(armNext(ARMS[0], 0, 0), [0, -1]);
    assert.deepEqual(armNext(ARMS[1], 3, 0), [WIDTH - 4, -1]);
    // East side: 11 spaces; the two arms together may fill 9, leaving a gate of 2.
    assert.equal(armNext(ARMS[2], 6, 4), null, 'the gate between tower 3 and tower 2 stays open');
    assert.deepEqual(armNext(ARMS[2], 5, 4), [WIDTH, 5]);
    assert.equal(towerAt(-1, -1), 1);
    assert.equal(towerAt(WIDTH, HEIGHT), 2);
    assert.equal(towerAt(0, 0), 0);
    assert.ok(isWallSpace(5, -1) && isWallSpace(-1, 3) && !isWallSpace(-1, -1) && !isWallSpace(3, 3));
    assert.equal(quotaForTurn(2, 1), 1);
    assert.equal(quotaForTurn(2, 3), 2);
    assert.equal(quotaForTurn(2, 9), 3);
    assert.equal(quotaForTurn(4, 1), 2);
  });
});

describe('names of places (the log and the board edges use one notation)', () => {
  const { columns, rows } = edgeLabels();
  const columnLabel = (x) => columns.find((c) => c.x === x).text;
  const rowLabel = (y) => rows.find((r) => r.y === y).text;

  test('the edges label each city column with its own letter and each row with its own number, in order', () => {
    assert.equal(columns.length, WIDTH + 2, 'one label per grid column, the wall ring included');
    assert.equal(rows.length, HEIGHT + 2);
    const letters = columns.filter((c) => c.text).map((c) => c.text);
    const numbers = rows.filter((r) => r.text).map((r) => r.text);
    assert.equal(letters.length, WIDTH, 'every city column is labelled, the ring is not');
    assert.equal(numbers.length, HEIGHT);
    assert.equal(new Set(letters).size, WIDTH, 'no two columns share a letter');
    assert.equal(new Set(numbers).size, HEIGHT);
    assert.ok(letters.every((l) => /^[A-Z]$/.test(l)), 'one capital letter each');
    assert.deepEqual(letters, [...letters].sort(), 'letters run west to east');
    assert.deepEqual(numbers.map(Number), numbers.map((_, i) => i + 1), 'rows are numbered from 1, north to south');
    assert.equal(columnLabel(-1), '');
    assert.equal(rowLabel(HEIGHT), '');
  });

  test('every square, wall space and tower is named in the log as its edges label it', () => {
    const seen = new Set();
    for (let y = -1; y <= HEIGHT; y++) {
      for (let x = -1; x <= WIDTH; x++) {
        const where = placeText(x, y, t);
        assert.ok(noKey(where), where);
        if (towerAt(x, y)) {
          assert.equal(where, `tower ${towerAt(x, y)}`);
        } else if (isWallSpace(x, y)) {
          const wall = wallName(x, y);
          const label = wall.side === 'north' || wall.side === 'south' ? columnLabel(x) : rowLabel(y);
          assert.equal(wall.name, label, `${x},${y}: the wall space lines up with the edge label`);
          assert.ok(where.includes(wall.side) && where.endsWith(` ${label}`), where);
          const s = describeEvent({ type: 'place', player: 0, piece: 'wall', x, y, tower: 1 }, NAMES, t);
          assert.ok(s.includes(where), s);
        } else {
          const name = `${columnLabel(x)}${rowLabel(y)}`;
          assert.equal(squareName(x, y), name);
          assert.equal(columnName(x) + rowName(y), name);
          assert.equal(where, name, 'a city square is called by its column letter and row number');
          const s = describeEvent({ type: 'place', player: 1, piece: 'resident', x, y }, NAMES, t);
          assert.ok(s.endsWith(` on ${name}.`), s);
        }
        assert.ok(!seen.has(where), `two places are both called ${where}`);
        seen.add(where);
      }
    }
    assert.equal(squareName(-1, 3), '', 'a wall space is not a square');
    assert.equal(wallName(4, 4), null, 'a square is not a wall space');
  });
});

describe('who may claim an unclaimed palace', () => {
  test('a hand-made 3-player view: domes left, colours owned, closed colours', () => {
    const palace = (id, colour, owner) => ({ id, colour, owner, pieces: [[id, 0]], stables: [], status: 'unfinished' });
    const view = {
      phase: 'play', closed: ['black'],
      seats: [{ domes: 2 }, { domes: 0 }, { domes: 3 }],
      palaces: [palace(0, 'grey', 2), palace(1, 'grey', null), palace(2, 'brown', null), palace(3, 'black', null)],
    };
    assert.deepEqual(claimants(view, view.palaces[1]), [0], 'seat 1 has no dome; seat 2 owns a grey palace');
    assert.deepEqual(claimants(view, view.palaces[2]), [0, 2]);
    assert.deepEqual(claimants(view, view.palaces[3]), [], 'nobody claims a palace of a closed colour');
    assert.deepEqual(claimants(view, view.palaces[0]), [], 'a claimed palace');
    assert.deepEqual(claimants({ ...view, phase: 'over' }, view.palaces[2]), [], 'nobody after the end');
  });

  test('2 players: a dome of that palace colour, scoring or blocking', () => {
    const view = {
      phase: 'play', closed: [],
      seats: [{ domes: { scoring: ['grey'], blocking: [], removed: [] } }, { domes: { scoring: [], blocking: ['orange', 'grey'], removed: [] } }],
      palaces: [{ id: 0, colour: 'grey', owner: null }, { id: 1, colour: 'orange', owner: null }, { id: 2, colour: 'brown', owner: null }],
    };
    assert.deepEqual(claimants(view, view.palaces[0]), [0, 1]);
    assert.deepEqual(claimants(view, view.palaces[1]), [1]);
    assert.deepEqual(claimants(view, view.palaces[2]), []);
  });

  test('in real games it agrees with the engine: the player to move may dome a palace exactly when listed', () => {
    let checked = 0;
    for (let players = 2; players <= 4; players++) {
      for (const seed of SEEDS) {
        const viewer = game(players, seed).viewers.at(-1); // the spectator: public facts only
        const seated = game(players, seed).viewers;
        viewer.steps.forEach((step, i) => {
          const v = step.view;
          if (v.phase !== 'play') return;
          const legal = seated[v.active].steps[i].legal;
          for (const p of v.palaces.filter((q) => q.owner === null)) {
            const onIt = new Set(p.pieces.map(([x, y]) => key(x, y)));
            const legalDome = legal.some((a) => a.piece === 'dome' && onIt.has(key(a.x, a.y)));
            const listed = claimants(v, p).includes(v.active);
            if (legalDome) assert.ok(listed, `${players}p seed ${seed} step ${i}: may dome palace ${p.id} but is not listed`);
            // Two players: a dome kind already placed this turn is a per-turn limit, not who may claim.
            if (listed && v.placed_domes.length === 0 && piecesLeft(v) > 0) {
              assert.ok(legalDome, `${players}p seed ${seed} step ${i}: listed for palace ${p.id} but no legal dome on it`);
            }
            checked += 1;
          }
        });
      }
    }
    assert.ok(checked > 100, `checked ${checked} unclaimed palaces`);
  });
});

describe('log sentences', () => {
  test('every event of every game has a sentence for every viewer, with all words filled in', () => {
    for (let players = 2; players <= 4; players++) {
      const g = game(players, SEEDS[0]);
      for (const viewer of g.viewers) {
        for (const step of viewer.steps) {
          for (const e of step.events) {
            const s = describeEvent(e, NAMES, t, viewer.seat);
            assert.ok(s.length > 5 && noKey(s), `${e.type}: ${s}`);
            if (viewer.seat === null) assert.doesNotMatch(s, /\b(You|you|Your)\b/, `spectator: ${s}`);
          }
          const st = statusText(step.view, NAMES, viewer.seat, t);
          assert.ok(noKey(st), st);
        }
      }
    }
  });

  test('no sentence tells a stock still behind its screen', () => {
    // A stock appears in words only in stock_revealed (public by the rules from then on); other
    // sentences never count pieces left behind a screen.
    const stockWords = /\b\d+ (?:(?:grey|black|brown|orange) palace pieces?|stables?|residents?|walls?)\b/;
    for (let players = 2; players <= 4; players++) {
      for (const seed of SEEDS) {
        const g = game(players, seed);
        for (const viewer of g.viewers) {
          let view = viewer.initial;
          for (const step of viewer.steps) {
            for (const e of step.events) {
              const s = describeEvent(e, NAMES, t, viewer.seat);
              if (e.type !== 'stock_revealed') assert.doesNotMatch(s, stockWords, `${e.type}: ${s}`);
              view = applyEvent(view, e);
              if (e.type === 'stock_revealed') assert.equal(view.seats[e.player].stock_public, true, 'the stock told is now public');
            }
            view = { ...view, version: step.view.version };
          }
        }
      }
    }
  });

  test('sentences: you or the name; dome kinds; tiles taken from someone; revealed stocks', () => {
    const place = { type: 'place', player: 1, piece: 'palace', colour: 'brown', x: 4, y: 7, palace: 0, size: 1 };
    assert.equal(describeEvent(place, NAMES, t, null), `Bo starts a brown palace on ${squareName(4, 7)}.`);
    assert.equal(describeEvent(place, NAMES, t, 1), `You start a brown palace on ${squareName(4, 7)}.`);
    assert.equal(describeEvent({ ...place, size: 3 }, NAMES, t, 0), `Bo adds a brown palace piece on ${squareName(4, 7)} (now 3 pieces).`);
    assert.equal(describeEvent({ type: 'place', player: 0, piece: 'resident', x: 2, y: 2, starting: true }, NAMES, t),
      `Anna places the starting resident on ${squareName(2, 2)}.`);
    assert.equal(describeEvent({ type: 'place', player: 2, piece: 'wall', x: -1, y: 4, tower: 1 }, NAMES, t),
      `Cy builds a wall of tower 1 on the west wall at ${rowName(4)}.`);
    assert.match(describeEvent({ type: 'place', player: 0, piece: 'dome', dome: 'blocking', colour: 'grey', palace: 2, size: 4, x: 1, y: 1 }, NAMES, t),
      /Anna blocks the grey palace \(4 pieces\) with a blocking dome/);
    assert.match(describeEvent({ type: 'place', player: 0, piece: 'dome', dome: 'scoring', colour: 'grey', palace: 2, size: 1, x: 1, y: 1 }, NAMES, t),
      /scoring dome/);
    assert.equal(describeEvent({ type: 'palace_tile', colour: 'orange', player: 2, from: 0, size: 5 }, NAMES, t, 0),
      'Cy takes the orange palace tile (worth 4) from you with a larger palace (5 pieces).');
    assert.equal(describeEvent({ type: 'tower_tile', tower: 3, palace: 1, player: 1, from: null }, NAMES, t, 1), 'You take tower tile 3.');
    assert.equal(describeEvent({ type: 'stock_revealed', player: 1, stock: { palaces: { grey: 0, black: 2, brown: 0, orange: 0 }, stables: 1, residents: 0, walls: 3 } }, NAMES, t),
      'Bo\u2019s stock is shown to everyone from now on: 2 black palace pieces, 1 stable and 3 walls.');
    assert.equal(describeEvent({ type: 'turn', player: 1, turn: 12, pieces: 2, forced_dome: false }, NAMES, t, null), 'Turn 12: Bo places 2 pieces.');
    assert.match(describeEvent({ type: 'turn', player: 1, turn: 12, pieces: 2, forced_dome: true }, NAMES, t, 1), /you .* must place a dome/);
    assert.equal(describeEvent({ type: 'dome_removed', player: 0, colour: 'black' }, NAMES, t, 0), 'Your black blocking dome leaves the game.');
    assert.equal(describeEvent({ type: 'what' }, NAMES, t), 'Something happened in the game (what).');
    assert.equal(resultSentence({ ranking: [{ player: 1, rank: 1, points: 30 }, { player: 0, rank: 1, points: 30 }], winners: [0, 1] }, NAMES, t),
      'Anna and Bo share the win with 30 points.');
    assert.equal(placeText(-1, -1, t), 'tower 1');
    assert.equal(stockText({ palaces: { grey: 0, black: 0, brown: 0, orange: 0 }, stables: 0, residents: 0, walls: 0 }, t), 'nothing');
  });

  test('status line and pieces left', () => {
    const g = game(2, 1);
    const v0 = g.viewers[0].initial;
    assert.equal(v0.phase, 'setup');
    assert.equal(piecesLeft(v0), 1);
    const start = v0.start_player;
    assert.match(statusText(v0, NAMES, start, t), /starting resident/);
    const later = g.viewers[2].steps[5].view;
    assert.equal(piecesLeft(later), later.pieces - later.placed);
    assert.match(statusText(later, NAMES, null, t), new RegExp(NAMES[later.active]));
    const end = g.viewers[2].steps.at(-1).view;
    assert.equal(piecesLeft(end), 0);
    assert.equal(forcedDome(end, 0), end.seats.length > 0 && forcedDome(end, 0));
    assert.ok(COLOURS.length === 4);
  });
});

describe('hints and the score explained (what the board shows on hover and focus, and in each seat\'s score)', async () => {
  const md = await import('../../web-client/games/medina/model.js');
  const clean = (s) => assert.ok(s && !/[⟦{]/.test(s), `a whole sentence: ${s}`);

  test('on the engine\'s own games: every legal placement says what it does and what it uses from the stock', () => {
    let seen = 0;
    const kinds = new Set();
    for (const players of [2, 3]) {
      for (const seed of [1, 7]) {
        const fixture = engineGame('medina', players, seed);
        for (const viewer of fixture.viewers.filter((x) => x.seat !== null)) {
          for (const step of viewer.steps) {
            const v = step.view;
            const board = md.squares(v);
            for (const group of md.legalByPiece(step.legal)) {
              clean(md.pickHint(group, 3, t));
              for (const a of group.actions.values()) {
                const hint = md.placeHint(v, viewer.seat, a, t, board);
                clean(hint);
                kinds.add(a.piece);
                if (v.phase === 'setup') {
                  assert.match(hint, /comes from no stock/);
                } else if (a.piece !== 'dome' && v.seats[viewer.seat].stock) {
                  const me = v.seats[viewer.seat].stock;
                  const left = a.piece === 'palace' ? me.palaces[a.colour] : me[`${a.piece}s`];
                  assert.match(hint, left === 1 ? /uses your last/ : new RegExp(`uses 1 of your ${left} `), hint);
                }
                if (a.piece === 'dome' && a.dome !== 'blocking') {
                  const p = v.palaces[board.get(md.key(a.x, a.y)).palace];
                  assert.match(hint, new RegExp(`worth ${md.palacePoints(v, p, board)} points?`), hint);
                }
                seen += 1;
              }
            }
          }
        }
      }
    }
    assert.ok(seen > 500, `${seen} placements`);
    assert.deepEqual([...kinds].sort(), ['dome', 'palace', 'resident', 'stable', 'wall']);
  });

  test('scoreWhy: the tiles by name and value, and a total whose parts add up', () => {
    for (const seed of [1, 7]) {
      const fixture = engineGame('medina', 3, seed);
      const spectator = fixture.viewers.find((x) => x.seat === null);
      const v = spectator.steps.at(-1).view;
      v.seats.forEach((_, p) => {
        const sc = md.scoreOf(v, p);
        const why = md.scoreWhy(v, p, sc, t);
        clean(why.total);
        const parts = [...sc.palaces.map((x) => x.points), sc.palace_tiles, sc.tower_tiles].filter((n) => n > 0);
        assert.equal(parts.reduce((a, b) => a + b, 0), sc.total);
        assert.match(why.total, new RegExp(`${sc.total} points?$`));
        if (sc.palace_tiles) assert.match(why.palaceTiles, new RegExp(`^Palace tiles: .*\\(\\d\\)`));
        if (sc.tower_tiles) assert.match(why.towerTiles, /^Tower tiles: tower \d \(\d\)/);
      });
    }
    const v = { palace_tiles: { grey: null, black: 0, brown: null, orange: 0 }, tower_tiles: [null, 0, 1, null] };
    const why = md.scoreWhy(v, 0, { palaces: [{ points: 5 }], palace_tiles: 6, tower_tiles: 2, total: 13 }, t);
    assert.deepEqual(why, {
      palaceTiles: 'Palace tiles: black (2) + orange (4) = 6', towerTiles: 'Tower tiles: tower 2 (2)', total: 'Total: 5 + 6 + 2 = 13 points',
    });
  });
});
