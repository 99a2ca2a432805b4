// Taking back a misclick (issue 37) in a real browser, against the real server (bots with a short delay).
//
// 0. The lobby's "Allow undo" is checked for a (guest's, casual) table; created unchecked, the table says "No undo".
// 1. Medina against two easy bots, at the start of P's turn (reached through the protocol: protocol-driver.mjs
//    midGame): the table says undo is allowed and nothing can be taken back yet; P places a wall; "Undo" shows; P
//    presses it: the log says "You took back: You build a wall …", the wall's own line is struck through and marked
//    "(taken back)", the wall is gone and both pieces of the turn are P's again; P places the wall elsewhere.
// 2. Maritime Silk Road, with "Confirm my turn" on: a spectator's own socket (watchTable) watches. P exchanges a
//    marker: the board shows the preview (the ship carries the new good, the version has not moved) and the steps
//    kept; Ctrl+Z takes the step off here (no request reaches the table: the spectator hears nothing); P exchanges
//    again and draws: the panel says the turn is ready. Until P presses Confirm the spectator gets no events frame
//    and P's log says nothing; after it, both steps are announced, one version each.
// axe-core checks the page with the Undo button and with the confirm panel, in the light and the dark scheme.
//
// Environment: EMPORIUM_BUILD_DIR (default build), CHROMIUM_PATH (default /usr/bin/chromium).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, axeAudit, createHarness, shot, step } from './support.mjs';
import { midGame, watchTable, watchedFrames } from './protocol-driver.mjs';

const h = createHarness({ serverArgs: ['--bot-delay-ms', '50'], failurePrefix: 'failure-undo-' });

/** The board's version (data-version of the game's root element). */
const versionOf = (page, root) => page.$eval(root, (b) => Number(b.dataset.version));

async function waitVersion(page, root, version) {
  await page.waitForFunction(([sel, v]) => {
    const b = document.querySelector(sel);
    return b && Number(b.dataset.version) === v;
  }, [root, version], { timeout: 10000 });
}

/** Picks the wall in Medina's picker and returns the squares it may go on, as [x, y]. */
async function wallSquares(page) {
  await page.click('[data-testid=picker] [data-piece=wall]');
  await page.waitForSelector('.medina .md-sq.is-legal.pick-wall');
  return page.$$eval('.medina .md-sq.is-legal.pick-wall', (els) => els.map((e) => [Number(e.dataset.x), Number(e.dataset.y)]));
}

const wallAt = (page, [x, y]) => page.$(`.medina .md-sq.has-wall[data-x="${x}"][data-y="${y}"]`);

