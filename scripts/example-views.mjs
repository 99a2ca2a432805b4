#!/usr/bin/env node
// Writes each game's example position, web-client/games/<game>/example.js: what a spectator is shown in the middle
// of a 3-player game against two bots, drawn by the game's own board in the how-to's picture (js/ui/howto.js,
// games/<game>/howto-figure.js). It starts the built server (port 0, a temporary data directory), plays the first
// seat with random legal moves through the WebSocket protocol until the position shows a piece of every
// kind the figure names (GOALS below), and saves the view a watching socket gets: public information only.
//
//   node scripts/example-views.mjs [game ...]       every game when none is named
//
// Environment: EMPORIUM_BUILD_DIR (default build). Node 22 has WebSocket; node 20 gets it by a flag (re-run below).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnServer } from '../tests/browser/server-process.mjs';

if (typeof WebSocket === 'undefined') {
  const again = spawnSync(process.execPath, ['--experimental-websocket', '--no-warnings', ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(again.status ?? 1);
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUILD = path.resolve(ROOT, process.env.EMPORIUM_BUILD_DIR || 'build');
const SERVER = path.join(BUILD, 'server', 'emporium-server');
const PLAYER = 'Ann';
const MAX_MOVES = 600;

const count = (obj) => Object.values(obj || {}).reduce((n, x) => n + x, 0);

/**
 * When a spectator's view shows enough to name every part of the figure: pieces of each kind on the board, and
 * the game well under way but not near its end.
 */
const GOALS = {
  medici: (v) => v.day >= 2 && v.phase === 'auction' && v.lot.length >= 2 && v.auction.high_bidder !== null
    && v.seats.every((s) => s.ship.length >= 1 && s.ship.length < v.capacity),
  silkroad: (v) => v.phase !== 'loading' && v.phase !== 'over' && v.covered.some((n) => n > 0)
    && v.seats.some((s) => s.exchange + s.porter + s.license > 0) && v.seats.every((s) => s.ships.length >= 2),
  medina: (v) => {
    if (v.phase !== 'play' || v.turn < 24) return false;
    const owned = v.palaces.filter((p) => p.owner !== null);
    const walls = v.arms.reduce((n, a) => n + a.length, 0);
    return owned.length >= 3 && v.palaces.length - owned.length >= 1 && walls >= 6 && v.residents.length >= 4
      && owned.some((p) => p.stables.length > 0) && v.tower_tiles.some((p) => p !== null);
  },
  merkator: (v) => v.phase !== 'over' && v.turn >= 4 && !v.trigger && v.location
    && v.seats.every((s) => s.contracts.length >= 1 && count(s.goods) >= 2) && v.seats.some((s) => s.buildings.length + s.bonus_cards.length > 0),
};

const pause = (ms) => new Promise((r) => { setTimeout(r, ms); });

async function startServer() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'emporium-examples-'));
  const stopped = () => rmSync(dataDir, { recursive: true, force: true });
  let up;
  try {
    up = await spawnServer({
      binary: SERVER, dataDir, webRoot: path.join(ROOT, 'web-client'),
      args: ['--bot-delay-ms', '20', '--bot-threads', '1', '--threads', '1', '--log-level', 'warn'],
    });
  } catch (err) {
    stopped();
    throw err;
  }
  const { port, proc } = up;
  process.on('exit', () => { if (proc.exitCode === null) proc.kill('SIGKILL'); });
  const stop = () => {
    if (proc.exitCode === null) proc.kill('SIGTERM');
    stopped();
  };
  return { url: `ws://127.0.0.1:${port}/ws`, stop };
}

/** A protocol connection: request(msg) resolves with the reply (an `error` rejects); `frames` keeps the rest. */
function connect(url, name) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const pending = new Map();
    const frames = [];
    let n = 0;
    const request = (msg) => new Promise((ok, fail) => {
      const id = `r${++n}`;
      pending.set(id, { ok, fail });
      ws.send(JSON.stringify({ ...msg, id }));
    });
    ws.onmessage = (m) => {
      const f = JSON.parse(m.data);
      const p = f.re && pending.get(f.re);
      if (p) {
        pending.delete(f.re);
        (f.type === 'error' ? p.fail : p.ok)(f);
      } else {
        frames.push(f);
      }
    };
    ws.onerror = () => reject(new Error('the socket failed'));
    ws.onopen = () => request({ type: 'hello', protocol: 1, name })
      .then(() => resolve({ request, frames, close: () => ws.close() }), reject);
  });
}

