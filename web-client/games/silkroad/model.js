// Maritime Silk Road, the pure part: no DOM, no network. Works on the engine's view JSON
// (engine/README.md, "Maritime Silk Road"):
//   applyEvent(view, event)                   → the next view (a new object; the input is not changed)
//   applyEvents(view, events, version)        → the view after one action's events, at that version
//   describeEvent(event, names, t, mySeat)    → one sentence for the game log
// plus the helpers the board needs (the legal actions sorted by kind, status line, result).
//
// What a viewer may know is decided by the server: a private event (income, the buyer's coins,
// drawn cards) reaches only its owner, so a sentence built from an event can only tell what that
// viewer was sent. Income and the coins left after a purchase are always the viewer's own (no one
// else receives them), and those sentences say "you", never a name.
// Tests: tests/web-client/silkroad-model.test.mjs replays engine games for every viewer.

import { nameOf, toMove, isOver, reduceEvents } from '../model-parts.js';
export { nameOf, toMove, isOver }; // the board and the table read them from each game's model

export const GOODS = ['porcelain', 'silk', 'tea', 'spice', 'glass', 'ore'];
export const CARDS = ['ship', 'exchange', 'porter', 'license'];
/** The seat field that counts a player's special cards of each kind (ships are the `ships` list). */
export const CARD_FIELD = { exchange: 'exchange', porter: 'porter', license: 'license' };
export const MARKET_SLOTS = 6;
export const STARTING_SHIPS = 2;

const clone = (value) => structuredClone(value);

/** Recomputes the fields of the view that follow from the others, as the engine does. */
function settle(view) {
  if (view.phase === 'over') {
    view.to_move = [];
    view.exchanges_left = 0;
    view.played_good = null;
    view.played_count = 0;
    view.extra_draws_left = 0;
    return view;
  }
  if (view.phase === 'loading') {
    const loaded = view.seats.reduce((n, s) => n + s.ships.length, 0);
    view.active = (view.start_player + loaded) % view.players;
  }
  if (view.phase === 'phase1') {
    const seat = view.seats[view.active];
    view.exchanges_left = 1 + (seat ? seat.porter : 0);
  } else if (view.phase !== 'exchanging') {
    view.exchanges_left = 0;
  }
  if (view.phase !== 'extra_draws') view.extra_draws_left = 0;
  view.to_move = [view.active];
  return view;
}

function drawInto(seat, cards) {
  if (!seat.hand || !cards) return;
  for (const [good, n] of Object.entries(cards)) seat.hand[good] = (seat.hand[good] || 0) + n;
}

/** The next view after one event. Unknown event types leave the view as it was. */
export function applyEvent(view, event) {
  const v = clone(view);
  const seat = event && Number.isInteger(event.player) ? v.seats[event.player] : null;
  switch (event && event.type) {
    case 'load':
      seat.ships[event.ship] = event.good;
      v.supply[event.good] = event.supply;
      break;
    case 'turn':
      v.active = event.player;
      v.turn = event.turn;
      v.phase = 'phase1';
      v.played_good = null;
      v.played_count = 0;
      v.extra_draws_left = 0;
      break;
    case 'phase':
      v.active = event.player;
      v.phase = event.phase;
      if (event.phase === 'exchanging') v.exchanges_left = event.exchanges_left;
      if (event.phase === 'extra_draws') v.extra_draws_left = event.extra_draws_left;
      break;
    case 'exchange':
      seat.ships[event.ship] = event.good;
      v.supply[event.from] += 1;
      v.supply[event.good] -= 1;
      v.exchanges_left = event.exchanges_left;
      break;
    case 'buy':
      v.stock[event.card] = event.left;
      if (event.card === 'ship') {
        seat.ships[event.ship] = event.good;
        v.supply[event.good] = event.supply;
      } else if (CARD_FIELD[event.card]) {
        seat[CARD_FIELD[event.card]] += 1;
      }
      if (Number.isInteger(event.coins)) seat.coins = event.coins;
      break;
    case 'pass':
    case 'end_phase':
    case 'done':
    case 'scoring':
      break;
    case 'play':
      v.market[event.slot] = event.good;
      v.covered[event.slot] += 1;
      seat.hand_count = event.hand_count;
      if (seat.hand) seat.hand[event.good] -= 1;
      v.played_good = event.good;
      v.played_count += 1;
      break;
    case 'income':
      seat.coins = event.coins;
      break;
    case 'draw':
      seat.hand_count = event.hand_count;
      v.deck_count = event.deck_count;
      drawInto(seat, event.cards);
      break;
    case 'extra_draw':
      seat.hand_count = event.hand_count;
      v.deck_count = event.deck_count;
      v.extra_draws_left = event.extra_draws_left;
      if (event.good) drawInto(seat, { [event.good]: 1 });
      break;
    case 'game_over':
      v.phase = 'over';
      v.result = clone(event.result);
      for (const r of (event.result && event.result.ranking) || []) {
        if (v.seats[r.player]) v.seats[r.player].coins = r.coins;
      }
      break;
    default:
      return view;
  }
  return settle(v);
}

