// Maritime Silk Road in a real browser: Debian's Chromium (headless) driven by playwright-core,
// against the real server binary on port 0 with a temporary data directory.
//
// Scenario: A creates a private 3-player Silk Road table from the lobby; B and C open the invite
// link and take seats; D opens it too and watches; A starts. The three play the whole game by
// clicking the board's controls (a seeded policy over the controls each page offers). After every
// action the spectator's page is checked against the hidden values read from each player's own
// page: no coin amount and no hand card of anyone may show there (nor another player's coins on
// a player's page) until the end; after the end every player's coins must show, equal to what
// each player saw as their own. Along the way: after each move, the place it changed carries the
// mover's last-move mark on every page (the spectator's too); the status bar never says a thing
// twice; what a play or score button says the player earns is what they then earn; every exchange
// button says what it gives and takes. Screenshots go to <build>/screenshots/ (the light and dark
// ones at mid-game on a player's page: silkroad-{desktop,phone}-{light,dark}.png).
// In Simplified Chinese: every browser says it prefers zh-CN, so the client chooses zh-Hans by itself; the
// words and patterns the checks look for come from the catalog (i18n-support.mjs), and before the start,
// mid-game and at the end no English word of the client's is on any page.
//
// Environment: EMPORIUM_BUILD_DIR (default build), CHROMIUM_PATH (default /usr/bin/chromium).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DESKTOP, DESKTOP_SHOT, PHONE, SHOTS, createHarness, createPrivateTable, joinByInvite, rng, shot, shotLightDark, step,
} from './support.mjs';
import { assertNoEnglish, language } from './i18n-support.mjs';

const NAMES = ['Ann', 'Bea', 'Cy'];
const L = await language('zh-Hans');

const h = createHarness({ failurePrefix: 'failure-silkroad-', locale: L.locale });
const noEnglish = (pages, where) => Promise.all(pages.map((p) => assertNoEnglish(p, L, { names: NAMES, where })));

// ---- the catalog's words, as patterns ----
const good = (id) => L.tr(`silkroad.good.${id}`);
const COINS = new RegExp(L.pattern('silkroad.coins', { count: /(\d+)/ }), 'g');
const anchored = (source) => new RegExp(`^(?:${source})$`);
const PAYOUT_ITEM = `(?:${L.pattern('silkroad.payout.you', { count: /\d+/ })}|${L.pattern('silkroad.payout.other', { name: new RegExp(NAMES.join('|')), count: /\d+/ })})`;
const PAYOUT = new RegExp(`^(?:${L.pattern('silkroad.payout.none')}|${PAYOUT_ITEM}(?:${L.pattern('common.listSeparator')}${PAYOUT_ITEM})*)$`);
const OWN_PAYOUT = new RegExp(L.pattern('silkroad.payout.you', { count: /(\d+)/ }));
/**
 * Texts that name public amounts (prices, a scoring's pay per ship, a card's bonus): in English they say
 * "price 3", in Chinese "价格3元" — with the coins' own unit. They are taken out of a page's text before it
 * is searched for amounts of coins.
 */
const COIN_TEMPLATE = new RegExp(L.pattern('silkroad.coins', { count: /\{\w+\}|\d+/ }));
const PUBLIC_AMOUNTS = Object.keys(L.catalog)
  .filter((k) => k.startsWith('silkroad.') && L.forms(k).some((f) => COIN_TEMPLATE.test(f)) && !L.english(k).some((t) => /\bcoins?\b/i.test(t)))
  .map((k) => new RegExp(L.pattern(k, { cost: /\d+/, count: /\d+/, left: /\d+/, deck: /\d+/ }), 'g'));
const secretAmounts = (text) => PUBLIC_AMOUNTS.reduce((rest, re) => rest.replace(re, ' '), text);
const BUY_LABEL = new RegExp(L.pattern('silkroad.actions.buyCardLabel', { cost: /\d+/ }));
/** The log lines that speak to the viewer ("You …"), and the private ones among them ("You earn/draw/buy …"). */
const YOU_LINES = L.keysWhereEnglish('silkroad.event.', (text) => /^Your? /.test(text)).map((k) => anchored(L.pattern(k)));
const PRIVATE_LINES = L.keysWhereEnglish('silkroad.event.', (text) => /^You (earn|draw|buy)/.test(text)).map((k) => anchored(L.pattern(k)));

