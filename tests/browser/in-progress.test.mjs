// Games in progress (issue 35): the "In progress" section of My games and the lobby's "Your games in progress" panel,
// in Chromium (headless) driven by playwright-core against the real server binary (docs/client.md, My games).
//
// Ann and Bo sign up. Ann plays two 2-player Medici games against a bot (with --bot-delay-ms 0 the bot moves at once,
// so both wait for Ann) and one against Bo with a day per move, where Ann moves until it is Bo's decision. My games
// lists the bot games under "Waiting for you (2)" and Bo's under "Waiting for others", "Bo to move" with the time
// left; the lobby's panel lists the three, Ann's turn first. axe on both, light and dark; nothing scrolls sideways at
// 390 px.
//
// Environment: EMPORIUM_BUILD_DIR (default build), CHROMIUM_PATH (default /usr/bin/chromium).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, axeAudit, createHarness, step, signUp } from './support.mjs';
import { boardState } from './medici-page.mjs';

const h = createHarness({ serverArgs: ['--bot-delay-ms', '0'], failurePrefix: 'failure-in-progress-' });



const tableOf = (page) => page.url().split('/t/')[1];
const hasControls = (st) => st.ready && (st.draw || st.stop || st.bid || st.pass);

/** Waits until the board on `page` offers a move (the page's player is to decide). */
async function untilMyDecision(page) {
  for (;;) {
    if (hasControls(await boardState(page))) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Ann's page moves (stop a lot when she may, else draw, else pass) until the board on `other` offers a move. */
async function moveUntilTheirs(page, other) {
  for (;;) {
    if (hasControls(await boardState(other))) return;
    const st = await boardState(page);
    if (hasControls(st)) {
      await page.click(`[data-action=${st.stop ? 'stop' : (st.draw ? 'draw' : 'pass')}]`);
      await page.waitForFunction((v) => Number(document.querySelector('.medici').dataset.version) > v, st.version);
    } else {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

const rowTables = (page, list) => page.$$eval(`${list} [data-testid=in-progress-row]`, (els) => els.map((e) => e.dataset.table));
const noSideways = (page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

test('games in progress: My games and the lobby list those waiting for you first', { timeout: 60000 }, async () => {
  const A = await h.newPage('Ann', DESKTOP);
  const B = await h.newPage('Bo', DESKTOP);
  const botTables = [];
  let boTable;
  try {
    await step('Ann and Bo sign up; Ann starts two games against a bot: both wait for her', 20000, async () => {
      await Promise.all([signUp(A, 'Ann'), signUp(B, 'Bo')]);
      for (let i = 0; i < 2; i++) {
        if (i > 0) await A.goto('/');
        await A.selectOption('#bots-game', 'medici');
        await A.selectOption('#bots-players', '2');
        await A.click('[data-testid=play-bots]');
        await A.waitForURL(/\/t\/[A-Za-z0-9_-]+$/);
        botTables.push(tableOf(A));
        await untilMyDecision(A);
      }
    });

    await step('a game with Bo, a day per move: Ann moves until it is Bo\'s decision', 15000, async () => {
      await A.goto('/');
      await A.selectOption('#create-game', 'medici');
      await A.selectOption('#create-players', '2');
      await A.selectOption('#create-clock', 'relaxed');
      await A.click('[data-testid=create-table]');
      await A.waitForURL(/\/t\/[A-Za-z0-9_-]+$/);
      boTable = tableOf(A);
      await B.goto(`/t/${boTable}`);
      await B.locator('[data-testid=take-seat]').first().click();
      await B.waitForSelector('.seat.is-me');
      await A.click('[data-testid=start]:not([disabled])');
      for (const p of [A, B]) await p.waitForSelector('.medici[data-version]');
      await moveUntilTheirs(A, B);
    });

    await step('My games: "Waiting for you (2)" with the bot games, Bo\'s game under "Waiting for others"', 10000, async () => {
      await A.goto('/my-games');
      await A.waitForSelector('[data-testid=in-progress] [data-testid=in-progress-others]');
      assert.equal(await A.textContent('#in-progress-waiting-h'), 'Waiting for you (2)');
      assert.deepEqual((await rowTables(A, '[data-testid=in-progress-waiting]')).sort(), [...botTables].sort());
      assert.deepEqual(await rowTables(A, '[data-testid=in-progress-others]'), [boTable]);
      const waiting = await A.$$eval('[data-testid=in-progress-waiting] [data-testid=in-progress-mover]', (els) => els.map((e) => e.textContent));
      assert.deepEqual(waiting, ['Your turn', 'Your turn']);
      const bo = `[data-testid=in-progress-others] [data-testid=in-progress-row][data-table="${boTable}"]`;
      assert.equal(await A.textContent(`${bo} [data-testid=in-progress-mover]`), 'Bo to move');
      assert.match(await A.textContent(`${bo} [data-testid=in-progress-left]`), /^(23 h|1 d 0 h) left$/);
      assert.equal(await A.getAttribute(`${bo} a`, 'href'), `/t/${boTable}`);
      assert.equal(await A.$('[data-testid=in-progress-waiting] [data-testid=in-progress-left]'), null, 'untimed: no time left');
      assert.deepEqual(await axeAudit(A, 'my games, in progress'), []);
      await A.setViewportSize(PHONE);
      assert.equal(await noSideways(A), true, 'My games does not scroll sideways at 390 px');
    });

    await step('the lobby\'s panel lists the three, Ann\'s turn first', 10000, async () => {
      await A.setViewportSize(DESKTOP);
      await A.goto('/');
      await A.waitForSelector('[data-testid=lobby-in-progress]:not([hidden]) [data-testid=in-progress-row]');
      const shown = await rowTables(A, '[data-testid=lobby-in-progress]');
      assert.equal(shown.length, 3);
      assert.deepEqual(shown.slice(0, 2).sort(), [...botTables].sort());
      assert.equal(shown[2], boTable);
      const movers = await A.$$eval('[data-testid=lobby-in-progress] [data-testid=in-progress-mover]', (els) => els.map((e) => e.textContent));
      assert.deepEqual(movers, ['Your turn', 'Your turn', 'Bo to move']);
      assert.equal(await A.$('[data-testid=lobby-in-progress-more]'), null, 'no "more" for three games');
      assert.deepEqual(await axeAudit(A, 'lobby, games in progress'), []);
      await A.setViewportSize(PHONE);
      assert.equal(await noSideways(A), true, 'the lobby does not scroll sideways at 390 px');
    });

    await step('Bo\'s lobby has the game waiting for him', 10000, async () => {
      await B.goto('/');
      await B.waitForSelector(`[data-testid=lobby-in-progress] [data-testid=in-progress-row][data-table="${boTable}"]`);
      assert.equal(await B.textContent('[data-testid=lobby-in-progress] [data-testid=in-progress-mover]'), 'Your turn');
      assert.match(await B.textContent('[data-testid=lobby-in-progress] .in-progress-with'), /^with Ann$/);
    });

    assert.deepEqual(h.dialogs, [], 'no dialog (alert) was opened');
    assert.deepEqual(h.pageErrors, [], 'no script errors in the pages');
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});
