// Medici, the pure part: no DOM, no network. Works on the engine's view JSON (engine/README.md):
//   applyEvent(view, event)            → the next view (a new object; the input is not changed)
//   applyEvents(view, events, version) → the view after one action's events, at that version
//   describeEvent(event, names, t)     → one sentence for the game log
// plus the helpers the board needs (legal actions by kind, the allowed bid range, the auction's
// rows, markers on the tracks, the viewer's prompt, the places each move changed). The client applies events with these instead of asking the
// server for a new snapshot after every action; tests check that it lands exactly on the
// engine's own views (tests/web-client/medici-model.test.mjs).

import { nameOf, toMove, isOver, reduceEvents } from '../model-parts.js';
export { nameOf, toMove, isOver }; // the board and the table read them from each game's model

export const COMMODITIES = ['cloth', 'fur', 'grain', 'dye', 'spice'];
export const TRACK_TOP = 7;
/** Bonus paid every day to a marker standing on these positions. */
export const TRACK_BONUS = { 5: 5, 6: 10, 7: 20 };
export const MAX_LOT = 3;

const clone = (value) => structuredClone(value);

/** Recomputes the fields of the view that follow from the others, as the engine does. */
function settle(view) {
  for (const seat of view.seats) {
    seat.free = view.capacity - seat.ship.length;
    seat.in_day = seat.free > 0;
  }
  if (view.phase === 'over') {
    view.auction = null;
    view.lot_limit = 0;
    view.to_move = [];
    return view;
  }
  const mostFree = Math.max(0, ...view.seats.map((s) => s.free));
  view.lot_limit = Math.min(MAX_LOT, mostFree);
  if (view.phase === 'draw') {
    view.auction = null;
    view.to_move = [view.active];
  } else if (view.phase === 'auction') {
    const a = view.auction;
    if (a) {
      a.bidder = a.bids.length < a.order.length ? a.order[a.bids.length] : null;
      a.min_bid = a.high_bid + 1;
    }
    view.to_move = a && a.bidder !== null ? [a.bidder] : [];
  }
  return view;
}