/** Plays `game` until its goal; returns { seats, view } (the table's seats, the spectator's view). */
async function example(url, game) {
  const player = await connect(url, PLAYER);
  const watcher = await connect(url, 'Watcher');
  try {
    const seated = await player.request({ type: 'create_table', game, players: 3, private: true });
    const table = seated.table.id;
    for (const seat of [1, 2]) await player.request({ type: 'add_bot', table, seat, level: 'easy' });
    await watcher.request({ type: 'watch', invite: seated.invite });
    await player.request({ type: 'start', table });
    let actedAt = -1;
    for (let moves = 0; moves < MAX_MOVES;) {
      const last = [...player.frames].reverse().find((f) => (f.type === 'events' || f.type === 'snapshot') && f.table === table);
      if (last && last.type === 'events' && last.seed) break; // over: the goal was missed
      const moves_ = last && last.version !== actedAt ? (last.legal || []).filter((a) => a.type !== 'undo') : [];
      if (!moves_.length) { await pause(20); continue; }
      const shown = await watcher.request({ type: 'snapshot', table });
      if (shown.seat === null && shown.version === last.version && GOALS[game](shown.view)) {
        const info = [...player.frames].reverse().find((f) => f.type === 'table' && f.table.id === table);
        const seats = (info ? info.table : seated.table).seats.map(({ seat, name, bot }) => (bot ? { seat, name, bot } : { seat, name }));
        return { seats, view: shown.view, moves };
      }
      actedAt = last.version;
      const action = choose(moves_);
      try {
        await player.request({ type: 'act', table, version: last.version, action });
        moves += 1;
      } catch { /* stale: the next frame says */ }
      await pause(60); // under the server's limit on messages per connection
    }
    return null;
  } finally {
    player.close();
    watcher.close();
  }
}

/**
 * A random legal action: a kind of action first (so that the many amounts of a bid are not most of the choices),
 * then one of its actions; a bid among the lowest few, as a player who keeps money for later.
 */
function choose(legal) {
  const kinds = [...new Set(legal.map((a) => a.type))];
  const kind = kinds[Math.floor(Math.random() * kinds.length)];
  let of = legal.filter((a) => a.type === kind);
  if (kind === 'bid') of = of.sort((a, b) => a.amount - b.amount).slice(0, 4);
  return of[Math.floor(Math.random() * of.length)];
}

/** JSON as a JS literal, an object or array on one line when it is short. */
function literal(value, indent = '') {
  const flat = JSON.stringify(value);
  if (flat.length + indent.length <= 110 || value === null || typeof value !== 'object') return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value)) return `[\n${value.map((x) => `${inner}${literal(x, inner)}`).join(',\n')},\n${indent}]`;
  return `{\n${Object.entries(value).map(([k, x]) => `${inner}${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${literal(x, inner)}`).join(',\n')},\n${indent}}`;
}

function moduleText(game, { seats, view }) {
  return `// The example position of ${game} for the how-to's picture of the board (js/ui/howto.js, ./howto-figure.js): the
// view a spectator was shown in the middle of a 3-player game against two bots, and the table's seats. Public
// information only. Generated, not written by hand: node scripts/example-views.mjs ${game}
export default ${literal({ seats, view })};
`;
}

const games = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(GOALS);
for (const g of games) if (!GOALS[g]) throw new Error(`no goal for ${g}: one of ${Object.keys(GOALS).join(', ')}`);
const server = await startServer();
try {
  for (const game of games) {
    let found = null;
    for (let attempt = 1; attempt <= 8 && !found; attempt++) found = await example(server.url, game);
    if (!found) throw new Error(`${game}: no game reached the goal`);
    const file = path.join(ROOT, 'web-client', 'games', game, 'example.js');
    writeFileSync(file, moduleText(game, found));
    console.log(`${path.relative(ROOT, file)}: version ${found.view.version ?? '?'}, after ${found.moves} moves of ${PLAYER}`);
  }
} finally {
  server.stop();
}
