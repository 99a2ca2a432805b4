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

/** A configuration in words: "20 s + 2 min", "1 day per move", "Untimed". */
export function clockWords(clock, t) {
  if (!clock) return t('clock.untimed');
  const turn = durationWords(clock.turn, t);
  return clock.reserve > 0 ? t('clock.withReserve', { turn, reserve: durationWords(clock.reserve, t) }) : t('clock.perMove', { turn });
}

const nonNegative = (n) => (Number.isFinite(n) && n > 0 ? n : 0);

/**
 * The live clock of a frame, kept with the time it arrived (`receivedAt`, ms on the client's own
 * clock), or null when the frame has none.
 */
export function readLive(frameClock, receivedAt) {
  if (!frameClock || typeof frameClock !== 'object') return null;
  const r = frameClock.running;
  return {
    at: receivedAt,
    reserveMs: Array.isArray(frameClock.reserve_ms) ? frameClock.reserve_ms.map(nonNegative) : [],
    timeouts: Array.isArray(frameClock.timeouts) ? frameClock.timeouts.map((n) => (Number.isInteger(n) && n > 0 ? n : 0)) : [],
    running: r && Number.isInteger(r.seat) ? { seat: r.seat, turnMs: nonNegative(r.turn_ms), reserveMs: nonNegative(r.reserve_ms) } : null,
  };
}

/**
 * Where the running seat's clock stands at `now`: the turn's own time first, then the reserve.
 * Returns null when nobody is on the clock, else {seat, turnMs, reserveMs, leftMs, phase, urgent}
 * where phase is 'turn', 'reserve' or 'out' (both used up: the server's bot moves any moment) and
 * urgent is true in the last URGENT_MS.
 */
export function countdown(live, now) {
  if (!live || !live.running) return null;
  const { seat, turnMs, reserveMs } = live.running;
  const elapsed = Math.max(0, now - live.at);
  const turnLeft = Math.max(0, turnMs - elapsed);
  const reserveLeft = Math.max(0, reserveMs - Math.max(0, elapsed - turnMs));
  const leftMs = turnLeft + reserveLeft;
  const phase = turnLeft > 0 ? 'turn' : (reserveLeft > 0 ? 'reserve' : 'out');
  return { seat, turnMs: turnLeft, reserveMs: reserveLeft, leftMs, phase, urgent: leftMs <= URGENT_MS };
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
  if (!c || c.phase === 'out') return null;
  const left = c.phase === 'turn' ? c.turnMs : c.reserveMs;
  const rest = left % 1000;
  return rest === 0 ? 1000 : rest;
}

/**
 * What screen readers hear (an aria-live polite region), changing only when something meaningful
 * does: another seat on the clock, the switch to the reserve, the last URGENT_MS, the time running out.
 * Returns {change, text} where `change` says when it changed; text '' when there is nothing to say.
 * `me` is the viewer's seat (null unless seated); `names` the names by seat.
 */
export function announcement(c, me, names, t) {
  if (!c) return { change: 'none', text: '' };
  const mine = me !== null && me !== undefined && c.seat === me;
  const name = names[c.seat] || t('common.player', { n: c.seat + 1 });
  const stage = c.phase === 'out' ? 'out' : (c.urgent ? 'urgent' : c.phase);
  const change = `${c.seat}|${stage}`;
  // The turn indicator already says whose turn it is: the clock speaks only when time gets short.
  if (stage === 'turn') return { change, text: '' };
  return { change, text: t(`clock.say.${stage}.${mine ? 'you' : 'other'}`, { name }) };
}
