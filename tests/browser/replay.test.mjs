// The replay viewer in the browser: Chromium (headless) driven by playwright-core against the real server.
// A page plays a public Medici game to the end through the protocol (protocol-driver.mjs); P watched it and
// opens "Watch the replay". The viewer steps to the first move, the last and one in the middle (slider,
// buttons, keyboard), and at each the board shows what the engine's full view at that version says — taken
// independently from the game's record with emporium-verify --view-at — and the move in words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BUILD, DESKTOP, PHONE, axeAudit, createHarness, shot, step } from './support.mjs';
import { createTableWithBots, startAndPlay } from './protocol-driver.mjs';

const VERIFY = path.join(BUILD, 'engine', 'emporium-verify');
const h = createHarness({ serverArgs: ['--bot-delay-ms', '0'], failurePrefix: 'failure-replay-' });

/** What the Medici board shows: its version, each seat's money, the bag. */
function shown(page) {
  return page.evaluate(() => ({
    version: Number(document.querySelector('.medici').dataset.version),
    money: Array.from(document.querySelectorAll('.medici [data-testid=money] strong'), (e) => Number(e.textContent)),
    pills: Array.from(document.querySelectorAll('.medici .pill'), (e) => e.textContent.trim()),
  }));
}

/** Waits until the replay shows `version`, then checks the board against the engine's full view there. */
async function expectBoardAt(page, version, fullView) {
  await page.waitForFunction((v) => {
    const b = document.querySelector('.medici');
    return b && Number(b.dataset.version) === v;
  }, version, { timeout: 2000 });
  const s = await shown(page);
  assert.equal(s.version, fullView.version);
  assert.deepEqual(s.money, fullView.seats.map((seat) => seat.money), `money at version ${version}`);
  assert.ok(s.pills.some((p) => p.startsWith(`${fullView.bag_count} tile`)), `the bag count at version ${version}: ${s.pills}`);
  assert.ok(s.pills.some((p) => p.startsWith(`Day ${fullView.day} of`)), `the day at version ${version}: ${s.pills}`);
  assert.match(await page.textContent('[data-testid=replay-position]'), new RegExp(`\\b${version}\\b`));
}

