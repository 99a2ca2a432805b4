// Medina, the pure part: no DOM, no network. Works on the engine's view JSON
// (engine/games/medina/medina.hpp, MedinaState::view):
//   applyEvent(view, event)                   → the next view (a new object; the input is not changed)
//   applyEvents(view, events, version)        → the view after one action's events, at that version
//   describeEvent(event, names, t, mySeat)    → one sentence for the game log
// plus the helpers the board needs: the live public score of each player (computed from what is
// on the board and the tiles held, as the engine scores), the wall arms' next spaces, and the
// legal list grouped by piece into sets of legal squares.
//
// What a viewer may know is decided by the server: every Medina event is public, and none of
// them carries a stock behind a screen except `stock_revealed`, which makes that stock public
// (the rules show it to everyone from then on). A viewer's own stock is counted down from the
// placements; another player's stock stays null until it is revealed.
// Tests: tests/web-client/medina-model.test.mjs replays engine games for every viewer.

import { nameOf, toMove, isOver, reduceEvents } from '../model-parts.js';
export { nameOf, toMove, isOver }; // the board and the table read them from each game's model

export const COLOURS = ['grey', 'black', 'brown', 'orange']; // palace tiles worth 1, 2, 3, 4
export const PIECES = ['palace', 'dome', 'stable', 'resident', 'wall'];
export const DOME_KINDS = ['scoring', 'blocking'];
export const WIDTH = 16;
export const HEIGHT = 11;
/** Towers at the corners of the wall ring: number → [x, y] (1 top-left, 3 top-right, 2 bottom-right, 4 bottom-left). */
export const TOWERS = { 1: [-1, -1], 3: [WIDTH, -1], 2: [WIDTH, HEIGHT], 4: [-1, HEIGHT] };

// The eight wall arms, as the engine numbers them: tower, side, first space, direction, side length,
// the arm growing towards it on the same side.
export const ARMS = [
  { tower: 1, side: 'north', x: 0, y: -1, dx: 1, dy: 0, length: WIDTH, opposite: 1 },
  { tower: 3, side: 'north', x: WIDTH - 1, y: -1, dx: -1, dy: 0, length: WIDTH, opposite: 0 },
  { tower: 3, side: 'east', x: WIDTH, y: 0, dx: 0, dy: 1, length: HEIGHT, opposite: 3 },
  { tower: 2, side: 'east', x: WIDTH, y: HEIGHT - 1, dx: 0, dy: -1, length: HEIGHT, opposite: 2 },
  { tower: 2, side: 'south', x: WIDTH - 1, y: HEIGHT, dx: -1, dy: 0, length: WIDTH, opposite: 5 },
  { tower: 4, side: 'south', x: 0, y: HEIGHT, dx: 1, dy: 0, length: WIDTH, opposite: 4 },
  { tower: 4, side: 'west', x: -1, y: HEIGHT - 1, dx: 0, dy: -1, length: HEIGHT, opposite: 7 },
  { tower: 1, side: 'west', x: -1, y: 0, dx: 0, dy: 1, length: HEIGHT, opposite: 6 },
];

const clone = (value) => structuredClone(value);
const byOrder = (order) => (a, b) => order.indexOf(a) - order.indexOf(b);

/** "x,y": the key of a square (engine coordinates). */
export const key = (x, y) => `${x},${y}`;

export function inCity(x, y) {
  return x >= 0 && x < WIDTH && y >= 0 && y < HEIGHT;
}

/** A wall space of the ring (not a tower corner). */
export function isWallSpace(x, y) {
  const ring = x === -1 || x === WIDTH || y === -1 || y === HEIGHT;
  const corner = (x === -1 || x === WIDTH) && (y === -1 || y === HEIGHT);
  return ring && !corner && x >= -1 && x <= WIDTH && y >= -1 && y <= HEIGHT;
}

