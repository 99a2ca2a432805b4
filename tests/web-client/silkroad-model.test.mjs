// The Silk Road reducer against the engine itself: build/tests/engine_fixture plays random games
// and prints, for every viewer, the initial view and per action the events, legal actions and
// view. Applying each step's events to the previous view must give exactly the engine's view.
// The log sentences are checked too: a viewer is never told another player's coins, income or
// cards, because the sentences come only from the events that viewer receives.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import {
  applyEvent, applyEvents, legalActions, describeEvent, statusText, resultSentence, toMove, isOver,
  marketCount, shipsWith, loadingRound, cardsText, GOODS,
  statusBar, scoringPayouts, playPayouts, marketAfterPlay, payoutText, movedPlaces, LICENSE_BONUS,
} from '../../web-client/games/silkroad/model.js';
import '../../web-client/games/registry.js'; // the games' strings join t()'s catalog
import { t } from '../../web-client/js/core/i18n/index.js';
import { engineGame, replayViewers } from './fixture.mjs';

// Seeds 3 and 5 include an end_phase (a Porter's exchanges stopped early).
const SEEDS = [1, 3, 5, 7, 42, 2024];
const EVENT_TYPES = ['load', 'turn', 'phase', 'exchange', 'end_phase', 'buy', 'pass', 'play', 'scoring', 'income',
  'draw', 'extra_draw', 'done', 'game_over'];
const NAMES = ['Anna', 'Bo', 'Cy', 'Di'];

const game = (players, seed) => engineGame('silkroad', players, seed);

const noKey = (s) => !s.includes('⟦') && !/\{\w+\}/.test(s);

describe('applyEvents reproduces the engine views', () => {
  for (let players = 2; players <= 4; players++) {
    for (const seed of SEEDS) {
      test(`${players} players, seed ${seed}: every viewer, every step`, () => {
        replayViewers(game(players, seed), players, applyEvents, {
          minSteps: 20,
          eachStep: (view, step) => assert.equal(applyEvents(view, step.events).version, step.view.version),
          atEnd: (view, who) => {
            assert.ok(isOver(view), `${who}: the game ends`);
            assert.deepEqual(toMove(view), []);
            // At the end every seat's coins are shown, to everyone.
            view.seats.forEach((s, p) => assert.ok(Number.isInteger(s.coins), `${who}: coins of seat ${p} at the end`));
          },
        });
      });
    }
  }

  test('the fixtures exercise every event type and every phase', () => {
    const seen = new Set();
    const phases = new Set();
    for (let players = 2; players <= 4; players++) {
      for (const seed of SEEDS) {
        for (const step of game(players, seed).viewers[0].steps) {
          for (const e of step.events) seen.add(e.type);
          phases.add(step.view.phase);
        }
      }
    }
    assert.deepEqual([...seen].sort(), [...EVENT_TYPES].sort());
    assert.deepEqual([...phases].sort(), ['exchanging', 'extra_draws', 'loading', 'over', 'phase1', 'phase2']);
  });

  test('an unknown event type leaves the view as it was', () => {
    const view = game(3, 1).viewers[0].initial;
    assert.equal(applyEvent(view, { type: 'something_new' }), view);
    assert.deepEqual(applyEvents(view, [{ type: 'something_new' }], 5), { ...view, version: 5 });
  });

  test('views of other seats never gain hands or coins before the end', () => {
    for (const seed of SEEDS) {
      const g = game(3, seed);
      for (const viewer of g.viewers) {
        let view = viewer.initial;
        for (const step of viewer.steps) {
          view = applyEvents(view, step.events, step.view.version);
          if (isOver(view)) break;
          view.seats.forEach((s, p) => {
            if (p === viewer.seat) return;
            assert.equal(s.hand, null);
            assert.equal(s.coins, null);
          });
        }
      }
    }
  });
});

