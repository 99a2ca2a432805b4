// js/models/undo-rules.js (issue 37): the legal list's undo entry kept from the boards, the undo event in the log's
// words, which log lines and replay steps an undo took back, the create form's default, and Ctrl+Z / Cmd+Z.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import '../../web-client/games/registry.js'; // the games' strings join the catalog
import { t } from '../../web-client/js/core/i18n/index.js';
import medina from '../../web-client/games/medina/board.js';
import {
  splitLegal, boardLegal, isUndoAction, isUndoEvent, undoWords, tellWithUndo, undoneVersion, markUndone, replayUndos,
  isUndoStep, undoDefault, isMac, isUndoKey, undoShortcut,
} from '../../web-client/js/models/undo-rules.js';
import { timeoutWords } from '../../web-client/js/models/table-model.js';

const wall = { type: 'place', player: 1, piece: 'wall', x: 5, y: -1, tower: 1 };
const resident = { type: 'place', player: 1, piece: 'resident', x: 3, y: 4 };
const place = (x) => ({ type: 'place', piece: 'wall', x, y: -1 });
const names = ['Ann', 'Bo', 'Cy'];

describe('the legal list', () => {
  test('the undo entry is taken out for the boards, and says that undo is allowed', () => {
    const legal = [place(1), place(2), { type: 'undo' }];
    assert.deepEqual(splitLegal(legal), { actions: [place(1), place(2)], canUndo: true });
    assert.deepEqual(boardLegal(legal), [place(1), place(2)]);
    assert.deepEqual(splitLegal([place(1)]), { actions: [place(1)], canUndo: false });
    assert.deepEqual(splitLegal([]), { actions: [], canUndo: false });
    assert.deepEqual(splitLegal(undefined), { actions: [], canUndo: false });
    assert.deepEqual(splitLegal([{ type: 'undo' }]), { actions: [], canUndo: true });
  });

  test('what is an undo', () => {
    assert.equal(isUndoAction({ type: 'undo' }), true);
    assert.equal(isUndoAction(place(1)), false);
    assert.equal(isUndoAction(null), false);
    assert.equal(isUndoEvent({ type: 'undo', player: 0, undone: [] }), true);
    assert.equal(isUndoEvent({ type: 'undo' }), false, 'an undo names its player');
    assert.equal(isUndoEvent(wall), false);
  });
});

describe('the log', () => {
  const tell = (viewer) => (e) => medina.model.describeEvent(e, names, t, viewer);

  test('"<name> took back: <what the step said>", in the game\'s own sentences', () => {
    const undo = { type: 'undo', player: 1, undone: [wall] };
    const said = tell(null)(wall);
    assert.match(said, /^Bo builds a wall of tower 1 on /);
    assert.equal(undoWords(undo, names, null, tell(null), t), `Bo took back: ${said}`);
    assert.equal(undoWords(undo, names, 1, tell(1), t), `You took back: ${tell(1)(wall)}`);
    assert.match(undoWords(undo, names, 1, tell(1), t), /^You took back: You build a wall/);
    assert.equal(undoWords(undo, names, 0, tell(0), t), `Bo took back: ${said}`, 'another player is named');
  });

  test('several events are all said; none says the step was taken back', () => {
    const undo = { type: 'undo', player: 2, undone: [resident, { type: 'turn', player: 0, turn: 3, pieces: 2 }] };
    const words = undoWords(undo, ['Ann', 'Bo', null], null, tell(null), t);
    assert.ok(words.startsWith('Player 3 took back: '), words);
    assert.ok(words.includes(tell(null)(resident)) && words.includes(tell(null)(undo.undone[1])), words);
    assert.equal(undoWords({ type: 'undo', player: 0, undone: [] }, names, null, tell(null), t), 'Ann took back their last step.');
    assert.equal(undoWords({ type: 'undo', player: 0, undone: [] }, names, 0, tell(0), t), 'You took back your last step.');
  });

  test('tellWithUndo: an undo in the table\'s words, everything else in the game\'s', () => {
    const undo = { type: 'undo', player: 1, undone: [wall] };
    assert.equal(tellWithUndo(wall, names, null, tell(null), t), tell(null)(wall));
    assert.equal(tellWithUndo(undo, names, null, tell(null), t), undoWords(undo, names, null, tell(null), t));
    assert.doesNotMatch(tellWithUndo(undo, names, null, tell(null), t), /unknown|⟦/i);
  });

  // The table's log lines: {text, version, kind, event, viewer} (js/pages/table.js addLog).
  const line = (version, event, extra = {}) => ({ text: '…', version, kind: 'event', event, viewer: null, ...extra });
  const undoOf = (...undone) => ({ type: 'undo', player: 1, undone });

  test('an undo strikes the newest step still standing, when its events are the undone ones', () => {
    const log = [
      { text: 'The game begins.', version: 0, kind: 'note', key: 'table.log.started' },
      line(1, resident), line(1, { type: 'turn', player: 1, turn: 2, pieces: 2 }),
      line(2, wall),
    ];
    assert.equal(undoneVersion(log, undoOf(wall)), 2);
    const marked = markUndone(log, 2);
    assert.deepEqual(marked.map((l) => Boolean(l.undone)), [false, false, false, true]);
    assert.equal(log[3].undone, undefined, 'the log itself is not changed');
    // The undo's own line, then an undo of the step before: version 1, two lines.
    const after = [...marked, line(3, undoOf(wall))];
    const two = undoOf(resident, { type: 'turn', player: 1, turn: 2, pieces: 2 });
    assert.equal(undoneVersion(after, two), 1);
    assert.deepEqual(markUndone(after, 1).map((l) => Boolean(l.undone)), [false, true, true, true, false]);
  });

  test('nothing is struck when the log does not hold that step', () => {
    assert.equal(undoneVersion([line(4, resident)], undoOf(wall)), null, 'another step: the viewer came later');
    assert.equal(undoneVersion([], undoOf(wall)), null);
    assert.equal(undoneVersion([line(2, wall, { undone: true })], undoOf(wall)), null, 'already taken back, and nothing older');
    assert.equal(undoneVersion([line(1, wall), line(2, resident)], undoOf(wall)), null, 'only the newest standing step can be undone');
    // Notes and lines without their event (an older transcript) are never struck.
    assert.equal(undoneVersion([{ text: 'x', version: 2, kind: 'event' }], undoOf(wall)), null);
    assert.deepEqual(markUndone([{ text: 'Caught up at move 2.', version: 2, kind: 'note' }], 2)[0].undone, undefined);
  });

  test('a timeout line beside the step does not count: it is the clock\'s', () => {
    const timeout = { type: 'timeout', player: 1 };
    assert.equal(undoneVersion([line(5, timeout), line(5, wall)], undoOf(wall)), 5);
    assert.match(timeoutWords(timeout, names, null, t), /Bo ran out of time/);
  });
});