// ---- helpers ----

/**
 * What a page shows of the game right now (one round trip): the version and phase, the controls
 * it offers, the viewer's own coins and hand (players), the coins shown on each merchant's card,
 * and the page's whole text.
 */
function boardState(page) {
  return page.evaluate(() => {
    const board = document.querySelector('.silkroad');
    const actions = document.querySelector('[data-testid=actions]');
    const controls = board
      ? [...board.querySelectorAll('[data-action]:not([disabled]):not([aria-disabled=true])')].map((b) => ({
        action: b.dataset.action, good: b.dataset.good || null, card: b.dataset.card || null, slot: b.dataset.slot ?? null,
        ship: b.dataset.ship ?? null, from: b.dataset.from || null, focus: b.dataset.focus,
        text: b.textContent, label: b.getAttribute('aria-label'), title: b.getAttribute('title'),
        pays: b.querySelector('.sr-pays') ? b.querySelector('.sr-pays').textContent : null,
      }))
      : [];
    const text = (sel) => { const e = document.querySelector(sel); return e ? e.textContent : null; };
    const myCoins = document.querySelector('[data-testid=my-coins]');
    const hand = {};
    for (const c of document.querySelectorAll('[data-testid=hand] [data-good]')) hand[c.dataset.good] = Number(c.dataset.count);
    return {
      version: board ? Number(board.dataset.version) : -1,
      phase: board ? board.dataset.phase : null,
      ready: Boolean(actions) && actions.getAttribute('aria-busy') !== 'true',
      controls,
      choose: [...document.querySelectorAll('[data-choose]')].map((b) => b.dataset.choose),
      myCoins: myCoins ? Number(myCoins.dataset.coins) : null,
      hand,
      handShown: document.querySelectorAll('[data-testid=hand], [data-testid=my-coins], .sr-hand').length,
      seatCoins: [...document.querySelectorAll('.sr-seat')].map((s) => {
        const c = s.querySelector('[data-testid=coins]');
        const shown = c.querySelector('strong');
        return { seat: Number(s.dataset.seat), hidden: c.classList.contains('is-hidden'), text: c.textContent, value: shown ? shown.textContent : null };
      }),
      anyControl: document.querySelectorAll('[data-action], [data-choose], [data-testid=actions]').length,
      seat: board ? board.dataset.seat : null,
      myShips: [...document.querySelectorAll('.sr-seat.is-me .sr-ship')].map((s) => s.dataset.good || null),
      shipCount: Object.fromEntries([...document.querySelectorAll('.sr-seat')].map((s) => [s.dataset.seat, s.querySelectorAll('.sr-ship[data-good]').length])),
      // What the status bar and the move panel say: each fact once.
      bar: [text('[data-testid=stage]'), text('.sr-bar [data-testid=phase]'), text('[data-testid=status-line]'), text('.sr-your-status')].filter(Boolean),
      decision: Boolean(document.querySelector('[data-testid=actions][data-decision]')),
      result: Boolean(document.querySelector('[data-testid=result]')),
      resultCoins: [...document.querySelectorAll('[data-testid=result] .rank')].map((r) => r.textContent),
      text: document.body.innerText,
      log: [...document.querySelectorAll('[data-testid=log] li')].map((li) => li.textContent),
    };
  });
}

async function waitVersionAbove(page, version) {
  await page.waitForFunction((v) => {
    const b = document.querySelector('.silkroad');
    return b && Number(b.dataset.version) > v;
  }, version, { timeout: 10000 });
}

/**
 * Words that two texts share (the old bar said "Setup: loading ships" beside "Loading the ships"): words of
 * four letters or more, or of three characters or more in Chinese or Japanese (found with Intl.Segmenter).
 */
const segmenter = new Intl.Segmenter(L.lang, { granularity: 'word' });
const wordsOf = (text) => [...segmenter.segment(text.toLowerCase())].filter((s) => s.isWordLike).map((s) => s.segment)
  .filter((w) => /^\p{L}+$/u.test(w) && w.length >= (/^[a-z]+$/.test(w) ? 4 : 3));
function repeatedWords(texts) {
  const seen = new Map();
  const twice = [];
  texts.forEach((text, i) => {
    for (const w of new Set(wordsOf(text).filter((x) => !NAMES.some((n) => n.toLowerCase() === x)))) {
      if (seen.has(w) && seen.get(w) !== i) twice.push(w);
      seen.set(w, i);
    }
  });
  return twice;
}

