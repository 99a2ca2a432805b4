// The language picker and the translated boards in the browser: Chromium (headless) driven by playwright-core
// against the real server binary (bots move at once: --bot-delay-ms 0).
//
// 1. P opens the lobby in English (the browser prefers en-US), plays Medici against bots from the lobby and,
//    mid-game, chooses 日本語 in the header's picker (a labelled <select>, by keyboard): the table stays —
//    same URL, same seat, the same WebSocket (no new one is opened) — and the page speaks Japanese: <html lang>,
//    the tab's title, the heading, the turn, the log's earlier lines, no English word left. A move works after
//    the change, and the choice survives a reload. Back to English the same way.
// 2. The lobby in the three languages at phone width (nothing wider than the screen, no English), then every
//    board in Traditional Chinese, Simplified Chinese and Japanese, at desktop and phone width: a game against
//    bots from the lobby, a few random legal moves through the page's own connection to reach the middle of
//    the game, then the three languages in turn (switched in place) and a screenshot of each at each width
//    (<build>/screenshots/i18n-<game>-<lang>-<desktop|phone>.png, i18n-lobby-<lang>-phone.png). At phone width
//    nothing is wider than the screen: the page and the board have no horizontal overflow. No English word on
//    any of them.
//
// Environment: EMPORIUM_BUILD_DIR (default build), CHROMIUM_PATH (default /usr/bin/chromium).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { DESKTOP, PHONE, ROOT, SHOTS, createHarness, openLobby, shot, step } from './support.mjs';
import { assertNoEnglish, language } from './i18n-support.mjs';

const DATA_FILE = path.join(ROOT, 'engine', 'games', 'merkator', 'merkator-data.json');
const h = createHarness({ serverArgs: ['--bot-delay-ms', '0', '--merkator-data', DATA_FILE], failurePrefix: 'failure-language-' });
/**
 * The page's script errors, but for Merkator's known race: a bot's first move can arrive before the board has
 * fetched the game's data; the table then logs the failed update and takes a snapshot (no harm done).
 */
const scriptErrors = () => h.pageErrors.filter((e) => !/applying events failed; taking a snapshot Error: Merkator data not loaded/.test(e));
const EN = await language('en');
const JA = await language('ja');
const LANGS = await Promise.all(['zh-Hant', 'zh-Hans', 'ja'].map(language));
const GAMES = ['medici', 'silkroad', 'medina', 'merkator'];
const BOTS = ['Bot 1', 'Bot 2', 'Bot 3'];

/** In the lobby: a private 3-player game of `game` against easy bots, started; waits for its board. */
async function playAgainstBots(page, game) {
  await page.selectOption('#bots-game', game);
  await page.selectOption('#bots-players', '3');
  await page.selectOption('#bots-level', 'easy');
  await page.click('[data-testid=play-bots]');
  await page.waitForURL(/\/t\/[A-Za-z0-9_-]+$/);
  await page.waitForSelector(`.${game}[data-version]`);
}

/**
 * Makes `count` random legal moves of the page's seat through the page's own connection (the board follows
 * the events like any move); returns the moves made. Stops early at the end of the game.
 */
function playMoves(page, count) {
  return page.evaluate(async (n) => {
    const { conn } = window.emporium;
    const id = location.pathname.split('/')[2];
    const pause = (ms) => new Promise((r) => setTimeout(r, ms));
    let frame = null;
    const newer = (f) => f && (!frame || f.version >= frame.version);
    const off = conn.on('message', (f) => { if ((f.type === 'events' || f.type === 'snapshot') && f.table === id && newer(f)) frame = f; });
    try {
      const snap = await conn.request({ type: 'snapshot', table: id });
      if (newer(snap)) frame = snap;
      let moves = 0;
      for (let i = 0; i < 3000 && moves < n; i++) {
        if (frame.seed) break; // the game is over
        if (frame.legal && frame.legal.length) {
          const at = frame.version;
          const action = frame.legal[Math.floor(Math.random() * frame.legal.length)];
          try {
            await conn.request({ type: 'act', table: id, version: at, action });
            moves += 1;
          } catch { /* stale: the next frame says what is legal */ }
          for (let j = 0; j < 500 && frame.version <= at; j++) await pause(10);
        } else {
          await pause(20);
        }
      }
      return moves;
    } finally {
      off();
    }
  }, count);
}

/** Chooses `lang` in the header's picker and waits until the page speaks it. */
async function choose(page, lang) {
  await page.selectOption('[data-testid=language]', lang);
  await page.waitForFunction((l) => document.documentElement.lang === l, lang);
}

