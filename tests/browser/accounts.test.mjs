// Accounts in the browser (issue 32), in Chromium (headless) against the real server: see support.mjs.
//   1. A guest keeps its name across page loads, plays a few moves against bots, signs up with a passkey (a
//      virtual authenticator of the DevTools protocol's WebAuthn domain) and goes on at its table, signed in.
//      A second browser (its own context and authenticator, holding a copy of the passkey) signs in with it:
//      the header shows the account, the account page lists the passkey and two sessions, and "sign out
//      everywhere" there signs the first browser out too.
//   2. The password way: sign up (the rule enforced before sending), sign out, a wrong password said in words,
//      sign in, change the password, export the data (a download) and delete the account.
// Passkeys need a secure context and a domain, never an IP address: the passkey test uses
// http://localhost:<port> (the harness serves 127.0.0.1); the password test stays on 127.0.0.1, where the page
// must explain that passkeys cannot work.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DESKTOP, PHONE, createHarness, shot, shotLightDark, step, DESKTOP_SHOT } from './support.mjs';

const h = createHarness({ serverArgs: ['--bot-delay-ms', '0'], failurePrefix: 'failure-accounts-' });

/** The page's script errors, less the failed requests a test makes on purpose (a wrong password's 401). */
const scriptErrors = () => h.pageErrors.filter((e) => !/Failed to load resource: the server responded with a status of 4\d\d/.test(e));

