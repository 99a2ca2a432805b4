// The slot the game's board lives in (games/registry.js): created for the game when the first
// view arrives, fed every new view, and dropped when there is none. The legal list it is given is the board's:
// the table page took the undo entry out (js/models/undo-rules.js splitLegal) and shows its own Undo button.
import { h, replace } from '../core/dom.js';
import { t } from '../core/i18n/index.js';
import { botLevels } from '../models/bots.js';

const CONTROL = 'button, [role=button], [data-action]';

/**
 * What a board's update(state) gets (games/registry.js): the table's `info` (its seats), the `view` and the `legal`
 * list (a seated viewer's only), the viewer's seat `me` (null: a spectator), the seats' `names`; nothing can be
 * sent while `busy` or without a connection (`ready` false).
 */
export function boardState({ info, view, legal, me, names, busy = false, ready = true }) {
  return {
    view,
    legal: me !== null ? legal : [],
    seat: me,
    names,
    bots: botLevels(info),
    connected: info.seats.map((x) => x.connected),
    // Without a connection nothing can be sent: the controls wait for the reconnection.
    busy: busy || !ready,
    offline: !ready,
  };
}

/** What a pressed control says (its accessible name, else its words), for telling a kept step by: null if none. */
function controlWords(control) {
  if (!control) return null;
  const words = (control.getAttribute('aria-label') || control.textContent || '').replace(/\s+/g, ' ').trim();
  return words ? words.slice(0, 160) : null;
}

/**
 * `onAction(action, { label })` sends a move; `label` is how the control pressed for it names it (a step kept by
 * "Confirm my turn" is told by it when the preview cannot tell it), null when none was pressed.
 */
export function createBoardHost({ onAction }) {
  const el = h('div', { class: 'board-slot' });
  let board = null;
  let boardGame = null;
  let shownVersion = -1;
  let pressed = null;
  // Boards send from their controls' click handlers (a key on a button clicks it too): the control is known before.
  el.addEventListener('click', (e) => { pressed = e.target.closest ? e.target.closest(CONTROL) : null; }, true);
  const send = (action) => {
    const label = controlWords(pressed);
    pressed = null;
    onAction(action, { label });
  };

  function drop() {
    if (board) board.destroy();
    board = null;
    boardGame = null;
  }

  /**
   * `mod` is the game's module (null if unknown), `game` {view, legal, preview} or null (`preview`: the view is
   * a preview of kept steps, js/models/confirm-turn.js), `me` the viewer's seat (null unless seated), `ready`
   * whether the connection is up.
   */
  function render({ info, game, mod, me, names, busy, ready }) {
    if (!game || !info) {
      drop();
      replace(el);
      return;
    }
    if (!mod) {
      replace(el, h('p', { class: 'banner' }, t('common.unknownGame', { game: info.game })));
      return;
    }
    // A view older than the one shown is another game: a fresh board, with none of the old one's marks.
    if (board && game.view && game.view.version < shownVersion) drop();
    shownVersion = game.view ? game.view.version : -1;
    if (!board || boardGame !== mod.id) {
      drop();
      replace(el);
      board = mod.createBoard(el, { t, onAction: send });
      boardGame = mod.id;
    }
    if (game.preview) el.dataset.preview = ''; else delete el.dataset.preview;
    board.update(boardState({ info, view: game.view, legal: game.legal, me, names, busy, ready }));
  }

  /**
   * Scrolls the board's move panel ([data-decision]) into view if it is off screen (a phone, a player who
   * scrolled down to the log); the table calls it when the viewer's turn starts.
   */
  function showDecision() {
    const panel = el.querySelector('[data-decision]');
    if (!panel) return;
    const box = panel.getBoundingClientRect();
    if (box.top >= 0 && box.top < window.innerHeight - Math.min(box.height, window.innerHeight / 3)) return;
    const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    // The window, not the element: boards re-render often, and a smooth scroll towards an element that is
    // replaced meanwhile stops half way.
    window.scrollTo({ top: window.scrollY + box.top - 8, behavior: smooth ? 'smooth' : 'auto' });
  }

  function onEvents(events) {
    if (board) board.onEvents(events);
  }

  return { el, render, onEvents, showDecision, destroy: drop };
}
