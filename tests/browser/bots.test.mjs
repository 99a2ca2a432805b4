// Bots in the browser: Chromium (headless) driven by playwright-core against the real server
// binary, with a short bot delay (--bot-delay-ms 50).
//
// 1. P opens the lobby and uses "Play against bots": a private 3-player Medici table with two
//    bots, started at once. P plays the whole game through the board's buttons while the bots'
//    moves arrive by themselves; the robot marks show on the two bot seats (players panel and
//    result). Screenshots go to <build>/screenshots/.
// 2. In a waiting public table the creator A adds a bot, removes it and adds an Easy one; B sees
//    the bot in the lobby's table list and, once seated, in the seat list, with no bot controls.
//
// Environment: EMPORIUM_BUILD_DIR (default build), CHROMIUM_PATH (default /usr/bin/chromium).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, SHOTS, createHarness, openLobby, rng, shot, step } from './support.mjs';
import { boardState, moveOnce } from './medici-page.mjs';

const h = createHarness({ serverArgs: ['--bot-delay-ms', '50'], failurePrefix: 'failure-bots-' });

/** The robot marks inside `scope`: [seat, level, label] for each. */
function marks(page, scope) {
  return page.$$eval(`${scope} [data-testid=seat-bot]`, (els) => els.map((e) => [
    e.closest('[data-seat]') ? e.closest('[data-seat]').dataset.seat : null, e.dataset.level, e.textContent.trim()]));
}

