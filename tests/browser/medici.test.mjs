// The web client in a real browser: Debian's Chromium (headless) driven by playwright-core,
// against the real server binary on port 0 with a temporary data directory.
//
// Scenario: A creates a private 3-player Medici table from the lobby and reads the invite link
// from the page; B and C open the invite link and take seats; D opens it too and watches; A
// starts. The three play the whole game by clicking the board's buttons (a seeded, simple
// policy), while: A sends a chat message made of HTML that must arrive as text; B reloads the
// page mid-game and must be back in the same seat with their controls; C loses its connection
// and must come back by itself; D must never have a bid control. The final result must show in
// all four pages. Along the way: each player's last move is marked on every other page (the
// spectator's too), the move panel carries data-decision, and Medici's commodities keep colours of
// their own in light and dark mode. Screenshots go to <build>/screenshots/.
// In Japanese: every browser says it prefers ja-JP, so the client chooses Japanese by itself; the words
// the test looks for come from the catalog (i18n-support.mjs), and at several points (the lobby, the
// waiting table, mid-game, the result) no English word of the client's is on any page.
//
// Environment: EMPORIUM_BUILD_DIR (default build), CHROMIUM_PATH (default /usr/bin/chromium).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, SHOTS, createHarness, openLobby, rng, setName, shot, step } from './support.mjs';
import { boardState } from './medici-page.mjs';
import { assertNoEnglish, language } from './i18n-support.mjs';

const L = await language('ja');
const CHAT = '<img src=x onerror=alert(1)><b>bold?</b>';
const YOUR_TURN_TITLE = L.tr('app.title.yourTurn');
const NAMES = ['Ann', 'Bea', 'Cy', 'Eve'];
const PHONE = { width: 375, height: 812 };
const SHOT_DESKTOP = { width: 1366, height: 768 };
const SHOT_PHONE = { width: 390, height: 844 };

const h = createHarness({ locale: L.locale });
const noEnglish = (pages, where) => Promise.all(pages.map((p) => assertNoEnglish(p, L, { names: NAMES, where })));

// ---- helpers ----

async function waitVersionAbove(page, version) {
  await page.waitForFunction((v) => {
    const b = document.querySelector('.medici');
    return b && Number(b.dataset.version) > v;
  }, version, { timeout: 10000 });
}

/** The background of each commodity's chip on the track legend, as [r, g, b]. */
function commodityColours(page) {
  return page.$$eval('.medici .track-table tr[data-commodity]', (rows) => rows.map((row) => {
    const bg = getComputedStyle(row.querySelector('.chip')).backgroundColor;
    return [row.dataset.commodity, (bg.match(/[\d.]+/g) || []).slice(0, 3).map(Number)];
  }));
}

/** Every two commodities differ clearly (distance in RGB), so no good looks like another. */
async function assertDistinctCommodities(page, scheme) {
  const colours = await commodityColours(page);
  assert.equal(colours.length, 5, 'five commodities on the track legend');
  for (const [i, [a, ca]] of colours.entries()) {
    assert.equal(ca.length, 3, `${a}: a colour (${ca})`);
    for (const [b, cb] of colours.slice(i + 1)) {
      const distance = Math.hypot(...ca.map((x, k) => x - cb[k]));
      assert.ok(distance > 60, `${scheme}: ${a} rgb(${ca}) and ${b} rgb(${cb}) look alike (distance ${distance.toFixed(0)})`);
    }
  }
}

/** The newest tile of the lot and the board's version, as a page shows them. */
function newestLotTile(page) {
  return page.$eval('.medici', (board) => {
    const tiles = [...board.querySelectorAll('[data-testid=lot] .tile:not(.tile--empty)')];
    const last = tiles.at(-1);
    return {
      version: Number(board.dataset.version),
      count: tiles.length,
      mark: last ? last.getAttribute('data-last-move') : null,
      latest: Boolean(last && last.classList.contains('last-move--latest')),
      marked: board.querySelectorAll('[data-testid=lot] [data-last-move]').length,
    };
  });
}

