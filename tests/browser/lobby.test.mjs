// The lobby's games, the colour scheme switch and a visitor's way into an invited table, in Chromium
// (headless) against the real server: see support.mjs.
//   1. The lobby shows a card per game with its player counts (from the server's welcome) and the two
//      ways to start; "New table" on a card chooses that game in the form and moves the focus there; "Play against
//      bots" starts that game against bots at once, and My games says the bots finish it after three days away.
//   2. A browser that prefers dark gets the dark scheme; the header switch pins light, which a reload keeps.
//   3. A visitor opening an invite sees who invited them to what, gives a name and joins with one button
//      (seated at the first free seat under that name; the host sees it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, axeAudit, createHarness, openLobby, openPrivateTable, shot, step } from './support.mjs';

const h = createHarness({ failurePrefix: 'failure-lobby-', motion: 'no-preference' });

test('the lobby describes the games, and New table chooses one', { timeout: 60000 }, async () => {
  const A = await h.newPage('A', DESKTOP);
  try {
    await step('a card per game, with the server\'s player counts', 15000, async () => {
      await openLobby(A, 'Ann');
      const cards = await A.$$eval('[data-testid=game-cards] .game-card', (els) => els.map((el) => ({
        game: el.dataset.game, title: el.querySelector('h3').textContent, facts: el.querySelector('.game-facts').textContent,
        blurb: el.querySelector('.game-blurb').textContent,
      })));
      assert.deepEqual(cards.map((c) => c.game).sort(), ['medici', 'medina', 'merkator', 'silkroad']);
      const medici = cards.find((c) => c.game === 'medici');
      assert.equal(medici.title, 'Medici');
      assert.match(medici.facts, /^2–6 players/);
      assert.match(cards.find((c) => c.game === 'medina').facts, /^2–4 players/);
      for (const c of cards) assert.ok(c.blurb.length > 40, `${c.game} says what the game is about`);
      await shot(A, 'lobby-desktop-light.png');
    });
    await step('"New table" on the Medina card chooses Medina in the form, with its player counts', 10000, async () => {
      await A.click('.game-card[data-game=medina] >> text=New table');
      assert.equal(await A.inputValue('#create-game'), 'medina');
      assert.equal(await A.evaluate(() => document.activeElement.id), 'create-game');
      assert.deepEqual(await A.$$eval('#create-players option', (os) => os.map((o) => o.value)), ['2', '3', '4']);
    });
    await step('"Play against bots" on the Medici card starts Medici against bots at once (issue 36)', 15000, async () => {
      await A.click('.game-card[data-game=medici] >> text=Play against bots');
      await A.waitForURL(/\/t\/[A-Za-z0-9_-]+$/);
      await A.waitForSelector('.medici[data-version]');
      const seats = await A.$$eval('.players .player', (els) => els.length);
      assert.equal(seats, 3, 'the form\'s default: you and two bots');
      assert.deepEqual(await A.$$eval('.players .player.is-bot .player-name', (els) => els.map((e) => e.textContent.trim())), ['Bot 1', 'Bot 2']);
      // the bots' own names in the language's words (issue 36), then back to English
      await A.selectOption('[data-testid=language]', 'ja');
      await A.waitForFunction(() => document.documentElement.lang === 'ja');
      await A.waitForSelector('.players .player.is-bot .player-name >> text=ボット1');
      assert.deepEqual(await A.$$eval('.players .player.is-bot .player-name', (els) => els.map((e) => e.textContent.trim())), ['ボット1', 'ボット2']);
      await A.selectOption('[data-testid=language]', 'en');
      await A.waitForFunction(() => document.documentElement.lang === 'en');
    });
    await step('My games says the bots finish a game against bots only after three days away', 15000, async () => {
      await A.click('a[href="/my-games"]');
      await A.waitForSelector('[data-testid=my-game-forsaken]');
      assert.equal(await A.textContent('[data-testid=my-game-forsaken]'),
        'Against bots: a casual game ends by itself: the bots finish it if you stay away 3 days.');
      assert.deepEqual(await axeAudit(A, 'My games'), [], 'no serious or critical violation');
    });
    assert.deepEqual(h.pageErrors, []);
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});

test('dark mode follows the system; the switch pins a scheme and a reload keeps it', { timeout: 60000 }, async () => {
  const P = await h.newPage('P', PHONE);
  const luminance = (rgb) => {
    const [r, g, b] = rgb.match(/\d+/g).map(Number);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  try {
    await step('a browser that prefers dark gets a dark page', 15000, async () => {
      await P.emulateMedia({ colorScheme: 'dark' });
      await openLobby(P, 'Pat');
      assert.equal(await P.getAttribute('[data-testid=theme-switch]', 'aria-pressed'), 'true');
      assert.equal(await P.evaluate(() => document.documentElement.dataset.theme), undefined, 'nothing chosen yet');
      const bg = await P.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
      assert.ok(luminance(bg) < 60, `dark background: ${bg}`);
      await shot(P, 'lobby-phone-dark.png');
    });
    await step('the switch pins light; a reload keeps it', 15000, async () => {
      await P.click('[data-testid=theme-switch]');
      assert.equal(await P.evaluate(() => document.documentElement.dataset.theme), 'light');
      assert.equal(await P.getAttribute('[data-testid=theme-switch]', 'aria-pressed'), 'false');
      const light = await P.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
      assert.ok(luminance(light) > 200, `light background: ${light}`);
      await P.reload();
      await P.waitForSelector('[data-testid=connection][data-state=open]');
      assert.equal(await P.evaluate(() => document.documentElement.dataset.theme), 'light');
      assert.ok(luminance(await P.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)) > 200);
      await shot(P, 'lobby-phone-light.png');
    });
    assert.deepEqual(h.pageErrors, []);
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});

test('an invited visitor is asked for a name and joins the free seat with one button', { timeout: 60000 }, async () => {
  const A = await h.newPage('host', DESKTOP);
  const V = await h.newPage('visitor', PHONE);
  try {
    let invite;
    await step('A creates a private 2-player Medici table', 15000, async () => {
      invite = await openPrivateTable(A, 'Ann');
    });
    await step('the visitor sees the invitation and the join button first', 15000, async () => {
      await V.goto(invite);
      await V.waitForSelector('[data-testid=join-card]');
      assert.equal(await V.textContent('.join-invite'), 'Ann invited you to play Medici.');
      assert.equal(await V.textContent('[data-testid=join-game]'), 'Join the game (seat 2)');
      // The invitation comes before the invite link and the seat list.
      const order = await V.$$eval('.pregame > *', (els) => els.map((el) => el.className || el.tagName));
      assert.ok(order.indexOf('join-card') < order.findIndex((c) => /seat-list/.test(c)), order.join(' | '));
      await shot(V, 'invite-join-phone.png');
    });
    await step('an empty name is refused; with a name, one click seats the visitor', 15000, async () => {
      await V.fill('.join-card input[name=name]', '   ');
      await V.click('[data-testid=join-game]');
      await V.waitForSelector('.join-card .form-status[data-kind=error]');
      assert.equal(await V.$('.seat.is-me'), null);
      await V.fill('.join-card input[name=name]', 'Vic');
      await V.click('[data-testid=join-game]');
      await V.waitForSelector('.seat.is-me[data-seat="1"]');
      assert.match(await V.textContent('.seat.is-me .seat-name'), /^Vic/);
      assert.equal(await V.$('[data-testid=join-card]'), null);
      await A.waitForSelector('.seat[data-seat="1"] >> text=Vic');
      await A.waitForSelector('[data-testid=start]:not([disabled])');
    });
    assert.deepEqual(h.pageErrors, []);
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});
