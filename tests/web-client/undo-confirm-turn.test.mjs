// js/models/confirm-turn.js (issue 37): "Confirm my turn" — the steps kept in the browser, their previews, what
// the board draws, Undo taking a kept step off, Confirm's sending and the end of it; and the store remembering the
// option per game.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import * as kept from '../../web-client/js/models/confirm-turn.js';
import { MemoryStorage, Store } from '../../web-client/js/core/store.js';

const real = { view: { game: 'silkroad', version: 17, phase: 'play', at: 'real' }, version: 17, legal: [{ type: 'exchange', ship: 0, good: 'tea' }], canUndo: false };
const exchange = { type: 'exchange', ship: 0, good: 'tea' };
const endPhase = { type: 'end_phase' };
const draw = { type: 'draw' };
const exchanged = { type: 'exchange', player: 0, ship: 0, from: 'silk', good: 'tea' };
const ended = { type: 'end_phase', player: 0 };
// The server's answers to a preview of the steps so far.
const previewOf = (events, at, legal = [draw, { type: 'undo' }]) => ({
  type: 'preview', re: 9, table: 't1', version: 17, final: false, events, view: { game: 'silkroad', version: 18, at }, legal,
});
const finalOf = (events) => ({ type: 'preview', re: 9, table: 't1', version: 17, final: true, events });

describe('which tables offer it', () => {
  test('the games with turns of several steps, from a server that knows undo', () => {
    for (const game of ['medina', 'silkroad', 'merkator']) assert.equal(kept.offersConfirm({ game, undo: true }), true, game);
    assert.equal(kept.offersConfirm({ game: 'medina', undo: false }), true, 'preview works whether or not the table allows undo');
    assert.equal(kept.offersConfirm({ game: 'medici', undo: true }), false, 'a Medici bid is a step of its own');
    assert.equal(kept.offersConfirm({ game: 'medina' }), false, 'a server without undo has no preview');
    assert.equal(kept.offersConfirm(null), false);
  });
});

describe('keeping steps', () => {
  test('the first step keeps the version it starts from, and asks for its preview', () => {
    const one = kept.keep(kept.noSteps(), exchange, 17, 'Tea on ship 1');
    assert.equal(one.base, 17);
    assert.deepEqual(one.steps, [{ action: exchange, label: 'Tea on ship 1' }]);
    assert.equal(kept.isPending(one), true);
    assert.deepEqual(kept.previewRequest(one, 't1'), { type: 'preview', table: 't1', version: 17, actions: [exchange] });
    assert.equal(kept.mayKeep(one), false, 'one preview at a time');
    assert.equal(kept.keep(one, endPhase, 17), one);
    assert.equal(kept.mayConfirm(one), false, 'not before its preview answers');
  });

  test('the board draws the preview\'s view (at the real version) and legal list, without the undo entry', () => {
    const one = kept.previewed(kept.keep(kept.noSteps(), exchange, 17), previewOf([exchanged], 'after exchange'));
    assert.equal(kept.isPending(one), false);
    const shown = kept.shownGame(one, real);
    assert.equal(shown.view.at, 'after exchange');
    assert.equal(shown.view.version, 17, 'the version does not move in a preview');
    assert.deepEqual(shown.legal, [draw]);
    assert.equal(shown.preview, true);
    assert.equal(shown.canUndo, false, 'the server\'s undo is not offered over kept steps');
    assert.equal(kept.shownGame(kept.noSteps(), real), real, 'without kept steps: the real game');
    assert.equal(kept.shownGame(one, null), null);
    // A step waiting for its preview: the previous view, no controls.
    const pending = kept.keep(one, endPhase, 17);
    assert.equal(pending.base, 17);
    assert.equal(kept.shownGame(pending, real).view.at, 'after exchange');
    assert.deepEqual(kept.shownGame(pending, real).legal, []);
    assert.deepEqual(kept.previewRequest(pending, 't1').actions, [exchange, endPhase]);
  });

  test('a step that could not be taken back ends the keeping: the turn is ready to confirm', () => {
    let k = kept.previewed(kept.keep(kept.noSteps(), exchange, 17), previewOf([exchanged], 'after exchange'));
    k = kept.previewed(kept.keep(k, draw, 17, 'Draw a card'), finalOf([exchanged]));
    assert.equal(k.final, true);
    assert.equal(kept.mayKeep(k), false);
    assert.equal(kept.mayConfirm(k), true);
    assert.equal(kept.shownGame(k, real).view.at, 'after exchange', 'what the draw shows is not shown before it is made');
    assert.deepEqual(kept.shownGame(k, real).legal, []);
    // A turn of one final step: the real view, no controls.
    const alone = kept.previewed(kept.keep(kept.noSteps(), draw, 17), finalOf([]));
    assert.equal(kept.shownGame(alone, real).view, real.view);
    assert.deepEqual(kept.shownGame(alone, real).legal, []);
  });

  test('no more than the server previews at once', () => {
    let k = kept.noSteps();
    for (let i = 0; i < kept.MAX_KEPT; i++) k = kept.previewed(kept.keep(k, exchange, 17), previewOf([], `step ${i}`));
    assert.equal(k.steps.length, kept.MAX_KEPT);
    assert.equal(kept.mayKeep(k), false);
    assert.deepEqual(kept.shownGame(k, real).legal, [], 'the board offers no ninth step');
    assert.equal(kept.mayConfirm(k), true);
  });
});

