// Ratings in the browser (issue 33): Chromium (headless) driven by playwright-core against the real server binary
// (--bot-delay-ms 0). It needs the server's part of ratings (rated tables, rating_changes, GET /api/players/<name>
// and /api/leaderboard/<game>, docs/ratings.md): it is written against that contract.
//
// A guest's create form has "Rated" off and disabled, with the reason and a link to sign in. Ann signs up (the
// password way, through the client's own accounts module): her form is rated by default, and the table she creates
// says "Rated"; a guest sees it in the lobby with "Sign in to join" instead of "Join", and on the table page the
// reason instead of a seat. Ann then plays two rated Medici games against two easy bots through the protocol
// (protocol-driver.mjs: her page's WebSocket carries her session) and opens the second: the seats show the
// ratings (hers provisional, the bots' fixed), the results her change and new rating. "Profile" in her menu opens
// her profile: that rating, two games played and finished, a graph of two points (an SVG image named by its
// summary, and the points as a hidden table), the two games with their replays. "Leaderboards" in the lobby: the
// Medici board (nobody qualifies after two games: its rule says why, and Ann is told she is not on it yet) and
// the game picker. axe finds no serious or critical violation on the profile and the leaderboard, light and dark.
//
// Environment: EMPORIUM_BUILD_DIR (default build), CHROMIUM_PATH (default /usr/bin/chromium).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, axeAudit, createHarness, shotLightDark, step, DESKTOP_SHOT } from './support.mjs';
import { createTableWithBots, startAndPlay } from './protocol-driver.mjs';

const h = createHarness({ serverArgs: ['--bot-delay-ms', '0'], failurePrefix: 'failure-ratings-' });

const MINUS = '\u2212';

