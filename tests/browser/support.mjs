// What the browser tests share: the paths, Chromium, the real server binary on port 0 with a
// temporary data directory, pages that record dialogs and script errors, scenario steps with
// deadlines, a seeded PRNG, screenshots, the lobby flow that opens a private table and fills it
// through the invite link, and axe-core's audit of a page in the light and the dark scheme. Not a test file itself (node --test runs only *.test.mjs here).
//
// Environment: EMPORIUM_BUILD_DIR (default build), CHROMIUM_PATH (default /usr/bin/chromium).
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { spawnServer } from './server-process.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BUILD = path.resolve(ROOT, process.env.EMPORIUM_BUILD_DIR || 'build');
export const SERVER = path.join(BUILD, 'server', 'emporium-server');
export const SHOTS = path.join(BUILD, 'screenshots');
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic'];
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** Runs one step of the scenario with a deadline; failures name the step. */
export async function step(name, ms, fn) {
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

/** A small seeded PRNG (mulberry32) for the players' choices (the server deals its own cards). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

export async function shot(page, name, fullPage = true) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, name), fullPage });
}

export async function setName(page, formSelector, name) {
  await page.fill(`${formSelector} input[name=name]`, name);
  await page.click(`${formSelector} button[type=submit]`);
  await page.waitForFunction(([sel, n]) => {
    const st = document.querySelector(`${sel} .form-status`);
    return st && st.dataset.kind === 'ok' && st.textContent.includes(n);
  }, [formSelector, name]);
}

/** Opens the lobby on `page`, waits for the connection and sets the display name. */
export async function openLobby(page, name) {
  await page.goto('/');
  await page.waitForSelector('[data-testid=connection][data-state=open]');
  await setName(page, '.lobby .name-form', name);
}

/**
 * Whether a console error is the browser logging an answer the client expects and shows: a replay's GET of its
 * analysis answers 404 until someone asks for one (Chromium logs every 4xx as a failed resource, by its URL).
 */
function expectedRefusal(message) {
  return /^Failed to load resource: the server responded with a status of 404/.test(message.text())
    && /\/tables\/[^/]+\/analysis\.json(\?|$)/.test(message.location().url || '');
}

/**
 * Registers the file's before/after hooks: the server (with `serverArgs` after --web-root) and
 * Chromium come up before the tests and go away after them. Returns the run's state and the
 * helpers that need it:
 *   base                 the server's URL (once `before` has run)
 *   pages, dialogs, pageErrors, serverLog
 *   newPage(label, viewport, init, contextOptions)  a page in its own context (Playwright's options added to
 *                        it: { hasTouch: true } for a phone's touch); `onPage(page, label, base)` may add listeners;
 *                        the browser says it prefers `locale`'s language (navigator.languages; default en-US,
 *                        whatever the machine's own locale, so the client speaks English unless a test asks)
 *   newPageIn(context, label)  another page in a context newPage made (its storage: a player back in a new tab)
 *   annotateFailure(err) screenshots every page as `${failurePrefix}${label}.png` and adds the page
 *                        errors and the server log to the message
 * With `launch`, the test brings its own servers up instead (several nodes: cluster.test.mjs): `launch(serverLog)`
 * resolves to {base, stop} and is called in place of starting one server.
 * The pages ask for reduced motion unless `motion` is 'no-preference'. These tests move at a machine's pace, and
 * every move's flash (on every page) would keep each page repainting for the whole game, a large share of the
 * suite's CPU time (docs/testing.md). What the tests check, the marks a move leaves (data-last-move), is the same
 * either way; the tests of scrolling keep the motion (turn-focus, lobby).
 */
export function createHarness({
  serverArgs = [], failurePrefix = 'failure-', onPage = null, locale = 'en-US', launch = null, motion = 'reduce',
} = {}) {
  let server = null;
  let stopLaunched = null;
  let dataDir = null;
  let browser = null;
  let base = null;
  const serverLog = [];
  const pages = {};
  const dialogs = [];
  const pageErrors = [];

  async function startServer() {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'emporium-browser-'));
    const up = await spawnServer({
      binary: SERVER, dataDir, webRoot: path.join(ROOT, 'web-client'), log: serverLog,
      args: [...serverArgs, '--log-level', 'warn', '--threads', '2'],
    });
    server = up.proc;
    return `http://127.0.0.1:${up.port}`;
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

  before(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (scripts/setup.sh --test)`);
    if (launch) {
      const up = await launch(serverLog);
      base = up.base;
      stopLaunched = up.stop;
    } else {
      base = await startServer();
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  });

  after(async () => {
    try {
      if (browser) await browser.close();
    } finally {
      await stopServer();
      if (stopLaunched) await stopLaunched();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }
  });

  // Never leave the server behind, whatever happens.
  process.on('exit', () => { if (server) server.kill('SIGKILL'); });

  async function newPage(label, viewport, init, contextOptions = {}) {
    const context = await browser.newContext({ viewport, baseURL: base, locale, reducedMotion: motion, ...contextOptions });
    context.setDefaultTimeout(10000);
    if (init) await context.addInitScript(init);
    return newPageIn(context, label);
  }

  /** Another page in `context` (its storage, so its seat tokens), recorded as `label` like newPage's. */
  async function newPageIn(context, label) {
    const page = await context.newPage();
    page.on('dialog', async (d) => {
      dialogs.push(`${label}: ${d.type()} ${d.message()}`);
      await d.dismiss().catch(() => {});
    });
    page.on('pageerror', (e) => pageErrors.push(`${label}: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() !== 'error' || /WebSocket|ERR_CONNECTION|net::/.test(m.text()) || expectedRefusal(m)) return;
      pageErrors.push(`${label}: console: ${m.text()}`);
    });
    if (onPage) onPage(page, label, base);
    pages[label] = page;
    return page;
  }

  async function annotateFailure(err) {
    mkdirSync(SHOTS, { recursive: true });
    for (const [label, page] of Object.entries(pages)) {
      await page.screenshot({ path: path.join(SHOTS, `${failurePrefix}${label}.png`), fullPage: true }).catch(() => {});
    }
    if (pageErrors.length) err.message += `\npage errors:\n${pageErrors.join('\n')}`;
    if (serverLog.length) err.message += `\nserver log:\n${serverLog.join('').slice(-4000)}`;
    return err;
  }

  return {
    get base() { return base; },
    pages,
    dialogs,
    pageErrors,
    serverLog,
    newPage,
    newPageIn,
    annotateFailure,
  };
}

