// Merkator, the pure part: no DOM, no network. Works on the engine's view JSON (engine/README.md,
// "Merkator") and on the game's component data, the very file the server loaded (served as
// GET /games/merkator/data.json; the board fetches it once and hands it to setCatalog):
//   setCatalog(data)                          → installs the components (names, map, cards…)
//   applyEvent(view, event)                   → one event applied (a new object; the input is not changed)
//   applyEvents(view, events, version)        → the view after one action's events, at that version
//   describeEvent(event, names, t, mySeat)    → one sentence for the game log
// plus the helpers the board needs: the legal actions grouped for the controls, the step of the
// turn, the status line, the result.
//
// Everything in Merkator is public, so every viewer gets the same events. The engine announces what
// happens but not where it then stops (a player asked to join, contracts to fulfil, goods to
// choose): the reducer follows the engine's flow from the events, the catalog and the view. Without
// a catalog applyEvents throws, and the table then takes a snapshot instead.
// Tests: tests/web-client/merkator-model.test.mjs replays engine games for every viewer.

import { nameOf, toMove, isOver } from '../model-parts.js';
import en from './i18n/en.js';
export { nameOf, toMove, isOver }; // the board and the table read them from each game's model

export const STEPS = ['investment', 'travel', 'contracts', 'joining'];
/** Which of the four steps of a turn a phase belongs to. */
export const PHASE_STEP = {
  investment: 'investment', travel: 'travel', take: 'travel', letter: 'travel', loss: 'travel',
  contracts: 'contracts', joining: 'joining', over: null,
};

const clone = (value) => structuredClone(value);

// ---- the components --------------------------------------------------------------------------

/** Indexes the data file (merkator-data.json) for quick look-ups. Throws on a file that is not one. */
export function indexCatalog(data) {
  if (!data || !Array.isArray(data.goods) || !Array.isArray(data.locations) || !Array.isArray(data.contracts)) {
    throw new Error('not a Merkator data file');
  }
  const byId = (list) => new Map((list || []).map((x, index) => [x.id, { ...x, index }]));
  const goods = byId(data.goods);
  const locations = byId(data.locations);
  const contracts = byId(data.contracts);
  const roads = new Map(data.locations.map((l) => [l.id, []]));
  for (const [a, b] of data.roads || []) {
    if (roads.has(a)) roads.get(a).push(b);
    if (roads.has(b)) roads.get(b).push(a);
  }
  const columns = Object.entries((data.office_board && data.office_board.columns) || {})
    .map(([id, col]) => ({ id, area: col.area, goods: col.goods }));
  const setup = data.setup || {};
  return {
    data,
    goods,
    goodIds: data.goods.map((g) => g.id),
    colours: new Map(Object.entries(data.colours || {})),
    colourIds: Object.keys(data.colours || {}),
    locations,
    locationIds: data.locations.map((l) => l.id),
    roads,
    roadList: data.roads || [],
    contracts,
    bonus: byId(data.bonus_cards),
    buildings: byId(data.buildings),
    columns,
    contractSpaces: (data.office_board && data.office_board.contract_spaces) || 5,
    joinCost: data.join_cost || { major: 1, minor: 2 },
    rowLength: setup.time_chart_row_length || 7,
    maxCoins: setup.max_coins_after_investment ?? 15,
  };
}

let installed = null;

/** Installs the game's components for the reducer and the board; returns the index (null to uninstall). */
export function setCatalog(data) {
  installed = data ? indexCatalog(data) : null;
  return installed;
}

export function catalog() {
  return installed;
}

function need() {
  if (!installed) throw new Error('Merkator data not loaded');
  return installed;
}

export const isMajor = (c, loc) => Boolean(c.locations.get(loc) && c.locations.get(loc).kind === 'major');
export const joinCost = (c, loc) => (isMajor(c, loc) ? c.joinCost.major : c.joinCost.minor);
/** A time-chart letter ("A", "AA"): the office column it strikes and how many goods each player loses. */
export const letterInfo = (letter) => ({ column: String(letter || '')[0] || '', count: String(letter || '').length });

export function columnOf(c, good) {
  const g = c.goods.get(good);
  return g ? g.column : null;
}

export function columnTotal(c, seat, column) {
  const col = c.columns.find((x) => x.id === column);
  return col ? col.goods.reduce((n, g) => n + (seat.goods[g] || 0), 0) : 0;
}

/** Contracts a seat holds for the pawn's location, not yet fulfilled this turn. */
export function contractsHere(c, view, p) {
  const seat = view.seats[p];
  if (!seat || !view.location) return [];
  return seat.contracts.filter((id) => {
    const k = c.contracts.get(id);
    return k && k.destination === view.location && !seat.fulfilled.includes(id);
  });
}

/** Whether a seat's office board holds every good a contract asks for (no trades). */
export function hasGoodsFor(c, seat, id) {
  const k = c.contracts.get(id);
  return Boolean(k) && Object.entries(k.goods).every(([g, q]) => (seat.goods[g] || 0) >= q);
}

// ---- the reducer -----------------------------------------------------------------------------

function addGoods(seat, goods, sign = 1) {
  for (const [g, n] of Object.entries(goods || {})) seat.goods[g] = (seat.goods[g] || 0) + sign * n;
}

