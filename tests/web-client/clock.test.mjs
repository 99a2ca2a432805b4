// js/models/clock-rules.js: the clock presets and their words, the live countdown (the move's own time first,
// then the reserve), the red last seconds, and what screen readers are told.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import {
  CLOCK_PRESETS, URGENT_MS, announcement, clockWords, countdown, durationWords, formatMs, msToNextTick, offersVacations,
  presetClock, presetOf, readLive, reserveAt, validClock, withVacations,
} from '../../web-client/js/models/clock-rules.js';
import { t } from '../../web-client/js/core/i18n/index.js';

describe('presets', () => {
  test('each preset encodes as the create_table clock field', () => {
    assert.deepEqual(presetClock('untimed'), { clock: null });
    assert.deepEqual(presetClock('fast'), { clock: { turn: 20, reserve: 120 } });
    assert.deepEqual(presetClock('normal'), { clock: { turn: 60, reserve: 300 } });
    assert.deepEqual(presetClock('relaxed'), { clock: { turn: 86400, reserve: 0 } });
    assert.deepEqual(presetClock('nonsense'), { error: 'preset' });
    for (const p of CLOCK_PRESETS) if (p.clock) assert.ok(validClock(p.clock), p.id);
  });

  test('a custom clock within the server\'s limits', () => {
    assert.deepEqual(presetClock('custom', { turn: 5, reserve: 0 }), { clock: { turn: 5, reserve: 0 } });
    assert.deepEqual(presetClock('custom', { turn: 86400, reserve: 86400 }), { clock: { turn: 86400, reserve: 86400 } });
    assert.deepEqual(presetClock('custom', { turn: 4, reserve: 0 }), { error: 'turn' });
    assert.deepEqual(presetClock('custom', { turn: 7.5, reserve: 0 }), { error: 'turn' });
    assert.deepEqual(presetClock('custom', { turn: NaN, reserve: 0 }), { error: 'turn' });
    assert.deepEqual(presetClock('custom', { turn: 30, reserve: -1 }), { error: 'reserve' });
    assert.deepEqual(presetClock('custom', { turn: 30, reserve: 86401 }), { error: 'reserve' });
    assert.deepEqual(presetClock('custom', null), { error: 'turn' });
  });

  test('a configuration finds its preset back', () => {
    assert.equal(presetOf(null), 'untimed');
    assert.equal(presetOf({ turn: 20, reserve: 120 }), 'fast');
    assert.equal(presetOf({ turn: 86400, reserve: 0 }), 'relaxed');
    assert.equal(presetOf({ turn: 5, reserve: 0 }), 'custom');
  });

  test('in words, as the listings show them', () => {
    assert.equal(clockWords({ turn: 20, reserve: 120 }, t), '20 s + 2 min');
    assert.equal(clockWords({ turn: 60, reserve: 300 }, t), '60 s + 5 min');
    assert.equal(clockWords({ turn: 86400, reserve: 0 }, t), '1 day per move');
    assert.equal(clockWords({ turn: 5, reserve: 0 }, t), '5 s per move');
    assert.equal(clockWords(null, t), 'Untimed');
    assert.equal(durationWords(90, t), '90 s');
    assert.equal(durationWords(7200, t), '2 h');
    assert.equal(durationWords(3600, t), '60 min');
    assert.equal(durationWords(172800, t), '2 days');
  });
});

