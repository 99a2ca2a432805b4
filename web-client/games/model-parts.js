// What every game's model (games/<game>/model.js) shares: pure, like the models.

/** A seat's display name, or "Player N" while the seat has none. */
export function nameOf(names, player, t) {
  const n = names && names[player];
  return n ? n : t('common.player', { n: player + 1 });
}

/**
 * The view after one action's events, one event at a time through the game's `applyEvent` (which returns
 * the view itself when an event changes nothing); `version` is the `events` message's version.
 */
export function reduceEvents(view, events, version, applyEvent, clone) {
  let v = view;
  for (const e of events) v = applyEvent(v, e);
  if (v === view) v = clone(view);
  v.version = version ?? view.version + 1;
  return v;
}

/** The seats whose decision it is. */
export function toMove(view) {
  return view && Array.isArray(view.to_move) ? view.to_move : [];
}

export function isOver(view) {
  return Boolean(view && view.phase === 'over');
}
