// js/models/bots.js: bot seats and their words, the seat controls a viewer gets in a waiting table, and
// "play against bots" (create a private table, a bot in every other seat, start) against a fake
// connection.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import {
  BOT_LEVELS, DEFAULT_BOT_LEVEL, BotSetupError, botLabel, botLevel, botLevels, emptySeats, levelWords, playAgainstBots,
  playerCounts, seatActions, seatName,
} from '../../web-client/js/models/bots.js';
import { t } from '../../web-client/js/core/i18n/index.js';
import { seatNames, seatedCount, startState } from '../../web-client/js/models/table-model.js';

// seats: a name (person), ['Bot 1', 'easy'] (a bot) or null (empty)
const info = (seats, { state = 'waiting', creator = 0 } = {}) => ({
  id: 't1', game: 'medici', players: seats.length, state, private: true, spectators: 0, creator_seat: creator,
  seats: seats.map((x, seat) => (Array.isArray(x)
    ? { seat, name: x[0], connected: true, bot: x[1] }
    : { seat, name: x, connected: x !== null })),
});

describe('bot seats and their words', () => {
  test('the level of a seat: only a bot seat has one', () => {
    const i = info(['Ann', ['Bot 1', 'normal'], null, ['Bot 2', 'easy']]);
    assert.deepEqual(botLevels(i), [null, 'normal', null, 'easy']);
    assert.equal(botLevel(null), null);
    assert.equal(botLevel({ seat: 0, name: 'Ann', connected: true, bot: '' }), null);
    assert.deepEqual(botLevels(null), []);
  });

  test('the label says bot and level, in the catalog\'s words', () => {
    assert.deepEqual(BOT_LEVELS, ['easy', 'normal']);
    assert.equal(DEFAULT_BOT_LEVEL, 'normal');
    assert.equal(botLabel('normal', t), 'Bot · Normal');
    assert.equal(botLabel('easy', t), 'Bot · Easy');
    assert.equal(levelWords('hard', t), 'hard', 'a level this client does not know is shown as the server names it');
    for (const level of BOT_LEVELS) assert.doesNotMatch(botLabel(level, t), /⟦/);
  });

  test('bots count as seated: a table of one person and bots can start', () => {
    const i = info(['Ann', ['Bot 1', 'normal'], ['Bot 2', 'easy']]);
    assert.equal(seatedCount(i), 3);
    assert.deepEqual(startState(i, 0, 2), { show: true, enabled: true, missing: 0 });
    assert.deepEqual(emptySeats(info(['Ann', null, ['Bot 1', 'easy'], null])), [1, 3]);
  });
});

describe('seatActions: the controls on a seat', () => {
  const table = info(['Ann', null, ['Bot 1', 'normal'], 'Bo']);
  const actions = (me, t0 = table) => t0.seats.map((seat) => seatActions(t0, seat, me));

  test('the creator adds bots to empty seats and removes bots', () => {
    assert.deepEqual(actions(0), [[], ['add-bot'], ['remove-bot'], []]);
  });

  test('another seated player gets nothing; a visitor may take an empty seat', () => {
    assert.deepEqual(actions(3), [[], [], [], []]);
    assert.deepEqual(actions(null), [[], ['take'], [], []]);
    assert.deepEqual(actions(undefined), [[], ['take'], [], []]);
  });

  test('the creator may sit anywhere', () => {
    const t1 = info([null, 'Ann', ['Bot 1', 'easy']], { creator: 1 });
    assert.deepEqual(actions(1, t1), [['add-bot'], [], ['remove-bot']]);
    assert.deepEqual(actions(0, t1), [[], [], []], 'seat 0 is empty, not the creator');
  });

  test('nothing once the game has started', () => {
    for (const state of ['playing', 'finished']) {
      const t1 = info(['Ann', ['Bot 1', 'normal'], null], { state });
      assert.deepEqual(actions(0, t1), [[], [], []], state);
      assert.deepEqual(actions(null, t1), [[], [], []], state);
    }
    assert.deepEqual(seatActions(null, { seat: 0, name: null }, 0), []);
  });
});

describe('playerCounts', () => {
  test('min to max players', () => {
    assert.deepEqual(playerCounts({ id: 'medici', min_players: 2, max_players: 6 }), [2, 3, 4, 5, 6]);
    assert.deepEqual(playerCounts({ id: 'x', min_players: 3, max_players: 3 }), [3]);
    assert.deepEqual(playerCounts(null), []);
  });
});

