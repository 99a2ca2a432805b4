// Merkator in a real browser: Debian's Chromium (headless) driven by playwright-core, against the
// real server binary on port 0 with a temporary data directory and the shipped Merkator data file.
//
// Scenario: A creates a private 3-player Merkator table from the lobby; B and C open the invite link
// and take seats; D opens it too and watches; A starts. The three play a complete game by clicking
// the board's controls (a seeded choice among the controls each page offers, preferring to end each
// step and to travel where time is gained, so the time chart empties and the game ends). Checked on
// the way: only the player to decide has controls, the spectator never has any (a MutationObserver
// from before the first paint), the other players get the join prompt, every page shows the same
// version of the board, and no request leaves the server. At the end the ranking and the scoring
// table show on every page, the same everywhere. Screenshots go to <build>/screenshots/merkator-*.png.
// Also checked (issue "Boards worth looking at"): after another player's trip its destination city and the
// pawn carry that seat's last-move mark on every other page, the spectator's included; at 1366×768 the map,
// the viewer's office board, their contracts and the move panel are on the first screen (no scrolling); no
// city's name plate overlaps another plate, a cube stack or the pawn; the places the viewer may travel to are
// ringed on the map and a place there is a keyboard-reachable button that travels. Screenshots of a mid-game
// player's page in light and dark: merkator-{desktop,phone}-{light,dark}.png.
// In Japanese: every browser says it prefers ja-JP, so the client chooses Japanese by itself (the layout
// checks above hold with Japanese text); the words the test looks for come from the catalog
// (i18n-support.mjs), and before the start, mid-game and at the end no English word of the client's is on
// any page (the map's place names come from the data file, not from the client's catalog).
//
// Environment: EMPORIUM_BUILD_DIR (default build), CHROMIUM_PATH (default /usr/bin/chromium).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  DESKTOP, PHONE, ROOT, SHOTS, createHarness, createPrivateTable, joinByInvite, rng, shot, step,
} from './support.mjs';
import { assertNoEnglish, language } from './i18n-support.mjs';

const DATA_FILE = path.join(ROOT, 'engine', 'games', 'merkator', 'merkator-data.json');
const NAMES = ['Ann', 'Bea', 'Cy'];
const LAPTOP = { width: 1366, height: 768 };
const L = await language('ja');

const outside = [];
const dataFetches = {};

const h = createHarness({
  serverArgs: ['--merkator-data', DATA_FILE],
  failurePrefix: 'failure-merkator-',
  locale: L.locale,
  // Everything comes from the server itself: no outside request.
  onPage: (page, label, base) => page.on('request', (r) => {
    const url = r.url();
    if (url.includes('/games/merkator/data.json')) dataFetches[label] = (dataFetches[label] || 0) + 1;
    if (!url.startsWith(base) && !url.startsWith(base.replace('http:', 'ws:')) && !url.startsWith('data:')) outside.push(`${label}: ${url}`);
  }),
});

const noEnglish = (pages, where) => Promise.all(pages.map((p) => assertNoEnglish(p, L, { names: NAMES, where })));

// ---- helpers ----

/** What a page shows of the game right now (one round trip). */
function boardState(page) {
  return page.evaluate(() => {
    const board = document.querySelector('.merkator');
    const actions = document.querySelector('[data-testid=actions]');
    const controls = board
      ? [...board.querySelectorAll('[data-action]:not([aria-disabled=true])')].map((b) => ({
        action: b.dataset.action, focus: b.dataset.focus, time: b.dataset.time ?? null, contract: b.dataset.contract ?? null,
        wanted: b.classList.contains('is-wanted'), hidden: Boolean(b.closest('details:not([open])')),
        fold: b.closest('details:not([open])') ? b.closest('details:not([open])').dataset.fold : null,
      }))
      : [];
    const current = document.querySelector('[data-testid=steps] [aria-current=step]');
    return {
      version: board ? Number(board.dataset.version) : -1,
      phase: board ? board.dataset.phase : null,
      ready: Boolean(actions) && actions.getAttribute('aria-busy') !== 'true',
      controls,
      joinPrompt: Boolean(document.querySelector('[data-testid=join-prompt]')),
      readyContracts: [...document.querySelectorAll('.mk-seat.is-me .mk-contract.is-ready')].map((c) => c.dataset.contract),
      step: current ? current.dataset.step : null,
      anyControl: document.querySelectorAll('[data-action], [data-testid=actions], [data-testid=join-prompt]').length,
      result: Boolean(document.querySelector('[data-testid=result]')),
      ranking: [...document.querySelectorAll('[data-testid=result] .rank')].map((r) => r.textContent),
      scoring: [...document.querySelectorAll('[data-testid=scoring] tbody tr')].map((r) => r.textContent),
      map: document.querySelectorAll('.mk-map .mk-loc').length,
      seat: board ? board.dataset.seat : null,
    };
  });
}

