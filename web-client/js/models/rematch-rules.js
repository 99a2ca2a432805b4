// Rematches as the client sees them, without DOM (tested in tests/web-client/rematch.test.mjs).
//
// {"type":"rematch","table":T} from a player seated at the finished table T creates the new table N
// (or, once it exists, seats the caller in the seat N keeps for them); the reply is a `seated` frame
// for N. T's table object then carries "rematch":{"table":N,"by":seat,"invite":code?} — the offer —
// and N's carries "rematch_of":T. In N a seat kept for a person of T is
// {"seat":n,"name":"Ann","reserved":true,"connected":false} until they take it.

/** Whether a seat of a waiting table is kept for a player of the previous game. */
export function isReserved(seat) {
  return Boolean(seat && seat.reserved === true && seat.name);
}

/** "kept for Ann" for a reserved seat, else null. */
export function reservedWords(seat, t) {
  return isReserved(seat) ? t('rematch.kept', { name: seat.name }) : null;
}

/**
 * What a finished table offers the viewer:
 *   {kind:'none'}                            not finished, or the viewer has no seat here
 *   {kind:'offer'}                           "Play again": nobody has offered a rematch yet
 *   {kind:'join', table, by, name}           "Ann offers a rematch — Join"
 *   {kind:'open', table, by, name, mine}     the viewer is in the new table already: a link to it
 *                                            (mine: the viewer made the offer)
 *   {kind:'watch', table, by, name}          a spectator sees the offer, with no button
 * `me` is the viewer's seat (null unless seated); `hasSeatAt(id)` whether this browser holds a seat
 * at table `id`.
 */
export function rematchState(info, me, hasSeatAt = () => false) {
  if (!info || info.state !== 'finished') return { kind: 'none' };
  const seated = me !== null && me !== undefined;
  const offer = info.rematch && typeof info.rematch.table === 'string' ? info.rematch : null;
  if (!offer) return seated ? { kind: 'offer' } : { kind: 'none' };
  const by = Number.isInteger(offer.by) ? offer.by : null;
  const seat = by !== null ? info.seats[by] : null;
  const base = { table: offer.table, by, name: seat && seat.name ? seat.name : null };
  if (!seated) return { kind: 'watch', ...base };
  if (by === me || hasSeatAt(offer.table)) return { kind: 'open', ...base, mine: by === me };
  return { kind: 'join', ...base };
}
