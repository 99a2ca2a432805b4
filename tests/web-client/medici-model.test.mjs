// The Medici reducer against the engine itself: build/tests/engine_fixture plays random games and
// prints, for every viewer, the initial view and per action the events, legal actions and view.
// Applying each step's events to the previous view must give exactly the engine's view.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import {
  applyEvent, applyEvents, bidRange, legalActions, clampBid, isLegalBid, auctionRows, trackMarkers,
  describeEvent, statusText, resultSentence, toMove, isOver, shipValue, shipCounts, COMMODITIES,
} from '../../web-client/games/medici/model.js';
import * as medici from '../../web-client/games/medici/model.js';
import '../../web-client/games/registry.js'; // the games' strings join t()'s catalog
import { t } from '../../web-client/js/core/i18n/index.js';
import { engineGame, replayViewers } from './fixture.mjs';

const SEEDS = [1, 7, 42, 2024, 99991];
const EVENT_TYPES = ['day_start', 'draw', 'stop', 'auction', 'bid', 'pass', 'lot_won', 'lot_discarded', 'turn',
  'fill', 'day_end', 'game_over'];

const game = (players, seed) => engineGame('medici', players, seed);

describe('applyEvents reproduces the engine views', () => {
  for (let players = 2; players <= 6; players++) {
    for (const seed of SEEDS) {
      test(`${players} players, seed ${seed}: every viewer, every step`, () => {
        replayViewers(game(players, seed), players, applyEvents, {
          minSteps: 10,
          eachStep: (view, step) => {
            // Without an explicit version the reducer counts one per action.
            assert.equal(applyEvents(view, step.events).version, step.view.version);
          },
          atEnd: (view, who) => {
            assert.ok(isOver(view), `${who}: the game ends`);
            assert.deepEqual(toMove(view), []);
          },
        });
      });
    }
  }

  test('the fixtures exercise every event type', () => {
    const seen = new Set();
    for (let players = 2; players <= 6; players++) {
      for (const seed of SEEDS) {
        for (const step of game(players, seed).viewers[0].steps) for (const e of step.events) seen.add(e.type);
      }
    }
    assert.deepEqual([...seen].sort(), [...EVENT_TYPES].sort());
  });

  test('an unknown event type leaves the view as it was', () => {
    const view = game(3, 1).viewers[0].initial;
    assert.equal(applyEvent(view, { type: 'something_new' }), view);
    assert.deepEqual(applyEvents(view, [{ type: 'something_new' }], 5), { ...view, version: 5 });
  });
});

describe('legal actions and the bid range', () => {
  test('bidRange spans the legal bids', () => {
    const legal = [{ type: 'pass' }, ...[5, 6, 7, 8].map((amount) => ({ type: 'bid', amount }))];
    assert.deepEqual(bidRange(legal), { min: 5, max: 8 });
    assert.equal(bidRange([{ type: 'pass' }]), null);
    assert.equal(bidRange([]), null);
    assert.equal(bidRange(undefined), null);
    assert.deepEqual(bidRange([{ type: 'bid', amount: 40 }]), { min: 40, max: 40 });
  });

  test('legalActions sorts the list by kind', () => {
    assert.deepEqual(legalActions([{ type: 'draw' }, { type: 'stop' }]), { draw: true, stop: true, pass: false, bid: null });
    assert.deepEqual(legalActions([{ type: 'pass' }, { type: 'bid', amount: 1 }, { type: 'bid', amount: 2 }]),
      { draw: false, stop: false, pass: true, bid: { min: 1, max: 2 } });
    assert.deepEqual(legalActions([]), { draw: false, stop: false, pass: false, bid: null });
  });

  test('clampBid keeps a typed bid whole and inside the range', () => {
    const r = { min: 3, max: 9 };
    assert.equal(clampBid('5', r), 5);
    assert.equal(clampBid(1, r), 3);
    assert.equal(clampBid(100, r), 9);
    assert.equal(clampBid(4.6, r), 5);
    assert.equal(clampBid('abc', r), 3);
    assert.equal(clampBid(5, null), null);
  });

  test('the range from the fixtures always matches the engine (min_bid, money)', () => {
    for (const seed of SEEDS) {
      const g = game(4, seed);
      g.viewers.slice(0, 4).forEach((viewer) => {
        for (const step of viewer.steps) {
          const range = bidRange(step.legal);
          const a = step.view.auction;
          if (!range) continue;
          assert.ok(a && a.bidder === viewer.seat);
          assert.equal(range.min, a.min_bid);
          assert.equal(range.max, step.view.seats[viewer.seat].money);
          assert.ok(isLegalBid(step.legal, range.min) && isLegalBid(step.legal, range.max));
          assert.ok(!isLegalBid(step.legal, range.max + 1));
        }
      });
    }
  });
});

