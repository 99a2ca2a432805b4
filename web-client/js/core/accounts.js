// Accounts: the HTTP requests under /api/ (protocol/README.md, "Accounts (HTTP)"; docs/accounts.md; and the players'
// profiles and leaderboards, "Ratings (HTTP)") and who this
// browser is signed in as. One per page (js/main.js makes it and hands it to the pages as ctx.accounts).
// - start() asks GET /api/session: whether the browser is signed in, and the anti-CSRF token every POST sends
//   back in X-CSRF-Token (a refused token is fetched again once, and the request repeated);
// - every request that signs in or out sets `account` and tells the 'change' listeners (js/main.js then opens the
//   WebSocket again, whose upgrade reads the new session cookie, and redraws the header); an answer
//   `401 not_signed_in` means the session ended elsewhere: signed out too;
// - the passkey ceremonies: the options from the server, navigator.credentials.create()/get(), the answer back
//   (js/core/passkey-codec.js converts both ways).
// A refused request rejects with an AccountError: `code` from the answer (or 'network', 'unavailable', a
// passkey_* code of the browser's refusal), `status`, and `retryAfter` seconds with a 429. errorText() says it in
// words (js/core/errors.js). No DOM: fetch and the credentials container are passed in (tests pass fakes).
import { assertionJson, attestationJson, ceremonyErrorCode, creationOptions, passkeysAvailable, requestOptions } from './passkey-codec.js';

export const EXPORT_PATH = '/api/account/export';

/** A refused account request. */
export class AccountError extends Error {
  constructor(code, message = code, { status = 0, retryAfter = null, until = null } = {}) {
    super(message || code);
    this.name = 'AccountError';
    this.code = code;
    this.status = status;
    this.retryAfter = retryAfter;
    this.until = until; // a suspended account's sign-in: until when (Unix seconds)
  }
}

/** The seat tokens to hand over at sign-in, as the server reads them: at most 50 strings of at most 100 characters. */
export function seatsToClaim(tokens) {
  return [...new Set((tokens || []).filter((x) => typeof x === 'string' && x.length > 0 && x.length <= 100))].slice(0, 50);
}

export class Accounts {
  /**
   * @param {object} o
   * @param {Function} [o.fetch]   the page's fetch (tests pass a fake)
   * @param {object} [o.scope]     the page's global object: its navigator.credentials and PublicKeyCredential
   */
  constructor({ fetch = (...a) => globalThis.fetch(...a), scope = globalThis } = {}) {
    this.fetch = fetch;
    this.scope = scope;
    this.csrf = '';
    this.known = false; // GET /api/session has answered once
    this.available = true; // false: this server has no accounts (or could not say): nothing to sign in to
    this.account = null; // {id, name} while signed in
    this.listeners = new Set();
    this.refreshing = null;
  }

