// What every game's board (games/<game>/board.js) draws the same way: a seat's colour swatch (the table's
// own, js/table/seats.js), its initial, and its name with "(you)" for the viewer.
import { swatch, youTag } from '../js/table/seats.js';
import { nameOf } from './model-parts.js';

export { swatch };

/** The first letter of a seat's name ("P" of "Player 2" while it has none), upper case. */
export function initial(name, p, t) {
  const n = (name || nameOf([], p, t)).trim();
  return [...n][0] ? [...n][0].toUpperCase() : String(p + 1);
}

/** A seat's name, followed by "(you)" for the viewer's own seat. */
export function playerName(names, p, mySeat, t) {
  const name = nameOf(names, p, t);
  return p === mySeat ? [name, youTag()] : name;
}
