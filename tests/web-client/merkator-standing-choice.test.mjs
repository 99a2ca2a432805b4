// Merkator's standing answer to "Join the trip?" (web-client/games/merkator/standing-choice.js): what each choice
// answers, that "stay home unless I hold a contract there" never stays home from a trip the engine then let the
// player fulfil a contract on (engine games from build/tests/engine_fixture), and the choice kept per table.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import {
  JOIN_CHOICES, STORAGE_KEY, MAX_TABLES, readChoice, saveChoice, mightFulfil, isJoinPrompt, standingAnswer,
} from '../../web-client/games/merkator/standing-choice.js';
import { indexCatalog } from '../../web-client/games/merkator/model.js';
import { root, engineGame } from './fixture.mjs';

const DATA = JSON.parse(readFileSync(path.join(root, 'engine/games/merkator/merkator-data.json'), 'utf8'));
const C = indexCatalog(DATA);
const PROMPT = [{ type: 'join' }, { type: 'decline' }];

const noGoods = () => Object.fromEntries(C.goodIds.map((g) => [g, 0]));
const noSupply = () => Object.fromEntries(C.colourIds.map((col) => [col, 0]));
/** Seat 1 asked to join seat 0's trip to `location`; `me` overrides seat 1's fields. */
function prompt(location, me = {}) {
  const seat = (over = {}) => ({
    coins: 0, time: 2, goods: noGoods(), supply: noSupply(), contracts: [], fulfilled: [], bonus_cards: [], buildings: [], ...over,
  });
  return {
    phase: 'joining', active: 0, location, to_move: [1],
    joining: { player: 1, cost: C.locations.get(location).kind === 'major' ? 1 : 2 },
    seats: [seat(), seat(me)],
  };
}
const goods = (g) => ({ ...noGoods(), ...g });
// c2_1: Hamburg, 1 grain + 1 ham; c2_2: Sweden, 1 grain + 1 wine (the shipped data file)
const k = (id) => C.contracts.get(id);

