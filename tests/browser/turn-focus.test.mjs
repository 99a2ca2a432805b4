// On a phone, the move panel comes into view when the player's turn starts: B (390×844) has scrolled down to
// the chat while A moves; when the decision passes to B, B's move panel ([data-decision]) is on screen without B
// doing anything. Chromium (headless) against the real server: see support.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, createHarness, openPrivateTable, rng, step } from './support.mjs';
import { boardState, moveOnce } from './medici-page.mjs';

const h = createHarness({ failurePrefix: 'failure-turn-focus-', motion: 'no-preference' });

const hasControls = (st) => st.ready && (st.draw || st.stop || st.bid || st.pass);

test('a phone player who scrolled away sees the move panel when the turn starts', { timeout: 120000 }, async () => {
  const A = await h.newPage('A', DESKTOP);
  const B = await h.newPage('B', PHONE);
  const random = rng(7);
  try {
    await step('A opens a 2-player Medici table, B joins from the invite, A starts', 25000, async () => {
      await B.goto(await openPrivateTable(A, 'Ann'));
      await B.fill('.join-card input[name=name]', 'Bo');
      await B.click('[data-testid=join-game]');
      await B.waitForSelector('.seat.is-me');
      await A.click('[data-testid=start]:not([disabled])');
      for (const p of [A, B]) await p.waitForSelector('.medici[data-version]');
    });

    await step('three times: B scrolls to the chat, A moves until it is B\'s turn, B\'s panel is in view', 80000, async () => {
      let seen = 0;
      let away = false; // B scrolled away while it was not B's turn
      for (let i = 0; seen < 3 && i < 2000; i++) {
        const [a, b] = [await boardState(A), await boardState(B)];
        if (hasControls(b)) {
          if (away) {
            await B.waitForFunction(() => {
              const box = document.querySelector('[data-decision]').getBoundingClientRect();
              return box.top >= 0 && box.top < innerHeight - 40;
            }, null, { timeout: 3000 });
            seen += 1;
            away = false;
          }
          await moveOnce(B, b, random);
          await B.waitForFunction((v) => Number(document.querySelector('.medici').dataset.version) > v, b.version);
        } else if (hasControls(a)) {
          if (!away) {
            await B.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
            // The top of the board, where the move panel will be, is above the screen now.
            const top = await B.evaluate(() => document.querySelector('.medici').getBoundingClientRect().top);
            assert.ok(top < 0, `B has scrolled the board away (its top at ${top})`);
            away = true;
          }
          await moveOnce(A, a, random);
          await A.waitForFunction((v) => Number(document.querySelector('.medici').dataset.version) > v, a.version);
        } else {
          await new Promise((r) => setTimeout(r, 25));
        }
      }
      assert.equal(seen, 3, 'the turn passed to B three times after B had scrolled away');
    });
    assert.deepEqual(h.pageErrors, []);
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});