/** The view after one action's events. `version` is the `events` message's version. */
export function applyEvents(view, events, version) {
  return reduceEvents(view, events, version, applyEvent, clone);
}


// ---- legal actions --------------------------------------------------------------------------

/**
 * What the legal list allows, by kind:
 *   { load: [good], pass, endPhase, exchange: Map(ship → [good]), buyShip: [good], buy: [card],
 *     play: Map(good → [slot]), score, draw, extraDraw, done }
 * Only what is in the list: the board builds its controls from this and nothing else.
 */
export function legalActions(legal) {
  const out = {
    load: [], pass: false, endPhase: false, exchange: new Map(), buyShip: [], buy: [],
    play: new Map(), score: false, draw: false, extraDraw: false, done: false,
  };
  for (const a of legal || []) {
    if (!a || typeof a.type !== 'string') continue;
    switch (a.type) {
      case 'load': out.load.push(a.good); break;
      case 'pass': out.pass = true; break;
      case 'end_phase': out.endPhase = true; break;
      case 'exchange':
        if (!out.exchange.has(a.ship)) out.exchange.set(a.ship, []);
        out.exchange.get(a.ship).push(a.good);
        break;
      case 'buy':
        if (a.card === 'ship') out.buyShip.push(a.good);
        else out.buy.push(a.card);
        break;
      case 'play':
        if (!out.play.has(a.good)) out.play.set(a.good, []);
        out.play.get(a.good).push(a.slot);
        break;
      case 'score': out.score = true; break;
      case 'draw': out.draw = true; break;
      case 'extra_draw': out.extraDraw = true; break;
      case 'done': out.done = true; break;
      default: break;
    }
  }
  return out;
}

// ---- what the board shows -------------------------------------------------------------------

/** For one good: how many visible market cards show it (what a scoring of it would count). */
export function marketCount(view, good) {
  return view.market.filter((g) => g === good).length;
}

/** What a scoring of `good` right now would pay a seat (before License bonuses): count × ships. */
export function shipsWith(seat, good) {
  return seat.ships.filter((g) => g === good).length;
}

/** The loading round: 1 while the first ships are loaded, 2 for the second ones. */
export function loadingRound(view) {
  const loaded = view.seats.reduce((n, s) => n + s.ships.length, 0);
  return Math.min(STARTING_SHIPS, Math.floor(loaded / view.players) + 1);
}

// ---- last moves -----------------------------------------------------------------------------

/**
 * The places an event changed, as last-move keys (board.js notes them per turn): a ship `ship:<seat>:<i>`, a market
 * slot `slot:<i>`, a card of the shop `shop:<card>`, a seat's special cards `special:<seat>:<card>`,
 * a seat's hand `hand:<seat>`. Null for events that change no place a player looks at.
 */
