// A table's chat log (pure): the lines as the server sends them (`chat` frames, `chat_history`), merged by their
// id, and what each tab shows: the players' lines ("Table") or the spectators' ("Spectators"), without the
// names this viewer muted. Mutes are kept here too, because the server forgets them with the connection: the
// table page sends them again after each reconnection. Also the words of a moderator's decision.
import { timeWords } from './account-rules.js';

const KEPT = 300;

/** A name as a key: case and width ignored (the server matches names so). */
export const nameKey = (name) => String(name || '').normalize('NFKC').toLowerCase();

/** A line as kept: {id, from, seat, channel, text, at}; a line without a channel is a spectator's when it has no seat. */
export function chatLine(f) {
  const seat = Number.isInteger(f.seat) ? f.seat : null;
  const channel = f.channel === 'players' || f.channel === 'spectators' ? f.channel : (seat === null ? 'spectators' : 'players');
  return { id: Number.isInteger(f.id) ? f.id : null, from: String(f.from || ''), seat, channel, text: String(f.text ?? ''), at: f.at ?? null };
}

/** The log with `line` added (a line of an id already there is not added twice), the newest KEPT kept. */
export function addLine(lines, line) {
  const next = chatLine(line);
  if (next.id !== null && lines.some((l) => l.id === next.id)) return lines;
  return [...lines, next].slice(-KEPT);
}

/** A `chat_history` frame's lines: they replace the log (the server sends all this viewer may read). */
export function fromHistory(frame) {
  return (Array.isArray(frame.lines) ? frame.lines : []).map(chatLine).slice(-KEPT);
}

/** The lines of a tab (`channel`), without muted writers (`muted`: a Set of nameKey); lines kept before ids came are read as such. */
export function visibleLines(lines, channel, muted = new Set()) {
  return lines.map(chatLine).filter((l) => l.channel === channel && !muted.has(nameKey(l.from)));
}

/** The muted names with `name` muted (`on`) or not; a new Set. */
export function setMuted(muted, name, on) {
  const next = new Set(muted);
  if (on) next.add(nameKey(name));
  else next.delete(nameKey(name));
  return next;
}

/**
 * A moderator's decision in words ({key, params} for t()): `entry` is a `moderation` frame or an account page's
 * entry {action, reason, until}; `lang` formats the date.
 */
export function moderationWords(entry, lang = 'en') {
  const action = ['warn', 'mute', 'suspend'].includes(entry.action) ? entry.action : 'warn';
  const params = { reason: String(entry.reason || '') };
  if (action !== 'warn') {
    if (!Number.isFinite(entry.until)) return { key: `moderation.notice.${action}.open`, params };
    params.until = timeWords(entry.until, lang);
  }
  return { key: `moderation.notice.${action}`, params };
}