/** The tower number standing at (x, y), or 0. */
export function towerAt(x, y) {
  for (const [n, [tx, ty]] of Object.entries(TOWERS)) if (tx === x && ty === y) return Number(n);
  return 0;
}

export function palaceTileValue(colour) {
  return COLOURS.indexOf(colour) + 1;
}

/** Pieces a turn places: 2, except with 2 players (1, 1, 2, then 3). */
export function quotaForTurn(players, turn) {
  if (players !== 2) return 2;
  if (turn <= 2) return 1;
  if (turn === 3) return 2;
  return 3;
}

export const twoPlayer = (view) => view.players === 2;

/** Whether a seat still holds a dome (3-4 players: a count; 2 players: the lists of colours). */
export function holdsDomes(seat) {
  const d = seat && seat.domes;
  if (typeof d === 'number') return d > 0;
  return Boolean(d && (d.scoring.length > 0 || d.blocking.length > 0));
}

/** The number of domes a seat has left (2 players: scoring plus blocking). */
export function domesLeft(seat) {
  const d = seat && seat.domes;
  if (typeof d === 'number') return d;
  return d ? d.scoring.length + d.blocking.length : 0;
}

/** The last player holding domes must place one a turn. */
export function forcedDome(view, player) {
  if (!holdsDomes(view.seats[player])) return false;
  return view.seats.every((s, q) => q === player || !holdsDomes(s));
}

/**
 * Whose an unclaimed palace can become. Under the rules a palace belongs to nobody until a dome
 * claims it, and whoever places that dome owns it (not the player who built its pieces): so the
 * answer is the seats that could put a dome on it, from public facts only (domes are in view, and
 * so are the palaces already owned). 3-4 players: a dome left and no palace of that colour owned
 * yet; 2 players: a scoring or blocking dome of that colour still held. A claimed palace, a closed
 * colour (nobody claims it any more) or a finished game: []. Per-turn limits are left out.
 */
export function claimants(view, palace) {
  if (!view || !palace || palace.owner !== null || view.phase === 'over' || view.closed.includes(palace.colour)) return [];
  const out = [];
  view.seats.forEach((seat, q) => {
    const d = seat.domes;
    const may = typeof d === 'number'
      ? d > 0 && !view.palaces.some((p) => p.owner === q && p.colour === palace.colour)
      : Boolean(d) && (d.scoring.includes(palace.colour) || d.blocking.includes(palace.colour));
    if (may) out.push(q);
  });
  return out;
}

/** The next wall space of an arm (engine coordinates), or null when the gate forbids it. */
export function armNext(arm, length, oppositeLength) {
  if (length + oppositeLength + 2 > arm.length) return null;
  return [arm.x + arm.dx * length, arm.y + arm.dy * length];
}

// ---- the board as squares ---------------------------------------------------------------------

/**
 * What stands on each square: Map "x,y" → { kind: 'palace'|'stable'|'resident'|'wall', palace (index),
 * colour, tower }. Towers are not in it (see TOWERS).
 */
export function squares(view) {
  const out = new Map();
  for (const p of view.palaces) {
    for (const [x, y] of p.pieces) out.set(key(x, y), { kind: 'palace', palace: p.id, colour: p.colour });
    for (const [x, y] of p.stables) out.set(key(x, y), { kind: 'stable', palace: p.id, colour: p.colour });
  }
  for (const [x, y] of view.residents) out.set(key(x, y), { kind: 'resident' });
  for (const w of walls(view)) out.set(key(w.x, w.y), { kind: 'wall', tower: w.tower });
  return out;
}

/** The walls standing, read from the arms (an arm's walls are the `length` spaces from its tower). */
export function walls(view) {
  const out = [];
  ARMS.forEach((arm, i) => {
    for (let k = 0; k < view.arms[i].length; k += 1) {
      out.push({ x: arm.x + k * arm.dx, y: arm.y + k * arm.dy, tower: arm.tower });
    }
  });
  return out;
}

const ORTH = [[-1, 0], [1, 0], [0, -1], [0, 1]];