/** The selector of the place a move changed, marked for its mover (null: a move that marks nothing). */
function markedPlace(pick, seat, before) {
  const mark = `[data-last-move="${seat}"]`;
  switch (pick.action) {
    case 'play': return `.sr-market .good-card[data-slot="${pick.slot}"]${mark}`;
    case 'load': return `.sr-seat[data-seat="${seat}"] .sr-ship[data-ship="${before.shipCount[seat]}"]${mark}`;
    case 'exchange': return `.sr-seat[data-seat="${seat}"] .sr-ship[data-ship="${pick.ship}"]${mark}`;
    case 'buy-ship': return `.sr-shop-list [data-card="ship"]${mark}`;
    case 'buy': return `.sr-shop-list [data-card="${pick.card}"]${mark}`;
    case 'draw':
    case 'extra_draw': return `.sr-seat[data-seat="${seat}"] [data-testid=hand-count]${mark}`;
    default: return null;
  }
}

/** The viewer's part of a payout preview: "you +6, Bea +3" → 6; nothing for the viewer → 0. */
function ownPayout(pays) {
  const m = OWN_PAYOUT.exec(pays || '');
  return m ? Number(m[1]) : 0;
}

// Watches D's page for any control, from before its first paint.
const SPECTATOR_GUARD = () => {
  window.__controlSeen = [];
  const check = () => {
    const found = document.querySelector('.silkroad [data-action], .silkroad [data-choose], [data-testid=actions], [data-testid=hand], [data-testid=my-coins]');
    if (found) window.__controlSeen.push(found.outerHTML.slice(0, 160));
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
};

/**
 * The checks of one moment: `viewer` (null for the spectator) must not see, before the end, the
 * coins or hand of any other seat; `truth` holds what each player's own page shows.
 */
function checkHidden(st, viewer, truth, where) {
  const others = [0, 1, 2].filter((p) => p !== viewer);
  for (const p of others) {
    const c = st.seatCoins.find((x) => x.seat === p);
    assert.ok(c && c.hidden, `${where}: the coins of seat ${p} are not hidden`);
    assert.doesNotMatch(c.text, /\d/, `${where}: a number in the hidden coins of seat ${p}`);
    assert.equal(c.value, null, `${where}: an amount in the hidden coins of seat ${p}`);
  }
  // No text of the page names an amount of coins, except the viewer's own (on their own page).
  const own = viewer === null ? null : truth[viewer].coins;
  const text = secretAmounts(st.text);
  for (const m of text.matchAll(COINS)) {
    assert.ok(viewer !== null && Number(m[1]) >= 0 && own !== null,
      `${where}: the page shows "${m[0]}" (…${text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 20).replace(/\s+/g, ' ')}…)`);
  }
  if (viewer === null) {
    assert.equal(st.handShown, 0, `${where}: the spectator sees a hand or own coins`);
    assert.equal(st.anyControl, 0, `${where}: the spectator has a control`);
  }
  // The spectator: the actual hidden values of the players, wherever a page would show them.
  // (A player's own page may show numbers equal to another's by chance, so only the seat cards
  // above are checked there.)
  if (viewer !== null) return;
  for (const p of others) {
    const { coins, log } = truth[p];
    if (coins > 0) assert.ok(!text.includes(L.tr('silkroad.coins', { count: coins })), `${where}: seat ${p}'s ${coins} coins are shown`);
    // Their private log lines (income, coins after a purchase, the cards they drew).
    for (const line of log) {
      if (PRIVATE_LINES.some((re) => re.test(line))) assert.ok(!st.log.includes(line), `${where}: seat ${p}'s private line "${line}"`);
    }
  }
  const toYou = st.log.find((line) => YOU_LINES.some((re) => re.test(line)));
  assert.equal(toYou, undefined, `${where}: the spectator's log speaks to "you"`);
}

// ---- the run ----

test('Maritime Silk Road: three players and a spectator play a whole game in the browser', { timeout: 300000 }, async () => {
  const started = Date.now();
  const A = await h.newPage('A', DESKTOP);
  const B = await h.newPage('B', DESKTOP);
  const C = await h.newPage('C', PHONE);
  const D = await h.newPage('D', DESKTOP, SPECTATOR_GUARD);

  try {
    const invite = await createPrivateTable(A, NAMES[0], { game: 'silkroad', title: L.tr('silkroad.name'), label: 'Silk Road' });
    await joinByInvite(invite, A, [[B, NAMES[1]], [C, NAMES[2]]], D);
    assert.equal(await A.evaluate(() => document.documentElement.lang), L.lang, 'the browser\'s language chose the client\'s');
    await noEnglish([A, B, C, D], 'the table before the start');

    await step('A starts; everyone sees the board', 15000, async () => {
      await A.click('[data-testid=start]');
      for (const p of [A, B, C, D]) await p.waitForSelector('.silkroad[data-version="0"]');
      assert.equal(await D.$('[data-testid=actions]'), null);
    });

    // ---- the game ----
    const random = rng(20261123);
    const players = [A, B, C];
    const seen = new Set();
    let actions = 0;
    let checks = 0;
    let shotMid = false;
    let shotPhone = false;
    let shotExchange = false;
    let marksChecked = 0;
    let previewsChecked = 0;
    let exchangesChecked = 0;
    let shotSpectator = false;
    let earned = false;
    let chose = 0;
    const truth = [0, 1, 2].map(() => ({ coins: 0, hand: {}, log: [] }));

    const choose = (controls, st) => {
      const by = (a) => controls.filter((c) => c.action === a);
      const any = (list) => list[Math.floor(random() * list.length)];
      const r = random();
      if (by('load').length) return any(by('load'));
      // Phase 1: buy when possible (often), exchange now and then, else pass or stop.
      const buys = [...by('buy-ship'), ...by('buy')];
      if (buys.length && r < 0.6) return any(buys);
      if (by('exchange').length && (r < 0.2 || (by('end_phase').length && r < 0.6))) return any(by('exchange'));
      if (by('end_phase').length) return by('end_phase')[0];
      if (by('pass').length) return by('pass')[0];
      // Phase 2: play cards of one good onto the market (about half of the turns), else draw.
      if (by('score').length) return by('play').length && r < 0.35 ? any(by('play')) : by('score')[0];
      if (by('play').length && r < 0.5) return { ...any(by('play')), chooseFirst: st.choose.length > 1 && random() < 0.5 };
      if (by('draw').length) return by('draw')[0];
      if (by('extra_draw').length) return r < 0.8 ? by('extra_draw')[0] : by('done')[0] || by('extra_draw')[0];
      if (by('done').length) return by('done')[0];
      return controls[0];
    };

    await step('the three players play the whole game through the UI', 240000, async () => {
      for (let iteration = 0; iteration < 3000; iteration++) {
        const states = await Promise.all([A, B, C, D].map(boardState));
        const over = states.every((s) => s.result);
        // What each player sees as their own: the truth the others must not be shown.
        states.slice(0, 3).forEach((s, p) => {
          if (s.myCoins !== null) truth[p].coins = s.myCoins;
          truth[p].hand = s.hand;
          truth[p].log = s.log;
          if (s.myCoins > 0) earned = true;
        });
        if (!states[3].result) {
          checkHidden(states[3], null, truth, `spectator at version ${states[3].version}`);
          states.slice(0, 3).forEach((s, p) => { if (!s.result) checkHidden(s, p, truth, `${NAMES[p]} at version ${s.version}`); });
          checks += 1;
        }
        if (over) return;
        for (const [i, s] of states.entries()) {
          assert.deepEqual(repeatedWords(s.bar), [], `${i === 3 ? 'spectator' : NAMES[i]}: the status says a thing twice: ${JSON.stringify(s.bar)}`);
        }

        const turnIndex = states.slice(0, 3).findIndex((s) => s.ready && s.controls.length > 0);
        if (turnIndex < 0) {
          await new Promise((r) => setTimeout(r, 20));
          continue;
        }
        for (const [i, other] of states.slice(0, 3).entries()) {
          if (i !== turnIndex) assert.equal(other.controls.length, 0, `${NAMES[i]} has controls out of turn`);
        }
        const page = players[turnIndex];
        const st = states[turnIndex];
        assert.ok(st.decision, 'the move panel carries data-decision');
        // Every exchange control shows the good it takes (its ship's row, the grid's, says what it gives) and is
        // named by both, in words; no browser tooltip (title) beside the board's own hint.
        for (const c of st.controls.filter((x) => x.action === 'exchange')) {
          assert.equal(c.from, st.myShips[Number(c.ship)], 'an exchange gives the ship\'s own marker');
          const giveTake = { from: good(c.from), good: good(c.good) };
          assert.equal(c.text.trim(), L.tr(`silkroad.goodTitle.${c.good}`), `exchange control: "${c.text}"`);
          assert.match(c.label, new RegExp(L.pattern('silkroad.actions.exchangeTo', giveTake), 'i'), `exchange control: "${c.label}"`);
          assert.equal(c.title, null, 'no title beside the hint');
          exchangesChecked += 1;
        }
        for (const c of st.controls.filter((x) => x.action === 'buy')) assert.match(c.label, BUY_LABEL, `buy control: "${c.label}"`);
        // The play and score controls preview a payout.
        for (const c of st.controls.filter((x) => x.action === 'play' || x.action === 'score')) {
          assert.match(c.pays || '', PAYOUT, `${c.action} preview: "${c.pays}"`);
        }

        const midGame = st.phase === 'phase2' && st.version > 40 && earned && st.controls.some((c) => c.action === 'play');
        if (!shotMid && midGame && turnIndex < 2) {
          shotMid = true;
          await noEnglish([A, B, C, D], `mid-game (version ${st.version})`);
          await shot(page, `silkroad-player-${NAMES[turnIndex]}.png`);
          await shotLightDark(page, 'silkroad-desktop', DESKTOP_SHOT);
        }
        if (!shotExchange && turnIndex < 2 && st.controls.some((c) => c.action === 'exchange')) {
          shotExchange = true;
          await shot(page, 'silkroad-exchange.png');
        }
        if (!shotPhone && midGame && turnIndex === 2) {
          shotPhone = true;
          await shotLightDark(page, 'silkroad-phone', PHONE);
        }
        if (!shotSpectator && st.version > 60 && earned) {
          shotSpectator = true;
          await shot(D, 'silkroad-spectator.png');
          await shot(C, 'silkroad-phone.png');
        }

        const pick = choose(st.controls, st);
        seen.add(pick.action);
        if (pick.chooseFirst) {
          // Pick the good with its chooser first: the market's play buttons follow it.
          const good = st.choose[Math.floor(random() * st.choose.length)];
          await page.click(`[data-choose="${good}"]`);
          await page.waitForSelector(`[data-choose="${good}"][aria-pressed=true]`);
          const slot = await page.getAttribute('[data-action=play] >> nth=0', 'data-slot');
          const shown = await page.getAttribute('[data-action=play] >> nth=0', 'data-good');
          assert.equal(shown, good, 'the market offers the chosen good');
          pick.slot = slot; // the slot really played, for its mark
          await page.click(`[data-action=play][data-slot="${slot}"]`);
          chose += 1;
        } else {
          await page.click(`[data-focus="${pick.focus}"]`);
        }
        actions += 1;
        await waitVersionAbove(page, st.version);

        // The place the move changed carries the mover's mark on every page: the other players' and
        // the spectator's (and the mover's own).
        const place = markedPlace(pick, turnIndex, st);
        if (place) {
          const after = await page.evaluate(() => Number(document.querySelector('.silkroad').dataset.version));
          for (const [i, other] of [A, B, C, D].entries()) {
            await other.waitForFunction((v) => Number(document.querySelector('.silkroad').dataset.version) >= v, after, { timeout: 10000 });
            assert.ok(await other.$(place), `${i === 3 ? 'spectator' : NAMES[i]}: ${NAMES[turnIndex]}'s ${pick.action} is not marked (${place})`);
          }
          marksChecked += 1;
        }
        // What the button said the player earns is what they earn: a score, or a play that scored at
        // once (the last card of the good in hand).
        if (pick.action === 'score' || pick.action === 'play') {
          const now = await boardState(page);
          const scored = pick.action === 'score' || !now.controls.some((c) => c.action === 'score' || c.action === 'play');
          const clicked = pick.chooseFirst ? null : st.controls.find((c) => c.focus === pick.focus);
          if (scored && clicked && now.myCoins !== null && st.myCoins !== null) {
            assert.equal(now.myCoins - st.myCoins, ownPayout(clicked.pays), `${NAMES[turnIndex]} was promised "${clicked.pays}"`);
            previewsChecked += 1;
          }
        }
      }
      throw new Error('the game did not end within 3000 iterations');
    });

    await step('after the end every page shows every player\'s coins', 20000, async () => {
      const finals = await Promise.all([A, B, C, D].map(boardState));
      const coins = finals.slice(0, 3).map((s) => s.myCoins);
      coins.forEach((c) => assert.ok(Number.isInteger(c), 'each player still sees their own coins'));
      for (const [i, st] of finals.entries()) {
        const who = i === 3 ? 'spectator' : NAMES[i];
        assert.equal(st.anyControl, 0, `${who}: no controls after the end`);
        for (const p of [0, 1, 2]) {
          const c = st.seatCoins.find((x) => x.seat === p);
          assert.ok(!c.hidden, `${who}: seat ${p}'s coins are revealed`);
          assert.equal(c.value, String(coins[p]), `${who}: seat ${p} shows ${coins[p]} coins: "${c.text}"`);
          assert.ok(c.text.includes(L.tr('silkroad.coins', { count: coins[p] })), `${who}: seat ${p}'s coins in words: "${c.text}"`);
        }
        assert.equal(st.resultCoins.length, 3);
        for (const p of [0, 1, 2]) {
          assert.ok(st.resultCoins.some((r) => r.includes(NAMES[p]) && r.includes(L.tr('silkroad.coins', { count: coins[p] }))),
            `${who}: the ranking shows ${NAMES[p]} with ${coins[p]} coins: ${st.resultCoins}`);
        }
      }
      // Each merchant's coins taken apart (issue 36): earned − spent = coins, in the ranking of every page.
      for (const [i, P] of [A, D].entries()) {
        const rows = await P.$$eval('[data-testid=result] .rank', (els) => els.map((r) => ({
          text: r.textContent, breakdown: (r.querySelector('[data-testid=result-breakdown]') || { textContent: '' }).textContent,
        })));
        for (const p of [0, 1, 2]) {
          const row = rows.find((r) => r.text.includes(NAMES[p]));
          const m = /(\d+)\D+?(\d+)\s*=\s*(\d+)/.exec(row.breakdown);
          assert.ok(m, `${i ? 'spectator' : NAMES[0]}: ${NAMES[p]}'s breakdown: "${row.breakdown}"`);
          const [earned, spent, left] = m.slice(1).map(Number);
          assert.equal(left, coins[p], `${NAMES[p]}: the breakdown ends at the coins`);
          assert.equal(earned - spent, left, `${NAMES[p]}: earned − spent = coins: "${row.breakdown}"`);
          assert.ok(row.breakdown.startsWith(L.tr('silkroad.result.breakdown', { earned, spent, coins: left })), row.breakdown);
        }
      }
      assert.equal(await D.textContent('[data-testid=turn]'), L.tr('table.turn.over'));
      await noEnglish([A, B, C, D], 'the result');
      await shot(A, 'silkroad-result.png');
      await shot(D, 'silkroad-result-spectator.png');
    });

    assert.ok(earned, 'someone earned coins during the game');
    assert.ok(shotMid && shotPhone, 'the mid-game screenshots were taken');
    assert.ok(marksChecked > 50, `last-move marks checked after ${marksChecked} moves`);
    assert.ok(previewsChecked > 3, `payout previews checked against the income ${previewsChecked} times`);
    assert.ok(exchangesChecked > 0, 'an exchange control was checked');
    for (const a of ['load', 'pass', 'play', 'draw']) assert.ok(seen.has(a), `the game used "${a}" (seen: ${[...seen]})`);
    assert.ok(seen.has('buy') || seen.has('buy-ship'), `someone bought a special card (seen: ${[...seen]})`);
    assert.deepEqual(await D.evaluate(() => window.__controlSeen), [], 'the spectator never had a control, a hand or own coins');
    assert.deepEqual(h.dialogs, [], 'no dialog (alert) was opened');
    assert.deepEqual(h.pageErrors, [], 'no script errors in the pages');
    console.log(`# browser test (${L.lang}): Silk Road, ${actions} actions through the UI (${[...seen].sort().join(', ')}), ` +
      `${chose} goods picked with the chooser, ${checks} hidden-information checks, ${marksChecked} last-move marks, ` +
      `${previewsChecked} payout previews and ${exchangesChecked} exchange controls checked, in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${SHOTS}`);
  } catch (err) {
    throw await h.annotateFailure(err);
  }
});
