// Medina in a real browser: Debian's Chromium (headless) driven by playwright-core, against the
// real server binary on port 0 with a temporary data directory.
//
// Scenario: A creates a private 3-player Medina table from the lobby; B and C open the invite
// link and take seats; D opens it too and watches; A starts. The three play the whole game by
// clicking the board: a piece in the picker (built from the legal list), then one of the
// highlighted squares (a seeded-random choice). Now and then a player clicks a square that is not
// highlighted, and nothing may happen. After every action: only the player to move has controls;
// the spectator never has any, and no page shows a stock that is still behind another player's
// screen. At the end every page shows the result. Screenshots go to <build>/screenshots/medina-*.png.
//
// Environment: EMPORIUM_BUILD_DIR (default build), CHROMIUM_PATH (default /usr/bin/chromium).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BUILD = path.resolve(ROOT, process.env.EMPORIUM_BUILD_DIR || 'build');
const SERVER = path.join(BUILD, 'server', 'emporium-server');
const SHOTS = path.join(BUILD, 'screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic'];
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const NAMES = ['Ann', 'Bea', 'Cy'];

let server = null;
let dataDir = null;
let browser = null;
let base = null;
const serverLog = [];

// ---- helpers ----

async function step(name, ms, fn) {
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`step "${name}" did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([fn(), deadline]);
  } catch (err) {
    err.message = `[${name}] ${err.message}`;
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** A small seeded PRNG (mulberry32) for the players' choices. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

async function startServer() {
  if (!existsSync(SERVER)) {
    throw new Error(`${SERVER} is missing: build it first (cmake --build ${BUILD} --target emporium-server) or set EMPORIUM_BUILD_DIR`);
  }
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'emporium-browser-'));
  const portFile = path.join(dataDir, 'port');
  server = spawn(SERVER, ['--bind', '127.0.0.1', '--port', '0', '--port-file', portFile, '--data-dir', dataDir,
    '--web-root', path.join(ROOT, 'web-client'), '--log-level', 'warn', '--threads', '2'], { stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout.on('data', (d) => serverLog.push(String(d)));
  server.stderr.on('data', (d) => serverLog.push(String(d)));
  const exited = new Promise((resolve) => server.once('exit', (code, signal) => resolve({ code, signal })));
  for (let i = 0; i < 200; i++) {
    if (existsSync(portFile)) {
      const port = readFileSync(portFile, 'utf8').trim();
      if (/^\d+$/.test(port)) return `http://127.0.0.1:${port}`;
    }
    const done = await Promise.race([exited, new Promise((r) => setTimeout(() => r(null), 50))]);
    if (done) throw new Error(`the server exited (${JSON.stringify(done)}) before listening:\n${serverLog.join('')}`);
  }
  throw new Error(`the server wrote no port file within 10 s:\n${serverLog.join('')}`);
}

async function stopServer() {
  if (!server) return;
  const proc = server;
  server = null;
  if (proc.exitCode === null && proc.signalCode === null) {
    const gone = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
    await gone;
    clearTimeout(timer);
  }
}

const pages = {};
const dialogs = [];
const pageErrors = [];