describe('board helpers', () => {
  test('auctionRows follows the order, bids, passes and the current bidder', () => {
    const view = {
      auction: {
        order: [1, 2, 0], bids: [{ player: 1, amount: 4 }, { player: 2, pass: true, forced: true }],
        high_bid: 4, high_bidder: 1, bidder: 0, min_bid: 5,
      },
    };
    assert.deepEqual(auctionRows(view), [
      { player: 1, state: 'bid', amount: 4, high: true },
      { player: 2, state: 'pass', forced: true },
      { player: 0, state: 'current' },
    ]);
    assert.deepEqual(auctionRows({ auction: null }), []);
  });

  test('trackMarkers places every player on every track', () => {
    const view = game(3, 42).viewers[0].steps.at(-1).view;
    for (const c of COMMODITIES) {
      const markers = trackMarkers(view, c);
      assert.equal(markers.length, 8);
      assert.deepEqual(markers.flat().sort(), [0, 1, 2]);
      view.seats.forEach((s, p) => assert.ok(markers[s.tracks[c]].includes(p)));
    }
  });

  test('shipValue and shipCounts', () => {
    const ship = [{ commodity: 'gold', value: 10 }, { commodity: 'fur', value: 3 }, { commodity: 'fur', value: 0 }];
    assert.equal(shipValue(ship), 13);
    assert.deepEqual(shipCounts(ship), { cloth: 0, fur: 2, grain: 0, dye: 0, spice: 0 });
  });
});

describe('describeEvent', () => {
  const names = ['Ann', 'Bo', 'Cy', 'Di', 'Ed', 'Flo'];
  const noKey = (s) => !s.includes('⟦') && !/\{\w+\}/.test(s);

  test('every event of real games gives a full sentence, for players and spectators', () => {
    const seen = new Set();
    for (let players = 2; players <= 6; players++) {
      const g = game(players, 7);
      for (const viewer of [g.viewers[0], g.viewers.at(-1)]) {
        for (const step of viewer.steps) {
          for (const e of step.events) {
            const s = describeEvent(e, names, t);
            seen.add(e.type);
            assert.equal(typeof s, 'string');
            assert.ok(s.length > 5, `${e.type}: "${s}"`);
            assert.ok(noKey(s), `${e.type}: untranslated or unfilled in "${s}"`);
            assert.match(s, /[.!]$/, `${e.type}: a sentence ends with a full stop: "${s}"`);
          }
        }
      }
    }
    assert.deepEqual([...seen].sort(), [...EVENT_TYPES].sort());
  });

  test('sentences say who did what', () => {
    assert.equal(describeEvent({ type: 'bid', player: 1, amount: 4 }, names, t), 'Bo bids 4 florins.');
    assert.equal(describeEvent({ type: 'bid', player: 1, amount: 1 }, names, t), 'Bo bids 1 florin.');
    assert.equal(describeEvent({ type: 'pass', player: 2, forced: false }, names, t), 'Cy passes.');
    assert.match(describeEvent({ type: 'pass', player: 2, forced: true, reason: 'no_room' }, names, t), /Cy passes.*room/);
    assert.match(describeEvent({ type: 'pass', player: 2, forced: true, reason: 'no_money' }, names, t), /Cy passes.*money/);
    assert.equal(describeEvent({ type: 'draw', player: 0, tile: { commodity: 'gold', value: 10 }, bag_count: 1 }, names, t),
      'Ann draws gold 10; 1 tile left in the bag.');
    assert.equal(describeEvent({ type: 'lot_discarded', tiles: [{ commodity: 'fur', value: 3 }, { commodity: 'dye', value: 0 }] }, names, t),
      'Nobody bid: fur 3 and dye 0 are discarded.');
    assert.match(describeEvent({ type: 'game_over', result: { ranking: [{ player: 1, rank: 1, money: 90 }, { player: 0, rank: 1, money: 90 }], winners: [1, 0] } }, names, t),
      /Bo and Ann share the win with 90 florins/);
  });

  test('unknown names, unknown events and missing fields still read as sentences', () => {
    assert.equal(describeEvent({ type: 'stop', player: 3 }, [], t), 'Player 4 stops drawing.');
    const s = describeEvent({ type: 'teleport' }, names, t);
    assert.ok(noKey(s) && s.includes('teleport'), s);
    assert.ok(noKey(describeEvent({ type: 'fill', player: 0, tiles: [], bag_count: 0 }, names, t)));
    assert.ok(noKey(describeEvent({ type: 'draw', player: 0, bag_count: 3 }, names, t)), 'a redacted tile');
    assert.ok(noKey(describeEvent(undefined, names, t)));
  });

  test('statusText and resultSentence', () => {
    const g = game(3, 1);
    const viewer = g.viewers[0];
    for (const step of viewer.steps) {
      const s = statusText(step.view, names, 0, t);
      assert.ok(noKey(s), s);
      if (step.view.phase !== 'over') assert.ok(s.length > 0);
    }
    const last = viewer.steps.at(-1).view;
    assert.equal(statusText(last, names, 0, t), resultSentence(last.result, names, t));
    assert.ok(noKey(resultSentence(null, names, t)));
  });
});

