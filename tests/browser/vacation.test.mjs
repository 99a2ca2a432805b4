// Vacations (issue 35 item 5) in the browser: Chromium driven by playwright-core against the real server, whose
// correspondence clocks start at 20 s a move here (--correspondence-turn-s 20; in production a day per move).
//
// Ann signs up and plays Medici against an easy bot with 20 s a move and no reserve (the bot moves at once, so the
// decision soon is Ann's): her clock counts down. In a second tab she opens her account page: 21 of 21 days left;
// she starts a vacation of one day. At the table her seat says "on vacation until …" and her clock stands still,
// marked "paused"; the lobby's games in progress say "paused (vacation)". She ends the vacation: 20 of 21 days left,
// and her clock counts down again. The create form offers "Allow vacations" for a day per move only; unchecked, the
// table's clock says "no vacations" in its header and in the lobby. axe on the card and the paused clock (light and
// dark).
//
// Environment: EMPORIUM_BUILD_DIR (default build), CHROMIUM_PATH (default /usr/bin/chromium).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, axeAudit, createHarness, signUp, step } from './support.mjs';

const h = createHarness({ serverArgs: ['--bot-delay-ms', '0', '--correspondence-turn-s', '20'], failurePrefix: 'failure-vacation-' });

const MINE = '[data-testid=clock] .clock-seat.is-me';
/** The time on Ann's clock in seconds ("0:17" → 17). */
const shownSeconds = async (page) => {
  const m = /^(\d+):(\d\d)$/.exec((await page.textContent(`${MINE} [data-testid=clock-time]`)).trim());
  assert.ok(m, 'the clock shows minutes and seconds');
  return Number(m[1]) * 60 + Number(m[2]);
};
/** Waits until Ann's running clock shows less than `seconds`. */
const countsDownFrom = (page, seconds) => page.waitForFunction(([sel, s]) => {
  const li = document.querySelector(`${sel}.is-running`);
  const m = li && /^(\d+):(\d\d)$/.exec(li.querySelector('[data-testid=clock-time]').textContent.trim());
  return m && Number(m[1]) * 60 + Number(m[2]) < s;
}, [MINE, seconds], { timeout: 3000 });
const daysLeft = (page, text) => page.waitForFunction((t) => {
  const el = document.querySelector('[data-testid=account-vacation-left]');
  return el && el.textContent === t;
}, text);