/** The horizontal overflow of the page and of the board (scrollWidth beyond clientWidth, px). */
function overflow(page, game) {
  return page.evaluate((g) => {
    const doc = document.documentElement;
    const board = document.querySelector(`.${g}`);
    // For the message: the innermost elements whose content is wider than their box (text that cannot wrap,
    // a child too wide), outside the boxes meant to scroll sideways.
    const scrolls = (e) => /(auto|scroll)/.test(getComputedStyle(e).overflowX);
    const contained = (e) => { for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) if (scrolls(a)) return true; return false; };
    const spilling = [...document.querySelectorAll('body *')].filter((e) => !(e instanceof SVGElement) && e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 0.5
      && getComputedStyle(e).overflowX === 'visible' && !contained(e));
    const wide = spilling.filter((e) => !spilling.some((o) => o !== e && e.contains(o))).slice(0, 4)
      .map((e) => `${e.tagName.toLowerCase()}.${String(e.getAttribute('class') || '').trim().replace(/\s+/g, '.')} "${(e.textContent || '').trim().slice(0, 24)}" +${e.scrollWidth - e.clientWidth}px`);
    return {
      page: doc.scrollWidth - doc.clientWidth,
      board: board ? board.scrollWidth - board.clientWidth : null,
      wide,
    };
  }, game);
}

const settle = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

