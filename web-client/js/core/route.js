// Client routes (pure): the server answers every path without a '.' in its last segment with
// index.html, and this decides what the path means.
//   /            the lobby
//   /t/<id>      a table (sit again with the remembered token, else watch)
//   /t/<id>/replay  a finished table's game, move by move
//   /i/<invite>  an invite link to a private table
//   /my-games    the games this browser has played or is playing (also #/my-games)
const ID = /^[A-Za-z0-9_-]{1,128}$/;

export function parseRoute(pathname, hash = '') {
  if (hash === '#/my-games') return { name: 'myGames' };
  const parts = String(pathname || '/').split('/').filter(Boolean);
  if (parts.length === 0) return { name: 'lobby' };
  if (parts.length === 1 && parts[0] === 'my-games') return { name: 'myGames' };
  if (parts.length === 2 && parts[0] === 't' && ID.test(parts[1])) return { name: 'table', id: parts[1] };
  if (parts.length === 3 && parts[0] === 't' && ID.test(parts[1]) && parts[2] === 'replay') return { name: 'replay', id: parts[1] };
  if (parts.length === 2 && parts[0] === 'i' && ID.test(parts[1])) return { name: 'invite', code: parts[1] };
  return { name: 'notFound' };
}

export const myGamesPath = '/my-games';
export const tablePath = (id) => `/t/${encodeURIComponent(id)}`;
export const replayPath = (id) => `${tablePath(id)}/replay`;
export const invitePath = (code) => `/i/${encodeURIComponent(code)}`;
export const inviteUrl = (origin, code) => `${origin}${invitePath(code)}`;