describe('vacations', () => {
  test('only a correspondence clock may forbid them, and says so', () => {
    const relaxed = { turn: 86400, reserve: 0 };
    assert.ok(offersVacations(relaxed));
    assert.ok(!offersVacations({ turn: 60, reserve: 300 }));
    assert.ok(!offersVacations(null));
    assert.deepEqual(withVacations(relaxed, false), { turn: 86400, reserve: 0, vacations: false });
    assert.equal(withVacations(relaxed, true), relaxed);
    assert.deepEqual(withVacations({ turn: 60, reserve: 0 }, false), { turn: 60, reserve: 0 }, 'a shorter clock never stops');
    assert.notEqual(clockWords({ ...relaxed, vacations: false }, t), clockWords(relaxed, t));
  });

  test('a paused decision stands still, is never urgent, and is announced', () => {
    const live = readLive({ reserve_ms: [0, 5000], timeouts: [0, 0], running: null,
      paused: { seat: 1, turn_ms: 3000, reserve_ms: 5000 } }, 1000);
    assert.deepEqual(live.paused, { seat: 1, turnMs: 3000, reserveMs: 5000 });
    const at = (now) => countdown(live, now);
    assert.deepEqual(at(1000), { seat: 1, turnMs: 3000, reserveMs: 5000, leftMs: 8000, phase: 'turn', urgent: false, paused: true });
    assert.deepEqual(at(999999), at(1000), 'no time passes');
    assert.equal(msToNextTick(at(1000)), null, 'nothing to redraw');
    const heard = announcement(at(1000), 0, ['Ann', 'Bo'], t);
    assert.equal(heard.change, '1|paused');
    assert.notEqual(heard.text, '');
    // Back on the clock: it counts down from the same time.
    const back = readLive({ reserve_ms: [0, 5000], timeouts: [0, 0], running: { seat: 1, turn_ms: 3000, reserve_ms: 5000 } }, 2000);
    assert.equal(back.paused, undefined);
    assert.equal(countdown(back, 3000).leftMs, 7000);
  });
});

describe('the live countdown', () => {
  const frame = { reserve_ms: [120000, 95000, 0], timeouts: [0, 2, 0], running: { seat: 1, turn_ms: 20000, reserve_ms: 95000 } };

  test('reads the frame, ignoring what is not a duration', () => {
    const live = readLive(frame, 1000);
    assert.deepEqual(live, { at: 1000, reserveMs: [120000, 95000, 0], timeouts: [0, 2, 0], running: { seat: 1, turnMs: 20000, reserveMs: 95000 } });
    assert.equal(readLive(undefined, 0), null);
    assert.equal(readLive({ reserve_ms: [1], timeouts: [0], running: null }, 5).running, null);
    assert.deepEqual(readLive({ reserve_ms: [-5, 'x'], timeouts: [-1, 1.5], running: { seat: 0, turn_ms: -3 } }, 0),
      { at: 0, reserveMs: [0, 0], timeouts: [0, 0], running: { seat: 0, turnMs: 0, reserveMs: 0 } });
  });

  test('the move\'s own time runs first, then the reserve', () => {
    const live = readLive(frame, 1000);
    assert.deepEqual(countdown(live, 1000), { seat: 1, turnMs: 20000, reserveMs: 95000, leftMs: 115000, phase: 'turn', urgent: false });
    assert.deepEqual(countdown(live, 20999), { seat: 1, turnMs: 1, reserveMs: 95000, leftMs: 95001, phase: 'turn', urgent: false });
    assert.deepEqual(countdown(live, 21000), { seat: 1, turnMs: 0, reserveMs: 95000, leftMs: 95000, phase: 'reserve', urgent: false });
    assert.deepEqual(countdown(live, 31000), { seat: 1, turnMs: 0, reserveMs: 85000, leftMs: 85000, phase: 'reserve', urgent: false });
    assert.deepEqual(countdown(live, 116000), { seat: 1, turnMs: 0, reserveMs: 0, leftMs: 0, phase: 'out', urgent: true });
    assert.deepEqual(countdown(live, 999999).phase, 'out', 'never below zero');
    assert.equal(countdown(live, 0).turnMs, 20000, 'a clock going backwards does not add time');
  });

  test('red in the last 10 seconds of what is left, not of the move\'s own time', () => {
    const live = readLive(frame, 0);
    assert.equal(countdown(live, 15000).urgent, false, '5 s of the move left, but the reserve is full');
    assert.equal(countdown(live, 115000 - URGENT_MS - 1).urgent, false);
    assert.equal(countdown(live, 115000 - URGENT_MS).urgent, true);
    const noReserve = readLive({ reserve_ms: [0, 0], timeouts: [0, 0], running: { seat: 0, turn_ms: 5000, reserve_ms: 0 } }, 0);
    assert.equal(countdown(noReserve, 0).urgent, true, 'a 5 s clock without a reserve is red from the start');
  });

  test('nobody on the clock', () => {
    assert.equal(countdown(readLive({ reserve_ms: [1000], timeouts: [0], running: null }, 0), 100), null);
    assert.equal(countdown(null, 100), null);
  });

  test('every seat\'s reserve: the running seat\'s runs down, the others stay as sent', () => {
    const live = readLive(frame, 0);
    assert.equal(reserveAt(live, 0, 50000), 120000);
    assert.equal(reserveAt(live, 1, 10000), 95000);
    assert.equal(reserveAt(live, 1, 50000), 65000);
    assert.equal(reserveAt(live, 2, 50000), 0);
    assert.equal(reserveAt(live, 7, 0), null);
    assert.equal(reserveAt(null, 0, 0), null);
  });

  test('shown in whole seconds, rounded up; a day or more in days and hours', () => {
    assert.equal(formatMs(20000, t), '0:20');
    assert.equal(formatMs(19001, t), '0:20');
    assert.equal(formatMs(1, t), '0:01');
    assert.equal(formatMs(0, t), '0:00');
    assert.equal(formatMs(-5, t), '0:00');
    assert.equal(formatMs(299000, t), '4:59');
    assert.equal(formatMs(3723000, t), '1:02:03');
    assert.equal(formatMs(86400000, t), '1 d 0 h');
    assert.equal(formatMs(100000000, t), '1 d 3 h');
  });

  test('the display changes at the next whole second', () => {
    const live = readLive(frame, 0);
    assert.equal(msToNextTick(countdown(live, 0)), 1000);
    assert.equal(msToNextTick(countdown(live, 250)), 750);
    assert.equal(msToNextTick(countdown(live, 20500)), 500, 'in the reserve');
    assert.equal(msToNextTick(countdown(live, 999999)), null, 'out of time: nothing more to count');
    assert.equal(msToNextTick(null), null);
  });
});