test('switching the language mid-game keeps the table, the seat and the connection; a reload keeps the choice', { timeout: 120000 }, async () => {
  const P = await h.newPage('P', DESKTOP);
  const sockets = [];
  P.on('websocket', (ws) => sockets.push(ws.url()));
  try {
    let url;
    let seat;
    await step('P plays Medici against bots, in English', 30000, async () => {
      await openLobby(P, 'Pia');
      assert.equal(await P.evaluate(() => document.documentElement.lang), 'en', 'en-US: English');
      const picker = await P.$eval('[data-testid=language]', (s) => ({
        tag: s.tagName, label: s.labels && s.labels[0] ? s.labels[0].textContent : null,
        options: [...s.options].map((o) => [o.value, o.textContent]), value: s.value,
      }));
      assert.equal(picker.tag, 'SELECT');
      assert.equal(picker.label, EN.tr('language.label'), 'the picker is labelled');
      assert.deepEqual(picker.options, [['en', 'English'], ['zh-Hant', '繁體中文'], ['zh-Hans', '简体中文'], ['ja', '日本語']], 'each language in its own words');
      assert.equal(picker.value, 'en');
      await playAgainstBots(P, 'medici');
      assert.equal(await playMoves(P, 3), 3, 'three moves before the change');
      await P.waitForSelector('[data-testid=log] li:not(.log-empty)');
      url = P.url();
      seat = await P.getAttribute('.medici', 'data-seat');
      assert.equal(await P.textContent('.table-title h1'), EN.tr('table.heading', { game: EN.tr('medici.name') }));
      assert.equal(sockets.length, 1, 'one WebSocket');
    });

    await step('P chooses 日本語 with the keyboard: the table stays and speaks Japanese', 20000, async () => {
      const titleBefore = await P.title();
      const logBefore = await P.$$eval('[data-testid=log] li', (els) => els.map((e) => e.textContent));
      await P.focus('[data-testid=language]');
      // The options' order is English, 繁體中文, 简体中文, 日本語: End goes to the last.
      await P.keyboard.press('End');
      await P.waitForFunction(() => document.documentElement.lang === 'ja');
      assert.equal(P.url(), url, 'the same URL');
      assert.equal(await P.getAttribute('.medici', 'data-seat'), seat, 'the same seat');
      assert.deepEqual(sockets, [sockets[0]], 'no new WebSocket');
      assert.equal(await P.evaluate(() => window.emporium.conn.state), 'open');
      assert.equal(await P.evaluate(() => document.activeElement && document.activeElement.dataset.testid), 'language', 'the focus stays on the picker');
      assert.equal(await P.textContent('.table-title h1'), JA.tr('table.heading', { game: JA.tr('medici.name') }));
      assert.notEqual(await P.title(), titleBefore, 'the tab title follows');
      assert.ok((await P.title()).length > 0);
      assert.equal(await P.textContent('.log h2'), JA.tr('table.log.heading'));
      const turn = await P.textContent('[data-testid=turn]');
      assert.ok(turn === JA.tr('table.turn.yours') || new RegExp(`^${JA.pattern('table.turn.other')}$`).test(turn), `the turn in Japanese: "${turn}"`);
      const logAfter = await P.$$eval('[data-testid=log] li', (els) => els.map((e) => e.textContent));
      assert.equal(logAfter.length, logBefore.length, 'the same log lines');
      assert.ok(logAfter.every((line, i) => line !== logBefore[i]), 'every log line is told again in Japanese');
      assert.equal(await P.$eval('[data-testid=language]', (s) => s.labels[0].textContent), JA.tr('language.label'));
      await assertNoEnglish(P, JA, { names: ['Pia', ...BOTS], where: 'the table after the change' });
    });

    await step('the game goes on in Japanese; the choice survives a reload', 30000, async () => {
      const before = Number(await P.getAttribute('.medici', 'data-version'));
      assert.equal(await playMoves(P, 1), 1, 'a move after the change');
      await P.waitForFunction((v) => Number(document.querySelector('.medici').dataset.version) > v, before);
      assert.equal(sockets.length, 1, 'still one WebSocket');
      await P.reload();
      await P.waitForSelector('.medici[data-version]');
      assert.equal(await P.evaluate(() => document.documentElement.lang), 'ja', 'Japanese after the reload');
      assert.equal(await P.inputValue('[data-testid=language]'), 'ja');
      assert.equal(P.url(), url);
      assert.equal(await P.getAttribute('.medici', 'data-seat'), seat, 'the same seat after the reload');
      assert.equal(await P.textContent('.table-title h1'), JA.tr('table.heading', { game: JA.tr('medici.name') }));
      await assertNoEnglish(P, JA, { names: ['Pia', ...BOTS], where: 'the table after the reload' });
    });

    await step('"How to play" opens the game\'s rules in a dialog; Esc closes it', 10000, async () => {
      await P.click('.table-head [data-testid=howto-open]');
      await P.waitForSelector('[data-testid=howto][open]');
      const dialog = await P.$eval('[data-testid=howto]', (d) => ({
        label: document.getElementById(d.getAttribute('aria-labelledby')).textContent,
        headings: [...d.querySelectorAll('.howto-section > h3')].map((e) => e.textContent), // not the board's, in its picture
        focusInside: d.contains(document.activeElement),
      }));
      assert.equal(dialog.label, JA.tr('help.title', { game: JA.tr('medici.name') }));
      assert.deepEqual(dialog.headings, ['setup', 'turn', 'scoring', 'end', 'rulings'].map((s) => JA.tr(`help.section.${s}`)));
      assert.ok(dialog.focusInside, 'the focus is in the dialog');
      for (let i = 0; i < 4; i++) await P.keyboard.press('Tab');
      assert.ok(await P.$eval('[data-testid=howto]', (d) => d.contains(document.activeElement)), 'Tab stays in the dialog');
      await shot(P, 'i18n-howto-ja.png', false);
      await P.keyboard.press('Escape');
      await P.waitForSelector('[data-testid=howto]', { state: 'detached' });
      assert.equal(await P.evaluate(() => document.activeElement && document.activeElement.dataset.testid), 'howto-open', 'the focus goes back to the button');
    });

    await step('back to English the same way', 10000, async () => {
      await choose(P, 'en');
      assert.equal(await P.textContent('.table-title h1'), EN.tr('table.heading', { game: EN.tr('medici.name') }));
      assert.equal(sockets.length, 2, 'only the reload opened a WebSocket');
    });
    assert.deepEqual(scriptErrors(), [], 'no script errors in the page');
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});

test('every board in Traditional Chinese, Simplified Chinese and Japanese, at desktop and phone width', { timeout: 240000 }, async () => {
  const started = Date.now();
  const P = await h.newPage('Q', DESKTOP);
  // No last-move pulse (it scales the newest move's place for a moment): the widths are the layout's own.
  await P.emulateMedia({ reducedMotion: 'reduce' });
  const moves = { medici: 8, silkroad: 10, medina: 8, merkator: 10 };
  let shots = 0;
  try {
    await step('the lobby in each language at phone width: nothing wider than the screen, no English', 30000, async () => {
      await openLobby(P, 'Quinn');
      await P.setViewportSize(PHONE);
      for (const L of LANGS) {
        await choose(P, L.lang);
        await settle(P);
        const o = await overflow(P, 'lobby');
        assert.ok(o.page <= 0, `the lobby in ${L.lang} at ${PHONE.width} px: the page is ${o.page} px too wide (${o.wide.join(', ')})`);
        await assertNoEnglish(P, L, { names: ['Quinn'], where: `the lobby in ${L.lang}` });
        await shot(P, `i18n-lobby-${L.lang}-phone.png`);
        shots += 1;
      }
      await P.setViewportSize(DESKTOP);
    });
    for (const game of GAMES) {
      await step(`${game}: a game against bots, to the middle`, 60000, async () => {
        if (P.url().includes('/t/')) {
          await P.goto('/');
          await P.waitForSelector('#bots-game');
        }
        await choose(P, 'en');
        await playAgainstBots(P, game);
        const made = await playMoves(P, moves[game]);
        assert.ok(made >= Math.min(3, moves[game]), `${game}: ${made} moves`);
      });
      for (const L of LANGS) {
        await step(`${game} in ${L.lang}: screenshots, nothing wider than a phone, no English`, 30000, async () => {
          await choose(P, L.lang);
          await assertNoEnglish(P, L, { names: ['Quinn', ...BOTS], where: `${game} in ${L.lang}` });
          for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
            await P.setViewportSize(viewport);
            await settle(P);
            if (size === 'phone') {
              const o = await overflow(P, game);
              assert.ok(o.page <= 0, `${game} in ${L.lang} at ${PHONE.width} px: the page is ${o.page} px too wide (${o.wide.join(', ')})`);
              assert.ok(o.board !== null && o.board <= 0, `${game} in ${L.lang} at ${PHONE.width} px: the board is ${o.board} px too wide (${o.wide.join(', ')})`);
            }
            await shot(P, `i18n-${game}-${L.lang}-${size}.png`);
            shots += 1;
          }
          await P.setViewportSize(DESKTOP);
        });
      }
    }
    assert.deepEqual(scriptErrors(), [], 'no script errors in the page');
    console.log(`# browser test: ${shots} screenshots of the four boards in ${LANGS.map((L) => L.lang).join(', ')} in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${SHOTS}`);
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});
