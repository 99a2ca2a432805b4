// "Confirm my turn" (issue 37): while a player has it on, the steps they make are kept in the browser and previewed
// by the server (the "preview" request: the steps applied to a copy of the game, told to nobody, the version
// unmoved); the board draws the preview's view and legal list; Undo takes the last kept step off here; once a step
// could not be taken back (the preview answers final:true: it draws, reveals or ends the turn) nothing more is
// kept, and Confirm sends the kept steps as ordinary acts, one after another. Nothing reaches the others before.
// Pure: the table page holds one of these (`kept`) and the requests; tests/web-client/undo-confirm-turn.test.mjs.
//
// kept = { base, steps: [{action, label}], previews: [{view, legal, events}], final, sending, awaiting }
//   base      the version the steps start from (the real game's, when the first was kept)
//   previews  previews[i] is the preview after steps 0..i; a step not yet answered has none, nor a final one
//   final     the last step could not be taken back: the turn is ready to confirm, nothing more is kept
//   sending   Confirm is sending the steps; awaiting: the version the last ack gave, until the game shows it
import { boardLegal } from './undo-rules.js';

/** The games whose turn has several steps, that offer "Confirm my turn". */
export const CONFIRM_GAMES = Object.freeze(['medina', 'silkroad', 'merkator']);

/** At most this many steps in one preview (the server's limit). */
export const MAX_KEPT = 8;

/** Whether a table offers the option: its game has turns of several steps, and its server knows undo (the table
 *  object says "undo"; a server without it has no preview either). */
export function offersConfirm(info) {
  return Boolean(info) && CONFIRM_GAMES.includes(info.game) && typeof info.undo === 'boolean';
}

export function noSteps() {
  return { base: null, steps: [], previews: [], final: false, sending: false, awaiting: null };
}

export const hasSteps = (kept) => kept.steps.length > 0;

/** A step kept whose preview has not answered yet. */
export const isPending = (kept) => !kept.final && kept.steps.length > kept.previews.length;

/** Whether another step may be kept now. */
export function mayKeep(kept) {
  return !kept.final && !kept.sending && kept.awaiting === null && !isPending(kept) && kept.steps.length < MAX_KEPT;
}

/**
 * Keeps `action` (made on the board at the real game's `version`); `label` is how the control the player pressed
 * named it (the final step has no preview events to tell it by). Unchanged when no step may be kept now.
 */
export function keep(kept, action, version, label = null) {
  if (!mayKeep(kept)) return kept;
  return {
    ...kept,
    base: kept.steps.length ? kept.base : version,
    steps: [...kept.steps, { action, label: label || null }],
  };
}

/** The preview request of the kept steps. */
export function previewRequest(kept, table) {
  return { type: 'preview', table, version: kept.base, actions: kept.steps.map((s) => s.action) };
}

/** The kept steps with the server's answer to their preview ({final, events, view, legal}). */
export function previewed(kept, reply) {
  if (!isPending(kept)) return kept;
  if (reply.final) return { ...kept, final: true };
  const preview = { view: reply.view, legal: boardLegal(reply.legal), events: Array.isArray(reply.events) ? reply.events : [] };
  return { ...kept, previews: [...kept.previews, preview] };
}

/** Takes the last kept step off (Undo while steps are kept; a refused preview): no request, the previews stay. */
export function dropLast(kept) {
  if (kept.sending || kept.awaiting !== null || !kept.steps.length) return kept;
  if (kept.steps.length === 1) return noSteps();
  const steps = kept.steps.slice(0, -1);
  return { ...kept, steps, previews: kept.previews.slice(0, steps.length), final: false };
}

/**
 * What the board draws: the real game ({view, version, legal}) without kept steps, else the newest preview (or the
 * real view, when the only step is final or unanswered) at the real version, with its legal list while another step
 * may be kept and none otherwise. `preview` says which it is.
 */
export function shownGame(kept, real) {
  if (!real || !hasSteps(kept)) return real;
  const last = kept.previews[kept.previews.length - 1];
  // The version stays the real one: the version does not move in a preview, and the board host takes a view older
  // than the one it showed for another game.
  const view = last ? { ...last.view, version: real.version } : real.view;
  return { ...real, view, legal: last && mayKeep(kept) ? last.legal : [], canUndo: false, preview: true };
}

/**
 * The kept steps in words, one entry a step: the events a step added to the preview, told by `tell(event)`, else
 * (a final or unanswered step) the pressed control's label; null when there is neither.
 */
export function stepWords(kept, tell) {
  return kept.steps.map((step, i) => {
    const preview = kept.previews[i];
    if (preview) {
      const before = i > 0 && kept.previews[i - 1] ? kept.previews[i - 1].events.length : 0;
      const words = preview.events.slice(before).map((e) => tell(e)).filter(Boolean).join(' ');
      if (words) return words;
    }
    return step.label;
  });
}

/** Whether Confirm may send the kept steps now. */
export function mayConfirm(kept) {
  return hasSteps(kept) && !isPending(kept) && !kept.sending && kept.awaiting === null;
}

/** The kept steps while Confirm sends them (the board shows the preview, without controls, until they are in). */
export function sending(kept) {
  return mayConfirm(kept) ? { ...kept, sending: true } : kept;
}

/** Confirm's acts were all taken, the last one at `version`: kept until the real game shows it. */
export function sent(kept, version) {
  return { ...kept, sending: false, awaiting: version };
}

/**
 * The kept steps once the real game is at `version`: {kept, dropped}. Confirm's steps go when the game has them; kept
 * steps whose base the game has left (a bot moved for the player when time ran out) are dropped (`dropped` true:
 * the player is told).
 */
export function settle(kept, version) {
  if (kept.awaiting !== null) return { kept: version >= kept.awaiting ? noSteps() : kept, dropped: false };
  if (hasSteps(kept) && !kept.sending && version !== kept.base) return { kept: noSteps(), dropped: true };
  return { kept, dropped: false };
}
