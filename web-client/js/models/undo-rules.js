// Taking back a step (issue 37; protocol/README.md, "undo"): the legal list's {"type":"undo"} entry, which no
// board ever sees (the table shows its own Undo button instead); the undo event in words; which log lines and which
// replay steps an undo took back; the create form's default; the keyboard's Ctrl+Z (Cmd+Z on a Mac).
// Pure (tests/web-client/undo-rules.test.mjs).
import { isTimeout } from './table-model.js';

export const UNDO = 'undo';

/** Whether a legal action is the undo entry ({"type":"undo"}). */
export function isUndoAction(action) {
  return Boolean(action) && action.type === UNDO;
}

/** Whether an event is an undo ({"type":"undo","player":p,"undone":[…the taken-back step's events…]}). */
export function isUndoEvent(event) {
  return Boolean(event) && event.type === UNDO && Number.isInteger(event.player);
}

/**
 * A legal list split for the table: `actions` as boards take it (without the undo entry: a board never renders
 * it) and `canUndo`, whether the player may take back their last step now.
 */
export function splitLegal(legal) {
  const list = Array.isArray(legal) ? legal : [];
  const actions = list.filter((a) => !isUndoAction(a));
  return { actions, canUndo: actions.length !== list.length };
}

/** The legal list as a board takes it. */
export function boardLegal(legal) {
  return splitLegal(legal).actions;
}

/**
 * The log line of an undo: "Ann took back: <what the step's log said>" ("You took back: …" for the viewer).
 * `tell(event)` says one of the undone events as the log said it then (the game's words, a timeout's).
 */
export function undoWords(event, names, viewer, tell, t) {
  const steps = (Array.isArray(event.undone) ? event.undone : []).map((e) => tell(e)).filter(Boolean).join(' ');
  const you = viewer !== null && viewer !== undefined && event.player === viewer;
  const name = (names && names[event.player]) || t('common.player', { n: event.player + 1 });
  if (!steps) return you ? t('table.undo.log.youBare') : t('table.undo.log.bare', { name });
  return you ? t('table.undo.log.you', { steps }) : t('table.undo.log.other', { name, steps });
}

/** An event in words: an undo through undoWords, every other event through `tell`. */
export function tellWithUndo(event, names, viewer, tell, t) {
  return isUndoEvent(event) ? undoWords(event, names, viewer, tell, t) : tell(event);
}

const isMoveLine = (line) => (line.kind || 'event') === 'event' && Boolean(line.event);
// A timeout is the clock's line, not the step's: it is left out on both sides.
const sameEvents = (a, b) => JSON.stringify(a.filter((e) => !isTimeout(e))) === JSON.stringify(b.filter((e) => !isTimeout(e)));

/**
 * The version whose log lines `undo` takes back: the newest step the log still holds live (not taken back, not an
 * undo itself), if its events are the undone ones; null when the log does not hold that step (the viewer came later,
 * the log was trimmed). Log lines are the table's: {version, kind, event, undone}.
 */
export function undoneVersion(log, undo) {
  const lines = (Array.isArray(log) ? log : []).filter(isMoveLine);
  const versions = [...new Set(lines.map((l) => l.version))].sort((a, b) => b - a);
  for (const version of versions) {
    const step = lines.filter((l) => l.version === version);
    if (step.some((l) => l.undone || isUndoEvent(l.event))) continue;
    return sameEvents(step.map((l) => l.event), Array.isArray(undo.undone) ? undo.undone : []) ? version : null;
  }
  return null;
}

/** The log with the move lines of `version` marked as taken back ({undone: true}). */
export function markUndone(log, version) {
  return log.map((l) => (l.version === version && isMoveLine(l) ? { ...l, undone: true } : l));
}

/** Whether a replay step is an undo (its action, or failing that its events, say so). */
export function isUndoStep(step) {
  if (!step) return false;
  if (step.action) return isUndoAction(step.action);
  return (step.events || []).some(isUndoEvent);
}

/**
 * A finished game's undos over its replay steps (replay.json: steps[0] is the start, steps[v] the v-th stored
 * action): `undoneBy` maps each taken-back step to the undo step that took it back, `takesBack` each undo step to the
 * step it took back. Each undo takes back the newest step still standing (undo goes one step at a time).
 */
export function replayUndos(steps) {
  const standing = [];
  const undoneBy = new Map();
  const takesBack = new Map();
  (Array.isArray(steps) ? steps : []).forEach((step, i) => {
    if (i === 0) return;
    if (!isUndoStep(step)) {
      standing.push(i);
      return;
    }
    const back = standing.pop();
    if (back === undefined) return;
    undoneBy.set(back, i);
    takesBack.set(i, back);
  });
  return { undoneBy, takesBack };
}

/** The create form's "Allow undo": on for a casual table, off for a rated one (the server's default too). */
export function undoDefault(rated) {
  return !rated;
}

/** Whether the keyboard says this platform is a Mac (Cmd, not Ctrl): `nav` is navigator or alike. */
export function isMac(nav) {
  const platform = (nav && ((nav.userAgentData && nav.userAgentData.platform) || nav.platform)) || '';
  return /mac|iphone|ipad|ipod/i.test(platform);
}

/** Whether a keydown ({key, ctrlKey, metaKey, altKey, shiftKey}) is Undo: Ctrl+Z, or Cmd+Z on a Mac (Shift: redo). */
export function isUndoKey(e, mac) {
  if (!e || e.altKey || e.shiftKey || String(e.key).toLowerCase() !== 'z') return false;
  return mac ? Boolean(e.metaKey) && !e.ctrlKey : Boolean(e.ctrlKey) && !e.metaKey;
}

/** The shortcut as shown ("Ctrl+Z", "⌘Z") and as aria-keyshortcuts says it. */
export function undoShortcut(mac) {
  return mac ? { text: '⌘Z', aria: 'Meta+Z' } : { text: 'Ctrl+Z', aria: 'Control+Z' };
}
