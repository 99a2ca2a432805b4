// Merkator's last moves (js/models/last-moves.js): which places of the board an event changed, and whose move it
// belongs to. Pure (tests/web-client/merkator-marks.test.mjs). A move is everything a player does from the
// first action of their turn (or of their joining) until another turn starts: the trip's destination stays
// marked while the traveller takes cubes and fulfils contracts.
//
// Keys: `loc:<location>` (the city), `pawn`, `stack:<location>` (its cubes), `office:<p>`, `supply:<p>`,
// `contract:<id>` (a held contract), `card:<id>` (an owned card), `offer:<id>` (a card on display),
// `coins:<p>`, `time:<p>`, `seat:<p>` (the merchant, for a joining or a stay at home), `chart`, `piles`.
// An undo takes the places of the step it took back off the player's move.

/** { player, keys } for one event (`active`: the traveller of the turn), or null when it is no one's move. */
export function moveKeys(e, active) {
  const p = e && e.player;
  switch (e && e.type) {
    case 'travel': return { player: p, keys: [`loc:${e.location}`, 'pawn', e.paid > 0 ? `time:${p}` : null] };
    case 'take':
    case 'bonus_goods': return { player: p, keys: [`office:${p}`] };
    case 'restock': return { player: active, keys: (e.added || []).map((l) => `stack:${l}`) };
    case 'time': return { player: p, keys: [`time:${p}`, e.source === 'chart' ? 'chart' : null] };
    case 'letter':
    case 'keep_letter': return { player: active, keys: ['chart'] };
    // A forced loss is part of the traveller's trip; a chosen one is the loser's own decision.
    case 'goods_lost': return { player: e.chosen ? p : active, keys: [`office:${p}`] };
    case 'trade': return { player: p, keys: [`office:${p}`, e.give === 'time' ? `time:${p}` : null] };
    case 'fulfil': return { player: p, keys: [`contract:${e.contract}`, `office:${p}`] };
    case 'new_contract': return { player: p, keys: [e.contract ? `contract:${e.contract}` : null, 'piles'] };
    case 'reshuffle': return { player: active, keys: ['piles'] };
    case 'sell': return { player: p, keys: [`coins:${p}`, 'piles'] };
    case 'buy': return { player: p, keys: [`coins:${p}`, `card:${e.card}`, e.revealed ? `offer:${e.revealed}` : null] };
    case 'end_investment': return { player: p, keys: [e.lost > 0 ? `coins:${p}` : null] };
    case 'join': return { player: p, keys: [`seat:${p}`, `time:${p}`, `time:${e.to}`] };
    case 'decline': return { player: p, keys: [`seat:${p}`] };
    case 'supply': return { player: p, keys: [`office:${p}`, `supply:${p}`] };
    case 'done': return { player: p, keys: [] };
    default: return null; // turn, end_triggered, game_over: no one's move
  }
}

/**
 * Feeds one action's events into `marks` (createLastMoves()). `moves` (a Map kept by the board) holds the
 * keys of each player's move in progress; a `turn` event ends them all. `active` is the view's traveller
 * before the events.
 */
export function noteEvents(marks, moves, events, active) {
  let traveller = active;
  for (const e of events || []) {
    if (e && e.type === 'undo') {
      forgetUndone(marks, moves, e, traveller);
      continue;
    }
    if (e && e.type === 'turn') {
      traveller = e.player;
      moves.clear();
      continue;
    }
    const m = moveKeys(e, traveller);
    if (!m || !Number.isInteger(m.player)) continue;
    if (!moves.has(m.player)) moves.set(m.player, []);
    const keys = moves.get(m.player);
    for (const k of m.keys) if (k && !keys.includes(k)) keys.push(k);
    marks.note(m.player, keys);
  }
}

/** An undo (its `undone` events): the places the taken-back step changed leave the player's move in progress. */
function forgetUndone(marks, moves, undo, active) {
  const gone = new Set();
  for (const e of undo.undone || []) {
    const m = moveKeys(e, active);
    if (m && m.player === undo.player) for (const k of m.keys) if (k) gone.add(k);
  }
  const keys = moves.get(undo.player);
  if (keys) {
    const left = keys.filter((k) => !gone.has(k));
    if (left.length) moves.set(undo.player, left); else moves.delete(undo.player);
  }
  marks.forget(undo.player, [...gone]);
}
