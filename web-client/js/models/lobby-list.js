// The lobby's list of public tables, kept from the server's frames (pure): the whole list comes once, as the reply
// to watch_lobby; after it only changes (lobby_changed: a table new to the list or changed; lobby_removed: a table
// no longer listed). Shown as the server orders it: waiting tables first, the newest first.

/** The list after `frame` (a `lobby`, `lobby_changed` or `lobby_removed` frame); `tables` is not modified. */
export function applyLobbyFrame(tables, frame) {
  switch (frame.type) {
    case 'lobby':
      return frame.tables || [];
    case 'lobby_changed': {
      const at = tables.findIndex((x) => x.id === frame.table.id);
      // A changed table keeps its place unless its state moved it between groups; a new one is the newest.
      if (at >= 0 && tables[at].state === frame.table.state) return tables.map((x, i) => (i === at ? frame.table : x));
      return sortWaitingFirst([frame.table, ...tables.filter((x) => x.id !== frame.table.id)]);
    }
    case 'lobby_removed':
      return tables.filter((x) => x.id !== frame.table);
    default:
      return tables;
  }
}

/** Waiting tables before the others, each group in its order (a stable sort). */
function sortWaitingFirst(tables) {
  const waiting = (x) => (x.state === 'waiting' ? 0 : 1);
  return [...tables].sort((a, b) => waiting(a) - waiting(b));
}

/** Whether `frame` is one of the lobby's. */
export const isLobbyFrame = (frame) => ['lobby', 'lobby_changed', 'lobby_removed'].includes(frame.type);