describe('legal actions by kind', () => {
  test('legalActions sorts the engine\'s list', () => {
    const a = legalActions([
      { type: 'pass' },
      { type: 'exchange', ship: 0, good: 'silk' }, { type: 'exchange', ship: 0, good: 'tea' }, { type: 'exchange', ship: 1, good: 'ore' },
      { type: 'buy', card: 'ship', good: 'tea' }, { type: 'buy', card: 'license' },
    ]);
    assert.equal(a.pass, true);
    assert.equal(a.endPhase, false);
    assert.deepEqual([...a.exchange], [[0, ['silk', 'tea']], [1, ['ore']]]);
    assert.deepEqual(a.buyShip, ['tea']);
    assert.deepEqual(a.buy, ['license']);
    assert.equal(a.draw, false);
    const b = legalActions([{ type: 'draw' }, { type: 'play', good: 'tea', slot: 0 }, { type: 'play', good: 'tea', slot: 5 }, { type: 'score' }]);
    assert.deepEqual([...b.play], [['tea', [0, 5]]]);
    assert.equal(b.draw && b.score, true);
    assert.deepEqual(legalActions([{ type: 'load', good: 'ore' }]).load, ['ore']);
    const c = legalActions([{ type: 'extra_draw' }, { type: 'done' }]);
    assert.ok(c.extraDraw && c.done);
    const none = legalActions(undefined);
    assert.equal(none.play.size + none.exchange.size + none.load.length + none.buy.length, 0);
  });

  test('every legal list of real games is fully sorted (nothing the board would miss)', () => {
    for (const seed of SEEDS) {
      const g = game(3, seed);
      for (const viewer of g.viewers.slice(0, 3)) {
        for (const step of viewer.steps) {
          const a = legalActions(step.legal);
          const n = a.load.length + [a.pass, a.endPhase, a.score, a.draw, a.extraDraw, a.done].filter(Boolean).length +
            [...a.exchange.values()].flat().length + a.buyShip.length + a.buy.length + [...a.play.values()].flat().length;
          assert.equal(n, step.legal.length);
        }
      }
    }
  });

  test('board helpers', () => {
    const view = game(3, 7).viewers[0].steps.at(-1).view;
    for (const g of GOODS) assert.equal(marketCount(view, g), view.market.filter((x) => x === g).length);
    assert.equal(GOODS.reduce((n, g) => n + marketCount(view, g), 0), 6);
    assert.equal(shipsWith({ ships: ['tea', 'ore', 'tea'] }, 'tea'), 2);
    const start = game(3, 7).viewers[0].initial;
    assert.equal(loadingRound(start), 1);
    assert.equal(cardsText({ tea: 2, ore: 1 }, t), '2 tea and 1 ore');
  });
});

