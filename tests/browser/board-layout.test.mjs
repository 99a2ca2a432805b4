// Every board as a new player meets it (issue 36): hints that wait for the mouse to rest, never come on touch and
// never cover another control; no sideways scroll on a 390 px phone mid-game and at the end, with the header in one
// row, each result axe clean; Silk Road in Japanese with its move panel and market on the first screen; Medina's city,
// move panel and players on the first screen at 1366×768 with the log and chat beside; every board's screenshots at
// 1366×768 and 390×844 in both themes (build/screenshots/board-<game>-*.png). Merkator: a map to read and click
// at 1366×768 (≥ 640 px wide, name plates ≥ 14 px) and on a phone (no plate cut, a larger map that slides), its
// colour key whole, axe clean in both themes; a page whose data file comes late applies no events before it; the
// standing answer to join prompts; its final scoring in true lines (one sum a line).
//
// The boards are reached fast, as in accessibility.test.mjs: the page's seat plays a few random moves against two
// easy bots through the protocol (protocol-driver.mjs midGame), then the client resumes the seat.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP_SHOT, PHONE, createHarness, shot, step } from './support.mjs';
import { axeAudit, ROOT } from './support.mjs';
import { createTableWithBots, midGame, startAndPlay } from './protocol-driver.mjs';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const GAMES = ['medici', 'silkroad', 'medina', 'merkator'];
const h = createHarness({ serverArgs: ['--bot-delay-ms', '0'], failurePrefix: 'failure-layout-' });
const TURN = '[data-decision], [data-testid=result]';

/** In the page: the shown hints, each with the controls it covers (a control's own hint covers it by design). */
const coveredByHints = (page) => page.evaluate(() => {
  const CONTROLS = 'button, a[href], input, select, textarea, summary, [role=button], [role=tab], [data-hint]';
  const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  return [...document.querySelectorAll('.board-tip:not([hidden])')].map((tip) => {
    const own = document.querySelector(`[data-hint="${tip.id}"]`);
    const r = tip.getBoundingClientRect();
    const covers = [...document.querySelectorAll(CONTROLS)].filter((c) => c !== own && !(own && (c.contains(own) || own.contains(c))))
      .filter((c) => { const b = c.getBoundingClientRect(); return c.checkVisibility() && b.width > 0 && b.height > 0 && hit(r, b); })
      .map((c) => `${c.tagName.toLowerCase()} "${(c.getAttribute('aria-label') || c.textContent).trim().slice(0, 40)}"`);
    return { id: tip.id, covers };
  });
});
const shownHints = (page) => page.$$eval('.board-tip:not([hidden])', (tips) => tips.map((t) => t.id));

/** Sideways scroll (px) and the header: how many rows its items take and its height. */
const layout = (page) => page.evaluate(() => {
  const items = [...document.querySelectorAll('#topbar > *, #topbar .topbar-right > *')]
    .filter((e) => !e.classList.contains('topbar-right') && !e.classList.contains('skip'))
    .map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0);
  const rows = [];
  for (const r of items.sort((a, b) => a.top - b.top)) {
    if (!rows.some((row) => r.top < row.bottom && row.top < r.bottom)) rows.push(r);
  }
  return {
    sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    headerRows: rows.length,
    headerHeight: Math.round(document.getElementById('topbar').getBoundingClientRect().height),
  };
});

/** The names in a ranking or an auction's rows ("Bot 1") that take more than one line (broken letter by letter). */
const brokenNames = (page) => page.$$eval('.rank-name, .bid-name', (names) => names
  .filter((n) => n.getBoundingClientRect().height > 1.5 * parseFloat(getComputedStyle(n).lineHeight)).map((n) => n.textContent));

/** The page on the site with its connection open, then the board of `game` mid-game on the player's turn. */
async function boardMidGame(page, game, options, moves = 4) {
  await page.goto('/');
  await page.waitForSelector('[data-testid=connection][data-state=open]');
  const table = await midGame(page, game, moves, options);
  await page.waitForSelector(TURN, { timeout: 15000 });
  return table;
}