function clearPhaseFields(v) {
  if (v.phase !== 'take') v.take = null;
  if (v.phase !== 'loss') v.loss = null;
  if (v.phase !== 'joining') v.joining = null;
  if (v.phase !== 'letter') v.next_row = null;
  if (v.phase !== 'letter' && v.phase !== 'loss') v.letter = null;
}

function setPhase(v, phase, decider) {
  v.phase = phase;
  v.to_move = phase === 'over' ? [] : [decider];
}

// Where the engine stops after the events: the same flow as merkator.cpp (enter_contracts,
// after_contracts, ask_next_joiner, process_loss), run on the view.
function askNextJoiner(c, v, step) {
  const cost = joinCost(c, v.location);
  while (++step < v.players) {
    const q = (v.active + step) % v.players;
    if (v.seats[q].time >= cost) {
      setPhase(v, 'joining', q);
      v.joining = { player: q, cost };
      return;
    }
  }
  throw new Error('Merkator: the turn should have ended (no turn event)');
}

function afterContracts(c, v, p) {
  askNextJoiner(c, v, (p - v.active + v.players) % v.players);
}

function enterContracts(c, v, p) {
  if (contractsHere(c, v, p).length > 0) setPhase(v, 'contracts', p);
  else afterContracts(c, v, p);
}

function startLoss(c, v, flow, letter) {
  const { column, count } = letterInfo(letter);
  flow.loss = { column, need: v.seats.map((s) => Math.min(count, columnTotal(c, s, column))) };
  flow.cont = { kind: 'loss' };
}

/** A loss still open: the first player (from the active one, clockwise) who must still choose. */
function lossChooser(v, loss) {
  for (let k = 0; k < v.players; k++) {
    const p = (v.active + k) % v.players;
    if (loss.need[p] > 0) return p;
  }
  return null;
}

function settle(c, v, flow) {
  const cont = flow.cont;
  if (cont) {
    if (cont.kind === 'loss') {
      const p = lossChooser(v, flow.loss);
      if (p !== null) {
        setPhase(v, 'loss', p);
        v.loss = { column: flow.loss.column, need: flow.loss.need };
      } else {
        v.letter = null;
        enterContracts(c, v, v.active);
      }
    } else if (cont.kind === 'gain') {
      enterContracts(c, v, v.active);
    } else if (cont.kind === 'enter') {
      enterContracts(c, v, cont.player);
    } else if (cont.kind === 'fulfil') {
      if (contractsHere(c, v, cont.player).length > 0) setPhase(v, 'contracts', cont.player);
      else afterContracts(c, v, cont.player);
    } else if (cont.kind === 'after') {
      afterContracts(c, v, cont.player);
    } else if (cont.kind === 'ask') {
      askNextJoiner(c, v, cont.step);
    }
  }
  clearPhaseFields(v);
  return v;
}

function updatePile(v, value, top, count) {
  const pile = v.contract_piles.find((x) => x.value === value);
  if (pile) {
    pile.top = top ?? null;
    pile.count = count;
  }
}