describe('describeEvent', () => {
  test('every event of real games gives a full sentence, for players and spectators', () => {
    const seen = new Set();
    for (let players = 2; players <= 4; players++) {
      for (const seed of SEEDS) {
        const g = game(players, seed);
        for (const viewer of g.viewers) {
          for (const step of viewer.steps) {
            for (const e of step.events) {
              const s = describeEvent(e, NAMES, t, viewer.seat);
              seen.add(e.type);
              assert.ok(s.length > 5, `${e.type}: "${s}"`);
              assert.ok(noKey(s), `${e.type}: untranslated or unfilled in "${s}"`);
              assert.match(s, /[.!]$/, `${e.type}: a sentence ends with a full stop: "${s}"`);
            }
          }
        }
      }
    }
    assert.deepEqual([...seen].sort(), [...EVENT_TYPES].sort());
  });

  test('a viewer is told only their own coins, income and cards', () => {
    // What a viewer may read: coin amounts only from their own private events (or the result at
    // the end), cards only their own draws. Every sentence of every real game is checked against
    // the true hidden values of the other seats (taken from the full per-seat views).
    for (const seed of SEEDS) {
      const g = game(3, seed);
      const seatViews = g.viewers.slice(0, 3);
      g.viewers.forEach((viewer) => {
        viewer.steps.forEach((step, i) => {
          for (const e of step.events) {
            const s = describeEvent(e, NAMES, t, viewer.seat);
            if (e.type === 'game_over') continue;
            // No amount of coins in any sentence but the viewer's own income or purchase.
            const own = (e.type === 'income' || (e.type === 'buy' && 'coins' in e));
            if (own) {
              assert.equal(e.player, viewer.seat, 'only the owner receives income and a purchase with coins');
              assert.match(s, /^You /, s);
            } else {
              assert.doesNotMatch(s, /\bcoins?\b/, `${viewer.seat === null ? 'spectator' : `seat ${viewer.seat}`}: "${s}"`);
            }
            // Cards drawn are named only to the drawer.
            if ((e.type === 'draw' || e.type === 'extra_draw') && e.player !== viewer.seat) {
              for (const good of GOODS) assert.ok(!s.includes(good), `cards of another player named: "${s}"`);
            }
            // Another seat's name never comes with an amount of coins.
            for (const [p, name] of NAMES.slice(0, 3).entries()) {
              if (p === viewer.seat) continue;
              const coins = seatViews[p].steps[i].view.seats[p].coins;
              if (s.includes(name)) assert.ok(!s.includes(`${coins} coin`), `"${s}" tells ${name}'s coins`);
            }
          }
        });
      });
    }
  });

  test('sentences', () => {
    assert.equal(describeEvent({ type: 'income', player: 1, good: 'tea', ships: 2, base: 6, license_bonus: 0, amount: 6, coins: 21 }, NAMES, t, 1),
      'You earn 6 coins from tea (2 ships); you now have 21.');
    assert.equal(describeEvent({ type: 'income', player: 1, good: 'ore', ships: 1, base: 3, license_bonus: 2, amount: 5, coins: 9 }, NAMES, t, 1),
      'You earn 5 coins from ore (3 for 1 ships + 2 License bonus); you now have 9.');
    assert.equal(describeEvent({ type: 'scoring', player: 0, good: 'spice', count: 3, played: 2 }, NAMES, t, null),
      'A scoring of spice at 3: every ship carrying spice earns 3.');
    assert.equal(describeEvent({ type: 'buy', player: 0, card: 'license', cost: 11, left: 1 }, NAMES, t, 2),
      'Anna buys a special card: License (price 11).');
    assert.equal(describeEvent({ type: 'buy', player: 0, card: 'license', cost: 11, left: 1, coins: 4 }, NAMES, t, 0),
      'You buy a special card: License (price 11); you have 4 coins left.');
    assert.equal(describeEvent({ type: 'buy', player: 2, card: 'ship', cost: 10, left: 5, ship: 2, good: 'ore', supply: 3 }, NAMES, t, null),
      'Cy buys a Ship (price 10) and loads it with ore.');
    assert.equal(describeEvent({ type: 'draw', player: 1, count: 2, hand_count: 5, deck_count: 30 }, NAMES, t, 0),
      'Bo draws 2 cards; 30 left in the deck.');
    assert.equal(describeEvent({ type: 'draw', player: 1, count: 2, hand_count: 5, deck_count: 30, cards: { tea: 1, ore: 1 } }, NAMES, t, 1),
      'You draw 1 tea and 1 ore; 30 left in the deck.');
    assert.equal(describeEvent({ type: 'extra_draw', player: 1, count: 1, hand_count: 6, deck_count: 29, extra_draws_left: 0 }, NAMES, t, null),
      'Bo draws an extra card; 29 left in the deck.');
    assert.equal(describeEvent({ type: 'play', player: 3, good: 'tea', slot: 2, covered: 'ore', hand_count: 1 }, NAMES, t, null),
      'Di plays tea on market slot 3, covering ore.');
    assert.equal(describeEvent({ type: 'exchange', player: 0, ship: 1, from: 'tea', good: 'silk', exchanges_left: 0 }, NAMES, t, 0),
      'You exchange your ship 2 from tea to silk.');
    assert.equal(describeEvent({ type: 'load', player: 2, ship: 0, good: 'glass', supply: 4 }, [], t, null),
      'Player 3 loads glass on ship 1.');
    assert.equal(describeEvent({ type: 'game_over', result: { ranking: [{ player: 1, rank: 1, coins: 40 }, { player: 0, rank: 1, coins: 40 }], winners: [1, 0] } }, NAMES, t),
      'Bo and Anna share the win with 40 coins.');
    const s = describeEvent({ type: 'teleport' }, NAMES, t);
    assert.ok(noKey(s) && s.includes('teleport'), s);
    assert.ok(noKey(describeEvent(undefined, NAMES, t)));
  });

  test('statusText and resultSentence', () => {
    const g = game(3, 1);
    for (const viewer of g.viewers) {
      for (const step of viewer.steps) {
        const s = statusText(step.view, NAMES, viewer.seat, t);
        assert.ok(noKey(s), s);
        assert.ok(s.length > 0);
        if (step.view.phase !== 'over') assert.doesNotMatch(s, /\bcoins?\b/);
      }
    }
    const last = g.viewers[0].steps.at(-1).view;
    assert.equal(statusText(last, NAMES, 0, t), resultSentence(last.result, NAMES, t));
    assert.ok(noKey(resultSentence(null, NAMES, t)));
  });
});