describe('the steps in words', () => {
  test('each step by the events it added to the preview; a final step by the control pressed', () => {
    let k = kept.previewed(kept.keep(kept.noSteps(), exchange, 17, 'Tea'), previewOf([exchanged], 'a'));
    k = kept.previewed(kept.keep(k, endPhase, 17, 'End the phase'), previewOf([exchanged, ended], 'b'));
    k = kept.previewed(kept.keep(k, draw, 17, 'Draw a card'), finalOf([exchanged, ended]));
    const tell = (e) => `<${e.type}>`;
    assert.deepEqual(kept.stepWords(k, tell), ['<exchange>', '<end_phase>', 'Draw a card']);
  });

  test('a step whose preview added nothing to say is told by its control, or not at all', () => {
    const k = kept.previewed(kept.keep(kept.noSteps(), exchange, 17, 'Tea'), previewOf([{ type: 'quiet' }], 'a'));
    assert.deepEqual(kept.stepWords(k, () => null), ['Tea']);
    const unnamed = kept.previewed(kept.keep(kept.noSteps(), exchange, 17), previewOf([], 'a'));
    assert.deepEqual(kept.stepWords(unnamed, () => 'x'), [null]);
  });
});

describe('Undo over kept steps', () => {
  test('takes the last kept step off here, back to the preview before it, and at last to the real game', () => {
    let k = kept.previewed(kept.keep(kept.noSteps(), exchange, 17), previewOf([exchanged], 'a'));
    k = kept.previewed(kept.keep(k, endPhase, 17), previewOf([exchanged, ended], 'b'));
    k = kept.previewed(kept.keep(k, draw, 17), finalOf([exchanged, ended]));
    k = kept.dropLast(k);
    assert.equal(k.final, false, 'the turn is open again');
    assert.equal(kept.shownGame(k, real).view.at, 'b');
    assert.deepEqual(kept.shownGame(k, real).legal, [draw], 'the step may be made again');
    k = kept.dropLast(k);
    assert.equal(kept.shownGame(k, real).view.at, 'a');
    k = kept.dropLast(k);
    assert.deepEqual(k, kept.noSteps());
    assert.equal(kept.shownGame(k, real), real);
    assert.deepEqual(kept.dropLast(kept.noSteps()), kept.noSteps());
  });

  test('a step still waiting for its preview can be taken off (its answer then fits nothing)', () => {
    const one = kept.previewed(kept.keep(kept.noSteps(), exchange, 17), previewOf([exchanged], 'a'));
    const waiting = kept.keep(one, endPhase, 17);
    const off = kept.dropLast(waiting);
    assert.equal(off.steps.length, 1);
    assert.equal(kept.isPending(off), false);
    assert.equal(kept.previewed(off, previewOf([exchanged, ended], 'b')), off, 'a late answer changes nothing');
  });
});

describe('Confirm', () => {
  const ready = () => {
    let k = kept.previewed(kept.keep(kept.noSteps(), exchange, 17), previewOf([exchanged], 'a'));
    return kept.previewed(kept.keep(k, draw, 17), finalOf([exchanged]));
  };

  test('sends the kept steps; meanwhile nothing is kept, taken off or sent again', () => {
    const k = kept.sending(ready());
    assert.equal(k.sending, true);
    assert.equal(kept.mayConfirm(k), false);
    assert.equal(kept.mayKeep(k), false);
    assert.equal(kept.dropLast(k), k, 'Undo waits');
    assert.deepEqual(kept.shownGame(k, real).legal, []);
    // Their events come in while it sends: they are Confirm's own, nothing is dropped.
    assert.deepEqual(kept.settle(k, 18), { kept: k, dropped: false });
  });

  test('once the acts are in, the preview stays until the game shows the last one', () => {
    const done = kept.sent(kept.sending(ready()), 19);
    assert.equal(done.awaiting, 19);
    assert.equal(kept.settle(done, 18).kept, done);
    assert.deepEqual(kept.settle(done, 19), { kept: kept.noSteps(), dropped: false });
    assert.deepEqual(kept.settle(done, 20).kept, kept.noSteps());
  });

  test('kept steps are dropped, and the player told, when the table moves on without them', () => {
    assert.deepEqual(kept.settle(ready(), 18), { kept: kept.noSteps(), dropped: true });
    assert.deepEqual(kept.settle(ready(), 17), { kept: ready(), dropped: false }, 'a snapshot at the same version keeps them');
    assert.deepEqual(kept.settle(kept.noSteps(), 30), { kept: kept.noSteps(), dropped: false });
  });
});

describe('the store remembers the option per game', () => {
  test('on for one game is not on for another, and survives a new store on the same storage', () => {
    const local = new MemoryStorage();
    const store = new Store(local, new MemoryStorage());
    assert.equal(store.confirmTurn('medina'), false);
    store.setConfirmTurn('medina', true);
    assert.equal(store.confirmTurn('medina'), true);
    assert.equal(store.confirmTurn('silkroad'), false);
    assert.equal(new Store(local, new MemoryStorage()).confirmTurn('medina'), true);
    store.setConfirmTurn('medina', false);
    assert.equal(store.confirmTurn('medina'), false);
    local.setItem('emporium.confirmTurn', 'not json');
    assert.equal(store.confirmTurn('medina'), false);
  });
});
