// The WebSocket to the server (protocol/README.md): one per page.
// - request(msg) sends a message with a fresh "id" and resolves with the reply whose "re" matches
//   (rejects with a ServerError for an `error` reply, a lost connection or a timeout);
// - every frame that is not a reply (table, events, chat, lobby, pushed snapshots…) goes to the
//   'message' listeners;
// - on every (re)connection it says hello (with the remembered name) and then runs the 'ready'
//   hooks, which take back whatever the page was showing (resume a seat, watch a table); the hello
//   reply says the name and, for a connection whose upgrade carried a session cookie, the account;
// - reconnect() opens it again at once (after signing in or out: the upgrade reads the cookie anew);
// - a lost connection is retried with exponential backoff and jitter; a heartbeat notices dead
//   connections that never close; the 'state' listeners drive the connection indicator.
// The bookkeeping (backoff schedule, request ids) is in pure functions and classes, tested in
// tests/web-client/connection.test.mjs with a fake WebSocket and fake timers.

export const PROTOCOL = 1;

export const BACKOFF = Object.freeze({ baseMs: 500, factor: 2, maxMs: 15000, jitter: 0.5 });

/**
 * The wait before reconnection attempt `attempt` (0 for the first retry): exponential growth
 * from baseMs, capped at maxMs, of which the last `jitter` fraction is random so that many
 * clients that lost the server together do not all come back in the same instant.
 * Always in [raw × (1 − jitter), raw] where raw = min(maxMs, baseMs × factor^attempt).
 */
export function backoffDelay(attempt, options = BACKOFF, random = Math.random) {
  const n = Math.max(0, Math.floor(attempt));
  const raw = Math.min(options.maxMs, options.baseMs * options.factor ** Math.min(n, 30));
  const spread = raw * options.jitter;
  return Math.round(raw - spread + random() * spread);
}

/**
 * The WebSocket URL for a page location: same host and port, ws or wss, path /ws; with the table the page shows, so
 * that a proxy in front of several nodes sends the connection to the node holding that table (docs/scaling.md).
 */
export function wsUrl(location, table = null) {
  const url = `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws`;
  return table ? `${url}?table=${encodeURIComponent(table)}` : url;
}

/** A refused request: `code` from the protocol (or 'disconnected' / 'timeout'), `message` for people. */
export class ServerError extends Error {
  constructor(code, message, reply = null) {
    super(message || code);
    this.name = 'ServerError';
    this.code = code;
    this.reply = reply;
  }
}

/**
 * The requests waiting for their reply, by id. Ids are "<prefix><n>" with n growing from 1, so
 * a reply to a request from an earlier connection (ids are never reused) cannot be mistaken for
 * a new one.
 */
export class RequestBook {
  constructor(prefix = 'r') {
    this.prefix = prefix;
    this.counter = 0;
    this.pending = new Map();
  }

  /** Registers a request; returns its id. `entry` is kept as is (callbacks, timer…). */
  open(entry = {}) {
    this.counter += 1;
    const id = `${this.prefix}${this.counter}`;
    this.pending.set(id, entry);
    return id;
  }

  /**
   * If `frame` replies to a pending request, removes and returns {id, entry, ok, error};
   * `ok` is false for an `error` frame (then `error` is a ServerError). Otherwise null.
   */
  settle(frame) {
    if (!frame || frame.re === undefined || frame.re === null) return null;
    const id = String(frame.re);
    const entry = this.pending.get(id);
    if (entry === undefined) return null;
    this.pending.delete(id);
    if (frame.type === 'error') {
      return { id, entry, ok: false, error: new ServerError(frame.code, frame.message, frame) };
    }
    return { id, entry, ok: true, error: null };
  }

  /** Removes one request (e.g. on its timeout); returns its entry or undefined. */
  drop(id) {
    const entry = this.pending.get(id);
    this.pending.delete(id);
    return entry;
  }

  /** Removes every pending request and returns them as [id, entry] pairs. */
  drain() {
    const all = [...this.pending.entries()];
    this.pending.clear();
    return all;
  }

  get size() {
    return this.pending.size;
  }
}

/** Connection states, for the indicator. */
export const State = Object.freeze({
  connecting: 'connecting', // first attempt or a retry under way
  open: 'open', // connected and said hello
  waiting: 'waiting', // lost; the next attempt is scheduled (see retryAt)
  offline: 'offline', // the browser says there is no network; retrying when it comes back
});

const WS_OPEN = 1;