// Watches D's page for any bid control, from before its first paint.
const SPECTATOR_GUARD = () => {
  window.__bidControlSeen = [];
  const check = () => {
    const found = document.querySelector('[data-action], input[name=bid], input[name=bid-slider], .m-actions');
    if (found) window.__bidControlSeen.push(found.outerHTML.slice(0, 120));
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
};

// ---- the run ----

test('Medici: a private table through the invite link, played to the end in the browser', { timeout: 200000 }, async () => {
  const started = Date.now();
  const A = await h.newPage('A', DESKTOP);
  const B = await h.newPage('B', PHONE);
  const C = await h.newPage('C', DESKTOP);
  const D = await h.newPage('D', DESKTOP, SPECTATOR_GUARD);
  const E = await h.newPage('E', DESKTOP);

  try {
    await step('E opens a public table, so the lobby has one to list', 15000, async () => {
      await E.goto('/');
      await setName(E, '.lobby .name-form', 'Eve');
      await E.selectOption('#create-players', '4');
      await E.click('[data-testid=create-table]');
      await E.waitForURL(/\/t\/[A-Za-z0-9_-]+$/);
      await E.waitForSelector('[data-testid=start]');
    });

    await step('A opens the lobby, sets a name and sees the public table live', 15000, async () => {
      await openLobby(A, 'Ann');
      await A.waitForSelector('.table-item >> text=Eve');
      assert.equal(await A.textContent('[data-testid=my-name]'), 'Ann');
      assert.equal(await A.evaluate(() => document.documentElement.lang), L.lang, 'the browser\'s language chose the client\'s');
      await noEnglish([A, E], 'the lobby and a waiting table');
      await shot(A, 'lobby.png');
      await A.setViewportSize(PHONE);
      await shot(A, 'lobby-phone.png');
      await A.setViewportSize(DESKTOP);
    });

    let invite;
    let tableUrl;
    await step('A creates a private 3-player Medici table and reads the invite link', 15000, async () => {
      await A.selectOption('#create-game', 'medici');
      await A.selectOption('#create-players', '3');
      await A.check('[data-testid=private]');
      await A.click('[data-testid=create-table]');
      await A.waitForURL(/\/t\/[A-Za-z0-9_-]+$/);
      tableUrl = A.url();
      invite = await A.inputValue('[data-testid=invite-link]');
      assert.match(invite, /^http:\/\/127\.0\.0\.1:\d+\/i\/[A-Za-z0-9_-]+$/, `invite link: ${invite}`);
      assert.ok(await A.isDisabled('[data-testid=start]'), 'start waits for players');
      // The private table is not listed in E's... (E is at its own table) but in a fresh lobby.
    });

    await step('B and C open the invite link, choose names and take seats', 20000, async () => {
      for (const [page, name] of [[B, 'Bea'], [C, 'Cy']]) {
        await page.goto(invite);
        await page.waitForSelector('[data-testid=take-seat]');
        assert.equal(new URL(page.url()).pathname, new URL(tableUrl).pathname, 'the invite link turns into the table URL');
        await setName(page, '.pregame .name-form', name);
        await page.click('[data-testid=take-seat] >> nth=0');
        await page.waitForSelector('.seat.is-me');
      }
      await A.waitForSelector('[data-testid=start]:not([disabled])');
      const seats = await A.$$eval('.seat .seat-name', (els) => els.map((e) => e.textContent));
      assert.deepEqual(seats.map((s) => s.replace(L.tr('common.youTag'), '').trim()), ['Ann', 'Bea', 'Cy']);
      assert.ok(!(await B.$('[data-testid=start]')), 'only the creator has a start button');
    });

    await step('D opens the invite link and watches', 15000, async () => {
      await D.goto(invite);
      await D.waitForSelector('[data-testid=watching]');
      assert.equal(await D.$('[data-testid=take-seat]'), null, 'every seat is taken');
      await A.waitForSelector(`.table-meta >> text=${L.tr('table.spectators', { count: 1 })}`);
      await noEnglish([A, B, D], 'the table before the start');
    });

    await step('A starts; everyone sees the board', 15000, async () => {
      await A.click('[data-testid=start]');
      for (const p of [A, B, C, D]) await p.waitForSelector('.medici[data-version="0"]');
      assert.equal(await D.$('[data-testid=actions]'), null);
    });

    await step('Medici\'s commodities keep colours of their own, light and dark (spice is not grain)', 10000, async () => {
      await assertDistinctCommodities(A, 'light');
      await A.emulateMedia({ colorScheme: 'dark' });
      await assertDistinctCommodities(A, 'dark');
      await A.emulateMedia({ colorScheme: 'light' });
    });

    // ---- the game ----
    const random = rng(20240611);
    const players = [['A', A], ['B', B], ['C', C]];
    let actions = 0;
    let chatSent = false;
    let reloaded = false;
    let dropped = false;
    let sawYourTurnTitle = false;
    let sawScoring = false;
    let progressShot = false;
    let phoneShot = false;
    let usedSlider = false;
    let usedKeyboard = false;
    let bids = 0;
    let drawMarksChecked = 0;
    let decisionChecked = false;

    await step('the three players play the whole game through the UI', 150000, async () => {
      for (let iteration = 0; iteration < 2000; iteration++) {
        const states = await Promise.all([A, B, C, D].map(boardState));
        const spectator = states[3];
        assert.equal(spectator.bidControls, 0, `the spectator has a bid control at version ${spectator.version}`);
        if (states.slice(0, 3).every((s) => s.result) && spectator.result) return;

        // A sees the day's scoring: keep a picture, then dismiss it with the keyboard.
        if (states[0].scoring && !sawScoring) {
          sawScoring = true;
          await shot(A, 'medici-day-scoring.png');
          await A.focus('[data-testid=dismiss-scoring]');
          await A.keyboard.press('Escape');
          await A.waitForSelector('[data-testid=dismiss-scoring]', { state: 'detached' });
        }

        const turnIndex = states.slice(0, 3).findIndex((s) => s.ready && (s.draw || s.stop || s.bid || s.pass));
        if (turnIndex < 0) {
          await new Promise((r) => setTimeout(r, 25));
          continue;
        }
        const [label, page] = players[turnIndex];
        let st = states[turnIndex];
        if (st.title === YOUR_TURN_TITLE) sawYourTurnTitle = true;
        for (const [i, other] of states.slice(0, 3).entries()) {
          if (i !== turnIndex) assert.notEqual(other.title, YOUR_TURN_TITLE, `${players[i][0]} is told it is their turn`);
        }

        // Mid-game: A chats (HTML that must stay text).
        if (!chatSent && st.version >= 6) {
          chatSent = true;
          await A.fill('#chat-input', CHAT);
          await A.press('#chat-input', 'Enter');
          for (const p of [A, B, C, D]) {
            await p.waitForSelector('[data-testid=chat-text]');
            const shown = await p.$$eval('[data-testid=chat] [data-testid=chat-text]', (els) => els.map((e) => e.textContent));
            assert.equal(shown.at(-1), CHAT, 'the chat message is shown exactly as typed');
            const markup = await p.$$eval('[data-testid=chat] img, [data-testid=chat] b', (els) => els.length);
            assert.equal(markup, 0, 'no element was made from the chat text');
          }
        }

        // Mid-game: B reloads on its turn and must come back to the same seat and controls.
        if (!reloaded && label === 'B' && st.version >= 25) {
          reloaded = true;
          const before = st.version;
          await B.reload();
          await B.waitForSelector(`.medici[data-version="${before}"]`);
          await B.waitForSelector('[data-testid=actions]:not([aria-busy=true]) [data-action]:not([disabled])');
          const me = await B.textContent('.player.is-me .player-name');
          assert.match(me, /^Bea\b/, `after the reload B is still Bea: "${me}"`);
          assert.equal(await B.getAttribute('.medici', 'data-seat'), '1', 'B keeps seat 2 (index 1)');
          assert.ok((await B.textContent('.table-meta')).includes(L.tr('table.seatedAs', { n: 2 })), 'B plays seat 2');
          assert.ok((await B.$$('[data-testid=log] li')).length > 5, 'the log survives the reload');
          st = await boardState(B);
        }

        // Mid-game: C's connection drops; it must reconnect and resume by itself.
        if (!dropped && label === 'A' && st.version >= 40) {
          dropped = true;
          await C.evaluate(() => window.emporium.conn.socket.close());
          await C.waitForSelector('[data-testid=connection]:not([data-state=open])', { timeout: 5000 });
          await C.waitForSelector('[data-testid=connection][data-state=open]', { timeout: 10000 });
          await A.waitForSelector('.player[data-seat="2"] .conn-dot.is-on');
        }

        if (!progressShot && st.version >= 15 && st.phase === 'auction' && label === 'A') {
          progressShot = true;
          await noEnglish([A, B, C, D], `mid-game (version ${st.version})`);
          await shot(A, 'medici-in-progress.png');
          await shot(D, 'medici-spectator.png');
          await A.setViewportSize(SHOT_DESKTOP);
          await shot(A, 'medici-desktop-light.png');
          await A.emulateMedia({ colorScheme: 'dark' });
          await shot(A, 'medici-desktop-dark.png');
          await A.emulateMedia({ colorScheme: 'light' });
          await A.setViewportSize(DESKTOP);
        }
        if (!phoneShot && st.version >= 15 && label === 'B') {
          phoneShot = true;
          await shot(B, 'medici-phone.png');
          await B.setViewportSize(SHOT_PHONE);
          await shot(B, 'medici-phone-light.png');
          await B.emulateMedia({ colorScheme: 'dark' });
          await shot(B, 'medici-phone-dark.png');
          await B.emulateMedia({ colorScheme: 'light' });
          await B.setViewportSize(PHONE);
        }

        // The move panel is the viewer's decision (the table scrolls it into view).
        if (!decisionChecked) {
          decisionChecked = true;
          assert.ok(await page.$('[data-decision][data-testid=actions] [data-action]'), `${label}'s move panel carries data-decision`);
          assert.equal(await D.$('[data-decision]'), null, 'the spectator has no decision');
        }

        // The policy: draw one or two tiles, then stop; bid the minimum now and then, else pass.
        const before = st.version;
        const r = random();
        let did = 'pass';
        if (!usedKeyboard && label === 'C' && st.draw) {
          // C's turn came while its page was idle: the focus is on the first action, and the
          // keyboard alone takes it.
          usedKeyboard = true;
          const focused = await C.evaluate(() => document.activeElement && document.activeElement.dataset.action);
          assert.equal(focused, 'draw', 'the focus moves to the first action when the turn begins');
          await C.keyboard.press('Enter');
          did = 'draw';
        } else if (st.draw || st.stop) {
          did = st.draw && (!st.stop || r < 0.45) ? 'draw' : 'stop';
          await page.click(`[data-action=${did}]`);
        } else if (st.bid && r < 0.3) {
          const range = await page.$eval('input[name=bid]', (el) => [Number(el.min), Number(el.max)]);
          assert.ok(range[0] >= 1 && range[0] <= range[1], `bid range ${range}`);
          if (!usedSlider && range[1] > range[0]) {
            // Once with the keyboard on the slider: the number and the button follow.
            usedSlider = true;
            await page.focus('input[name=bid-slider]');
            await page.keyboard.press('ArrowRight');
            assert.equal(await page.inputValue('input[name=bid]'), String(range[0] + 1));
            assert.ok((await page.textContent('[data-action=bid]')).includes(L.tr('common.florins', { count: range[0] + 1 })), 'the bid button says the amount');
          } else {
            assert.equal(await page.inputValue('input[name=bid]'), String(range[0]), 'the bid starts at the minimum');
          }
          await page.click('[data-action=bid]');
          did = 'bid';
          bids += 1;
        } else {
          await page.click('[data-action=pass]');
        }
        actions += 1;
        await waitVersionAbove(page, before);

        // After a draw, every other page (the spectator's too) marks the drawn tile as that seat's last move.
        if (did === 'draw') {
          for (const [other, otherLabel] of [[A, 'A'], [B, 'B'], [C, 'C'], [D, 'D']]) {
            if (other === page) continue;
            await waitVersionAbove(other, before);
            const lot = await newestLotTile(other);
            if (lot.version !== before + 1 || lot.count === 0) continue; // the day ended with this draw
            assert.equal(lot.mark, String(turnIndex), `${otherLabel} marks ${label}'s drawn tile (version ${lot.version})`);
            assert.ok(lot.latest, `${otherLabel}: the drawn tile is the newest move`);
            drawMarksChecked += 1;
          }
        }
      }
      throw new Error('the game did not end within 2000 iterations');
    });

    await step('the final result shows in all four pages', 20000, async () => {
      const rankings = [];
      for (const p of [A, B, C, D]) {
        await p.waitForSelector('[data-testid=result]');
        rankings.push(await p.$$eval('[data-testid=result] .ranking li', (els) => els.map((e) => e.textContent)));
        assert.equal(await p.$('[data-testid=actions]'), null, 'no controls after the end');
        assert.notEqual(await p.title(), YOUR_TURN_TITLE);
        assert.equal(await p.textContent('[data-testid=turn]'), L.tr('table.turn.over'));
      }
      assert.equal(rankings[0].length, 3);
      const names = (r) => r.map((x) => x.replace(L.tr('common.youTag'), '').replace(/\s+/g, ''));
      for (const r of rankings) assert.deepEqual(names(r), names(rankings[3]), 'every page shows the same ranking');
      // The final day's breakdown is part of the result.
      assert.ok(await A.$('[data-testid=result] table.scoring'), 'the last day\'s breakdown is shown');
      await noEnglish([A, B, C, D], 'the result');
      await shot(A, 'medici-result.png');
      await shot(B, 'medici-result-phone.png');
    });

    // ---- the checks that span the whole game ----
    assert.ok(chatSent, 'the chat message was sent');
    assert.ok(reloaded, 'B reloaded mid-game');
    assert.ok(dropped, 'C lost its connection mid-game');
    assert.ok(sawYourTurnTitle, 'the tab title said "your turn"');
    assert.ok(sawScoring, 'a day\'s scoring breakdown was shown');
    assert.ok(usedSlider, 'the bid slider was used');
    assert.ok(usedKeyboard, 'an action was taken with the keyboard');
    assert.ok(bids > 0, 'someone bid');
    assert.ok(drawMarksChecked > 20, `drawn tiles checked for their mark on the other pages: ${drawMarksChecked}`);
    assert.deepEqual(await D.evaluate(() => window.__bidControlSeen), [], 'the spectator never had a bid control');
    assert.deepEqual(h.dialogs, [], 'no dialog (alert) was opened');
    assert.deepEqual(h.pageErrors, [], 'no script errors in the pages');
    console.log(`# browser test (${L.lang}): ${actions} actions through the UI (${bids} bids) in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${SHOTS}`);
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});