/**
 * A player's points now, from public facts only, as the engine scores them: per owned palace
 * (blocking domes score for nobody) its pieces, stables, and the residents and walls beside any of
 * them (each counted once per palace); plus the palace tiles (1-4 by colour) and tower tiles (1-4)
 * held. Same shape as the view's seats[p].score.
 */
export function scoreOf(view, player, board = squares(view)) {
  const palaces = [];
  let total = 0;
  for (const p of view.palaces) {
    if (p.owner !== player || p.blocking) continue;
    const counted = new Set();
    let residents = 0;
    let walls = 0;
    for (const [x, y] of [...p.pieces, ...p.stables]) {
      for (const [dx, dy] of ORTH) {
        const k = key(x + dx, y + dy);
        const s = board.get(k);
        if (!s || (s.kind !== 'resident' && s.kind !== 'wall') || counted.has(k)) continue;
        counted.add(k);
        if (s.kind === 'resident') residents += 1;
        else walls += 1;
      }
    }
    const points = p.pieces.length + p.stables.length + residents + walls;
    palaces.push({ palace: p.id, pieces: p.pieces.length, stables: p.stables.length, residents, walls, points });
    total += points;
  }
  let palaceTiles = 0;
  for (const c of COLOURS) if (view.palace_tiles[c] === player) palaceTiles += palaceTileValue(c);
  let towerTiles = 0;
  view.tower_tiles.forEach((holder, i) => { if (holder === player) towerTiles += i + 1; });
  total += palaceTiles + towerTiles;
  return { palaces, palace_tiles: palaceTiles, tower_tiles: towerTiles, total };
}

/** Every player's live score, seat by seat. */
export function scores(view) {
  const board = squares(view);
  return view.seats.map((_, p) => scoreOf(view, p, board));
}

// ---- the reducer --------------------------------------------------------------------------------

/** Recomputes the fields of the view that follow from the others, as the engine does. */
function settle(view) {
  const over = view.phase === 'over';
  view.to_move = over ? [] : [view.active];
  view.forced_dome = !over && view.phase === 'play' && forcedDome(view, view.active);
  view.arms = ARMS.map((arm, i) => {
    const length = view.arms[i].length;
    const next = armNext(arm, length, view.arms[arm.opposite].length);
    return { tower: arm.tower, side: arm.side, length, next };
  });
  const all = scores(view);
  view.seats.forEach((s, p) => { s.score = all[p]; });
  return view;
}

function takeFromStock(stock, event) {
  if (!stock) return;
  switch (event.piece) {
    case 'palace': stock.palaces[event.colour] -= 1; break;
    case 'stable': stock.stables -= 1; break;
    case 'resident': stock.residents -= 1; break;
    case 'wall': stock.walls -= 1; break;
    default: break;
  }
}

function place(v, e) {
  const seat = v.seats[e.player];
  if (e.starting) {
    // The start player's first resident comes from no stock; then the first turn begins.
    v.residents.push([e.x, e.y]);
    v.phase = 'play';
    v.turn = 0;
    return;
  }
  switch (e.piece) {
    case 'palace': {
      if (e.palace === v.palaces.length) {
        v.palaces.push({
          id: e.palace, colour: e.colour, pieces: [], stables: [], size: 0, status: 'unfinished',
          owner: null, dome: null, blocking: false, towers: [],
        });
      }
      const p = v.palaces[e.palace];
      p.pieces.push([e.x, e.y]);
      p.size = e.size;
      if (!v.placed_colours.includes(e.colour)) v.placed_colours = [...v.placed_colours, e.colour].sort(byOrder(COLOURS));
      break;
    }
    case 'stable': {
      const p = v.palaces[e.palace];
      p.stables.push([e.x, e.y]);
      p.size = e.size;
      break;
    }
    case 'resident':
      v.residents.push([e.x, e.y]);
      break;
    case 'wall': {
      const i = v.arms.findIndex((a) => a.next && a.next[0] === e.x && a.next[1] === e.y);
      if (i >= 0) v.arms[i].length += 1;
      break;
    }
    case 'dome': {
      const p = v.palaces[e.palace];
      p.owner = e.player;
      p.status = 'claimed';
      p.dome = [e.x, e.y];
      p.blocking = e.dome === 'blocking';
      p.size = e.size;
      if (typeof seat.domes === 'number') {
        seat.domes -= 1;
      } else {
        const kind = e.dome === 'blocking' ? 'blocking' : 'scoring';
        seat.domes[kind] = seat.domes[kind].filter((c) => c !== e.colour);
        if (!v.placed_domes.includes(kind)) v.placed_domes = [...v.placed_domes, kind].sort(byOrder(DOME_KINDS));
      }
      break;
    }
    default:
      break;
  }
  takeFromStock(seat.stock, e);
  if (Array.isArray(v.stocks)) takeFromStock(v.stocks[e.player], e);
  v.placed += 1;
}