/** One event into the view `v` (changed in place); `flow` carries where the engine goes on. */
function step(c, v, e, flow) {
  const seat = Number.isInteger(e.player) ? v.seats[e.player] : null;
  switch (e.type) {
    case 'turn':
      v.active = e.player;
      v.turn = e.turn;
      v.last_round = e.last_round;
      v.turns_left = e.turns_left;
      for (const s of v.seats) s.fulfilled = [];
      setPhase(v, 'investment', e.player);
      flow.cont = null;
      break;
    case 'sell': {
      seat.contracts = seat.contracts.filter((id) => id !== e.contract);
      const at = (id) => (c.contracts.get(id) ? c.contracts.get(id).index : -1);
      v.discards = [...v.discards, e.contract].sort((a, b) => at(a) - at(b));
      seat.coins = e.coins;
      break;
    }
    case 'buy': {
      seat.coins = e.coins;
      const bonus = e.kind === 'bonus';
      (bonus ? seat.bonus_cards : seat.buildings).push(e.card);
      const display = bonus ? v.bonus_display : v.building_display;
      const i = display.indexOf(e.card);
      if (i >= 0) {
        if (e.revealed) display[i] = e.revealed;
        else display.splice(i, 1);
      }
      if (bonus) v.bonus_pile_count = e.pile_count;
      else v.building_pile_count = e.pile_count;
      break;
    }
    case 'end_investment':
      seat.coins = e.coins;
      setPhase(v, 'travel', e.player);
      break;
    case 'travel': {
      seat.time = e.time;
      v.location = e.location;
      if (Object.prototype.hasOwnProperty.call(v.cubes, e.location)) {
        const n = v.cubes[e.location];
        v.cubes[e.location] = 0;
        if (n === 1 || n >= 3) {
          const loc = c.locations.get(e.location);
          setPhase(v, 'take', e.player);
          v.take = { cubes: n, colour: loc ? loc.colour : null };
          flow.cont = null;
        }
      }
      break;
    }
    case 'take':
      addGoods(seat, e.goods);
      v.take = null;
      break;
    case 'bonus_goods':
      addGoods(seat, e.goods);
      break;
    case 'restock':
      for (const [loc, n] of Object.entries(e.cubes || {})) v.cubes[loc] = n;
      flow.cont = { kind: 'gain' };
      break;
    case 'time': {
      if (flow.cont && flow.cont.kind === 'loss') v.letter = null; // the loss was over: the trip goes on
      seat.time = e.time;
      v.chart.remaining = e.chart_remaining;
      if (e.source === 'chart') {
        const row = v.chart.rows[e.row];
        delete row.known[String(c.rowLength - row.count)];
        row.count -= 1;
      }
      flow.cont = { kind: 'gain' };
      break;
    }
    case 'letter':
      v.letter = e.letter;
      if (e.next_row) {
        const row = v.chart.rows[e.row];
        row.known[String(c.rowLength - row.count)] = e.letter;
        v.next_row = null;
        startLoss(c, v, flow, e.letter);
      } else if (e.count === 1 && e.row + 1 < v.chart.rows.length && v.chart.rows[e.row + 1].count > 0) {
        setPhase(v, 'letter', v.active);
        v.next_row = e.row + 1;
        flow.cont = null;
      } else {
        startLoss(c, v, flow, e.letter);
      }
      break;
    case 'keep_letter':
      v.next_row = null;
      startLoss(c, v, flow, v.letter);
      break;
    case 'goods_lost': {
      if (!flow.loss) flow.loss = v.loss ? clone(v.loss) : { column: e.column, need: v.seats.map(() => 0) };
      addGoods(seat, e.goods, -1);
      const n = Object.values(e.goods || {}).reduce((a, b) => a + b, 0);
      flow.loss.need[e.player] = Math.max(0, flow.loss.need[e.player] - n);
      flow.cont = { kind: 'loss' };
      break;
    }
    case 'trade':
      if (e.give !== 'time') seat.goods[e.give] -= e.count;
      seat.goods[e.good] = (seat.goods[e.good] || 0) + 1;
      seat.time = e.time;
      break;
    case 'fulfil':
      addGoods(seat, e.goods, -1);
      seat.fulfilled.push(e.contract);
      flow.cont = { kind: 'fulfil', player: e.player };
      break;
    case 'reshuffle': {
      const back = v.discards.filter((id) => c.contracts.get(id) && c.contracts.get(id).value === e.value);
      v.discards = v.discards.filter((id) => !back.includes(id));
      updatePile(v, e.value, null, e.count);
      break;
    }
    case 'new_contract':
      if (e.contract) {
        seat.contracts.push(e.contract);
        updatePile(v, e.value, e.pile_top, e.pile_count);
      }
      break;
    case 'end_triggered':
      v.trigger = e.reason;
      break;
    case 'done':
      flow.cont = { kind: 'after', player: e.player };
      break;
    case 'join':
      seat.time = e.time;
      v.seats[e.to].time = e.active_time;
      v.joining = null;
      flow.cont = { kind: 'enter', player: e.player };
      break;
    case 'decline':
      flow.cont = { kind: 'ask', step: (e.player - v.active + v.players) % v.players };
      break;
    case 'supply':
      seat.supply[e.colour] = e.left;
      seat.goods[e.good] = (seat.goods[e.good] || 0) + 1;
      break;
    case 'game_over':
      setPhase(v, 'over', null);
      v.scoring = clone(e.scoring);
      v.result = clone(e.result);
      flow.cont = null;
      break;
    default:
      return false;
  }
  return true;
}

/** The view after one action's events. `version` is the `events` message's version. */
export function applyEvents(view, events, version) {
  const c = need();
  const v = clone(view);
  const flow = { cont: null, loss: null };
  for (const e of events || []) if (e) step(c, v, e, flow);
  settle(c, v, flow);
  v.version = version ?? view.version + 1;
  return v;
}

/**
 * The next view after one event alone, without following the engine's flow to its next stop (only
 * applyEvents over a whole action's events knows where that is). Unknown event types leave the view
 * as it was.
 */
export function applyEvent(view, event) {
  const c = need();
  const v = clone(view);
  if (!event || !step(c, v, event, { cont: null, loss: null })) return view;
  return v;
}


// ---- legal actions ---------------------------------------------------------------------------

/**
 * What the legal list allows, grouped for the controls:
 *   { supply: [good], sell: [contract], buyBonus: [card], buyBuilding: [card], endInvestment,
 *     travel: [location], take: Map(good → [count]), keepLetter, nextLetter, discard: [good],
 *     fulfil: [contract], trade: Map(give → [good]), done, join, decline }
 * Only what is in the list: the board builds its controls from this and nothing else. Without a
 * catalog, bought cards count as buildings unless their id is a known bonus card.
 */