async function newPage(label, viewport, init) {
  const context = await browser.newContext({ viewport, baseURL: base });
  context.setDefaultTimeout(10000);
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  page.on('dialog', async (d) => {
    dialogs.push(`${label}: ${d.type()} ${d.message()}`);
    await d.dismiss().catch(() => {});
  });
  page.on('pageerror', (e) => pageErrors.push(`${label}: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/WebSocket|ERR_CONNECTION|net::/.test(m.text())) pageErrors.push(`${label}: console: ${m.text()}`);
  });
  pages[label] = page;
  return page;
}

async function shot(page, name, fullPage = true) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, name), fullPage });
}

async function setName(page, formSelector, name) {
  await page.fill(`${formSelector} input[name=name]`, name);
  await page.click(`${formSelector} button[type=submit]`);
  await page.waitForFunction(([sel, n]) => {
    const st = document.querySelector(`${sel} .form-status`);
    return st && st.dataset.kind === 'ok' && st.textContent.includes(n);
  }, [formSelector, name]);
}

/** What a page shows of the game right now (one round trip). */
function boardState(page) {
  return page.evaluate(() => {
    const board = document.querySelector('.medina');
    const picker = document.querySelector('[data-testid=picker]');
    return {
      version: board ? Number(board.dataset.version) : -1,
      phase: board ? board.dataset.phase : null,
      ready: Boolean(picker) && picker.getAttribute('aria-busy') !== 'true',
      pieces: [...document.querySelectorAll('.medina [data-piece]')].map((b) => ({ key: b.dataset.piece, chosen: b.getAttribute('aria-pressed') === 'true' })),
      legal: [...document.querySelectorAll('.medina .md-sq.is-legal')].map((b) => [Number(b.dataset.x), Number(b.dataset.y)]),
      plain: [...document.querySelectorAll('.medina .md-sq--city:not(.is-legal)')].length,
      left: (() => { const l = document.querySelector('[data-testid=pieces-left]'); return l ? Number(l.dataset.left) : null; })(),
      stocks: [...document.querySelectorAll('.md-seat')].map((s) => {
        const st = s.querySelector('[data-testid=stock]');
        return { seat: Number(s.dataset.seat), hidden: st.dataset.hidden === 'true', public: st.dataset.public === 'true', text: st.textContent };
      }),
      myStock: Boolean(document.querySelector('[data-testid=my-stock]')),
      anyControl: document.querySelectorAll('.medina button, .medina [data-action], .medina [data-piece], [data-testid=picker]').length,
      result: Boolean(document.querySelector('[data-testid=result]')),
      resultRows: [...document.querySelectorAll('[data-testid=result] .rank')].map((r) => r.textContent),
      scores: [...document.querySelectorAll('.md-seat [data-testid=score]')].map((s) => Number(s.dataset.points)),
      log: [...document.querySelectorAll('[data-testid=log] li')].length,
    };
  });
}

async function waitVersionAbove(page, version) {
  await page.waitForFunction((v) => {
    const b = document.querySelector('.medina');
    return b && Number(b.dataset.version) > v;
  }, version, { timeout: 10000 });
}

// Watches D's page, from before its first paint, for any control, its own screen, or a stock that
// is shown though not public.
const SPECTATOR_GUARD = () => {
  window.__leaks = [];
  const check = () => {
    const found = document.querySelector('.medina button, .medina [data-action], .medina [data-piece], [data-testid=picker], ' +
      '[data-testid=my-stock], .medina [data-testid=stock][data-hidden=false][data-public=false]');
    if (found) window.__leaks.push(found.outerHTML.slice(0, 160));
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
};

/** Another seat's stock may show only once public (the spectator: every seat's). */
function checkScreens(st, viewer, where) {
  for (const s of st.stocks) {
    if (s.seat === viewer) continue;
    assert.ok(s.hidden || s.public, `${where}: the stock of seat ${s.seat} shows behind its screen`);
    if (s.hidden) assert.doesNotMatch(s.text, /\d/, `${where}: a number in seat ${s.seat}'s hidden stock`);
  }
  if (viewer === null) {
    assert.equal(st.anyControl, 0, `${where}: the spectator has a control`);
    assert.equal(st.myStock, false, `${where}: the spectator has a screen`);
  }
}

// ---- the run ----

before(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (scripts/setup.sh --test)`);
  base = await startServer();
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
});

after(async () => {
  try {
    if (browser) await browser.close();
  } finally {
    await stopServer();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
});

process.on('exit', () => { if (server) server.kill('SIGKILL'); });

test('Medina: three players and a spectator play a whole game in the browser', { timeout: 300000 }, async () => {
  const started = Date.now();
  const A = await newPage('A', DESKTOP);
  const B = await newPage('B', DESKTOP);
  const C = await newPage('C', PHONE);
  const D = await newPage('D', DESKTOP, SPECTATOR_GUARD);

  try {
    let invite;
    await step('A creates a private 3-player Medina table from the lobby', 20000, async () => {
      await A.goto('/');
      await A.waitForSelector('[data-testid=connection][data-state=open]');
      await setName(A, '.lobby .name-form', NAMES[0]);
      const offered = await A.$$eval('#create-game option', (os) => os.map((o) => [o.value, o.textContent]));
      assert.ok(offered.some(([id, name]) => id === 'medina' && name === 'Medina'), `the lobby offers Medina: ${offered}`);
      await A.selectOption('#create-game', 'medina');
      const counts = await A.$$eval('#create-players option', (os) => os.map((o) => o.value));
      assert.deepEqual(counts, ['2', '3', '4']);
      await A.selectOption('#create-players', '3');
      await A.check('[data-testid=private]');
      await A.click('[data-testid=create-table]');
      await A.waitForURL(/\/t\/[A-Za-z0-9_-]+$/);
      invite = await A.inputValue('[data-testid=invite-link]');
      assert.match(invite, /\/i\/[A-Za-z0-9_-]+$/);
    });

    await step('B and C take seats through the invite link; D watches', 25000, async () => {
      for (const [page, name] of [[B, NAMES[1]], [C, NAMES[2]]]) {
        await page.goto(invite);
        await page.waitForSelector('[data-testid=take-seat]');
        await setName(page, '.pregame .name-form', name);
        await page.click('[data-testid=take-seat] >> nth=0');
        await page.waitForSelector('.seat.is-me');
      }
      await D.goto(invite);
      await D.waitForSelector('[data-testid=watching]');
      await A.waitForSelector('[data-testid=start]:not([disabled])');
    });

    await step('A starts; everyone sees the city', 15000, async () => {
      await A.click('[data-testid=start]');
      for (const p of [A, B, C, D]) await p.waitForSelector('.medina[data-version="0"] [data-testid=city]');
      const cells = await D.$$eval('.medina .md-sq', (els) => els.length);
      assert.equal(cells, 18 * 13, 'the city, its wall ring and the four towers');
      const towers = await D.$$eval('.medina .md-tower', (els) => els.map((e) => e.textContent).join(''));
      assert.equal(towers, '1342', 'towers 1 and 3 on top, 4 and 2 at the bottom');
      assert.equal(await D.$('[data-testid=picker]'), null);
    });

    // ---- the game ----
    const random = rng(20261123);
    const players = [A, B, C];
    const pieceKinds = new Set();
    let actions = 0;
    let checks = 0;
    let deadClicks = 0;
    let keyboard = 0;
    let shotMid = false;
    let shotPhone = false;

    await step('the three players play the whole game through the UI', 240000, async () => {
      for (let iteration = 0; iteration < 2000; iteration++) {
        const states = await Promise.all([A, B, C, D].map(boardState));
        if (states.every((s) => s.result)) return;
        if (!states[3].result) checkScreens(states[3], null, `spectator at version ${states[3].version}`);
        states.slice(0, 3).forEach((s, p) => { if (!s.result) checkScreens(s, p, `${NAMES[p]} at version ${s.version}`); });
        checks += 1;

        const turnIndex = states.slice(0, 3).findIndex((s) => s.ready && s.pieces.length > 0);
        if (turnIndex < 0) {
          await new Promise((r) => setTimeout(r, 20));
          continue;
        }
        for (const [i, other] of states.slice(0, 3).entries()) {
          if (i !== turnIndex) {
            assert.equal(other.pieces.length + other.legal.length, 0, `${NAMES[i]} has controls out of turn`);
          }
        }
        const page = players[turnIndex];
        let st = states[turnIndex];
        if (st.phase === 'play') assert.ok(st.left >= 1, 'the turn indicator shows pieces left');

        // Now and then: a click on a square that is not highlighted changes nothing.
        if (deadClicks < 3 && st.phase === 'play' && actions % 25 === 3) {
          const legal = new Set(st.legal.map(([x, y]) => `${x},${y}`));
          let x;
          let y;
          do { x = Math.floor(random() * 16); y = Math.floor(random() * 11); } while (legal.has(`${x},${y}`));
          await page.click(`.medina .md-sq[data-x="${x}"][data-y="${y}"]`);
          await new Promise((r) => setTimeout(r, 300));
          const after = await boardState(page);
          assert.equal(after.version, st.version, `a click on the plain square ${x}, ${y} did something`);
          assert.equal(after.log, st.log, 'nothing new in the log');
          deadClicks += 1;
        }

        if (!shotMid && actions > 40 && turnIndex === 0) {
          shotMid = true;
          await shot(A, 'medina-player.png');
          await shot(D, 'medina-spectator.png');
        }
        if (!shotPhone && actions > 60 && turnIndex === 2) {
          shotPhone = true;
          await shot(C, 'medina-phone.png');
        }

        // Choose a piece (domes often, to claim palaces), then a highlighted square.
        const keys = st.pieces.map((p) => p.key);
        const domes = keys.filter((k) => k.startsWith('dome'));
        const key = domes.length && random() < 0.4 ? domes[0] : keys[Math.floor(random() * keys.length)];
        const chosen = st.pieces.find((p) => p.chosen);
        if (!chosen || chosen.key !== key) {
          await page.click(`.medina [data-piece="${key}"]`);
          await page.waitForSelector(`.medina [data-piece="${key}"][aria-pressed=true]`);
          st = await boardState(page);
        }
        pieceKinds.add(key.split(':')[0]);
        assert.ok(st.legal.length > 0, `squares are highlighted for ${key}`);
        const [x, y] = st.legal[Math.floor(random() * st.legal.length)];
        const square = `.medina .md-sq.is-legal[data-x="${x}"][data-y="${y}"]`;
        if (actions === 10 || actions === 11) {
          // By keyboard once in a while: the highlighted squares are buttons with a label.
          const label = await page.getAttribute(square, 'aria-label');
          assert.match(label, /^Place .* on (square|wall space) \d+, \d+/, label);
          await page.focus(square);
          if (actions === 10 && st.legal.length > 1) {
            // The arrow keys move between highlighted squares only.
            for (const k of ['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp']) {
              await page.keyboard.press(k);
              assert.ok(await page.evaluate(() => document.activeElement.matches('.md-sq.is-legal')), `${k} leaves the highlighted squares`);
            }
          }
          await page.keyboard.press('Enter');
          keyboard += 1;
        } else {
          await page.click(square);
        }
        actions += 1;
        await waitVersionAbove(page, st.version);
      }
      throw new Error('the game did not end within 2000 iterations');
    });

    await step('after the end every page shows the result', 20000, async () => {
      const finals = await Promise.all([A, B, C, D].map(boardState));
      const scores = finals[3].scores;
      assert.equal(scores.length, 3);
      for (const [i, st] of finals.entries()) {
        const who = i === 3 ? 'spectator' : NAMES[i];
        assert.ok(st.result, `${who}: the result is shown`);
        assert.equal(st.anyControl, 0, `${who}: no controls after the end`);
        assert.equal(st.resultRows.length, 3);
        assert.deepEqual(st.scores, scores, `${who}: the same scores`);
        for (const p of [0, 1, 2]) {
          assert.ok(st.resultRows.some((r) => r.includes(NAMES[p]) && r.includes(`${scores[p]} point`)),
            `${who}: the ranking shows ${NAMES[p]} with ${scores[p]} points: ${st.resultRows}`);
          const s = st.stocks.find((x) => x.seat === p);
          assert.ok(!s.hidden, `${who}: seat ${p}'s stock is shown at the end`);
        }
      }
      assert.match(await D.textContent('[data-testid=turn]'), /over/);
      await shot(A, 'medina-result.png');
      await shot(C, 'medina-result-phone.png');
    });

    for (const k of ['palace', 'dome', 'resident', 'wall']) assert.ok(pieceKinds.has(k), `the game placed a ${k} (${[...pieceKinds]})`);
    assert.equal(deadClicks, 3, 'three clicks on plain squares were tried');
    assert.equal(keyboard, 2, 'two pieces were placed by keyboard');
    assert.deepEqual(await D.evaluate(() => window.__leaks), [], 'the spectator never had a control or saw a screened stock');
    assert.deepEqual(dialogs, [], 'no dialog (alert) was opened');
    assert.deepEqual(pageErrors, [], 'no script errors in the pages');
    console.log(`# browser test: Medina, ${actions} pieces placed through the UI (${[...pieceKinds].sort().join(', ')}), ` +
      `${deadClicks} dead clicks, ${keyboard} by keyboard, ${checks} screen checks, in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${SHOTS}`);
  } catch (err) {
    mkdirSync(SHOTS, { recursive: true });
    for (const [label, page] of Object.entries(pages)) {
      await page.screenshot({ path: path.join(SHOTS, `failure-medina-${label}.png`), fullPage: true }).catch(() => {});
    }
    if (pageErrors.length) err.message += `\npage errors:\n${pageErrors.join('\n')}`;
    if (serverLog.length) err.message += `\nserver log:\n${serverLog.join('').slice(-4000)}`;
    throw err;
  }
});