/** The next view after one event. Unknown event types leave the view as it was. */
export function applyEvent(view, event) {
  const v = clone(view);
  switch (event.type) {
    case 'day_start':
      v.day = event.day;
      v.start_player = event.start_player;
      v.active = event.start_player;
      v.bag_count = event.bag_count;
      v.removed_count = event.removed_count;
      v.discarded = [];
      v.lot = [];
      v.phase = 'draw';
      v.auction = null;
      break;
    case 'draw':
      v.lot.push(clone(event.tile));
      v.bag_count = event.bag_count;
      v.active = event.player;
      break;
    case 'stop':
      break;
    case 'auction':
      v.phase = 'auction';
      v.lot = clone(event.lot);
      v.auction = { order: [...event.order], bids: [], high_bid: 0, high_bidder: null, bidder: null, min_bid: 1 };
      break;
    case 'bid':
      if (v.auction) {
        v.auction.bids.push({ player: event.player, amount: event.amount });
        v.auction.high_bid = event.amount;
        v.auction.high_bidder = event.player;
      }
      break;
    case 'pass':
      if (v.auction) v.auction.bids.push({ player: event.player, pass: true, forced: Boolean(event.forced) });
      break;
    case 'lot_won': {
      const seat = v.seats[event.player];
      seat.money = event.money;
      seat.ship.push(...clone(event.tiles));
      v.lot = [];
      v.auction = null;
      break;
    }
    case 'lot_discarded':
      v.discarded.push(...clone(event.tiles));
      v.lot = [];
      v.auction = null;
      break;
    case 'turn':
      v.active = event.player;
      v.phase = 'draw';
      break;
    case 'fill':
      v.seats[event.player].ship.push(...clone(event.tiles));
      v.bag_count = event.bag_count;
      break;
    case 'day_end': {
      const s = event.scoring;
      v.scorings.push(clone(s));
      v.seats.forEach((seat, p) => {
        seat.money = s.money[p];
        for (const c of s.commodities) seat.tracks[c.commodity] = c.positions[p];
        seat.ship = [];
      });
      v.lot = [];
      v.auction = null;
      break;
    }
    case 'game_over':
      v.phase = 'over';
      v.result = clone(event.result);
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


// ---- legal actions --------------------------------------------------------------------------

/** The allowed bid range from the legal actions: {min, max}, or null when no bid is allowed. */
export function bidRange(legal) {
  let min = Infinity;
  let max = -Infinity;
  for (const a of legal || []) {
    if (a && a.type === 'bid' && Number.isInteger(a.amount)) {
      min = Math.min(min, a.amount);
      max = Math.max(max, a.amount);
    }
  }
  return min === Infinity ? null : { min, max };
}

/** What the legal list allows, by kind. */
export function legalActions(legal) {
  const has = (type) => (legal || []).some((a) => a && a.type === type);
  return { draw: has('draw'), stop: has('stop'), pass: has('pass'), bid: bidRange(legal) };
}

/** Whether `amount` is one of the legal bids. */
export function isLegalBid(legal, amount) {
  return (legal || []).some((a) => a && a.type === 'bid' && a.amount === amount);
}

/** A typed-in bid made whole and brought inside the range (NaN → the minimum). */
export function clampBid(value, range) {
  if (!range) return null;
  const n = Math.round(Number(value));
  if (!Number.isFinite(n)) return range.min;
  return Math.min(range.max, Math.max(range.min, n));
}

// ---- what the board shows -------------------------------------------------------------------

/**
 * The auction, one row per bidder in order: state is 'bid' (with amount), 'pass' (forced or
 * not), 'current' (their chance now) or 'waiting'.
 */
export function auctionRows(view) {
  const a = view && view.auction;
  if (!a) return [];
  return a.order.map((player, i) => {
    const b = a.bids[i];
    if (b && b.pass) return { player, state: 'pass', forced: Boolean(b.forced) };
    if (b) return { player, state: 'bid', amount: b.amount, high: a.high_bidder === player && a.high_bid === b.amount };
    if (i === a.bids.length) return { player, state: 'current' };
    return { player, state: 'waiting' };
  });
}

/** For one commodity: position (0..7) → the players whose marker stands there. */
export function trackMarkers(view, commodity) {
  const out = Array.from({ length: TRACK_TOP + 1 }, () => []);
  view.seats.forEach((seat, p) => {
    const pos = Math.max(0, Math.min(TRACK_TOP, seat.tracks[commodity] ?? 0));
    out[pos].push(p);
  });
  return out;
}

/** The sum of the face values on a ship (gold is 10). */
export function shipValue(ship) {
  return ship.reduce((sum, tile) => sum + tile.value, 0);
}

/** The tile counts per commodity on a ship (what the tracks will move by at the day's end). */
export function shipCounts(ship) {
  const counts = Object.fromEntries(COMMODITIES.map((c) => [c, 0]));
  for (const tile of ship) if (tile.commodity in counts) counts[tile.commodity] += 1;
  return counts;
}

// ---- words ----------------------------------------------------------------------------------

/** A player's display name, or "Player n" when unknown (1-based for people). */

export function tileText(tile, t) {
  if (!tile) return t('medici.tile.unknown');
  return t('medici.tile', { commodity: t(`medici.commodity.${tile.commodity}`), value: tile.value });
}

export function tilesText(tiles, t) {
  if (!tiles || tiles.length === 0) return t('medici.tiles.none');
  return listText(tiles.map((x) => tileText(x, t)), t);
}

function listText(items, t) {
  if (items.length <= 1) return items.join('');
  return t('common.list', { head: items.slice(0, -1).join(t('common.listSeparator')), last: items[items.length - 1] });
}

/** One sentence for the log. Uses only what the event itself says, so it is spectator-safe. */
export function describeEvent(event, names, t) {
  const who = (p) => nameOf(names, p, t);
  switch (event && event.type) {
    case 'day_start':
      return t('medici.event.day_start', { day: event.day, bag: event.bag_count, name: who(event.start_player) });
    case 'draw':
      return t('medici.event.draw', { name: who(event.player), tile: tileText(event.tile, t), count: event.bag_count });
    case 'stop':
      return t('medici.event.stop', { name: who(event.player) });
    case 'auction':
      return t('medici.event.auction', {
        count: (event.lot || []).length,
        tiles: tilesText(event.lot, t),
        order: listText((event.order || []).map(who), t),
      });
    case 'bid':
      return t('medici.event.bid', { name: who(event.player), count: event.amount });
    case 'pass':
      if (event.forced && event.reason === 'no_room') return t('medici.event.pass.no_room', { name: who(event.player) });
      if (event.forced && event.reason === 'no_money') return t('medici.event.pass.no_money', { name: who(event.player) });
      if (event.forced) return t('medici.event.pass.forced', { name: who(event.player) });
      return t('medici.event.pass', { name: who(event.player) });
    case 'lot_won':
      return t('medici.event.lot_won', {
        name: who(event.player), count: event.price, tiles: tilesText(event.tiles, t), money: event.money,
      });
    case 'lot_discarded':
      return t('medici.event.lot_discarded', { tiles: tilesText(event.tiles, t) });
    case 'turn':
      return t('medici.event.turn', { name: who(event.player) });
    case 'fill':
      if (!event.tiles || event.tiles.length === 0) return t('medici.event.fill.none', { name: who(event.player) });
      return t('medici.event.fill', { name: who(event.player), tiles: tilesText(event.tiles, t), count: event.bag_count });
    case 'day_end': {
      const totals = (event.scoring && event.scoring.totals) || [];
      return t('medici.event.day_end', {
        day: event.day,
        gains: listText(totals.map((g, p) => t('medici.event.gain', { name: who(p), count: g })), t),
      });
    }
    case 'game_over':
      return resultSentence(event.result, names, t);
    default:
      return t('medici.event.unknown', { type: String(event && event.type) });
  }
}

/** "Ann wins with 97 florins." / "Ann and Bo share the win with 80 florins." */
export function resultSentence(result, names, t) {
  if (!result || !Array.isArray(result.winners) || result.winners.length === 0) return t('medici.event.game_over');
  const best = (result.ranking || []).find((r) => r.player === result.winners[0]);
  const params = { names: listText(result.winners.map((p) => nameOf(names, p, t)), t), count: best ? best.money : 0 };
  return result.winners.length === 1 ? t('medici.result.winner', params) : t('medici.result.shared', params);
}

/**
 * The viewer's own prompt, built from what their legal list allows, so it never offers a move that is
 * not open to them (no "or stop" before the first tile is drawn). Null when the list allows nothing.
 */
export function yourPrompt(view, legal, t) {
  const allowed = legalActions(legal);
  const count = Math.max(0, view.lot_limit - view.lot.length);
  if (allowed.draw && allowed.stop) return t('medici.status.drawYou', { count });
  if (allowed.draw) return t('medici.status.drawOnlyYou', { count });
  if (allowed.stop) return t('medici.status.stopOnlyYou');
  if (allowed.bid && allowed.pass) return t('medici.status.bidYou', { count: allowed.bid.min });
  if (allowed.bid) return t('medici.status.bidOnlyYou', { count: allowed.bid.min });
  if (allowed.pass) return t('medici.status.passOnlyYou');
  return null;
}

/**
 * The line under the board title: what happens now, in words. `legal` is the viewer's legal list: on
 * the viewer's turn the line says exactly what it allows (yourPrompt).
 */
/** A seat's florins for the players panel ("12 florins": money is public in Medici), or null before the view has it. */
export function seatScore(view, p, t) {
  const seat = view && view.seats ? view.seats[p] : null;
  return seat && Number.isInteger(seat.money) ? `${seat.money} ${t('medici.ship.moneyUnit', { count: seat.money })}` : null;
}

export function statusText(view, names, mySeat, t, legal = []) {
  if (!view) return '';
  const who = (p) => (p === mySeat ? t('common.you') : nameOf(names, p, t));
  if (view.phase === 'over') return resultSentence(view.result, names, t);
  if (view.phase === 'draw') {
    return view.active === mySeat
      ? yourPrompt(view, legal, t) || t('medici.status.yourTurn')
      : t('medici.status.draw', { name: who(view.active) });
  }
  const a = view.auction;
  if (a && a.bidder !== null && a.bidder !== undefined) {
    return a.bidder === mySeat
      ? yourPrompt(view, legal, t) || t('medici.status.yourTurn')
      : t('medici.status.bid', { name: who(a.bidder) });
  }
  return '';
}

// ---- last moves ---------------------------------------------------------------------------------

/**
 * Which lot this is, the same on every page: the day and how many tiles have left the day's lots so
 * far (onto ships or discarded). A new lot gets a new id, so a mark on "the lot's second tile" never
 * lands on a later lot's tile.
 */
export function lotId(view) {
  const shipped = view.seats.reduce((sum, seat) => sum + seat.ship.length, 0);
  return `${view.day}.${shipped}.${view.discarded.length}`;
}

/** The keys of the places a move can change (the board marks them with js/models/last-moves.js). */
export const markKey = {
  lot: (view, i) => `lot:${lotId(view)}:${i}`,
  bid: (view, player) => `bid:${lotId(view)}:${player}`,
  ship: (view, player, i) => `ship:${view.day}:${player}:${i}`,
  discard: (view, i) => `discard:${view.day}:${i}`,
};

/**
 * The places one event changed, for the last-move marks, given the view before it: { player, keys }
 * for a player's own move (a drawn tile, the lot they stopped at, a bid or pass, the lot won onto the
 * winner's ship), { player: null, keys } for a result of the move that caused it (the discarded lot,
 * which belongs to the last move of the same action), or null. Forced passes, free fills and the day's
 * scoring are nobody's move: no mark.
 */
export function moveMarks(view, event) {
  const range = (from, n) => Array.from({ length: n }, (_, i) => from + i);
  switch (event && event.type) {
    case 'draw':
      return { player: event.player, keys: [markKey.lot(view, view.lot.length)] };
    case 'stop':
      return { player: event.player, keys: range(0, view.lot.length).map((i) => markKey.lot(view, i)) };
    case 'bid':
      return { player: event.player, keys: [markKey.bid(view, event.player)] };
    case 'pass':
      return event.forced ? null : { player: event.player, keys: [markKey.bid(view, event.player)] };
    case 'lot_won': {
      const had = view.seats[event.player].ship.length;
      return { player: event.player, keys: range(had, event.tiles.length).map((i) => markKey.ship(view, event.player, i)) };
    }
    case 'lot_discarded':
      return { player: null, keys: range(view.discarded.length, event.tiles.length).map((i) => markKey.discard(view, i)) };
    default:
      return null;
  }
}

// ---- hints: what each control does and what it costs (the board shows them on hover and focus) ----------

/** "Draw a tile …": the bag, the lot so far and its limit. */
export function drawHint(view, t) {
  return t('medici.hint.draw', { bag: view.bag_count, size: view.lot.length, limit: view.lot_limit });
}

/** "Stop drawing …": the lot goes to auction, the others bid first, the active player last. */
export function stopHint(view, t) {
  return t('medici.hint.stop', { count: view.lot.length });
}

/** Whether `seat` is the last to bid in the running auction. */
function lastToBid(view, seat) {
  const a = view.auction;
  return Boolean(a) && a.bids.length === a.order.length - 1 && a.order[a.order.length - 1] === seat;
}

/** "Bid 12 florins for this lot …": what it costs, when it is paid, and the money left after it. */
export function bidHint(view, seat, amount, t) {
  const money = view.seats[seat] ? view.seats[seat].money : 0;
  const params = { count: amount, tiles: tilesText(view.lot, t), left: Math.max(0, money - amount), money };
  return t(lastToBid(view, seat) ? 'medici.hint.bidLast' : 'medici.hint.bid', params);
}

/** "Pass …": free; when the viewer bids last, what then happens to the lot. */
export function passHint(view, seat, names, t) {
  const a = view.auction;
  if (!lastToBid(view, seat) || !a) return t('medici.hint.pass');
  if (a.high_bidder === null || a.high_bidder === undefined) return t('medici.hint.passDiscard');
  return t('medici.hint.passWinner', { name: nameOf(names, a.high_bidder, t), count: a.high_bid });
}

// ---- the scoring, explained number by number ----------------------------------------------------------

/** Where player `p` stands among `values` (higher is better): { rank (1 = highest), tied (players on it) }. */
export function rankAmong(values, p) {
  const mine = values[p];
  return { rank: 1 + values.filter((x) => x > mine).length, tied: values.filter((x) => x === mine).length };
}

/**
 * Why each number of a day's scoring is what it is, player by player: [{ player, lines }] with one line for
 * the ship ("Ship value 12: rank 2 of 3 → 15"), one per commodity that paid a majority or a bonus, and the
 * total ("Earned 25 = 15 + 10"). From the scoring's own data only.
 */
export function scoringWhy(scoring, names, t) {
  const players = scoring.totals.length;
  const rankWords = (values, p) => {
    const { rank, tied } = rankAmong(values, p);
    return tied > 1 ? t('medici.why.rankTied', { rank, of: players, count: tied }) : t('medici.why.rank', { rank, of: players });
  };
  return scoring.totals.map((total, p) => {
    const lines = [t('medici.why.ship', { value: scoring.ship_values[p], rank: rankWords(scoring.ship_values, p), count: scoring.ship_payments[p] })];
    const parts = [scoring.ship_payments[p]];
    for (const c of scoring.commodities) {
      const commodity = t(`medici.commodityTitle.${c.commodity}`);
      if (c.majority[p] > 0) {
        lines.push(t('medici.why.majority', { commodity, pos: c.positions[p], rank: rankWords(c.positions, p), count: c.majority[p] }));
        parts.push(c.majority[p]);
      }
      if (c.bonus[p] > 0) {
        lines.push(t('medici.why.bonus', { commodity, pos: c.positions[p], count: c.bonus[p] }));
        parts.push(c.bonus[p]);
      }
    }
    const sum = parts.filter((x) => x > 0);
    lines.push(sum.length > 1 ? t('medici.why.total', { count: total, sum: sum.join(' + ') }) : t('medici.why.totalPlain', { count: total }));
    return { player: p, name: nameOf(names, p, t), lines };
  });
}
