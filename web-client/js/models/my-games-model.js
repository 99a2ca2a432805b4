// "My games" without DOM (tested in tests/web-client/my-games-model.test.mjs): the request built
// from the seat tokens this browser keeps, and the rows shown from the reply.
//
// {"type":"my_games","tokens":[...]} (at most MAX_TOKENS) → {"type":"my_games","games":[G...],"unknown":[tokens]}
// with G = {token, table, game, state, seat, seats:[{seat,name,bot?}], your_turn, result, updated,
// invite?, to_move:[seats], clock:{seat,left_ms,paused?}|null}; `result` is the engine's
// {"ranking":[{"player","rank",...}],"winners":[...]} or null; `clock` is a timed game's running decision
// ("paused":true while its player is on vacation: left_ms stands still).
// A token the server does not know (the seat was lost) is in `unknown`: the client forgets it.
import { listText } from '../core/i18n/index.js';
import { durationWords, formatMs } from './clock-rules.js';
import { seatName } from './bots.js';

export const MAX_TOKENS = 50;

const ORDER = { playing: 0, waiting: 1, finished: 2 };

/** The tokens to ask about, newest seat first: `seats` is [{table, token, savedAt}]. */
export function tokensToAsk(seats) {
  return [...seats]
    .filter((s) => typeof s.token === 'string' && s.token && s.token.length <= 100)
    .sort((a, b) => (b.savedAt || 0) - (a.savedAt || 0))
    .slice(0, MAX_TOKENS)
    .map((s) => s.token);
}

/** The tables whose tokens the server reported unknown (to forget): `seats` is [{table, token}]. */
export function tablesToForget(reply, seats) {
  const unknown = new Set(reply && Array.isArray(reply.unknown) ? reply.unknown : []);
  return seats.filter((s) => unknown.has(s.token)).map((s) => s.table);
}

/**
 * The result from the viewer's side: null while there is none, else
 * {winners:[seat...], rank, of, won, shared} where rank is the viewer's place (null if not ranked).
 */
export function resultFor(result, seat) {
  if (!result || !Array.isArray(result.ranking)) return null;
  const winners = Array.isArray(result.winners) ? result.winners : result.ranking.filter((r) => r.rank === 1).map((r) => r.player);
  const mine = result.ranking.find((r) => r.player === seat);
  const rank = mine && Number.isInteger(mine.rank) ? mine.rank : null;
  return { winners, rank, of: result.ranking.length, won: winners.includes(seat), shared: winners.length > 1 };
}

/** Names by seat of a game entry (null for an empty seat); with `t`, a bot's own "Bot N" in the language's words. */
function namesOf(game, t) {
  const names = [];
  for (const s of game.seats || []) if (Number.isInteger(s.seat)) names[s.seat] = seatName(s, t);
  return names;
}

/** Names by seat of a row's players (gameRows), as shown: a bot's own "Bot N" in the language's words. */
export function rowNames(row, t) {
  const names = [];
  for (const p of row.players || []) if (Number.isInteger(p.seat)) names[p.seat] = seatName(p, t);
  return names;
}

/**
 * Whether a row (gameRows or inProgress) is a running game of the viewer against bots only: every other seat a bot.
 * The server lets the bots finish such a game, when casual, once its person has been away `forsaken_after_s`.
 */
export function againstBotsOnly(row) {
  if (!row || row.state !== undefined && row.state !== 'playing') return false;
  const others = row.others || (row.players || []).filter((p) => !p.you);
  return others.length > 0 && others.every((p) => Boolean(p.bot));
}

/**
 * "Against bots: a casual game ends by itself: the bots finish it if you stay away 3 days" for a running game against
 * bots only, '' otherwise: a rated game (the server never ends one for its person), or a server that does not end such
 * games (`forsakenAfterS` not a positive integer).
 */
export function forsakenWords(row, forsakenAfterS, t) {
  if (!againstBotsOnly(row) || row.rated || !Number.isInteger(forsakenAfterS) || forsakenAfterS <= 0) return '';
  return t('myGames.forsaken', { time: durationWords(forsakenAfterS, t) });
}

/**
 * The result in words: "You won", "You won, shared with Bo", "Ann won · you came 2nd of 3".
 * `names` are the names by seat.
 */
export function resultWords(r, names, t) {
  const list = (items) => listText(items, t);
  if (!r) return '';
  const others = r.winners.filter((w) => !r.won || w !== r.self).map((w) => names[w] || t('common.player', { n: w + 1 }));
  if (r.won) return r.shared ? t('myGames.result.wonShared', { names: list(others) }) : t('myGames.result.won');
  const who = t(r.winners.length > 1 ? 'myGames.result.winners' : 'myGames.result.winner', { names: list(others) });
  return r.rank !== null ? t('myGames.result.withRank', { winners: who, rank: r.rank, of: r.of }) : who;
}