describe('what each standing choice answers', () => {
  test('the data file still has the contracts these cases use', () => {
    assert.deepEqual([k('c2_1').destination, k('c2_1').goods], ['hamburg', { grain: 1, ham: 1 }]);
    assert.deepEqual([k('c2_2').destination, k('c2_2').goods], ['sweden', { grain: 1, wine: 1 }]);
    assert.deepEqual(JOIN_CHOICES, ['ask', 'contracts', 'never']);
  });

  test('"always ask" never answers; "always stay home" always does', () => {
    const v = prompt('hamburg', { contracts: ['c2_1'], goods: goods({ grain: 1, ham: 1 }) });
    assert.equal(standingAnswer('ask', C, v, 1, PROMPT), null);
    assert.equal(standingAnswer('never', C, v, 1, PROMPT), 'decline');
    assert.equal(standingAnswer('never', C, prompt('italy'), 1, PROMPT), 'decline');
    assert.equal(standingAnswer('bogus', C, v, 1, PROMPT), null, 'an unknown choice asks');
  });

  test('nothing is answered without an open prompt of the viewer\'s', () => {
    const v = prompt('hamburg');
    assert.equal(standingAnswer('never', C, v, 0, PROMPT), null, 'another seat\'s prompt');
    assert.equal(standingAnswer('never', C, v, 1, [{ type: 'join' }]), null, 'no "stay home" in the legal list');
    assert.equal(standingAnswer('never', C, v, 1, []), null, 'no legal actions');
    assert.equal(standingAnswer('never', C, { ...v, phase: 'contracts' }, 1, PROMPT), null, 'not the joining step');
    assert.equal(standingAnswer('never', null, v, 1, PROMPT), null, 'no catalog');
    assert.equal(isJoinPrompt(v, 1, PROMPT), true);
    assert.equal(isJoinPrompt(null, 1, PROMPT), false);
  });

  test('"unless I hold a contract there": no contract for the place, or only others\' places: stay home', () => {
    assert.equal(standingAnswer('contracts', C, prompt('hamburg'), 1, PROMPT), 'decline');
    assert.equal(standingAnswer('contracts', C, prompt('hamburg', { contracts: ['c2_2'], goods: goods({ grain: 1, wine: 1 }) }), 1, PROMPT), 'decline');
  });

  test('"unless I hold a contract there": a contract there with its goods: ask', () => {
    assert.equal(standingAnswer('contracts', C, prompt('hamburg', { contracts: ['c2_1'], goods: goods({ grain: 1, ham: 1 }) }), 1, PROMPT), null);
  });

  test('"unless I hold a contract there": a contract fulfilled there this turn already does not count', () => {
    const v = prompt('hamburg', { contracts: ['c2_1'], fulfilled: ['c2_1'], goods: goods({ grain: 1, ham: 1 }) });
    assert.equal(standingAnswer('contracts', C, v, 1, PROMPT), 'decline');
  });

  test('"unless I hold a contract there": goods surely missing: stay home; goods that might be had: ask', () => {
    const without = prompt('hamburg', { contracts: ['c2_1'], time: 3 });
    assert.equal(mightFulfil(C, without, 1, 'c2_1'), false, 'two goods missing, 2 time left after paying 1');
    assert.equal(standingAnswer('contracts', C, without, 1, PROMPT), 'decline');
    // one good missing, four time counters left after paying: a trade of time
    assert.equal(standingAnswer('contracts', C, prompt('hamburg', { contracts: ['c2_1'], goods: goods({ grain: 1 }), time: 5 }), 1, PROMPT), null);
    assert.equal(standingAnswer('contracts', C, prompt('hamburg', { contracts: ['c2_1'], goods: goods({ grain: 1 }), time: 4 }), 1, PROMPT), 'decline',
      'three time counters left after paying: no trade');
    // one good missing, four spare goods of a kind: a trade of goods
    assert.equal(standingAnswer('contracts', C, prompt('hamburg', { contracts: ['c2_1'], goods: goods({ grain: 1, coal: 4 }) }), 1, PROMPT), null);
    // one good missing, a cube on the supply tile: placed as it
    assert.equal(standingAnswer('contracts', C, prompt('hamburg', { contracts: ['c2_1'], goods: goods({ grain: 1 }), supply: { ...noSupply(), purple: 1 } }), 1, PROMPT), null);
  });

  test('"unless I hold a contract there": the bonus goods joining brings count', () => {
    // c2_2 (Sweden) asks 1 grain + 1 wine; the Sweden bonus card gives a joiner 1 grain there
    assert.deepEqual([DATA.bonus_cards.find((b) => b.id === 'bonus_sweden').good, DATA.bonus_cards.find((b) => b.id === 'bonus_sweden').joiner], ['grain', 1]);
    const short = { contracts: ['c2_2'], goods: goods({ wine: 1 }) };
    assert.equal(standingAnswer('contracts', C, prompt('sweden', short), 1, PROMPT), 'decline');
    assert.equal(standingAnswer('contracts', C, prompt('sweden', { ...short, bonus_cards: ['bonus_sweden'] }), 1, PROMPT), null);
  });

  test('"unless I hold a contract there": several contracts there: ask when any one might be fulfilled', () => {
    const there = DATA.contracts.filter((x) => x.destination === 'sweden').slice(0, 2).map((x) => x.id);
    assert.equal(there.length, 2);
    const second = k(there[1]).goods;
    assert.equal(standingAnswer('contracts', C, prompt('sweden', { contracts: there, goods: goods(second) }), 1, PROMPT), null);
    assert.equal(standingAnswer('contracts', C, prompt('sweden', { contracts: there }), 1, PROMPT), 'decline');
  });
});