describe('the replay', () => {
  const step = (version, events, action = { type: 'place' }) => ({ version, player: 1, action, events, view: {} });
  const undoStep = (version) => step(version, [{ type: 'undo', player: 1, undone: [] }], { type: 'undo' });

  test('each undo takes back the newest step still standing, one at a time', () => {
    const steps = [{ version: 0, view: {} }, step(1, []), step(2, []), undoStep(3), step(4, []), step(5, []), undoStep(6), undoStep(7), step(8, [])];
    const { undoneBy, takesBack } = replayUndos(steps);
    assert.deepEqual([...undoneBy], [[2, 3], [5, 6], [4, 7]]);
    assert.deepEqual([...takesBack], [[3, 2], [6, 5], [7, 4]]);
    assert.equal(undoneBy.has(1), false);
    assert.equal(undoneBy.has(8), false);
  });

  test('a game without undos has none; a step is an undo by its action, else by its events', () => {
    const { undoneBy, takesBack } = replayUndos([{ version: 0, view: {} }, step(1, []), step(2, [])]);
    assert.equal(undoneBy.size + takesBack.size, 0);
    assert.equal(isUndoStep(undoStep(3)), true);
    assert.equal(isUndoStep({ version: 3, events: [{ type: 'undo', player: 0, undone: [] }] }), true);
    assert.equal(isUndoStep(step(3, [wall])), false);
    assert.deepEqual(replayUndos(undefined).undoneBy.size, 0);
  });
});

describe('the create form and the keyboard', () => {
  test('"Allow undo" is on for a casual table, off for a rated one', () => {
    assert.equal(undoDefault(false), true);
    assert.equal(undoDefault(true), false);
  });

  test('Ctrl+Z, or Cmd+Z on a Mac; Shift (redo) and Alt are not Undo', () => {
    const key = (e) => ({ key: 'z', ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...e });
    assert.equal(isUndoKey(key({ ctrlKey: true }), false), true);
    assert.equal(isUndoKey(key({ ctrlKey: true, key: 'Z' }), false), true, 'Caps Lock');
    assert.equal(isUndoKey(key({ metaKey: true }), false), false);
    assert.equal(isUndoKey(key({ metaKey: true }), true), true);
    assert.equal(isUndoKey(key({ ctrlKey: true }), true), false);
    assert.equal(isUndoKey(key({ ctrlKey: true, shiftKey: true }), false), false);
    assert.equal(isUndoKey(key({ ctrlKey: true, altKey: true }), false), false);
    assert.equal(isUndoKey(key({ ctrlKey: true, key: 'y' }), false), false);
    assert.equal(isUndoKey(key({}), false), false);
  });

  test('which keyboard, and the shortcut in words', () => {
    assert.equal(isMac({ platform: 'MacIntel' }), true);
    assert.equal(isMac({ userAgentData: { platform: 'macOS' }, platform: '' }), true);
    assert.equal(isMac({ platform: 'iPhone' }), true);
    assert.equal(isMac({ platform: 'Linux x86_64' }), false);
    assert.equal(isMac({ userAgentData: { platform: 'Windows' } }), false);
    assert.equal(isMac(undefined), false);
    assert.deepEqual(undoShortcut(false), { text: 'Ctrl+Z', aria: 'Control+Z' });
    assert.deepEqual(undoShortcut(true), { text: '⌘Z', aria: 'Meta+Z' });
  });
});