export function movedPlaces(event) {
  const p = event.player;
  switch (event.type) {
    case 'load':
    case 'exchange':
      return [`ship:${p}:${event.ship}`];
    case 'buy':
      return [`shop:${event.card}`, event.card === 'ship' ? `ship:${p}:${event.ship}` : `special:${p}:${event.card}`];
    case 'play':
      return [`slot:${event.slot}`];
    case 'draw':
    case 'extra_draw':
      return [`hand:${p}`];
    default:
      return null;
  }
}

// ---- what a scoring would pay ----------------------------------------------------------------
// Only public fields are read: the market, the ships' markers and the License counts (the rules make
// all three public). Coins and hands are never touched, so a preview can be shown to anyone.

export const LICENSE_BONUS = 2;

/** The visible market after one card of `good` covers `slot`. */
export function marketAfterPlay(market, good, slot) {
  return market.map((g, i) => (i === slot ? good : g));
}

/**
 * What a scoring of `good` pays every seat when `market` is the visible market (default: the view's):
 * [{ player, ships, base, bonus, amount }] in seat order. base = visible cards of the good × the
 * seat's ships carrying it; a seat that earns anything gets LICENSE_BONUS per License on top.
 */
export function scoringPayouts(view, good, market = view.market) {
  const count = market.filter((g) => g === good).length;
  return view.seats.map((seat, player) => {
    const ships = shipsWith(seat, good);
    const base = count * ships;
    const bonus = base > 0 ? LICENSE_BONUS * (seat.license || 0) : 0;
    return { player, ships, base, bonus, amount: base + bonus };
  });
}

/** What playing one `good` on `slot` and then scoring would pay every seat (see scoringPayouts). */
export function playPayouts(view, good, slot) {
  return scoringPayouts(view, good, marketAfterPlay(view.market, good, slot));
}

/** "you +6, Bea +3" (the viewer first, then seat order; only who earns), or "no one earns". */
export function payoutText(payouts, names, mySeat, t) {
  const earning = payouts.filter((p) => p.amount > 0)
    .sort((a, b) => (b.player === mySeat) - (a.player === mySeat) || a.player - b.player);
  if (earning.length === 0) return t('silkroad.payout.none');
  return earning.map((p) => (p.player === mySeat
    ? t('silkroad.payout.you', { count: p.amount })
    : t('silkroad.payout.other', { name: nameOf(names, p.player, t), count: p.amount }))).join(t('common.listSeparator'));
}

// ---- words ----------------------------------------------------------------------------------

/** A player's display name, or "Player n" when unknown (1-based for people). */

export function goodText(good, t) {
  return GOODS.includes(good) ? t(`silkroad.good.${good}`) : t('silkroad.good.unknown');
}

export function cardText(card, t) {
  return CARDS.includes(card) ? t(`silkroad.card.${card}`) : t('silkroad.card.unknown');
}

function listText(items, t) {
  if (items.length <= 1) return items.join('');
  return t('common.list', { head: items.slice(0, -1).join(t('common.listSeparator')), last: items[items.length - 1] });
}

/** "2 tea and 1 ore" from {tea: 2, ore: 1} (goods in the game's order). */
export function cardsText(cards, t) {
  const parts = GOODS.filter((g) => cards && cards[g] > 0).map((g) => t('silkroad.cards.of', { count: cards[g], good: goodText(g, t) }));
  return parts.length ? listText(parts, t) : t('silkroad.cards.none');
}

/**
 * One sentence for the log, from the event alone. `mySeat` (null for spectators) only chooses
 * "you" over the player's name. Amounts of coins appear only in events the server sends to their
 * owner (income, a purchase with `coins`), so they are only ever told to that owner.
 */
