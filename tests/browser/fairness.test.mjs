// The shuffle check in the browser: Chromium (headless) driven by playwright-core against the real server.
// A helper page plays a public Medici table through the protocol itself (its seat at random, two easy bots,
// no bot delay), so the game ends in seconds; P watches it from before the start and Q, whose kept
// commitment was tampered with, from the start too.
// 1. Before the start P keeps the commitment (as seen before the first move) and shows its first digits.
// 2. At the end P shows "Shuffle verified" (the commitment kept before the first move matches SHA-256 of the
//    revealed salt and seed), a link to the record that serves the verified record, and how to check it.
// 3. Q, whose browser kept another commitment, shows the warning (role=alert).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, createHarness, shot, step } from './support.mjs';
import { createTableWithBots, startAndPlay } from './protocol-driver.mjs';

const h = createHarness({ serverArgs: ['--bot-delay-ms', '0'], failurePrefix: 'failure-fairness-' });

test('The shuffle is verified at the end, with the record; a changed commitment raises the warning', { timeout: 120000 }, async () => {
  const D = await h.newPage('D', DESKTOP);
  const P = await h.newPage('P', DESKTOP);
  const Q = await h.newPage('Q', DESKTOP);
  try {
    let table;
    await step('a table with two bots is created; P and Q watch it before the start', 20000, async () => {
      await D.goto('/');
      table = await createTableWithBots(D);
      for (const page of [P, Q]) {
        await page.goto(`/t/${table}`);
        await page.waitForSelector('[data-testid=fairness]:not([hidden])');
      }
      const kept = await P.evaluate((id) => JSON.parse(localStorage.getItem('emporium.commitments'))[id], table);
      assert.match(kept.commitment, /^[0-9a-f]{64}$/);
      assert.equal(kept.early, true, 'seen before the first move');
      assert.match(await P.textContent('[data-testid=fairness]'), new RegExp(kept.commitment.slice(0, 12)));
      // Q's browser holds the server to another commitment: the check must fail loudly.
      await Q.evaluate((id) => {
        const all = JSON.parse(localStorage.getItem('emporium.commitments'));
        all[id].commitment = '0'.repeat(64);
        localStorage.setItem('emporium.commitments', JSON.stringify(all));
      }, table);
    });

    let seed;
    await step('the game is played to the end, revealing the seed', 60000, async () => {
      await startAndPlay(D, table);
      const revealed = await D.evaluate((id) => window.__driver.frames.find((f) => f.type === 'events' && f.table === id && f.seed), table);
      seed = revealed.seed;
      assert.match(seed, /^[0-9a-f]{32}$/);
    });

    await step('P shows "Shuffle verified", the record link and how to check it', 20000, async () => {
      await P.waitForSelector('[data-testid=shuffle-verdict]');
      assert.equal(await P.getAttribute('[data-testid=fairness]', 'data-verdict'), 'verified');
      assert.match(await P.textContent('[data-testid=shuffle-verdict]'), /Shuffle verified/);
      assert.match(await P.textContent('[data-testid=fairness] details'), new RegExp(seed));
      const href = await P.getAttribute('[data-testid=record-link]', 'href');
      assert.equal(href, `/tables/${table}/record.json`);
      const record = await P.evaluate(async (url) => (await fetch(url)).json(), href);
      assert.equal(record.seed, seed);
      assert.equal(record.format, 'emporium-record/1');
      await P.click('[data-testid=fairness] summary');
      await shot(P, 'fairness-verified.png');
    });

    await step('Q, holding another commitment, shows the warning', 20000, async () => {
      await Q.waitForSelector('[data-testid=shuffle-verdict][role=alert]');
      assert.equal(await Q.getAttribute('[data-testid=fairness]', 'data-verdict'), 'changed');
      assert.match(await Q.textContent('[data-testid=shuffle-verdict]'), /cannot be trusted/);
      await shot(Q, 'fairness-warning.png');
    });
    assert.deepEqual(h.dialogs, [], 'no dialog (alert) was opened');
    assert.deepEqual(h.pageErrors, [], 'no script errors in the pages');
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});