describe('playAgainstBots', () => {
  /** A fake server: answers each request with `answer(message)` (a reply, or an Error to throw). */
  function fake(answer) {
    const sent = [];
    const request = async (message) => {
      sent.push(message);
      const reply = answer(message);
      if (reply instanceof Error) throw reply;
      return reply;
    };
    return { sent, request };
  }
  const seated = (players, seat = 0) => ({
    type: 'seated', seat, token: 'tok', invite: 'inv',
    table: info(Array.from({ length: players }, (_, i) => (i === seat ? 'Ann' : null))),
  });
  const refusal = (code) => Object.assign(new Error(`refused: ${code}`), { code });

  test('creates a private table, adds a bot to every other seat, starts; tells each step', async () => {
    const { sent, request } = fake((m) => (m.type === 'create_table' ? seated(3) : { type: 'ack', version: 0 }));
    const progress = [];
    let created = null;
    const reply = await playAgainstBots({
      request, game: 'medici', players: 3, level: 'easy', onProgress: (p) => progress.push(p), onCreated: (r) => { created = r; },
    });
    assert.equal(reply.table.id, 't1');
    assert.equal(created, reply, 'the seat is handed over as soon as the table exists');
    assert.deepEqual(sent, [
      { type: 'create_table', game: 'medici', players: 3, options: {}, private: true },
      { type: 'add_bot', table: 't1', seat: 1, level: 'easy' },
      { type: 'add_bot', table: 't1', seat: 2, level: 'easy' },
      { type: 'start', table: 't1' },
    ]);
    assert.deepEqual(progress, [{ step: 'create' }, { step: 'bot', n: 1, of: 2 }, { step: 'bot', n: 2, of: 2 }, { step: 'start' }]);
  });

  test('the default level is normal, and the creator\'s own seat is skipped wherever it is', async () => {
    const { sent, request } = fake((m) => (m.type === 'create_table' ? seated(4, 2) : { type: 'ack', version: 0 }));
    await playAgainstBots({ request, game: 'medina', players: 4 });
    assert.deepEqual(sent.filter((m) => m.type === 'add_bot').map((m) => [m.seat, m.level]), [[0, 'normal'], [1, 'normal'], [3, 'normal']]);
  });

  test('a failed step stops there and says which step and which table', async () => {
    for (const [failing, step, table, sentCount] of [['create_table', 'create', null, 1], ['add_bot', 'bot', 't1', 2], ['start', 'start', 't1', 4]]) {
      const { sent, request } = fake((m) => {
        if (m.type === failing) return refusal('not_creator');
        return m.type === 'create_table' ? seated(3) : { type: 'ack', version: 0 };
      });
      await assert.rejects(playAgainstBots({ request, game: 'medici', players: 3 }), (err) => {
        assert.ok(err instanceof BotSetupError);
        assert.equal(err.step, step);
        assert.equal(err.table, table);
        assert.equal(err.code, 'not_creator');
        assert.equal(err.cause.code, 'not_creator');
        return true;
      });
      assert.equal(sent.length, sentCount, `nothing is sent after the failed ${failing}`);
    }
  });
});

describe('a bot\'s name in the language\'s words (issue 36)', () => {
  const ja = (key, p) => (key === 'bot.name' ? `ボット${p.n}` : t(key, p));
  test('a bot\'s own seat "Bot N" is translated; a stand-in, a person and an empty seat keep their names', () => {
    assert.equal(seatName({ seat: 1, name: 'Bot 1', bot: 'normal' }, t), 'Bot 1');
    assert.equal(seatName({ seat: 1, name: 'Bot 2', bot: 'easy' }, ja), 'ボット2');
    assert.equal(seatName({ seat: 1, name: 'Bot 1', bot: 'normal', stand_in: 'left' }, ja), 'Bot 1', 'a person called Bot 1 who left');
    assert.equal(seatName({ seat: 1, name: 'Ann', bot: 'normal', stand_in: 'absent' }, ja), 'Ann');
    assert.equal(seatName({ seat: 1, name: 'Bot 1' }, ja), 'Bot 1', 'a person who chose the name');
    assert.equal(seatName({ seat: 1, name: 'Bot 1x', bot: 'normal' }, ja), 'Bot 1x');
    assert.equal(seatName({ seat: 1, name: null }, ja), null);
    assert.equal(seatName({ seat: 1, name: 'Bot 1', bot: 'normal' }), 'Bot 1', 'without t: as the server says');
  });
  test('the names by seat the table and the replay use', () => {
    const i = info(['Ann', ['Bot 1', 'normal'], null], { state: 'playing' });
    assert.deepEqual(seatNames(i, ja), ['Ann', 'ボット1', null]);
    assert.deepEqual(seatNames(i), ['Ann', 'Bot 1', null]);
  });
  test('every language has the name, with its number', async () => {
    for (const lang of ['ja', 'zh-Hant', 'zh-Hans']) {
      const { default: strings } = await import(`../../web-client/js/core/i18n/${lang}.js`);
      assert.match(strings['bot.name'], /\{n\}/, lang);
    }
  });
});
