// js/core/connection.js without a browser: the backoff schedule, request-id bookkeeping, and the
// Connection driven through a fake WebSocket and fake timers (hello, replies by "re", lost
// connections, backoff, re-running the ready hooks, heartbeat).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import {
  backoffDelay, BACKOFF, RequestBook, ServerError, Connection, State, wsUrl, PROTOCOL,
} from '../../web-client/js/core/connection.js';

// ---- fakes ----

class FakeTimers {
  constructor() {
    this.time = 1000;
    this.queue = [];
    this.nextId = 1;
    this.cleared = new Set();
  }
  now() { return this.time; }
  setTimeout(fn, ms) {
    const id = this.nextId++;
    this.queue.push({ id, at: this.time + ms, fn });
    return id;
  }
  clearTimeout(id) { this.queue = this.queue.filter((x) => x.id !== id); }
  setInterval(fn, ms) {
    const id = this.nextId++;
    const tick = () => {
      fn();
      if (!this.cleared.has(id)) this.queue.push({ id, at: this.time + ms, fn: tick });
    };
    this.queue.push({ id, at: this.time + ms, fn: tick });
    return id;
  }
  clearInterval(id) {
    this.cleared.add(id);
    this.clearTimeout(id);
  }
  /** Runs everything due within `ms`, in time order, letting promises settle in between. */
  async advance(ms) {
    const end = this.time + ms;
    for (;;) {
      this.queue.sort((a, b) => a.at - b.at);
      const next = this.queue[0];
      if (!next || next.at > end) break;
      this.queue.shift();
      this.time = next.at;
      next.fn();
      await flush();
    }
    this.time = end;
  }
}

const flush = () => new Promise((r) => setImmediate(r));

function fakeSocketClass() {
  const sockets = [];
  class FakeSocket {
    constructor(url) {
      this.url = url;
      this.readyState = 0;
      this.sent = [];
      this.closedWith = null;
      sockets.push(this);
    }
    send(data) {
      if (this.readyState !== 1) throw new Error('not open');
      this.sent.push(JSON.parse(data));
    }
    close(code) {
      this.closedWith = code ?? 1000;
      this.readyState = 3;
    }
    // test helpers
    accept(games = [{ id: 'medici' }]) {
      this.readyState = 1;
      this.receive({ type: 'welcome', protocol: 1, server: 'emporium', games });
    }
    receive(frame) { if (this.onmessage) this.onmessage({ data: JSON.stringify(frame) }); }
    drop() {
      this.readyState = 3;
      if (this.onclose) this.onclose({ code: 1006 });
    }
    last() { return this.sent[this.sent.length - 1]; }
    reply(frame) { this.receive({ ...frame, re: this.last().id }); }
  }
  return { FakeSocket, sockets };
}

function setup({ name = 'Ann', random = () => 0.5, heartbeatMs = 0 } = {}) {
  const timers = new FakeTimers();
  const { FakeSocket, sockets } = fakeSocketClass();
  const conn = new Connection({
    url: 'ws://example.test/ws', WebSocket: FakeSocket, name: () => name, timers, random, heartbeatMs,
    requestTimeoutMs: 5000,
  });
  const states = [];
  const messages = [];
  conn.on('state', (s) => states.push(s.state));
  conn.on('message', (m) => messages.push(m));
  return { conn, timers, sockets, states, messages };
}

/** Brings the current socket through welcome and hello. */
async function greet(socket, name = 'Ann') {
  socket.accept();
  await flush();
  const hello = socket.last();
  assert.equal(hello.type, 'hello');
  socket.reply({ type: 'hello', name, protocol: 1 });
  await flush();
}

// ---- tests ----

describe('backoffDelay', () => {
  test('grows exponentially from the base and stays within [raw×(1−jitter), raw]', () => {
    for (let attempt = 0; attempt < 12; attempt++) {
      const raw = Math.min(BACKOFF.maxMs, BACKOFF.baseMs * 2 ** attempt);
      assert.equal(backoffDelay(attempt, BACKOFF, () => 0), Math.round(raw * (1 - BACKOFF.jitter)));
      assert.equal(backoffDelay(attempt, BACKOFF, () => 0.999999), Math.round(raw - raw * BACKOFF.jitter + 0.999999 * raw * BACKOFF.jitter));
      for (let i = 0; i < 20; i++) {
        const d = backoffDelay(attempt);
        assert.ok(d >= raw * (1 - BACKOFF.jitter) - 1 && d <= raw, `attempt ${attempt}: ${d}`);
      }
    }
  });

  test('the schedule: 0.5 s, 1 s, 2 s, 4 s, 8 s, then capped at 15 s (with random at the top)', () => {
    const top = () => 1;
    assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 20, 1000].map((a) => backoffDelay(a, BACKOFF, top)),
      [500, 1000, 2000, 4000, 8000, 15000, 15000, 15000, 15000]);
  });

  test('odd attempts and options', () => {
    assert.equal(backoffDelay(-3, BACKOFF, () => 1), 500);
    assert.equal(backoffDelay(2.7, BACKOFF, () => 1), 2000);
    assert.equal(backoffDelay(3, { baseMs: 100, factor: 3, maxMs: 10000, jitter: 0 }, () => 0.3), 2700);
  });

  test('jitter spreads clients out', () => {
    const seen = new Set();
    for (let i = 0; i < 50; i++) seen.add(backoffDelay(4));
    assert.ok(seen.size > 10, 'different clients wait different times');
  });
});