test('Undo a Medina wall and place it elsewhere; confirm a Silk Road turn before anyone sees it', { timeout: 90000 }, async () => {
  const started = Date.now();
  const P = await h.newPage('P', DESKTOP);
  const found = [];
  const bad = [];
  try {
    await step('the create form: "Allow undo" is checked for a casual table; unchecked, the table says "No undo"', 10000, async () => {
      await P.goto('/');
      await P.waitForSelector('[data-testid=connection][data-state=open]');
      await P.waitForSelector('[data-testid=create-undo]');
      assert.equal(await P.isChecked('[data-testid=create-rated]'), false, 'a guest\'s table is casual');
      assert.equal(await P.isChecked('[data-testid=create-undo]'), true);
      await P.uncheck('[data-testid=create-undo]');
      await P.click('[data-testid=create-table]');
      await P.waitForURL(/\/t\/[A-Za-z0-9_-]+$/);
      await P.waitForSelector('[data-testid=table-undo][data-undo=false]');
      assert.equal(await P.textContent('[data-testid=table-undo]'), 'No undo');
    });

    let v0;
    let first;
    await step('Medina against bots, at the start of P\'s turn: undo allowed, nothing to take back yet', 20000, async () => {
      await P.goto('/');
      await P.waitForSelector('[data-testid=connection][data-state=open]');
      await midGame(P, 'medina', 0, { turnStart: true });
      await P.waitForSelector('[data-testid=picker] [data-piece=wall]');
      assert.equal(await P.getAttribute('[data-testid=table-undo]', 'data-undo'), 'true', 'a casual table allows undo');
      assert.equal(await P.$('[data-testid=undo]'), null, 'nothing of P\'s to take back at the start of the turn');
      assert.equal(await P.getAttribute('[data-testid=pieces-left]', 'data-left'), '2');
      v0 = await versionOf(P, '.medina');
    });

    await step('P places a wall: Undo shows', 10000, async () => {
      [first] = await wallSquares(P);
      await P.click(`.medina .md-sq.is-legal[data-x="${first[0]}"][data-y="${first[1]}"]`);
      await waitVersion(P, '.medina', v0 + 1);
      assert.ok(await wallAt(P, first), 'the wall stands where P placed it');
      await P.waitForSelector('[data-testid=undo]:not([aria-disabled=true])');
      assert.equal(await P.getAttribute('[data-testid=undo]', 'aria-keyshortcuts'), 'Control+Z');
      assert.equal(await P.getAttribute('[data-testid=pieces-left]', 'data-left'), '1');
      bad.push(...await axeAudit(P, 'Medina, with Undo', { found }));
      await shot(P, 'undo-medina.png', false);
    });

    await step('P presses Undo: the log says it was taken back, the wall is gone', 10000, async () => {
      await P.click('[data-testid=undo]');
      // The undo is a version of its own; the position before the wall comes with a snapshot.
      await waitVersion(P, '.medina', v0 + 2);
      await P.waitForFunction((v) => [...document.querySelectorAll(`[data-testid=log] li[data-version="${v}"]`)]
        .some((li) => /^You took back: You build a wall of tower \d on /.test(li.textContent)), v0 + 2);
      await P.waitForFunction(([x, y]) => !document.querySelector(`.medina .md-sq.has-wall[data-x="${x}"][data-y="${y}"]`), first);
      const struck = await P.$$eval(`[data-testid=log] li[data-version="${v0 + 1}"]`, (lis) => lis.map((li) => ({
        undone: li.dataset.undone === 'true', struck: Boolean(li.querySelector('s')), text: li.textContent,
      })));
      assert.ok(struck.length > 0, 'the wall\'s own line is still in the log');
      for (const line of struck) {
        assert.ok(line.undone && line.struck, `struck through: ${line.text}`);
        assert.match(line.text, /\(taken back\)$/, 'and said in words, not by its colour alone');
      }
      assert.equal(await P.getAttribute('[data-testid=pieces-left]', 'data-left'), '2', 'both pieces are P\'s again');
      await P.waitForFunction(() => !document.querySelector('[data-testid=undo]'));
    });

    await step('P places the wall elsewhere', 10000, async () => {
      const squares = await wallSquares(P);
      const other = squares.find(([x, y]) => x !== first[0] || y !== first[1]);
      assert.ok(other, `another wall space is free: ${JSON.stringify(squares)}`);
      await P.click(`.medina .md-sq.is-legal[data-x="${other[0]}"][data-y="${other[1]}"]`);
      await waitVersion(P, '.medina', v0 + 3);
      assert.ok(await wallAt(P, other), 'the wall stands on the other space');
      assert.equal(await wallAt(P, first), null, 'and not on the first one');
    });

    let table;
    let base;
    let button;
    await step('Silk Road with "Confirm my turn" on, at P\'s phase 1; a spectator watches', 20000, async () => {
      await P.goto('/');
      await P.waitForSelector('[data-testid=connection][data-state=open]');
      table = await midGame(P, 'silkroad', 0, { until: 'exchange' });
      await P.waitForSelector('[data-decision] [data-action=exchange]');
      await watchTable(P, table);
      assert.equal(await P.isChecked('[data-testid=confirm-turn]'), false, 'off until the player turns it on');
      await P.check('[data-testid=confirm-turn]');
      assert.deepEqual(await P.evaluate(() => JSON.parse(localStorage.getItem('emporium.confirmTurn'))), { silkroad: true });
      await P.waitForSelector('[data-testid=confirm-panel][data-count="0"]');
      base = await versionOf(P, '.silkroad');
    });

    const exchange = async () => {
      button = await P.$eval('[data-decision] [data-action=exchange]', (b) => ({ ship: b.dataset.ship, good: b.dataset.good, from: b.dataset.from }));
      await P.click(`[data-decision] [data-action=exchange][data-ship="${button.ship}"][data-good="${button.good}"]`);
      await P.waitForSelector('[data-testid=confirm-panel][data-count="1"]');
      await P.waitForFunction(([ship, good]) => {
        const s = document.querySelector(`.sr-seat.is-me .sr-ship[data-ship="${ship}"]`);
        return s && s.dataset.good === good && document.querySelector('.board-slot[data-preview]');
      }, [button.ship, button.good]);
    };
    const shipGood = () => P.$eval(`.sr-seat.is-me .sr-ship[data-ship="${button.ship}"]`, (s) => s.dataset.good);
    const logLines = () => P.$$eval('[data-testid=log] li', (lis) => lis.length);

    let linesBefore;
    await step('P exchanges: the board shows the preview, the step is kept; Ctrl+Z takes it off here', 10000, async () => {
      linesBefore = await logLines();
      await exchange();
      assert.equal(await versionOf(P, '.silkroad'), base, 'a preview moves no version');
      assert.equal(await P.textContent('[data-testid=confirm-note]'), '1 step kept: only you see it until you confirm.');
      await P.waitForSelector('[data-testid=undo]:not([aria-disabled=true])');
      await P.keyboard.press('Control+Z');
      await P.waitForFunction(() => document.querySelector('[data-testid=confirm-panel]').dataset.count === '0' && !document.querySelector('.board-slot[data-preview]'));
      assert.equal(await shipGood(), button.from, 'the ship carries its old good again');
      assert.equal(await versionOf(P, '.silkroad'), base);
    });

    await step('P exchanges again and draws: the turn is ready to confirm, and nobody has heard of it', 10000, async () => {
      await exchange();
      await P.waitForSelector('[data-decision] [data-action=draw]:not([aria-disabled=true])');
      await P.click('[data-decision] [data-action=draw]');
      await P.waitForSelector('[data-testid=confirm-panel].is-ready [data-testid=confirm-send]:not([disabled])');
      assert.equal(await P.evaluate(() => document.activeElement && document.activeElement.dataset.testid), 'confirm-send', 'the focus is on Confirm');
      const steps = await P.$$eval('[data-testid=confirm-steps] li', (lis) => lis.map((li) => li.textContent));
      assert.equal(steps.length, 2, `two steps kept: ${steps}`);
      assert.match(steps[0], /^You exchange/, `the exchange in the log's words: ${steps[0]}`);
      assert.match(steps[1], /Draw/, `the draw as its button said it: ${steps[1]}`);
      assert.equal(await shipGood(), button.good, 'the board still shows the exchange');
      assert.equal(await P.$('[data-decision] [data-action]'), null, 'nothing more to do before Confirm');
      bad.push(...await axeAudit(P, 'Silk Road, the turn to confirm', { found }));
      await shot(P, 'undo-silkroad-confirm.png', false);
      const heard = (await watchedFrames(P, table)).filter((f) => f.type === 'events');
      assert.deepEqual(heard, [], 'the spectator got no events before Confirm');
      assert.equal(await logLines(), linesBefore, 'P\'s log says nothing yet');
      assert.equal(await versionOf(P, '.silkroad'), base);
    });

    await step('P confirms: both steps are announced, one version each', 10000, async () => {
      await P.click('[data-testid=confirm-send]');
      await P.waitForFunction((v) => Number(document.querySelector('.silkroad').dataset.version) >= v
        && document.querySelector('[data-testid=confirm-panel]').dataset.count === '0' && !document.querySelector('.board-slot[data-preview]'), base + 2);
      await P.waitForFunction(([id, v]) => (window.__watched[id] || []).some((f) => f.type === 'events' && f.version === v), [table, base + 2]);
      const heard = (await watchedFrames(P, table)).filter((f) => f.type === 'events' && f.version <= base + 2);
      assert.deepEqual(heard.map((f) => f.version), [base + 1, base + 2]);
      assert.ok(heard[0].events.some((e) => e.type === 'exchange' && String(e.ship) === button.ship && e.good === button.good), JSON.stringify(heard[0].events));
      assert.ok(heard[1].events.some((e) => e.type === 'draw'), JSON.stringify(heard[1].events));
      assert.ok(await P.$$eval('[data-testid=log] li', (lis) => lis.some((li) => /^You exchange/.test(li.textContent))), 'P\'s log has the exchange now');
    });

    assert.deepEqual(bad, [], `no serious or critical axe violations:\n${bad.join('\n')}`);
    assert.deepEqual(h.pageErrors, [], 'no script errors in the page');
    console.log(`# undo: ${((Date.now() - started) / 1000).toFixed(1)} s; ${found.length} minor axe finding(s)`);
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});