function newTurn(v, player, turn, pieces) {
  v.active = player;
  v.turn = turn;
  v.pieces = pieces;
  v.placed = 0;
  v.placed_colours = [];
  v.placed_domes = [];
}

/** The next view after one event. Unknown event types leave the view as it was. */
export function applyEvent(view, event) {
  const v = clone(view);
  const e = event || {};
  switch (e.type) {
    case 'place':
      place(v, e);
      break;
    case 'turn':
      v.phase = 'play';
      newTurn(v, e.player, e.turn, e.pieces);
      break;
    case 'skip':
      newTurn(v, e.player, e.turn, quotaForTurn(v.players, e.turn));
      break;
    case 'palace_tile':
      v.palace_tiles[e.colour] = e.player;
      break;
    case 'tower_tile': {
      v.tower_tiles[e.tower - 1] = e.player;
      const p = v.palaces[e.palace];
      if (p && !p.towers.includes(e.tower)) p.towers = [...p.towers, e.tower].sort((a, b) => a - b);
      break;
    }
    case 'colour_closed':
      if (!v.closed.includes(e.colour)) v.closed = [...v.closed, e.colour].sort(byOrder(COLOURS));
      for (const s of v.seats) if (s.stock) s.stock.palaces[e.colour] = 0;
      if (Array.isArray(v.stocks)) for (const s of v.stocks) s.palaces[e.colour] = 0;
      break;
    case 'palace_completed':
      if (v.palaces[e.palace]) v.palaces[e.palace].status = 'completed';
      break;
    case 'stock_revealed':
      v.seats[e.player].stock = clone(e.stock);
      v.seats[e.player].stock_public = true;
      break;
    case 'dome_removed': {
      const d = v.seats[e.player].domes;
      d.blocking = d.blocking.filter((c) => c !== e.colour);
      if (!d.removed.includes(e.colour)) d.removed = [...d.removed, e.colour].sort(byOrder(COLOURS));
      break;
    }
    case 'game_over':
      v.phase = 'over';
      v.result = clone(e.result);
      v.active = null;
      v.pieces = 0;
      v.placed = 0;
      v.placed_colours = [];
      v.placed_domes = [];
      break;
    default:
      return view;
  }
  return settle(v);
}

/** The view after one action's events. `version` is the `events` message's version. */
export function applyEvents(view, events, version) {
  return reduceEvents(view, events, version, applyEvent, clone);
}


/** Pieces still to place this turn. */
export function piecesLeft(view) {
  if (!view || view.phase !== 'play') return view && view.phase === 'setup' ? 1 : 0;
  return Math.max(0, view.pieces - view.placed);
}

// ---- legal actions ------------------------------------------------------------------------------

/** The picker key of one legal action: 'palace:grey', 'dome', 'dome:scoring', 'stable', 'resident', 'wall'. */
export function pieceKey(action) {
  if (action.piece === 'palace') return `palace:${action.colour}`;
  if (action.piece === 'dome' && action.dome) return `dome:${action.dome}`;
  return action.piece;
}

