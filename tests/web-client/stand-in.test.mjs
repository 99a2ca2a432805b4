// js/models/stand-in.js: stand-in bots ("(left)", "(away)"), how long a person has been away, and who
// gets "Let a bot play" and "Leave game" during a running game.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import {
  DEFAULT_ABSENT_AFTER_S, absentThreshold, awaySeconds, awayWords, canLeaveRunning, canReplace, msUntilThreshold, standIn, timedOutSeat,
  botPlaysMine, playableGame,
  standInWords,
} from '../../web-client/js/models/stand-in.js';
import { t } from '../../web-client/js/core/i18n/index.js';

const ann = { seat: 0, name: 'Ann', connected: true };
const bo = { seat: 1, name: 'Bo', connected: false, away_s: 372 };
const cy = { seat: 2, name: 'Cy', connected: true, bot: 'normal', stand_in: 'left' };
const di = { seat: 3, name: 'Di', connected: true, bot: 'normal', stand_in: 'absent' };
const bot = { seat: 4, name: 'Bot 1', connected: true, bot: 'easy' };
const table = (state = 'playing') => ({ id: 't1', game: 'medici', players: 5, state, seats: [ann, bo, cy, di, bot] });

describe('stand-in bots', () => {
  test('only a bot seat with a known reason stands in', () => {
    assert.equal(standIn(cy), 'left');
    assert.equal(standIn(di), 'absent');
    assert.equal(standIn(bot), null);
    assert.equal(standIn(ann), null);
    assert.equal(standIn({ ...ann, stand_in: 'left' }), null, 'a person is never a stand-in');
    assert.equal(standIn({ ...cy, stand_in: 'bored' }), null);
    assert.equal(standIn(null), null);
  });

  test('their words', () => {
    assert.equal(standInWords(cy, t), '(left)');
    assert.equal(standInWords(di, t), '(away)');
    assert.equal(standInWords(bot, t), null);
  });
});

describe('away players', () => {
  test('seconds away: the frame\'s away_s plus the time since it arrived', () => {
    assert.equal(awaySeconds(bo, 1000, 1000), 372);
    assert.equal(awaySeconds(bo, 1000, 61_999), 432);
    assert.equal(awaySeconds(bo, 5000, 1000), 372, 'a clock going back counts nothing');
    assert.equal(awaySeconds(ann, 0, 10_000), null);
    assert.equal(awaySeconds({ ...cy, away_s: 5 }, 0, 0), null, 'bots are never away');
    assert.equal(awaySeconds({ ...bo, away_s: 1.5 }, 0, 0), null);
    assert.equal(awaySeconds(null, 0, 0), null);
  });

  test('"away 6 min", and just "away" under a minute', () => {
    assert.equal(awayWords(372, t), 'away 6 min');
    assert.equal(awayWords(60, t), 'away 1 min');
    assert.equal(awayWords(59, t), 'away');
    assert.equal(awayWords(null, t), null);
  });

  test('the threshold comes from welcome, else the server\'s default', () => {
    assert.equal(DEFAULT_ABSENT_AFTER_S, 300);
    assert.equal(absentThreshold(2), 2);
    assert.equal(absentThreshold(0), 0);
    assert.equal(absentThreshold(null), 300);
    assert.equal(absentThreshold(undefined), 300);
    assert.equal(absentThreshold('5'), 300);
  });

  test('"Let a bot play": another seated person, a person away at least the threshold, a running game', () => {
    const info = table();
    assert.equal(canReplace(info, bo, 0, 372, 300), true);
    assert.equal(canReplace(info, bo, 0, 300, 300), true);
    assert.equal(canReplace(info, bo, 0, 299, 300), false, 'not yet');
    assert.equal(canReplace(info, bo, 1, 372, 300), false, 'not one\'s own seat');
    assert.equal(canReplace(info, bo, null, 372, 300), false, 'spectators cannot');
    assert.equal(canReplace(info, ann, 1, null, 300), false, 'connected');
    assert.equal(canReplace(info, cy, 0, 999, 300), false, 'already a bot');
    assert.equal(canReplace(table('finished'), bo, 0, 372, 300), false);
    assert.equal(canReplace(table('waiting'), bo, 0, 372, 300), false);
    assert.equal(canReplace(info, { seat: 5, name: null, connected: false }, 0, 999, 300), false, 'an empty seat');
  });

  test('when the next person away reaches the threshold', () => {
    const info = table();
    assert.equal(msUntilThreshold(info, 10_000, 10_000, 400), 28_000, 'Bo, away 372 s, reaches 400 s in 28 s');
    assert.equal(msUntilThreshold(info, 10_000, 20_000, 400), 18_000);
    assert.equal(msUntilThreshold(info, 10_000, 10_000, 300), null, 'already there');
    const two = { ...info, seats: [...info.seats, { seat: 5, name: 'Ed', connected: false, away_s: 390 }] };
    assert.equal(msUntilThreshold(two, 0, 0, 400), 10_000, 'the earliest');
    assert.equal(msUntilThreshold(table('finished'), 0, 0, 400), null);
    assert.equal(msUntilThreshold(null, 0, 0, 400), null);
  });

  test('"Leave game": seated at a running game', () => {
    assert.equal(canLeaveRunning(table(), 0), true);
    assert.equal(canLeaveRunning(table(), null), false);
    assert.equal(canLeaveRunning(table('waiting'), 0), false);
    assert.equal(canLeaveRunning(table('finished'), 0), false);
    assert.equal(canLeaveRunning(null, 0), false);
  });
});

