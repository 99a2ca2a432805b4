// Ratings as the client shows them (issue 33; docs/ratings.md has the model), without DOM (tested in
// tests/web-client/ratings.test.mjs). From the server (protocol/README.md):
//   a table:  "rated": true|false; on a rated table a signed-in person's seat has "rating":{"value","provisional"}
//             and a bot's "rating":{"value","provisional":false,"bot":true} (its fixed published number);
//   finished: "rating_changes":[{"seat","before","after","delta","provisional"}], once the update is stored;
//   GET /api/leaderboard/<game>: {"game","min_games","rows":[{"place","name","value","games"}],"you":row|null}.

const MINUS = '\u2212';

/** A rating in figures: "1234", "1000?" while provisional; '' for none. */
export function ratingText(rating) {
  if (!rating || !Number.isFinite(rating.value)) return '';
  return `${Math.round(rating.value)}${rating.provisional ? '?' : ''}`;
}

/** A change in figures: "+23", "−8" (a real minus sign), "±0". */
export function deltaText(delta) {
  const n = Math.round(Number(delta) || 0);
  if (n > 0) return `+${n}`;
  if (n < 0) return `${MINUS}${-n}`;
  return '±0';
}

/** 'up', 'down' or 'same': how a change is coloured. */
export function deltaKind(delta) {
  const n = Math.round(Number(delta) || 0);
  return n > 0 ? 'up' : (n < 0 ? 'down' : 'same');
}

/** Whether a table object says it is rated (an older server's tables are casual). */
export const isRated = (table) => Boolean(table && table.rated === true);

/** A seat's rating on a rated table, or null (casual tables, empty seats, a seat without one). */
export function seatRating(info, seat) {
  if (!isRated(info) || !seat || !seat.name || !seat.rating || !Number.isFinite(seat.rating.value)) return null;
  return { value: seat.rating.value, provisional: seat.rating.provisional === true, bot: seat.rating.bot === true };
}

/**
 * Whether a seat's name links to its player's profile: on a rated table only signed-in people have a rating
 * that is not a bot's (a guest's seat says nothing of an account).
 */
export function hasProfile(info, seat) {
  const r = seatRating(info, seat);
  return Boolean(r && !r.bot && !seat.bot);
}

/**
 * The rating changes of a finished rated table, in seat order: [{seat, name, before, after, delta, text, kind,
 * provisional, you}]; [] while there are none (a casual table, or the update is not stored yet).
 */
export function ratingChanges(info, me = null) {
  if (!isRated(info) || !Array.isArray(info.rating_changes)) return [];
  return info.rating_changes
    .filter((c) => c && Number.isInteger(c.seat) && Number.isFinite(c.after))
    .map((c) => {
      const seat = (info.seats || []).find((s) => s.seat === c.seat);
      const delta = Number.isFinite(c.delta) ? c.delta : c.after - (Number(c.before) || 0);
      return {
        seat: c.seat, name: seat && seat.name ? seat.name : null, before: c.before, after: c.after, delta,
        text: deltaText(delta), kind: deltaKind(delta), provisional: c.provisional === true, you: c.seat === me,
      };
    })
    .sort((a, b) => a.seat - b.seat);
}

/** Whether a finished rated table still waits for its rating update (the server sends it once stored). */
export function changesPending(info) {
  return isRated(info) && info.state === 'finished' && !Array.isArray(info.rating_changes);
}

/** Whether leaving now costs the viewer rating: seated (`me`) at a rated game that is running. */
export function leavingCounts(info, me) {
  return isRated(info) && info.state === 'playing' && me !== null && me !== undefined;
}

/** The create form's "Rated" switch: on by default when signed in; a guest's is off and cannot be turned on. */
export function ratedChoice(signedIn) {
  return signedIn ? { checked: true, disabled: false } : { checked: false, disabled: true };
}

/** Whether a guest would be refused a seat at this table (rated_needs_account): the page explains instead. */
export function needsAccount(table, signedIn) {
  return isRated(table) && !signedIn;
}

/** Case and spaces aside, as the server matches names (sign-in, profiles). */
const fold = (name) => String(name || '').trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The leaderboard as shown: {game, minGames, rows: [{place, name, value, games, you}], you, beyond}. `you` is
 * the viewer's row when they qualify (the server says so, or their name is on a row); `beyond` is true when
 * it is not among the rows shown ("you are #120").
 */
export function leaderboardView(reply, viewerName = null) {
  const rows = (reply && Array.isArray(reply.rows) ? reply.rows : [])
    .filter((r) => r && typeof r.name === 'string' && Number.isFinite(r.value));
  const claimed = reply && reply.you && typeof reply.you.name === 'string' ? reply.you : null;
  const mine = (r) => (claimed ? fold(r.name) === fold(claimed.name) : viewerName !== null && fold(r.name) === fold(viewerName));
  const shown = rows.map((r) => ({
    place: r.place, name: r.name, value: Math.round(r.value), games: r.games, you: mine(r),
  }));
  const onList = shown.find((r) => r.you) || null;
  const you = onList || (claimed ? { place: claimed.place, name: claimed.name, value: Math.round(claimed.value), games: claimed.games, you: true } : null);
  return {
    game: reply && typeof reply.game === 'string' ? reply.game : null,
    minGames: reply && Number.isInteger(reply.min_games) ? reply.min_games : null,
    rows: shown,
    you,
    beyond: Boolean(you) && !onList,
  };
}

const count = (n) => (Number.isInteger(n) && n >= 0 ? n : 0);

/**
 * A profile's games (GET /api/players/<name>), in the server's order: [{game, rating: {value, provisional}|null,
 * played, won, finished, left, history: [{at, value, delta, table}] oldest first}].
 */
export function profileGames(reply) {
  return (reply && Array.isArray(reply.games) ? reply.games : [])
    .filter((g) => g && typeof g.game === 'string')
    .map((g) => ({
      game: g.game,
      rating: g.rating && Number.isFinite(g.rating.value) ? { value: g.rating.value, provisional: g.rating.provisional === true } : null,
      played: count(g.played),
      won: count(g.won),
      finished: count(g.finished),
      left: count(g.left),
      history: (Array.isArray(g.history) ? g.history : []).filter((p) => p && Number.isFinite(p.value)),
    }));
}

/**
 * A profile's recent games, newest first: [{table, game, finishedAt, players, rank, rated, delta (null at a
 * casual table), private, left}].
 */
export function recentRows(reply) {
  return (reply && Array.isArray(reply.recent) ? reply.recent : [])
    .filter((r) => r && typeof r.table === 'string' && typeof r.game === 'string')
    .map((r) => ({
      table: r.table,
      game: r.game,
      finishedAt: Number.isFinite(r.finished_at) ? r.finished_at : 0,
      players: count(r.players),
      rank: Number.isInteger(r.rank) ? r.rank : null,
      rated: r.rated === true,
      delta: r.rated === true && Number.isFinite(r.delta) ? r.delta : null,
      private: r.private === true,
      left: r.left === true,
    }));
}