/**
 * The rows of the page from the reply: your turn first, then running, waiting and finished games,
 * most recently updated first within each. Each row: {table, game, state, seat, yourTurn, players:
 * [{seat, name, bot, you}], result (resultFor plus self), updated, invite, rated}.
 */
export function gameRows(reply) {
  const games = reply && Array.isArray(reply.games) ? reply.games : [];
  return games
    .filter((g) => g && typeof g.table === 'string')
    .map((g) => {
      const r = g.state === 'finished' ? resultFor(g.result, g.seat) : null;
      return {
        table: g.table,
        game: g.game,
        state: g.state,
        seat: g.seat,
        yourTurn: g.state === 'playing' && g.your_turn === true,
        players: (g.seats || []).map((s) => ({ seat: s.seat, name: s.name ?? null, bot: s.bot || null, you: s.seat === g.seat })),
        names: namesOf(g),
        result: r ? { ...r, self: g.seat } : null,
        updated: Number.isFinite(g.updated) ? g.updated : 0,
        invite: typeof g.invite === 'string' ? g.invite : null,
        rated: g.rated === true,
      };
    })
    .sort((a, b) => (Number(b.yourTurn) - Number(a.yourTurn)) ||
      ((ORDER[a.state] ?? 3) - (ORDER[b.state] ?? 3)) || (b.updated - a.updated));
}

/** The time left on a clock, coarsely: the running decision as the reply had it. null: no clock. */
function leftMsOf(g) {
  const c = g.clock;
  return c && typeof c === 'object' && Number.isFinite(c.left_ms) ? Math.max(0, c.left_ms) : null;
}

/**
 * Least time left first; games without a running clock (untimed, or paused for a vacation) after those with one;
 * then the longest untouched first.
 */
function byUrgency(a, b) {
  const left = (r) => (r.paused ? null : r.leftMs);
  if (left(a) !== left(b)) {
    if (left(a) === null) return 1;
    if (left(b) === null) return -1;
    return left(a) - left(b);
  }
  return a.updated - b.updated;
}

/**
 * The signed-in player's games in progress from a my_games reply's `games`: the running ones split into
 * `waiting` (your turn) and `others`, each sorted by byUrgency. Each row: {table, game, seat, yourTurn,
 * others: [{seat, name, bot}] (the other players), movers: [{seat, name, you}] (whose decision it is),
 * leftMs (the mover's time left, null when untimed), paused (the mover is on vacation), updated}.
 */
export function inProgress(games) {
  const rows = (Array.isArray(games) ? games : [])
    .filter((g) => g && typeof g.table === 'string' && g.state === 'playing')
    .map((g) => {
      const names = namesOf(g);
      const bots = [];
      for (const st of g.seats || []) if (Number.isInteger(st.seat)) bots[st.seat] = st.bot || null;
      const toMove = Array.isArray(g.to_move) ? g.to_move.filter(Number.isInteger) : [];
      return {
        table: g.table,
        game: g.game,
        seat: g.seat,
        yourTurn: g.your_turn === true,
        others: (g.seats || []).filter((s) => s.seat !== g.seat).map((s) => ({ seat: s.seat, name: s.name ?? null, bot: s.bot || null })),
        movers: toMove.map((seat) => ({ seat, name: names[seat] ?? null, bot: bots[seat] || null, you: seat === g.seat })),
        leftMs: leftMsOf(g),
        paused: Boolean(g.clock && g.clock.paused === true),
        updated: Number.isFinite(g.updated) ? g.updated : 0,
      };
    });
  return {
    waiting: rows.filter((r) => r.yourTurn).sort(byUrgency),
    others: rows.filter((r) => !r.yourTurn).sort(byUrgency),
  };
}

/** Who is to move in words: "Your turn", "Bo to move", "Bo and Cy to move"; '' when not known. */
export function moverWords(row, t) {
  if (row.yourTurn) return t('myGames.yourTurn');
  if (row.movers.length === 0) return '';
  const names = row.movers.map((m) => (m.you ? t('common.you') : seatName(m, t) || t('common.player', { n: m.seat + 1 })));
  return t('inProgress.toMove', { names: listText(names, t) });
}

/**
 * The time left in words, coarse as a list wants it: "1 d 3 h left", "23 h left", "45 min left", "30 s left";
 * '' when untimed. Rounded down (an hour and a half is "90 min").
 */
export function leftWords(ms, t) {
  if (ms === null || ms === undefined) return '';
  const s = Math.max(0, ms) / 1000;
  let time;
  if (s >= 86400) time = formatMs(ms, t);
  else if (s >= 7200) time = durationWords(Math.floor(s / 3600) * 3600, t);
  else if (s >= 120) time = durationWords(Math.floor(s / 60) * 60, t);
  else time = durationWords(Math.ceil(s), t);
  return t('inProgress.left', { time });
}

/** A row's clock in words: "paused (vacation)" while its mover is on vacation, else leftWords. */
export function rowClockWords(row, t) {
  return row.paused ? t('inProgress.paused') : leftWords(row.leftMs, t);
}