/**
 * In the page: the lines of Merkator's final scoring that do not hold (each must be one true statement: at most one
 * "=" or "→", and the numbers before it give the one after), and how many lines there are. English.
 */
const falseScoringLines = (page) => page.$$eval('[data-testid=scoring] .mk-why', (lines) => {
  const wrong = [];
  for (const el of lines) {
    const line = el.textContent;
    const body = line.slice(line.indexOf(': ') + 2);
    const signs = (body.match(/[=→]/g) || []).length;
    if (signs !== 1) { wrong.push(`${signs} "=" in "${line}"`); continue; }
    const [left, right] = body.split(/ [=→] /);
    if (!/^\d+$/.test(right)) { wrong.push(`no number after "=": "${line}"`); continue; }
    if (body.includes('→')) continue; // a condition, met or not
    const plain = left.replace(/\([^)]*\)/g, '');
    const nums = (plain.match(/\d+/g) || []).map(Number);
    const max = /at most (\d+)/.exec(plain);
    const got = plain.includes('×') ? Math.min(nums[0] * nums[1], max ? Number(max[1]) : Infinity) : nums.reduce((a, b) => a + b, 0);
    if (got !== Number(right)) wrong.push(`"${line}" does not add up (${got})`);
  }
  return { wrong, count: lines.length, kinds: [...new Set(lines.map((l) => l.dataset.why))].sort() };
});