export function legalActions(legal, c = installed) {
  const out = {
    supply: [], sell: [], buyBonus: [], buyBuilding: [], endInvestment: false, travel: [], take: new Map(),
    keepLetter: false, nextLetter: false, discard: [], fulfil: [], trade: new Map(), done: false, join: false,
    decline: false,
  };
  for (const a of legal || []) {
    if (!a || typeof a.type !== 'string') continue;
    switch (a.type) {
      case 'supply': out.supply.push(a.good); break;
      case 'sell': out.sell.push(a.contract); break;
      case 'buy':
        if (c && c.bonus.has(a.card)) out.buyBonus.push(a.card);
        else out.buyBuilding.push(a.card);
        break;
      case 'end_investment': out.endInvestment = true; break;
      case 'travel': out.travel.push(a.location); break;
      case 'take':
        if (!out.take.has(a.good)) out.take.set(a.good, []);
        out.take.get(a.good).push(a.count);
        break;
      case 'keep_letter': out.keepLetter = true; break;
      case 'next_letter': out.nextLetter = true; break;
      case 'discard': out.discard.push(a.good); break;
      case 'fulfil': out.fulfil.push(a.contract); break;
      case 'trade':
        if (!out.trade.has(a.give)) out.trade.set(a.give, []);
        out.trade.get(a.give).push(a.good);
        break;
      case 'done': out.done = true; break;
      case 'join': out.join = true; break;
      case 'decline': out.decline = true; break;
      default: break;
    }
  }
  return out;
}

/** The contracts a trade would help: held for this location, still missing goods. */
export function missingGoods(c, seat, id) {
  const k = c.contracts.get(id);
  if (!k) return {};
  const out = {};
  for (const [g, q] of Object.entries(k.goods)) if ((seat.goods[g] || 0) < q) out[g] = q - (seat.goods[g] || 0);
  return out;
}

// ---- what the board shows --------------------------------------------------------------------

/** Final contract points as the engine scores them: the best `spaces` at value, the rest at half. */
export function contractPoints(c, ids) {
  const values = ids.map((id) => (c.contracts.get(id) ? c.contracts.get(id).value : 0)).sort((a, b) => b - a);
  return values.reduce((n, v, i) => n + (i < c.contractSpaces ? v : Math.floor(v / 2)), 0);
}

/** Whether a contract matches a building's filter ({min_value, max_value, destinations}). */
function matches(filter, k) {
  const f = filter || {};
  if (f.min_value !== undefined && k.value < f.min_value) return false;
  if (f.max_value !== undefined && k.value > f.max_value) return false;
  if (Array.isArray(f.destinations) && !(k.destination && f.destinations.includes(k.destination))) return false;
  return true;
}

function measure(c, view, m, p) {
  const seat = view.seats[p];
  const h = (g) => seat.goods[g] || 0;
  switch (m && m.type) {
    case 'cubes': return (m.goods || []).reduce((n, g) => n + h(g), 0);
    case 'distinct': return (m.goods || []).filter((g) => h(g) > 0).length;
    case 'time': return seat.time;
    case 'contracts': return seat.contracts.filter((id) => c.contracts.get(id) && matches(m.filter, c.contracts.get(id))).length;
    case 'buildings': return seat.buildings.length;
    default: return 0;
  }
}

/**
 * What a building would score for seat `p` with the board as it stands (the supply tile not yet placed),
 * by the data file's formula (merkator-data.md, "scoring semantics"): the engine's building_points.
 */
export function buildingPoints(c, view, id, p) {
  const b = c.buildings.get(id);
  if (!b || !b.scoring) return 0;
  const f = b.scoring;
  const seat = view.seats[p];
  const h = (g) => seat.goods[g] || 0;
  const linear = (n) => {
    const pts = f.points * Math.floor(n / (f.per || 1));
    return f.max !== undefined && f.max !== null ? Math.min(pts, f.max) : pts;
  };
  switch (f.kind) {
    case 'per_cube': return linear(f.goods.reduce((n, g) => n + h(g), 0));
    case 'per_distinct': return linear(f.goods.filter((g) => h(g) > 0).length);
    case 'per_colour_pair':
      return linear(f.colours.filter((col) => (c.colours.get(col).goods || []).every((g) => h(g) > 0)).length);
    case 'per_set': {
      const n = Math.min(...f.components.map((comp) => Math.floor(comp.goods.reduce((a, g) => a + h(g), 0) / comp.qty)));
      return linear(Math.max(n, 0));
    }
    case 'per_time': return linear(seat.time);
    case 'per_contract':
      return linear(seat.contracts.filter((k) => c.contracts.get(k) && matches(f.filter, c.contracts.get(k))).length);
    case 'threshold': return measure(c, view, f.measure, p) >= f.at_least ? f.points : 0;
    case 'sole_most': {
      const mine = measure(c, view, f.measure, p);
      if (mine < 1) return 0;
      return view.seats.every((_, q) => q === p || measure(c, view, f.measure, q) < mine) ? f.points : 0;
    }
    default: return 0;
  }
}

export function goodsCount(seat) {
  return Object.values(seat.goods || {}).reduce((a, b) => a + b, 0);
}

// ---- words -----------------------------------------------------------------------------------


// A component's words in the page's language (catalog key merkator.<kind>.<id>) when the catalogs know that
// component as the data file names it (the English catalog holds the data file's own words); otherwise the data
// file's words: a replaced data file shows its own names, untranslated.
function named(key, dataWords, t) {
  return en[key] === dataWords ? t(key) : dataWords;
}

export function goodName(good, t, c = installed) {
  const g = c && c.goods.get(good);
  return g ? named(`merkator.good.${good}`, g.name, t) : t('merkator.unknown', { id: String(good) });
}

export function locationName(loc, t, c = installed) {
  const l = c && c.locations.get(loc);
  return l ? named(`merkator.location.${loc}`, l.name, t) : t('merkator.unknown', { id: String(loc) });
}

