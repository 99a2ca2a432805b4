// Medina in a real browser: Debian's Chromium (headless) driven by playwright-core, against the
// real server binary on port 0 with a temporary data directory.
//
// Scenario: A creates a private 3-player Medina table from the lobby; B and C open the invite
// link and take seats; D opens it too and watches; A starts. The three play the whole game by
// clicking the board: a piece in the picker (built from the legal list), then one of the
// highlighted squares (a seeded-random choice). Now and then a player clicks a square that is not
// highlighted, and nothing may happen. After every action: only the player to move has controls;
// the spectator never has any, and no page shows a stock that is still behind another player's
// screen. After every piece: every other page, the spectator's too, marks its square with the
// mover's seat (data-last-move), and the square the log names there, found through the letters and
// numbers on the city's edges, is that square. At the end every page shows the result. The city's
// size is checked at 1366 × 768 (A's screen) and on the phone (C). Screenshots go to
// <build>/screenshots/medina-*.png (medina-{desktop,phone}-{light,dark}.png among them).
// In Traditional Chinese: every browser says it prefers zh-TW, so the client chooses zh-Hant by itself; the
// words and patterns the checks look for come from the catalog (i18n-support.mjs), and before the start,
// mid-game and at the end no English word of the client's is on any page.
//
// Environment: EMPORIUM_BUILD_DIR (default build), CHROMIUM_PATH (default /usr/bin/chromium).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DESKTOP, PHONE, SHOTS, createHarness, createPrivateTable, joinByInvite, rng, shot, step,
} from './support.mjs';
import { assertNoEnglish, language } from './i18n-support.mjs';

const NAMES = ['Ann', 'Bea', 'Cy'];
const WIDE = { width: 1366, height: 768 }; // the desktop screenshots' screen
const L = await language('zh-Hant');

const h = createHarness({ failurePrefix: 'failure-medina-', locale: L.locale });
const noEnglish = (pages, where) => Promise.all(pages.map((p) => assertNoEnglish(p, L, { names: NAMES, where })));

// ---- the catalog's words, as patterns ----
const SIDES = ['north', 'south', 'west', 'east'];
/** Where a log line or a label says a piece goes: a square ("J9") or a wall space ("the north wall at J"). */
const PLACES = {
  square: '(?<![A-Za-z])([A-P])(\\d{1,2})(?!\\d)',
  walls: Object.fromEntries(SIDES.map((side) => [side, L.pattern(`medina.where.wall.${side}`, { name: /([A-P]|\d{1,2})(?!\d)/ })])),
};
const WHERE = new RegExp(`(?:[A-P]\\d{1,2}|${SIDES.map((side) => L.pattern(`medina.where.wall.${side}`, { name: /[A-P0-9]+/ })).join('|')})`);
const PLACE_LABEL = new RegExp(`^(?:${L.pattern('medina.square.place', { where: WHERE })}|${L.pattern('medina.square.placeShort', { where: WHERE })})`);
/** A log line about a dome is not checked against the square (the word, as "dome" in English). */
const DOME = L.tr('medina.piece.dome').toLowerCase();

// ---- helpers ----

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
      decision: document.querySelectorAll('.medina [data-decision]').length,
    };
  });
}

/**
 * Reads the place the log names for `version` the way a reader would: the newest line of that
 * version that names a square ("… on J9") or a wall space ("… on the north wall at J"), then the
 * edge labels with that letter and number, and the square lined up with them on screen. Returns
 * { text, x, y, mark } (the square's data-x/y and data-last-move), or null when no line names a place.
 */
function placeNamedInLog(page, version) {
  return page.evaluate(([v, places]) => {
    const lines = [...document.querySelectorAll(`[data-testid=log] li[data-version="${v}"]`)].map((li) => li.textContent).reverse();
    let named = null;
    for (const text of lines) {
      const wall = Object.entries(places.walls).map(([side, re]) => [side, new RegExp(re).exec(text)]).find(([, m]) => m);
      const square = new RegExp(places.square).exec(text);
      if (wall) { const at = wall[1][1]; named = { text, side: wall[0], column: /\d/.test(at) ? null : at, row: /\d/.test(at) ? at : null }; break; }
      if (square) { named = { text, column: square[1], row: square[2] }; break; }
    }
    if (!named) return null;
    const centre = (el) => { const r = el.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width }; };
    const label = (edge, text) => [...document.querySelectorAll(`.medina .md-edge[data-edge=${edge}]`)].find((e) => e.textContent === text);
    const squares = [...document.querySelectorAll('.medina .md-sq')].map((el) => ({ el, c: centre(el) }));
    let hits = squares;
    if (named.column) {
      const c = centre(label('top', named.column));
      hits = hits.filter((q) => Math.abs(q.c.x - c.x) < q.c.w / 2);
    }
    if (named.row) {
      const c = centre(label('left', named.row));
      hits = hits.filter((q) => Math.abs(q.c.y - c.y) < q.c.w / 2);
    }
    // A wall space is the outermost space of its line on that side.
    const pick = { north: (a, b) => a.c.y - b.c.y, south: (a, b) => b.c.y - a.c.y, west: (a, b) => a.c.x - b.c.x, east: (a, b) => b.c.x - a.c.x };
    if (named.side) hits = [...hits].sort(pick[named.side]).slice(0, 1);
    if (hits.length !== 1) return { text: named.text, x: null, y: null, mark: null, hits: hits.length };
    const el = hits[0].el;
    return { text: named.text, x: Number(el.dataset.x), y: Number(el.dataset.y), mark: el.dataset.lastMove ?? null };
  }, [version, PLACES]);
}