/** Boxes of what must be on the first screen, and the map's plates against its stacks, pawn and each other. */
function screenFacts(page) {
  return page.evaluate(() => {
    const rect = (el) => {
      if (!el) return null;
      const r = el.getBoundingClientRect();
      return { x: r.left, y: r.top, w: r.width, h: r.height };
    };
    const needed = {
      map: document.querySelector('.merkator [data-testid=map]'),
      office: document.querySelector('.merkator .mk-own .mk-seat.is-me [data-testid=office]'),
      contracts: document.querySelector('.merkator .mk-own .mk-seat.is-me [data-testid=contracts]'),
      panel: document.querySelector('.merkator [data-decision]'),
    };
    // The move panel may run on below the first screen when a step offers many choices (joining a contract with a
    // long list): its heading and first choices, its first 200 px, must be on it.
    const outside = Object.entries(needed).filter(([name, el]) => {
      const r = rect(el);
      const h = r && name === 'panel' ? Math.min(r.h, 200) : r && r.h;
      return !r || r.x < 0 || r.y < 0 || r.x + r.w > window.innerWidth + 0.5 || r.y + h > window.innerHeight + 0.5;
    }).map(([name, el]) => `${name} ${JSON.stringify(rect(el))}`);
    const labels = [...document.querySelectorAll('.merkator .mk-label')].map((el) => ({ name: el.dataset.label, ...rect(el) }));
    const pieces = [...document.querySelectorAll('.merkator .mk-stack, .merkator .mk-pawn')]
      .map((el) => ({ name: el.dataset.stack ? `stack ${el.dataset.stack}` : 'pawn', ...rect(el) }));
    const hit = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
    const overlaps = [];
    for (const [i, a] of labels.entries()) {
      for (const b of labels.slice(i + 1)) if (hit(a, b)) overlaps.push(`${a.name}/${b.name}`);
      for (const b of pieces) if (hit(a, b)) overlaps.push(`${a.name}/${b.name}`);
    }
    return { scrollY: window.scrollY, outside, overlaps, labels: labels.length, stacks: pieces.length, viewport: [window.innerWidth, window.innerHeight] };
  });
}

async function waitVersionAbove(page, version) {
  await page.waitForFunction((v) => {
    const b = document.querySelector('.merkator');
    return b && Number(b.dataset.version) > v;
  }, version, { timeout: 10000 });
}

