// Every board as a new player meets it (issue 36): hints that wait for the mouse to rest, never come on touch and
// never cover another control; no sideways scroll on a 390 px phone mid-game and at the end, with the header in one
// row; Silk Road in Japanese with its move panel and market on the first screen.
//
// The boards are reached fast, as in accessibility.test.mjs: the page's seat plays a few random moves against two
// easy bots through the protocol (protocol-driver.mjs midGame), then the client resumes the seat.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP_SHOT, PHONE, createHarness, shot, step } from './support.mjs';
import { createTableWithBots, midGame, startAndPlay } from './protocol-driver.mjs';

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
async function boardMidGame(page, game, options) {
  await page.goto('/');
  await page.waitForSelector('[data-testid=connection][data-state=open]');
  await midGame(page, game, 4, options);
  await page.waitForSelector(TURN, { timeout: 15000 });
}

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