const GROUP_ORDER = [...COLOURS.map((c) => `palace:${c}`), 'dome', 'dome:scoring', 'dome:blocking', 'stable', 'resident', 'wall'];

/**
 * The legal list grouped by piece, in a fixed order (palaces by colour, domes, stable, resident,
 * wall): [{ key, piece, colour, dome, squares: Set("x,y"), actions: Map("x,y" → action) }].
 * Only what is in the list: the board builds its picker and its clickable squares from this.
 */
export function legalByPiece(legal) {
  const groups = new Map();
  for (const a of legal || []) {
    if (!a || a.type !== 'place' || !PIECES.includes(a.piece) || !Number.isInteger(a.x) || !Number.isInteger(a.y)) continue;
    const k = pieceKey(a);
    if (!groups.has(k)) {
      groups.set(k, {
        key: k, piece: a.piece, colour: a.piece === 'palace' ? a.colour : null, dome: a.piece === 'dome' ? a.dome || null : null,
        squares: new Set(), actions: new Map(),
      });
    }
    const g = groups.get(k);
    const sq = key(a.x, a.y);
    g.squares.add(sq);
    if (!g.actions.has(sq)) g.actions.set(sq, a);
  }
  const rank = (k) => (GROUP_ORDER.includes(k) ? GROUP_ORDER.indexOf(k) : GROUP_ORDER.length);
  return [...groups.values()].sort((a, b) => rank(a.key) - rank(b.key));
}

// ---- words --------------------------------------------------------------------------------------

/** A player's display name, or "Player n" when unknown (1-based for people). */

export function colourText(colour, t) {
  return COLOURS.includes(colour) ? t(`medina.colour.${colour}`) : t('medina.colour.unknown');
}

export function listText(items, t) {
  if (items.length <= 1) return items.join('');
  return t('common.list', { head: items.slice(0, -1).join(t('common.listSeparator')), last: items[items.length - 1] });
}

// ---- names of places: the same notation as the board's edges --------------------------------------

/** The letter of a city column (x 0–15 → A–P), as the top and bottom edges show it; '' off the city. */
export function columnName(x) {
  return Number.isInteger(x) && x >= 0 && x < WIDTH ? String.fromCharCode(65 + x) : '';
}

/** The number of a city row (y 0–10 → 1–11), as the left and right edges show it; '' off the city. */
export function rowName(y) {
  return Number.isInteger(y) && y >= 0 && y < HEIGHT ? String(y + 1) : '';
}

/**
 * The labels along the board's edges, one per grid column x = -1…WIDTH (top and bottom) and per grid
 * row y = -1…HEIGHT (left and right): the city's letters and numbers, '' beside the ring's corners.
 * The board draws these; placeText names places with the same functions.
 */
export function edgeLabels() {
  const columns = [];
  const rows = [];
  for (let x = -1; x <= WIDTH; x++) columns.push({ x, text: columnName(x) });
  for (let y = -1; y <= HEIGHT; y++) rows.push({ y, text: rowName(y) });
  return { columns, rows };
}

/** A city square's name, column letter then row number ("J9"); '' for a space outside the city. */
export function squareName(x, y) {
  return inCity(x, y) ? columnName(x) + rowName(y) : '';
}

/**
 * A wall space as the edges name it: its side of the ring and the column letter (north, south) or
 * row number (west, east) it lines up with. Null for anything else.
 */
export function wallName(x, y) {
  if (!isWallSpace(x, y)) return null;
  if (y === -1) return { side: 'north', name: columnName(x) };
  if (y === HEIGHT) return { side: 'south', name: columnName(x) };
  return { side: x === -1 ? 'west' : 'east', name: rowName(y) };
}