describe('the viewer\'s prompt says only what the legal actions allow', () => {
  const names = ['Ann', 'Bo', 'Cy', 'Di'];
  // The prompt names an action exactly when it is legal (the words of the English catalog).
  const words = { draw: /\bdraw\b/i, stop: /\bstop\b/i, bid: /\bbid\b/i, pass: /\bpass\b/i };
  const offered = (text) => Object.keys(words).filter((kind) => words[kind].test(text));
  const allowedKinds = (legal) => {
    const a = legalActions(legal);
    return Object.keys(words).filter((kind) => Boolean(a[kind]));
  };
  const seatedSteps = function* (players, seed) {
    for (const viewer of game(players, seed).viewers.slice(0, players)) {
      for (const step of viewer.steps) yield [viewer.seat, step];
    }
  };

  test('with an empty lot only drawing is legal, and the prompt does not offer to stop', () => {
    let seen = 0;
    for (const seed of SEEDS) {
      for (const [seat, step] of seatedSteps(3, seed)) {
        const v = step.view;
        if (v.phase !== 'draw' || v.active !== seat || v.lot.length > 0) continue;
        seen += 1;
        assert.deepEqual(allowedKinds(step.legal), ['draw'], 'the engine allows only a draw before the first tile');
        const text = statusText(v, names, seat, t, step.legal);
        assert.deepEqual(offered(text), ['draw'], `"${text}"`);
        assert.ok(text.includes(String(v.lot_limit - v.lot.length)), `the prompt says how many more: "${text}"`);
      }
    }
    assert.ok(seen > 10, `empty-lot turns in the fixtures: ${seen}`);
  });

  test('every turn of real games: the prompt offers exactly the legal kinds of action', () => {
    const kindsSeen = new Set();
    for (const players of [2, 3, 4]) {
      for (const [seat, step] of seatedSteps(players, 7)) {
        if (step.legal.length === 0) continue;
        const text = statusText(step.view, names, seat, t, step.legal);
        const allowed = allowedKinds(step.legal);
        kindsSeen.add(allowed.join('+'));
        assert.deepEqual(offered(text), allowed, `seat ${seat}, version ${step.view.version}: "${text}"`);
      }
    }
    assert.ok(kindsSeen.has('draw') && kindsSeen.has('draw+stop') && kindsSeen.has('bid+pass'), [...kindsSeen].join(', '));
  });

  test('lists the engine does not send today still give an honest prompt', () => {
    const v = game(3, 1).viewers[0].steps.find((s) => s.view.phase === 'draw' && s.view.active === 0 && s.view.lot.length > 0).view;
    for (const legal of [[{ type: 'stop' }], [{ type: 'pass' }], [{ type: 'bid', amount: 3 }], []]) {
      const text = medici.yourPrompt(v, legal, t) || '';
      assert.deepEqual(offered(text), allowedKinds(legal), `${JSON.stringify(legal)}: "${text}"`);
    }
    assert.equal(medici.yourPrompt(v, [], t), null);
    assert.ok(statusText(v, names, 0, t, []).length > 0, 'my turn with nothing legal (yet) still says something');
  });

  test('others and spectators are told who is to move, never offered a move', () => {
    for (const viewer of game(3, 42).viewers) {
      for (const step of viewer.steps) {
        const v = step.view;
        const mover = v.phase === 'draw' ? v.active : v.auction && v.auction.bidder;
        if (v.phase === 'over' || mover === viewer.seat || mover === null || mover === undefined) continue;
        const text = statusText(v, names, viewer.seat, t, step.legal);
        assert.ok(text.includes(names[mover]), `"${text}" names ${names[mover]}`);
      }
    }
  });
});