describe('what screen readers hear', () => {
  const names = ['Ann', 'Bo'];
  const at = (turn, reserve, now) => countdown(readLive({ reserve_ms: [reserve, 0], timeouts: [0, 0], running: { seat: 0, turn_ms: turn, reserve_ms: reserve } }, 0), now);

  test('only when something meaningful changes', () => {
    const first = announcement(at(20000, 60000, 0), 1, names, t);
    assert.equal(first.text, '', 'the turn indicator already says whose turn it is');
    assert.equal(announcement(at(20000, 60000, 5000), 1, names, t).change, first.change, 'a second passing is no change');
    const reserve = announcement(at(20000, 60000, 21000), 1, names, t);
    assert.notEqual(reserve.change, first.change);
    assert.equal(reserve.text, 'Ann is on their reserve.');
    const urgent = announcement(at(20000, 60000, 71000), 1, names, t);
    assert.equal(urgent.text, 'Ann has ten seconds left.');
    assert.equal(announcement(at(20000, 60000, 75000), 1, names, t).change, urgent.change);
    assert.equal(announcement(at(20000, 60000, 80000), 1, names, t).text, 'Ann’s time is up: a bot moves for them.');
  });

  test('to the player on the clock, in the second person', () => {
    assert.equal(announcement(at(20000, 60000, 21000), 0, names, t).text, 'Your move’s time is up: your reserve is running.');
    assert.equal(announcement(at(5000, 0, 0), 0, names, t).text, 'Ten seconds left for your move!');
    assert.deepEqual(announcement(null, 0, names, t), { change: 'none', text: '' });
  });
});