/** Every unclaimed palace listed beside the city has its "?" on the city, with the same claimants. */
function unclaimedShown(page) {
  return page.evaluate(() => {
    const rows = [...document.querySelectorAll('[data-testid=open-palaces] .md-open-row')];
    return rows.map((r) => {
      const mark = document.querySelector(`.medina [data-testid=unclaimed][data-palace="${r.dataset.palace}"]`);
      return { palace: r.dataset.palace, listed: r.dataset.claimants, onCity: mark ? mark.dataset.claimants : null };
    });
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

test('Medina: three players and a spectator play a whole game in the browser', { timeout: 300000 }, async () => {
  const started = Date.now();
  const A = await h.newPage('A', WIDE);
  const B = await h.newPage('B', DESKTOP);
  const C = await h.newPage('C', PHONE);
  const D = await h.newPage('D', DESKTOP, SPECTATOR_GUARD);

  try {
    const invite = await createPrivateTable(A, NAMES[0], { game: 'medina', title: L.tr('medina.name'), label: 'Medina' });
    await joinByInvite(invite, A, [[B, NAMES[1]], [C, NAMES[2]]], D);
    assert.equal(await A.evaluate(() => document.documentElement.lang), L.lang, 'the browser\'s language chose the client\'s');
    await noEnglish([A, B, C, D], 'the table before the start');

    await step('A starts; everyone sees the city', 15000, async () => {
      await A.click('[data-testid=start]');
      for (const p of [A, B, C, D]) await p.waitForSelector('.medina[data-version="0"] [data-testid=city]');
      const cells = await D.$$eval('.medina .md-sq', (els) => els.length);
      assert.equal(cells, 18 * 13, 'the city, its wall ring and the four towers');
      const towers = await D.$$eval('.medina .md-tower', (els) => els.map((e) => e.textContent).join(''));
      assert.equal(towers, '1342', 'towers 1 and 3 on top, 4 and 2 at the bottom');
      assert.equal(await D.$('[data-testid=picker]'), null);
      const columns = await D.$$eval('.medina .md-edge[data-edge=top]', (els) => els.map((e) => e.textContent).join(''));
      assert.equal(columns, 'ABCDEFGHIJKLMNOP', 'the columns are lettered along the edge');
      const rows = await D.$$eval('.medina .md-edge[data-edge=left]', (els) => els.map((e) => e.textContent).filter(Boolean).map(Number));
      assert.deepEqual(rows, rows.map((_, i) => i + 1), 'the rows are numbered along the edge');
    });
    const seatOf = new Map();
    for (const p of [A, B, C]) seatOf.set(p, Number(await p.getAttribute('.medina', 'data-seat')));

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
    let logNamed = 0;
    let unclaimedSeen = 0;

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
            assert.equal(other.decision, 0, `${NAMES[i]} has a move panel out of turn`);
          }
        }
        const page = players[turnIndex];
        let st = states[turnIndex];
        if (st.phase === 'play') assert.ok(st.left >= 1, 'the turn indicator shows pieces left');
        assert.equal(st.decision, 1, 'the move panel is marked data-decision');

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
          await noEnglish([A, B, C, D], `mid-game (version ${st.version})`);
          await shot(A, 'medina-player.png');
          await shot(D, 'medina-spectator.png');
          // 1366 × 768: the city as large as the first screen allows beside the move panel and the side column
          // (board-layout.test.mjs checks that all three fit it).
          const size = await A.evaluate(() => {
            window.scrollTo(0, 0);
            const r = document.querySelector('.medina [data-testid=city]').getBoundingClientRect();
            return { width: r.width, bottom: r.bottom, page: document.documentElement.scrollWidth };
          });
          assert.ok(size.width >= 680, `the city is ${Math.round(size.width)} px wide on a 1366 px screen`);
          assert.ok(size.bottom <= WIDE.height, `the city (to ${Math.round(size.bottom)} px) fits the first screen`);
          assert.ok(size.page <= WIDE.width, 'no sideways scrolling of the page');
          await shot(A, 'medina-desktop-light.png', false);
          await A.emulateMedia({ colorScheme: 'dark' });
          await shot(A, 'medina-desktop-dark.png', false);
          await A.emulateMedia({ colorScheme: 'light' });
        }
        if (!shotPhone && actions > 60 && turnIndex === 2) {
          shotPhone = true;
          await shot(C, 'medina-phone.png');
          // 390 px: the squares stay readable (the city scrolls sideways in its card); the page does not.
          const phone = await C.evaluate(() => ({
            square: document.querySelector('.medina .md-sq--city').getBoundingClientRect().width,
            page: document.documentElement.scrollWidth,
          }));
          assert.ok(phone.square >= 20, `a city square is ${phone.square} px wide on a phone`);
          assert.ok(phone.page <= 390, `the phone page is ${phone.page} px wide`);
          await C.evaluate(() => document.querySelector('.medina [data-testid=city]').scrollIntoView({ block: 'start' }));
          await shot(C, 'medina-phone-light.png', false);
          await C.emulateMedia({ colorScheme: 'dark' });
          await shot(C, 'medina-phone-dark.png', false);
          await C.emulateMedia({ colorScheme: 'light' });
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
          assert.match(label, PLACE_LABEL, label);
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

        // Every other page (the spectator's too) marks the square with the mover's seat, and the
        // square the log names there, read through the edge labels, is that square.
        const seat = seatOf.get(page);
        const version = Number(await page.getAttribute('.medina', 'data-version'));
        for (const other of [A, B, C, D].filter((p) => p !== page)) {
          await other.waitForFunction((v) => Number(document.querySelector('.medina').dataset.version) >= v, version);
          const sel = `.medina .md-sq[data-x="${x}"][data-y="${y}"][data-last-move="${seat}"]`;
          assert.ok(await other.$(sel), `after ${NAMES[seat]}'s piece on ${x},${y}: the square carries data-last-move=${seat} on every other page`);
          const named = await placeNamedInLog(other, version);
          if (named && !named.text.toLowerCase().includes(DOME)) {
            assert.deepEqual([named.x, named.y, named.mark], [x, y, String(seat)], `the log line "${named.text}" names the square that changed`);
            logNamed += 1;
          }
        }
        if (actions % 5 === 0) {
          for (const u of await unclaimedShown(D)) {
            assert.equal(u.onCity, u.listed, `palace ${u.palace}: the city shows it unclaimed with the same claimants`);
            unclaimedSeen += 1;
          }
        }
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
          assert.ok(st.resultRows.some((r) => r.includes(NAMES[p]) && r.includes(L.tr('medina.points.long', { count: scores[p] }))),
            `${who}: the ranking shows ${NAMES[p]} with ${scores[p]} points: ${st.resultRows}`);
          const s = st.stocks.find((x) => x.seat === p);
          assert.ok(!s.hidden, `${who}: seat ${p}'s stock is shown at the end`);
        }
      }
      assert.equal(await D.textContent('[data-testid=turn]'), L.tr('table.turn.over'));
      await noEnglish([A, B, C, D], 'the result');
      await shot(A, 'medina-result.png');
      await shot(C, 'medina-result-phone.png');
    });

    for (const k of ['palace', 'dome', 'resident', 'wall']) assert.ok(pieceKinds.has(k), `the game placed a ${k} (${[...pieceKinds]})`);
    assert.equal(deadClicks, 3, 'three clicks on plain squares were tried');
    assert.equal(keyboard, 2, 'two pieces were placed by keyboard');
    assert.ok(logNamed > 50, `log lines checked against the edge labels: ${logNamed}`);
    assert.ok(unclaimedSeen > 0, 'an unclaimed palace was shown and checked');
    assert.deepEqual(await D.evaluate(() => window.__leaks), [], 'the spectator never had a control or saw a screened stock');
    assert.deepEqual(h.dialogs, [], 'no dialog (alert) was opened');
    assert.deepEqual(h.pageErrors, [], 'no script errors in the pages');
    console.log(`# browser test (${L.lang}): Medina, ${actions} pieces placed through the UI (${[...pieceKinds].sort().join(', ')}), ` +
      `${deadClicks} dead clicks, ${keyboard} by keyboard, ${checks} screen checks, in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${SHOTS}`);
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});