describe('last-move marks: the places each move changed', () => {
  // Replays a game and checks each marked event's keys against the view after it.
  const replay = (players, seed, check) => {
    const viewer = game(players, seed).viewers.at(-1); // the spectator: marks use only what everyone sees
    let view = viewer.initial;
    for (const step of viewer.steps) {
      for (const e of step.events) {
        const after = applyEvent(view, e);
        check(e, medici.moveMarks(view, e), view, after);
        view = after;
      }
    }
  };

  test('a drawn tile, a stopped lot, a bid or pass, a won lot, a discarded lot', () => {
    const kinds = new Set();
    for (const players of [2, 3, 4, 5]) {
      replay(players, 2024, (e, m, before, after) => {
        const { markKey } = medici;
        switch (e.type) {
          case 'draw':
            assert.deepEqual(m, { player: e.player, keys: [markKey.lot(after, after.lot.length - 1)] });
            break;
          case 'stop':
            assert.equal(m.player, e.player);
            assert.deepEqual(m.keys, after.lot.map((_, i) => markKey.lot(after, i)), 'the whole lot they drew');
            break;
          case 'bid':
          case 'pass': {
            if (e.forced) { assert.equal(m, null, 'a forced pass is nobody\'s move'); break; }
            assert.deepEqual(m, { player: e.player, keys: [markKey.bid(after, e.player)] });
            assert.ok(medici.auctionRows(after).some((r) => r.player === e.player && r.state === e.type));
            break;
          }
          case 'lot_won': {
            const ship = after.seats[e.player].ship;
            const from = ship.length - e.tiles.length;
            assert.deepEqual(m, { player: e.player, keys: e.tiles.map((_, i) => markKey.ship(after, e.player, from + i)) });
            break;
          }
          case 'lot_discarded': {
            const from = after.discarded.length - e.tiles.length;
            assert.deepEqual(m, { player: null, keys: e.tiles.map((_, i) => markKey.discard(after, from + i)) });
            break;
          }
          default:
            assert.equal(m, null, `${e.type} is nobody's move`);
        }
        kinds.add(m ? e.type : `-${e.type}`);
      });
    }
    for (const kind of ['draw', 'stop', 'bid', 'pass', 'lot_won', 'lot_discarded']) assert.ok(kinds.has(kind), `seen ${kind}`);
  });

  test('every lot of a game has its own id, so an old mark never lands on a later lot', () => {
    for (const players of [2, 3, 6]) {
      const ids = [];
      replay(players, 99991, (e, m, before) => { if (e.type === 'auction') ids.push(medici.lotId(before)); });
      assert.ok(ids.length > 5);
      assert.equal(new Set(ids).size, ids.length, ids.join(' '));
    }
  });
});