test('hints: after the mouse rests, never on touch, never over another control', { timeout: 120000 }, async () => {
  try {
    await Promise.all(GAMES.map(async (game) => {
      const P = await h.newPage(`hints-${game}`, DESKTOP_SHOT);
      await step(`${game}: keyboard focus and hover show hints that cover no control`, 30000, async () => {
        await boardMidGame(P, game);
        if (!(await P.$('[data-decision]'))) return; // over already: no controls
        // the keyboard: every hinted control in turn, each hint shown at once beside it
        await P.locator('.board-slot [data-hint]:visible').first().focus();
        await P.keyboard.press('Shift+Tab');
        let shown = 0;
        for (let i = 0; i < 60; i++) {
          await P.keyboard.press('Tab');
          const at = await P.evaluate(() => { const a = document.activeElement; return a && a.closest('.board-slot') ? a.getAttribute('data-hint') : 'out'; });
          if (at === 'out') break;
          for (const tip of await coveredByHints(P)) {
            assert.deepEqual(tip.covers, [], `${game}: the hint ${tip.id} of the focused control covers other controls`);
            shown += 1;
          }
        }
        assert.ok(shown > 0, `${game}: the keyboard's focus showed hints`);
        await P.keyboard.press('Escape');
        // the mouse: on the control with another one nearest below it (Medici's "Draw" over "Stop")
        const target = await P.evaluate(() => {
          const all = [...document.querySelectorAll('.board-slot [data-decision] [data-hint]')].filter((e) => e.checkVisibility());
          let best = all[0];
          let gap = Infinity;
          for (const a of all) {
            const r = a.getBoundingClientRect();
            for (const b of all) {
              const s = b.getBoundingClientRect();
              const d = s.top - r.bottom;
              if (b !== a && d >= 0 && d < gap && s.left < r.right && r.left < s.right) { gap = d; best = a; }
            }
          }
          best.scrollIntoView({ block: 'center' });
          const r = best.getBoundingClientRect();
          return { x: r.left + r.width / 2, y: r.top + r.height / 2, hint: best.getAttribute('data-hint') };
        });
        const arrived = await P.evaluate(() => performance.now());
        await P.mouse.move(target.x, target.y);
        await P.waitForTimeout(100);
        const early = await P.evaluate((t0) => ({ ms: performance.now() - t0, tips: [...document.querySelectorAll('.board-tip:not([hidden])')].map((t) => t.id) }), arrived);
        // (a machine too busy to look within the delay cannot tell)
        if (early.ms < 350) assert.deepEqual(early.tips, [], `${game}: no hint ${Math.round(early.ms)} ms after the mouse arrives`);
        await P.waitForSelector(`#${target.hint}:not([hidden])`, { timeout: 2000 });
        for (const tip of await coveredByHints(P)) assert.deepEqual(tip.covers, [], `${game}: the hovered control's hint covers other controls`);
        // press it (a move, or a piece picked): the board changes under a resting mouse, and still no hint covers a control
        await P.mouse.down();
        await P.mouse.up();
        await P.waitForTimeout(900);
        for (const tip of await coveredByHints(P)) assert.deepEqual(tip.covers, [], `${game}: after a press, a hint covers other controls`);
      });
      await P.context().close();
    }));
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});

test('phones: no sideways scroll on any board, mid-game and at the end; the header in one row; no hint on a tap', { timeout: 180000 }, async () => {
  try {
    await Promise.all(GAMES.map(async (game) => {
      const P = await h.newPage(`phone-${game}`, PHONE, null, { hasTouch: true });
      await step(`${game} on a phone: mid-game, a tap, then a finished game`, 90000, async () => {
        // Medici: during an auction, where the bidder's row is highlighted
        await boardMidGame(P, game, game === 'medici' ? { until: 'bid' } : {});
        let at = await layout(P);
        await shot(P, `layout-phone-${game}-mid.png`);
        assert.equal(at.sideways, 0, `${game} mid-game: ${at.sideways} px of sideways scroll at 390 px`);
        assert.equal(at.headerRows, 1, `${game}: the header in one row at 390 px (${at.headerHeight} px high)`);
        assert.deepEqual(await brokenNames(P), [], `${game}: names broken over lines mid-game`);
        const control = P.locator('[data-decision] [data-hint]:visible:not([aria-disabled=true])').first();
        if (await control.count()) {
          await control.tap();
          await P.waitForTimeout(900);
          assert.deepEqual(await shownHints(P), [], `${game}: a tap shows no hint`);
        }
        await P.goto('/');
        const table = await createTableWithBots(P, game);
        await startAndPlay(P, table);
        await P.goto(`/t/${table}`);
        await P.waitForSelector('[data-testid=result]');
        at = await layout(P);
        await shot(P, `layout-phone-${game}-end.png`);
        assert.equal(at.sideways, 0, `${game} at the end: ${at.sideways} px of sideways scroll at 390 px`);
        assert.deepEqual(await brokenNames(P), [], `${game}: names broken over lines in the final ranking`);
        // the result with its breakdown (Silk Road's and Merkator's are new): nothing serious for axe, in both themes
        assert.deepEqual(await axeAudit(P, `${game} result on a phone`), [], `${game}: no serious or critical axe violation at the end`);
        if (game === 'merkator') {
          // the final scoring: a line per merchant's contracts, per building, and the total, each one true sum
          const lines = await falseScoringLines(P);
          assert.deepEqual(lines.wrong, [], 'Merkator: every line of the final scoring holds');
          assert.ok(lines.count >= 6 && lines.kinds.includes('contracts') && lines.kinds.includes('total'), `Merkator: the scoring's lines (${JSON.stringify(lines)})`);
        }
      });
    }));
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});

test('Silk Road in Japanese: the move panel\'s first control and the market on the first screen', { timeout: 60000 }, async () => {
  try {
    const P = await h.newPage('silkroad-ja', DESKTOP_SHOT, "try { localStorage.setItem('emporium.language', 'ja'); } catch {}");
    for (const viewport of [DESKTOP_SHOT, PHONE]) {
      await step(`Silk Road in Japanese at ${viewport.width}×${viewport.height}, exchanges offered`, 30000, async () => {
        await P.setViewportSize(viewport);
        await boardMidGame(P, 'silkroad', { until: 'exchange' });
        await P.waitForSelector('[data-decision] [data-action=exchange]');
        await P.waitForTimeout(300); // the client's own scroll to the move panel
        const where = await P.evaluate(() => {
          const box = (e) => { const r = e.getBoundingClientRect(); return { top: Math.round(r.top), bottom: Math.round(r.bottom) }; };
          return { control: box(document.querySelector('[data-decision] [data-action]')), market: box(document.querySelector('[data-testid=market]')), height: innerHeight };
        });
        await shot(P, `layout-silkroad-ja-${viewport.width}.png`, false);
        const clipped = await P.$$eval('[data-decision] .btn, [data-decision] .btn *', (els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent));
        assert.deepEqual(clipped, [], 'no control\'s words cut off');
        const onScreen = (b) => b.top >= 0 && b.bottom <= where.height;
        assert.ok(onScreen(where.control) && onScreen(where.market), `both on the first screen: ${JSON.stringify(where)}`);
      });
    }
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});

// ---- Medina's page (issue 36, item 5) and every board's first screen ----

/** In the page: the boxes (left, top, right, bottom; px in the viewport) of what `parts` name, null where absent. */
const boxes = (page, parts) => page.evaluate((sels) => Object.fromEntries(Object.entries(sels).map(([name, sel]) => {
  const e = document.querySelector(sel);
  if (!e || !e.checkVisibility()) return [name, null];
  const r = e.getBoundingClientRect();
  return [name, { left: Math.round(r.left), top: Math.round(r.top), right: Math.round(r.right), bottom: Math.round(r.bottom) }];
})), parts);

test('Medina at 1366×768: the city, the move panel and the players on the first screen; the log and chat beside', { timeout: 60000 }, async () => {
  try {
    const P = await h.newPage('medina-first-screen', DESKTOP_SHOT);
    await step('a Medina board mid-game on the player\'s turn, as opened', 30000, async () => {
      await boardMidGame(P, 'medina', { until: 'place' });
      await P.waitForSelector('.medina [data-decision] [data-piece]');
      await P.evaluate(() => window.scrollTo(0, 0));
      const b = await boxes(P, {
        city: '.medina .md-city', panel: '.medina [data-decision]', players: '.table-side .players',
        log: '[data-testid=log]', chat: '[data-testid=chat]',
      });
      const height = await P.evaluate(() => innerHeight);
      await shot(P, 'medina-first-screen-1366.png', false);
      for (const part of ['city', 'panel', 'players']) {
        assert.ok(b[part] && b[part].top >= 0 && b[part].bottom <= height, `the ${part} on the first screen at 1366×768: ${JSON.stringify(b[part])} of ${height} px`);
      }
      for (const part of ['log', 'chat']) {
        assert.ok(b[part] && b[part].left >= b.city.right && b[part].top < b.city.bottom,
          `the ${part} beside the city, not under it: ${JSON.stringify(b[part])}, the city ${JSON.stringify(b.city)}`);
      }
      const squares = await P.$eval('.medina .md-sq--city', (e) => e.getBoundingClientRect().width);
      assert.ok(squares >= 30, `a square of the city is ${Math.round(squares)} px wide (at least 30, to read and click)`);
    });
    await P.context().close();
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});

/** The score of each seat in the players panel (a number, or null where it shows none). */
const panelScores = (page) => page.$$eval('.table-side .players li.player', (lis) => lis.map((li) => {
  const score = li.querySelector('[data-testid=seat-score]');
  return score ? Number(/\d+/.exec(score.textContent)[0]) : null;
}));

/** Each seat's score as the board shows it: Medici's florins, Medina's points; Silk Road's coins are secret. */
const boardScores = (page, game) => page.evaluate((g) => {
  const all = (sel, f) => [...document.querySelectorAll(sel)].map(f);
  if (g === 'medici') return all('.medici [data-testid=money] strong', (e) => Number(e.textContent));
  if (g === 'medina') return all('.medina [data-testid=score]', (e) => Number(e.dataset.points));
  return all('.table-side .players li.player', () => null); // Silk Road: none
}, game);

test('every board at 1366×768 and 390×844: the move panel\'s first control on the screen the player is shown', { timeout: 120000 }, async () => {
  try {
    await Promise.all(GAMES.map(async (game) => {
      const P = await h.newPage(`first-screen-${game}`, DESKTOP_SHOT);
      await step(`${game}: mid-game at both sizes, in both themes (screenshots board-${game}-*.png)`, 60000, async () => {
        await boardMidGame(P, game, { turnStart: true });
        for (const viewport of [DESKTOP_SHOT, PHONE]) {
          await P.setViewportSize(viewport);
          const size = `${viewport.width}x${viewport.height}`;
          // the page as the player meets it: reloaded at this size, the client's own scroll to the move panel
          await P.reload();
          await P.waitForSelector(TURN, { timeout: 15000 });
          await P.waitForTimeout(400);
          const control = await P.evaluate(() => {
            const c = document.querySelector('[data-decision] [data-action], [data-decision] [data-piece], [data-decision] [data-choose]');
            if (!c) return null;
            const r = c.getBoundingClientRect();
            return { top: Math.round(r.top), bottom: Math.round(r.bottom), height: innerHeight };
          });
          for (const scheme of ['light', 'dark']) {
            await P.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
            await P.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
            await shot(P, `board-${game}-${size}-${scheme}.png`, false);
          }
          await P.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
          if (viewport === DESKTOP_SHOT) {
            const shown = await panelScores(P);
            if (game === 'merkator') assert.ok(shown.length === 3 && shown.every(Number.isInteger), `Merkator: each seat's points in the players panel (${shown})`);
            else assert.deepEqual(shown, await boardScores(P, game), `${game}: the players panel's scores are the board's`);
          }
          if (control) assert.ok(control.top >= 0 && control.bottom <= control.height, `${game} at ${size}: the move panel's first control on the screen (${JSON.stringify(control)})`);
        }
      });
      await P.context().close();
    }));
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});

// ---- Merkator (issue 36, items 3, 4 and 10) ----

const MK_DATA = JSON.parse(readFileSync(path.join(ROOT, 'engine', 'games', 'merkator', 'merkator-data.json'), 'utf8'));

/** In the page: the map's size, its plates' rendered font sizes, the plates cut by their plate or the map, and the key. */
const mapFacts = (page) => page.evaluate(() => {
  const svg = document.querySelector('.merkator .mk-map svg');
  const frame = svg.getBoundingClientRect();
  const scale = frame.width / svg.viewBox.baseVal.width;
  const plates = [...document.querySelectorAll('.merkator .mk-label')];
  const sizes = plates.flatMap((g) => [...g.querySelectorAll('text, tspan')].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale));
  // what shows of the map: the frame, within the box that slides when the map is larger
  const scroller = svg.closest('.mk-map-scroll') || svg.parentElement;
  const shown = scroller.getBoundingClientRect();
  const cut = plates.map((g) => {
    const t = g.querySelector('text').getBoundingClientRect();
    const p = g.querySelector('rect').getBoundingClientRect();
    const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
    return inside(t, p) && inside(p, frame) ? null : `${g.dataset.label} (text ${Math.round(t.left)}–${Math.round(t.right)}, plate ${Math.round(p.left)}–${Math.round(p.right)}, map ${Math.round(frame.left)}–${Math.round(frame.right)})`;
  }).filter(Boolean);
  // the colour key: no word of it cut (an element narrower than its words, or sticking out of the key's list)
  const key = [...document.querySelectorAll('.merkator .mk-key li')];
  const keyCut = key.flatMap((li) => [li, ...li.querySelectorAll('*')]).filter((e) => {
    const r = e.getBoundingClientRect();
    const list = e.closest('.mk-key').getBoundingClientRect();
    return e.scrollWidth > e.clientWidth + 1 || r.right > list.right + 0.5 || r.left < list.left - 0.5;
  }).map((e) => e.textContent);
  return {
    width: Math.round(frame.width), height: Math.round(frame.height), top: Math.round(frame.top), bottom: Math.round(frame.bottom),
    smallest: Math.min(...sizes), plates: plates.length, cut, keyText: key.map((li) => li.textContent).join(' | '), keyCut,
    slides: scroller.scrollWidth > scroller.clientWidth + 1, shownWidth: Math.round(shown.width),
    sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    panelTop: (() => { const d = document.querySelector('.merkator [data-decision]'); return d ? Math.round(d.getBoundingClientRect().top) : null; })(),
    innerHeight,
  };
});

test('Merkator: a map to read and click, its key whole, axe clean; the data before the events', { timeout: 90000 }, async () => {
  try {
    const P = await h.newPage('merkator-map', DESKTOP_SHOT);
    let table;
    await step('at 1366×768 the map is large, its plates readable, its key whole; axe in both themes', 30000, async () => {
      table = await boardMidGame(P, 'merkator');
      await P.waitForSelector('.merkator .mk-map svg .mk-label');
      const f = await mapFacts(P);
      await shot(P, 'merkator-board-1366.png', false);
      assert.equal(f.plates, MK_DATA.locations.length, 'a plate per place');
      assert.ok(f.width >= 640, `the map is ${f.width}×${f.height} px at 1366×768 (at least 640 px wide)`);
      assert.ok(f.smallest >= 14, `the smallest name plate is ${f.smallest.toFixed(1)} px (at least 14)`);
      assert.ok(f.top >= 0 && f.bottom <= f.innerHeight, `the whole map on the first screen (${f.top}–${f.bottom} of ${f.innerHeight})`);
      if (f.panelTop !== null) assert.ok(f.panelTop < f.innerHeight - 150, `the move panel beside it on the first screen (top ${f.panelTop})`);
      assert.deepEqual(f.cut, [], 'no name plate cut');
      assert.deepEqual(f.keyCut, [], 'no word of the colour key cut');
      for (const g of MK_DATA.goods) assert.ok(f.keyText.includes(g.name), `the key names ${g.name}: ${f.keyText}`);
      const bad = await axeAudit(P, 'Merkator mid-game');
      assert.deepEqual(bad, [], 'no serious or critical axe violation on the Merkator board');
    });
    await step('on a phone the whole map is as wide as the screen, no plate cut; "Larger map" makes plates readable, sliding in its box', 15000, async () => {
      await P.setViewportSize(PHONE);
      await P.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      let f = await mapFacts(P);
      await shot(P, 'merkator-board-390.png');
      assert.deepEqual(f.cut, [], 'no name plate cut at 390×844');
      assert.ok(f.width >= 340, `the map takes the phone's width (${f.width} px)`);
      assert.deepEqual(f.keyCut, [], 'no word of the colour key cut at 390×844');
      assert.equal(f.sideways, 0, 'no sideways scroll');
      await P.click('.merkator .mk-zoom');
      await P.waitForSelector('.merkator .mk-zoom[aria-pressed=true]');
      f = await mapFacts(P);
      await P.locator('.merkator [data-testid=map]').screenshot({ path: path.join(ROOT, 'build', 'screenshots', 'merkator-map-390-larger.png') });
      assert.ok(f.smallest >= 14, `the larger map's smallest plate is ${f.smallest.toFixed(1)} px`);
      assert.ok(f.slides, 'the larger map slides sideways in its box');
      assert.equal(f.sideways, 0, 'the page itself does not scroll sideways');
      await P.click('.merkator .mk-zoom');
      await P.waitForSelector('.merkator .mk-zoom[aria-pressed=false]');
    });
    await step('a page whose data file comes late applies no events before it (no snapshot asked for a failure)', 20000, async () => {
      const S = await h.newPage('merkator-late-data', DESKTOP_SHOT);
      await S.route('**/games/merkator/data.json', async (route) => {
        await new Promise((r) => { setTimeout(r, 1200); });
        await route.continue();
      });
      await S.goto(`/t/${table}`);
      await S.waitForSelector('.board-slot [data-version]', { timeout: 10000 });
      const before = Number(await S.getAttribute('.board-slot [data-version]', 'data-version'));
      // the seated page moves: events come to the watcher at once
      await P.click('.merkator [data-decision] [data-action]:not([aria-disabled=true])');
      await S.waitForFunction((v) => Number(document.querySelector('.board-slot [data-version]').dataset.version) > v, before, { timeout: 10000 });
      await S.waitForSelector('.merkator .mk-map svg');
      assert.deepEqual(h.pageErrors.filter((e) => e.startsWith('merkator-late-data')), [], 'no failure applying the events');
      await S.context().close();
    });
    await P.context().close();
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});

test('Merkator: a standing answer to "Join the trip?", kept per table, stays home at once and says so', { timeout: 60000 }, async () => {
  try {
    const P = await h.newPage('merkator-standing', DESKTOP_SHOT,
      // any join prompt drawn on the page, from before the first paint
      () => {
        window.__prompts = 0;
        new MutationObserver(() => { if (document.querySelector('[data-testid=join-prompt]')) window.__prompts += 1; })
          .observe(document, { subtree: true, childList: true });
      });
    let table;
    await step('"Always ask" (the default): the join prompt shows as before, with the choice in it', 25000, async () => {
      await P.goto('/');
      await P.waitForSelector('[data-testid=connection][data-state=open]');
      table = await midGame(P, 'merkator', 0, { until: 'decline' });
      await P.waitForSelector('[data-testid=join-prompt] [data-action=decline]');
      assert.equal(await P.inputValue('[data-testid=join-prompt] #mk-standing-choice'), 'ask');
    });
    await step('"Always stay home", kept for this table: after a reload the prompt is answered at once, and the log says so', 20000, async () => {
      await P.evaluate((id) => {
        localStorage.setItem('emporium.merkator.joining', JSON.stringify({ [id]: 'never' }));
      }, table);
      const t0 = Date.now();
      await P.reload();
      await P.waitForSelector('.board-slot [data-version]');
      const shownAt = Date.now();
      await P.waitForFunction(() => [...document.querySelectorAll('[data-testid=log] li')].some((li) => /your standing choice/.test(li.textContent)), null, { timeout: 10000 });
      const ms = Date.now() - shownAt;
      assert.equal(await P.evaluate(() => window.__prompts), 0, 'the prompt was never drawn');
      assert.ok(ms < 3000, `answered ${ms} ms after the board showed (${Date.now() - t0} ms after the reload)`);
      await P.waitForSelector('[data-testid=stayed]');
      assert.match(await P.textContent('[data-testid=stayed]'), /^Stayed home from .+’s trip to .+ \(your standing choice\)\.$/);
      assert.equal(await P.inputValue('#mk-standing-choice'), 'never', 'the choice shown is the table\'s');
      const log = await P.$$eval('[data-testid=log] li', (lis) => lis.map((li) => li.textContent));
      assert.ok(log.some((l) => l.includes('You stayed home (your standing choice).')), `the log: ${log.slice(-4).join(' / ')}`);
      await shot(P, 'merkator-standing-choice.png', false);
    });
    await step('the choice made on the board is kept for this table only; "Always ask" forgets it', 5000, async () => {
      const kept = () => P.evaluate(() => JSON.parse(localStorage.getItem('emporium.merkator.joining') || '{}'));
      await P.selectOption('#mk-standing-choice', 'contracts');
      assert.deepEqual(await kept(), { [table]: 'contracts' });
      await P.selectOption('#mk-standing-choice', 'ask');
      assert.deepEqual(await kept(), {});
    });
    await P.context().close();
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});
