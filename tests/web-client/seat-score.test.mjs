// Each seat's score in the table's players panel (games' model.seatScore), against the engine's own games
// (fixture.mjs): Medici's florins and Medina's points are the engine's final ones at the end, for every viewer;
// Merkator's points now are its contracts and buildings as its board shows them; Silk Road, whose coins are secret,
// has none.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import '../../web-client/games/registry.js'; // the games' strings join t()'s catalog
import { t } from '../../web-client/js/core/i18n/index.js';
import * as medici from '../../web-client/games/medici/model.js';
import * as medina from '../../web-client/games/medina/model.js';
import * as merkator from '../../web-client/games/merkator/model.js';
import * as silkroad from '../../web-client/games/silkroad/model.js';
import { engineGame, root } from './fixture.mjs';

/** The final view of each viewer of an engine game (the players', then the spectator's). */
const finalViews = (game, players, seed) => engineGame(game, players, seed).viewers.map((v) => v.steps[v.steps.length - 1].view);
const number = (words) => Number(/^(\d+)/.exec(words)[1]);

describe('seatScore', () => {
  test('Medici: each seat\'s florins, the engine\'s at the end, in every viewer\'s view', () => {
    for (const seed of [1, 42]) {
      for (const view of finalViews('medici', 3, seed)) {
        for (const r of view.result.ranking) {
          assert.equal(number(medici.seatScore(view, r.player, t)), r.money, `seed ${seed}, seat ${r.player}`);
        }
        assert.match(medici.seatScore(view, 0, t), /^\d+ florins?$/);
      }
    }
    assert.equal(medici.seatScore({ seats: [] }, 0, t), null);
  });

  test('Medina: each seat\'s points now, the engine\'s at the end, in every viewer\'s view', () => {
    for (const players of [2, 3, 4]) {
      for (const view of finalViews('medina', players, 7)) {
        for (const r of view.result.ranking) {
          assert.equal(number(medina.seatScore(view, r.player, t)), r.points, `${players} players, seat ${r.player}`);
        }
        assert.match(medina.seatScore(view, 0, t), /^\d+ points?$/);
      }
    }
  });

  test('Merkator: contracts and buildings now, once the data file is in', () => {
    merkator.setCatalog(null);
    const [view] = finalViews('merkator', 3, 42);
    assert.equal(merkator.seatScore(view, 0, t), null, 'no data file yet: no score');
    const c = merkator.setCatalog(JSON.parse(readFileSync(path.join(root, 'engine/games/merkator/merkator-data.json'), 'utf8')));
    for (const p of [0, 1, 2]) {
      const seat = view.seats[p];
      const want = merkator.contractPoints(c, seat.contracts) + seat.buildings.reduce((n, b) => n + merkator.buildingPoints(c, view, b, p), 0);
      assert.equal(merkator.seatScore(view, p, t), t('merkator.points', { count: want }));
    }
  });

  test('Maritime Silk Road: no score (its coins are secret)', () => {
    assert.equal(silkroad.seatScore, undefined);
  });
});
