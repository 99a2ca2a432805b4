// Pure: a finished game's replay (GET /tables/<id>/replay.json, every position with everything revealed) as
// the replay page steps through it.

/** The step a key or a control goes to from `current` (0..last), or null when it means nothing here. */
export function stepFor(key, current, last) {
  const to = {
    ArrowLeft: current - 1, previous: current - 1,
    ArrowRight: current + 1, next: current + 1,
    PageUp: current - 10, PageDown: current + 10,
    Home: 0, first: 0,
    End: last, last,
  }[key];
  return to === undefined ? null : Math.max(0, Math.min(last, to));
}

/** The table as the boards and the seat helpers take it, from the replay's header (everyone shown as present). */
export function replayTable(replay) {
  return {
    id: replay.table,
    game: replay.game,
    players: replay.players,
    options: replay.options,
    state: 'finished',
    seats: replay.seats.map((s) => ({ seat: s.seat, name: s.name, bot: s.bot, connected: true })),
  };
}

/** Where a table's replay is served (a private table's needs its invite). */
export function replayDataPath(tableId, invite) {
  const base = `/tables/${encodeURIComponent(tableId)}/replay.json`;
  return invite ? `${base}?invite=${encodeURIComponent(invite)}` : base;
}
