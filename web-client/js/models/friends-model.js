// Friends, friend requests, blocks and invitations as the client keeps them (issue 34), without DOM (tested in
// tests/web-client/friends-model.test.mjs). From the server (WebSocket, docs/client.md "Friends"):
//   friends     the whole state once (the reply to {"type":"friends"}): friends with presence, incoming and
//               outgoing requests, blocked names, pending invitations;
//   friend      one name's relation after a change (a reply, or pushed): upserted by name, `none` removes it;
//   invitation  an invitation to a table (pushed); it goes when the invitee joins or declines, or the table starts.
// Every function returns a new state; none is modified.

/** The state before the first `friends` frame (and a guest's, always). */
export const emptyFriends = () => ({ friends: [], incoming: [], outgoing: [], blocked: [], invitations: [] });

/** A name as the server matches it: case aside, NFKC. */
const fold = (name) => String(name ?? '').normalize('NFKC').toLowerCase();
export const sameName = (a, b) => fold(a) === fold(b);

const PRESENCE_ORDER = { playing: 0, online: 1, offline: 2 };
const byName = (a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.name.localeCompare(b.name);
const isName = (x) => x && typeof x.name === 'string' && x.name !== '';

/** Presence as shown: {status, table?, game?, lastSeen?}; anything unknown is offline. */
function presenceOf(p) {
  const status = p && Object.hasOwn(PRESENCE_ORDER, p.status) ? p.status : 'offline';
  const out = { status };
  if (status === 'playing' && typeof p.table === 'string' && p.table) out.table = p.table;
  if (status === 'playing' && typeof p.game === 'string' && p.game) out.game = p.game;
  if (status === 'offline' && p && Number.isFinite(p.last_seen) && p.last_seen > 0) out.lastSeen = p.last_seen;
  return out;
}

/** Friends in the panel's order: playing, online, offline, then by name. */
export function sortFriends(list) {
  return [...list].sort((a, b) => PRESENCE_ORDER[a.presence.status] - PRESENCE_ORDER[b.presence.status] || byName(a, b));
}

/** The friends the table page offers to invite: online first (free to come), then playing, then offline. */
export function inviteChoices(state) {
  const order = { online: 0, playing: 1, offline: 2 };
  return [...state.friends].sort((a, b) => order[a.presence.status] - order[b.presence.status] || byName(a, b));
}

function invitationOf(f) {
  if (!f || typeof f.table !== 'string' || !f.table) return null;
  return {
    table: f.table, game: typeof f.game === 'string' ? f.game : '', from: typeof f.from === 'string' ? f.from : '',
    players: Number.isInteger(f.players) ? f.players : null, invite: typeof f.invite === 'string' && f.invite ? f.invite : null,
    at: Number.isFinite(f.at) ? f.at : 0,
  };
}

const friendOf = (x) => ({ name: x.name, presence: presenceOf(x.presence), ...(Number.isFinite(x.since) ? { since: x.since } : {}) });
const requestOf = (x) => ({ name: x.name, at: Number.isFinite(x.at) ? x.at : 0 });

/** The state a `friends` frame says, whole. */
export function applyFriends(frame) {
  const list = (key) => (Array.isArray(frame && frame[key]) ? frame[key].filter(isName) : []);
  return {
    friends: sortFriends(list('friends').map(friendOf)),
    incoming: list('incoming').map(requestOf).sort(byName),
    outgoing: list('outgoing').map(requestOf).sort(byName),
    blocked: list('blocked').map((x) => ({ name: x.name })).sort(byName),
    invitations: (Array.isArray(frame && frame.invitations) ? frame.invitations : []).map(invitationOf).filter(Boolean)
      .sort((a, b) => a.at - b.at),
  };
}

/**
 * The state after a `friend` frame: the name leaves every list and joins the one its relation says (`none`: no
 * list). A friend keeps the date of the friendship across presence changes; a blocked name's invitations go.
 */
export function applyFriend(state, frame, nowS = Math.floor(Date.now() / 1000)) {
  if (!isName(frame)) return state;
  const other = (x) => !sameName(x.name, frame.name);
  const before = state.friends.find((x) => !other(x));
  const next = {
    friends: state.friends.filter(other),
    incoming: state.incoming.filter(other),
    outgoing: state.outgoing.filter(other),
    blocked: state.blocked.filter(other),
    invitations: state.invitations,
  };
  switch (frame.relation) {
    case 'friend':
      next.friends = sortFriends([...next.friends,
        friendOf({ since: before ? before.since : undefined, ...frame, presence: frame.presence })]);
      break;
    case 'incoming':
    case 'outgoing':
      next[frame.relation] = [...next[frame.relation], requestOf({ at: nowS, ...frame })].sort(byName);
      break;
    case 'blocked':
      next.blocked = [...next.blocked, { name: frame.name }].sort(byName);
      next.invitations = state.invitations.filter((i) => !sameName(i.from, frame.name));
      break;
    default:
      break;
  }
  return next;
}

/** 'friend', 'incoming', 'outgoing', 'blocked' or 'none': where `name` is. */
export function relationOf(state, name) {
  const has = (list) => list.some((x) => sameName(x.name, name));
  if (has(state.friends)) return 'friend';
  if (has(state.incoming)) return 'incoming';
  if (has(state.outgoing)) return 'outgoing';
  if (has(state.blocked)) return 'blocked';
  return 'none';
}

/** The state with an `invitation` frame's invitation (a newer one to the same table replaces it). */
export function addInvitation(state, frame) {
  const inv = invitationOf(frame);
  if (!inv) return state;
  return { ...state, invitations: [...state.invitations.filter((i) => i.table !== inv.table), inv] };
}

/** The state without the invitation to `table` (joined, declined, or gone). */
export function removeInvitation(state, table) {
  if (!state.invitations.some((i) => i.table === table)) return state;
  return { ...state, invitations: state.invitations.filter((i) => i.table !== table) };
}

/** After news of a table (a `table` or lobby frame's table): an invitation to it goes once it is not waiting. */
export function tableNews(state, table) {
  return table && typeof table.id === 'string' && table.state !== 'waiting' ? removeInvitation(state, table.id) : state;
}

/** The join request that accepts an invitation: by its invite code, else by the table. */
export const joinRequest = (inv) => (inv.invite ? { type: 'join', invite: inv.invite } : { type: 'join', table: inv.table });

/** Whether a refusal of a join, an invite or a decline means the invitation is gone for good. */
export const invitationGone = (code) => ['no_such_table', 'no_such_invitation', 'already_started', 'table_full', 'cannot_join',
  'friends_only', 'blocked_player'].includes(code);

/** "3 hours ago" (short, the language's own way) for a time in Unix seconds, as of `nowMs`. */
export function agoText(seconds, nowMs, lang) {
  const diff = Math.max(0, nowMs / 1000 - seconds);
  let value;
  let unit;
  if (diff < 3600) [value, unit] = [Math.max(1, Math.round(diff / 60)), 'minute'];
  else if (diff < 86400) [value, unit] = [Math.round(diff / 3600), 'hour'];
  else [value, unit] = [Math.round(diff / 86400), 'day'];
  let format;
  try {
    format = new Intl.RelativeTimeFormat(lang, { style: 'narrow' });
  } catch {
    format = new Intl.RelativeTimeFormat('en', { style: 'narrow' });
  }
  return format.format(-value, unit);
}

/**
 * A friend's presence in words: {status, text, table} where `table` (a table to link to) is only there while
 * playing at a table friends may see. `tr` is t (or a test's own), `gameTitle(id)` names a game.
 */
export function presenceWords(presence, { tr, lang = 'en', nowMs = Date.now(), gameTitle = (id) => id }) {
  const p = presence || { status: 'offline' };
  if (p.status === 'playing') {
    return { status: 'playing', text: p.game ? tr('friends.presence.playingGame', { game: gameTitle(p.game) }) : tr('friends.presence.playing'), table: p.table || null };
  }
  if (p.status === 'online') return { status: 'online', text: tr('friends.presence.online'), table: null };
  const text = p.lastSeen ? tr('friends.presence.lastSeen', { when: agoText(p.lastSeen, nowMs, lang) }) : tr('friends.presence.offline');
  return { status: 'offline', text, table: null };
}
