// The games this client shows: game id → the game's module, games/<id>/board.js. Every game's module has
// the same shape (see games/medici/board.js): { id, nameKey, strings, cardArt, model: {applyEvents,
// describeEvent, toMove, isOver, statusText}, createBoard(root, {t, onAction}) }. describeEvent(event, names, t, mySeat)
// gets the viewer's seat (null for spectators) so a board may say "you". Merkator's board also fetches its
// component data (the file the server loaded) once, at the page's start (its `ready`, awaited by gamesReady before
// the connection opens, so that no events come before the data). A board that needs the page's width says
// `layout: 'wide'` (the table then puts its side panels below the board).
// Every board marks the last move of each player (js/models/last-moves.js: note the places an event
// changed in onEvents, put markProps on those places when rendering; every page, spectators' too) and
// marks its move panel with `data-decision` (the table brings it into view when the viewer's turn starts).
// A game's strings live beside its board, one file per language (games/<id>/i18n/<language>.js): the
// English ones come with its module (`strings`), the others are loaded with the shared catalog when their
// language is chosen (js/core/i18n/index.js, addStrings). The how-to's picture of each board (js/ui/howto.js) is
// drawn from games/<id>/howto-figure.js, loaded when a how-to first shows it.
import { t, has, addStrings } from '../js/core/i18n/index.js';
import { addHowToFigure } from '../js/ui/howto.js';
import medici from './medici/board.js';
import medina from './medina/board.js';
import silkroad from './silkroad/board.js';
import merkator from './merkator/board.js';

const boards = new Map([medici, merkator, medina, silkroad].map((board) => [board.id, board]));
for (const board of boards.values()) {
  addStrings(board.strings, (lang) => import(`./${board.id}/i18n/${lang}.js`));
  addHowToFigure(board, () => import(`./${board.id}/howto-figure.js`));
}

/**
 * Resolves once every game whose module has `ready` (a model that needs data before it applies events: Merkator's
 * data file) has it, or failed to get it, or after `ms`: the page waits for this at its start, beside its strings.
 */
export function gamesReady(ms = 5000) {
  const all = [...boards.values()].filter((b) => typeof b.ready === 'function').map((b) => Promise.resolve(b.ready()).catch(() => false));
  return Promise.race([Promise.all(all), new Promise((resolve) => { setTimeout(resolve, ms); })]);
}

/** The board module for a game id, or null when this client cannot show that game. */
export function gameModule(id) {
  return boards.get(id) || null;
}

export function knownGames() {
  return [...boards.keys()];
}

/** A game's display name: the client's translation when it has one, else the server's. */
export function gameName(id, games = []) {
  const mod = gameModule(id);
  if (mod && has(mod.nameKey)) return t(mod.nameKey);
  const info = games.find((g) => g.id === id);
  return info ? info.name : id;
}
