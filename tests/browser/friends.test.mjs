// Friends, presence, invitations and blocks in the browser (issue 34, part 1): Chromium (headless) driven by
// playwright-core against the real server binary. It needs the server's part (the friends requests and frames,
// friends_only tables, the join refusals for blocks; docs/client.md "Friends"): it is written against that contract.
//
// Ann, Bo and Cy sign up, each in a browser context of their own. Ann asks Bo by name from the lobby's Friends
// panel; Bo sees the request and accepts; Ann sees Bo online. Ann creates a friends-only Medici table for two and
// invites Bo from the table page; Bo gets the invitation in his lobby and joins with it; Ann's panel says Bo is
// playing; the game starts with both seated. Cy asks Ann to be friends and Ann blocks him from the request (a
// new player's profile is not shown before a public game, so not from there); Cy cannot join Ann's next public
// table ("You cannot join this table"). Bo, at his game, declines Ann's invitation to it, and Ann is told. axe
// finds no serious or critical violation in the lobby's Friends panel, an invitation and "Invite a friend", light
// and dark. Ann removes Bo, asked in place first.
//
// Environment: EMPORIUM_BUILD_DIR (default build), CHROMIUM_PATH (default /usr/bin/chromium).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, axeAudit, createHarness, step, signUp as signUpAs } from './support.mjs';

const h = createHarness({ serverArgs: ['--bot-delay-ms', '0'], failurePrefix: 'failure-friends-' });

const row = (name) => `[data-testid=friends-panel] [data-friend="${name}"]`;

async function signUp(page, name) {
  await signUpAs(page, name);
  await page.waitForSelector('[data-testid=friend-add-name]');
}

/** Back to the lobby the way a player goes (the brand link: the page and its connection stay). */
async function toLobby(page) {
  await page.click('.brand');
  await page.waitForSelector('[data-testid=friends-panel] [data-testid=friend-add-name]');
}

/** In the lobby: a 2-player Medici table, friends only or not; returns its id once the table page is open. */
async function createMedici(page, { friendsOnly }) {
  await page.selectOption('#create-game', 'medici');
  await page.selectOption('#create-players', '2');
  await page.setChecked('[data-testid=create-friends-only]', friendsOnly);
  await page.click('[data-testid=create-table]');
  await page.waitForURL(/\/t\/[A-Za-z0-9_-]+$/);
  return page.url().split('/t/')[1];
}

