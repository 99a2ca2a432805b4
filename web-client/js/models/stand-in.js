// Stand-in bots and absent players during a game, without DOM (tested in
// tests/web-client/stand-in.test.mjs).
//
// During a game a seat's entry in the table object may carry (protocol/README.md, leave and
// replace_absent):
//   "bot":"normal","stand_in":"left"    the person left the running game; a bot plays on
//   "bot":"normal","stand_in":"absent"  the person was away; a bot plays until they come back
//   "bot":"normal","stand_in":"timeout" the person ran out of time three times in a row (turn
//                                       clocks); a bot plays until they take the seat back
//   "away_s":N                          a person disconnected for N whole seconds (as of the frame)
import { botLevel } from './bots.js';

/** The server's default for how long a player must be away before a bot may take the seat. */
export const DEFAULT_ABSENT_AFTER_S = 300;

const REASONS = ['left', 'absent', 'timeout'];

/** 'left', 'absent' or 'timeout' for a bot standing in for a person, else null. */
export function standIn(seat) {
  if (!seat || !botLevel(seat)) return null;
  return REASONS.includes(seat.stand_in) ? seat.stand_in : null;
}

/**
 * Whether the viewer's own seat is played by a bot after three timeouts: they may take it back
 * (`resume` with their token). `me` is the viewer's seat (null unless seated).
 */
export function timedOutSeat(info, me) {
  if (!info || info.state !== 'playing' || me === null || me === undefined) return false;
  return standIn(info.seats[me]) === 'timeout';
}

/**
 * Why a bot plays the viewer's own seat in a running game, 'timeout' or 'absent' (they may take it back with `resume`),
 * else null. `me` is the viewer's seat (null unless seated).
 */
export function botPlaysMine(info, me) {
  if (!info || info.state !== 'playing' || me === null || me === undefined) return null;
  const why = standIn(info.seats[me]);
  return why === 'timeout' || why === 'absent' ? why : null;
}

/**
 * The game as the viewer may play it: while a bot plays their seat (`botPlays`), no legal moves and no undo, so the
 * page shows no "Your turn!", no ▶ in the title and no move controls (the server may still list the seat's moves).
 */
export function playableGame(game, botPlays) {
  return game && botPlays ? { ...game, legal: [], canUndo: false } : game;
}

/** The words after a stand-in bot's name: "(left)", "(away)", "(out of time)"; null for other seats. */
export function standInWords(seat, t) {
  const why = standIn(seat);
  return why ? t(`table.standIn.${why}`) : null;
}

/**
 * Seconds the seat's person has been away at `now` (ms): the frame's `away_s` plus the time since
 * the frame arrived at `receivedAt` (ms). Null for a connected person, a bot or an empty seat.
 */
export function awaySeconds(seat, receivedAt, now) {
  if (!seat || botLevel(seat) || !Number.isInteger(seat.away_s) || seat.away_s < 0) return null;
  const since = Number.isFinite(receivedAt) && Number.isFinite(now) ? Math.max(0, Math.floor((now - receivedAt) / 1000)) : 0;
  return seat.away_s + since;
}

/** "away 6 min" (whole minutes; "away" under a minute); null when not away. */
export function awayWords(seconds, t) {
  if (seconds === null || seconds === undefined) return null;
  const minutes = Math.floor(seconds / 60);
  return minutes < 1 ? t('table.away.justNow') : t('table.away.minutes', { count: minutes });
}

/** The server's threshold from `welcome` (absent_after_s), else its default. */
export function absentThreshold(fromWelcome) {
  return Number.isInteger(fromWelcome) && fromWelcome >= 0 ? fromWelcome : DEFAULT_ABSENT_AFTER_S;
}

/**
 * Whether the viewer in seat `me` (null unless seated) gets "Let a bot play" on `seat`: a running
 * game, another person's seat, away for at least `threshold` seconds (`away` from awaySeconds).
 */
export function canReplace(info, seat, me, away, threshold) {
  if (!info || info.state !== 'playing' || me === null || me === undefined || !seat) return false;
  if (seat.seat === me || !seat.name || botLevel(seat)) return false;
  return away !== null && away !== undefined && away >= threshold;
}

/**
 * Milliseconds from `now` until the next person away reaches `threshold` seconds (when "Let a bot
 * play" should appear), or null when nobody is on the way there. `infoAt` is when `info` arrived.
 */
export function msUntilThreshold(info, infoAt, now, threshold) {
  if (!info || info.state !== 'playing' || !Number.isFinite(threshold)) return null;
  let next = null;
  for (const seat of info.seats) {
    if (botLevel(seat) || !Number.isInteger(seat.away_s) || seat.away_s < 0) continue;
    const due = infoAt + (threshold - seat.away_s) * 1000;
    if (due > now && (next === null || due - now < next)) next = due - now;
  }
  return next;
}

/** Whether the viewer gets "Leave game": seated at a running game. */
export function canLeaveRunning(info, me) {
  return Boolean(info) && info.state === 'playing' && me !== null && me !== undefined;
}
