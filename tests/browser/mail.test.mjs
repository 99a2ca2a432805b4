// E-mail on the account page (issue 35, docs/mail.md): Chromium driven by playwright-core against the real server,
// which sends through a real SMTP server of the test's own (tests/tools/smtp_sink.py, Debian's python3-aiosmtpd).
//
// Ann signs up and opens her account page: the e-mail card offers an address field. A malformed address is refused
// on the page; a good one is sent and shows as waiting for confirmation. The mail arrives; its link opens a page
// with a button, which confirms the address; her account page then shows it. She turns "A game of mine finished"
// off and the delay to an hour, reloads: both kept. axe on the card (light and dark), and no sideways scroll on a
// phone.
//
// Environment: EMPORIUM_BUILD_DIR (default build), CHROMIUM_PATH (default /usr/bin/chromium).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DESKTOP, PHONE, ROOT, axeAudit, createHarness, signUp, step } from './support.mjs';

// The SMTP server, on a port taken now: the server's flags name it.
const MAILS = mkdtempSync(path.join(os.tmpdir(), 'emporium-mails-'));
const SMTP_PORT = Number(execFileSync('/usr/bin/python3', ['-c',
  'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])']).toString().trim());
const sink = spawn('/usr/bin/python3', [path.join(ROOT, 'tests/tools/smtp_sink.py'), String(SMTP_PORT), MAILS], { stdio: 'ignore' });
process.on('exit', () => sink.kill('SIGKILL'));
after(() => {
  sink.kill('SIGKILL');
  rmSync(MAILS, { recursive: true, force: true });
});
const h = createHarness({ serverArgs: ['--smtp-url', `smtp://127.0.0.1:${SMTP_PORT}`], failurePrefix: 'failure-mail-' });

/** The mails the SMTP server has taken for `to`, in order. */
function mailsTo(to) {
  return readdirSync(MAILS).filter((f) => f.endsWith('.json')).sort()
    .map((f) => JSON.parse(readFileSync(path.join(MAILS, f), 'utf8')))
    .filter((m) => m.to.includes(to));
}
async function waitForMail(to) {
  for (let i = 0; i < 200; i++) {
    const found = mailsTo(to);
    if (found.length) return found[found.length - 1];
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail to ${to}`);
}

test('an address confirmed from its mail, and the mail settings kept', { timeout: 90000 }, async () => {
  const A = await h.newPage('Ann', DESKTOP);
  const bad = [];
  try {
    await step('Ann signs up and opens her account page', 20000, async () => {
      await signUp(A, 'Ann');
      await A.goto('/account');
      await A.waitForSelector('[data-testid=account-email-input]');
    });

    await step('a malformed address is refused on the page; a good one waits for its confirmation', 15000, async () => {
      await A.fill('[data-testid=account-email-input]', 'ann@nowhere');
      await A.click('[data-testid=account-email-send]');
      await A.waitForSelector('[data-testid=account-email-input][aria-invalid=true]');
      assert.equal(mailsTo('ann@nowhere').length, 0);
      await A.fill('[data-testid=account-email-input]', 'ann@example.org');
      await A.click('[data-testid=account-email-send]');
      await A.waitForSelector('[data-testid=account-email-pending]');
      assert.match(await A.textContent('[data-testid=account-email-pending]'), /ann@example\.org/);
    });

    await step('the mail\'s link asks, then confirms; the account page shows the address', 20000, async () => {
      const mail = await waitForMail('ann@example.org');
      assert.equal(mail.subject, 'Confirm your e-mail address for Emporium');
      const link = mail.text.match(/http:\/\/localhost:\d+(\/api\/email\/confirm\?t=[A-Za-z0-9_.-]+)/)[1];
      await A.goto(link);
      await A.click('button[type=submit]');
      await A.waitForSelector('text=Confirmed');
      await A.goto('/account');
      await A.waitForSelector('[data-testid=account-email-address]');
      assert.match(await A.textContent('[data-testid=account-email-address]'), /ann@example\.org/);
    });

    await step('she turns the game-over mail off and the delay to an hour; a reload keeps both', 20000, async () => {
      await A.uncheck('[data-testid=account-email-pref-game_over]');
      await A.waitForFunction(() => document.querySelector('[data-testid=account-email-pref-game_over]')
        && !document.querySelector('[data-testid=account-email-pref-game_over]').checked);
      await A.selectOption('#account-email-delay', '60');
      const saved = async () => {
        const r = await A.evaluate(() => fetch('/api/account').then((x) => x.json()));
        return r.email.notify;
      };
      for (let i = 0; i < 100; i++) {
        const n = await saved();
        if (!n.game_over && n.turn_delay_minutes === 60) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.deepEqual(await saved(), { your_turn: true, turn_delay_minutes: 60, game_over: false, invited: true, low_clock: true, digest: false });
      await A.reload();
      await A.waitForSelector('[data-testid=account-email-pref-game_over]');
      assert.equal(await A.isChecked('[data-testid=account-email-pref-game_over]'), false);
      assert.equal(await A.inputValue('#account-email-delay'), '60');
      bad.push(...await axeAudit(A, 'the account page\'s e-mail card', { include: '[data-testid=account-email]' }));
    });

    await step('on a phone the card fits the screen', 10000, async () => {
      await A.setViewportSize(PHONE);
      await A.waitForSelector('[data-testid=account-email-address]');
      const overflow = await A.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
    });
    assert.deepEqual(bad, [], `serious or critical axe violations:\n${bad.join('\n')}`);
    assert.deepEqual(h.pageErrors, []);
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});