describe('the status bar says each fact once', () => {
  // Words of four letters or more that two texts of the bar share (players' names aside): the old bar
  // said "Setup: loading ships" beside "Loading the ships", and "Phase 1: exchange, buy or pass" above
  // "Ann is in phase 1: exchange, buy or pass.".
  const words = (s) => new Set(s.toLowerCase().replace(/[^\p{L}\s]/gu, ' ').split(/\s+/)
    .filter((w) => w.length >= 4 && !NAMES.some((n) => n.toLowerCase() === w)));
  function shared(texts) {
    const seen = new Map();
    const twice = [];
    texts.forEach((text, i) => {
      for (const w of words(text)) {
        if (seen.has(w) && seen.get(w) !== i) twice.push(`"${w}" in "${texts[seen.get(w)]}" and "${text}"`);
        seen.set(w, i);
      }
    });
    return twice;
  }

  test('no word of the stage, the phase and the status sentence repeats, for every viewer of real games', () => {
    let checked = 0;
    for (const players of [2, 3, 4]) {
      for (const seed of SEEDS.slice(0, 3)) {
        for (const viewer of game(players, seed).viewers) {
          for (const step of viewer.steps) {
            const ownPanel = viewer.seat !== null && step.legal.length > 0;
            const bar = statusBar(step.view, NAMES, viewer.seat, t, { ownPanel });
            // What the page shows: the bar, and the viewer's move panel sentence when there is one.
            const texts = [bar.stage, bar.phase, bar.line, ownPanel ? statusText(step.view, NAMES, viewer.seat, t) : null].filter(Boolean);
            assert.deepEqual(shared(texts), [], `phase ${step.view.phase}: ${JSON.stringify(texts)}`);
            for (const s of texts) assert.ok(noKey(s), s);
            checked += 1;
          }
        }
      }
    }
    assert.ok(checked > 1000);
  });

  test('the old texts would have failed (the check itself)', () => {
    assert.notDeepEqual(shared(['Setup: loading ships', 'Loading the ships']), []);
    assert.notDeepEqual(shared(['Phase 1: exchange, buy or pass', 'Anna is in phase 1: exchange, buy or pass.']), []);
  });

  test('stage, phase and sentence by phase', () => {
    const base = game(3, 1).viewers[0].initial; // loading, seat 1 to move
    const loading = statusBar(base, NAMES, 0, t);
    assert.equal(loading.phase, null, 'loading: the stage says it, no phase pill');
    assert.match(loading.stage, /setup/i);
    assert.match(loading.line, /^Bo /);
    const p1 = { ...base, phase: 'phase1', turn: 4, active: 0 };
    assert.match(statusBar(p1, NAMES, 1, t).stage, /4/);
    assert.match(statusBar(p1, NAMES, 1, t).phase, /1/);
    assert.equal(statusBar(p1, NAMES, 0, t, { ownPanel: true }).line, null, 'the move panel says it');
    assert.match(statusBar({ ...p1, phase: 'phase2' }, NAMES, 1, t).phase, /2/);
    const over = statusBar({ ...base, phase: 'over', result: { winners: [0], ranking: [{ player: 0, rank: 1, coins: 3 }] } }, NAMES, 1, t);
    assert.equal(over.phase, null);
    assert.equal(over.line, null, 'the result panel says who won');
  });
});