test('friend requests, presence, an invitation to a friends-only table, a block', { timeout: 120000 }, async () => {
  const A = await h.newPage('Ann', DESKTOP);
  const B = await h.newPage('Bo', DESKTOP);
  const C = await h.newPage('Cy', DESKTOP);
  const bad = [];
  try {
    await step('a guest is told to sign in to add friends; Ann, Bo and Cy sign up', 40000, async () => {
      await A.goto('/');
      await A.waitForSelector('[data-testid=friends-guest]');
      assert.match(await A.textContent('[data-testid=friends-guest]'), /^Sign in to add friends\. Sign in$/);
      assert.equal(await A.isDisabled('[data-testid=create-friends-only]'), true, 'a guest cannot make a friends-only table');
      await Promise.all([signUp(A, 'Ann'), signUp(B, 'Bo'), signUp(C, 'Cy')]);
      assert.equal(await A.isDisabled('[data-testid=create-friends-only]'), false);
    });

    await step('Ann asks Bo by name; a name nobody has is refused in words', 15000, async () => {
      await A.fill('[data-testid=friend-add-name]', 'Nobody');
      await A.click('[data-testid=friend-add]');
      await A.waitForSelector('[data-testid=friend-add-status][data-kind=error]');
      assert.equal(await A.textContent('[data-testid=friend-add-status]'), 'There is no player by that name.');
      await A.fill('[data-testid=friend-add-name]', 'Bo');
      await A.click('[data-testid=friend-add]');
      await A.waitForSelector('[data-testid=friend-add-status][data-kind=ok]');
      assert.equal(await A.textContent('[data-testid=friend-add-status]'), 'Friend request sent to Bo.');
      await A.waitForSelector(`${row('Bo')}[data-testid=friend-outgoing]`);
    });

    await step('Bo sees the request and accepts; Ann sees Bo online', 15000, async () => {
      await B.waitForSelector(`${row('Ann')}[data-testid=friend-incoming]`);
      await B.click(`${row('Ann')} [data-testid=friend-accept]`);
      await B.waitForSelector(`${row('Ann')}[data-testid=friend]`);
      assert.equal(await B.evaluate(() => document.activeElement.closest('[data-friend]')?.dataset.friend), 'Ann',
        'the keyboard stays with Ann, now among the friends');
      await A.waitForSelector(`${row('Bo')}[data-testid=friend][data-status=online]`);
      assert.equal(await A.textContent(`${row('Bo')} [data-testid=friend-presence]`), 'Online');
      assert.equal(await A.$('[data-testid=friend-outgoing]'), null);
    });

    let table;
    await step('Ann creates a friends-only Medici table and invites Bo from it', 15000, async () => {
      table = await createMedici(A, { friendsOnly: true });
      await A.waitForSelector('[data-testid=invite-friend-name]');
      assert.equal(await A.textContent('[data-testid=table-access]'), 'Friends only', 'not "Private table"');
      assert.deepEqual(await A.$$eval('[data-testid=invite-friend-name] option', (os) => os.map((o) => o.value)), ['Bo']);
      await A.click('[data-testid=invite-friend-send]');
      await A.waitForSelector('[data-testid=invite-friend-status][data-kind=ok]');
      assert.equal(await A.textContent('[data-testid=invite-friend-status]'), 'Invitation sent to Bo.');
    });

    await step('Bo sees the invitation in his lobby and joins with it', 15000, async () => {
      const notice = `[data-testid=invitation][data-table="${table}"]`;
      await B.waitForSelector(notice);
      assert.equal(await B.textContent(`${notice} .invitation-text`), 'Ann invites you to Medici (2 players)');
      assert.equal(await B.getAttribute('[data-testid=invitations]', 'aria-live'), 'polite');
      bad.push(...await axeAudit(B, 'an invitation', { include: '[data-testid=invitations]' }));
      await B.click(`${notice} [data-testid=invitation-join]`);
      await B.waitForURL(new RegExp(`/t/${table}$`));
      await B.waitForSelector('.seat.is-me');
      assert.equal(await B.$(notice), null, 'the invitation answered is gone');
    });

    await step('Ann\'s panel says Bo is playing; back at the table, the game starts with both seated', 20000, async () => {
      await toLobby(A);
      await A.waitForSelector(`${row('Bo')}[data-status=playing]`);
      assert.match(await A.textContent(`${row('Bo')} [data-testid=friend-presence]`), /^Playing( Medici)?$/);
      await A.goBack();
      await A.waitForURL(new RegExp(`/t/${table}$`));
      await A.click('[data-testid=start]:not([disabled])');
      for (const page of [A, B]) {
        await page.waitForSelector('.pregame', { state: 'hidden' });
        await page.waitForSelector('[data-testid=invite-friend]', { state: 'hidden' });
        await page.waitForFunction(() => document.querySelector('[data-testid=turn]')?.textContent.trim());
      }
    });

    let open;
    await step('Cy asks Ann; she blocks him from the request, then opens a public table', 15000, async () => {
      await C.fill('[data-testid=friend-add-name]', 'Ann');
      await C.click('[data-testid=friend-add]');
      await C.waitForSelector('[data-testid=friend-add-status][data-kind=ok]');
      await A.goto('/');
      await A.click(`${row('Cy')}[data-testid=friend-incoming] [data-testid=friend-block]`);
      await A.waitForSelector('[data-testid=friends-blocked] [data-friend="Cy"]', { state: 'attached' });
      assert.equal(await A.textContent('[data-testid=friends-status]'), 'You blocked Cy.');
      assert.equal(await A.$('[data-testid=friend-incoming]'), null);
      assert.equal(await A.evaluate(() => document.activeElement.id), 'friends-h', 'the blocked list is folded: the keyboard goes to the heading');
      open = await createMedici(A, { friendsOnly: false });
    });

    await step('Cy cannot join Ann\'s table: "You cannot join this table"', 15000, async () => {
      const entry = `.table-item[data-table="${open}"]`;
      await C.waitForSelector(`${entry} button >> text=Join`);
      await C.click(`${entry} button >> text=Join`);
      await C.waitForSelector('#notices .notice--error');
      assert.match(await C.textContent('#notices .notice--error'), /You cannot join this table\./);
      assert.match(C.url(), /\/$/, 'Cy stays in the lobby');
    });

    await step('Bo, at his game, declines Ann\'s invitation to that table; Ann is told', 15000, async () => {
      await A.waitForSelector('[data-testid=invite-friend-name]');
      await A.click('[data-testid=invite-friend-send]');
      await A.waitForSelector('[data-testid=invite-friend-status][data-kind=ok]');
      bad.push(...await axeAudit(A, 'Invite a friend', { include: '[data-testid=invite-friend]' }));
      const notice = `[data-testid=invitation][data-table="${open}"]`;
      await B.waitForSelector(notice);
      assert.match(B.url(), new RegExp(`/t/${table}$`), 'the invitation shows on any page');
      await B.click(`${notice} [data-testid=invitation-decline]`);
      await B.waitForSelector(notice, { state: 'detached' });
      await A.waitForFunction(() => document.querySelector('[data-testid=invite-friend-status]')?.textContent === 'Bo declined.');
    });

    await step('axe: the lobby\'s Friends panel (a friend, the blocked list), light and dark', 20000, async () => {
      await A.click('.brand');
      await A.waitForSelector(`${row('Bo')}[data-testid=friend]`);
      await A.waitForSelector('[data-testid=friends-blocked]');
      bad.push(...await axeAudit(A, 'the Friends panel', { include: '[data-testid=friends-panel]' }));
    });

    await step('Ann removes Bo, asked in place first; Bo\'s list follows', 10000, async () => {
      await A.click(`${row('Bo')} [data-testid=friend-remove]`);
      assert.equal(await A.textContent(`${row('Bo')} .confirm-inline > span`), 'Remove Bo from your friends?');
      assert.equal(await A.evaluate(() => document.activeElement.dataset.testid), 'friend-remove-yes', 'the keyboard is on the answer');
      await A.click(`${row('Bo')} [data-testid=friend-remove-yes]`);
      await A.waitForSelector(row('Bo'), { state: 'detached' });
      assert.equal(await A.textContent('[data-testid=friends-status]'), 'Bo is no longer your friend.');
      await B.goto('/');
      await B.waitForSelector('#friends-list-h');
      assert.equal(await B.textContent('#friends-list-h'), 'Your friends (0)');
      assert.equal(await B.$(row('Ann')), null);
    });

    assert.deepEqual(bad, [], 'no serious or critical accessibility violation (printed above)');
    assert.deepEqual(h.pageErrors, []);
    assert.deepEqual(h.dialogs, [], 'no window.confirm or alert');
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});