  /** `fn({account, previous})` after every change of who is signed in (and the first answer). Returns the unsubscribe. */
  on(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  get signedIn() {
    return this.account !== null;
  }

  /** Whether this browser can make and use passkeys here. */
  get passkeys() {
    return passkeysAvailable(this.scope);
  }

  /** Sets who is signed in; the listeners hear of it when it changed (or `force`). */
  setAccount(account, { force = false } = {}) {
    const previous = this.account;
    const next = account && typeof account.id === 'string' ? { id: account.id, name: String(account.name || '') } : null;
    this.account = next;
    const changed = (previous ? previous.id : null) !== (next ? next.id : null)
      || (previous && next && previous.name !== next.name);
    if (!changed && !force) return;
    for (const fn of [...this.listeners]) {
      try {
        fn({ account: next, previous });
      } catch (e) {
        console.error('emporium: an account listener failed', e);
      }
    }
  }

  // ---- the session ----

  /** The first look: who is signed in, and the anti-CSRF token. Never rejects (a server without accounts is unavailable). */
  async start() {
    try {
      await this.refresh();
    } catch (e) {
      if (!this.known) {
        this.known = true;
        this.available = !(e.code === 'unavailable' || e.status === 404);
        this.setAccount(null, { force: true });
      }
    }
    return this.account;
  }

  /** GET /api/session again (one at a time): the token, and who is signed in now. Resolves with the account or null. */
  refresh() {
    if (!this.refreshing) {
      this.refreshing = this.send('GET', '/api/session').then((body) => {
        if (typeof body.csrf === 'string') this.csrf = body.csrf;
        const first = !this.known;
        this.known = true;
        this.available = true;
        this.setAccount(body.signed_in && body.account ? body.account : null, { force: first });
        return this.account;
      }).finally(() => { this.refreshing = null; });
    }
    return this.refreshing;
  }

  // ---- requests ----

  /** One request: the answer's JSON body, or an AccountError. */
  async send(method, path, body = undefined) {
    const headers = { Accept: 'application/json' };
    if (method !== 'GET') {
      headers['Content-Type'] = 'application/json';
      headers['X-CSRF-Token'] = this.csrf;
    }
    let res;
    try {
      res = await this.fetch(path, {
        method, headers, credentials: 'same-origin', cache: 'no-store',
        body: method === 'GET' ? undefined : JSON.stringify(body ?? {}),
      });
    } catch (e) {
      throw new AccountError('network', String(e && e.message ? e.message : e));
    }
    let json = null;
    try {
      json = await res.json();
    } catch {
      json = null;
    }
    if (!json || typeof json !== 'object' || Array.isArray(json)) {
      // Not this server's JSON (an older server answers /api/ paths with the page): no accounts here.
      throw new AccountError('unavailable', `no account service (HTTP ${res.status})`, { status: res.status });
    }
    if (!res.ok || json.error) {
      // {"error":{"code","message"}}; also {"error":"code","message"} (the code alone, the message beside it).
      const e = typeof json.error === 'string' ? { code: json.error, message: json.message } : (json.error || {});
      const header = res.headers && typeof res.headers.get === 'function' ? Number(res.headers.get('Retry-After')) : NaN;
      const retryAfter = Number.isFinite(e.retry_after) ? e.retry_after : (Number.isFinite(header) && header > 0 ? header : null);
      throw new AccountError(typeof e.code === 'string' ? e.code : 'internal_error', e.message || `HTTP ${res.status}`,
        { status: res.status, retryAfter, until: Number.isFinite(e.until) ? e.until : null });
    }
    return json;
  }

  /**
   * A POST with the anti-CSRF token (fetched first when the page has none yet, and again once when the server
   * refuses it). An answer `401 not_signed_in` signs this page out.
   */
  async post(path, body = {}) {
    if (!this.csrf) await this.refresh();
    try {
      return await this.send('POST', path, body);
    } catch (e) {
      if (e.code === 'bad_csrf_token') {
        await this.refresh();
        return this.send('POST', path, body);
      }
      if (e.code === 'not_signed_in' && this.account) this.setAccount(null);
      throw e;
    }
  }

  /** A GET of the signed-in account's (same rule for 401). */
  async get(path) {
    try {
      return await this.send('GET', path);
    } catch (e) {
      if (e.code === 'not_signed_in' && this.account) this.setAccount(null);
      throw e;
    }
  }

  /** A reply that signs in ({account, claimed}): sets the account; resolves with the reply. */
  afterSignIn(reply) {
    this.setAccount(reply.account);
    return reply;
  }

  // ---- signing up, in and out ----

  async signUpWithPassword({ name, password, seats = [] }) {
    return this.afterSignIn(await this.post('/api/sign-up', { name, password, seats: seatsToClaim(seats) }));
  }

  async signInWithPassword({ name, password, seats = [] }) {
    return this.afterSignIn(await this.post('/api/sign-in', { name, password, seats: seatsToClaim(seats) }));
  }

  /** navigator.credentials.create() or .get(), its refusal as an AccountError with a passkey_* code. */
  async ceremony(kind, publicKey) {
    if (!this.passkeys) throw new AccountError('passkey_unsupported');
    const credentials = this.scope.navigator.credentials;
    try {
      const credential = kind === 'create'
        ? await credentials.create({ publicKey: creationOptions(publicKey) })
        : await credentials.get({ publicKey: requestOptions(publicKey), mediation: 'optional' });
      if (!credential) throw new AccountError('passkey_cancelled');
      return kind === 'create' ? attestationJson(credential) : assertionJson(credential);
    } catch (e) {
      if (e instanceof AccountError) throw e;
      if (e instanceof TypeError) throw new AccountError('passkey_failed', e.message);
      throw new AccountError(ceremonyErrorCode(e), e && e.message);
    }
  }

  /** A new account with a new passkey: options (which also says name_taken early), create(), sign-up. */
  async signUpWithPasskey({ name, label = '', seats = [] }) {
    const { publicKey } = await this.post('/api/passkeys/options', { purpose: 'sign_up', name });
    const passkey = await this.ceremony('create', publicKey);
    const body = { name, passkey, seats: seatsToClaim(seats) };
    if (label.trim()) body.label = label.trim();
    return this.afterSignIn(await this.post('/api/passkeys/sign-up', body));
  }

  /** Sign-in with any passkey this device has for the site (no name asked first). */
  async signInWithPasskey({ seats = [] } = {}) {
    const { publicKey } = await this.post('/api/passkeys/options', { purpose: 'sign_in' });
    const passkey = await this.ceremony('get', publicKey);
    return this.afterSignIn(await this.post('/api/passkeys/sign-in', { passkey, seats: seatsToClaim(seats) }));
  }

  async signOut() {
    try {
      await this.post('/api/sign-out', {});
    } finally {
      // Whatever the answer, this page stops acting signed in; the next session look says the truth.
      this.setAccount(null);
    }
  }

  /** Every session of the account ends, this one too: resolves with how many. */
  async signOutEverywhere() {
    const reply = await this.post('/api/sign-out-everywhere', {});
    this.setAccount(null);
    return reply.signed_out;
  }

  // ---- profiles and leaderboards (anyone may ask; a signed-in viewer also learns of their own private games) ----

  /** A player's profile (GET /api/players/<name>); `404 not_found` for no such player. */
  player(name) {
    return this.send('GET', `/api/players/${encodeURIComponent(name)}`);
  }

  /** A game's leaderboard (GET /api/leaderboard/<game>), with the viewer's own place; `404 not_found` for no such game. */
  leaderboard(game) {
    return this.send('GET', `/api/leaderboard/${encodeURIComponent(game)}`);
  }

  // ---- the account page ----

  /** {account: {id, name, created_at, has_password}, passkeys, sessions, sign_ins}. */
  async details() {
    const reply = await this.get('/api/account');
    if (reply.account && this.account && reply.account.name !== this.account.name) this.setAccount(reply.account);
    return reply;
  }

  /** Another passkey for the signed-in account: resolves with {id, label, created_at}. */
  async addPasskey({ label = '' } = {}) {
    const { publicKey } = await this.post('/api/passkeys/options', { purpose: 'add' });
    const passkey = await this.ceremony('create', publicKey);
    const body = { passkey };
    if (label.trim()) body.label = label.trim();
    return (await this.post('/api/passkeys/add', body)).passkey;
  }

  renamePasskey(id, label) {
    return this.post('/api/passkeys/rename', { id, label });
  }

  removePasskey(id) {
    return this.post('/api/passkeys/remove', { id });
  }

  /** Sets the password, or changes it (`current` is needed once one is set). */
  setPassword({ current = null, password }) {
    return this.post('/api/account/password', current === null ? { password } : { current, password });
  }

  /** Signs one session out by its public id; signing this one out signs the page out. */
  async signOutSession(id, { current = false } = {}) {
    await this.post('/api/account/sessions/sign-out', { id });
    if (current) this.setAccount(null);
  }

  // E-mail notifications: each call resolves with the account's e-mail part as GET /api/account has it
  // ({available, address, pending, language, notify}).

  /** A new address (a confirmation mail goes to it), mails written in `language`. */
  async setEmail(address, language) {
    return (await this.post('/api/account/email', { address, language })).email;
  }

  /** Forgets the confirmed and the pending address: no mail is sent any more. */
  async removeEmail() {
    return (await this.post('/api/account/email/remove', {})).email;
  }

  /** Changes some of the preferences ({your_turn, turn_delay_minutes, game_over, invited, low_clock, digest, language}). */
  async setNotifications(changes) {
    return (await this.post('/api/account/notifications', changes)).email;
  }

  // Vacations: each call resolves with the account's vacation part as GET /api/account has it
  // ({until, days_left, days_per_year}; js/models/vacation-rules.js).

  /** Starts a vacation of `days` days now. */
  async startVacation(days) {
    return (await this.post('/api/account/vacation', { days })).vacation;
  }

  /** Ends the running vacation now (the days started are used). */
  async endVacation() {
    return (await this.post('/api/account/vacation/end', {})).vacation;
  }

  // Web Push (docs/push.md): the server's key, and this browser's subscription added or removed; the two last
  // resolve with the account's push part ({available, devices}).

  /** {key: the VAPID public key (base64url) or null, available}. */
  pushKey() {
    return this.send('GET', '/api/push/key');
  }

  /** A PushSubscription's toJSON() ({endpoint, keys: {p256dh, auth}}). */
  async addPush({ endpoint, keys }) {
    return (await this.post('/api/account/push', { endpoint, keys })).push;
  }

  async removePush(endpoint) {
    return (await this.post('/api/account/push/remove', { endpoint })).push;
  }

  claim(seats) {
    return this.post('/api/account/claim', { seats: seatsToClaim(seats) });
  }

  /** Deletes the account, confirmed with its name typed again. */
  async deleteAccount(name) {
    await this.post('/api/account/delete', { name });
    this.setAccount(null);
  }
}

/**
 * What a page that shows one request's answer (a profile, a leaderboard) does with it: asks at once, and again when
 * the viewer signs in or out (the answer depends on who asks) or on `retry()`; each answer, or the failure, goes to
 * `show(reply, failure)`, never once the page is gone. Returns the page's handle (`destroy`, `relabel` = `draw`).
 */
export function askWhileMounted(accounts, ask, show, draw) {
  let destroyed = false;
  async function retry() {
    let reply = null;
    let failure = null;
    try {
      reply = await ask();
    } catch (err) {
      failure = err;
    }
    if (!destroyed) show(reply, failure);
  }
  retry();
  const off = accounts.on(() => retry());
  return {
    destroy() {
      destroyed = true;
      off();
    },
    relabel: draw,
    retry,
  };
}