export function describeEvent(event, names, t, mySeat = null) {
  const me = (p) => mySeat !== null && mySeat !== undefined && p === mySeat;
  const who = (p) => nameOf(names, p, t);
  const ev = event || {};
  const pick = (key, params) => t(me(ev.player) ? `${key}.you` : key, { name: who(ev.player), ...params });
  switch (ev.type) {
    case 'load':
      return pick('silkroad.event.load', { good: goodText(ev.good, t), ship: ev.ship + 1 });
    case 'turn':
      return pick('silkroad.event.turn', { turn: ev.turn });
    case 'phase':
      if (ev.phase === 'exchanging') return pick('silkroad.event.phase.exchanging', { count: ev.exchanges_left });
      if (ev.phase === 'phase2') return pick('silkroad.event.phase.phase2', {});
      if (ev.phase === 'extra_draws') return pick('silkroad.event.phase.extra_draws', { count: ev.extra_draws_left });
      return pick('silkroad.event.phase.other', {});
    case 'exchange':
      return pick('silkroad.event.exchange', { ship: ev.ship + 1, from: goodText(ev.from, t), good: goodText(ev.good, t) });
    case 'buy': {
      const params = { card: cardText(ev.card, t), cost: ev.cost, good: goodText(ev.good, t) };
      const base = ev.card === 'ship' ? 'silkroad.event.buy.ship' : 'silkroad.event.buy';
      // `coins` is in the buyer's own copy only: the buyer is the viewer.
      if (Number.isInteger(ev.coins)) return t(`${base}.own`, { ...params, count: ev.coins });
      return pick(base, params);
    }
    case 'pass':
      return pick('silkroad.event.pass', {});
    case 'end_phase':
      return pick('silkroad.event.end_phase', {});
    case 'play':
      return pick('silkroad.event.play', { good: goodText(ev.good, t), slot: ev.slot + 1, covered: goodText(ev.covered, t) });
    case 'scoring':
      return t('silkroad.event.scoring', { good: goodText(ev.good, t), count: ev.count, played: ev.played, name: who(ev.player) });
    case 'income':
      // Private: only its earner receives it.
      if (ev.license_bonus > 0) {
        return t('silkroad.event.income.license', {
          count: ev.amount, good: goodText(ev.good, t), ships: ev.ships, base: ev.base, bonus: ev.license_bonus, coins: ev.coins,
        });
      }
      return t('silkroad.event.income', { count: ev.amount, good: goodText(ev.good, t), ships: ev.ships, coins: ev.coins });
    case 'draw':
      if (ev.cards) return t('silkroad.event.draw.own', { cards: cardsText(ev.cards, t), deck: ev.deck_count });
      return pick('silkroad.event.draw', { count: ev.count, deck: ev.deck_count });
    case 'extra_draw':
      if (ev.good) return t('silkroad.event.extra_draw.own', { good: goodText(ev.good, t), deck: ev.deck_count });
      return pick('silkroad.event.extra_draw', { deck: ev.deck_count });
    case 'done':
      return pick('silkroad.event.done', {});
    case 'game_over':
      return resultSentence(ev.result, names, t);
    default:
      return t('silkroad.event.unknown', { type: String(ev.type) });
  }
}

/** "Ann wins with 42 coins." / "Ann and Bo share the win with 40 coins." */
export function resultSentence(result, names, t) {
  if (!result || !Array.isArray(result.winners) || result.winners.length === 0) return t('silkroad.event.game_over');
  const best = (result.ranking || []).find((r) => r.player === result.winners[0]);
  const params = { names: listText(result.winners.map((p) => nameOf(names, p, t)), t), count: best ? best.coins : 0 };
  return result.winners.length === 1 ? t('silkroad.result.winner', params) : t('silkroad.result.shared', params);
}

/**
 * The status bar, each fact said once: `stage` ("Setup", "Turn 3", "Game over"), `phase` (the phase of
 * the turn, or null when the stage says it all) and `line` (what happens now, or null when the viewer's
 * own move panel says it, `ownPanel`, or the result panel does at the end).
 */