/** Where a place is, for people: "J9" / "the north wall at J" / "tower 2" (the notation of the edges). */
export function placeText(x, y, t) {
  const tower = towerAt(x, y);
  if (tower) return t('medina.where.tower', { n: tower });
  if (inCity(x, y)) return t('medina.where.square', { name: squareName(x, y) });
  const wall = wallName(x, y);
  if (wall) return t(`medina.where.wall.${wall.side}`, { name: wall.name });
  return t('medina.where.off');
}

/** "2 grey palace pieces, 1 stable and 3 walls" (a stock shown to everyone). */
export function stockText(stock, t) {
  if (!stock) return '';
  const parts = [];
  for (const c of COLOURS) {
    if (stock.palaces[c] > 0) parts.push(t('medina.stock.palace', { count: stock.palaces[c], colour: colourText(c, t) }));
  }
  for (const k of ['stables', 'residents', 'walls']) if (stock[k] > 0) parts.push(t(`medina.stock.${k}`, { count: stock[k] }));
  return parts.length ? listText(parts, t) : t('medina.stock.nothing');
}

/**
 * One sentence for the log, from the event alone. `mySeat` (null for spectators) only chooses
 * "you" over the player's name. No event but `stock_revealed` carries a stock, and that one is
 * public by the rules, so no sentence tells anyone a stock still behind its screen.
 */
export function describeEvent(event, names, t, mySeat = null) {
  const ev = event || {};
  const me = (p) => mySeat !== null && mySeat !== undefined && p === mySeat;
  const who = (p) => nameOf(names, p, t);
  const pick = (k, params) => t(me(ev.player) ? `${k}.you` : k, { name: who(ev.player), ...params });
  const where = () => placeText(ev.x, ev.y, t);
  switch (ev.type) {
    case 'place':
      if (ev.starting) return pick('medina.event.starting', { where: where() });
      switch (ev.piece) {
        case 'palace':
          return ev.size === 1
            ? pick('medina.event.palace.new', { colour: colourText(ev.colour, t), where: where() })
            : pick('medina.event.palace', { colour: colourText(ev.colour, t), where: where(), count: ev.size });
        case 'stable':
          return pick('medina.event.stable', { where: where(), count: ev.size });
        case 'resident':
          return pick('medina.event.resident', { where: where() });
        case 'wall':
          return pick('medina.event.wall', { where: where(), tower: ev.tower });
        case 'dome':
          if (ev.dome === 'blocking') return pick('medina.event.dome.blocking', { colour: colourText(ev.colour, t), count: ev.size });
          return pick(ev.dome === 'scoring' ? 'medina.event.dome.scoring' : 'medina.event.dome', { colour: colourText(ev.colour, t), count: ev.size });
        default:
          return pick('medina.event.place', { where: where() });
      }
    case 'turn':
      return pick(ev.forced_dome ? 'medina.event.turn.forced' : 'medina.event.turn', { turn: ev.turn, count: ev.pieces });
    case 'skip':
      return pick('medina.event.skip', { turn: ev.turn });
    case 'palace_tile': {
      const params = { colour: colourText(ev.colour, t), value: palaceTileValue(ev.colour), count: ev.size };
      if (ev.from === null || ev.from === undefined) return pick('medina.event.palace_tile', params);
      return pick('medina.event.palace_tile.from', { ...params, from: me(ev.from) ? t('common.you') : who(ev.from) });
    }
    case 'tower_tile':
      if (ev.from === null || ev.from === undefined || ev.from === ev.player) return pick('medina.event.tower_tile', { tower: ev.tower });
      return pick('medina.event.tower_tile.from', { tower: ev.tower, from: me(ev.from) ? t('common.you') : who(ev.from) });
    case 'colour_closed':
      return t('medina.event.colour_closed', { colour: colourText(ev.colour, t) });
    case 'palace_completed':
      return t('medina.event.palace_completed', { colour: colourText(ev.colour, t) });
    case 'stock_revealed':
      return pick('medina.event.stock_revealed', { stock: stockText(ev.stock, t) });
    case 'dome_removed':
      return pick('medina.event.dome_removed', { colour: colourText(ev.colour, t) });
    case 'game_over':
      return resultSentence(ev.result, names, t);
    default:
      return t('medina.event.unknown', { type: String(ev.type) });
  }
}