describe('what a scoring would pay (public facts only)', () => {
  // Hand-made views: only the fields the rules make public, with coins and hands hidden (null), as
  // another seat is in a player's view.
  const seat = (ships, license = 0, extra = {}) => ({ ships, license, exchange: 0, porter: 0, coins: null, hand: null, hand_count: 3, ...extra });
  const view = {
    market: ['tea', 'silk', 'tea', 'ore', 'glass', 'spice'],
    seats: [
      seat(['tea', 'tea', 'ore'], 0, { coins: 7, hand: { tea: 2 } }), // the viewer
      seat(['tea', 'silk'], 1),
      seat(['silk', 'ore'], 2),
    ],
  };

  test('every player earns visible cards × their ships with the good; License bonus only with income', () => {
    // Tea: 2 visible. Seat 0: 2 ships → 2×2 = 4. Seat 1: 1 ship → 2, +2 for its License = 4. Seat 2: none → 0 (no bonus).
    const tea = scoringPayouts(view, 'tea');
    assert.deepEqual(tea.map((p) => p.amount), [2 * 2, 2 * 1 + LICENSE_BONUS, 0]);
    assert.deepEqual(tea.map((p) => [p.ships, p.base, p.bonus]), [[2, 4, 0], [1, 2, LICENSE_BONUS], [0, 0, 0]]);
    // Ore: 1 visible. Seat 0: 1; seat 2: 1 + 2 Licenses × 2 = 5.
    assert.deepEqual(scoringPayouts(view, 'ore').map((p) => p.amount), [1, 0, 1 + 2 * LICENSE_BONUS]);
    // Porcelain: not in the market, no ship: nobody.
    assert.deepEqual(scoringPayouts(view, 'porcelain').map((p) => p.amount), [0, 0, 0]);
  });

  test('a play counts the new card and loses the covered one', () => {
    assert.deepEqual(marketAfterPlay(view.market, 'tea', 1), ['tea', 'tea', 'tea', 'ore', 'glass', 'spice']);
    // Tea on the silk slot: 3 visible → seat 0: 3×2 = 6, seat 1: 3×1 + 2 = 5.
    assert.deepEqual(playPayouts(view, 'tea', 1).map((p) => p.amount), [6, 5, 0]);
    // Tea on a tea slot: still 2 visible.
    assert.deepEqual(playPayouts(view, 'tea', 0).map((p) => p.amount), [4, 4, 0]);
    // Silk on the ore slot: 2 silk → seat 1: 2 + 2, seat 2: 2 + 4; ore is gone, silk counted.
    assert.deepEqual(playPayouts(view, 'silk', 3).map((p) => p.amount), [0, 2 + LICENSE_BONUS, 2 + 2 * LICENSE_BONUS]);
    assert.deepEqual(view.market, ['tea', 'silk', 'tea', 'ore', 'glass', 'spice'], 'the view is not changed');
  });

  test('coins and hands play no part: the same for any hidden values', () => {
    const other = { ...view, seats: view.seats.map((s, p) => ({ ...s, coins: p * 100, hand: { tea: 9, silk: 9 }, hand_count: 18 })) };
    for (const good of GOODS) {
      for (let slot = 0; slot < 6; slot++) assert.deepEqual(playPayouts(other, good, slot), playPayouts(view, good, slot));
    }
  });

  test('the words: you first, then the others who earn; nobody', () => {
    const names = ['Ann', 'Bea', 'Cy'];
    assert.equal(payoutText(playPayouts(view, 'tea', 1), names, 0, t), 'you +6, Bea +5');
    assert.equal(payoutText(playPayouts(view, 'silk', 3), names, 2, t), 'you +6, Bea +4');
    assert.equal(payoutText(playPayouts(view, 'silk', 3), names, null, t), 'Bea +4, Cy +6');
    assert.equal(payoutText(scoringPayouts(view, 'porcelain'), names, 0, t), 'no one earns');
    assert.doesNotMatch(payoutText(playPayouts(view, 'tea', 1), names, 0, t), /coin/);
  });

  test('in real games the preview is what the viewer then earns', () => {
    // For every scoring: the view just before it (the cards played) gives the viewer exactly the
    // income the engine pays them (0 when they get no income event). And a scoring right after a
    // single card equals the preview of that play on the view before the card.
    let scorings = 0;
    for (const players of [2, 3, 4]) {
      for (const seed of SEEDS) {
        for (const viewer of game(players, seed).viewers.slice(0, players)) {
          let before = viewer.initial;
          let beforePlay = null;
          for (const step of viewer.steps) {
            let v = before;
            for (const e of step.events) {
              if (e.type === 'play' && v.played_count === 0) beforePlay = { view: v, good: e.good, slot: e.slot };
              if (e.type === 'scoring') {
                const income = step.events.find((x) => x.type === 'income' && x.player === viewer.seat);
                const mine = scoringPayouts(v, e.good)[viewer.seat];
                assert.equal(mine.amount, income ? income.amount : 0);
                if (income) assert.deepEqual([mine.ships, mine.base, mine.bonus], [income.ships, income.base, income.license_bonus]);
                if (e.played === 1) assert.deepEqual(playPayouts(beforePlay.view, beforePlay.good, beforePlay.slot)[viewer.seat], mine);
                scorings += 1;
              }
              v = applyEvent(v, e);
            }
            before = applyEvents(before, step.events, step.view.version);
          }
        }
      }
    }
    assert.ok(scorings > 100, `${scorings} scorings`);
  });
});