describe('against the engine\'s own games', () => {
  // Each join prompt of a seat in random engine games: when the seat joined and then fulfilled a contract on that
  // trip, "unless I hold a contract there" must have asked. And it stays home from some trips.
  test('never stays home from a trip the player could have fulfilled a contract on', () => {
    let prompts = 0;
    let declined = 0;
    let fulfilledAfterJoin = 0;
    for (const [players, seed] of [[2, 1], [3, 1], [3, 2], [4, 3], [4, 5]]) {
      const fixture = engineGame('merkator', players, seed);
      for (const viewer of fixture.viewers.filter((x) => x.seat !== null)) {
        const p = viewer.seat;
        let view = viewer.initial;
        let legal = [];
        viewer.steps.forEach((step, i) => {
          if (isJoinPrompt(view, p, legal)) {
            prompts += 1;
            const answer = standingAnswer('contracts', C, view, p, legal);
            if (answer === 'decline') declined += 1;
            // what the seat did on this trip: the events until the trip's joining is over
            const later = viewer.steps.slice(i, i + 12).flatMap((s) => s.events);
            const joined = later[0] && later[0].type === 'join' && later[0].player === p;
            const end = later.findIndex((e, j) => j > 0 && (e.type === 'join' || e.type === 'decline' || e.type === 'turn'));
            const onTrip = later.slice(0, end < 0 ? later.length : end);
            if (joined && onTrip.some((e) => e.type === 'fulfil' && e.player === p)) {
              fulfilledAfterJoin += 1;
              assert.equal(answer, null, `${players} players, seed ${seed}, seat ${p}, step ${i}: it stayed home from a trip with a contract fulfilled`);
            }
            assert.equal(standingAnswer('never', C, view, p, legal), 'decline');
            assert.equal(standingAnswer('ask', C, view, p, legal), null);
          } else {
            assert.equal(standingAnswer('never', C, view, p, legal), null, `step ${i}: no prompt, no answer`);
          }
          view = step.view;
          legal = step.legal;
        });
      }
    }
    assert.ok(prompts > 20, `join prompts seen: ${prompts}`);
    assert.ok(declined > 0 && declined < prompts, `"unless I hold a contract there" stayed home from ${declined} of ${prompts}`);
    console.log(`${prompts} join prompts: "unless I hold a contract there" stays home from ${declined}; ${fulfilledAfterJoin} joins fulfilled a contract`);
  });
});

describe('the choice is kept per table', () => {
  /** A localStorage stand-in; `full` makes every write fail. */
  function storage({ full = false } = {}) {
    const m = new Map();
    return {
      getItem: (key) => (m.has(key) ? m.get(key) : null),
      setItem: (key, value) => { if (full) throw new Error('QuotaExceededError'); m.set(key, String(value)); },
      raw: m,
    };
  }

  test('"always ask" until another is chosen, per table', () => {
    const s = storage();
    assert.equal(readChoice(s, 'T1'), 'ask');
    saveChoice(s, 'T1', 'never');
    saveChoice(s, 'T2', 'contracts');
    assert.equal(readChoice(s, 'T1'), 'never');
    assert.equal(readChoice(s, 'T2'), 'contracts');
    assert.equal(readChoice(s, 'T3'), 'ask');
    saveChoice(s, 'T1', 'ask');
    assert.equal(readChoice(s, 'T1'), 'ask');
    assert.deepEqual(JSON.parse(s.raw.get(STORAGE_KEY)), { T2: 'contracts' }, '"always ask" is not stored');
  });

  test('nothing without a table or a storage, and nothing unknown is kept', () => {
    const s = storage();
    saveChoice(s, '', 'never');
    saveChoice(s, 'T1', 'sometimes');
    assert.equal(s.raw.size, 0);
    assert.equal(readChoice(s, null), 'ask');
    assert.equal(readChoice(null, 'T1'), 'ask');
    saveChoice(null, 'T1', 'never'); // no throw
  });

  test('a broken or full storage asks, and throws nothing', () => {
    const s = storage();
    s.raw.set(STORAGE_KEY, '{not json');
    assert.equal(readChoice(s, 'T1'), 'ask');
    s.raw.set(STORAGE_KEY, JSON.stringify({ T1: 'maybe' }));
    assert.equal(readChoice(s, 'T1'), 'ask');
    saveChoice(storage({ full: true }), 'T1', 'never');
  });

  test(`at most ${MAX_TABLES} tables: the oldest choice goes`, () => {
    const s = storage();
    for (let i = 0; i <= MAX_TABLES; i++) saveChoice(s, `T${i}`, 'never');
    assert.equal(readChoice(s, 'T0'), 'ask');
    assert.equal(readChoice(s, 'T1'), 'never');
    assert.equal(readChoice(s, `T${MAX_TABLES}`), 'never');
    assert.equal(Object.keys(JSON.parse(s.raw.get(STORAGE_KEY))).length, MAX_TABLES);
    saveChoice(s, 'T1', 'contracts'); // chosen again: the newest
    for (let i = MAX_TABLES + 1; i < MAX_TABLES + 3; i++) saveChoice(s, `T${i}`, 'never');
    assert.equal(readChoice(s, 'T1'), 'contracts');
    assert.equal(readChoice(s, 'T2'), 'ask');
  });
});