/** "Ann wins with 42 points." / "Ann and Bo share the win with 40 points." */
export function resultSentence(result, names, t) {
  if (!result || !Array.isArray(result.winners) || result.winners.length === 0) return t('medina.event.game_over');
  const best = (result.ranking || []).find((r) => r.player === result.winners[0]);
  const params = { names: listText(result.winners.map((p) => nameOf(names, p, t)), t), count: best ? best.points : 0 };
  return result.winners.length === 1 ? t('medina.result.winner', params) : t('medina.result.shared', params);
}

/** The line under the board title: what happens now, in words (public facts only). */
/** A seat's points now for the players panel ("8 points", from public facts only: scoreOf), or null without a seat. */
export function seatScore(view, p, t) {
  if (!view || !view.seats || !view.seats[p]) return null;
  const points = scoreOf(view, p).total;
  return `${points} ${t('medina.points', { count: points })}`;
}

export function statusText(view, names, mySeat, t) {
  if (!view) return '';
  if (view.phase === 'over') return resultSentence(view.result, names, t);
  const mine = mySeat !== null && mySeat !== undefined && view.active === mySeat;
  const params = { name: nameOf(names, view.active, t), count: piecesLeft(view), of: view.pieces };
  if (view.phase === 'setup') return t(mine ? 'medina.status.setup.you' : 'medina.status.setup', params);
  const base = view.forced_dome ? 'medina.status.forced' : 'medina.status.play';
  return t(mine ? `${base}.you` : base, params);
}

// ---- hints: what each control does and what it costs (the board shows them on hover and focus) ----------

/** The palaces orthogonally beside (x, y) (beside one of their pieces or stables; `piecesOnly` for pieces). */
function palacesBeside(view, x, y, board, piecesOnly = false) {
  const out = new Set();
  for (const [dx, dy] of ORTH) {
    const s = board.get(key(x + dx, y + dy));
    if (s && (s.kind === 'palace' || (!piecesOnly && s.kind === 'stable'))) out.add(s.palace);
  }
  return [...out].map((id) => view.palaces[id]);
}

/** A palace's size under the rules: pieces and attached stables. */
export const palaceSize = (p) => p.pieces.length + p.stables.length;

/** The points a palace is worth to its owner now (pieces, stables, residents and walls beside it). */
export function palacePoints(view, palace, board = squares(view)) {
  const counted = new Set();
  for (const [x, y] of [...palace.pieces, ...palace.stables]) {
    for (const [dx, dy] of ORTH) {
      const k = key(x + dx, y + dy);
      const s = board.get(k);
      if (s && (s.kind === 'resident' || s.kind === 'wall')) counted.add(k);
    }
  }
  return palaceSize(palace) + counted.size;
}

/** How many of a piece the viewer has left (null when the view does not say). */
function stockLeft(view, seat, action) {
  const me = view.seats[seat];
  if (!me) return null;
  if (action.piece === 'dome') {
    if (typeof me.domes === 'number') return me.domes;
    return me.domes && action.dome ? me.domes[action.dome].length : null;
  }
  if (!me.stock) return null;
  if (action.piece === 'palace') return me.stock.palaces[action.colour];
  return me.stock[`${action.piece}s`];
}

/**
 * What placing `action` (a legal `place`) does and costs, from the view: which palace a piece joins or
 * starts, what a dome claims and is worth now, what a resident or wall stands beside, and the stock it
 * uses ("Build a stable here … — uses 1 of your 3 stables").
 */