/** A virtual authenticator (CTAP2, resident keys, user verification that always passes) for `page`'s context. */
async function virtualAuthenticator(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/** The header's state: the guest name, the sign-in link, the account menu's name. */
const header = (page) => page.evaluate(() => ({
  guest: document.querySelector('[data-testid=my-name]').textContent,
  signIn: Boolean(document.querySelector('[data-testid=sign-in-link]')),
  account: document.querySelector('[data-testid=account-name]')?.isConnected ? document.querySelector('[data-testid=account-name]').textContent : null,
}));

/** Waits until the header shows `name` as the signed-in account, and the connection says so too. */
async function signedInAs(page, name) {
  await page.waitForFunction((n) => {
    const el = document.querySelector('[data-testid=account-name]');
    const c = window.emporium && window.emporium.conn;
    return el && el.isConnected && el.textContent === n && c && c.ready && c.account && c.account.name === n;
  }, name, { timeout: 15000 });
}

/** Waits until the header offers "Sign in" and the connection is a guest's again. */
async function signedOut(page) {
  await page.waitForFunction(() => {
    const c = window.emporium && window.emporium.conn;
    return document.querySelector('[data-testid=sign-in-link]') && c && c.ready && c.account === null;
  }, null, { timeout: 15000 });
}

/** `n` moves of this page's seat through the board's own controls (the bots answer at once). */
async function playMoves(page, n) {
  for (let i = 0; i < n; i++) {
    await page.waitForSelector('[data-decision]', { timeout: 15000 });
    const before = Number(await page.getAttribute('.board-slot [data-version]', 'data-version'));
    await page.locator('[data-decision] [data-action]:visible:not([aria-disabled=true]):not([disabled])').last().click();
    await page.waitForFunction((v) => Number(document.querySelector('.board-slot [data-version]').dataset.version) > v, before, { timeout: 15000 });
  }
}

/** Plays the page's seat from the board (the last action each decision offers) until the results are shown. */
async function playToTheEnd(page) {
  for (let i = 0; i < 400; i++) {
    await page.waitForSelector('[data-decision], [data-testid=result]', { timeout: 15000 });
    if (await page.$('[data-testid=result]')) return;
    const before = Number(await page.getAttribute('.board-slot [data-version]', 'data-version'));
    await page.locator('[data-decision] [data-action]:visible:not([aria-disabled=true]):not([disabled])').last().click();
    await page.waitForFunction((v) => Number(document.querySelector('.board-slot [data-version]').dataset.version) > v
      || document.querySelector('[data-testid=result]'), before, { timeout: 15000 });
  }
  throw new Error('the game did not end in 400 decisions');
}

test('a guest signs up with a passkey, signs in with it in a second browser, and signs out everywhere', { timeout: 150000 }, async () => {
  const site = h.base.replace('127.0.0.1', 'localhost');
  const A = await h.newPage('passkey-A', DESKTOP);
  let table;
  let guestName;
  try {
    const authA = await virtualAuthenticator(A);

    await step('a guest keeps the name the server gave it across page loads', 15000, async () => {
      await A.goto(`${site}/`);
      await A.waitForSelector('[data-testid=connection][data-state=open]');
      guestName = (await header(A)).guest;
      assert.match(guestName, /^Guest-/);
      await A.reload();
      await A.waitForSelector('[data-testid=connection][data-state=open]');
      assert.equal((await header(A)).guest, guestName, 'the same guest after a reload');
      assert.equal((await header(A)).signIn, true, 'a guest is offered "Sign in"');
    });

    await step('the guest starts a Medici game against bots and plays a few moves', 20000, async () => {
      await A.selectOption('#bots-game', 'medici');
      await A.selectOption('#bots-players', '2');
      await A.selectOption('#bots-level', 'easy');
      await A.click('[data-testid=play-bots]');
      await A.waitForURL(/\/t\/[A-Za-z0-9_-]+$/);
      table = new URL(A.url()).pathname.split('/')[2];
      await A.waitForSelector('.board-slot [data-version]');
      await playMoves(A, 3);
    });

    await step('"Sign in", then "Create an account": name and label, one click on the passkey button', 20000, async () => {
      await A.click('[data-testid=sign-in-link]');
      await A.waitForURL((url) => url.pathname === '/account/sign-in' && url.searchParams.get('next') === `/t/${table}`);
      assert.match(await A.textContent('[data-testid=auth-seats]'), /game this browser plays comes with you/);
      await A.click('[data-testid=auth-switch]');
      await A.waitForURL((url) => url.pathname === '/account/sign-up' && url.searchParams.get('next') === `/t/${table}`);
      assert.equal(await A.isEnabled('[data-testid=passkey-sign-up]'), true, 'localhost can make passkeys');
      // The passkey way comes first.
      const ways = await A.$$eval('.auth-ways > fieldset', (els) => els.map((el) => el.dataset.testid));
      assert.deepEqual(ways, ['passkey-way', 'password-way']);
      await shotLightDark(A, 'account-sign-up', DESKTOP_SHOT);
      await A.fill('[data-testid=sign-up-name]', 'Ann Passkey');
      await A.fill('#passkey-label', 'Laptop');
      await A.click('[data-testid=passkey-sign-up]');
      // Back at the table, signed in, and the connection too (the WebSocket was opened again).
      await A.waitForURL((url) => url.pathname === `/t/${table}`, { timeout: 15000 });
      await signedInAs(A, 'Ann Passkey');
      assert.equal((await header(A)).guest, '', 'the guest name gives way to the account menu');
      await A.waitForSelector('.notice >> text=is now your account’s');
      // The seat is still this browser's: the table resumed it on the new connection (under the name it was
      // taken with: the server does not rename a seat taken before).
      await A.waitForSelector('.player.is-me');
    });

    await step('the signed-in player plays on at the table', 15000, async () => {
      await playMoves(A, 1);
    });

    let credential;
    await step('the passkey is copied to a second browser\'s authenticator', 10000, async () => {
      const { credentials } = await authA.cdp.send('WebAuthn.getCredentials', { authenticatorId: authA.authenticatorId });
      assert.equal(credentials.length, 1);
      assert.equal(credentials[0].isResidentCredential, true, 'a discoverable passkey: sign-in asks no name');
      assert.equal(credentials[0].rpId, 'localhost');
      credential = credentials[0];
    });

    const B = await h.newPage('passkey-B', PHONE);
    await step('the second browser signs in with the passkey, no name asked', 20000, async () => {
      const authB = await virtualAuthenticator(B);
      await authB.cdp.send('WebAuthn.addCredential', { authenticatorId: authB.authenticatorId, credential });
      await B.goto(`${site}/account/sign-in`);
      await B.waitForSelector('[data-testid=passkey-sign-in]:not([disabled])');
      await shotLightDark(B, 'account-sign-in-phone', PHONE);
      await B.click('[data-testid=passkey-sign-in]');
      await B.waitForURL((url) => url.pathname === '/', { timeout: 15000 });
      await signedInAs(B, 'Ann Passkey');
    });

    await step('the second browser, which never held the seat\'s token, finds the game in "My games" and finishes it', 90000, async () => {
      await B.click('[data-testid=nav-my-games]');
      await B.waitForSelector(`[data-testid=my-game][data-table="${table}"]`);
      assert.match(await B.textContent('.my-games .tagline'), /your account/);
      assert.equal(await B.evaluate(() => Object.keys(JSON.parse(localStorage.getItem('emporium.seats') || '{}')).length), 0,
        'no seat token in this browser');
      await B.click(`[data-testid=my-game][data-table="${table}"] [data-testid=my-game-open]`);
      await B.waitForURL((url) => url.pathname === `/t/${table}`);
      await B.waitForSelector('.player.is-me');  // seated, resumed by the account
      // The first browser's connection hands the seat over.
      await A.waitForFunction(() => !document.querySelector('.player.is-me'), null, { timeout: 10000 });
      await playToTheEnd(B);
      await B.click('[data-testid=nav-my-games]');
      await B.waitForSelector(`[data-testid=my-game][data-table="${table}"] [data-testid=my-game-result]`);
    });

    await step('the account page lists the passkey and both sessions, this device marked', 15000, async () => {
      await B.click('[data-testid=account-menu]');
      assert.equal(await B.getAttribute('[data-testid=account-menu]', 'aria-expanded'), 'true');
      await B.click('[data-testid=account-link]');
      await B.waitForSelector('[data-testid=account-page-name]');
      assert.equal(await B.textContent('[data-testid=account-page-name]'), 'Ann Passkey');
      const passkeys = await B.$$eval('[data-testid=passkey]', (els) => els.map((el) => ({
        label: el.querySelector('[data-testid=passkey-label]').textContent, facts: el.querySelector('.account-item-facts').textContent,
      })));
      assert.equal(passkeys.length, 1);
      assert.equal(passkeys[0].label, 'Laptop');
      assert.match(passkeys[0].facts, /last used/, 'it has signed in once');
      const sessions = await B.$$eval('[data-testid=session]', (els) => els.map((el) => el.dataset.current));
      assert.deepEqual(sessions, ['true', 'false'], 'two sessions, this one first');
      assert.match(await B.textContent('[data-testid=password-state]'), /No password yet/);
      const signIns = await B.$$eval('[data-testid=sign-in]', (els) => els.map((el) => [el.dataset.ok, el.cells[1].textContent]));
      assert.deepEqual(signIns, [['true', 'Passkey'], ['true', 'Passkey']], 'the sign-up and this sign-in');
      await shotLightDark(B, 'account-page-phone', PHONE);
      await B.setViewportSize(DESKTOP);
      await shotLightDark(B, 'account-page', DESKTOP_SHOT);
    });

    await step('rename the passkey in place; this device cannot add a second one for the same account', 15000, async () => {
      await B.click('[data-testid=passkey-rename]');
      assert.equal(await B.evaluate(() => document.activeElement.dataset.testid), 'passkey-rename-input', 'the field takes the focus');
      await B.fill('[data-testid=passkey-rename-input]', 'Ann\'s laptop');
      await B.press('[data-testid=passkey-rename-input]', 'Enter');
      await B.waitForFunction(() => document.querySelector('[data-testid=passkey-label]').textContent === 'Ann\'s laptop');
      assert.match(await B.textContent('[data-testid=passkeys-status]'), /Renamed/);
      // The authenticator already holds this account's passkey (the server lists it in excludeCredentials).
      await B.click('[data-testid=passkey-add]');
      await B.waitForSelector('[data-testid=passkeys-status][data-kind=error]');
      assert.equal(await B.textContent('[data-testid=passkeys-status]'), 'This device already holds a passkey for your account.');
    });

    await step('the only passkey of an account without a password cannot be removed: said in words', 10000, async () => {
      await B.click('[data-testid=passkey-remove]');
      await B.click('[data-testid=passkey-remove-yes]');
      await B.waitForSelector('[data-testid=passkeys-status][data-kind=error]');
      assert.match(await B.textContent('[data-testid=passkeys-status]'), /only way to sign in/);
      assert.equal(await B.$$eval('[data-testid=passkey]', (els) => els.length), 1);
    });

    await step('"sign out everywhere" signs out both browsers', 20000, async () => {
      await B.click('[data-testid=sign-out-everywhere]');
      await B.click('[data-testid=sign-out-everywhere-yes]');
      await B.waitForSelector('[data-testid=account-signed-out]');
      await signedOut(B);
      await B.waitForSelector('.notice >> text=2 browsers');
      // The first browser learns it when it looks again (its tab shown again; a reload would too).
      await A.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
      await signedOut(A);
      assert.equal((await header(A)).account, null);
      assert.equal((await header(A)).guest, guestName, 'back to the same guest name');
      await shot(A, 'account-signed-out-everywhere.png');
    });
    assert.deepEqual(scriptErrors(), []);
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});

test('the password way: sign up, sign out, a wrong password, sign in, change it, export and delete', { timeout: 60000 }, async () => {
  const P = await h.newPage('password', DESKTOP);
  try {
    await step('on 127.0.0.1 the page says why passkeys cannot work here, and offers the password', 15000, async () => {
      await P.goto('/account/sign-up');
      await P.waitForSelector('[data-testid=password-way]');
      await P.waitForSelector('[data-testid=passkey-unsupported]');
      assert.equal(await P.isDisabled('[data-testid=passkey-sign-up]'), true);
    });

    await step('sign-up: the rule is checked before anything is sent, then the account is made', 15000, async () => {
      await P.fill('[data-testid=sign-up-name]', 'Pat Password');
      await P.fill('#sign-up-new', 'short');
      await P.fill('#sign-up-confirm', 'short');
      await P.click('[data-testid=password-sign-up]');
      await P.waitForSelector('[data-testid=password-status][data-kind=error]');
      assert.match(await P.textContent('[data-testid=password-status]'), /too short/);
      assert.equal(await P.getAttribute('#sign-up-new', 'aria-invalid'), 'true');
      await P.fill('#sign-up-new', 'correct horse battery');
      await P.fill('#sign-up-confirm', 'correct horse batery');
      await P.press('#sign-up-confirm', 'Enter'); // Enter in the password fields sends the password way
      await P.waitForFunction(() => /differ/.test(document.querySelector('[data-testid=password-status]').textContent));
      await P.fill('#sign-up-confirm', 'correct horse battery');
      await P.press('#sign-up-confirm', 'Enter');
      await P.waitForURL((url) => url.pathname === '/', { timeout: 15000 });
      await signedInAs(P, 'Pat Password');
      // The lobby's name form: a signed-in player plays under the account's name.
      await P.waitForSelector('[data-testid=name-account]:visible');
      assert.match(await P.textContent('[data-testid=name-account]'), /Pat Password/);
    });

    await step('sign out from the header\'s menu', 10000, async () => {
      await P.click('[data-testid=account-menu]');
      await P.click('[data-testid=sign-out]');
      await signedOut(P);
      await P.waitForSelector('.notice >> text=You are signed out');
    });

    await step('a wrong password is said in words; the right one signs in', 15000, async () => {
      await P.click('[data-testid=sign-in-link]');
      await P.waitForSelector('[data-testid=sign-in-name]');
      await P.fill('[data-testid=sign-in-name]', 'pat  password'); // the same name, case and spaces aside
      await P.fill('[data-testid=sign-in-password]', 'wrong horse battery');
      await P.click('[data-testid=password-sign-in]');
      await P.waitForSelector('[data-testid=password-status][data-kind=error]');
      assert.equal(await P.textContent('[data-testid=password-status]'), 'Wrong name or password.');
      await shot(P, 'account-wrong-password.png');
      await P.fill('[data-testid=sign-in-password]', 'correct horse battery');
      await P.click('[data-testid=password-sign-in]');
      await P.waitForURL((url) => url.pathname === '/', { timeout: 15000 });
      await signedInAs(P, 'Pat Password');
    });

    await step('change the password: the current one is checked', 15000, async () => {
      await P.goto('/account');
      await P.waitForSelector('[data-testid=account-password]');
      assert.match(await P.textContent('[data-testid=password-state]'), /sign in with your name and this password/);
      await P.fill('#change-current', 'not my password');
      await P.fill('#change-new', 'staple battery horse');
      await P.fill('#change-confirm', 'staple battery horse');
      await P.click('[data-testid=password-change]');
      await P.waitForFunction(() => /current password is wrong/.test(document.querySelector('[data-testid=password-change-status]').textContent));
      await P.fill('#change-current', 'correct horse battery');
      await P.fill('#change-new', 'staple battery horse');
      await P.fill('#change-confirm', 'staple battery horse');
      await P.click('[data-testid=password-change]');
      await P.waitForFunction(() => /password was changed/.test(document.querySelector('[data-testid=password-change-status]').textContent));
      assert.equal(await P.inputValue('#change-new'), '', 'no password stays on screen');
      const signIns = await P.$$eval('[data-testid=sign-in]', (els) => els.map((el) => el.dataset.ok));
      assert.deepEqual(signIns, ['true', 'false', 'true'], 'the sign-in, the wrong password, the sign-up');
    });

    await step('export: a JSON download of the account', 15000, async () => {
      const [download] = await Promise.all([P.waitForEvent('download'), P.click('[data-testid=export]')]);
      assert.equal(download.suggestedFilename(), 'emporium-account.json');
      const data = JSON.parse(readFileSync(await download.path(), 'utf8'));
      assert.equal(data.account.name, 'Pat Password');
      assert.equal(data.account.has_password, true);
      assert.ok(Array.isArray(data.sign_ins) && data.sign_ins.length >= 3, 'the sign-ins are in it');
    });

    await step('delete: a wrong name is refused, the right one deletes; the account is gone', 20000, async () => {
      await P.fill('[data-testid=delete-confirm]', 'Someone Else');
      await P.click('[data-testid=delete-account]');
      await P.waitForSelector('[data-testid=delete-status][data-kind=error]');
      assert.match(await P.textContent('[data-testid=delete-status]'), /Type your account’s name, “Pat Password”/);
      await P.fill('[data-testid=delete-confirm]', 'Pat Password');
      await P.click('[data-testid=delete-account]');
      await P.waitForURL((url) => url.pathname === '/', { timeout: 15000 });
      await signedOut(P);
      await P.waitForSelector('.notice >> text=Your account was deleted');
      await P.goto('/account/sign-in');
      await P.fill('[data-testid=sign-in-name]', 'Pat Password');
      await P.fill('[data-testid=sign-in-password]', 'staple battery horse');
      await P.click('[data-testid=password-sign-in]');
      await P.waitForSelector('[data-testid=password-status][data-kind=error]');
      assert.equal(await P.textContent('[data-testid=password-status]'), 'Wrong name or password.');
    });
    assert.deepEqual(scriptErrors(), []);
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});
