// js/models/my-games-model.js: the my_games request from the kept tokens, the tokens to forget, and the
// rows of "My games" (your turn first, the result from the viewer's side, in words), and the games in progress
// (waiting for you first, by the time left on their clock; who is to move and the time left, in words).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import {
  MAX_TOKENS, againstBotsOnly, forsakenWords, gameRows, inProgress, leftWords, moverWords, resultFor, resultWords, rowClockWords,
  rowNames, tablesToForget, tokensToAsk,
} from '../../web-client/js/models/my-games-model.js';
import { t } from '../../web-client/js/core/i18n/index.js';

const seats = [
  { table: 'old', token: 'tok-old', savedAt: 1 },
  { table: 'new', token: 'tok-new', savedAt: 3 },
  { table: 'mid', token: 'tok-mid', savedAt: 2 },
];

const players = [{ seat: 0, name: 'Ann' }, { seat: 1, name: 'Bo' }, { seat: 2, name: 'Bot 1', bot: 'normal' }];
const game = (over) => ({
  token: 'x', table: 't', game: 'medici', state: 'playing', seat: 1, seats: players, your_turn: false, result: null, updated: 100, ...over,
});

describe('the request', () => {
  test('the kept tokens, newest first, at most 50', () => {
    assert.deepEqual(tokensToAsk(seats), ['tok-new', 'tok-mid', 'tok-old']);
    const many = Array.from({ length: 70 }, (_, i) => ({ table: `t${i}`, token: `k${i}`, savedAt: i }));
    const asked = tokensToAsk(many);
    assert.equal(asked.length, MAX_TOKENS);
    assert.equal(asked[0], 'k69');
    assert.deepEqual(tokensToAsk([{ table: 'a', token: 'x'.repeat(101) }, { table: 'b', token: '' }, { table: 'c' }]), []);
  });

  test('the tables whose tokens the server does not know are forgotten', () => {
    assert.deepEqual(tablesToForget({ games: [], unknown: ['tok-mid', 'tok-else'] }, seats), ['mid']);
    assert.deepEqual(tablesToForget({ games: [] }, seats), []);
    assert.deepEqual(tablesToForget(null, seats), []);
  });
});

describe('the rows', () => {
  test('your turn first, then running, waiting and finished games, newest first', () => {
    const rows = gameRows({
      games: [
        game({ table: 'f1', state: 'finished', updated: 500, result: { ranking: [{ player: 1, rank: 1 }, { player: 0, rank: 2 }], winners: [1] } }),
        game({ table: 'p1', updated: 50 }),
        game({ table: 'w1', state: 'waiting', updated: 900 }),
        game({ table: 'p2', updated: 60 }),
        game({ table: 'y1', updated: 10, your_turn: true }),
        game({ table: 'wy', state: 'waiting', your_turn: true }),
      ],
    });
    assert.deepEqual(rows.map((r) => r.table), ['y1', 'p2', 'p1', 'w1', 'wy', 'f1']);
    assert.equal(rows[0].yourTurn, true);
    assert.equal(rows.find((r) => r.table === 'wy').yourTurn, false, 'only a running game can be your turn');
  });

  test('the players, with the viewer and the bots marked', () => {
    const [row] = gameRows({ games: [game({ invite: 'inv' })] });
    assert.deepEqual(row.players, [
      { seat: 0, name: 'Ann', bot: null, you: false },
      { seat: 1, name: 'Bo', bot: null, you: true },
      { seat: 2, name: 'Bot 1', bot: 'normal', you: false },
    ]);
    assert.deepEqual(row.names, ['Ann', 'Bo', 'Bot 1']);
    assert.equal(row.invite, 'inv');
    assert.equal(row.result, null);
  });

  test('nothing to show from a bad reply', () => {
    assert.deepEqual(gameRows(null), []);
    assert.deepEqual(gameRows({ games: [null, { table: 5 }] }), []);
  });
});

