// Client routes (pure): the server answers every path without a '.' in its last segment with
// index.html, and this decides what the path means.
//   /            the lobby
//   /t/<id>      a table (sit again with the remembered token, else watch)
//   /t/<id>/replay  a finished table's game, move by move
//   /i/<invite>  an invite link to a private table
//   /my-games    the games this browser has played or is playing (also #/my-games)
//   /account     the signed-in account's page
//   /account/sign-in, /account/sign-up  signing in or up; `?next=<path>` is where to go afterwards
//   /u/<name>    a player's profile (the name URL-encoded)
//   /leaderboard/<game>  a game's leaderboard (/leaderboard alone: the first game's)
//   /moderation  the open reports (moderators only)
const ID = /^[A-Za-z0-9_-]{1,128}$/;

export function parseRoute(pathname, hash = '') {
  if (hash === '#/my-games') return { name: 'myGames' };
  const parts = String(pathname || '/').split('/').filter(Boolean);
  if (parts.length === 0) return { name: 'lobby' };
  if (parts.length === 1 && parts[0] === 'my-games') return { name: 'myGames' };
  if (parts.length === 1 && parts[0] === 'account') return { name: 'account' };
  if (parts.length === 1 && parts[0] === 'moderation') return { name: 'moderation' };
  if (parts.length === 2 && parts[0] === 'account' && parts[1] === 'sign-in') return { name: 'signIn', mode: 'sign-in' };
  if (parts.length === 2 && parts[0] === 'account' && parts[1] === 'sign-up') return { name: 'signIn', mode: 'sign-up' };
  if (parts.length === 2 && parts[0] === 't' && ID.test(parts[1])) return { name: 'table', id: parts[1] };
  if (parts.length === 3 && parts[0] === 't' && ID.test(parts[1]) && parts[2] === 'replay') return { name: 'replay', id: parts[1] };
  if (parts.length === 2 && parts[0] === 'i' && ID.test(parts[1])) return { name: 'invite', code: parts[1] };
  if (parts.length === 2 && parts[0] === 'u') {
    const player = decoded(parts[1]);
    if (player !== null) return { name: 'profile', player };
  }
  if (parts.length === 1 && parts[0] === 'leaderboard') return { name: 'leaderboard', game: null };
  if (parts.length === 2 && parts[0] === 'leaderboard' && ID.test(parts[1])) return { name: 'leaderboard', game: parts[1] };
  return { name: 'notFound' };
}

/** A path segment decoded, or null when it is not valid percent-encoding or names nothing. */
function decoded(segment) {
  try {
    const text = decodeURIComponent(segment);
    return text.trim() && text.length <= 128 ? text : null;
  } catch {
    return null;
  }
}

export const myGamesPath = '/my-games';
export const profilePath = (name) => `/u/${encodeURIComponent(name)}`;
export const leaderboardPath = (game) => `/leaderboard/${encodeURIComponent(game)}`;
export const tablePath = (id) => `/t/${encodeURIComponent(id)}`;
export const replayPath = (id) => `${tablePath(id)}/replay`;
export const invitePath = (code) => `/i/${encodeURIComponent(code)}`;
export const inviteUrl = (origin, code) => `${origin}${invitePath(code)}`;

export const accountPath = '/account';
export const moderationPath = '/moderation';
/** Signing in (or up, `mode` 'sign-up') and then going back to `next` (a path of this site; none for the lobby). */
export function signInPath(next = '', mode = 'sign-in') {
  const path = `${accountPath}/${mode === 'sign-up' ? 'sign-up' : 'sign-in'}`;
  const back = safeNext(next);
  return back === '/' ? path : `${path}?next=${encodeURIComponent(back)}`;
}
/**
 * Where to go after signing in: `next` (a path, or a `?next=` query) when it is a path of this site that is
 * not the sign-in itself; else the lobby. Never another site's address (//host, a scheme, a backslash).
 */
export function safeNext(next) {
  let path = String(next || '');
  if (path.startsWith('?')) path = new URLSearchParams(path).get('next') || '';
  if (!path.startsWith('/') || path.startsWith('//') || /[\\\s]/.test(path) || path.length > 300) return '/';
  const route = parseRoute(path.split(/[?#]/)[0]);
  return route.name === 'notFound' || route.name === 'signIn' ? '/' : path;
}
