// What the browser remembers (localStorage): the display name (or, until one is chosen, the guest name the
// server gave on the first visit, said again in every hello so that a guest stays the same guest), the language chosen, the seat token of every table
// this browser sits at, the invite codes of private tables it has seen, the shuffle commitment each
// table showed it first, the your-turn signals chosen (sound, notifications) and, per game, whether the player
// confirms their turn before it is sent ("Confirm my turn", js/models/confirm-turn.js). Per tab
// (sessionStorage): each table's log and chat, so that a reload keeps them.
// Seat tokens are secrets: they are only ever sent back to the server in `resume`, never shown.
// Storage may be unavailable (private modes, quotas): then everything lives for this page only.

const KEY_NAME = 'emporium.name';
const KEY_GUEST_NAME = 'emporium.guestName';
const KEY_SEATS = 'emporium.seats';
const KEY_INVITES = 'emporium.invites';
const KEY_TRANSCRIPT = 'emporium.transcript.';
const KEY_ATTENTION = 'emporium.attention';
const KEY_THEME = 'emporium.theme';
const KEY_LANGUAGE = 'emporium.language';
const KEY_COMMITMENTS = 'emporium.commitments';
const KEY_CONFIRM_TURN = 'emporium.confirmTurn';
const MAX_SEATS = 50;
const MAX_COMMITMENTS = 200;
const MAX_INVITES = 100;
export const MAX_TRANSCRIPT = 300;

/** A Storage-like object kept in memory (fallback, tests). */
export class MemoryStorage {
  constructor() {
    this.map = new Map();
  }
  getItem(k) {
    return this.map.has(k) ? this.map.get(k) : null;
  }
  setItem(k, v) {
    this.map.set(k, String(v));
  }
  removeItem(k) {
    this.map.delete(k);
  }
}

function safe(storage) {
  const fallback = new MemoryStorage();
  return {
    getItem(k) {
      try { return storage ? storage.getItem(k) : fallback.getItem(k); } catch { return fallback.getItem(k); }
    },
    setItem(k, v) {
      try { if (storage) { storage.setItem(k, v); return; } } catch { /* fall through */ }
      fallback.setItem(k, v);
    },
    removeItem(k) {
      try { if (storage) storage.removeItem(k); } catch { /* ignore */ }
      fallback.removeItem(k);
    },
  };
}

function readJson(storage, key, fallback) {
  const raw = storage.getItem(key);
  if (!raw) return fallback;
  try {
    const value = JSON.parse(raw);
    return value && typeof value === 'object' ? value : fallback;
  } catch {
    return fallback;
  }
}

/** Keeps the `max` most recently saved entries of an object of {savedAt, ...} records. */
function trim(records, max) {
  const ids = Object.keys(records);
  if (ids.length <= max) return records;
  ids.sort((a, b) => (records[b].savedAt || 0) - (records[a].savedAt || 0));
  return Object.fromEntries(ids.slice(0, max).map((id) => [id, records[id]]));
}

export class Store {
  constructor(local, session, now = () => Date.now()) {
    this.local = safe(local);
    this.session = safe(session);
    this.now = now;
  }

  // ---- name ----
  name() {
    return this.local.getItem(KEY_NAME) || '';
  }
  setName(name) {
    this.local.setItem(KEY_NAME, name);
  }
  /** The name the server made up for this browser's first hello ('' until then). */
  guestName() {
    return this.local.getItem(KEY_GUEST_NAME) || '';
  }
  /**
   * Keeps the name a guest's first hello was given (a guest's hello reply: js/main.js), unless a name was chosen
   * or one is kept already: every later hello says it, so the header's name stays across page loads.
   */
  keepGuestName(name) {
    if (typeof name !== 'string' || !name || this.name() || this.guestName()) return;
    this.local.setItem(KEY_GUEST_NAME, name);
  }
  /** The name to say hello with: the chosen one, else the kept guest name, else '' (the server makes one up). */
  helloName() {
    return this.name() || this.guestName();
  }

  // ---- seats: tableId → {token, seat, game, invite, savedAt} ----
  seats() {
    return readJson(this.local, KEY_SEATS, {});
  }
  seat(tableId) {
    const s = this.seats()[tableId];
    return s && typeof s.token === 'string' ? s : null;
  }
  saveSeat(tableId, record) {
    const all = this.seats();
    all[tableId] = { ...(all[tableId] || {}), ...record, savedAt: this.now() };
    this.local.setItem(KEY_SEATS, JSON.stringify(trim(all, MAX_SEATS)));
  }
  forgetSeat(tableId) {
    const all = this.seats();
    delete all[tableId];
    this.local.setItem(KEY_SEATS, JSON.stringify(all));
  }
  /** The remembered seats, newest first, as [{table, game, seat, savedAt}] (no tokens). */
  seatList() {
    return Object.entries(this.seats())
      .map(([table, s]) => ({ table, game: s.game, seat: s.seat, state: s.state, savedAt: s.savedAt || 0 }))
      .sort((a, b) => b.savedAt - a.savedAt);
  }

