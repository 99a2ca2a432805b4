// The slot the game's board lives in (games/registry.js): created for the game when the first
// view arrives, fed every new view, and dropped when there is none.
import { h, replace } from '../core/dom.js';
import { t } from '../core/i18n/index.js';
import { botLevels } from '../models/bots.js';

/** `onAction(action)` sends a move. */
export function createBoardHost({ onAction }) {
  const el = h('div', { class: 'board-slot' });
  let board = null;
  let boardGame = null;
  let shownVersion = -1;

  function drop() {
    if (board) board.destroy();
    board = null;
    boardGame = null;
  }

  /**
   * `mod` is the game's module (null if unknown), `game` {view, legal} or null, `me` the viewer's
   * seat (null unless seated), `ready` whether the connection is up.
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
      board = mod.createBoard(el, { t, onAction });
      boardGame = mod.id;
    }
    board.update({
      view: game.view,
      legal: me !== null ? game.legal : [],
      seat: me,
      names,
      bots: botLevels(info),
      connected: info.seats.map((x) => x.connected),
      // Without a connection nothing can be sent: the controls wait for the reconnection.
      busy: busy || !ready,
      offline: !ready,
    });
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
