// Turn clocks as the client sees them, without DOM (tested in tests/web-client/clock.test.mjs).
//
// A timed table's object carries its configuration, "clock":{"turn":S,"reserve":R} (seconds): each
// decision gets S seconds, then the seat's reserve of R seconds runs down. create_table takes the
// same object; no `clock` means untimed.
// Once it has started, the frames snapshot, events, table, seated and watching carry the live clock
// (protocol/README.md, turn clocks):
//   "clock":{"reserve_ms":[ms per seat],"timeouts":[in a row per seat],"running":R}
// with R null (nobody on the clock) or {"seat":p,"turn_ms":t,"reserve_ms":r} as at the moment the
// frame was sent. The client counts t down to 0, then r, from when the frame arrived: durations
// only, never a wall-clock time from the server.
// Vacations (issue 35): on a correspondence clock (a day per move) a player on vacation does not lose time. While
// the seat to decide is on vacation the live clock has "paused":{"seat","turn_ms","reserve_ms"} (the time it has,
// standing still) and R is null; when the vacation ends, R is back with the same times. A table whose creator
// forbade vacations has "vacations":false in its configuration.

/** What the server accepts (seconds). */
export const CLOCK_LIMITS = Object.freeze({ turn: { min: 5, max: 86400 }, reserve: { min: 0, max: 86400 } });

/** The presets offered when a table is created; 'custom' lets the creator type both numbers. */
export const CLOCK_PRESETS = Object.freeze([
  { id: 'untimed', clock: null },
  { id: 'fast', clock: { turn: 20, reserve: 120 } },
  { id: 'normal', clock: { turn: 60, reserve: 300 } },
  { id: 'relaxed', clock: { turn: 86400, reserve: 0 } },
]);
export const DEFAULT_PRESET = 'untimed';
export const CUSTOM_PRESET = 'custom';

/**
 * The shortest turn of a correspondence clock, where vacations stop the clock: a day per move (the server's
 * --correspondence-turn-s, whose default is also the longest turn it accepts). The create form offers "Allow
 * vacations" for such a clock only.
 */
export const CORRESPONDENCE_TURN_S = 86400;

/** The last seconds in which the clock turns red. */
export const URGENT_MS = 10000;

/** After this many timeouts in a row a bot takes the seat (the server decides; shown as a warning). */
export const TIMEOUTS_TO_TAKEOVER = 3;

const inRange = (n, { min, max }) => Number.isInteger(n) && n >= min && n <= max;

/** Whether `clock` is a configuration the server accepts. */
export function validClock(clock) {
  return Boolean(clock) && inRange(clock.turn, CLOCK_LIMITS.turn) && inRange(clock.reserve, CLOCK_LIMITS.reserve);
}

/**
 * The `clock` field of create_table for a preset id ('custom' takes `custom` = {turn, reserve} as
 * typed, in seconds). Returns {clock} (null for untimed) or {error: 'turn' | 'reserve' | 'preset'}.
 */
export function presetClock(id, custom = null) {
  if (id === CUSTOM_PRESET) {
    const turn = Number(custom && custom.turn);
    const reserve = Number(custom && custom.reserve);
    if (!inRange(turn, CLOCK_LIMITS.turn)) return { error: 'turn' };
    if (!inRange(reserve, CLOCK_LIMITS.reserve)) return { error: 'reserve' };
    return { clock: { turn, reserve } };
  }
  const preset = CLOCK_PRESETS.find((p) => p.id === id);
  if (!preset) return { error: 'preset' };
  return { clock: preset.clock ? { ...preset.clock } : null };
}

/** Whether a configuration is a correspondence clock, where the creator may forbid vacations. */
export function offersVacations(clock) {
  return Boolean(clock) && clock.turn >= CORRESPONDENCE_TURN_S;
}

/** The configuration create_table gets: "vacations":false only when a correspondence clock forbids them. */
export function withVacations(clock, allowed) {
  return offersVacations(clock) && !allowed ? { ...clock, vacations: false } : clock;
}

/** The preset a configuration matches ('custom' for another one, 'untimed' for none). */
export function presetOf(clock) {
  if (!clock) return 'untimed';
  const found = CLOCK_PRESETS.find((p) => p.clock && p.clock.turn === clock.turn && p.clock.reserve === clock.reserve);
  return found ? found.id : CUSTOM_PRESET;
}

/** A duration in seconds in words: "20 s", "60 s", "2 min", "3 h", "1 day". */
export function durationWords(seconds, t) {
  const s = Math.max(0, Math.round(seconds));
  if (s >= 86400 && s % 86400 === 0) return t('clock.days', { count: s / 86400 });
  if (s >= 7200 && s % 3600 === 0) return t('clock.hours', { count: s / 3600 });
  if (s >= 120 && s % 60 === 0) return t('clock.minutes', { count: s / 60 });
  return t('clock.seconds', { count: s });
}

