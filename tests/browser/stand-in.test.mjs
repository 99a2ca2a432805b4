// A bot standing in for an away player, seen by that player, in the browser: Chromium (headless) driven by
// playwright-core against the real server binary (--absent-after-s 2, --bot-delay-ms 6000: a stand-in's move
// waits long enough for its person to come back in the middle of it).
//
// A and B play a private 2-player Medici table (untimed). It is B's decision when B closes the page: A sees
// "away" on B's seat and, after the threshold, "Let a bot play"; A presses it and B's row shows the stand-in "(away)"
// with the robot mark. The stand-in makes B's move; A plays on until B's seat decides again, and while the
// stand-in thinks about that decision B opens the table again in a new page of the same browser (its stored seat
// token). The server gives an away player the seat back at once when they come back (protocol/README.md,
// replace_absent and resume: `seated` with "reclaimed":true, the bot's pending move dropped), so B's page says "You
// are back: your seat is yours again", shows no "A bot is playing for you" banner, no stand-in on B's row, and B has
// the decision the bot was thinking about: "Your turn!", the ▶ in the title and enabled move controls, which the
// stand-in's move never takes away. Everything B's page showed from its load on is recorded: never "Your turn!", a
// ▶ or a move control while B's own seat was a stand-in. B moves; A sees it. axe on the players panel (with the
// stand-in, and after) and the head; screenshots stand-in-away.png (A, the stand-in) and stand-in-back.png (B).
//
// Environment: EMPORIUM_BUILD_DIR (default build), CHROMIUM_PATH (default /usr/bin/chromium).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, axeAudit, createHarness, openPrivateTable, rng, setName, shot, step } from './support.mjs';
import { boardState, moveOnce } from './medici-page.mjs';

const BOT_DELAY_MS = 6000;
const h = createHarness({
  serverArgs: ['--absent-after-s', '2', '--bot-delay-ms', String(BOT_DELAY_MS)], failurePrefix: 'failure-stand-in-',
});

const row = (seat) => `.players .player[data-seat="${seat}"]`;
const hasControls = (st) => st.draw || st.stop || st.bid || st.pass;
const pause = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * In every document of B's context: `window.__turnState()` says whose turn the page says it is and what it lets its
 * viewer do, and each change of the DOM (and of the title) records it into window.__seen, so that a state that lasted
 * only between two polls is seen too.
 */
const RECORDER = () => {
  window.__turnState = () => {
    const turn = document.querySelector('[data-testid=turn]');
    const me = document.querySelector('.players .player.is-me');
    return {
      turn: turn ? turn.dataset.kind : null,
      turnText: turn ? turn.textContent : null,
      title: document.title,
      banner: Boolean(document.querySelector('[data-testid=timed-out]')),
      takeBack: Boolean(document.querySelector('[data-testid=take-seat-back]')),
      mineStandIn: Boolean(me && me.querySelector('[data-testid=stand-in]')),
      controls: [...document.querySelectorAll('[data-decision] [data-action]')]
        .filter((b) => !b.disabled && b.getAttribute('aria-disabled') !== 'true').length,
    };
  };
  window.__seen = [];
  const sample = () => {
    const s = window.__turnState();
    const last = window.__seen[window.__seen.length - 1];
    if (!last || JSON.stringify(last) !== JSON.stringify(s)) window.__seen.push(s);
  };
  new MutationObserver(sample).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
};

/** What B's page says now (RECORDER's __turnState, one round trip). */
const turnState = (page) => page.evaluate(() => window.__turnState());

