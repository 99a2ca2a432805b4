// The your-turn signals, without DOM (tested in tests/web-client/attention.test.mjs): the tab title
// (table-model.js titleKey), an optional short sound, and a browser notification while the tab is
// hidden. The sound is off until the player turns it on; notifications need the browser's
// permission, which is asked for only when the player presses "Notify me", and only once.
// The DOM and browser side is js/pages/table/attention.js; the choices live in js/core/store.js.

/** Whether the viewer's turn has just begun: it was not theirs before and is now. */
export function turnBegan(wasMine, isMine) {
  return !wasMine && Boolean(isMine);
}

/**
 * Which signals to give when the turn begins: {sound, notification}. `sound` is the player's
 * choice; `notify` whether they asked for notifications; `permission` the browser's
 * Notification.permission (or 'unsupported'); `hidden` whether the tab is hidden.
 */
export function signals({ began, sound, notify, permission, hidden }) {
  if (!began) return { sound: false, notification: false };
  return { sound: Boolean(sound), notification: Boolean(notify) && permission === 'granted' && Boolean(hidden) };
}

/**
 * The state of the "Notify me" control:
 *   'unsupported'  the browser has no notifications (nothing is shown)
 *   'ask'          never asked: the button
 *   'on'           granted and wanted
 *   'off'          granted, but the player turned them off (the button turns them on again, no prompt)
 *   'denied'       the browser (or the player, when asked) refused: a hint, no new prompt
 */
export function notifyControl({ permission, asked, notify }) {
  if (permission === 'unsupported' || permission === undefined || permission === null) return 'unsupported';
  if (permission === 'denied') return 'denied';
  if (permission === 'granted') return notify ? 'on' : 'off';
  return asked ? 'denied' : 'ask';
}