/** A configuration in words: "20 s + 2 min", "1 day per move", "1 day per move, no vacations", "Untimed". */
export function clockWords(clock, t) {
  if (!clock) return t('clock.untimed');
  const turn = durationWords(clock.turn, t);
  const words = clock.reserve > 0 ? t('clock.withReserve', { turn, reserve: durationWords(clock.reserve, t) }) : t('clock.perMove', { turn });
  return clock.vacations === false ? t('clock.noVacations', { clock: words }) : words;
}

const nonNegative = (n) => (Number.isFinite(n) && n > 0 ? n : 0);

/**
 * The live clock of a frame, kept with the time it arrived (`receivedAt`, ms on the client's own
 * clock), or null when the frame has none.
 */
export function readLive(frameClock, receivedAt) {
  if (!frameClock || typeof frameClock !== 'object') return null;
  const r = frameClock.running;
  const p = frameClock.paused;
  return {
    at: receivedAt,
    reserveMs: Array.isArray(frameClock.reserve_ms) ? frameClock.reserve_ms.map(nonNegative) : [],
    timeouts: Array.isArray(frameClock.timeouts) ? frameClock.timeouts.map((n) => (Number.isInteger(n) && n > 0 ? n : 0)) : [],
    running: r && Number.isInteger(r.seat) ? { seat: r.seat, turnMs: nonNegative(r.turn_ms), reserveMs: nonNegative(r.reserve_ms) } : null,
    // As in the frame: only while a decision is paused.
    ...(p && Number.isInteger(p.seat) ? { paused: { seat: p.seat, turnMs: nonNegative(p.turn_ms), reserveMs: nonNegative(p.reserve_ms) } } : {}),
  };
}

/**
 * Where the running seat's clock stands at `now`: the turn's own time first, then the reserve.
 * Returns null when nobody is on the clock, else {seat, turnMs, reserveMs, leftMs, phase, urgent}
 * where phase is 'turn', 'reserve' or 'out' (both used up: the server's bot moves any moment) and
 * urgent is true in the last URGENT_MS; with `paused: true` while the seat is on vacation (its time stands still,
 * never urgent).
 */
export function countdown(live, now) {
  if (!live || !(live.running || live.paused)) return null;
  const paused = !live.running;
  const { seat, turnMs, reserveMs } = paused ? live.paused : live.running;
  const elapsed = paused ? 0 : Math.max(0, now - live.at);
  const turnLeft = Math.max(0, turnMs - elapsed);
  const reserveLeft = Math.max(0, reserveMs - Math.max(0, elapsed - turnMs));
  const leftMs = turnLeft + reserveLeft;
  const phase = turnLeft > 0 ? 'turn' : (reserveLeft > 0 ? 'reserve' : 'out');
  const c = { seat, turnMs: turnLeft, reserveMs: reserveLeft, leftMs, phase, urgent: !paused && leftMs <= URGENT_MS };
  return paused ? { ...c, paused: true } : c;
}

/** A seat's reserve at `now`: the running seat's as it runs down, the others' as last sent. */
export function reserveAt(live, seat, now) {
  if (!live) return null;
  const c = countdown(live, now);
  if (c && c.seat === seat) return c.reserveMs;
  return Number.isFinite(live.reserveMs[seat]) ? live.reserveMs[seat] : null;
}

/** "0:07", "4:59", "1:02:03"; a day or more as "1 d 3 h". Whole seconds, rounded up (0:01 until it is over). */
export function formatMs(ms, t) {
  const total = Math.ceil(Math.max(0, ms) / 1000);
  const days = Math.floor(total / 86400);
  if (days > 0) return t('clock.dayHours', { days, hours: Math.floor((total % 86400) / 3600) });
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const two = (n) => String(n).padStart(2, '0');
  return hours > 0 ? `${hours}:${two(minutes)}:${two(seconds)}` : `${minutes}:${two(seconds)}`;
}

/** How long until the shown countdown changes next (the next whole second), for the timer. */
export function msToNextTick(c) {
  if (!c || c.paused || c.phase === 'out') return null;
  const left = c.phase === 'turn' ? c.turnMs : c.reserveMs;
  const rest = left % 1000;
  return rest === 0 ? 1000 : rest;
}

/**
 * What screen readers hear (an aria-live polite region), changing only when something meaningful
 * does: another seat on the clock, the switch to the reserve, the last URGENT_MS, the time running out, a clock
 * paused for a vacation.
 * Returns {change, text} where `change` says when it changed; text '' when there is nothing to say.
 * `me` is the viewer's seat (null unless seated); `names` the names by seat.
 */
export function announcement(c, me, names, t) {
  if (!c) return { change: 'none', text: '' };
  const mine = me !== null && me !== undefined && c.seat === me;
  const name = names[c.seat] || t('common.player', { n: c.seat + 1 });
  const stage = c.paused ? 'paused' : (c.phase === 'out' ? 'out' : (c.urgent ? 'urgent' : c.phase));
  const change = `${c.seat}|${stage}`;
  // The turn indicator already says whose turn it is: the clock speaks only when time gets short.
  if (stage === 'turn') return { change, text: '' };
  return { change, text: t(`clock.say.${stage}.${mine ? 'you' : 'other'}`, { name }) };
}