describe('the result', () => {
  const names = ['Ann', 'Bo', 'Bot 1'];
  const ranking = (...ranks) => ranks.map((rank, player) => ({ player, rank, money: 10 }));

  test('from the viewer\'s side', () => {
    assert.deepEqual(resultFor({ ranking: ranking(1, 2, 3), winners: [0] }, 1), { winners: [0], rank: 2, of: 3, won: false, shared: false });
    assert.deepEqual(resultFor({ ranking: ranking(1, 1, 3), winners: [0, 1] }, 1), { winners: [0, 1], rank: 1, of: 3, won: true, shared: true });
    assert.deepEqual(resultFor({ ranking: ranking(2, 1, 3) }, 1).winners, [1], 'winners from the ranking when missing');
    assert.equal(resultFor(null, 0), null);
  });

  test('in words: who won and your rank', () => {
    const words = (result, seat) => resultWords({ ...resultFor(result, seat), self: seat }, names, t);
    assert.equal(words({ ranking: ranking(1, 2, 3), winners: [0] }, 0), 'You won');
    assert.equal(words({ ranking: ranking(1, 2, 3), winners: [0] }, 1), 'Ann won · your rank: 2 of 3');
    assert.equal(words({ ranking: ranking(1, 1, 3), winners: [0, 1] }, 1), 'You won, shared with Ann');
    assert.equal(words({ ranking: ranking(1, 1, 3), winners: [0, 1] }, 2), 'Ann and Bo shared the win · your rank: 3 of 3');
    assert.equal(resultWords(null, names, t), '');
  });

  test('a finished row carries its result', () => {
    const [row] = gameRows({ games: [game({ state: 'finished', result: { ranking: ranking(2, 1, 3), winners: [1] } })] });
    assert.equal(resultWords(row.result, row.names, t), 'You won');
  });
});

describe('games in progress', () => {
  const clock = (seat, ms) => ({ seat, left_ms: ms });

  test('running games only: yours by the time left (no clock last, then the oldest), the others likewise', () => {
    const { waiting, others } = inProgress([
      game({ table: 'y-none-new', your_turn: true, to_move: [1], updated: 300 }),
      game({ table: 'y-slow', your_turn: true, to_move: [1], clock: clock(1, 90000000), updated: 100 }),
      game({ table: 'y-fast', your_turn: true, to_move: [1], clock: clock(1, 5000), updated: 500 }),
      game({ table: 'y-none-old', your_turn: true, to_move: [1], updated: 200 }),
      game({ table: 'o-none', to_move: [0], updated: 10 }),
      game({ table: 'o-fast', to_move: [0], clock: clock(0, 60000) }),
      game({ table: 'o-slow', to_move: [0], clock: clock(0, 120000) }),
      game({ table: 'waiting', state: 'waiting', your_turn: true }),
      game({ table: 'finished', state: 'finished', result: { ranking: [], winners: [] } }),
      null,
    ]);
    assert.deepEqual(waiting.map((r) => r.table), ['y-fast', 'y-slow', 'y-none-old', 'y-none-new']);
    assert.deepEqual(others.map((r) => r.table), ['o-fast', 'o-slow', 'o-none']);
    assert.equal(waiting[0].leftMs, 5000);
    assert.equal(others[2].leftMs, null);
  });

  test('a clock paused for a vacation sorts with the untimed and says so', () => {
    const { waiting } = inProgress([
      game({ table: 'paused', your_turn: true, to_move: [1], clock: { seat: 1, left_ms: 1000, paused: true }, updated: 1 }),
      game({ table: 'running', your_turn: true, to_move: [1], clock: clock(1, 90000000), updated: 2 }),
    ]);
    assert.deepEqual(waiting.map((r) => r.table), ['running', 'paused']);
    assert.equal(waiting[1].paused, true);
    assert.equal(rowClockWords(waiting[1], t), t('inProgress.paused'));
    assert.equal(rowClockWords(waiting[0], t), leftWords(90000000, t));
  });

  test('each row has the other players and who is to move', () => {
    const { others: [row] } = inProgress([game({ to_move: [0, 2] })]);
    assert.deepEqual(row.others, [{ seat: 0, name: 'Ann', bot: null }, { seat: 2, name: 'Bot 1', bot: 'normal' }]);
    assert.deepEqual(row.movers, [{ seat: 0, name: 'Ann', bot: null, you: false }, { seat: 2, name: 'Bot 1', bot: 'normal', you: false }]);
    assert.equal(moverWords(row, t), 'Ann and Bot 1 to move');
  });

  test('who is to move in words', () => {
    const words = (over) => {
      const { waiting, others } = inProgress([game(over)]);
      return moverWords([...waiting, ...others][0], t);
    };
    assert.equal(words({ your_turn: true, to_move: [1] }), 'Your turn');
    assert.equal(words({ to_move: [0] }), 'Ann to move');
    assert.equal(words({ seats: [{ seat: 0, name: null }, ...players.slice(1)], to_move: [0] }), 'Player 1 to move');
    assert.equal(words({ to_move: [] }), '', 'not known: nothing said');
    assert.equal(words({}), '', 'an older server sends no to_move');
  });

  test('the time left, coarsely', () => {
    assert.equal(leftWords(null, t), '');
    assert.equal(leftWords(0, t), '0 s left');
    assert.equal(leftWords(4200, t), '5 s left');
    assert.equal(leftWords(119000, t), '119 s left');
    assert.equal(leftWords(45 * 60000 + 59000, t), '45 min left');
    assert.equal(leftWords(90 * 60000, t), '90 min left');
    assert.equal(leftWords(23 * 3600000 + 59 * 60000, t), '23 h left');
    assert.equal(leftWords(27 * 3600000, t), '1 d 3 h left');
    assert.equal(leftWords(-5, t), '0 s left');
  });
});

