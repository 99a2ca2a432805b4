// The last move of each player, for marking it on the board. A board notes, as each event comes in,
// the places a move changed (its own keys: a square, a card slot, a city, a boat) under the player who
// made it; a player's mark stays until that player moves again. The newest move is "latest" (drawn
// stronger) and, for a moment, "fresh" (animated, unless the reader prefers reduced motion).
// Pure bookkeeping: no DOM; `markProps` gives the attributes the boards put on a marked element.
const FRESH_MS = 1600;

export function createLastMoves({ now = () => Date.now(), freshMs = FRESH_MS } = {}) {
  const byPlayer = new Map(); // player → { keys: Set, at, order }
  let order = 0;

  return {
    /** `player` just made a move that changed `keys` (one key or a list); it replaces their last one. */
    note(player, keys) {
      if (!Number.isInteger(player)) return;
      const list = (Array.isArray(keys) ? keys : [keys]).filter((k) => k !== null && k !== undefined).map(String);
      byPlayer.set(player, { keys: new Set(list), at: now(), order: ++order });
    },
    /** Adds `keys` to the player's current last move (a move told in several events). */
    add(player, keys) {
      const mine = byPlayer.get(player);
      if (!mine || mine.order !== order) { this.note(player, keys); return; }
      for (const k of Array.isArray(keys) ? keys : [keys]) if (k !== null && k !== undefined) mine.keys.add(String(k));
    },
    /**
     * Takes `keys` (one key or a list) off the player's last move: a step of it was taken back (an undo). Their mark
     * goes when nothing is left of it; without keys, it goes at once.
     */
    forget(player, keys = null) {
      const mine = byPlayer.get(player);
      if (!mine) return;
      if (keys !== null && keys !== undefined) for (const k of Array.isArray(keys) ? keys : [keys]) mine.keys.delete(String(k));
      if (keys === null || keys === undefined || mine.keys.size === 0) byPlayer.delete(player);
    },
    /** Forgets every mark (a new game, a board rebuilt from a snapshot of another game). */
    clear() {
      byPlayer.clear();
    },
    /** The mark on `key`: { player, latest, fresh } of the newest move that touched it, or null. */
    at(key) {
      let best = null;
      for (const [player, m] of byPlayer) {
        if (m.keys.has(String(key)) && (!best || m.order > best.order)) best = { player, order: m.order, at: m.at };
      }
      if (!best) return null;
      return { player: best.player, latest: best.order === order, fresh: best.order === order && now() - best.at < freshMs };
    },
    /** The player whose move is the newest, or null. */
    latestPlayer() {
      for (const [player, m] of byPlayer) if (m.order === order) return player;
      return null;
    },
  };
}

/**
 * Attributes for a marked element, to merge into h()'s: the classes (`extra` are the element's own)
 * and `data-last-move` (the player's seat), which the browser tests read. Null mark → only `extra`.
 */
export function markProps(mark, extra = []) {
  const own = Array.isArray(extra) ? extra : [extra];
  if (!mark) return { class: own };
  return {
    class: [...own, 'last-move', mark.latest && 'last-move--latest', mark.fresh && 'last-move--fresh'],
    'data-last-move': String(mark.player),
  };
}
