// Turn clocks, rematch and "My games" in the browser: Chromium (headless) driven by playwright-core
// against the real server binary (--bot-delay-ms 50).
//
// A creates a public 2-player Medici table with the fastest clock the server allows (5 s a move, no
// reserve) through the form's custom clock; B sees the clock in the lobby's list and joins; A starts.
// The countdown is visible and counts down on both pages (screenshots at desktop and phone size).
// A plays through the board while B's page stays open but silent: B's moves time out (the log says
// so on both pages), and after three in a row a bot plays B's seat — B's page shows "A bot plays for
// you" with "Take my seat back", which B presses (the notice says the seat is B's again); B stays
// silent, the bot takes over again, and the game finishes for A. A presses "Play again": A's new
// table keeps B's seat ("kept for Bo"); B's page shows "Ann offers a rematch" with Join, which takes
// B to the new table in one click. A opens "My games" and, after a reload, sees the finished game
// with its result and the new one. Screenshots go to <build>/screenshots/.
//
// Environment: EMPORIUM_BUILD_DIR (default build), CHROMIUM_PATH (default /usr/bin/chromium).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, axeAudit, createHarness, openLobby, rng, shot, step } from './support.mjs';
import { boardState, moveOnce } from './medici-page.mjs';

const h = createHarness({ serverArgs: ['--bot-delay-ms', '50'], failurePrefix: 'failure-clocks-' });

