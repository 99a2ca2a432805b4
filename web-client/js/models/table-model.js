// The table's decisions that need no DOM (tested in tests/web-client/table-model.test.mjs).
import { seatName } from './bots.js';

/**
 * What to do with an `events` message at `incoming` when the client's view is at `current`:
 * 'apply' the next version, 'ignore' an old or repeated one, 'resync' (ask for a snapshot) when
 * versions were missed or there is no view yet.
 */
export function eventsDecision(current, incoming) {
  if (current === null || current === undefined) return 'resync';
  if (incoming <= current) return 'ignore';
  if (incoming === current + 1) return 'apply';
  return 'resync';
}

/** The seats someone sits at (a seat kept for a player of the previous game does not count). */
export function seatedCount(info) {
  return info ? info.seats.filter((s) => s.name !== null && s.name !== undefined && s.reserved !== true).length : 0;
}

/** The names by seat, for the log and the board (null for an empty seat); with `t`, a bot's own "Bot N" in the language's words. */
export function seatNames(info, t) {
  return info ? info.seats.map((s) => seatName(s, t)) : [];
}

/** Which start control the creator sees: {show, enabled, missing}. */
export function startState(info, mySeat, minPlayers) {
  if (!info || info.state !== 'waiting' || mySeat === null || mySeat === undefined || info.creator_seat !== mySeat) {
    return { show: false, enabled: false, missing: 0 };
  }
  const missing = Math.max(0, (minPlayers || 1) - seatedCount(info));
  return { show: true, enabled: missing === 0, missing };
}

/** Whether the player must act now: a seat, a running game and legal actions. */
export function isMyTurn({ seat, game, info }) {
  return seat !== null && seat !== undefined && Boolean(game) && Array.isArray(game.legal) && game.legal.length > 0 &&
    (!info || info.state === 'playing');
}

/**
 * The turn indicator: {kind, key, params}. kind is 'yours', 'other', 'over', 'waiting' or
 * 'none'; the words come from the i18n catalog (key and params).
 */
export function turnIndicator({ info, game, seat, toMove, names, isOver }) {
  if (!info) return { kind: 'none', key: 'table.turn.none', params: {} };
  if (info.state === 'waiting') return { kind: 'waiting', key: 'table.turn.waitingStart', params: {} };
  if (!game) return { kind: 'none', key: 'table.turn.none', params: {} };
  if (info.state === 'finished' || (isOver && isOver(game.view))) return { kind: 'over', key: 'table.turn.over', params: {} };
  if (isMyTurn({ seat, game, info })) return { kind: 'yours', key: 'table.turn.yours', params: {} };
  const movers = toMove ? toMove(game.view) : [];
  if (movers.length) {
    return { kind: 'other', key: 'table.turn.other', params: { seat: movers[0], name: names[movers[0]] } };
  }
  return { kind: 'none', key: 'table.turn.none', params: {} };
}

/** The tab title: the "your turn" signal first, so it shows in a narrow tab. */
export function titleKey({ info, game, seat, isOver }) {
  if (isMyTurn({ seat, game, info })) return 'app.title.yourTurn';
  if (info && (info.state === 'finished' || (game && isOver && isOver(game.view)))) return 'app.title.over';
  return 'app.title.table';
}

/** Whether an event is the clock's timeout ({"type":"timeout","player":p}), which precedes the bot's move. */
export function isTimeout(event) {
  return Boolean(event) && event.type === 'timeout' && Number.isInteger(event.player);
}

/** The log line of a timeout: "Ann ran out of time; a bot moved for them." (`viewer`: the viewer's seat or null). */
export function timeoutWords(event, names, viewer, t) {
  if (event.player === viewer) return t('table.log.timeoutYou');
  return t('table.log.timeout', { name: names[event.player] || t('common.player', { n: event.player + 1 }) });
}