export function buildingName(id, t, c = installed) {
  const b = c && c.buildings.get(id);
  return b ? named(`merkator.building.${id}`, b.name, t) : t('merkator.unknown', { id: String(id) });
}

/** What a building scores, in words. */
export function buildingText(id, t, c = installed) {
  const b = c && c.buildings.get(id);
  return b ? named(`merkator.building.${id}.text`, b.text || '', t) : '';
}

/** A bonus card in words: "Bonus card Italy: muskets". */
export function bonusName(id, t, c = installed) {
  const b = c && c.bonus.get(id);
  return b ? t('merkator.bonusName', { location: locationName(b.location, t, c), good: goodName(b.good, t, c) })
    : t('merkator.unknown', { id: String(id) });
}

export function cardName(id, t, c = installed) {
  return c && c.bonus.has(id) ? bonusName(id, t, c) : buildingName(id, t, c);
}

/** "contract 3 → Hamburg" */
export function contractName(id, t, c = installed) {
  const k = c && c.contracts.get(id);
  if (!k) return t('merkator.unknown', { id: String(id) });
  if (!k.destination) return t('merkator.contract.peace', { value: k.value });
  return t('merkator.contract.name', { value: k.value, destination: locationName(k.destination, t, c) });
}

export function listText(items, t) {
  if (items.length <= 1) return items.join('');
  return t('common.list', { head: items.slice(0, -1).join(t('common.listSeparator')), last: items[items.length - 1] });
}

/** "2 ham and 1 fish oil" from {ham: 2, fish_oil: 1} (goods in the data file's order). */
export function goodsText(goods, t, c = installed) {
  const order = c ? c.goodIds : Object.keys(goods || {});
  const parts = order.filter((g) => goods && goods[g] > 0).map((g) => t('merkator.goodsOf', { count: goods[g], good: goodName(g, t, c) }));
  return parts.length ? listText(parts, t) : t('merkator.goodsNone');
}

/**
 * One sentence for the log, from the event alone (everything in Merkator is public). `mySeat`
 * (null for spectators) only chooses "you" over the player's name.
 */
export function describeEvent(event, names, t, mySeat = null, c = installed) {
  const ev = event || {};
  const me = (p) => mySeat !== null && mySeat !== undefined && p === mySeat;
  const who = (p) => nameOf(names, p, t);
  const pick = (key, params) => t(me(ev.player) ? `${key}.you` : key, { name: who(ev.player), ...params });
  switch (ev.type) {
    case 'turn':
      if (ev.last_round) return pick('merkator.event.turn.last', { turn: ev.turn, count: ev.turns_left });
      if (ev.forced_investment) return pick('merkator.event.turn.forced', { turn: ev.turn });
      return pick('merkator.event.turn', { turn: ev.turn });
    case 'sell':
      return pick('merkator.event.sell', { contract: contractName(ev.contract, t, c), count: ev.value, coins: ev.coins });
    case 'buy':
      return pick(ev.kind === 'bonus' ? 'merkator.event.buy.bonus' : 'merkator.event.buy.building',
        { card: cardName(ev.card, t, c), count: ev.cost, coins: ev.coins });
    case 'end_investment':
      if (ev.lost > 0) return pick('merkator.event.end_investment.lost', { count: ev.lost, coins: ev.coins });
      return pick('merkator.event.end_investment', { coins: ev.coins });
    case 'travel':
      if (ev.paid > 0) return pick('merkator.event.travel.paid', { location: locationName(ev.location, t, c), count: ev.paid });
      return pick('merkator.event.travel', { location: locationName(ev.location, t, c) });
    case 'take':
      return pick('merkator.event.take', { goods: goodsText(ev.goods, t, c), location: locationName(ev.location, t, c) });
    case 'bonus_goods':
      return pick(ev.joiner ? 'merkator.event.bonus_goods.joiner' : 'merkator.event.bonus_goods', { goods: goodsText(ev.goods, t, c) });
    case 'restock':
      if (!ev.added || ev.added.length === 0) return t('merkator.event.restock.none');
      return t('merkator.event.restock', { list: listText(ev.added.map((l) => locationName(l, t, c)), t) });
    case 'time':
      if (ev.source === 'chart') return pick('merkator.event.time.chart', { row: ev.row + 1, count: ev.time, left: ev.chart_remaining });
      return pick('merkator.event.time.supply', { count: ev.time });
    case 'letter':
      if (ev.next_row) return pick('merkator.event.letter.next', { letter: ev.letter, column: ev.column, count: ev.count });
      return t('merkator.event.letter', { letter: ev.letter, column: ev.column, count: ev.count, row: ev.row + 1 });
    case 'keep_letter':
      return pick('merkator.event.keep_letter', {});
    case 'goods_lost':
      return pick(ev.chosen ? 'merkator.event.goods_lost.chosen' : 'merkator.event.goods_lost', { goods: goodsText(ev.goods, t, c), column: ev.column });
    case 'trade':
      if (ev.give === 'time') return pick('merkator.event.trade.time', { count: ev.count, good: goodName(ev.good, t, c) });
      return pick('merkator.event.trade', { count: ev.count, give: goodName(ev.give, t, c), good: goodName(ev.good, t, c) });
    case 'fulfil':
      return pick('merkator.event.fulfil', { contract: contractName(ev.contract, t, c), goods: goodsText(ev.goods, t, c) });
    case 'reshuffle':
      return t('merkator.event.reshuffle', { value: ev.value, count: ev.count });
    case 'new_contract':
      if (!ev.contract) return pick('merkator.event.new_contract.none', {});
      return pick('merkator.event.new_contract', { contract: contractName(ev.contract, t, c) });
    case 'end_triggered':
      return pick(ev.reason === 'peace' ? 'merkator.event.end_triggered.peace' : 'merkator.event.end_triggered.chart', {});
    case 'done':
      return pick('merkator.event.done', {});
    case 'join':
      return pick('merkator.event.join', { count: ev.paid, to: me(ev.to) ? t('common.you') : who(ev.to) });
    case 'decline':
      return pick('merkator.event.decline', {});
    case 'supply':
      return pick('merkator.event.supply', { good: goodName(ev.good, t, c), count: ev.left });
    case 'game_over':
      return resultSentence(ev.result, names, t);
    default:
      return t('merkator.event.unknown', { type: String(ev.type) });
  }
}