test('The replay viewer steps through a finished game and shows the engine\'s full view at each move', { timeout: 120000 }, async () => {
  assert.ok(existsSync(VERIFY), `${VERIFY} is missing: build it first (cmake --build ${BUILD} --target emporium-verify)`);
  const D = await h.newPage('D', DESKTOP);
  const P = await h.newPage('P', DESKTOP);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'emporium-replay-'));
  try {
    let table;
    let record;
    const viewAt = (v) => JSON.parse(execFileSync(VERIFY, [path.join(dir, 'record.json'), '--view-at', String(v)], { encoding: 'utf8' }));
    await step('a game is played to the end while P watches', 60000, async () => {
      await D.goto('/');
      table = await createTableWithBots(D);
      await P.goto(`/t/${table}`);
      await startAndPlay(D, table);
      record = await P.evaluate(async (id) => (await fetch(`/tables/${id}/record.json`)).json(), table);
      writeFileSync(path.join(dir, 'record.json'), JSON.stringify(record));
      assert.ok(record.actions.length > 20, `a whole game (${record.actions.length} moves)`);
    });

    const last = () => record.actions.length;
    await step('"Watch the replay" opens it at the end of the game', 20000, async () => {
      await P.click('[data-testid=replay-link]');
      await P.waitForURL(new RegExp(`/t/${table}/replay$`));
      await expectBoardAt(P, last(), viewAt(last()));
      assert.equal(await P.isDisabled('[data-step=next]'), true);
      await shot(P, 'replay-end.png');
    });

    await step('Home goes to the start, → to the first move, with its words', 20000, async () => {
      await P.keyboard.press('Home');
      await expectBoardAt(P, 0, viewAt(0));
      assert.match(await P.textContent('[data-testid=replay-move]'), /start of the game/);
      await P.click('[data-step=next]');
      await expectBoardAt(P, 1, viewAt(1));
      assert.ok((await P.textContent('[data-testid=replay-move]')).trim().length > 0, 'the first move in words');
    });

    await step('the slider jumps to the middle at once; ← and End step from there', 20000, async () => {
      const middle = Math.floor(last() / 2);
      const started = Date.now();
      await P.fill('[data-testid=replay-slider]', String(middle));
      await expectBoardAt(P, middle, viewAt(middle));
      const took = Date.now() - started;
      await P.keyboard.press('ArrowLeft');
      await expectBoardAt(P, middle - 1, viewAt(middle - 1));
      await P.keyboard.press('End');
      await expectBoardAt(P, last(), viewAt(last()));
      console.log(`# replay: ${last()} moves; a jump to move ${middle} drawn within ${took} ms (including the test's round trips)`);
      assert.ok(took < 1000, `the jump took ${took} ms`);
    });

    await step('Play advances by itself and Space pauses; a phone shows it too', 20000, async () => {
      await P.keyboard.press('Home');
      await P.click('[data-testid=replay-play]');
      await P.waitForFunction(() => Number(document.querySelector('.medici').dataset.version) >= 2, null, { timeout: 5000 });
      await P.keyboard.press('Space');
      assert.equal(await P.getAttribute('[data-testid=replay-play]', 'aria-pressed'), 'false');
      const paused = (await shown(P)).version;
      await new Promise((r) => setTimeout(r, 1300));
      assert.equal((await shown(P)).version, paused, 'paused');
      await P.setViewportSize(PHONE);
      await shot(P, 'replay-phone.png');
      await P.click('[data-testid=replay-back]');
      await P.waitForURL(new RegExp(`/t/${table}$`));
    });
    assert.deepEqual(h.pageErrors, [], 'no script errors in the pages');
  } catch (err) {
    throw await h.annotateFailure(err);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('The replay viewer draws every game: Silk Road, Medina and Merkator at their start, middle and end; axe clean', { timeout: 180000 }, async () => {
  const D = await h.newPage('D2', DESKTOP);
  const P = await h.newPage('P2', DESKTOP);
  const bad = []; // serious or critical axe violations (the Medici replay's are analysis.test.mjs's)
  try {
    await D.goto('/');
    for (const game of ['silkroad', 'medina', 'merkator']) {
      await step(`${game}: a game to the end, then its replay`, 90000, async () => {
        const table = await createTableWithBots(D, game);
        await startAndPlay(D, table);
        await P.goto(`/t/${table}/replay`);
        const boardAt = (v) => P.waitForFunction((want) => {
          const b = document.querySelector('.board-slot [data-version]');
          return b && Number(b.dataset.version) === want;
        }, v, { timeout: 3000 });
        const last = Number(await P.getAttribute('[data-testid=replay-slider]', 'max'));
        assert.ok(last > 10, `${game}: ${last} moves`);
        await boardAt(last);
        bad.push(...await axeAudit(P, `${game} replay, at the end`));
        for (const to of [0, Math.floor(last / 2), 1]) {
          await P.fill('[data-testid=replay-slider]', String(to));
          await boardAt(to);
          assert.match(await P.textContent('[data-testid=replay-position]'), new RegExp(`\\b${to} of ${last}\\b`));
          if (to === Math.floor(last / 2)) bad.push(...await axeAudit(P, `${game} replay, move ${to}`, { include: '.board-slot' }));
        }
        assert.ok((await P.textContent('[data-testid=replay-move]')).trim().length > 0, `${game}: move 1 in words`);
        await shot(P, `replay-${game}.png`);
      });
    }
    assert.deepEqual(bad, [], 'no serious or critical accessibility violation in the replay viewer');
    assert.deepEqual(h.pageErrors, [], 'no script errors in the pages');
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});