export class Connection {
  /**
   * @param {object} o
   * @param {string} o.url             ws:// or wss:// URL
   * @param {Function} [o.WebSocket]   constructor (tests pass a fake)
   * @param {Function} [o.name]        () → the display name to say hello with, or ''
   * @param {object} [o.timers]        {setTimeout, clearTimeout, setInterval, clearInterval, now}
   * @param {Function} [o.random]      for the jitter
   * @param {number} [o.requestTimeoutMs]
   * @param {number} [o.heartbeatMs]   ping this often when idle; 0 turns it off
   * @param {object} [o.backoff]
   */
  constructor(o) {
    this.url = o.url;
    this.WebSocket = o.WebSocket || globalThis.WebSocket;
    this.nameFn = o.name || (() => '');
    const g = globalThis;
    this.timers = o.timers || {
      setTimeout: (...a) => g.setTimeout(...a),
      clearTimeout: (...a) => g.clearTimeout(...a),
      setInterval: (...a) => g.setInterval(...a),
      clearInterval: (...a) => g.clearInterval(...a),
      now: () => Date.now(),
    };
    this.random = o.random || Math.random;
    this.requestTimeoutMs = o.requestTimeoutMs ?? 15000;
    this.heartbeatMs = o.heartbeatMs ?? 20000;
    this.backoff = o.backoff || BACKOFF;

    this.book = new RequestBook('r');
    this.listeners = { message: new Set(), state: new Set(), ready: new Set() };
    this.socket = null;
    this.state = State.connecting;
    this.retryAt = null;
    this.attempt = 0;
    this.retryTimer = null;
    this.heartbeat = null;
    this.ready = false; // hello done on the current socket
    this.browserOffline = false;
    this.closed = false;
    this.name = '';
    this.account = null; // from the hello reply: {id, name} when the connection is signed in, else null
    this.games = [];
    this.absentAfterS = null; // from welcome: how long a player must be away before replace_absent
    this.forsakenAfterS = null; // from welcome: how long a casual game against bots waits for its person away
    this.node = null; // from welcome: the node that answers, when the server is one of several
    this.lastFrameAt = 0;
  }

  // ---- listeners ----

  /** 'message' (frame), 'state' ({state, retryAt, attempt}), 'ready' (after each hello). */
  on(type, fn) {
    this.listeners[type].add(fn);
    return () => this.listeners[type].delete(fn);
  }

  /**
   * Runs `fn` now if the connection is ready, and again after every reconnection. Returns the
   * function that stops it.
   */
  whenReady(fn) {
    const off = this.on('ready', fn);
    if (this.ready) Promise.resolve().then(() => this.listeners.ready.has(fn) && fn());
    return off;
  }

  emit(type, value) {
    for (const fn of [...this.listeners[type]]) {
      try {
        fn(value);
      } catch (e) {
        console.error(`emporium: a ${type} listener failed`, e);
      }
    }
  }

  setState(state) {
    this.state = state;
    this.emit('state', { state, retryAt: this.retryAt, attempt: this.attempt });
  }

  // ---- lifecycle ----

  start() {
    this.closed = false;
    this.open();
  }

  /** Closes for good (page teardown, tests). */
  stop() {
    this.closed = true;
    this.timers.clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.stopHeartbeat();
    if (this.socket) {
      const s = this.socket;
      this.detach(s);
      try { s.close(1000, 'bye'); } catch { /* already closed */ }
    }
    this.socket = null;
    this.ready = false;
    this.failPending('disconnected');
  }

  open() {
    if (this.closed) return;
    this.timers.clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.retryAt = null;
    this.ready = false;
    this.setState(State.connecting);
    let socket;
    try {
      socket = new this.WebSocket(this.url);
    } catch (e) {
      console.warn('emporium: cannot open the WebSocket', e);
      this.lost();
      return;
    }
    this.socket = socket;
    socket.onmessage = (ev) => this.onFrame(socket, ev.data);
    socket.onclose = () => this.onSocketGone(socket);
    socket.onerror = () => { /* onclose follows */ };
  }

  detach(socket) {
    socket.onmessage = null;
    socket.onclose = null;
    socket.onerror = null;
    socket.onopen = null;
  }

  onSocketGone(socket) {
    if (socket !== this.socket) return;
    this.detach(socket);
    this.socket = null;
    this.lost();
  }

  /** The connection is gone: fail what waits and schedule the next attempt. */
  lost() {
    this.ready = false;
    this.stopHeartbeat();
    this.failPending('disconnected');
    if (this.closed) return;
    const delay = backoffDelay(this.attempt, this.backoff, this.random);
    this.attempt += 1;
    this.retryAt = this.timers.now() + delay;
    this.retryTimer = this.timers.setTimeout(() => this.open(), delay);
    this.setState(this.browserOffline ? State.offline : State.waiting);
  }

  /** Try again at once (the "Reconnect now" button, the browser coming back online). */
  reconnectNow() {
    if (this.closed || this.ready) return;
    if (this.socket && this.state === State.connecting) return;
    this.open();
  }

  /**
   * Points the connection at `url` (wsUrl with the table the page shows). One server serves every table on any
   * connection, so there the URL is only remembered. Behind a proxy in front of several nodes (the welcome named a
   * node) a table's page needs its table's node: the connection is opened again at once, and the ready hooks take
   * back what the page shows.
   */
  setUrl(url) {
    if (url === this.url) return;
    this.url = url;
    if (!this.node || this.closed || !this.socket) return;
    this.reconnect('another table');
  }