export function statusBar(view, names, mySeat, t, { ownPanel = false } = {}) {
  if (!view) return { stage: '', phase: null, line: null };
  if (view.phase === 'over') return { stage: t('silkroad.stage.over'), phase: null, line: null };
  return {
    stage: view.phase === 'loading' ? t('silkroad.stage.setup') : t('silkroad.turnNo', { turn: view.turn }),
    phase: PHASE_PILL[view.phase] ? t(PHASE_PILL[view.phase]) : null,
    line: ownPanel ? null : statusText(view, names, mySeat, t),
  };
}

// The phase pill: phase 1 and 2 by number (the status sentence says what they allow); loading and
// the Exchange draws have none (the stage and the sentence say it).
const PHASE_PILL = { phase1: 'silkroad.phase.phase1', exchanging: 'silkroad.phase.phase1', phase2: 'silkroad.phase.phase2' };

/** The line under the board title: what happens now, in words (public facts only). */
export function statusText(view, names, mySeat, t) {
  if (!view) return '';
  if (view.phase === 'over') return resultSentence(view.result, names, t);
  const mine = mySeat !== null && mySeat !== undefined && view.active === mySeat;
  const key = `silkroad.status.${view.phase}${mine ? '.you' : ''}`;
  return t(key, {
    name: nameOf(names, view.active, t),
    round: view.phase === 'loading' ? loadingRound(view) : 0,
    count: view.phase === 'exchanging' ? view.exchanges_left : view.phase === 'extra_draws' ? view.extra_draws_left : 0,
    good: view.played_good ? goodText(view.played_good, t) : '',
  });
}

// ---- hints: what each control does and what it costs (the board shows them on hover and focus) ----------

const seatOf = (view, seat) => (view.seats && view.seats[seat]) || null;
const coinsOf = (view, seat) => { const s = seatOf(view, seat); return s && Number.isInteger(s.coins) ? s.coins : 0; };

/** Loading a marker: free, on the next ship, from the limited supply. */
export function loadHint(view, seat, good, t) {
  const s = seatOf(view, seat);
  return t('silkroad.hint.load', { good: goodText(good, t), ship: (s ? s.ships.length : 0) + 1, count: view.supply[good] ?? 0 });
}

/** An exchange: free, the old marker back to the supply, one of the exchanges left this turn. */
export function exchangeHint(view, seat, ship, good, t) {
  const s = seatOf(view, seat);
  const from = s ? s.ships[ship] : null;
  return t('silkroad.hint.exchange', {
    ship: ship + 1, from: goodText(from, t), good: goodText(good, t), count: Math.max(1, view.exchanges_left || 0),
  });
}

/** Buying a Ship loaded with `good`: its price, the buyer's coins after it. */
export function buyShipHint(view, seat, good, t) {
  const cost = view.costs.ship;
  const coins = coinsOf(view, seat);
  return t('silkroad.hint.buyShip', { good: goodText(good, t), cost, coins, left: coins - cost, count: view.stock.ship });
}

/** Buying a special card: its price, what it does, the buyer's coins after it. */
export function buyCardHint(view, seat, card, t) {
  const cost = view.costs[card];
  const coins = coinsOf(view, seat);
  return t('silkroad.hint.buyCard', { card: cardText(card, t), cost, coins, left: coins - cost, help: t(`silkroad.cardHelp.${card}`) });
}

/** Picking the good to play (no move yet): the cards of it in hand and the slots it may cover. */
export function chooseHint(view, seat, good, slots, t) {
  const s = seatOf(view, seat);
  return t('silkroad.hint.choose', { good: goodText(good, t), count: s && s.hand ? s.hand[good] || 0 : 0, slots });
}

/**
 * Why a scoring pays what it pays, player by player (only who earns): "you: 3 visible × 2 ships = 6 + 2
 * License = 8; Bea: 3 visible × 1 ship = 3", or "no one earns".
 */