/** "Ann wins with 46 points." / "Ann and Bo share the win with 40 points." */
export function resultSentence(result, names, t) {
  if (!result || !Array.isArray(result.winners) || result.winners.length === 0) return t('merkator.event.game_over');
  const best = (result.ranking || []).find((r) => r.player === result.winners[0]);
  const params = { names: listText(result.winners.map((p) => nameOf(names, p, t)), t), count: best ? best.points : 0 };
  return result.winners.length === 1 ? t('merkator.result.winner', params) : t('merkator.result.shared', params);
}

/** The step of the active player's turn: 'investment' | 'travel' | 'contracts' | 'joining' | null. */
export function currentStep(view) {
  return view ? PHASE_STEP[view.phase] ?? null : null;
}

/** The line under the board title: what happens now, in words. */
/**
 * A seat's points now for the players panel, as its own board shows them: its contracts as the engine scores them
 * and each building with the board as it stands ("14 points"); null before the data file or the seat is in.
 */
export function seatScore(view, p, t, c = installed) {
  const seat = view && view.seats ? view.seats[p] : null;
  if (!c || !seat || !Array.isArray(seat.contracts) || !Array.isArray(seat.buildings)) return null;
  const points = contractPoints(c, seat.contracts) + seat.buildings.reduce((n, b) => n + buildingPoints(c, view, b, p), 0);
  return t('merkator.points', { count: points });
}

export function statusText(view, names, mySeat, t) {
  if (!view) return '';
  if (view.phase === 'over') return resultSentence(view.result, names, t);
  const decider = toMove(view)[0];
  const mine = mySeat !== null && mySeat !== undefined && decider === mySeat;
  // A name in the possessive ("Ann’s trip") needs its own sentence when it is the reader's: "your trip".
  const yours = !mine && isReader(view.active, mySeat) && view.phase === 'joining';
  const params = {
    name: nameOf(names, decider, t),
    active: nameOf(names, view.active, t),
    location: view.location ? locationName(view.location, t) : '',
    letter: view.letter || '',
    column: view.loss ? view.loss.column : '',
    count: view.phase === 'loss' && view.loss ? view.loss.need[decider] : view.phase === 'take' && view.take ? view.take.cubes
      : view.joining ? view.joining.cost : 0,
  };
  return t(`merkator.status.${view.phase}${mine ? '.you' : yours ? '.yours' : ''}`, params);
}

const isReader = (p, mySeat) => mySeat !== null && mySeat !== undefined && p === mySeat;

/** The title of a last-move mark: "Ann’s last move" / "Your last move". */
export function lastMoveTitle(player, names, mySeat, t) {
  return isReader(player, mySeat) ? t('common.lastMove.you') : t('common.lastMove', { name: nameOf(names, player, t) });
}

/** The accessible name of the steps of the turn: "Steps of Ann’s turn" / "Steps of your turn". */
export function stepsLabel(view, names, mySeat, t) {
  return isReader(view.active, mySeat) ? t('merkator.steps.label.you') : t('merkator.steps.label', { name: nameOf(names, view.active, t) });
}

// ---- hints: what each control does and what it costs (the board shows them on hover and focus) ----------

const seatAt = (view, p) => (view && view.seats && view.seats[p]) || { coins: 0, time: 0, goods: {}, contracts: [] };

/** Joining the traveller's trip: the time it costs, to whom, and what it brings. */
export function joinHint(c, view, p, names, t) {
  const me = seatAt(view, p);
  const cost = view.joining ? view.joining.cost : joinCost(c, view.location);
  const bonus = (me.bonus_cards || []).filter((b) => c.bonus.get(b) && c.bonus.get(b).location === view.location).length;
  return t('merkator.hint.join', {
    name: nameOf(names, view.active, t), location: locationName(view.location, t, c), count: cost, time: me.time,
    left: me.time - cost, bonus, contracts: contractsHere(c, view, p).length,
  });
}
export function declineHint(t) {
  return t('merkator.hint.decline');
}

/** Selling a contract: its value in coins. */
export function sellHint(c, view, p, id, t) {
  const k = c.contracts.get(id);
  const me = seatAt(view, p);
  return t('merkator.hint.sell', { contract: contractName(id, t, c), count: k ? k.value : 0, coins: me.coins + (k ? k.value : 0) });
}