  /**
   * Closes the current socket (if any) and opens a new one at once; the ready hooks take back what the page
   * shows. For a change the server reads only at the upgrade: the URL (setUrl), the session cookie (signing in
   * or out).
   */
  reconnect(reason = 'reconnect') {
    if (this.closed) return;
    const s = this.socket;
    if (s) {
      this.detach(s);
      this.socket = null;
      try { s.close(1000, reason); } catch { /* already closed */ }
    }
    this.ready = false;
    this.stopHeartbeat();
    this.failPending('disconnected');
    this.attempt = 0;
    this.open();
  }

  /** Drops the current socket as dead (heartbeat timeout) and reconnects. */
  abandon() {
    const s = this.socket;
    if (!s) return;
    this.detach(s);
    this.socket = null;
    try { s.close(4000, 'heartbeat timeout'); } catch { /* ignore */ }
    this.lost();
  }

  setBrowserOnline(online) {
    this.browserOffline = !online;
    if (online) {
      this.attempt = 0;
      this.reconnectNow();
    } else if (!this.ready) {
      this.setState(State.offline);
    }
  }

  // ---- frames ----

  onFrame(socket, data) {
    if (socket !== this.socket) return;
    this.lastFrameAt = this.timers.now();
    let frame;
    try {
      frame = JSON.parse(data);
    } catch {
      console.warn('emporium: a frame that is not JSON', data);
      return;
    }
    if (!frame || typeof frame !== 'object') return;
    const settled = this.book.settle(frame);
    if (settled) {
      this.timers.clearTimeout(settled.entry.timer);
      if (settled.ok) settled.entry.resolve(frame);
      else settled.entry.reject(settled.error);
      return;
    }
    if (frame.type === 'welcome') {
      this.games = Array.isArray(frame.games) ? frame.games : [];
      this.absentAfterS = Number.isInteger(frame.absent_after_s) ? frame.absent_after_s : null;
      this.forsakenAfterS = Number.isInteger(frame.forsaken_after_s) ? frame.forsaken_after_s : null;
      this.node = typeof frame.node === 'string' ? frame.node : null;
      this.sayHello();
    }
    this.emit('message', frame);
  }

  async sayHello() {
    const socket = this.socket;
    const name = (this.nameFn() || '').trim();
    let reply;
    try {
      reply = await this.rawRequest({ type: 'hello', protocol: PROTOCOL, ...(name ? { name } : {}) });
    } catch (e) {
      if (e.code === 'bad_name' && socket === this.socket) {
        try {
          reply = await this.rawRequest({ type: 'hello', protocol: PROTOCOL });
        } catch {
          return;
        }
      } else {
        return;
      }
    }
    if (socket !== this.socket) return;
    this.name = reply.name;
    this.account = reply.account && typeof reply.account.id === 'string' ? { id: reply.account.id, name: String(reply.account.name || '') } : null;
    this.ready = true;
    this.attempt = 0;
    this.retryAt = null;
    this.startHeartbeat();
    this.setState(State.open);
    this.emit('ready');
  }

  startHeartbeat() {
    this.stopHeartbeat();
    if (!this.heartbeatMs) return;
    this.heartbeat = this.timers.setInterval(() => {
      if (!this.ready) return;
      if (this.timers.now() - this.lastFrameAt < this.heartbeatMs) return;
      this.rawRequest({ type: 'ping' }, Math.min(this.requestTimeoutMs, 10000)).catch((e) => {
        if (e.code === 'timeout') this.abandon();
      });
    }, this.heartbeatMs);
  }

  stopHeartbeat() {
    if (this.heartbeat !== null) this.timers.clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  failPending(code) {
    for (const [, entry] of this.book.drain()) {
      this.timers.clearTimeout(entry.timer);
      entry.reject(new ServerError(code, code));
    }
  }

  rawRequest(message, timeoutMs = this.requestTimeoutMs) {
    const socket = this.socket;
    if (!socket || socket.readyState !== WS_OPEN) {
      return Promise.reject(new ServerError('disconnected', 'not connected'));
    }
    return new Promise((resolve, reject) => {
      const entry = { resolve, reject, timer: null, type: message.type };
      const id = this.book.open(entry);
      entry.timer = this.timers.setTimeout(() => {
        if (this.book.drop(id)) reject(new ServerError('timeout', `no reply to ${message.type}`));
      }, timeoutMs);
      try {
        socket.send(JSON.stringify({ ...message, id }));
      } catch (e) {
        this.book.drop(id);
        this.timers.clearTimeout(entry.timer);
        reject(new ServerError('disconnected', String(e)));
      }
    });
  }

  /** Sends a request once connected and greeted; resolves with the reply frame. */
  request(message, timeoutMs) {
    if (!this.ready) return Promise.reject(new ServerError('disconnected', 'not connected'));
    return this.rawRequest(message, timeoutMs);
  }

  /** Changes the display name on the server (and for the next hellos, via the name function). */
  async setName(name) {
    const reply = await this.request({ type: 'set_name', name });
    this.name = reply.name;
    this.setState(this.state);
    return reply.name;
  }
}