/**
 * `host` opens the lobby as `hostName` and creates a private table of `game` for `players` from it; resolves, on
 * the table's page, to the invite link it shows.
 */
export async function openPrivateTable(host, hostName, { game = 'medici', players = 2 } = {}) {
  await openLobby(host, hostName);
  await host.selectOption('#create-game', game);
  await host.selectOption('#create-players', String(players));
  await host.check('[data-testid=private]');
  await host.click('[data-testid=create-table]');
  await host.waitForURL(/\/t\/[A-Za-z0-9_-]+$/);
  return host.inputValue('[data-testid=invite-link]');
}

/**
 * The step in which `host` creates a private 3-player table of `game` from the lobby (checking
 * that the lobby offers it as `title`, for 2 to 4 players); `label` names the game in the step.
 * Returns the invite link the page shows.
 */
export async function createPrivateTable(host, hostName, { game, title, label = title }) {
  let invite;
  await step(`A creates a private 3-player ${label} table from the lobby`, 20000, async () => {
    await openLobby(host, hostName);
    const offered = await host.$$eval('#create-game option', (os) => os.map((o) => [o.value, o.textContent]));
    assert.ok(offered.some(([id, name]) => id === game && name === title), `the lobby offers ${label}: ${offered}`);
    await host.selectOption('#create-game', game);
    const counts = await host.$$eval('#create-players option', (os) => os.map((o) => o.value));
    assert.deepEqual(counts, ['2', '3', '4']);
    await host.selectOption('#create-players', '3');
    await host.check('[data-testid=private]');
    await host.click('[data-testid=create-table]');
    await host.waitForURL(/\/t\/[A-Za-z0-9_-]+$/);
    invite = await host.inputValue('[data-testid=invite-link]');
    assert.match(invite, /\/i\/[A-Za-z0-9_-]+$/);
  });
  return invite;
}