// Watches D's page for any control, from before its first paint.
const SPECTATOR_GUARD = () => {
  window.__controlSeen = [];
  const check = () => {
    const found = document.querySelector('.merkator [data-action], [data-testid=actions], [data-testid=join-prompt]');
    if (found) window.__controlSeen.push(found.outerHTML.slice(0, 160));
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
};

// ---- the run ----

test('Merkator: three players and a spectator play a complete game in the browser', { timeout: 300000 }, async () => {
  const started = Date.now();
  const A = await h.newPage('A', LAPTOP);
  const B = await h.newPage('B', DESKTOP);
  const C = await h.newPage('C', PHONE);
  const D = await h.newPage('D', DESKTOP, SPECTATOR_GUARD);

  try {
    const invite = await createPrivateTable(A, NAMES[0], { game: 'merkator', title: L.tr('merkator.name'), label: 'Merkator' });
    await joinByInvite(invite, A, [[B, NAMES[1]], [C, NAMES[2]]], D);
    assert.equal(await A.evaluate(() => document.documentElement.lang), L.lang, 'the browser\'s language chose the client\'s');
    await noEnglish([A, B, C, D], 'the table before the start');

    await step('A starts; everyone sees the board with its map', 20000, async () => {
      await A.click('[data-testid=start]');
      for (const p of [A, B, C, D]) await p.waitForSelector('.merkator[data-version="0"] .mk-map .mk-loc');
      for (const p of [A, B, C, D]) assert.equal((await boardState(p)).map, 12, 'the 12 locations of the data file');
      assert.equal(await D.$('[data-testid=actions]'), null);
    });

    // ---- the game ----
    const random = rng(20261123);
    const players = [A, B, C];
    const seen = new Map();
    const prompted = new Set();
    let actions = 0;
    let shotMid = false;
    let shotJoin = false;
    let markedReady = 0;
    let layoutChecks = 0;
    let tripChecks = 0;
    let mapTravelled = false;
    let shotDesktop = false;
    let shotPhone = false;
    const pages = [A, B, C, D];

    // After a trip, its destination and the pawn carry the traveller's mark on every other page.
    const checkTripMarked = async (mover, seat, loc) => {
      for (const other of pages.filter((p) => p !== mover)) {
        await other.waitForSelector(`.merkator .mk-loc[data-location="${loc}"][data-last-move="${seat}"]`, { timeout: 5000 });
        await other.waitForSelector(`.merkator .mk-pawn[data-pawn="${loc}"][data-last-move="${seat}"]`, { timeout: 5000 });
      }
      tripChecks += 1;
    };
    const themed = async (page, name) => {
      const full = page === C;
      await shot(page, `merkator-${name}-light.png`, full);
      await page.emulateMedia({ colorScheme: 'dark' });
      await shot(page, `merkator-${name}-dark.png`, full);
      await page.emulateMedia({ colorScheme: 'light' });
    };

    const choose = (controls) => {
      // Selling and buying fold in the move panel: the player opens the fold when they want to.
      const by = (a) => controls.filter((c) => c.action === a && (!c.hidden || c.fold === 'invest'));
      const any = (list) => list[Math.floor(random() * list.length)];
      const r = random();
      if (by('join').length || by('decline').length) return r < 0.3 && by('join').length ? by('join')[0] : by('decline')[0] || by('join')[0];
      if (by('fulfil').length) return any(by('fulfil'));
      const wanted = by('trade').filter((c) => c.wanted);
      if (wanted.length && r < 0.5) return any(wanted);
      if (by('done').length) return by('done')[0];
      if (by('end_investment').length) {
        const buys = by('buy');
        if (buys.length && r < 0.25) return any(buys);
        if (by('sell').length && r < 0.05) return any(by('sell'));
        return by('end_investment')[0];
      }
      if (by('sell').length) return any(by('sell')); // forced: down to 5 contracts first
      if (by('travel').length) {
        const gain = by('travel').filter((c) => Number(c.time) > 0);
        return gain.length && r < 0.8 ? any(gain) : any(by('travel'));
      }
      const rest = controls.filter((c) => !c.hidden);
      return rest.length ? any(rest) : controls[0];
    };

    await step('the three players play the whole game through the UI', 240000, async () => {
      for (let iteration = 0; iteration < 4000; iteration++) {
        const states = await Promise.all([A, B, C, D].map(boardState));
        if (states.every((s) => s.result)) return;
        assert.equal(states[3].anyControl, 0, `the spectator has a control at version ${states[3].version}`);

        const turnIndex = states.slice(0, 3).findIndex((s) => s.ready && s.controls.length > 0);
        if (turnIndex < 0) {
          await new Promise((r) => setTimeout(r, 20));
          continue;
        }
        const st = states[turnIndex];
        // All pages show the same moment: no one else may act now.
        for (const [i, other] of states.slice(0, 3).entries()) {
          if (i !== turnIndex && other.version === st.version) assert.equal(other.controls.length, 0, `${NAMES[i]} has controls out of turn`);
        }
        if (st.phase !== 'over') assert.ok(st.step, `${NAMES[turnIndex]}: the step indicator marks the current step`);
        // The contracts marked "fulfil now" on the player's own office are exactly those the controls offer.
        const fulfil = st.controls.filter((c) => c.action === 'fulfil').map((c) => c.contract);
        assert.deepEqual([...st.readyContracts].sort(), fulfil.sort(), `${NAMES[turnIndex]}: contracts marked to fulfil`);
        if (fulfil.length) markedReady += 1;
        if (st.joinPrompt) {
          prompted.add(turnIndex);
          assert.equal(st.step, 'joining');
          if (!shotJoin) {
            shotJoin = true;
            await shot(players[turnIndex], 'merkator-join-prompt.png');
          }
        }
        const page = players[turnIndex];
        // At 1366×768 the viewer's own things are on the first screen, with no scrolling; the map's plates overlap nothing.
        if (turnIndex === 0 && st.version > 10 && ['investment', 'travel', 'joining', 'take'].includes(st.phase) && layoutChecks < 12) {
          layoutChecks += 1;
          await new Promise((r) => setTimeout(r, 100));
          const f = await screenFacts(A);
          const when = `${st.phase} at version ${st.version}`;
          assert.deepEqual(f.viewport, [LAPTOP.width, LAPTOP.height]);
          assert.equal(f.scrollY, 0, `${when}: the page did not scroll`);
          assert.deepEqual(f.outside, [], `${when}: map, office board, contracts and move panel on the first screen`);
          assert.deepEqual(f.overlaps, [], `${when}: no plate overlaps another plate, a stack or the pawn`);
          assert.equal(f.labels, 12, 'a plate per place');
          if (!shotDesktop && st.version > 40) {
            shotDesktop = true;
            await themed(A, 'desktop');
          }
        }
        if (turnIndex === 2 && !shotPhone && st.version > 40) {
          shotPhone = true;
          const f = await screenFacts(C);
          assert.deepEqual(f.overlaps, [], `phone, version ${st.version}: no plate overlaps another plate, a stack or the pawn`);
          const wide = await C.evaluate(() => [...document.querySelectorAll('.merkator *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
            .map((e) => `${e.tagName}.${e.getAttribute('class')}`).slice(0, 5));
          assert.deepEqual(wide, [], 'phone: nothing of the board sticks out on the right');
          await themed(C, 'phone');
        }
        // Once: A travels from the map with the keyboard; the ringed places are exactly the travel buttons'.
        if (turnIndex === 0 && !mapTravelled && st.controls.some((c) => c.action === 'travel')) {
          mapTravelled = true;
          const panel = st.controls.filter((c) => c.action === 'travel' && !c.focus.startsWith('map-'));
          const ringed = await A.$$eval('.merkator .mk-loc.is-target', (els) => els.map((e) => e.dataset.location));
          assert.deepEqual(ringed.sort(), panel.map((c) => c.focus.replace(/^travel-/, '')).sort(), 'the ringed places are the travel buttons\' places');
          const named = await A.$$eval('.merkator .mk-map-go', (els) => els.map((e) => [e.tagName, e.getAttribute('aria-label')]));
          assert.equal(named.length, panel.length);
          for (const [tag, name] of named) assert.ok(tag === 'BUTTON' && /\S/.test(name || ''), `a map button with a name: ${name}`);
          const to = (panel.find((c) => Number(c.time) > 0) || panel[0]).focus.replace(/^travel-/, '');
          await A.focus(`.merkator [data-focus="map-travel-${to}"]`);
          await A.keyboard.press('Enter');
          await waitVersionAbove(A, st.version);
          await A.waitForSelector(`.merkator .mk-pawn[data-pawn="${to}"]`);
          seen.set('travel', (seen.get('travel') || 0) + 1);
          actions += 1;
          await checkTripMarked(A, st.seat, to);
          continue;
        }
        if (!shotMid && st.version > 60 && st.phase === 'investment') {
          shotMid = true;
          await noEnglish([A, B, C, D], `mid-game (version ${st.version})`);
          await shot(page, `merkator-player-${NAMES[turnIndex]}.png`);
          await shot(D, 'merkator-spectator.png');
          await shot(C, 'merkator-phone.png');
        }
        let pick = choose(st.controls);
        // Now and then a supply-tile cube onto the office board (its controls sit in a closed fold).
        if (random() < 0.03 && st.controls.some((c) => c.action === 'supply')) pick = st.controls.filter((c) => c.action === 'supply')[0];
        if (pick.hidden) await page.click(`.merkator details[data-fold="${pick.fold}"] > summary`);
        seen.set(pick.action, (seen.get(pick.action) || 0) + 1);
        await page.click(`.merkator [data-focus="${pick.focus}"]`);
        actions += 1;
        await waitVersionAbove(page, st.version);
        if (pick.action === 'travel' && tripChecks < 4) await checkTripMarked(page, st.seat, pick.focus.replace(/^(map-)?travel-/, ''));
      }
      throw new Error('the game did not end within 4000 iterations');
    });

    await step('after the end every page shows the ranking and the scoring', 20000, async () => {
      const finals = await Promise.all([A, B, C, D].map(boardState));
      for (const [i, st] of finals.entries()) {
        const who = i === 3 ? 'spectator' : NAMES[i];
        assert.ok(st.result, `${who}: the result is shown`);
        assert.equal(st.anyControl, 0, `${who}: no controls after the end`);
        assert.equal(st.ranking.length, 3, `${who}: three ranks`);
        for (const name of NAMES) assert.ok(st.ranking.some((r) => r.includes(name)), `${who}: ${name} is ranked`);
        assert.equal(st.scoring.length, 3, `${who}: a scoring row per player`);
        assert.deepEqual(st.scoring, finals[3].scoring, `${who}: the same scoring as the spectator's`);
      }
      assert.equal(await D.textContent('[data-testid=turn]'), L.tr('table.turn.over'));
      await noEnglish([A, B, C, D], 'the result');
      await shot(A, 'merkator-result.png');
      await shot(D, 'merkator-result-spectator.png');
      await shot(C, 'merkator-result-phone.png');
    });

    for (const a of ['end_investment', 'travel', 'decline']) assert.ok(seen.has(a), `the game used "${a}" (seen: ${[...seen.keys()]})`);
    assert.ok(prompted.size >= 2, `the join prompt appeared for several players (${[...prompted]})`);
    assert.ok(mapTravelled, 'A travelled from the map');
    assert.ok(tripChecks >= 3, `trips checked for their marks: ${tripChecks}`);
    assert.ok(layoutChecks >= 4, `first-screen checks at 1366×768: ${layoutChecks}`);
    assert.ok(shotDesktop && shotPhone, 'the mid-game screenshots were taken');
    assert.deepEqual(await D.evaluate(() => window.__controlSeen), [], 'the spectator never had a control');
    assert.deepEqual(outside, [], 'no request left the server');
    for (const label of ['A', 'B', 'C', 'D']) assert.equal(dataFetches[label], 1, `${label} fetched the game data once`);
    assert.deepEqual(h.dialogs, [], 'no dialog (alert) was opened');
    assert.deepEqual(h.pageErrors, [], 'no script errors in the pages');
    const used = [...seen].sort().map(([a, n]) => `${a} ${n}`).join(', ');
    console.log(`# browser test (${L.lang}): Merkator, ${actions} actions through the UI (${used}), join prompts for ` +
      `${[...prompted].map((p) => NAMES[p]).join(', ')}, ${markedReady} moment(s) with contracts marked to fulfil, ${layoutChecks} first-screen ` +
      `checks, ${tripChecks} trips checked for their marks, in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${SHOTS}`);
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});
