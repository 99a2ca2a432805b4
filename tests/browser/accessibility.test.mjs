// Accessibility of the client, checked with axe-core (a devDependency: only the tests inject it, support.mjs axeAudit; the client
// never serves it) in Chromium (headless) against the real server: the lobby, its create form, each game's
// board in the middle of a game as its player sees it (the move panel open), a finished game's results, and the
// account's pages (signing up, with a refused password; the account page, its confirmations open),
// in the light and the dark scheme, in English and in another language when the client has one. No
// `serious` or `critical` violation may remain; every violation found (of any impact) is printed with its
// rule, impact and the elements it names. On each board every action control must also explain itself: a
// tooltip tied with aria-describedby that shows on keyboard focus and on hover (games/board-parts.js).
//
// The boards are reached fast: a page creates a table with two easy bots through the protocol
// (protocol-driver.mjs), plays a few random legal moves of its own seat, then hands the seat to the client
// itself (the seat token in the client's store) and opens the table, where the client resumes the seat.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { DESKTOP, ROOT, axeAudit, createHarness, openLobby, step } from './support.mjs';
import { createTableWithBots, midGame, startAndPlay } from './protocol-driver.mjs';

const GAMES = ['medici', 'silkroad', 'medina', 'merkator'];
const h = createHarness({ serverArgs: ['--bot-delay-ms', '0'], failurePrefix: 'failure-a11y-' });

/** Every violation found, over the whole file: "where: id (impact) targets". */
const found = [];
/** axe on `page` in both schemes (support.mjs axeAudit): the serious and critical violations. */
const audit = (page, where, { include = null } = {}) => axeAudit(page, where, { include, found });

/**
 * Every action control of the board in view explains itself (board-parts.js createHints): it is described by a
 * tooltip with words in it, which shows when the keyboard brings the focus to the control and when the pointer
 * is over it. Leaves the last tooltip shown (axe then checks its contrast too).
 */
