// js/models/table-model.js: the table's DOM-free decisions (event versions, the start button, the turn
// indicator and the "your turn" title) and js/ui/name-form.js's name check.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import {
  eventsDecision, seatedCount, seatNames, startState, isMyTurn, turnIndicator, titleKey, isTimeout, timeoutWords,
} from '../../web-client/js/models/table-model.js';
import { cleanName } from '../../web-client/js/ui/name-form.js';
import { toMove, isOver } from '../../web-client/games/medici/model.js';
import { gameModule, gameName, knownGames } from '../../web-client/games/registry.js';

const info = (state, names, creator = 0) => ({
  id: 't1', game: 'medici', players: names.length, state, private: true, spectators: 0, creator_seat: creator,
  seats: names.map((name, seat) => ({ seat, name, connected: name !== null })),
});
const view = (phase, toMoveList) => ({ phase, to_move: toMoveList });

describe('eventsDecision', () => {
  test('applies the next version, ignores old ones, resyncs on gaps', () => {
    assert.equal(eventsDecision(4, 5), 'apply');
    assert.equal(eventsDecision(4, 4), 'ignore');
    assert.equal(eventsDecision(4, 2), 'ignore');
    assert.equal(eventsDecision(4, 7), 'resync');
    assert.equal(eventsDecision(null, 1), 'resync');
    assert.equal(eventsDecision(undefined, 0), 'resync');
    assert.equal(eventsDecision(0, 1), 'apply');
  });
});

describe('seats and start', () => {
  test('counts and names', () => {
    const i = info('waiting', ['Ann', null, 'Cy']);
    assert.equal(seatedCount(i), 2);
    assert.deepEqual(seatNames(i), ['Ann', null, 'Cy']);
    assert.equal(seatedCount(null), 0);
    assert.deepEqual(seatNames(null), []);
  });

  test('only the creator sees start, enabled once enough players sit', () => {
    assert.deepEqual(startState(info('waiting', ['Ann', null, null]), 0, 2), { show: true, enabled: false, missing: 1 });
    assert.deepEqual(startState(info('waiting', ['Ann', 'Bo', null]), 0, 2), { show: true, enabled: true, missing: 0 });
    assert.equal(startState(info('waiting', ['Ann', 'Bo', null]), 1, 2).show, false, 'not the creator');
    assert.equal(startState(info('waiting', ['Ann', 'Bo', null]), null, 2).show, false, 'a spectator');
    assert.equal(startState(info('playing', ['Ann', 'Bo']), 0, 2).show, false, 'already started');
    assert.equal(startState(info('waiting', [null, 'Bo'], 1), 1, 2).missing, 1, 'the creator may sit anywhere');
  });
});

describe('turn indicator and title', () => {
  const names = ['Ann', 'Bo', 'Cy'];
  const playing = info('playing', names);

  test('your turn: a seat, a running game and legal actions', () => {
    const game = { view: view('draw', [1]), legal: [{ type: 'draw' }] };
    assert.equal(isMyTurn({ seat: 1, game, info: playing }), true);
    assert.equal(isMyTurn({ seat: null, game, info: playing }), false, 'spectators never');
    assert.equal(isMyTurn({ seat: 1, game: { ...game, legal: [] }, info: playing }), false);
    assert.equal(isMyTurn({ seat: 1, game, info: info('finished', names) }), false);
    assert.deepEqual(turnIndicator({ info: playing, game, seat: 1, names, toMove, isOver }), { kind: 'yours', key: 'table.turn.yours', params: {} });
    assert.equal(titleKey({ info: playing, game, seat: 1, isOver }), 'app.title.yourTurn');
  });

  test('someone else\'s turn names them; spectators see it too', () => {
    const game = { view: view('auction', [2]), legal: [] };
    for (const seat of [0, null]) {
      assert.deepEqual(turnIndicator({ info: playing, game, seat, names, toMove, isOver }),
        { kind: 'other', key: 'table.turn.other', params: { seat: 2, name: 'Cy' } });
      assert.equal(titleKey({ info: playing, game, seat, isOver }), 'app.title.table');
    }
  });

  test('before the start, after the end, without a game', () => {
    assert.equal(turnIndicator({ info: info('waiting', names), game: null, seat: 0, names }).kind, 'waiting');
    const over = { view: view('over', []), legal: [] };
    assert.equal(turnIndicator({ info: playing, game: over, seat: 0, names, toMove, isOver }).kind, 'over');
    assert.equal(turnIndicator({ info: info('finished', names), game: over, seat: 0, names, toMove, isOver }).kind, 'over');
    assert.equal(titleKey({ info: info('finished', names), game: over, seat: 0, isOver }), 'app.title.over');
    assert.equal(turnIndicator({ info: playing, game: null, seat: 0, names }).kind, 'none');
    assert.equal(turnIndicator({ info: null, game: null, seat: null, names: [] }).kind, 'none');
  });
});

describe('names and the registry', () => {
  test('cleanName trims like the server and refuses what it refuses', () => {
    assert.equal(cleanName('  Ann  '), 'Ann');
    assert.equal(cleanName('é'.repeat(32)), 'é'.repeat(32));
    assert.equal(cleanName('é'.repeat(33)), null);
    assert.equal(cleanName('   '), null);
    assert.equal(cleanName('a\tb'), null);
    assert.equal(cleanName('a\u0085b'), null);
    assert.equal(cleanName('😀 Ann'), '😀 Ann');
    assert.equal(cleanName(undefined), null);
  });

  test('every game module has the same shape', () => {
    assert.deepEqual(knownGames(), ['medici', 'merkator', 'medina', 'silkroad']);
    for (const id of knownGames()) {
      const m = gameModule(id);
      assert.equal(m.id, id);
      assert.equal(typeof m.nameKey, 'string');
      for (const f of ['applyEvents', 'describeEvent', 'toMove', 'isOver', 'statusText']) assert.equal(typeof m.model[f], 'function', f);
      assert.equal(typeof m.createBoard, 'function');
      assert.ok(m.strings[m.nameKey], `${id}: its English strings name it`);
      assert.ok(Number.isInteger(m.cardArt) && m.cardArt > 0, `${id}: its lobby card has a picture`);
    }
    assert.equal(gameModule('chess'), null);
  });

  test('a game\'s name: the client\'s words for a game it shows, else the server\'s, else the id', () => {
    const games = [{ id: 'medici', name: 'Medici (server)' }, { id: 'chess', name: 'Chess' }];
    assert.equal(gameName('medici', games), 'Medici');
    assert.equal(gameName('silkroad'), 'Maritime Silk Road');
    assert.equal(gameName('chess', games), 'Chess');
    assert.equal(gameName('go', games), 'go');
  });
});

describe('timeouts in the log', () => {
  test('a timeout event in words, for the others and for the player', async () => {
    const { t } = await import('../../web-client/js/core/i18n/index.js');
    assert.equal(isTimeout({ type: 'timeout', player: 1 }), true);
    assert.equal(isTimeout({ type: 'draw', player: 1 }), false);
    assert.equal(isTimeout({ type: 'timeout' }), false);
    assert.equal(timeoutWords({ type: 'timeout', player: 0 }, ['Ann', 'Bo'], 1, t), 'Ann ran out of time; a bot moved for them.');
    assert.equal(timeoutWords({ type: 'timeout', player: 1 }, ['Ann', 'Bo'], 1, t), 'You ran out of time; a bot moved for you.');
    assert.equal(timeoutWords({ type: 'timeout', player: 2 }, ['Ann', 'Bo'], null, t), 'Player 3 ran out of time; a bot moved for them.');
  });
});