describe('hints and the scoring explained (what the board shows on hover and focus, and under each scoring)', () => {
  const clean = (s) => assert.ok(s && !/[⟦{]/.test(s), `a whole sentence: ${s}`);
  const base = () => ({
    version: 9, phase: 'auction', day: 1, days: 3, bag_count: 10, removed_count: 8, capacity: 5, lot_limit: 3,
    active: 2, start_player: 0, discarded: [], scorings: [], to_move: [0],
    lot: [{ commodity: 'dye', value: 3 }, { commodity: 'spice', value: 5 }],
    seats: [0, 1, 2].map(() => ({ money: 20, ship: [], tracks: {}, free: 5, in_day: true })),
    auction: { order: [0, 1, 2], bids: [], high_bid: 0, high_bidder: null, bidder: 0, min_bid: 1 },
  });

  test('draw and stop say what the lot becomes', () => {
    const v = { ...base(), phase: 'draw', auction: null };
    assert.equal(medici.drawHint(v, t), 'Draw a tile from the bag (10 left) onto the lot (2 of at most 3 tiles) — free; the lot then goes to auction.');
    assert.match(medici.stopHint(v, t), /^Stop drawing: these 2 tiles go to auction now/);
  });

  test('a bid says its price, the lot, and the money left; the last bidder takes the lot at once', () => {
    const v = base();
    assert.equal(medici.bidHint(v, 0, 12, t),
      'Bid 12 florins for this lot (dye 3 and spice 5) — you pay it only if nobody after you bids more; you would keep 8 of your 20.');
    const last = base();
    last.auction.bids = [{ player: 0, amount: 4 }, { player: 1, pass: true }];
    last.auction.high_bid = 4;
    last.auction.high_bidder = 0;
    assert.match(medici.bidHint(last, 2, 5, t), /^Bid 5 florins: you bid last, so the lot \(dye 3 and spice 5\) is yours at once — you pay 5 and keep 15 of your 20\.$/);
    assert.equal(medici.bidHint(v, 0, 1, t).startsWith('Bid 1 florin for'), true);
  });

  test('a pass says what happens to the lot when the viewer bids last', () => {
    assert.equal(medici.passHint(base(), 0, ['Ann', 'Bo', 'Cy'], t), 'Pass on this lot — you pay nothing and it does not go on your ship.');
    const last = base();
    last.auction.bids = [{ player: 0, pass: true }, { player: 1, pass: true }];
    assert.match(medici.passHint(last, 2, ['Ann', 'Bo', 'Cy'], t), /nobody has bid, so the lot is discarded/);
    last.auction.bids = [{ player: 0, amount: 7 }, { player: 1, pass: true }];
    last.auction.high_bid = 7;
    last.auction.high_bidder = 0;
    assert.match(medici.passHint(last, 2, ['Ann', 'Bo', 'Cy'], t), /Ann then wins the lot for 7 florins/);
  });

  test('rankAmong: rank 1 is the highest; ties share their rank', () => {
    assert.deepEqual(medici.rankAmong([12, 7, 12], 0), { rank: 1, tied: 2 });
    assert.deepEqual(medici.rankAmong([12, 7, 12], 1), { rank: 3, tied: 1 });
    assert.deepEqual(medici.rankAmong([3, 9, 5], 2), { rank: 2, tied: 1 });
  });

  test('scoringWhy explains every payment of a day, and the parts add up to the total', () => {
    const scoring = {
      day: 1, totals: [45, 15, 0], money: [60, 30, 10], ship_values: [12, 9, 9], ship_payments: [30, 7, 7],
      commodities: [
        { commodity: 'cloth', positions: [6, 2, 0], moved: [2, 2, 0], majority: [10, 5, 0], bonus: [10, 0, 0] },
        { commodity: 'fur', positions: [0, 1, 1], moved: [0, 1, 1], majority: [0, 2, 2], bonus: [0, 0, 0] },
      ],
    };
    scoring.totals = [50, 14, 9];
    const why = medici.scoringWhy(scoring, ['Ann', 'Bo', 'Cy'], t);
    assert.deepEqual(why[0].lines, [
      'Ship value 12, rank 1 of 3 → 30 florins',
      'Cloth track at 6, rank 1 of 3 → 10 florins',
      'Cloth marker on 6 → bonus 10 florins',
      'Earned this day: 30 + 10 + 10 = 50 florins',
    ]);
    assert.equal(why[1].lines[0], 'Ship value 9, rank 2 of 3, shared by 2 (the places’ payments added up and split) → 7 florins');
    assert.equal(why[1].lines[2], 'Fur track at 1, rank 1 of 3, shared by 2 (the places’ payments added up and split) → 2 florins');
    assert.equal(why[1].lines.at(-1), 'Earned this day: 7 + 5 + 2 = 14 florins');
  });

  test('on the engine\'s own games: every bid and pass has its hint, and every day\'s explanation adds up', () => {
    let days = 0;
    let bids = 0;
    for (const seed of SEEDS) {
      const fixture = game(4, seed);
      for (const viewer of fixture.viewers.filter((x) => x.seat !== null)) {
        for (const step of viewer.steps) {
          const allowed = legalActions(step.legal);
          if (allowed.bid) { clean(medici.bidHint(step.view, viewer.seat, allowed.bid.min, t)); bids += 1; }
          if (allowed.pass) clean(medici.passHint(step.view, viewer.seat, [], t));
          if (allowed.draw) clean(medici.drawHint(step.view, t));
          if (allowed.stop) clean(medici.stopHint(step.view, t));
          for (const e of step.events.filter((x) => x.type === 'day_end')) {
            const s = e.scoring;
            medici.scoringWhy(s, [], t).forEach((r, p) => {
              r.lines.forEach(clean);
              const parts = s.ship_payments[p] + s.commodities.reduce((n, c) => n + c.majority[p] + c.bonus[p], 0);
              assert.equal(parts, s.totals[p], 'the parts the explanation names add up to the day\'s total');
              assert.match(r.lines.at(-1), new RegExp(`\\b${s.totals[p]} florins?$`));
            });
            days += 1;
          }
        }
      }
    }
    assert.ok(days > 0 && bids > 0, `${days} days and ${bids} bids seen`);
  });
});