export function payoutWhy(payouts, names, mySeat, t) {
  const earning = payouts.filter((p) => p.amount > 0)
    .sort((a, b) => (b.player === mySeat) - (a.player === mySeat) || a.player - b.player);
  if (earning.length === 0) return t('silkroad.payout.none');
  return earning.map((p) => {
    const params = {
      name: p.player === mySeat ? t('common.you') : nameOf(names, p.player, t),
      visible: p.ships ? p.base / p.ships : 0, ships: p.ships, count: p.ships, base: p.base, bonus: p.bonus, amount: p.amount,
    };
    return t(p.bonus > 0 ? 'silkroad.why.payoutLicense' : 'silkroad.why.payout', params);
  }).join(t('silkroad.why.separator'));
}

/** Playing one card of `good` on `slot`: what it covers, and what a scoring right after it would pay. */
export function playHint(view, seat, good, slot, names, t) {
  return t('silkroad.hint.play', {
    good: goodText(good, t), slot: slot + 1, top: goodText(view.market[slot], t),
    why: payoutWhy(playPayouts(view, good, slot), names, seat, t),
  });
}

/** Scoring the good in play now: the visible count and what every player earns from it. */
export function scoreHint(view, seat, names, t) {
  const good = view.played_good;
  return t('silkroad.hint.score', {
    good: goodText(good, t), count: marketCount(view, good), why: payoutWhy(scoringPayouts(view, good), names, seat, t),
  });
}

/** The draw of phase 2 (instead of playing), the extra draws of Exchange cards, and the turn's other ends. */
export function drawHint(view, t) {
  return t('silkroad.hint.draw', { count: Math.min(2, view.deck_count), deck: view.deck_count });
}
export function extraDrawHint(view, t) {
  return t('silkroad.hint.extraDraw', { count: view.extra_draws_left, deck: view.deck_count });
}
export function doneHint(view, t) {
  return t('silkroad.hint.done', { count: view.extra_draws_left });
}
export function endPhaseHint(view, t) {
  return t('silkroad.hint.endPhase', { count: view.exchanges_left });
}
export function passHint(t) {
  return t('silkroad.hint.pass');
}

// ---- the final result's breakdown (issue 36) ---------------------------------------------------------------------

/** The two ships every merchant starts with (docs/rules: each player takes 2 Ship cards), bought by nobody. */
export const START_SHIPS = 2;

/**
 * A merchant's coins at the end, taken apart from what the final view shows (everyone starts with 0 coins and
 * 2 ships; prices are fixed, `view.costs`): {coins, spent, earned, bought: [{card, count, cost}]}, where `bought`
 * lists the special cards bought (ships beyond the first two), `spent` their price and `earned` every income
 * (scorings and License bonuses) = coins + spent. Null when the seat's coins are not known.
 */
export function finalBreakdown(view, player) {
  const seat = view && view.seats ? view.seats[player] : null;
  if (!seat || !Number.isInteger(seat.coins) || !view.costs) return null;
  const counts = {
    ship: Math.max(0, (Array.isArray(seat.ships) ? seat.ships.length : START_SHIPS) - START_SHIPS),
    exchange: seat.exchange || 0, porter: seat.porter || 0, license: seat.license || 0,
  };
  const bought = CARDS.filter((card) => counts[card] > 0 && Number.isInteger(view.costs[card]))
    .map((card) => ({ card, count: counts[card], cost: view.costs[card] }));
  const spent = bought.reduce((sum, b) => sum + b.count * b.cost, 0);
  return { coins: seat.coins, spent, earned: seat.coins + spent, bought };
}

/** "Earned 52 − spent 31 = 21 · bought 1 × Ship (10), 1 × License (11)" (every number true to the view). */
export function breakdownText(b, t) {
  if (!b) return '';
  const sum = t('silkroad.result.breakdown', { earned: b.earned, spent: b.spent, coins: b.coins });
  const items = b.bought.map((x) => t('silkroad.result.bought', { count: x.count, card: cardText(x.card, t), cost: x.cost }));
  return `${sum} · ${items.length ? t('silkroad.result.boughtList', { items: listText(items, t) }) : t('silkroad.result.boughtNone')}`;
}
