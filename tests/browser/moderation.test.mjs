// Table chat, reports and moderation in the browser (issue 34, part 2): Chromium (headless) driven by
// playwright-core against the real server binary (docs/client.md "Chat and moderation").
//
// Ann, Bo and Mo sign up; Ann creates a Medici table, Bo takes the other seat; a guest, Cy, watches. Cy's line
// goes to the spectators: Ann does not see it until she turns "Show spectators' chat" on. Ann mutes Cy: his next
// line does not reach her. Bo writes an insult and Ann reports that line through the dialog (Escape closes it; axe
// on it). Mo is made a moderator with emporium-admin against the server's data directory; his account menu then
// has "Moderation"; /moderation shows Ann's report with the line marked (axe), and Mo mutes Bo for an hour with a
// reason. Bo's page shows the moderator's notice and his next line is refused with the muted message; his account
// page lists the decision. Ann also turns spectators' chat off and on (Cy is told). axe on the table page with
// its chat, the dialog and /moderation, light and dark.
//
// Environment: EMPORIUM_BUILD_DIR (default build), CHROMIUM_PATH (default /usr/bin/chromium).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BUILD, DESKTOP, axeAudit, createHarness, step, signUp } from './support.mjs';

// The server's store in a directory of this test's own (a later --data-dir wins), so emporium-admin can open it.
const DATA = mkdtempSync(path.join(os.tmpdir(), 'emporium-moderation-'));
after(() => rmSync(DATA, { recursive: true, force: true }));
const h = createHarness({ serverArgs: ['--bot-delay-ms', '0', '--data-dir', DATA], failurePrefix: 'failure-moderation-' });



const chatTexts = (page) => page.$$eval('[data-testid=chat] [data-testid=chat-text]', (els) => els.map((e) => e.textContent));

async function say(page, text) {
  await page.fill('#chat-input', text);
  await page.click('[data-testid=chat-send]');
}

/** Waits until `page` shows `text` in its chat's open tab. */
const shows = (page, text) => page.waitForFunction(
  (x) => [...document.querySelectorAll('[data-testid=chat] [data-testid=chat-text]')].some((e) => e.textContent === x), text);