describe('RequestBook', () => {
  test('gives fresh increasing ids and matches replies by "re"', () => {
    const book = new RequestBook('q');
    const a = book.open({ n: 1 });
    const b = book.open({ n: 2 });
    assert.equal(a, 'q1');
    assert.equal(b, 'q2');
    assert.equal(book.size, 2);
    assert.equal(book.settle({ type: 'pong' }), null, 'no re: not a reply');
    assert.equal(book.settle({ type: 'pong', re: 'q9' }), null, 'unknown re');
    const got = book.settle({ type: 'ack', re: 'q2', version: 3 });
    assert.deepEqual(got, { id: 'q2', entry: { n: 2 }, ok: true, error: null });
    assert.equal(book.settle({ type: 'ack', re: 'q2' }), null, 'a reply settles once');
    assert.equal(book.size, 1);
  });

  test('an error reply settles with a ServerError carrying the code', () => {
    const book = new RequestBook();
    const id = book.open({});
    const got = book.settle({ type: 'error', re: id, code: 'stale_version', message: 'the table is at version 18' });
    assert.equal(got.ok, false);
    assert.ok(got.error instanceof ServerError);
    assert.equal(got.error.code, 'stale_version');
    assert.equal(got.error.message, 'the table is at version 18');
  });

  test('ids are never reused, even after drain', () => {
    const book = new RequestBook();
    const ids = new Set();
    for (let i = 0; i < 5; i++) ids.add(book.open({}));
    assert.equal(book.drain().length, 5);
    assert.equal(book.size, 0);
    for (let i = 0; i < 5; i++) ids.add(book.open({}));
    assert.equal(ids.size, 10);
    assert.equal(book.drop('r10') !== undefined, true);
    assert.equal(book.drop('r10'), undefined);
  });

  test('numeric re values match their string ids', () => {
    const book = new RequestBook('');
    const id = book.open({ x: 1 });
    assert.equal(id, '1');
    assert.equal(book.settle({ type: 'pong', re: 1 }).entry.x, 1);
  });
});

test('wsUrl follows the page: ws or wss, same host and port, path /ws', () => {
  assert.equal(wsUrl({ protocol: 'http:', host: 'localhost:8080' }), 'ws://localhost:8080/ws');
  assert.equal(wsUrl({ protocol: 'https:', host: 'games.example' }), 'wss://games.example/ws');
  // A table's page names its table, for a proxy that routes by it.
  assert.equal(wsUrl({ protocol: 'https:', host: 'games.example' }, 'T1 x'), 'wss://games.example/ws?table=T1%20x');
});