/** Buying a bonus card or a building: its price, the coins after it, what it does. */
export function buyHint(c, view, p, id, t) {
  const card = c.bonus.get(id) || c.buildings.get(id);
  const me = seatAt(view, p);
  const cost = card ? card.cost : 0;
  const what = c.bonus.get(id)
    ? t('merkator.bonusHelp', { location: locationName(card.location, t, c), good: goodName(card.good, t, c), active: card.active, joiner: card.joiner })
    : buildingText(id, t, c);
  return t('merkator.hint.buy', { card: cardName(id, t, c), count: cost, coins: me.coins, left: me.coins - cost, what });
}

/** Ending the investment step: the coins over the limit are lost. */
export function endInvestmentHint(c, view, p, t) {
  const me = seatAt(view, p);
  return me.coins > c.maxCoins
    ? t('merkator.hint.endInvestmentLose', { count: me.coins - c.maxCoins, max: c.maxCoins })
    : t('merkator.hint.endInvestment', { count: me.coins, max: c.maxCoins });
}

/** Travelling to a place: the time paid or gained, and the cubes taken there. */
export function travelHint(c, view, p, loc, t) {
  const l = c.locations.get(loc);
  const me = seatAt(view, p);
  const name = locationName(loc, t, c);
  const time = l.time > 0 ? t('merkator.hint.timeGain', { count: l.time })
    : l.time < 0 ? t('merkator.hint.timePay', { count: -l.time, time: me.time }) : t('merkator.hint.timeFree');
  if (!isMajor(c, loc)) return t('merkator.hint.travelMinor', { location: name, time });
  const goods = listText(((c.colours.get(l.colour) || {}).goods || []).map((g) => goodName(g, t, c)), t);
  return t('merkator.hint.travel', { location: name, time, count: view.cubes[loc] || 0, goods });
}

/** Taking the cubes of a major place as `split` ({good: n}). */
export function takeHint(split, t, c = installed) {
  return t('merkator.hint.take', { goods: goodsText(split, t, c) });
}

/** The time counter's letter: keep it (everyone loses goods from its column) or turn the next row's first. */
export function keepLetterHint(view, t) {
  const { column, count } = letterInfo(view.letter);
  return t('merkator.hint.keepLetter', { letter: view.letter, column, count });
}
export function nextLetterHint(view, t) {
  return t('merkator.hint.nextLetter', { letter: view.letter, row: (view.next_row ?? 0) + 1 });
}

/** Losing one good to the counter's letter. */
export function discardHint(view, p, good, t, c = installed) {
  const me = seatAt(view, p);
  return t('merkator.hint.discard', { good: goodName(good, t, c), count: me.goods[good] || 0, column: view.loss ? view.loss.column : '' });
}

/** Fulfilling a contract: the goods it returns, that it is kept, and the next contract taken. */
export function fulfilHint(c, view, p, id, t) {
  const k = c.contracts.get(id);
  if (!k) return '';
  const next = (view.contract_piles || []).map((pile) => pile.value).filter((v) => v > k.value).sort((a, b) => a - b)[0];
  return t(next === undefined ? 'merkator.hint.fulfilTop' : 'merkator.hint.fulfil', {
    contract: contractName(id, t, c), goods: goodsText(k.goods, t, c), count: k.value, next,
  });
}

/** A trade of 4 for 1, only to fulfil a contract here. */
export function tradeHint(view, p, give, good, t, c = installed) {
  const me = seatAt(view, p);
  return give === 'time'
    ? t('merkator.hint.tradeTime', { good: goodName(good, t, c), count: me.time, left: me.time - 4 })
    : t('merkator.hint.tradeGood', { give: goodName(give, t, c), good: goodName(good, t, c), count: me.goods[give] || 0 });
}

/** Finishing the contracts step (the turn then goes to the joiners, or ends). */
export function doneHint(t) {
  return t('merkator.hint.done');
}

/** Moving a supply-tile cube onto the office board as one of its colour's goods. */
export function supplyHint(good, t, c = installed) {
  return t('merkator.hint.supply', { good: goodName(good, t, c) });
}

// ---- the final scoring explained --------------------------------------------------------------------------

// Every line says one true thing: "6 contracts: 10 + 7 + 6 + 4 + 4 + 1 (half of 3) = 32", "Kornhaus: 1 × 6 goods,
// at most 4 = 4", "Total: 32 + 4 = 36" (never a chain of "=" through the half values).

/**
 * Why a merchant's contract points are what they are: the contracts' values, best first, the first
 * `contractSpaces` at value and the rest at half, rounded down ("10 + 7 + 6 + 4 + 4 + 1 (half of 3) = 32");
 * "" when none.
 */
export function contractWhy(c, ids, t) {
  const values = ids.map((id) => (c.contracts.get(id) ? c.contracts.get(id).value : 0)).sort((a, b) => b - a);
  if (!values.length) return '';
  const parts = values.map((v, i) => (i < c.contractSpaces ? String(v) : t('merkator.why.half', { value: v, count: Math.floor(v / 2) })));
  return t('merkator.why.contracts', { count: values.length, sum: parts.join(' + '), total: contractPoints(c, ids) });
}