export function placeHint(view, seat, action, t, board = squares(view)) {
  const { x, y } = action;
  const where = placeText(x, y, t);
  const left = stockLeft(view, seat, action);
  const uses = left === null ? '' : t(`medina.hint.uses.${action.piece}`, { count: left, colour: colourText(action.colour, t) });
  const names = (ps) => listText(ps.map((p) => t('medina.hint.palaceOf', { colour: colourText(p.colour, t), size: palaceSize(p) })), t);
  if (view.phase === 'setup') return t('medina.hint.residentSetup', { where });
  switch (action.piece) {
    case 'palace': {
      const joins = palacesBeside(view, x, y, board, true).filter((p) => p.colour === action.colour);
      if (joins.length) return t('medina.hint.palaceJoin', { where, colour: colourText(action.colour, t), count: palaceSize(joins[0]) + 1, uses });
      return t('medina.hint.palaceNew', { where, colour: colourText(action.colour, t), uses });
    }
    case 'dome': {
      const s = board.get(key(x, y));
      const p = s && view.palaces[s.palace];
      if (!p) return t('medina.hint.domePlain', { where, uses });
      const params = { where, colour: colourText(p.colour, t), size: palaceSize(p), count: palacePoints(view, p, board), uses };
      return t(action.dome === 'blocking' ? 'medina.hint.domeBlocking' : 'medina.hint.dome', params);
    }
    case 'stable': {
      const p = palacesBeside(view, x, y, board, true)[0];
      return p ? t('medina.hint.stable', { where, colour: colourText(p.colour, t), count: palaceSize(p) + 1, uses }) : t('medina.hint.stablePlain', { where, uses });
    }
    case 'resident':
    case 'wall': {
      const beside = palacesBeside(view, x, y, board);
      const arm = action.piece === 'wall' ? view.arms.find((a) => a.next && a.next[0] === x && a.next[1] === y) : null;
      const near = beside.length ? t('medina.hint.beside', { list: names(beside), count: beside.length }) : t('medina.hint.besideNone');
      return t(`medina.hint.${action.piece}`, { where, tower: arm ? arm.tower : '', near, uses });
    }
    default:
      return null;
  }
}

/** The picker's button for a piece: how many squares it may go on, and how many of it are left. */
export function pickHint(group, left, t) {
  const piece = group.piece === 'palace' ? t('medina.piece.palace', { colour: colourText(group.colour, t) })
    : group.piece === 'dome' ? (group.dome ? t(`medina.piece.dome.${group.dome}`) : t('medina.piece.dome')) : t(`medina.piece.${group.piece}`);
  return left === null || left === undefined
    ? t('medina.hint.pickFree', { piece, count: group.squares.size })
    : t('medina.hint.pick', { piece, count: group.squares.size, left });
}

// ---- the score explained ----------------------------------------------------------------------------------

/**
 * Why a player's tiles and total are what they are: { palaceTiles: "black 2 + orange 4 = 6" | null,
 * towerTiles: "tower 2 + tower 3 = 5" | null, total: "5 + 3 + 6 = 14" }, from the view and scoreOf's result.
 */
export function scoreWhy(view, player, score, t) {
  const tiles = COLOURS.filter((c) => view.palace_tiles[c] === player)
    .map((c) => t('medina.why.palaceTile', { colour: colourText(c, t), count: palaceTileValue(c) }));
  const towers = [];
  view.tower_tiles.forEach((holder, i) => { if (holder === player) towers.push(t('medina.why.towerTile', { n: i + 1 })); });
  const sum = (parts, total) => (parts.length > 1 ? `${parts.join(' + ')} = ${total}` : String(parts[0] ?? total));
  const parts = [...score.palaces.map((p) => p.points), score.palace_tiles, score.tower_tiles].filter((n) => n > 0);
  return {
    palaceTiles: tiles.length ? t('medina.why.palaceTiles', { list: sum(tiles, score.palace_tiles), count: score.palace_tiles }) : null,
    towerTiles: towers.length ? t('medina.why.towerTiles', { list: sum(towers, score.tower_tiles), count: score.tower_tiles }) : null,
    total: t('medina.why.total', { sum: sum(parts.map(String), score.total), count: score.total }),
  };
}