test('Play against bots: a private Medici game against two bots, played to the end', { timeout: 240000 }, async () => {
  const started = Date.now();
  const P = await h.newPage('P', DESKTOP);
  let actions = 0;
  let botAdvances = 0;
  try {
    await step('P opens the lobby and starts a 3-player Medici game against bots', 20000, async () => {
      await openLobby(P, 'Pia');
      const offered = await P.$$eval('#bots-game option', (os) => os.map((o) => o.value));
      assert.ok(offered.includes('medici'), `the bots form offers Medici: ${offered}`);
      await P.selectOption('#bots-game', 'medici');
      assert.deepEqual(await P.$$eval('#bots-players option', (os) => os.map((o) => o.value)), ['2', '3', '4', '5', '6']);
      await P.selectOption('#bots-players', '3');
      assert.equal(await P.inputValue('#bots-level'), 'normal', 'the level defaults to Normal');
      await P.click('[data-testid=play-bots]');
      await P.waitForURL(/\/t\/[A-Za-z0-9_-]+$/);
      await P.waitForSelector('.medici[data-version]');
      assert.match(await P.textContent('.table-meta'), /Private table/);
    });

    await step('the two bot seats carry the robot mark', 10000, async () => {
      await P.waitForSelector('.players .player [data-testid=seat-bot]');
      const shown = await marks(P, '.players');
      assert.deepEqual(shown.map(([seat]) => seat).sort(), ['1', '2']);
      for (const [, level, label] of shown) {
        assert.equal(level, 'normal');
        assert.equal(label, 'Bot · Normal');
      }
      assert.match(await P.textContent('.player.is-me .player-name'), /^Pia\b/);
      assert.equal(await P.$$eval('.player.is-me [data-testid=seat-bot]', (els) => els.length), 0, 'the person has no robot mark');
      await shot(P, 'bots-table.png');
    });

    const random = rng(4242);
    await step('P plays the whole game; the bots move by themselves', 200000, async () => {
      let lastSeen = -1;
      let actedAt = null; // the version P's last action was made at
      for (let iteration = 0; iteration < 5000; iteration++) {
        const st = await boardState(P);
        if (st.result) return;
        // A new version that P did not cause is a bot's move (P's own action adds exactly one).
        if (lastSeen >= 0 && st.version > lastSeen && !(actedAt === lastSeen && st.version === lastSeen + 1)) botAdvances += 1;
        if (st.version > lastSeen) { lastSeen = st.version; actedAt = null; }
        if (!(st.ready && (st.draw || st.stop || st.bid || st.pass))) {
          await new Promise((r) => setTimeout(r, 25));
          continue;
        }
        await moveOnce(P, st, random);
        actions += 1;
        actedAt = st.version;
        await P.waitForFunction((v) => {
          const b = document.querySelector('.medici');
          return b && Number(b.dataset.version) > v;
        }, st.version, { timeout: 10000 });
        if (actions === 12) await shot(P, 'bots-in-progress.png');
      }
      throw new Error('the game did not end within 5000 iterations');
    });

    await step('the result shows, with the robot marks on the bots', 15000, async () => {
      await P.waitForSelector('[data-testid=result]');
      assert.equal(await P.$$eval('[data-testid=result] .ranking li', (els) => els.length), 3);
      const inResult = await P.$$eval('[data-testid=result] .ranking li [data-testid=seat-bot]', (els) => els.map((e) => e.textContent.trim()));
      assert.deepEqual(inResult, ['Bot · Normal', 'Bot · Normal']);
      assert.match(await P.textContent('[data-testid=turn]'), /over/);
      assert.equal(await P.$('[data-testid=actions]'), null, 'no controls after the end');
      await shot(P, 'bots-result.png');
    });

    await step('the end is not a dead end: "Back to the lobby" leads there', 10000, async () => {
      await P.waitForSelector('[data-testid=rematch] [data-testid=play-again]');
      await P.click('[data-testid=back-to-lobby]');
      await P.waitForURL((url) => url.pathname === '/');
      await P.waitForSelector('[data-testid=game-cards]');
    });

    assert.ok(actions > 5, `P acted (${actions} actions)`);
    assert.ok(botAdvances > 5, `the bots' moves arrived without P acting (${botAdvances} times)`);
    assert.deepEqual(h.dialogs, [], 'no dialog (alert) was opened');
    assert.deepEqual(h.pageErrors, [], 'no script errors in the pages');
    console.log(`# bots: P made ${actions} moves, the bots' moves arrived ${botAdvances} times, in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${SHOTS}`);
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});

test('A waiting table: the creator adds, removes and adds an Easy bot; another person sees it', { timeout: 60000 }, async () => {
  const A = await h.newPage('A', DESKTOP);
  const B = await h.newPage('B', PHONE);
  try {
    await step('A creates a public 3-player Medici table', 15000, async () => {
      await openLobby(A, 'Ann');
      await A.selectOption('#create-game', 'medici');
      await A.selectOption('#create-players', '3');
      await A.click('[data-testid=create-table]');
      await A.waitForURL(/\/t\/[A-Za-z0-9_-]+$/);
      await A.waitForSelector('[data-testid=start]');
      assert.equal(await A.$$eval('.seat [data-testid=add-bot]', (els) => els.length), 2, 'an add-bot control on each empty seat');
      assert.deepEqual(await A.$$eval('.seat [data-testid=bot-level]', (els) => els.map((e) => e.value)), ['normal', 'normal']);
      assert.equal(await A.$('.seat [data-testid=take-seat]'), null);
    });

    await step('A adds a bot to seat 2, removes it, and adds an Easy one', 15000, async () => {
      await A.click('.seat[data-seat="1"] [data-testid=add-bot]');
      await A.waitForSelector('.seat[data-seat="1"] [data-testid=seat-bot][data-level=normal]');
      assert.equal(await A.textContent('.seat[data-seat="1"] [data-testid=seat-bot]'), 'Bot · Normal');
      assert.match(await A.textContent('.seat[data-seat="1"] .seat-name'), /\S/, 'the bot has a name');
      assert.equal(await A.$$eval('.seat [data-testid=add-bot]', (els) => els.length), 1);
      await A.click('.seat[data-seat="1"] [data-testid=remove-bot]');
      await A.waitForSelector('.seat[data-seat="1"] [data-testid=add-bot]');
      assert.equal(await A.$('.seat [data-testid=seat-bot]'), null, 'the bot is gone');
      await A.selectOption('.seat[data-seat="1"] [data-testid=bot-level]', 'easy');
      await A.click('.seat[data-seat="1"] [data-testid=add-bot]');
      await A.waitForSelector('.seat[data-seat="1"] [data-testid=seat-bot][data-level=easy]');
      assert.equal(await A.textContent('.seat[data-seat="1"] [data-testid=seat-bot]'), 'Bot · Easy');
      assert.ok(await A.$('.seat[data-seat="1"] [data-testid=remove-bot]'));
    });

    await step('B sees the bot in the lobby, joins and sees it at the table without bot controls', 20000, async () => {
      await openLobby(B, 'Bea');
      await B.waitForSelector('.table-item >> text=Ann');
      const inLobby = await B.$$eval('.table-item [data-testid=seat-bot]', (els) => els.map((e) => [e.dataset.level, e.textContent.trim()]));
      assert.deepEqual(inLobby, [['easy', 'Bot · Easy']]);
      await B.click('.table-item button:has-text("Join")');
      await B.waitForURL(/\/t\/[A-Za-z0-9_-]+$/);
      await B.waitForSelector('.seat.is-me');
      assert.deepEqual((await marks(B, '.pregame')).map(([seat, level]) => [seat, level]), [['1', 'easy']]);
      for (const testid of ['add-bot', 'remove-bot', 'bot-level']) assert.equal(await B.$(`[data-testid=${testid}]`), null, `B has no ${testid}`);
      await A.waitForSelector('[data-testid=start]:not([disabled])');
      await shot(A, 'bots-waiting-table.png');
      await shot(B, 'bots-waiting-table-phone.png');
    });

    assert.deepEqual(h.pageErrors, [], 'no script errors in the pages');
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});
