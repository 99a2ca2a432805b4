// The web client in front of several nodes (docs/scaling.md), as people use it: PostgreSQL (started by the test,
// tests/tools/postgres-local.sh), two emporium-server nodes and HAProxy with deploy/haproxy.cfg's routing, all on
// loopback; Chromium talks to the proxy only.
//
// P plays Medici against a bot; the page's connection names its table, so it reaches the node that holds it. Q
// plays at another table on the other node at the same time. Then P's node is killed: P's page reconnects by
// itself, lands on the surviving node (which takes the table over once the dead node's lease runs out), and P
// plays on from the same move; Q never notices.
//
// Environment: EMPORIUM_BUILD_DIR (default build), CHROMIUM_PATH (default /usr/bin/chromium).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DESKTOP, ROOT, SERVER, createHarness, openLobby, rng, shot, step } from './support.mjs';
import { boardState, moveOnce } from './medici-page.mjs';

const nodes = {}; // name -> child process
let killedNode = null;

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function waitFor(what, check, ms = 10000) {
  const end = Date.now() + ms;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function launch(serverLog) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'emporium-cluster-browser-'));
  const script = path.join(ROOT, 'tests/tools/postgres-local.sh');
  let uri;
  try {
    uri = execFileSync(script, ['start', path.join(dir, 'pg')], { encoding: 'utf8' }).trim();
  } catch (e) {
    if (e.status === 3) throw new Error('PostgreSQL is not installed: scripts/setup.sh --test installs it');
    throw e;
  }
  const ports = [];
  for (const name of ['a', 'b']) {
    const portFile = path.join(dir, `${name}.port`);
    const proc = spawn(SERVER, ['--bind', '127.0.0.1', '--port', '0', '--port-file', portFile, '--store', uri,
      '--node', name, '--lease-ms', '2000', '--bot-delay-ms', '50', '--trusted-proxies', '127.0.0.1',
      '--max-connections-per-ip', '0', '--max-tables-per-ip-per-minute', '0',
      '--web-root', path.join(ROOT, 'web-client'), '--log-level', 'warn', '--threads', '2'],
    { stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout.on('data', (d) => serverLog.push(`[${name}] ${d}`));
    proc.stderr.on('data', (d) => serverLog.push(`[${name}] ${d}`));
    nodes[name] = proc;
    await waitFor(`node ${name} listening`, async () => existsSync(portFile) && /^\d+\s*$/.test(readFileSync(portFile, 'utf8')));
    ports.push(Number(readFileSync(portFile, 'utf8')));
  }
  const port = await freePort();
  const cfg = path.join(dir, 'haproxy.cfg');
  writeFileSync(cfg, [
    'global', '  maxconn 2000',
    'defaults', '  mode http', '  timeout connect 2s', '  timeout client 60s', '  timeout server 60s',
    '  timeout tunnel 1h', '  option redispatch', '  retries 3', '  option forwardfor',
    'frontend web', `  bind 127.0.0.1:${port}`, '  default_backend nodes',
    'backend nodes', '  balance url_param table', '  hash-type consistent', '  option httpchk GET /healthz',
    `  server a 127.0.0.1:${ports[0]} check inter 300ms fall 2 rise 2`,
    `  server b 127.0.0.1:${ports[1]} check inter 300ms fall 2 rise 2`, ''].join('\n'));
  const proxy = spawn('haproxy', ['-db', '-f', cfg], { stdio: ['ignore', 'pipe', 'pipe'] });
  proxy.stderr.on('data', (d) => serverLog.push(`[haproxy] ${d}`));
  const base = `http://127.0.0.1:${port}`;
  await waitFor('haproxy answering', async () => (await fetch(`${base}/healthz`)).ok);
  const stop = async () => {
    for (const p of [proxy, ...Object.values(nodes)]) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
    execFileSync(script, ['stop', path.join(dir, 'pg')]);
    rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', () => { for (const p of [proxy, ...Object.values(nodes)]) p.kill('SIGKILL'); });
  return { base, stop };
}

const h = createHarness({ launch, failurePrefix: 'failure-cluster-' });

/** The page's connection: its URL and the node its welcome named. */
const connection = (page) => page.evaluate(() => ({ url: window.emporium.conn.url, node: window.emporium.conn.node,
  open: window.emporium.conn.ready }));

/** From the lobby, a 2-player Medici game against a bot; returns the table's id. */
async function playAgainstABot(page) {
  await page.selectOption('#bots-game', 'medici');
  await page.selectOption('#bots-players', '2');
  await page.click('[data-testid=play-bots]');
  await page.waitForURL(/\/t\/[A-Za-z0-9_-]+$/);
  await page.waitForSelector('.medici[data-version]');
  return page.url().split('/t/')[1];
}

/** P's moves (a bot answers) until the board's version has grown by `by`. */
async function playOn(page, random, by) {
  const start = (await boardState(page)).version;
  for (let i = 0; i < 400; i++) {
    const st = await boardState(page);
    if (st.version >= start + by || st.result) return st.version;
    if (st.ready && (st.draw || st.stop || st.bid || st.pass)) {
      await moveOnce(page, st, random, { lenient: true });
      await page.waitForFunction((v) => Number(document.querySelector('.medici')?.dataset.version) > v, st.version,
        { timeout: 10000 }).catch(() => {});
    } else {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`the game did not move on by ${by}`);
}

test('several nodes behind a proxy: a table on each node at once, and a node killed mid-game', { timeout: 180000 }, async () => {
  const P = await h.newPage('P', DESKTOP);
  const Q = await h.newPage('Q', DESKTOP);
  const random = rng(77);
  try {
    let pTable;
    let pNode;
    await step('P plays against a bot; the page talks to its table\'s node', 30000, async () => {
      await openLobby(P, 'Pia');
      const lobby = await connection(P);
      assert.ok(['a', 'b'].includes(lobby.node), `the welcome names the node: ${JSON.stringify(lobby)}`);
      pTable = await playAgainstABot(P);
      await waitFor('P connected with its table', async () => {
        const c = await connection(P);
        return c.open && c.url.endsWith(`/ws?table=${pTable}`);
      });
      pNode = (await connection(P)).node;
      await playOn(P, random, 4);
    });

    let qNode;
    await step('Q plays at a table of the other node at the same time', 60000, async () => {
      await openLobby(Q, 'Quin');
      for (let tries = 0; tries < 12; tries++) {
        const table = await playAgainstABot(Q);
        await waitFor('Q connected with its table', async () => {
          const c = await connection(Q);
          return c.open && c.url.endsWith(`/ws?table=${table}`);
        });
        qNode = (await connection(Q)).node;
        if (qNode !== pNode) break;
        await Q.goto('/');  // that one hashed to P's node: another table
        await Q.waitForSelector('[data-testid=connection][data-state=open]');
      }
      assert.notEqual(qNode, pNode, 'some table lands on the other node');
      await playOn(Q, random, 2);
      await playOn(P, random, 2);
    });

    await step('P\'s node is killed: P\'s page comes back on the other node at the same move and plays on', 40000, async () => {
      const before = (await boardState(P)).version;
      killedNode = pNode;
      nodes[pNode].kill('SIGKILL');
      const lost = Date.now();
      await waitFor('P back on the surviving node', async () => {
        const c = await connection(P);
        return c.open && c.node === qNode && (await boardState(P)).version >= before;
      }, 20000);
      const backIn = Date.now() - lost;
      assert.ok((await boardState(P)).version >= before, 'no move P saw is lost');
      await playOn(P, random, 3);
      await playOn(Q, random, 2);
      assert.equal((await connection(Q)).node, qNode, 'Q stayed where it was');
      await shot(P, 'cluster-after-failover.png');
      console.log(`# cluster: P's node ${killedNode} killed at version ${before}; P back on ${qNode} after ${backIn} ms`);
    });
    assert.deepEqual(h.pageErrors, []);
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});