/**
 * The step in which each [page, name] of `seated` opens the invite link, sets its name and takes
 * the first free seat, then `spectator` opens it and watches, until `host` may start.
 */
export async function joinByInvite(invite, host, seated, spectator) {
  await step('B and C take seats through the invite link; D watches', 25000, async () => {
    for (const [page, name] of seated) {
      await page.goto(invite);
      await page.waitForSelector('[data-testid=take-seat]');
      await setName(page, '.pregame .name-form', name);
      await page.click('[data-testid=take-seat] >> nth=0');
      await page.waitForSelector('.seat.is-me');
    }
    await spectator.goto(invite);
    await spectator.waitForSelector('[data-testid=watching]');
    await host.waitForSelector('[data-testid=start]:not([disabled])');
  });
}

/** The desktop size of the boards' light/dark screenshots (the phone is PHONE). */
export const DESKTOP_SHOT = { width: 1366, height: 768 };

/**
 * Screenshots `page` at `viewport` in the light and then the dark colour scheme, as
 * `${name}-light.png` and `${name}-dark.png`; the page gets its viewport and light scheme back.
 */
export async function shotLightDark(page, name, viewport) {
  const was = page.viewportSize();
  await page.setViewportSize(viewport);
  try {
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      // Let the page lay out and paint at the new size and scheme first (a shot right after the
      // resize can miss some painted boxes).
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await shot(page, `${name}-${scheme}.png`);
    }
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize(was);
  }
}

const AXE = path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js');

/**
 * Runs axe on `page` (the whole document, or `include`), in the light and the dark scheme, with every
 * <details> open so that what folds is checked too. Every violation (of any impact) is printed and added to `found`;
 * returns the serious and critical ones. axe-core is a devDependency: only the tests inject it, the client never
 * serves it.
 */
export async function axeAudit(page, where, { include = null, found = [] } = {}) {
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.addScriptTag({ path: AXE });
  await page.evaluate(() => { for (const d of document.querySelectorAll('details')) d.open = true; });
  const bad = [];
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const violations = await page.evaluate(async (context) => {
      const res = await window.axe.run(context || document, { resultTypes: ['violations'] });
      return res.violations.map((v) => ({
        id: v.id, impact: v.impact, help: v.help,
        targets: v.nodes.slice(0, 10).map((n) => `${n.target.join(' ')}${n.any[0] && n.any[0].message ? ` — ${n.any[0].message}` : ''}`),
        count: v.nodes.length,
      }));
    }, include);
    const nodes = await page.evaluate(() => document.querySelectorAll('*').length);
    console.log(`# axe: ${where} [${scheme}]: ${nodes} elements, ${violations.length} violation(s)`);
    for (const v of violations) {
      const line = `${where} [${scheme}]: ${v.id} (${v.impact}, ${v.count} node${v.count === 1 ? '' : 's'}) ${v.help}\n    ${v.targets.join('\n    ')}`;
      found.push(line);
      console.log(`# ${line}`);
      if (v.impact === 'serious' || v.impact === 'critical') bad.push(line);
    }
  }
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  return bad;
}

/** Signs `page` up as `name` with a password, from the lobby, and waits until its connection is signed in. */
export async function signUp(page, name, password = 'a long enough password') {
  await page.goto('/');
  await page.waitForSelector('[data-testid=connection][data-state=open]');
  await page.evaluate(([n, p]) => window.emporium.accounts.signUpWithPassword({ name: n, password: p }), [name, password]);
  await page.waitForFunction((n) => window.emporium.conn.account && window.emporium.conn.account.name === n, name, { timeout: 15000 });
}