async function checkHints(page, game) {
  const controls = await page.evaluate(() => [...document.querySelectorAll('.board-slot [data-action], .board-slot [data-piece], .board-slot [data-choose]')]
    .map((el) => {
      const tip = el.getAttribute('data-hint') && document.getElementById(el.getAttribute('data-hint'));
      const described = (el.getAttribute('aria-describedby') || '').split(' ');
      return { what: el.dataset.action || el.dataset.piece || el.dataset.choose, text: tip ? tip.textContent : null, tied: Boolean(tip) && described.includes(tip.id) };
    }));
  assert.ok(controls.length > 0, `${game}: the move panel offers controls`);
  for (const c of controls) {
    assert.ok(c.tied && c.text && c.text.length > 12 && !/[⟦{]/.test(c.text), `${game}: the ${c.what} control explains itself: ${JSON.stringify(c)}`);
  }
  const first = page.locator('.board-slot [data-hint]:visible').first();
  await first.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  const shown = () => page.evaluate(() => [...document.querySelectorAll('.board-tip:not([hidden])')].map((tip) => {
    const r = tip.getBoundingClientRect();
    return { id: tip.id, text: tip.textContent, inView: r.width > 0 && r.top >= 0 && r.bottom <= innerHeight };
  }));
  const onFocus = await shown();
  const focused = await page.evaluate(() => document.activeElement && document.activeElement.getAttribute('data-hint'));
  assert.ok(onFocus.length === 1 && onFocus[0].id === focused && onFocus[0].inView, `${game}: keyboard focus shows the hint: ${JSON.stringify(onFocus)}`);
  await page.keyboard.press('Escape');
  assert.deepEqual(await shown(), [], `${game}: Escape hides the hint`);
  const last = page.locator('.board-slot [data-hint]:visible').last();
  await last.hover();
  // the hint waits for the pointer to rest (board-parts.js HINT_DELAY)
  await page.waitForSelector('.board-tip:not([hidden])', { timeout: 3000 }).catch(() => {});
  const onHover = await shown();
  assert.ok(onHover.length === 1 && onHover[0].id === await last.getAttribute('data-hint'), `${game}: hovering shows the hint: ${JSON.stringify(onHover)}`);
  console.log(`# hints: ${game}: ${controls.length} controls, e.g. "${onHover[0].text}"`);
}

/** Another language the client offers (its catalog, loaded by js/core/i18n/index.js), or null. */
function otherLanguage() {
  const index = readFileSync(path.join(ROOT, 'web-client/js/core/i18n/index.js'), 'utf8');
  for (const lang of ['ja', 'zh-Hans', 'zh-Hant']) {
    if (existsSync(path.join(ROOT, `web-client/js/core/i18n/${lang}.js`)) && index.includes(`./${lang}.js`)) return lang;
  }
  return null;
}

test('axe finds no serious or critical violation in the lobby, the boards mid-game and the results', { timeout: 120000 }, async () => {
  const bad = [];
  const started = Date.now();
  try {
    const P = await h.newPage('lobby', DESKTOP);
    await step('the lobby and its create form', 20000, async () => {
      await openLobby(P, 'Ann');
      bad.push(...await audit(P, 'lobby'));
      await P.selectOption('#create-game', 'merkator');
      await P.selectOption('#create-clock', { index: (await P.$$('#create-clock option')).length - 1 });
      bad.push(...await audit(P, 'create form', { include: '.create-slot' }));
    });

    await step('signing up and the account page', 30000, async () => {
      const S = await h.newPage('account', DESKTOP);
      await S.goto('/account/sign-up');
      await S.waitForSelector('[data-testid=password-way]');
      await S.fill('[data-testid=sign-up-name]', 'Axe Tester');
      await S.fill('#sign-up-new', 'short');
      await S.click('[data-testid=password-sign-up]');
      await S.waitForSelector('[data-testid=password-status][data-kind=error]');
      bad.push(...await audit(S, 'sign-up, a refused password'));
      await S.fill('#sign-up-new', 'a long enough password');
      await S.fill('#sign-up-confirm', 'a long enough password');
      await S.click('[data-testid=password-sign-up]');
      await S.waitForSelector('[data-testid=account-menu]');
      await S.goto('/account');
      await S.waitForSelector('[data-testid=account-sessions]');
      await S.click('[data-testid=sign-out-everywhere]');
      await S.click('[data-testid=account-menu]');
      bad.push(...await audit(S, 'account page, its menu and a confirmation open'));
      await S.context().close();
    });

    for (const game of GAMES) {
      const G = await h.newPage(game, DESKTOP);
      await step(`${game}: the board mid-game, on the player's turn`, 30000, async () => {
        await G.goto('/');
        await G.waitForSelector('[data-testid=connection][data-state=open]');
        await midGame(G, game, 6);
        // The player's move panel (bots at no delay: the turn comes back at once), unless the game ended.
        await G.waitForSelector('[data-decision], [data-testid=result]', { timeout: 15000 });
        if (await G.$('[data-decision]')) await checkHints(G, game);
        bad.push(...await audit(G, `${game} board`));
        // One move through the board itself, then its next decision (other controls, other places).
        const before = Number(await G.getAttribute('.board-slot [data-version]', 'data-version'));
        const control = G.locator('[data-decision] [data-action]:visible:not([aria-disabled=true]), .board-slot button[data-action]:visible:not([aria-disabled=true])').last();
        if (await control.count()) {
          await control.click();
          await G.waitForFunction((v) => Number(document.querySelector('.board-slot [data-version]').dataset.version) > v
            && document.querySelector('[data-decision], [data-testid=result]'), before, { timeout: 15000 });
          bad.push(...await audit(G, `${game} board, a move later`, { include: '.board-slot' }));
        }
      });
      await G.context().close();
    }

    await step('a finished Medici game: the results', 30000, async () => {
      const D = await h.newPage('results', DESKTOP);
      await D.goto('/');
      const table = await createTableWithBots(D, 'medici');
      await startAndPlay(D, table);
      await D.goto(`/t/${table}`);
      await D.waitForSelector('[data-testid=result]');
      bad.push(...await audit(D, 'medici results'));
      await D.context().close();
    });

    const lang = otherLanguage();
    if (lang) {
      await step(`the lobby and a board in ${lang}`, 30000, async () => {
        // The language chosen as the header's picker keeps it (js/core/store.js).
        const L = await h.newPage(`lang-${lang}`, { ...DESKTOP }, `try { localStorage.setItem('emporium.language', '${lang}'); } catch {}`);
        await L.goto('/');
        await L.waitForSelector('[data-testid=connection][data-state=open]');
        await L.waitForFunction((want) => document.documentElement.lang === want, lang);
        bad.push(...await audit(L, `lobby (${lang})`));
        await L.goto('/account/sign-in');
        await L.waitForSelector('[data-testid=password-way]');
        bad.push(...await audit(L, `sign-in (${lang})`));
        await midGame(L, 'medici', 4);
        await L.waitForSelector('[data-decision], [data-testid=result]', { timeout: 15000 });
        bad.push(...await audit(L, `medici board (${lang})`));
      });
    } else {
      console.log('# no other language in the client yet: English only');
    }
    console.log(`# accessibility: ${found.length} violation(s) of any impact, ${bad.length} serious or critical, in ${Math.round((Date.now() - started) / 1000)} s`);
    assert.equal(bad.length, 0, `serious or critical accessibility violations (printed above):\n${bad.map((b) => b.split('\n')[0]).join('\n')}`);
    assert.deepEqual(h.pageErrors, [], 'no script errors in the pages');
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});