  /** The seats with their tokens, as [{table, token, savedAt}] (for my_games only). */
  seatTokens() {
    return Object.entries(this.seats())
      .filter(([, s]) => typeof s.token === 'string')
      .map(([table, s]) => ({ table, token: s.token, savedAt: s.savedAt || 0 }));
  }

  // ---- your-turn signals: {sound, notify, asked} (js/models/attention-rules.js) ----
  attention() {
    const a = readJson(this.local, KEY_ATTENTION, {});
    return { sound: a.sound === true, notify: a.notify === true, asked: a.asked === true };
  }
  setAttention(change) {
    this.local.setItem(KEY_ATTENTION, JSON.stringify({ ...this.attention(), ...change }));
  }

  // ---- "Confirm my turn", per game: {medina: true, …} ----
  confirmTurn(game) {
    return readJson(this.local, KEY_CONFIRM_TURN, {})[game] === true;
  }
  setConfirmTurn(game, on) {
    const all = readJson(this.local, KEY_CONFIRM_TURN, {});
    if (on) all[game] = true;
    else delete all[game];
    this.local.setItem(KEY_CONFIRM_TURN, JSON.stringify(all));
  }

  // ---- colour scheme chosen in the header: 'light' | 'dark' | '' (follow the system) ----
  theme() {
    const v = this.local.getItem(KEY_THEME);
    return v === 'light' || v === 'dark' ? v : '';
  }
  setTheme(theme) {
    if (theme === 'light' || theme === 'dark') this.local.setItem(KEY_THEME, theme);
    else this.local.removeItem(KEY_THEME);
  }

  // ---- the language chosen in the header's picker ('' until chosen: the browser's languages decide) ----
  language() {
    return this.local.getItem(KEY_LANGUAGE) || '';
  }
  setLanguage(lang) {
    if (lang) this.local.setItem(KEY_LANGUAGE, String(lang));
    else this.local.removeItem(KEY_LANGUAGE);
  }

  // ---- invite codes: tableId → {invite, savedAt} ----
  invites() {
    return readJson(this.local, KEY_INVITES, {});
  }
  invite(tableId) {
    const r = this.invites()[tableId];
    return r ? r.invite : null;
  }
  saveInvite(tableId, invite) {
    const all = this.invites();
    all[tableId] = { invite, savedAt: this.now() };
    this.local.setItem(KEY_INVITES, JSON.stringify(trim(all, MAX_INVITES)));
  }
  tableForInvite(invite) {
    for (const [table, r] of Object.entries(this.invites())) if (r.invite === invite) return table;
    return null;
  }

  // ---- shuffle commitments: tableId → {commitment, early, savedAt} (js/models/shuffle-check.js) ----
  /** The commitment this browser first saw at a table ({commitment, early}), or null. */
  keptCommitment(tableId) {
    const r = readJson(this.local, KEY_COMMITMENTS, {})[tableId];
    return r && typeof r.commitment === 'string' ? { commitment: r.commitment, early: r.early === true } : null;
  }
  /** Keeps the first commitment seen at a table (`early`: before its first move); a later one never replaces it. */
  keepCommitment(tableId, commitment, early) {
    const all = readJson(this.local, KEY_COMMITMENTS, {});
    if (all[tableId]) return;
    all[tableId] = { commitment, early: Boolean(early), savedAt: this.now() };
    this.local.setItem(KEY_COMMITMENTS, JSON.stringify(trim(all, MAX_COMMITMENTS)));
  }

  // ---- per-tab transcript: the log and chat of a table ----
  transcript(tableId) {
    const t = readJson(this.session, KEY_TRANSCRIPT + tableId, null);
    return t && Array.isArray(t.log) && Array.isArray(t.chat) ? t : { log: [], chat: [] };
  }
  saveTranscript(tableId, { log, chat }) {
    this.session.setItem(KEY_TRANSCRIPT + tableId, JSON.stringify({
      log: log.slice(-MAX_TRANSCRIPT),
      chat: chat.slice(-MAX_TRANSCRIPT),
    }));
  }
}

/**
 * Takes a reply that seats this browser (create_table, join, rematch, resume) and remembers the seat. A seat a
 * signed-in account resumed by table comes without a token: a token kept from before stays.
 */
export function rememberSeat(store, reply) {
  const table = reply.table;
  const token = typeof reply.token === 'string' ? { token: reply.token } : {};
  store.saveSeat(table.id, { ...token, seat: reply.seat, game: table.game, state: table.state });
  if (reply.invite) store.saveInvite(table.id, reply.invite);
}