describe('games against bots only, and bots\' names (issue 36)', () => {
  const entry = (seats, over = {}) => ({ token: 'k', table: 't1', game: 'medici', state: 'playing', seat: 0, seats,
    your_turn: true, result: null, updated: 1, to_move: [0], clock: null, ...over });
  const alone = entry([{ seat: 0, name: 'Ann' }, { seat: 1, name: 'Bot 1', bot: 'normal' }, { seat: 2, name: 'Bot 2', bot: 'easy' }]);
  const withBo = entry([{ seat: 0, name: 'Ann' }, { seat: 1, name: 'Bo' }, { seat: 2, name: 'Bot 1', bot: 'normal' }]);

  test('a running game against bots only says the bots finish it after the time away', () => {
    const [row] = gameRows({ games: [alone] });
    assert.equal(againstBotsOnly(row), true);
    assert.equal(forsakenWords(row, 259200, t), 'Against bots: a casual game ends by itself: the bots finish it if you stay away 3 days.');
    assert.equal(againstBotsOnly(inProgress([alone]).waiting[0]), true, 'also a row in progress');
    assert.equal(forsakenWords(gameRows({ games: [withBo] })[0], 259200, t), '', 'another person at the table');
    assert.equal(forsakenWords(gameRows({ games: [{ ...alone, state: 'finished' }] })[0], 259200, t), '', 'finished');
    assert.equal(forsakenWords(row, null, t), '', 'a server that never does it');
    assert.equal(forsakenWords(gameRows({ games: [{ ...alone, rated: true }] })[0], 259200, t), '', 'a rated game: never ended for its person');
  });

  test('a bot\'s own name in the language\'s words, in the result and in who is to move', () => {
    const ja = (key, p) => (key === 'bot.name' ? `ボット${p.n}` : t(key, p));
    const [row] = gameRows({ games: [alone] });
    assert.deepEqual(rowNames(row, ja), ['Ann', 'ボット1', 'ボット2']);
    const moving = inProgress([{ ...alone, your_turn: false, to_move: [2] }]).others[0];
    assert.equal(moverWords(moving, ja), t('inProgress.toMove', { names: 'ボット2' }));
  });
});
