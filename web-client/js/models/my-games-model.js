// "My games" without DOM (tested in tests/web-client/my-games-model.test.mjs): the request built
// from the seat tokens this browser keeps, and the rows shown from the reply.
//
// {"type":"my_games","tokens":[...]} (at most MAX_TOKENS) → {"type":"my_games","games":[G...],"unknown":[tokens]}
// with G = {token, table, game, state, seat, seats:[{seat,name,bot?}], your_turn, result, updated,
// invite?}; `result` is the engine's {"ranking":[{"player","rank",...}],"winners":[...]} or null.
// A token the server does not know (the seat was lost) is in `unknown`: the client forgets it.
import { listText } from '../core/i18n/index.js';

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

/** Names by seat of a game entry (null for an empty seat). */
function namesOf(game) {
  const names = [];
  for (const s of game.seats || []) if (Number.isInteger(s.seat)) names[s.seat] = s.name ?? null;
  return names;
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
 * [{seat, name, bot, you}], result (resultFor plus self), updated, invite}.
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
      };
    })
    .sort((a, b) => (Number(b.yourTurn) - Number(a.yourTurn)) ||
      ((ORDER[a.state] ?? 3) - (ORDER[b.state] ?? 3)) || (b.updated - a.updated));
}