describe('the catalog has every stand-in string', () => {
  test('no missing keys', () => {
    for (const key of ['table.resign', 'table.resign.question', 'table.resign.confirm', 'table.resign.rated', 'table.resign.yes',
      'table.resign.no', 'table.resign.done', 'table.absent.body', 'table.reclaimed', 'table.away.replace', 'table.standIn.leftTitle', 'table.standIn.absentTitle']) {
      assert.doesNotMatch(t(key, { name: 'Ann', count: 2 }), /⟦/, key);
    }
    assert.equal(t('table.resign.yes'), 'Resign');
    assert.equal(t('table.resign.no'), 'Keep playing');
    assert.match(t('table.resign.confirm'), /A bot plays your seat to the end; you finish last/);
    assert.match(t('table.resign.rated'), /counts as a loss/);
    assert.equal(t('table.timeout.title'), 'A bot is playing for you.');
    assert.equal(t('table.reclaimed'), 'You are back: your seat is yours again.');
  });
});

describe('a seat a bot plays after three timeouts', () => {
  const out = { seat: 0, name: 'Ann', connected: true, bot: 'normal', stand_in: 'timeout' };
  const info = (state = 'playing') => ({ id: 't1', game: 'medici', players: 2, state, seats: [out, { seat: 1, name: 'Bo', connected: true }] });

  test('is a stand-in "(out of time)"', () => {
    assert.equal(standIn(out), 'timeout');
    assert.equal(standInWords(out, t), '(out of time)');
  });

  test('its player (and only they) may take it back while the game runs', () => {
    assert.equal(timedOutSeat(info(), 0), true);
    assert.equal(timedOutSeat(info(), 1), false);
    assert.equal(timedOutSeat(info(), null), false);
    assert.equal(timedOutSeat(info('finished'), 0), false);
  });
});

describe('a bot playing the viewer\'s own seat (issue 36)', () => {
  const seats = (why) => [{ seat: 0, name: 'Ann', connected: true, bot: 'normal', ...(why ? { stand_in: why } : {}) },
    { seat: 1, name: 'Bo', connected: true }];
  const info = (why, state = 'playing') => ({ id: 't1', game: 'medici', players: 2, state, seats: seats(why) });

  test('after three timeouts or while away, not after leaving, and only on one\'s own seat', () => {
    assert.equal(botPlaysMine(info('timeout'), 0), 'timeout');
    assert.equal(botPlaysMine(info('absent'), 0), 'absent');
    assert.equal(botPlaysMine(info('left'), 0), null, 'a seat left is the bot\'s');
    assert.equal(botPlaysMine(info(null), 0), null, 'a bot\'s own seat');
    assert.equal(botPlaysMine(info('timeout'), 1), null);
    assert.equal(botPlaysMine(info('timeout'), null), null, 'a spectator');
    assert.equal(botPlaysMine(info('timeout', 'finished'), 0), null);
    assert.equal(botPlaysMine(null, 0), null);
  });

  test('the game then offers the viewer no move and no undo', () => {
    const game = { view: { phase: 'draw' }, version: 7, legal: [{ type: 'draw' }], canUndo: true };
    assert.deepEqual(playableGame(game, 'timeout'), { view: game.view, version: 7, legal: [], canUndo: false });
    assert.equal(playableGame(game, null), game, 'unchanged otherwise');
    assert.equal(playableGame(null, 'absent'), null);
  });
});
