// The how-to's picture of each board (js/ui/howto.js, games/<game>/howto-figure.js), opened from the lobby's game
// cards: the game's own board draws its example position, scaled to the dialog's width (no sideways scroll at
// 1366×768 nor at 390×844), inert, with no id of its own left and no hint layer; every numbered callout stands over
// the visible part it numbers, and the legend names each callout in words. axe finds nothing serious in the dialog
// in either scheme. In Japanese the legend and the board in the picture speak Japanese. A figure that cannot be
// drawn leaves the dialog as text, with a warning in the console. Screenshots: build/screenshots/howto-<game>-<width>.png (and -dark.png).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP_SHOT, PHONE, axeAudit, createHarness, shot, step } from './support.mjs';
import { assertNoEnglish, language } from './i18n-support.mjs';

const GAMES = ['medici', 'silkroad', 'medina', 'merkator'];
const h = createHarness({ failurePrefix: 'failure-howto-' });

/** The lobby in `page`, its connection open. */
async function lobby(page) {
  await page.goto('/');
  await page.waitForSelector('[data-testid=connection][data-state=open]');
  await page.waitForSelector('.game-card [data-testid=howto-card]');
}

/** Opens `game`'s how-to from its lobby card and waits for its picture to be drawn. */
async function openHowTo(page, game) {
  await page.click(`.game-card[data-game=${game}] [data-testid=howto-card]`);
  await page.waitForSelector('[data-testid=howto][open]');
  await page.waitForSelector('[data-testid=howto-figure][data-state=ready]', { timeout: 5000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

async function closeHowTo(page) {
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid=howto]', { state: 'detached' });
}

/** What the open dialog's picture shows, measured in the page. */
function measure(page, game) {
  return page.evaluate(async (id) => {
    const { default: figure } = await import(`/games/${id}/howto-figure.js`);
    const box = (el) => {
      const r = el.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height };
    };
    const dialog = document.querySelector('[data-testid=howto]');
    const body = dialog.querySelector('.howto-body');
    const fig = dialog.querySelector('[data-testid=howto-figure]');
    const picture = fig.querySelector('.howto-picture');
    const stage = picture.querySelector('.howto-board');
    const root = stage.querySelector(`:scope > .${id}`);
    const callouts = [...picture.querySelectorAll('.howto-callouts .howto-callout')].filter((c) => !c.hidden).map((c) => {
      const part = figure.parts.find((p) => p.key === c.dataset.part);
      const el = part && stage.querySelectorAll(part.selector)[Number(c.dataset.match)];
      const r = box(c);
      return {
        key: c.dataset.part, number: c.textContent, x: r.left + r.width / 2, y: r.top + r.height / 2,
        part: el ? box(el) : null, visible: Boolean(el && el.checkVisibility({ visibilityProperty: true, opacityProperty: true })),
      };
    });
    return {
      parts: figure.parts.length,
      caption: fig.querySelector('figcaption') ? fig.querySelector('figcaption').textContent : '',
      figureIsFigure: fig.tagName === 'FIGURE',
      root: root ? box(root) : null,
      picture: box(picture),
      body: { scrollWidth: body.scrollWidth, clientWidth: body.clientWidth },
      dialog: { scrollWidth: dialog.scrollWidth, clientWidth: dialog.clientWidth },
      page: { scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth },
      inert: stage.inert,
      references: stage.querySelectorAll('[id], [for], [aria-labelledby], [aria-describedby], [data-hint]').length,
      tips: stage.querySelectorAll('.board-tip, .board-tips').length,
      // a part of the board that scrolls sideways would hide some of it
      sliding: [...stage.querySelectorAll('*')].filter((el) => el.checkVisibility() && ['auto', 'scroll'].includes(getComputedStyle(el).overflowX)
        && el.scrollWidth > el.clientWidth + 1).map((el) => el.className),
      callouts,
      legend: [...fig.querySelectorAll('[data-testid=howto-parts] > li')].map((li) => ({ key: li.dataset.part, text: li.textContent.trim() })),
      keys: figure.parts.map((p) => p.key),
    };
  }, game);
}

/** The picture's checks, for `game` at a viewport `width` px wide. */
function checkPicture(m, game, width) {
  const where = `${game} at ${width} px`;
  assert.ok(m.figureIsFigure && m.caption.trim().length > 10, `${where}: a <figure> named by its caption: ${m.caption}`);
  assert.ok(m.root && m.root.width > 100 && m.root.height > 100, `${where}: the board is drawn: ${JSON.stringify(m.root)}`);
  assert.ok(m.root.left >= m.picture.left - 1 && m.root.right <= m.picture.right + 1, `${where}: the board fits the picture's width: ${JSON.stringify({ root: m.root, picture: m.picture })}`);
  assert.ok(m.picture.bottom >= m.root.bottom - 1, `${where}: the picture is as tall as the scaled board`);
  assert.ok(m.body.scrollWidth <= m.body.clientWidth, `${where}: the dialog does not scroll sideways: ${JSON.stringify(m.body)}`);
  assert.ok(m.dialog.scrollWidth <= m.dialog.clientWidth, `${where}: the dialog does not scroll sideways: ${JSON.stringify(m.dialog)}`);
  assert.ok(m.page.scrollWidth <= m.page.clientWidth, `${where}: the page does not scroll sideways: ${JSON.stringify(m.page)}`);
  assert.equal(m.inert, true, `${where}: the board in the picture is inert`);
  assert.equal(m.references, 0, `${where}: no id nor id reference left in the picture`);
  assert.equal(m.tips, 0, `${where}: no hint layer in the picture`);
  assert.deepEqual(m.sliding, [], `${where}: nothing in the picture scrolls sideways`);
  assert.equal(m.callouts.length, m.parts, `${where}: a callout for each part: ${m.callouts.map((c) => c.key)}`);
  assert.deepEqual(m.callouts.map((c) => c.key), m.keys, `${where}: the callouts in the figure's order`);
  assert.deepEqual(m.callouts.map((c) => c.number), m.keys.map((_, i) => String(i + 1)), `${where}: numbered 1, 2, …`);
  for (const c of m.callouts) {
    assert.ok(c.part && c.visible && c.part.width > 0 && c.part.height > 0, `${where}: ${c.key}: its part is visible: ${JSON.stringify(c)}`);
    assert.ok(c.x >= c.part.left && c.x <= c.part.right && c.y >= c.part.top && c.y <= c.part.bottom, `${where}: ${c.key}: the callout's centre is over its part: ${JSON.stringify(c)}`);
    assert.ok(c.x >= m.picture.left && c.x <= m.picture.right && c.y >= m.picture.top && c.y <= m.picture.bottom, `${where}: ${c.key}: inside the picture`);
  }
  for (let i = 0; i < m.callouts.length; i++) {
    for (let j = i + 1; j < m.callouts.length; j++) {
      const [a, b] = [m.callouts[i], m.callouts[j]];
      assert.ok(Math.hypot(a.x - b.x, a.y - b.y) >= 20, `${where}: callouts ${a.number} and ${b.number} do not cover each other`);
    }
  }
  assert.deepEqual(m.legend.map((l) => l.key), m.keys, `${where}: the legend names each callout, in order`);
  for (const l of m.legend) {
    assert.ok((l.text.match(/[\p{L}]+/gu) || []).join('').length >= 8 && !/[⟦{]/.test(l.text), `${where}: ${l.key} has words: ${l.text}`);
  }
}

test('each game\'s how-to pictures its board with numbered parts, at desktop and phone width', { timeout: 180000 }, async () => {
  try {
    const english = {};
    for (const viewport of [DESKTOP_SHOT, PHONE]) {
      const page = await h.newPage(`en-${viewport.width}`, viewport);
      await lobby(page);
      for (const game of GAMES) {
        await step(`${game}: the how-to's picture at ${viewport.width}×${viewport.height}`, 60000, async () => {
          await openHowTo(page, game);
          const m = await measure(page, game);
          checkPicture(m, game, viewport.width);
          english[game] = m.legend;
          await page.$eval('[data-testid=howto-figure]', (fig) => fig.scrollIntoView({ block: 'start' }));
          await shot(page, `howto-${game}-${viewport.width}.png`, false);
          await page.emulateMedia({ colorScheme: 'dark' });
          checkPicture(await measure(page, game), game, `${viewport.width} (dark)`);
          await shot(page, `howto-${game}-${viewport.width}-dark.png`, false);
          await page.emulateMedia({ colorScheme: 'light' });
          assert.deepEqual(await axeAudit(page, `how-to of ${game} at ${viewport.width} px`, { include: '[data-testid=howto]' }), [],
            `${game} at ${viewport.width} px: axe finds nothing serious in the dialog`);
          await closeHowTo(page);
        });
      }
    }

    const JA = await language('ja');
    const ja = await h.newPage('ja', DESKTOP_SHOT, null, { locale: 'ja-JP' });
    await lobby(ja);
    assert.equal(await ja.evaluate(() => document.documentElement.lang), 'ja');
    for (const game of GAMES) {
      await step(`${game}: the how-to's picture in Japanese`, 30000, async () => {
        await openHowTo(ja, game);
        const m = await measure(ja, game);
        checkPicture(m, game, DESKTOP_SHOT.width);
        m.legend.forEach((l, i) => {
          assert.equal(l.text, `${i + 1}${JA.tr(l.key)}`, `${game}: ${l.key} in Japanese`);
          assert.notEqual(l.text, english[game][i].text, `${game}: ${l.key} is not the English text`);
        });
        assert.equal(m.caption, JA.tr('help.figure.caption'));
        // the board in the picture too: its example's players are Ann and two bots (their names in Japanese)
        await assertNoEnglish(ja, JA, { names: ['Ann'], where: `the how-to of ${game}` });
        await closeHowTo(ja);
      });
    }
    assert.deepEqual(h.pageErrors, [], 'no script errors');
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});

test('a figure that cannot be drawn leaves the how-to as text, and says so in the console', { timeout: 30000 }, async () => {
  try {
    const page = await h.newPage('broken', DESKTOP_SHOT);
    const warnings = [];
    page.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()); });
    // a view of a shape the board does not know (as a future format change would make it)
    await page.route('**/games/medici/howto-figure.js', (route) => route.fulfill({
      contentType: 'text/javascript',
      body: "export default { example: { seats: [{ seat: 0, name: 'Ann' }], view: { game: 'medici', version: 3 } }, width: 800, parts: [{ key: 'howto.medici.part.lot', selector: '.m-lot' }] };",
    }));
    await lobby(page);
    await page.click('.game-card[data-game=medici] [data-testid=howto-card]');
    await page.waitForSelector('[data-testid=howto][open]');
    await page.waitForFunction(() => !document.querySelector('[data-testid=howto-figure]'), null, { timeout: 5000 });
    const sections = await page.$$eval('[data-testid=howto] .howto-section', (els) => els.length);
    assert.equal(sections, 5, 'the rules are all there');
    assert.ok(warnings.some((w) => /how-to's picture of medici/.test(w)), `a warning in the console: ${warnings}`);
    await closeHowTo(page);
    assert.deepEqual(h.pageErrors, [], 'no script errors');
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});