test('rated tables, the change after a game, the profile and its graph, the leaderboard', { timeout: 180000 }, async () => {
  const A = await h.newPage('Ann', DESKTOP);
  const G = await h.newPage('guest', DESKTOP);
  const bad = [];
  try {
    await step('a guest cannot make a rated table: the switch is off, with the reason and a way to sign in', 15000, async () => {
      await G.goto('/');
      await G.waitForSelector('[data-testid=create-rated]');
      assert.equal(await G.isChecked('[data-testid=create-rated]'), false);
      assert.equal(await G.isDisabled('[data-testid=create-rated]'), true);
      assert.match(await G.textContent('#create-rated-hint'), /Sign in to play rated games/);
      assert.match(await G.getAttribute('[data-testid=create-rated-sign-in]', 'href'), /^\/account\/sign-in/);
    });

    await step('Ann signs up: her create form is rated by default', 30000, async () => {
      await A.goto('/');
      await A.waitForSelector('[data-testid=connection][data-state=open]');
      await A.evaluate(() => window.emporium.accounts.signUpWithPassword({ name: 'Ann', password: 'a long enough password' }));
      await A.waitForFunction(() => window.emporium.conn.account && window.emporium.conn.account.name === 'Ann', null, { timeout: 15000 });
      await A.waitForSelector('[data-testid=create-rated]:checked:not([disabled])');
    });

    let waiting;
    await step('her new table says "Rated"; a guest is told to sign in instead of joining', 20000, async () => {
      await A.selectOption('#create-game', 'medici');
      await A.click('[data-testid=create-table]');
      await A.waitForURL(/\/t\/[A-Za-z0-9_-]+$/);
      waiting = A.url().split('/t/')[1];
      assert.equal(await A.textContent('.table-meta [data-testid=table-rated]'), 'Rated');
      const entry = `.table-item[data-table="${waiting}"]`;
      await G.waitForSelector(`${entry} [data-testid=table-rated]`);
      assert.equal(await G.textContent(`${entry} [data-testid=table-rated]`), 'Rated');
      assert.equal(await G.$(`${entry} button >> text=Join`), null);
      assert.equal(await G.getAttribute(`${entry} [data-testid=join-sign-in]`, 'href'), `/account/sign-in?next=%2Ft%2F${waiting}`);
      await G.goto(`/t/${waiting}`);
      await G.waitForSelector('[data-testid=rated-sign-in]');
      assert.match(await G.textContent('[data-testid=rated-sign-in]'), /rated: sign in to take a seat/);
      assert.equal(await G.$('[data-testid=take-seat]'), null);
      assert.equal(await G.$('[data-testid=join-game]'), null);
    });

    const tables = [];
    await step('Ann plays two rated Medici games against two easy bots', 90000, async () => {
      for (let i = 0; i < 2; i++) {
        const id = await createTableWithBots(A, 'medici');
        await startAndPlay(A, id);
        tables.push(id);
      }
    });

    let after;
    await step('the second game\'s table: the ratings beside the names, her change in the results', 20000, async () => {
      await A.goto(`/t/${tables[1]}`);
      await A.waitForSelector('[data-testid=rating-changes] [data-testid=rating-delta]', { timeout: 15000 });
      const seats = await A.$$eval('.players .player', (rows) => rows.map((r) => ({
        seat: r.dataset.seat, rating: r.querySelector('[data-testid=seat-rating]')?.textContent ?? null,
        link: r.querySelector('.player-link')?.getAttribute('href') ?? null,
      })));
      const ann = seats.find((s) => s.link === '/u/Ann');
      assert.ok(ann, `Ann's name links to her profile: ${JSON.stringify(seats)}`);
      assert.match(ann.rating, /^\d+\?rating \d+, provisional$/, 'two games: provisional, said in words too');
      const bots = seats.filter((s) => s !== ann);
      assert.equal(bots.length, 2);
      for (const b of bots) {
        assert.match(b.rating, /^\d+fixedthe bot’s fixed rating \d+$/, 'a bot\'s fixed rating, marked as such');
        assert.equal(b.link, null, 'bots have no profile');
      }
      const change = await A.$$eval('[data-testid=rating-changes] .rating-change', (rows) => rows.map((r) => ({
        delta: r.querySelector('[data-testid=rating-delta] [aria-hidden]').textContent,
        after: r.querySelector('[data-testid=rating-after]').textContent,
      })));
      assert.equal(change.length, 1, 'only the person is rated');
      assert.match(change[0].delta, new RegExp(`^(\\+\\d+|${MINUS}\\d+|±0)$`));
      const m = /^now (\d+) \(provisional\)$/.exec(change[0].after);
      assert.ok(m, change[0].after);
      after = Number(m[1]);
    });

    await step('"Profile" in her menu: the rating, the counts, the graph of two games, the recent games', 20000, async () => {
      await A.click('[data-testid=account-menu]');
      await A.click('[data-testid=profile-link]');
      await A.waitForURL(/\/u\/Ann$/);
      await A.waitForSelector('[data-testid=profile-game][data-game=medici] [data-testid=rating-graph]');
      const medici = '[data-testid=profile-game][data-game=medici]';
      assert.equal(await A.textContent('[data-testid=profile-name]'), 'Ann');
      assert.equal(await A.textContent(`${medici} .profile-rating-value`), `${after}?`);
      assert.equal(await A.textContent(`${medici} [data-testid=profile-played]`), '2');
      assert.equal(await A.textContent(`${medici} [data-testid=profile-finished]`), '2');
      assert.equal(await A.textContent(`${medici} [data-testid=profile-left]`), '0');
      assert.equal(await A.textContent('[data-testid=reputation-finished]'), '2');
      assert.equal(await A.textContent('[data-testid=reputation-left]'), '0');
      const graph = await A.$eval(`${medici} [data-testid=rating-graph]`, (svg) => ({
        role: svg.getAttribute('role'), label: svg.getAttribute('aria-label'), dots: svg.querySelectorAll('.graph-dot').length,
        path: svg.querySelector('.graph-line').getAttribute('d'),
        last: svg.querySelectorAll('.graph-dot')[1]?.dataset.value,
      }));
      assert.equal(graph.role, 'img');
      assert.match(graph.label, new RegExp(`^Medici rating over 2 rated games: from \\d+ to ${after}, lowest \\d+, highest \\d+\\.$`));
      assert.equal(graph.dots, 2);
      assert.match(graph.path, /^M[\d.]+ [\d.]+ L[\d.]+ [\d.]+$/);
      assert.equal(Number(graph.last), after);
      assert.equal(await A.$$eval(`${medici} [data-testid=rating-points] tbody tr`, (rows) => rows.length), 2);
      // The other games: never played, said so.
      assert.equal(await A.$$eval('[data-testid=profile-no-rated]', (els) => els.length), 3);
      const replays = await A.$$eval('[data-testid=profile-recent] [data-testid=profile-replay]', (links) => links.map((a) => a.getAttribute('href')));
      assert.deepEqual(replays.sort(), tables.map((id) => `/t/${id}/replay`).sort(), 'both games, each with its replay');
      await shotLightDark(A, 'ratings-profile', DESKTOP_SHOT);
      bad.push(...await axeAudit(A, 'profile'));
    });

    await step('"Leaderboards" from the lobby: the rule, Ann not on it yet, the game picker', 20000, async () => {
      await A.goto('/');
      await A.click('[data-testid=leaderboards-link]');
      await A.waitForURL(/\/leaderboard\/[a-z]+$/);
      await A.click('[data-testid=leaderboard-game] >> text=Medici');
      await A.waitForURL(/\/leaderboard\/medici$/);
      await A.waitForSelector('[data-testid=leaderboard-rule]');
      assert.match(await A.textContent('[data-testid=leaderboard-rule]'), /settled \(not provisional\) rating and at least \d+ rated games?/);
      assert.equal(await A.textContent('[data-testid=leaderboard-empty]'), 'No one is on this leaderboard yet.');
      assert.match(await A.textContent('[data-testid=leaderboard-you]'), /not on this leaderboard yet/);
      const picker = await A.$$eval('[data-testid=leaderboard-game]', (links) => links.map((a) => [a.textContent, a.getAttribute('aria-current')]));
      assert.equal(picker.length, 4);
      assert.deepEqual(picker.filter(([, current]) => current === 'page').map(([name]) => name), ['Medici']);
      await shotLightDark(A, 'ratings-leaderboard', DESKTOP_SHOT);
      bad.push(...await axeAudit(A, 'leaderboard'));
    });

    assert.deepEqual(bad, [], 'no serious or critical accessibility violation (printed above)');
    assert.deepEqual(h.pageErrors, []);
    assert.deepEqual(h.dialogs, [], 'no window.confirm or alert');
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});