test('a vacation pauses the clock at a table of a day per move, and ending it starts it again', { timeout: 60000 }, async () => {
  const A = await h.newPage('Ann', DESKTOP);
  let account; // Ann's second tab, same browser (signed in too)
  try {
    await step('Ann plays against a bot, 20 s a move: her clock counts down', 15000, async () => {
      await signUp(A, 'Ann');
      await A.selectOption('#create-game', 'medici');
      await A.selectOption('#create-players', '2');
      await A.selectOption('#create-clock', 'custom');
      await A.fill('#create-clock-turn', '20');
      await A.fill('#create-clock-reserve', '0');
      assert.equal(await A.isHidden('[data-testid=create-vacations]'), true, '20 s is no day per move for the form');
      await A.click('[data-testid=create-table]');
      await A.waitForURL(/\/t\/[A-Za-z0-9_-]+$/);
      await A.selectOption('.seat[data-seat="1"] [data-testid=bot-level]', 'easy');
      await A.click('.seat[data-seat="1"] [data-testid=add-bot]');
      await A.click('[data-testid=start]:not([disabled])');
      await A.waitForSelector(`${MINE}.is-running`);
      await countsDownFrom(A, await shownSeconds(A));
      assert.equal(await A.$('[data-testid=vacation]'), null, 'nobody is on vacation yet');
    });

    await step('on her account page, 21 days left; she takes one', 10000, async () => {
      account = await A.context().newPage();
      account.on('pageerror', (e) => h.pageErrors.push(`Ann's account tab: ${e.message}`));
      h.pages['Ann-account'] = account;
      await account.goto('/account');
      await daysLeft(account, '21 of 21 days left this year');
      assert.match(await account.textContent('[data-testid=account-vacation]'),
        /Your clocks stop in games with a day per move, unless the table forbids it\. Others see that you are on vacation\./);
      assert.equal(await account.$$eval('#account-vacation-days option', (os) => os.length), 21);
      await account.selectOption('#account-vacation-days', '1');
      await account.click('[data-testid=account-vacation-start]');
      await account.waitForSelector('[data-testid=account-vacation-end]');
      assert.match(await account.textContent('[data-testid=account-vacation-until]'), /^On vacation until \S.*\d/);
      assert.equal(await account.$('[data-testid=account-vacation-start]'), null);
      assert.deepEqual(await axeAudit(account, 'account, vacation', { include: '[data-testid=account-vacation]' }), []);
    });

    await step('at the table her seat is on vacation and her clock stands still, marked paused', 12000, async () => {
      await A.waitForSelector(`${MINE}.is-paused [data-testid=clock-paused]:visible`);
      assert.equal(await A.$(`${MINE}.is-running`), null, 'a paused clock is not running');
      assert.match(await A.textContent('.player.is-me [data-testid=vacation]'), /^on vacation until \S.*\d/);
      assert.match(await A.textContent(`${MINE} [data-testid=vacation]`), /^on vacation until /);
      assert.match(await A.getAttribute(MINE, 'aria-label'), /^Ann: 0:\d\d left, paused \(vacation\)$/);
      const before = await shownSeconds(A);
      await new Promise((r) => setTimeout(r, 2200));
      assert.equal(await shownSeconds(A), before, 'the time does not change while paused');
      assert.deepEqual(await axeAudit(A, 'table, paused clock', { include: '[data-testid=clock]' }), []);
    });

    await step('the lobby\'s games in progress say "paused (vacation)"', 8000, async () => {
      await account.goto('/');
      await account.waitForSelector('[data-testid=lobby-in-progress] [data-testid=in-progress-left]');
      assert.equal(await account.textContent('[data-testid=lobby-in-progress] [data-testid=in-progress-left]'), 'paused (vacation)');
    });

    await step('she ends her vacation: 20 days left, and her clock counts down again', 10000, async () => {
      await account.goto('/account');
      await account.click('[data-testid=account-vacation-end]');
      await account.waitForSelector('[data-testid=account-vacation-start]');
      await daysLeft(account, '20 of 21 days left this year');
      assert.equal(await account.$('[data-testid=account-vacation-until]'), null);
      await A.waitForSelector(`${MINE}.is-running`);
      assert.equal(await A.isHidden(`${MINE} [data-testid=clock-paused]`), true);
      assert.equal(await A.$('[data-testid=vacation]'), null, 'the seat is no longer on vacation');
      await countsDownFrom(A, await shownSeconds(A));
    });

    await step('"Allow vacations" for a day per move; unchecked, the table says "no vacations"', 10000, async () => {
      await account.goto('/');
      await account.selectOption('#create-game', 'medici');
      await account.selectOption('#create-clock', 'relaxed');
      assert.equal(await account.isChecked('[data-testid=create-vacations]'), true, 'vacations are allowed by default');
      await account.uncheck('[data-testid=create-vacations]');
      await account.click('[data-testid=create-table]');
      await account.waitForURL(/\/t\/[A-Za-z0-9_-]+$/);
      const id = account.url().split('/t/')[1];
      await account.waitForSelector('[data-testid=clock-config]');
      assert.equal(await account.textContent('[data-testid=clock-config]'), 'Clock: 1 day per move, no vacations');
      await account.goto('/');
      const row = `.table-item[data-table="${id}"] [data-testid=table-clock]`;
      await account.waitForSelector(row);
      assert.equal(await account.textContent(row), '1 day per move, no vacations');
    });

    assert.deepEqual(h.dialogs, [], 'no dialog (alert) was opened');
    assert.deepEqual(h.pageErrors, [], 'no script errors in the pages');
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});