/** What a building's measure counts for a seat with `goods`, and its words ("6 goods", "7 time counters"). */
function measured(c, seat, goods, m, t) {
  const held = (g) => goods[g] || 0;
  switch (m && m.type) {
    case 'cubes': { const n = (m.goods || []).reduce((a, g) => a + held(g), 0); return { n, what: t('merkator.why.per.cubes', { count: n }) }; }
    case 'distinct': { const n = (m.goods || []).filter((g) => held(g) > 0).length; return { n, what: t('merkator.why.per.distinct', { count: n }) }; }
    case 'time': return { n: seat.time, what: t('merkator.why.per.time', { count: seat.time }) };
    case 'contracts': {
      const n = seat.contracts.filter((id) => c.contracts.get(id) && matches(m.filter, c.contracts.get(id))).length;
      return { n, what: t('merkator.why.per.contracts', { count: n }) };
    }
    case 'buildings': return { n: seat.buildings.length, what: t('merkator.why.per.buildings', { count: seat.buildings.length }) };
    default: return null;
  }
}

/**
 * One building's final points in one line, from the final goods (`scoring.players[].goods`: the supply tile
 * placed) as the engine counted them. The plain "Name: 4" when the data file's formula gives another number than
 * the engine's (a formula this client does not know).
 */
export function buildingWhy(c, view, p, entry, t) {
  const name = buildingName(entry.building, t, c);
  const plain = t('merkator.why.plain', { name, count: entry.points });
  const b = c.buildings.get(entry.building);
  const rows = (view.scoring && view.scoring.players) || [];
  const seatOf = (q) => view.seats[q];
  const goodsOf = (q) => (rows.find((r) => r.player === q) || {}).goods || (seatOf(q) || {}).goods || {};
  if (!b || !b.scoring || !seatOf(p)) return plain;
  const f = b.scoring;
  const seat = seatOf(p);
  const goods = goodsOf(p);
  const held = (g) => goods[g] || 0;
  let line = null;
  let count = null;
  const linear = (n, what) => {
    const per = f.per || 1;
    const units = Math.floor(n / per);
    const raw = f.points * units;
    const capped = f.max !== undefined && f.max !== null && raw > f.max;
    count = capped ? f.max : raw;
    const words = per > 1 ? t('merkator.why.every', { units, per, what }) : what;
    line = t(capped ? 'merkator.why.buildingMax' : 'merkator.why.building', { name, points: f.points, what: words, max: f.max, count });
  };
  switch (f.kind) {
    case 'per_cube': { const n = f.goods.reduce((a, g) => a + held(g), 0); linear(n, t('merkator.why.per.cubes', { count: n })); break; }
    case 'per_distinct': { const n = f.goods.filter((g) => held(g) > 0).length; linear(n, t('merkator.why.per.distinct', { count: n })); break; }
    case 'per_colour_pair': {
      const n = f.colours.filter((col) => ((c.colours.get(col) || {}).goods || []).every((g) => held(g) > 0)).length;
      linear(n, t('merkator.why.per.pairs', { count: n }));
      break;
    }
    case 'per_set': {
      const n = Math.max(0, Math.min(...f.components.map((comp) => Math.floor(comp.goods.reduce((a, g) => a + held(g), 0) / comp.qty))));
      linear(n, t('merkator.why.per.sets', { count: n }));
      break;
    }
    case 'per_time': linear(seat.time, t('merkator.why.per.time', { count: seat.time })); break;
    case 'per_contract': {
      const n = seat.contracts.filter((k) => c.contracts.get(k) && matches(f.filter, c.contracts.get(k))).length;
      linear(n, t('merkator.why.per.contracts', { count: n }));
      break;
    }
    case 'threshold': {
      const m = measured(c, seat, goods, f.measure, t);
      if (!m) break;
      const met = m.n >= f.at_least;
      count = met ? f.points : 0;
      line = t(met ? 'merkator.why.threshold' : 'merkator.why.thresholdNot', { name, what: m.what, at: f.at_least, count });
      break;
    }
    case 'sole_most': {
      const m = measured(c, seat, goods, f.measure, t);
      if (!m) break;
      const others = view.seats.map((_, q) => q).filter((q) => q !== p).map((q) => measured(c, seatOf(q), goodsOf(q), f.measure, t));
      const met = m.n >= 1 && others.every((o) => o && o.n < m.n);
      count = met ? f.points : 0;
      line = t(met ? 'merkator.why.sole' : 'merkator.why.soleNot', { name, what: m.what, count });
      break;
    }
    default: break;
  }
  return line !== null && count === entry.points ? line : plain;
}

/**
 * A merchant's final scoring (`row`: an entry of `view.scoring.players`) as lines that each hold:
 * { contracts: the contracts' line ('' when none), buildings: one line per building, total: the sum }.
 */
export function scoringLines(c, view, row, t) {
  const seat = view.seats[row.player] || { contracts: [] };
  const contracts = seat.contracts.length && contractPoints(c, seat.contracts) === row.contracts ? contractWhy(c, seat.contracts, t) : '';
  return {
    contracts,
    buildings: (row.buildings || []).map((entry) => buildingWhy(c, view, row.player, entry, t)),
    total: t('merkator.why.total', { contracts: row.contracts, buildings: row.building_points, total: row.total }),
  };
}