const TIME = /^(\d+):(\d\d)$/;
const seconds = (text) => {
  const m = TIME.exec(text.trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
};

/** The running countdown on `page`: {seat, text} or null when nobody is on the clock. */
function running(page) {
  return page.evaluate(() => {
    const li = document.querySelector('[data-testid=clock] .clock-seat.is-running');
    return li ? { seat: li.dataset.seat, text: li.querySelector('[data-testid=clock-time]').textContent, urgent: li.classList.contains('is-urgent') } : null;
  });
}

const logLines = (page) => page.$$eval('[data-testid=log] li', (els) => els.map((e) => e.textContent));

/** A plays Medici through the board until the result shows (moves are lenient: A's own clock may run out). */
async function playToTheEnd(page, random) {
  for (let i = 0; i < 20000; i++) {
    const st = await boardState(page);
    if (st.result) return;
    if (!(st.ready && (st.draw || st.stop || st.bid || st.pass))) {
      await new Promise((r) => setTimeout(r, 30));
      continue;
    }
    await moveOnce(page, st, random, { lenient: true });
    await page.waitForFunction((v) => {
      const b = document.querySelector('.medici');
      return !b || Number(b.dataset.version) > v || document.querySelector('[data-testid=result]');
    }, st.version, { timeout: 15000 });
  }
  throw new Error('the game did not end');
}

test('a timed game where one page goes silent finishes; rematch; My games lists the result', { timeout: 420000 }, async () => {
  const A = await h.newPage('A', DESKTOP);
  const B = await h.newPage('B', PHONE);
  const random = rng(1212);
  try {
    let tableUrl;
    await step('A creates a public 2-player Medici table with a 5 s clock and no reserve', 20000, async () => {
      await openLobby(A, 'Ann');
      const presets = await A.$$eval('#create-clock option', (os) => os.map((o) => [o.value, o.textContent]));
      assert.deepEqual(presets, [['untimed', 'Untimed'], ['fast', 'Fast — 20 s + 2 min'], ['normal', 'Normal — 60 s + 5 min'],
        ['relaxed', 'Relaxed — 1 day per move'], ['custom', 'Custom…']]);
      assert.equal(await A.inputValue('#create-clock'), 'untimed', 'untimed by default');
      await A.selectOption('#create-game', 'medici');
      await A.selectOption('#create-players', '2');
      await A.selectOption('#create-clock', 'custom');
      await A.fill('#create-clock-turn', '5');
      await A.fill('#create-clock-reserve', '0');
      await A.click('[data-testid=create-table]');
      await A.waitForURL(/\/t\/[A-Za-z0-9_-]+$/);
      tableUrl = A.url();
      await A.waitForSelector('[data-testid=clock-config]');
      assert.equal(await A.textContent('[data-testid=clock-config]'), 'Clock: 5 s per move');
    });

    await step('B sees the clock in the lobby\'s list and joins; A starts', 20000, async () => {
      await openLobby(B, 'Bo');
      const item = `.table-item[data-table="${tableUrl.split('/').pop()}"]`;
      await B.waitForSelector(`${item} [data-testid=table-clock]`);
      assert.equal(await B.textContent(`${item} [data-testid=table-clock]`), '5 s per move');
      await B.click(`${item} button:has-text("Join")`);
      await B.waitForSelector('.seat.is-me');
      await A.click('[data-testid=start]:not([disabled])');
      for (const p of [A, B]) await p.waitForSelector('.medici[data-version]');
    });

    await step('the countdown is visible and counts down on both pages', 20000, async () => {
      for (const p of [A, B]) await p.waitForSelector('[data-testid=clock] .clock-seat.is-running');
      const samples = [];
      const countedDown = () => samples.some((x, i) => samples.slice(i + 1).some((y) => y.seat === x.seat && seconds(y.text) < seconds(x.text)));
      for (let i = 0; i < 40 && !countedDown(); i++) {
        const now = await running(B);
        if (now && seconds(now.text) !== null) samples.push(now);
        await new Promise((r) => setTimeout(r, 250));
      }
      assert.ok(countedDown(), `counts down: ${JSON.stringify(samples)}`);
      assert.ok(samples.every((x) => seconds(x.text) <= 5), 'never more than the move\'s 5 s');
      assert.equal(await A.$$eval('[data-testid=clock] .clock-seat', (els) => els.length), 2, 'a clock per seat');
      await A.waitForSelector('[data-testid=clock] .clock-seat.is-running');
      await shot(A, 'clocks-running-desktop.png', false);
      await B.waitForSelector('[data-testid=clock] .clock-seat.is-running');
      await shot(B, 'clocks-running-phone.png');
    });

    const playing = playToTheEnd(A, random);
    playing.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled

    await step('B stays silent: the bot moves for B, and after three timeouts B may take the seat back', 90000, async () => {
      await B.waitForSelector('[data-testid=log] >> text=You ran out of time; a bot moved for you.', { timeout: 30000 });
      await A.waitForSelector('[data-testid=log] >> text=Bo ran out of time; a bot moved for them.', { timeout: 30000 });
      await B.waitForSelector('[data-testid=take-seat-back]', { timeout: 60000 });
      assert.match(await B.textContent('[data-testid=timed-out]'), /^A bot is playing for you\./);
      assert.equal(await B.textContent('[data-testid=take-seat-back]'), 'Take my seat back');
      await A.waitForSelector('.players .player[data-seat] [data-testid=stand-in] >> text=(out of time)');
      // While the bot plays B's seat (issue 36): never "Your turn!", no ▶ in the title, no move controls, sampled
      // across the bot's and A's moves.
      const seen = [];
      for (let i = 0; i < 20; i++) {
        seen.push(await B.evaluate(() => ({
          turn: document.querySelector('[data-testid=turn]').dataset.kind,
          title: document.title,
          controls: document.querySelectorAll('.medici [data-decision] [data-action], .medici [data-decision] button').length,
        })));
        await new Promise((r) => setTimeout(r, 150));
      }
      const wrong = seen.filter((x) => x.turn === 'yours' || x.title.startsWith('▶') || x.controls > 0);
      assert.deepEqual(wrong, [], 'nothing says it is B\'s turn while the bot plays');
      assert.deepEqual(await axeAudit(B, 'a bot plays for you', { include: { include: [['.table-head'], ['[data-testid=timed-out]']] } }), [], 'no serious or critical violation');
      await shot(B, 'clocks-timed-out-phone.png');
    });

    await step('B takes the seat back, then goes silent again', 20000, async () => {
      await B.click('[data-testid=take-seat-back]');
      await B.waitForSelector('.notice >> text=You are back: your seat is yours again.');
      await B.waitForSelector('[data-testid=take-seat-back]', { state: 'detached' });
      assert.equal(await B.$('.player.is-me [data-testid=stand-in]'), null, 'no stand-in on B\'s seat');
    });

    await step('the game finishes for A while B\'s page says nothing', 240000, async () => {
      await playing;
      await A.waitForSelector('[data-testid=result]');
      await B.waitForSelector('[data-testid=result]');
      const timeouts = (await logLines(A)).filter((l) => l === 'Bo ran out of time; a bot moved for them.').length;
      assert.ok(timeouts >= 3, `A's log tells every timeout (${timeouts})`);
      assert.equal(await A.$('[data-testid=clock] .clock-seat.is-running'), null, 'no clock runs after the end');
    });

    let newUrl;
    await step('A plays again: the new table keeps B\'s seat; B gets the offer and joins in one click', 30000, async () => {
      await A.waitForSelector('[data-testid=play-again]');
      await A.click('[data-testid=play-again]');
      await A.waitForURL((url) => url.href !== tableUrl && /\/t\/[A-Za-z0-9_-]+$/.test(url.pathname));
      newUrl = A.url();
      await A.waitForSelector('[data-testid=reserved]');
      assert.equal(await A.textContent('[data-testid=reserved]'), 'kept for Bo');
      assert.equal(await A.textContent('[data-testid=clock-config]'), 'Clock: 5 s per move', 'the same clock');
      await B.waitForSelector('[data-testid=rematch-join]');
      assert.equal(await B.textContent('#rematch-h'), 'Ann offers a rematch');
      await shot(B, 'clocks-rematch-offer-phone.png');
      await B.click('[data-testid=rematch-join]');
      await B.waitForURL(newUrl);
      await B.waitForSelector('.seat.is-me');
      await A.waitForSelector('[data-testid=reserved]', { state: 'detached' });
      await A.waitForSelector('[data-testid=start]:not([disabled])');
    });

    await step('"My games" lists the finished game with its result, after a reload', 30000, async () => {
      await A.click('[data-testid=nav-my-games]');
      await A.waitForURL(/\/my-games$/);
      await A.reload();
      const finished = `[data-testid=my-game][data-table="${tableUrl.split('/').pop()}"]`;
      await A.waitForSelector(finished);
      assert.equal(await A.textContent(`${finished} [data-testid=my-game-state]`), 'Finished');
      assert.match(await A.textContent(`${finished} [data-testid=my-game-result]`), /^(You won|Bo won · your rank: 2 of 2|You won, shared with Bo)$/);
      assert.match(await A.textContent(finished), /Bo/);
      const waiting = `[data-testid=my-game][data-table="${newUrl.split('/').pop()}"]`;
      assert.equal(await A.textContent(`${waiting} [data-testid=my-game-state]`), 'Waiting for players');
      assert.equal(await A.getAttribute(`${finished} [data-testid=my-game-replay]`, 'href'), `${new URL(tableUrl).pathname}/replay`);
      assert.equal(await A.$(`${waiting} [data-testid=my-game-replay]`), null, 'no replay before the end');
      await shot(A, 'my-games.png');
      await A.click(`${finished} [data-testid=my-game-open]`);
      await A.waitForURL(tableUrl);
      await A.waitForSelector('[data-testid=result]');
    });

    assert.deepEqual(h.pageErrors, [], 'no script errors in the pages');
    assert.deepEqual(h.dialogs, [], 'no dialogs');
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});