describe('last moves', () => {
  test('the places each move changed', () => {
    assert.deepEqual(movedPlaces({ type: 'load', player: 2, ship: 1, good: 'tea', supply: 4 }), ['ship:2:1']);
    assert.deepEqual(movedPlaces({ type: 'exchange', player: 0, ship: 2, from: 'tea', good: 'ore', exchanges_left: 0 }), ['ship:0:2']);
    assert.deepEqual(movedPlaces({ type: 'buy', player: 1, card: 'ship', ship: 2, good: 'ore', cost: 10, left: 3 }), ['shop:ship', 'ship:1:2']);
    assert.deepEqual(movedPlaces({ type: 'buy', player: 1, card: 'license', cost: 11, left: 1 }), ['shop:license', 'special:1:license']);
    assert.deepEqual(movedPlaces({ type: 'play', player: 3, good: 'tea', slot: 4, covered: 'ore', hand_count: 2 }), ['slot:4']);
    assert.deepEqual(movedPlaces({ type: 'draw', player: 1, count: 2, hand_count: 5, deck_count: 3 }), ['hand:1']);
    assert.deepEqual(movedPlaces({ type: 'extra_draw', player: 1, count: 1, hand_count: 6, deck_count: 2 }), ['hand:1']);
    for (const type of ['turn', 'phase', 'pass', 'end_phase', 'scoring', 'income', 'done', 'game_over']) {
      assert.equal(movedPlaces({ type, player: 0 }), null, type);
    }
  });
});

