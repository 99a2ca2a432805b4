// Bots (computer players) as the client sees them, without DOM (tested in
// tests/web-client/bots.test.mjs): the levels and their words, which seat controls a viewer gets
// in a waiting table, and "play against bots" (a private table, bots in every other seat, start).
//
// A bot seat in a table object is {"seat":N,"name":"Bot 1","connected":true,"bot":"normal"};
// other seats have no `bot` field (protocol/README.md, add_bot and remove_bot).

export const BOT_LEVELS = ['easy', 'normal'];
export const DEFAULT_BOT_LEVEL = 'normal';

/** The seat's bot level, or null for a person or an empty seat. */
export function botLevel(seat) {
  return seat && typeof seat.bot === 'string' && seat.bot ? seat.bot : null;
}

/** The bot levels by seat number (null for people and empty seats), for the boards. */
export function botLevels(info) {
  return info ? info.seats.map(botLevel) : [];
}

/** The catalog key and parameters of a level's name ('Easy'); an unknown level is shown as it is. */
export function levelWords(level, t) {
  return BOT_LEVELS.includes(level) ? t(`bot.level.${level}`) : String(level);
}

/** The robot mark's words: "Bot · Normal". */
export function botLabel(level, t) {
  return t('bot.label', { level: levelWords(level, t) });
}

/** Whether nobody (person or bot) sits at the seat. */
function isEmpty(seat) {
  return seat.name === null || seat.name === undefined;
}

/** The seat numbers nobody (person or bot) sits at. */
export function emptySeats(info) {
  return info ? info.seats.filter(isEmpty).map((s) => s.seat) : [];
}

/**
 * The controls a viewer gets on one seat of a table: a list of 'take' (a visitor on an empty
 * seat), 'add-bot' (the creator on an empty seat), 'remove-bot' (the creator on a bot seat).
 * `me` is the viewer's seat, null when not seated. Nothing once the game has started.
 */
export function seatActions(info, seat, me) {
  if (!info || info.state !== 'waiting' || !seat) return [];
  const empty = isEmpty(seat);
  const creator = me !== null && me !== undefined && me === info.creator_seat;
  if (empty) {
    if (me === null || me === undefined) return ['take'];
    return creator ? ['add-bot'] : [];
  }
  if (botLevel(seat) && creator) return ['remove-bot'];
  return [];
}

/** The player counts a game allows ({min_players, max_players} from `welcome`). */
export function playerCounts(game) {
  if (!game) return [];
  const min = Math.max(1, game.min_players || 1);
  const max = Math.max(min, game.max_players || min);
  return Array.from({ length: max - min + 1 }, (_, i) => min + i);
}

/** A failed step of playAgainstBots: `step` is 'create', 'bot' or 'start'; `table` the id if created. */
export class BotSetupError extends Error {
  constructor(step, cause, table) {
    super(cause && cause.message ? cause.message : String(cause));
    this.step = step;
    this.cause = cause;
    this.code = cause && cause.code;
    this.table = table;
  }
}

/**
 * Plays against bots: creates a private table of `game` with `players` seats, puts a bot of
 * `level` in every seat but the creator's, and starts it. `request(message)` sends one request
 * and resolves with the reply (Connection.request). `onProgress({step, n, of})` is told each
 * step before it is sent; `onCreated(reply)` gets the create_table reply (to remember the seat).
 * Resolves with that reply; a failure rejects with a BotSetupError.
 */
export async function playAgainstBots({ request, game, players, level = DEFAULT_BOT_LEVEL, onProgress = () => {}, onCreated = () => {} }) {
  onProgress({ step: 'create' });
  let created;
  try {
    created = await request({ type: 'create_table', game, players, options: {}, private: true });
  } catch (err) {
    throw new BotSetupError('create', err, null);
  }
  const table = created.table.id;
  onCreated(created);
  const seats = emptySeats(created.table).filter((seat) => seat !== created.seat);
  for (const [i, seat] of seats.entries()) {
    onProgress({ step: 'bot', n: i + 1, of: seats.length });
    try {
      await request({ type: 'add_bot', table, seat, level });
    } catch (err) {
      throw new BotSetupError('bot', err, table);
    }
  }
  onProgress({ step: 'start' });
  try {
    await request({ type: 'start', table });
  } catch (err) {
    throw new BotSetupError('start', err, table);
  }
  return created;
}

const BOT_NAME = /^Bot (\d+)$/;

/**
 * The name a seat is shown by: a bot's own seat (a bot level, no stand-in, the server's name "Bot N") in the
 * language's words (`bot.name`, "Bot 1", 「ボット1」); any other seat's name as it is (null when empty). A stand-in
 * keeps the person's name, and a person who chose to be called "Bot 1" is not a bot seat.
 */
export function seatName(seat, t) {
  if (!seat) return null;
  const name = seat.name ?? null;
  if (name === null || !botLevel(seat) || seat.stand_in || typeof t !== 'function') return name;
  const m = BOT_NAME.exec(name);
  return m ? t('bot.name', { n: Number(m[1]) }) : name;
}