test('spectators\' chat, mutes, a report, a moderator\'s mute', { timeout: 90000 }, async () => {
  const A = await h.newPage('Ann', DESKTOP);
  const B = await h.newPage('Bo', DESKTOP);
  const C = await h.newPage('Cy', DESKTOP);
  const M = await h.newPage('Mo', DESKTOP);
  const bad = [];
  try {
    let table;
    await step('Ann, Bo and Mo sign up; Ann creates a table, Bo sits down, Cy (a guest) watches', 40000, async () => {
      await Promise.all([signUp(A, 'Ann'), signUp(B, 'Bo'), signUp(M, 'Mo')]);
      await A.selectOption('#create-game', 'medici');
      await A.selectOption('#create-players', '2');
      await A.click('[data-testid=create-table]');
      await A.waitForURL(/\/t\/[A-Za-z0-9_-]+$/);
      table = A.url().split('/t/')[1];
      await A.waitForSelector('[data-testid=chat-tab-players][aria-selected=true]');
      assert.equal(await A.isVisible('[data-testid=chat-spectators-may-chat]'), true, 'the creator has the spectators\' switch');
      await B.goto(`/t/${table}`);
      await B.locator('[data-testid=take-seat]').first().click();
      await B.waitForSelector('[data-testid=chat-tab-players][aria-selected=true]');
      assert.equal(await B.$('[data-testid=chat-spectators-may-chat]'), null, 'only the creator has it');
      await A.waitForSelector('.pregame [data-seat="1"] [data-testid=seat-report]');
      assert.equal(await A.$$eval('[data-testid=seat-report]', (els) => els.map((e) => e.getAttribute('aria-label')).join()), 'Report Bo',
        'a Report on the other player\'s seat only');
      await C.goto('/');
      await C.waitForSelector('[data-testid=connection][data-state=open]');
      await C.evaluate(() => window.emporium.store.setName('Cy'));
      await C.goto(`/t/${table}`);
      await C.waitForSelector('[data-testid=watching]');
      await C.waitForSelector('[data-testid=chat-tab-players][aria-selected=true]');
      assert.equal(await C.textContent('[data-testid=chat-where]'), 'You are watching: your messages go to the spectators.');
    });

    await step('Cy\'s line reaches Ann only once she shows the spectators\' chat', 15000, async () => {
      await say(C, 'hello from Cy');
      await C.waitForSelector('[data-testid=chat-tab-spectators][aria-selected=true]');
      await shows(C, 'hello from Cy');
      await say(B, 'good luck');
      await shows(A, 'good luck');
      assert.deepEqual(await chatTexts(A), ['good luck']);
      await A.click('[data-testid=chat-tab-spectators]');
      await A.waitForSelector('[data-testid=chat-see-spectators]:not(:checked)');
      assert.deepEqual(await chatTexts(A), []);
      await A.check('[data-testid=chat-see-spectators]');
      await shows(A, 'hello from Cy');
    });

    await step('Ann mutes Cy: his next line does not reach her; he is listed to unmute', 15000, async () => {
      await A.click('[data-testid=chat] [data-testid=chat-mute]');
      await A.waitForSelector('[data-testid=chat-muted] [data-testid=chat-unmute]');
      assert.match(await A.textContent('[data-testid=chat-muted]'), /Muted: Cy/);
      assert.deepEqual(await chatTexts(A), []);
      await say(C, 'second from Cy');
      await shows(C, 'second from Cy');
      await say(B, 'you are an idiot');
      await A.waitForSelector('[data-testid=chat-tab-players] [data-testid=chat-unread]');
      assert.equal(await A.textContent('[data-testid=chat-tab-players] [data-testid=chat-unread]'), '1 new');
      await A.click('[data-testid=chat-tab-players]');
      await shows(A, 'you are an idiot');
      await A.click('[data-testid=chat-tab-spectators]');
      assert.deepEqual(await chatTexts(A), [], 'Cy\'s second line never came');
      await A.click('[data-testid=chat-tab-players]');
    });

    await step('Ann turns spectators\' chat off: Cy is told so instead of the input; on again', 15000, async () => {
      await A.uncheck('[data-testid=chat-spectators-may-chat]');
      await C.waitForSelector('[data-testid=chat-closed]', { state: 'visible' });
      assert.equal(await C.textContent('[data-testid=chat-closed]'), 'The table’s creator has turned spectators’ chat off.');
      assert.equal(await C.isVisible('#chat-input'), false);
      await A.check('[data-testid=chat-spectators-may-chat]');
      await C.waitForSelector('#chat-input', { state: 'visible' });
    });

    await step('Ann reports Bo\'s line through the dialog (Escape closes it; axe)', 20000, async () => {
      const line = A.locator('[data-testid=chat] .chat-item', { hasText: 'you are an idiot' });
      await line.hover();
      await line.locator('[data-testid=chat-report]').click();
      await A.waitForSelector('[data-testid=report-dialog][open]');
      assert.equal(await A.evaluate(() => document.activeElement.closest('dialog') !== null), true, 'the focus is in the dialog');
      await A.keyboard.press('Escape');
      await A.waitForSelector('[data-testid=report-dialog]:not([open])', { state: 'attached' });
      await line.locator('[data-testid=chat-report]').click();
      await A.waitForSelector('[data-testid=report-dialog][open]');
      assert.equal(await A.textContent('#report-h'), 'Report Bo’s message');
      bad.push(...await axeAudit(A, 'the report dialog', { include: '[data-testid=report-dialog]' }));
      await A.click('[data-testid=report-submit]');
      await A.waitForSelector('[data-testid=report-status][data-kind=error]');
      assert.equal(await A.textContent('[data-testid=report-status]'), 'Choose a reason.');
      await A.check('[data-testid=report-reason-abuse]');
      await A.fill('[data-testid=report-note]', 'insults at the table');
      await A.click('[data-testid=report-submit]');
      await A.waitForSelector('[data-testid=report-status][data-kind=ok]');
      assert.equal(await A.textContent('[data-testid=report-status]'), 'Thanks — a moderator will look at it.');
      await A.click('[data-testid=report-close]');
      bad.push(...await axeAudit(A, 'the table page with its chat'));
    });

    await step('Mo is made a moderator; /moderation shows the report with the line marked', 20000, async () => {
      await M.goto('/moderation');
      await M.waitForSelector('[data-testid=moderation-refused]');
      assert.equal(await M.textContent('[data-testid=moderation-refused]'), 'Only moderators can see this page.');
      execFileSync(path.join(BUILD, 'server', 'emporium-admin'), ['--data-dir', DATA, 'grant-moderator', 'Mo'], { stdio: 'pipe' });
      await M.reload();
      await M.waitForSelector('[data-testid=moderation-report][data-account=Bo]');
      await M.click('[data-testid=account-menu]');
      await M.waitForSelector('[data-testid=moderation-link]', { state: 'visible' });
      await M.keyboard.press('Escape');
      const report = '[data-testid=moderation-report][data-account=Bo]';
      assert.equal(await M.textContent(`${report} h2`), 'Ann reported Bo');
      assert.equal(await M.textContent(`${report} [data-testid=reported-line] mark`), 'you are an idiot');
      assert.equal(await M.textContent(`${report} [data-testid=report-note-shown]`), 'insults at the table');
      bad.push(...await axeAudit(M, '/moderation'));
    });

    await step('Mo mutes Bo for an hour; Bo is told, and his next line is refused', 20000, async () => {
      const report = '[data-testid=moderation-report][data-account=Bo]';
      await M.check(`${report} [data-testid=mod-action-mute]`);
      assert.deepEqual(await M.$$eval(`${report} [data-testid=mod-hours] option`, (os) => os.map((o) => o.value)), ['1', '24', '168']);
      await M.selectOption(`${report} [data-testid=mod-hours]`, '1');
      await M.fill(`${report} [data-testid=mod-reason]`, 'No insults, please');
      await M.click(`${report} [data-testid=mod-submit]`);
      await M.waitForSelector('[data-testid=moderation-empty]');
      await B.waitForSelector('[data-testid=moderation-notice][data-action=mute]');
      assert.match(await B.textContent('[data-testid=moderation-notice]'), /^A moderator has muted your chat until .+: No insults, please/);
      assert.equal(await B.getAttribute('[data-testid=moderation-notices]', 'role'), 'alert');
      await say(B, 'sorry');
      await B.waitForSelector('[data-testid=chat-status][data-kind=error]');
      assert.match(await B.textContent('[data-testid=chat-status]'), /^A moderator has muted your chat for (60|59) more minutes\.$/);
      await B.goto('/account');
      await B.waitForSelector('[data-testid=account-moderation]');
      assert.match(await B.textContent('[data-testid=account-moderation] h2'), /^What moderators decided about your account$/);
      assert.match(await B.textContent('[data-testid=account-moderation] li'), /^A moderator has muted your chat until .+: No insults, please/);
    });

    assert.deepEqual(bad, [], `axe found serious or critical violations:\n${bad.join('\n')}`);
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});