test('a bot stands in for an away player; they come back to their seat and their turn', { timeout: 90000 }, async () => {
  const A = await h.newPage('A', DESKTOP);
  let B = await h.newPage('B', DESKTOP, RECORDER);
  const bContext = B.context(); // B's localStorage, with the seat token, outlives B's page
  const random = rng(3636);
  const started = Date.now();
  try {
    let tableUrl;
    await step('A creates a private 2-player Medici table; B joins through the invite link; A starts', 25000, async () => {
      const invite = await openPrivateTable(A, 'Ann');
      tableUrl = A.url();
      await B.goto(invite);
      await B.waitForSelector('[data-testid=take-seat]');
      await setName(B, '.pregame .name-form', 'Bo');
      await B.click('[data-testid=take-seat] >> nth=0');
      await B.waitForSelector('.seat.is-me');
      await A.click('[data-testid=start]:not([disabled])');
      for (const p of [A, B]) await p.waitForSelector('.medici[data-version]');
      assert.equal(await B.$eval('.players .player.is-me', (el) => el.dataset.seat), '1', 'B sits in seat 1');
    });

    await step('A plays until it is B\'s decision', 15000, async () => {
      for (let i = 0; ; i++) {
        if (i > 300) throw new Error('B never got a decision');
        if (hasControls(await boardState(B))) break;
        const st = await boardState(A);
        if (st.ready && hasControls(st)) {
          await moveOnce(A, st, random);
          await A.waitForFunction((v) => Number(document.querySelector('.medici').dataset.version) > v, st.version);
        } else {
          await pause(50);
        }
      }
      const b = await turnState(B);
      assert.equal(b.turn, 'yours');
      assert.match(b.title, /^▶/);
    });

    await step('B closes the page: A sees B away, then "Let a bot play" after the threshold', 15000, async () => {
      await B.close();
      delete h.pages.B; // a closed page has nothing to screenshot
      await A.waitForSelector(`${row(1)} [data-testid=away]`);
      assert.match(await A.textContent(`${row(1)} [data-testid=away]`), /^away/);
      await A.waitForSelector(`${row(1)} [data-testid=replace-absent]`, { timeout: 8000 });
      assert.equal(await A.$(`${row(0)} [data-testid=replace-absent]`), null, 'not on one\'s own seat');
    });

    let version;
    await step('A lets a bot play for B: B\'s row shows the stand-in "(away)", and it makes B\'s move', BOT_DELAY_MS + 12000, async () => {
      version = (await boardState(A)).version;
      await A.click(`${row(1)} [data-testid=replace-absent]`);
      await A.waitForSelector(`${row(1)} [data-testid=seat-bot]`);
      assert.equal(await A.textContent(`${row(1)} [data-testid=stand-in]`), '(away)');
      assert.match(await A.textContent(`${row(1)} .player-name`), /^Bo/);
      assert.equal(await A.$(`${row(1)} [data-testid=replace-absent]`), null, 'no "Let a bot play" once a bot plays');
      assert.deepEqual(await axeAudit(A, 'the players panel with a stand-in', { include: { include: [['.players']] } }), [],
        'no serious or critical violation');
      await shot(A, 'stand-in-away.png');
      await A.waitForFunction((v) => Number(document.querySelector('.medici').dataset.version) > v, version,
        { timeout: BOT_DELAY_MS + 8000 });
    });

    let decisionAt;
    await step('A plays on until B\'s seat decides again (the stand-in thinks)', 15000, async () => {
      for (let i = 0; ; i++) {
        if (i > 300) throw new Error('B\'s seat never got a decision again');
        const st = await boardState(A);
        if (st.ready && hasControls(st)) {
          await moveOnce(A, st, random);
          await A.waitForFunction((v) => Number(document.querySelector('.medici').dataset.version) > v, st.version);
          continue;
        }
        if (await A.$(`${row(1)}.is-turn`)) break;
        await pause(50);
      }
      decisionAt = Date.now();
      version = (await boardState(A)).version;
      await A.waitForSelector(`${row(1)} [data-testid=stand-in]`);
    });

    let reclaimedAfter;
    await step('B opens the table again: the seat is B\'s at once, with B\'s decision and no banner', 15000, async () => {
      B = await h.newPageIn(bContext, 'B');
      await B.goto(tableUrl);
      await B.waitForSelector('.notice >> text=You are back: your seat is yours again.');
      reclaimedAfter = Date.now() - decisionAt;
      await B.waitForSelector('.players .player.is-me[data-seat="1"]:not(.is-bot)');
      await B.waitForFunction(() => document.querySelector('[data-testid=turn]').dataset.kind === 'yours');
      const b = await turnState(B);
      assert.equal(b.banner, false, 'no "A bot is playing for you": B is back');
      assert.equal(b.mineStandIn, false, 'no stand-in on B\'s row');
      assert.equal(b.turnText, 'Your turn!');
      assert.match(b.title, /^▶/, 'the ▶ turn mark in the title');
      assert.ok(b.controls > 0, 'B has the move controls of the decision the stand-in was thinking about');
      await A.waitForSelector(`${row(1)}:not(.is-bot)`);
      assert.equal(await A.$(`${row(1)} [data-testid=stand-in]`), null, 'A sees no stand-in on B\'s seat');
      assert.equal(await A.$(`${row(1)} [data-testid=away]`), null, 'nor "away"');
    });
    console.log(`# B came back ${reclaimedAfter} ms into the stand-in's ${BOT_DELAY_MS} ms decision`);

    await step('the stand-in\'s pending move is dropped: B\'s decision stays B\'s', BOT_DELAY_MS + 5000, async () => {
      await pause(Math.max(0, decisionAt + BOT_DELAY_MS + 1500 - Date.now()));
      assert.equal((await boardState(A)).version, version, 'nobody moved for B');
      const b = await turnState(B);
      assert.equal(b.turn, 'yours');
      assert.ok(b.controls > 0, 'B still has the move controls');
      const seen = await B.evaluate(() => window.__seen);
      const wrong = seen.filter((x) => x.mineStandIn && (x.turn === 'yours' || x.title.startsWith('▶') || x.controls > 0));
      assert.deepEqual(wrong, [], 'never "Your turn!", ▶ or a move control while B\'s own seat was a stand-in');
      assert.ok(!seen.some((x) => x.banner), `the page never showed "A bot is playing for you" (${seen.length} states seen)`);
      assert.deepEqual(await axeAudit(B, 'B back at the seat', { include: { include: [['.table-head'], ['.players']] } }), [],
        'no serious or critical violation');
      await shot(B, 'stand-in-back.png');
    });

    await step('B moves; A sees it', 10000, async () => {
      const st = await boardState(B);
      await moveOnce(B, st, random);
      await A.waitForFunction((v) => Number(document.querySelector('.medici').dataset.version) > v, version);
      await B.waitForFunction((v) => Number(document.querySelector('.medici').dataset.version) > v, st.version);
    });

    assert.deepEqual(h.pageErrors, [], 'no script errors in the pages');
    assert.deepEqual(h.dialogs, [], 'no dialogs');
    console.log(`# the scenario took ${Date.now() - started} ms`);
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});