describe('hints and payouts explained (what the board shows on hover and focus)', async () => {
  const sr = await import('../../web-client/games/silkroad/model.js');
  const clean = (s) => assert.ok(s && !/[⟦{]/.test(s), `a whole sentence: ${s}`);
  const view = () => ({
    phase: 'phase2', active: 0, players: 3, turn: 4, deck_count: 30, exchanges_left: 0, extra_draws_left: 1, played_good: 'tea', played_count: 1,
    market: ['tea', 'tea', 'silk', 'ore', 'tea', 'glass'], covered: [0, 1, 0, 0, 0, 0],
    supply: { porcelain: 5, silk: 4, tea: 2, spice: 5, glass: 4, ore: 3 },
    stock: { ship: 6, exchange: 2, porter: 1, license: 2 }, costs: { ship: 10, exchange: 8, porter: 12, license: 11 },
    seats: [
      { ships: ['tea', 'tea'], coins: 14, hand: { tea: 2, silk: 1 }, hand_count: 3, exchange: 1, porter: 0, license: 1 },
      { ships: ['tea', 'ore'], coins: null, hand: null, hand_count: 4, exchange: 0, porter: 0, license: 0 },
      { ships: ['silk', 'glass'], coins: null, hand: null, hand_count: 2, exchange: 0, porter: 0, license: 0 },
    ],
  });
  const names = ['Ann', 'Bea', 'Cy'];

  test('payoutWhy: visible cards × ships, the License on top, only who earns, the viewer first', () => {
    const v = view();
    assert.equal(sr.payoutWhy(sr.scoringPayouts(v, 'tea'), names, 0, t),
      'you: 3 visible × 2 ships = 6 + 2 License = 8; Bea: 3 visible × 1 ship = 3');
    assert.equal(sr.payoutWhy(sr.scoringPayouts(v, 'porcelain'), names, 0, t), 'no one earns');
    assert.equal(sr.scoreHint(v, 0, names, t),
      'Score tea now (3 visible cards): you: 3 visible × 2 ships = 6 + 2 License = 8; Bea: 3 visible × 1 ship = 3. Ends your play.');
    assert.match(sr.playHint(v, 0, 'tea', 2, names, t), /^Play one tea card from your hand on market slot 3, covering its silk\. A scoring right after: you: 4 visible × 2 ships = 8 \+ 2 License = 10; Bea: 4 visible × 1 ship = 4\.$/);
  });

  test('costs come from the view: the card prices, the coins after, the supply and the exchanges left', () => {
    const v = { ...view(), phase: 'phase1', exchanges_left: 2 };
    assert.match(sr.buyShipHint(v, 0, 'spice', t), /^Buy a Ship for 10 coins and load it with spice — you have 14, 4 after; 6 Ships left for sale\./);
    assert.match(sr.buyCardHint(v, 0, 'license', t), /^Buy License for 11 coins — you have 14, 3 after\. Whenever you earn income, earn 2 more\./);
    assert.equal(sr.exchangeHint(v, 0, 1, 'ore', t),
      'Exchange on ship 2: its tea marker goes back to the supply and ore comes on — free; you may exchange 2 markers this turn.');
    assert.match(sr.loadHint({ ...v, phase: 'loading' }, 0, 'tea', t), /^Load tea on your ship 3 — free; 2 tea markers are left/);
    assert.match(sr.chooseHint(v, 0, 'tea', 4, t), /you hold 2 cards of it.*\(4 open to it\)/);
    assert.match(sr.drawHint(v, t), /^Draw 2 cards from the deck \(30 left\)/);
    assert.match(sr.extraDrawHint(v, t), /1 extra draw left, 30 cards in the deck/);
    clean(sr.doneHint(v, t));
    clean(sr.endPhaseHint(v, t));
    clean(sr.passHint(t));
  });

  test('on the engine\'s own games: every legal action of every player has a whole hint', () => {
    let seen = 0;
    for (const seed of SEEDS.slice(0, 3)) {
      const fixture = game(3, seed);
      for (const viewer of fixture.viewers.filter((x) => x.seat !== null)) {
        for (const step of viewer.steps) {
          const v = step.view;
          const p = viewer.seat;
          for (const a of step.legal) {
            let hint;
            switch (a.type) {
              case 'load': hint = sr.loadHint(v, p, a.good, t); break;
              case 'exchange': hint = sr.exchangeHint(v, p, a.ship, a.good, t); break;
              case 'buy': hint = a.card === 'ship' ? sr.buyShipHint(v, p, a.good, t) : sr.buyCardHint(v, p, a.card, t); break;
              case 'play': hint = sr.playHint(v, p, a.good, a.slot, names, t); break;
              case 'score': hint = sr.scoreHint(v, p, names, t); break;
              case 'draw': hint = sr.drawHint(v, t); break;
              case 'extra_draw': hint = sr.extraDrawHint(v, t); break;
              case 'done': hint = sr.doneHint(v, t); break;
              case 'end_phase': hint = sr.endPhaseHint(v, t); break;
              case 'pass': hint = sr.passHint(t); break;
              default: assert.fail(`no hint for ${a.type}`);
            }
            clean(hint);
            if (a.type === 'buy') assert.match(hint, new RegExp(`you have ${v.seats[p].coins}, ${v.seats[p].coins - v.costs[a.card]} after`));
            seen += 1;
          }
        }
      }
    }
    assert.ok(seen > 100, `${seen} legal actions`);
  });
});

describe('the final result taken apart (issue 36)', () => {
  const costs = { ship: 10, exchange: 8, porter: 12, license: 11 };
  const seat = (over) => ({ ships: ['tea', 'ore'], exchange: 0, porter: 0, license: 0, coins: 21, ...over });
  test('earned − spent = coins, from the ships and cards the view shows', async () => {
    const { finalBreakdown, breakdownText } = await import('../../web-client/games/silkroad/model.js');
    const { t } = await import('../../web-client/js/core/i18n/index.js');
    const view = { costs, seats: [seat({ ships: ['tea', 'ore', 'silk'], license: 1, coins: 31 }), seat({}), seat({ coins: null })] };
    assert.deepEqual(finalBreakdown(view, 0), { coins: 31, spent: 21, earned: 52, bought: [{ card: 'ship', count: 1, cost: 10 }, { card: 'license', count: 1, cost: 11 }] });
    assert.equal(breakdownText(finalBreakdown(view, 0), t), 'Earned 52 − spent 21 = 31 · bought 1 × Ship (10) and 1 × License (11)');
    assert.equal(breakdownText(finalBreakdown(view, 1), t), 'Earned 21 − spent 0 = 21 · bought nothing');
    assert.equal(finalBreakdown(view, 2), null, 'coins not shown: nothing to take apart');
  });
});
