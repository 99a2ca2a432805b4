// Leaving a running game and letting a bot play for an absent player, in the browser: Chromium
// (headless) driven by playwright-core against the real server binary (--absent-after-s 2).
//
// A, B and C play Silk Road; D watches. C's page goes away: A sees "away" on C's seat and, after
// the threshold, "Let a bot play", which hands the seat to a stand-in bot shown with the robot
// mark and "(away)". B presses "Resign" (beside the turn indicator), says "Keep playing", asks again and resigns: B's page watches the
// table and says a bot plays the seat; everyone sees B's seat as a bot "(left)". C comes back to the
// table: the seat is C's again, with the notice "You are back: your seat is yours again".
//
// Environment: EMPORIUM_BUILD_DIR (default build), CHROMIUM_PATH (default /usr/bin/chromium).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, axeAudit, createHarness, createPrivateTable, joinByInvite, shot, step } from './support.mjs';

const h = createHarness({ serverArgs: ['--absent-after-s', '2', '--bot-delay-ms', '300'], failurePrefix: 'failure-leave-' });

const row = (seat) => `.players .player[data-seat="${seat}"]`;

test('leave a running game, let a bot play for an absent player, and come back', { timeout: 120000 }, async () => {
  const A = await h.newPage('A', DESKTOP);
  const B = await h.newPage('B', DESKTOP);
  const C = await h.newPage('C', DESKTOP);
  const D = await h.newPage('D', DESKTOP);
  try {
    const invite = await createPrivateTable(A, 'Ann', { game: 'silkroad', title: 'Maritime Silk Road', label: 'Silk Road' });
    await joinByInvite(invite, A, [[B, 'Bo'], [C, 'Cy']], D);
    let tableUrl;
    await step('A starts; the seated players get "Resign" beside the turn indicator, the spectator does not', 15000, async () => {
      await A.click('[data-testid=start]');
      for (const p of [A, B, C, D]) await p.waitForSelector('.silkroad[data-version]');
      for (const p of [A, B, C]) await p.waitForSelector('.turn-box [data-testid=resign]');
      assert.equal(await D.$('[data-testid=resign]:visible'), null);
      tableUrl = C.url();
    });

    await step('C goes away: A sees "away", then "Let a bot play" after the threshold', 15000, async () => {
      await C.goto('about:blank');
      await A.waitForSelector(`${row(2)} [data-testid=away]`);
      assert.match(await A.textContent(`${row(2)} [data-testid=away]`), /^away/);
      await A.waitForSelector(`${row(2)} [data-testid=replace-absent]`, { timeout: 8000 });
      assert.equal(await D.$('[data-testid=replace-absent]'), null, 'spectators get no button');
      assert.equal(await A.$(`${row(0)} [data-testid=replace-absent]`), null, 'not on one\'s own seat');
    });

    await step('A lets a bot play for C: everyone sees the stand-in', 10000, async () => {
      await A.click(`${row(2)} [data-testid=replace-absent]`);
      for (const p of [A, B, D]) {
        await p.waitForSelector(`${row(2)} [data-testid=seat-bot]`);
        assert.equal(await p.textContent(`${row(2)} [data-testid=stand-in]`), '(away)');
      }
      assert.match(await A.textContent(`${row(2)} .player-name`), /^Cy/);
    });

    await step('B asks to resign, keeps playing, then resigns: B watches and a bot plays B\'s seat', 20000, async () => {
      assert.equal(await B.textContent('[data-testid=resign]'), 'Resign');
      await B.click('[data-testid=resign]');
      await B.waitForSelector('[data-testid=resign-yes]');
      assert.equal(await B.textContent('#resign-q'), 'Resign this game?');
      assert.match(await B.textContent('[data-testid=resign-what]'), /^A bot plays your seat to the end; you finish last\./);
      assert.equal(await B.$('[data-testid=resign-rated]'), null, 'a casual table: nothing about ratings');
      assert.equal(await B.evaluate(() => document.activeElement.dataset.testid), 'resign-no', 'the focus on "Keep playing"');
      assert.deepEqual(await axeAudit(B, 'the resign question'), [], 'no serious or critical violation');
      await B.keyboard.press('Escape');
      await B.waitForSelector('[data-testid=resign-yes]', { state: 'detached' });
      assert.equal(await B.evaluate(() => document.activeElement.dataset.testid), 'resign', 'Escape: the focus back on "Resign"');
      await B.click('[data-testid=resign]');
      await B.click('[data-testid=resign-no]');
      await B.waitForSelector('[data-testid=resign-yes]', { state: 'detached' });
      await B.click('[data-testid=resign]');
      assert.equal(await B.textContent('[data-testid=resign-yes]'), 'Resign');
      await shot(B, 'leave-confirm.png');
      await B.click('[data-testid=resign-yes]');
      await B.waitForSelector('[data-testid=watching]');
      await B.waitForSelector('.notice >> text=You resigned: a bot plays your seat to the end.');
      assert.equal(await B.$('[data-testid=resign]:visible'), null);
      for (const p of [A, B, D]) {
        await p.waitForSelector(`${row(1)} [data-testid=stand-in]`);
        assert.equal(await p.textContent(`${row(1)} [data-testid=stand-in]`), '(left)');
      }
      await shot(A, 'leave-stand-ins.png');
    });

    await step('C comes back: the seat is C\'s again, with a notice', 15000, async () => {
      await C.goto(tableUrl);
      await C.waitForSelector('.notice >> text=You are back: your seat is yours again.');
      await C.waitForSelector('.player.is-me[data-seat="2"]');
      assert.equal(await C.$(`${row(2)} [data-testid=seat-bot]`), null);
      await A.waitForSelector(`${row(2)}:not(.is-bot)`);
      assert.equal(await A.$(`${row(2)} [data-testid=stand-in]`), null);
    });
    assert.deepEqual(h.pageErrors, []);
    assert.deepEqual(h.dialogs, [], 'no window.confirm or alert');
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});