describe('Connection', () => {
  test('says hello with the remembered name, then is ready', async () => {
    const { conn, sockets, states } = setup();
    let ready = 0;
    conn.on('ready', () => ready++);
    conn.start();
    assert.equal(sockets.length, 1);
    assert.equal(sockets[0].url, 'ws://example.test/ws');
    assert.equal(conn.state, State.connecting);
    sockets[0].accept([{ id: 'medici', name: 'Medici' }]);
    await flush();
    const hello = sockets[0].last();
    assert.deepEqual({ ...hello, id: undefined }, { type: 'hello', protocol: PROTOCOL, name: 'Ann', id: undefined });
    assert.equal(conn.ready, false);
    sockets[0].reply({ type: 'hello', name: 'Ann', protocol: 1 });
    await flush();
    assert.equal(conn.ready, true);
    assert.equal(conn.state, State.open);
    assert.equal(conn.name, 'Ann');
    assert.deepEqual(conn.games, [{ id: 'medici', name: 'Medici' }]);
    assert.equal(ready, 1);
    assert.deepEqual(states, ['connecting', 'open']);
  });

  test('without a name the hello has none; a refused name falls back to none', async () => {
    const { conn, sockets } = setup({ name: '' });
    conn.start();
    sockets[0].accept();
    await flush();
    assert.equal(sockets[0].last().name, undefined);

    const second = setup({ name: 'bad\tname' });
    second.conn.start();
    second.sockets[0].accept();
    await flush();
    second.sockets[0].reply({ type: 'error', code: 'bad_name', message: 'no tabs' });
    await flush();
    const retry = second.sockets[0].last();
    assert.equal(retry.type, 'hello');
    assert.equal(retry.name, undefined);
    second.sockets[0].reply({ type: 'hello', name: 'Guest-x1', protocol: 1 });
    await flush();
    assert.equal(second.conn.ready, true);
    assert.equal(second.conn.name, 'Guest-x1');
  });

  test('requests resolve with their reply and reject with error codes; other frames go to listeners', async () => {
    const { conn, sockets, messages } = setup();
    conn.start();
    await greet(sockets[0]);
    const s = sockets[0];
    const p1 = conn.request({ type: 'ping' });
    const p2 = conn.request({ type: 'act', table: 't', version: 3, action: { type: 'pass' } });
    const [r1, r2] = [s.sent.at(-2), s.sent.at(-1)];
    assert.notEqual(r1.id, r2.id);
    // Replies out of order, with an unrelated frame between them.
    s.receive({ type: 'events', table: 't', version: 4, events: [], legal: [] });
    s.receive({ type: 'error', re: r2.id, code: 'stale_version', message: 'at 4' });
    s.receive({ type: 'pong', re: r1.id });
    assert.deepEqual(await p1, { type: 'pong', re: r1.id });
    await assert.rejects(p2, (e) => e instanceof ServerError && e.code === 'stale_version');
    assert.deepEqual(messages.map((m) => m.type), ['welcome', 'events']);
    assert.equal(conn.book.size, 0);
  });

  test('a request before the hello, or one without an answer, fails cleanly', async () => {
    const { conn, sockets, timers } = setup();
    await assert.rejects(conn.request({ type: 'ping' }), (e) => e.code === 'disconnected');
    conn.start();
    await greet(sockets[0]);
    const failed = assert.rejects(conn.request({ type: 'ping' }), (e) => e.code === 'timeout');
    await timers.advance(5001);
    await failed;
    assert.equal(conn.book.size, 0);
  });

  test('a lost connection fails pending requests, retries with backoff and runs the ready hooks again', async () => {
    const { conn, sockets, timers, states } = setup({ random: () => 1 });
    const hookRuns = [];
    conn.whenReady(() => hookRuns.push(sockets.length));
    conn.start();
    await greet(sockets[0]);
    assert.deepEqual(hookRuns, [1]);
    const pending = conn.request({ type: 'snapshot', table: 't' });

    // Lost: three failed attempts, waiting 0.5 s, 1 s, 2 s (random at the top of the jitter).
    sockets[0].drop();
    await assert.rejects(pending, (e) => e.code === 'disconnected');
    assert.equal(conn.state, State.waiting);
    assert.equal(conn.retryAt, timers.now() + 500);
    const waits = [];
    for (let i = 0; i < 3; i++) {
      const before = sockets.length;
      const wait = conn.retryAt - timers.now();
      waits.push(wait);
      await timers.advance(wait - 1);
      assert.equal(sockets.length, before, 'no attempt before the delay');
      await timers.advance(1);
      assert.equal(sockets.length, before + 1, 'an attempt after the delay');
      if (i < 2) sockets.at(-1).drop();
    }
    assert.deepEqual(waits, [500, 1000, 2000]);
    await greet(sockets.at(-1));
    assert.equal(conn.state, State.open);
    assert.deepEqual(hookRuns, [1, 4], 'the page takes its seat back after the reconnection');
    assert.equal(conn.attempt, 0, 'a good connection resets the backoff');
    sockets.at(-1).drop();
    assert.equal(conn.retryAt - timers.now(), 500);
    assert.ok(states.includes('waiting') && states.at(-1) === 'waiting');
  });

  test('reconnectNow and the browser coming online skip the wait', async () => {
    const { conn, sockets, timers } = setup({ random: () => 1 });
    conn.start();
    await greet(sockets[0]);
    sockets[0].drop();
    sockets.length = 0;
    conn.reconnectNow();
    assert.equal(sockets.length, 1);
    sockets[0].drop();
    conn.setBrowserOnline(false);
    assert.equal(conn.state, State.offline);
    conn.setBrowserOnline(true);
    assert.equal(sockets.length, 2);
    assert.equal(conn.state, State.connecting);
    await timers.advance(60000);
    assert.equal(sockets.length, 2, 'the old retry timer was cancelled');
  });

  test('the heartbeat abandons a silent connection and reconnects', async () => {
    const { conn, sockets, timers } = setup({ heartbeatMs: 20000 });
    conn.start();
    await greet(sockets[0]);
    await timers.advance(20000);
    const ping = sockets[0].last();
    assert.equal(ping.type, 'ping');
    sockets[0].reply({ type: 'pong' });
    await flush();
    await timers.advance(20000);
    assert.equal(sockets[0].last().type, 'ping');
    // No pong this time: after the timeout the socket is given up.
    await timers.advance(5000);
    assert.equal(sockets[0].closedWith, 4000);
    assert.equal(conn.state, State.waiting);
    await timers.advance(1000);
    assert.equal(sockets.length, 2);
  });

  test('stop closes for good', async () => {
    const { conn, sockets, timers } = setup();
    conn.start();
    await greet(sockets[0]);
    conn.stop();
    assert.equal(sockets[0].closedWith, 1000);
    await timers.advance(60000);
    assert.equal(sockets.length, 1);
  });

  test('another table\'s URL is only remembered on one server, but reconnects at once to a cluster\'s node', async () => {
    const { conn, sockets } = setup();
    let ready = 0;
    conn.on('ready', () => ready++);
    conn.start();
    await greet(sockets[0]);
    conn.setUrl('ws://example.test/ws?table=A');
    assert.equal(sockets.length, 1, 'one server: the same connection serves every table');
    assert.equal(conn.url, 'ws://example.test/ws?table=A');

    // A node of a cluster says its name in the welcome.
    sockets[0].drop();
    await flush();
    conn.reconnectNow();
    const node = sockets[sockets.length - 1];
    assert.equal(node.url, 'ws://example.test/ws?table=A');
    node.readyState = 1;
    node.receive({ type: 'welcome', protocol: 1, server: 'emporium', games: [], node: 'n2' });
    await flush();
    node.reply({ type: 'hello', name: 'Ann', protocol: 1 });
    await flush();
    assert.equal(conn.node, 'n2');
    const readyBefore = ready;
    const pending = conn.request({ type: 'ping' }).catch((e) => e.code);
    conn.setUrl('ws://example.test/ws?table=B');
    assert.equal(node.closedWith, 1000);
    assert.equal(await pending, 'disconnected');
    const next = sockets[sockets.length - 1];
    assert.notEqual(next, node);
    assert.equal(next.url, 'ws://example.test/ws?table=B');
    await greet(next);
    assert.equal(ready, readyBefore + 1, 'the page takes back what it shows');
    conn.setUrl('ws://example.test/ws?table=B');
    assert.equal(sockets[sockets.length - 1], next, 'the same URL changes nothing');
  });

  test('the hello says whether the connection is signed in, and as whom', async () => {
    const { conn, sockets } = setup();
    conn.start();
    sockets[0].accept();
    await flush();
    sockets[0].reply({ type: 'hello', name: 'Ann', account: { id: 'acc-1', name: 'Ann' }, protocol: 1 });
    await flush();
    assert.deepEqual(conn.account, { id: 'acc-1', name: 'Ann' });
    sockets[0].drop();
    await flush();
    conn.reconnectNow();
    await greet(sockets[1], 'Guest-x1'); // a guest's hello: account null (or absent, from an older server)
    assert.equal(conn.account, null);
  });

  test('reconnect() opens a new connection at once (signing in or out) and the page takes back what it shows', async () => {
    const { conn, sockets, timers } = setup();
    const hookRuns = [];
    conn.whenReady(() => hookRuns.push(sockets.length));
    conn.start();
    await greet(sockets[0]);
    await flush();
    const pending = conn.request({ type: 'ping' }).catch((e) => e.code);
    conn.reconnect('account');
    assert.equal(sockets[0].closedWith, 1000, 'the old one is closed cleanly');
    assert.equal(await pending, 'disconnected');
    assert.equal(sockets.length, 2, 'a new one at once, no backoff');
    assert.equal(conn.ready, false);
    sockets[0].onclose?.({ code: 1000 }); // the old socket's close comes late: nothing more happens
    assert.equal(sockets.length, 2);
    sockets[1].accept();
    await flush();
    sockets[1].reply({ type: 'hello', name: 'Ann', account: { id: 'acc-1', name: 'Ann' }, protocol: 1 });
    await flush();
    await flush();
    assert.equal(conn.ready, true);
    assert.equal(conn.account.id, 'acc-1');
    assert.deepEqual(hookRuns, [1, 2]);

    // While waiting to retry after a loss: at once too, without waiting out the backoff.
    sockets[1].drop();
    assert.equal(conn.state, State.waiting);
    conn.reconnect('account');
    assert.equal(sockets.length, 3);
    await timers.advance(60000);
    assert.equal(sockets.length, 3, 'the scheduled retry was dropped');
    conn.stop();
    conn.reconnect('account');
    assert.equal(sockets.length, 3, 'a stopped connection stays stopped');
  });

  test('frames from a replaced socket are ignored', async () => {
    const { conn, sockets, messages } = setup();
    conn.start();
    const old = sockets[0];
    old.accept();
    await flush();
    old.drop();
    conn.reconnectNow();
    const before = messages.length;
    old.onmessage?.({ data: JSON.stringify({ type: 'chat', text: 'late' }) });
    assert.equal(messages.length, before);
  });
});
