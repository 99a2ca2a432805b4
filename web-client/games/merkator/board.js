// The Merkator board: renders the view (games/merkator/model.js has the rules-free logic) and the
// controls that the `legal` list allows, nothing else. Same shape as the other boards:
// createBoard(root, ctx) returns { update(state), onEvents(events), destroy() } where state is
// { view, legal, seat (null for spectators), names, connected, busy }.
// The view carries ids only; names, the map, the cards and the buildings' formulas come from the data
// file the server loaded, fetched once from the same origin (GET /games/merkator/data.json).
// Spectators get no controls at all. A seated player's standing answer to "Join the trip?" (standing-choice.js, kept
// per table) may answer a join prompt itself: the board then sends "Stay home" at once and says so.
import * as model from './model.js';
import strings from './i18n/en.js';
import { h, replace, renderForTurn } from '../../js/core/dom.js';
import { initial, swatch, playerName, createHints, markBy } from '../board-parts.js';
import { botMark } from '../../js/ui/bot-mark.js';
import { createLastMoves, markProps } from '../../js/models/last-moves.js';
import { mapView, mapKey, pawnLine, signed } from './map-view.js';
import { noteEvents } from './marks.js';
import { parseRoute } from '../../js/core/route.js';
import { JOIN_CHOICES, readChoice, saveChoice, standingAnswer } from './standing-choice.js';

export const DATA_URL = '/games/merkator/data.json';
/** How long a join prompt stays hidden while the standing choice's "Stay home" is on its way. */
const ANSWER_WAIT_MS = 3000;

let dataPromise = null;
/**
 * Fetches the data file once per page and installs it in the model. The page asks for it at its start (the
 * module's `ready`, js/main.js), so that the catalog is there before any table's events are applied: without it the
 * reducer cannot follow them (the table would log the failure and take a snapshot instead).
 */
export function loadData() {
  if (model.catalog()) return Promise.resolve(model.catalog());
  if (!dataPromise) {
    dataPromise = fetch(DATA_URL, { credentials: 'same-origin' })
      .then((res) => {
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        return res.json();
      })
      .then((data) => model.setCatalog(data))
      .catch((err) => {
        dataPromise = null;
        throw err;
      });
  }
  return dataPromise;
}

/** This browser's localStorage, or null (blocked: the standing choice then lasts for the page). */
function localStore() {
  try {
    const s = window.localStorage;
    s.getItem('emporium.probe');
    return s;
  } catch {
    return null;
  }
}

/** The table the page shows (its path /t/<id>), or null (a replay, another page). */
function tableOfPage() {
  const route = typeof location === 'undefined' ? null : parseRoute(location.pathname);
  return route && route.name === 'table' ? route.id : null;
}

// The "Stay home" the standing choice sent, until its decline event is told in the log (describeEvent below says
// "(your standing choice)"); the events so told, to tell them the same way again after a change of language.
let standingSent = null; // { seat, until }
const toldStanding = new WeakSet();
function saidByStanding(event, mySeat) {
  if (!event || event.type !== 'decline') return false;
  if (toldStanding.has(event)) return true;
  if (standingSent && mySeat === event.player && standingSent.seat === event.player && Date.now() < standingSent.until) {
    standingSent = null;
    toldStanding.add(event);
    return true;
  }
  return false;
}
function describeEvent(event, names, t, mySeat = null) {
  return saidByStanding(event, mySeat) ? t('merkator.event.decline.standing') : model.describeEvent(event, names, t, mySeat);
}

function focusKey(a) {
  return [a.type, a.contract, a.card, a.location, a.good, a.count, a.give].filter((x) => x !== undefined).join('-');
}

function createBoard(root, { t, onAction }) {
  let state = null;
  let hadTurn = false;
  let failed = false;
  const el = h('div', { class: 'merkator' });
  root.append(el);
  const hints = createHints(el, 'mk');
  let alive = true;
  const marks = createLastMoves();
  const moves = new Map(); // player → keys of their move in progress (marks.js)
  const open = new Set(); // the folds the reader opened (kept across renders)
  const storage = localStore();
  let chosen = null; // the standing choice made on this page (it also lasts when the storage cannot keep it)
  const standing = () => chosen || readChoice(storage, tableOfPage()); // the standing answer at this table
  let answered = null; // { version, at }: the join prompt the standing choice answered
  let stayed = null; // { name, location }: the trip it stayed home from last, said beside the choice
  let zoomed = false; // the larger map (a narrow board)

  const mine = () => state && state.seat !== null && state.seat !== undefined;
  const myLegal = () => (mine() ? state.legal || [] : []);
  const C = () => model.catalog();
  const good = (g) => model.goodName(g, t);
  const place = (l) => model.locationName(l, t);
  const colourOf = (g) => (C().goods.get(g) ? C().goods.get(g).colour : 'none');

  function cube(g, extra = '') {
    return h('span', { class: ['cube', `mk-col--${colourOf(g)}`, extra], 'aria-hidden': 'true' });
  }
  function colourCube(colour, extra = '') {
    return h('span', { class: ['cube', `mk-col--${colour}`, extra], 'aria-hidden': 'true' });
  }

  function actButton(action, label, attrs = {}) {
    const busy = Boolean(state.busy);
    return h('button', {
      type: 'button', class: ['btn', attrs.class], 'aria-disabled': busy ? 'true' : null,
      'data-action': action.type, 'data-focus': focusKey(action),
      'aria-label': attrs.label || null, title: attrs.hint ? null : attrs.label || null, dataset: attrs.dataset || null,
      ...hints.attrs(attrs.hint),
      onclick: () => { if (!state.busy) onAction(action); },
    }, label);
  }

  /** The attributes of a place that a last move may have changed: the mark and who made it. */
  function mark(key, classes = []) {
    const m = marks.at(key);
    const props = markProps(m, classes);
    if (m) Object.assign(props, markBy(m, state.names, t), { title: model.lastMoveTitle(m.player, state.names, state.seat, t) });
    return props;
  }
  const markTitle = (key) => {
    const m = marks.at(key);
    return m ? model.lastMoveTitle(m.player, state.names, state.seat, t) : null;
  };
  /** The newest mark among `keys` (for a folded part: its summary carries the mark of what it hides). */
  function markAny(keys, classes = []) {
    const found = keys.map((k) => [k, marks.at(k)]).filter(([, m]) => m);
    if (!found.length) return { class: classes };
    const newest = found.find(([, m]) => m.latest) || found[0];
    return mark(newest[0], classes);
  }

  /** A part of the board that folds; stays open across renders once the reader opened it. */
  function fold(key, summary, content, { openByDefault = false, summaryAttrs = {}, cls = '' } = {}) {
    const isOpen = open.has(key) || (openByDefault && !open.has(`closed:${key}`));
    return h('details', {
      class: ['mk-fold', cls], 'data-fold': key, open: isOpen,
      ontoggle: (ev) => {
        const details = ev.currentTarget;
        const now = details.open;
        if (!details.mkSettled) { // the first toggle may be the one that rendering it open fires
          details.mkSettled = true;
          if (now === isOpen) return;
        }
        if (now) { open.add(key); open.delete(`closed:${key}`); } else { open.delete(key); open.add(`closed:${key}`); }
      },
    }, h('summary', summaryAttrs, summary), content);
  }

  function goodsList(goods, extra = '') {
    const ids = C().goodIds.filter((g) => goods[g] > 0);
    return h('span', { class: ['mk-goods', extra] }, ids.map((g) =>
      h('span', { class: 'mk-good', title: good(g) }, cube(g, 'cube--small'),
        goods[g] > 1 ? h('b', null, `${goods[g]}×`) : null, good(g))));
  }

  // ---- pieces ----

  function bar(v) {
    return h('div', { class: 'mk-bar' },
      h('span', { class: 'pill pill--day' }, t('merkator.turnNo', { turn: v.turn })),
      h('span', { class: 'pill' }, t('merkator.chart.remaining', { count: v.chart.remaining })),
      v.phase !== 'over' ? h('span', { class: 'pill mk-pawn-line', 'data-testid': 'pawn' }, pawnLine(C(), v, t)) : null,
      v.trigger && v.phase !== 'over' ? h('span', { class: 'pill pill--warn', 'data-testid': 'last-round' },
        v.last_round ? t('merkator.lastRound', { count: v.turns_left }) : t(`merkator.trigger.${v.trigger}`)) : null);
  }

  function steps(v) {
    if (v.phase === 'over') return null;
    const current = model.currentStep(v);
    const idx = model.STEPS.indexOf(current);
    return h('nav', { class: 'mk-steps', 'aria-label': model.stepsLabel(v, state.names, state.seat, t), 'data-testid': 'steps' },
      h('ol', null, model.STEPS.map((st, i) => h('li', {
        class: ['mk-step', st === current ? 'is-current' : '', i < idx ? 'is-done' : ''],
        'aria-current': st === current ? 'step' : null, 'data-step': st,
      }, h('span', { class: 'mk-step-no', 'aria-hidden': 'true' }, String(i + 1)), t(`merkator.step.${st}`)))));
  }

  function result(v) {
    if (v.phase !== 'over' || !v.result) return null;
    const winners = new Set(v.result.winners);
    const rows = (v.scoring && v.scoring.players) || [];
    return h('section', { class: 'mk-panel mk-result', 'aria-labelledby': 'mk-result-h', 'data-testid': 'result' },
      h('h2', { id: 'mk-result-h' }, t('merkator.result.heading')),
      h('p', { class: 'mk-winner' }, model.resultSentence(v.result, state.names, t)),
      h('ol', { class: 'ranking' }, v.result.ranking.map((r) =>
        h('li', { class: ['rank', winners.has(r.player) ? 'winner' : '', r.player === state.seat ? 'is-me' : ''] },
          h('span', { class: 'place' }, t('merkator.result.place', { rank: r.rank })),
          swatch(r.player, initial(state.names[r.player], r.player, t)),
          h('span', { class: 'rank-name' }, playerName(state.names, r.player, state.seat, t)),
          botMark(state.bots && state.bots[r.player]),
          h('span', { class: 'rank-money' }, t('merkator.points', { count: r.points }), ' · ', t('merkator.timeCount', { count: r.time }))))),
      h('p', { class: 'hint', id: 'mk-scoring-note' }, t('merkator.result.scoring')),
      h('div', { class: 'mk-table-wrap' },
        h('table', { class: 'mk-scoring', 'data-testid': 'scoring', 'aria-describedby': 'mk-scoring-note' },
          h('thead', null, h('tr', null,
            h('th', { scope: 'col' }, t('merkator.result.player')),
            h('th', { scope: 'col' }, t('merkator.result.contracts')),
            h('th', { scope: 'col' }, t('merkator.result.buildings')),
            h('th', { scope: 'col' }, t('merkator.result.total')),
            h('th', { scope: 'col' }, t('merkator.result.time')))),
          h('tbody', null, rows.map((row) => {
            const why = model.scoringLines(C(), v, row, t);
            return h('tr', { class: winners.has(row.player) ? 'winner' : '' },
              h('th', { scope: 'row' }, model.nameOf(state.names, row.player, t)),
              h('td', null, h('strong', null, String(row.contracts)),
                why.contracts ? h('small', { class: 'mk-why', 'data-testid': 'contracts-why', 'data-why': 'contracts' }, why.contracts) : null),
              h('td', null, h('strong', null, String(row.building_points)),
                why.buildings.map((line) => h('small', { class: 'mk-why', 'data-why': 'building' }, line))),
              h('td', null, h('strong', null, String(row.total)),
                h('small', { class: 'mk-why', 'data-why': 'total' }, why.total)),
              h('td', null, String(row.time)));
          })))));
  }

  function joinPrompt(v, allowed) {
    if (!allowed.join && !allowed.decline) return null;
    const cost = v.joining ? v.joining.cost : model.joinCost(C(), v.location);
    const me = v.seats[state.seat];
    const here = model.contractsHere(C(), v, state.seat);
    const bonus = me.bonus_cards.filter((b) => C().bonus.get(b) && C().bonus.get(b).location === v.location);
    return h('div', { class: 'mk-join', role: 'group', 'aria-labelledby': 'mk-join-h', 'data-testid': 'join-prompt' },
      h('h3', { id: 'mk-join-h', class: 'visually-hidden' }, t('merkator.join.heading', { name: model.nameOf(state.names, v.active, t), location: place(v.location) })),
      h('p', null, t('merkator.join.cost', { count: cost, time: me.time })),
      h('p', { class: 'hint' },
        here.length ? t('merkator.join.contracts', { count: here.length }) : t('merkator.join.noContracts'), ' ',
        bonus.length ? t('merkator.join.bonus', { count: bonus.length }) : ''),
      h('div', { class: 'buttons' },
        allowed.join ? actButton({ type: 'join' }, t('merkator.actions.join', { count: cost }), { class: 'primary', hint: model.joinHint(C(), v, state.seat, state.names, t) }) : null,
        allowed.decline ? actButton({ type: 'decline' }, t('merkator.actions.decline'), { hint: model.declineHint(t) }) : null),
      standingControl(v));
  }

  // ---- the standing answer to join prompts ----

  /** Whether the viewer's standing choice answers the join prompt now open with "Stay home". */
  function standingDeclines() {
    return mine() && Boolean(C()) && standingAnswer(standing(), C(), state.view, state.seat, myLegal()) === 'decline';
  }
  /** The join prompt the standing choice is answering (sent, not yet taken): no prompt is drawn meanwhile. */
  const answering = () => Boolean(answered) && answered.version === state.view.version
    && (Boolean(state.busy) || Date.now() - answered.at < ANSWER_WAIT_MS);

  /** Sends "Stay home" when the standing choice answers the prompt now open (once per position). */
  function answerByStanding() {
    if (state.busy || state.offline || !standingDeclines()) return;
    const v = state.view;
    if (answered && answered.version === v.version) return;
    answered = { version: v.version, at: Date.now() };
    stayed = { name: model.nameOf(state.names, v.active, t), location: place(v.location) };
    // Once this update has drawn (the table draws again from inside onAction).
    queueMicrotask(() => {
      if (!alive || !state || state.view.version !== answered.version || state.busy || !standingDeclines()) return;
      standingSent = { seat: state.seat, until: Date.now() + 15000 };
      onAction({ type: 'decline' });
    });
    // Refused (the position moved on meanwhile, or the connection failed): the prompt comes back, to answer by hand.
    setTimeout(() => { if (alive && state) refresh(); }, ANSWER_WAIT_MS + 50);
  }

  function setStanding(next) {
    if (!JOIN_CHOICES.includes(next)) return;
    chosen = next;
    saveChoice(storage, tableOfPage(), next);
    answered = null; // the new choice may answer the prompt open now
    answerByStanding();
    refresh();
  }

  /** "Other merchants' trips: [Always ask ▾]", and the trip it last stayed home from. */
  function standingControl(v) {
    if (!mine() || v.phase === 'over') return null;
    const now = standing();
    return h('div', { class: 'mk-standing', 'data-testid': 'standing' },
      h('label', { for: 'mk-standing-choice' }, t('merkator.standing.label')),
      h('select', {
        id: 'mk-standing-choice', 'data-focus': 'standing-choice', ...hints.attrs(t('merkator.standing.hint')),
        onchange: (ev) => setStanding(ev.currentTarget.value),
      }, JOIN_CHOICES.map((x) => h('option', { value: x, selected: x === now }, t(`merkator.standing.${x}`)))),
      stayed ? h('p', { class: 'mk-stayed', 'data-testid': 'stayed' }, t('merkator.standing.stayed', stayed)) : null);
  }

  function travelLabel(l) {
    const loc = C().locations.get(l);
    const cubes = model.isMajor(C(), l) ? t('merkator.map.cubes', { count: state.view.cubes[l] || 0 }) : t('merkator.map.minorShort');
    return t('merkator.actions.travelTo', {
      location: place(l), cubes, time: loc.time > 0 ? t('merkator.time.gain', { count: loc.time }) : loc.time < 0 ? t('merkator.time.pay', { count: -loc.time }) : t('merkator.time.free'),
    });
  }

  /** The places the viewer may travel to now: location → { action, label } (for the map). */
  function travelTargets() {
    return new Map(model.legalActions(myLegal(), C()).travel.map((l) => [l, {
      action: { type: 'travel', location: l }, label: travelLabel(l), hint: hints.attrs(model.travelHint(C(), state.view, state.seat, l, t)),
    }]));
  }

  function actions(v) {
    if (!mine()) return null; // spectators: no controls at all
    const legal = myLegal();
    if (legal.length === 0 || v.phase === 'over') return null;
    if (answering()) return null; // the standing choice is staying home: nothing to decide
    const c = C();
    const allowed = model.legalActions(legal, c);
    const busy = Boolean(state.busy);
    const me = v.seats[state.seat];
    const body = [];
    const group = (title, ...content) => h('div', { class: 'mk-group', role: 'group', 'aria-label': title },
      h('h3', null, title), content);
    const finish = [];

    body.push(joinPrompt(v, allowed));
    const invest = [];
    if (allowed.sell.length) {
      invest.push(group(t('merkator.actions.sell'),
        !allowed.endInvestment
          ? h('p', { class: 'hint mk-warn' }, t('merkator.actions.mustSell')) : null,
        h('div', { class: 'buttons' }, allowed.sell.map((id) =>
          actButton({ type: 'sell', contract: id }, t('merkator.actions.sellContract', { contract: model.contractName(id, t), count: c.contracts.get(id).value }),
            { class: 'small', dataset: { contract: id }, hint: model.sellHint(c, v, state.seat, id, t) })))));
    }
    const buyable = allowed.buyBonus.length + allowed.buyBuilding.length;
    if (buyable) {
      invest.push(group(t('merkator.actions.buy', { coins: me.coins }),
        h('div', { class: 'buttons' },
          allowed.buyBonus.map((id) => actButton({ type: 'buy', card: id },
            t('merkator.actions.buyCard', { card: model.bonusName(id, t), count: c.bonus.get(id).cost }), { class: 'small', dataset: { card: id }, hint: model.buyHint(c, v, state.seat, id, t) })),
          allowed.buyBuilding.map((id) => actButton({ type: 'buy', card: id },
            t('merkator.actions.buyCard', { card: model.buildingName(id, t), count: c.buildings.get(id).cost }), { class: 'small', dataset: { card: id }, hint: model.buyHint(c, v, state.seat, id, t) })))));
    }
    // Selling and buying are optional most turns: folded, unless selling is forced now.
    if (invest.length) {
      body.push(fold('invest', t('merkator.actions.invest', { sell: allowed.sell.length, count: buyable, coins: me.coins }), invest,
        { openByDefault: !allowed.endInvestment, cls: 'mk-group' }));
    }
    if (allowed.endInvestment) {
      finish.push(actButton({ type: 'end_investment' }, me.coins > c.maxCoins
        ? t('merkator.actions.endInvestmentLose', { count: me.coins - c.maxCoins }) : t('merkator.actions.endInvestment'), { class: 'primary', hint: model.endInvestmentHint(c, v, state.seat, t) }));
    }
    if (allowed.travel.length) {
      body.push(group(t('merkator.actions.travelOrMap'),
        h('div', { class: 'buttons mk-travel' }, allowed.travel.map((l) => {
          const loc = c.locations.get(l);
          return actButton({ type: 'travel', location: l }, [
            loc.colour ? colourCube(loc.colour, 'cube--small') : h('span', { class: 'mk-minor-dot', 'aria-hidden': 'true' }),
            place(l), h('small', { class: 'mk-time' }, signed(loc.time)),
          ], { class: 'small', dataset: { location: l, time: String(loc.time) }, hint: model.travelHint(c, v, state.seat, l, t) });
        }))));
    }
    if (allowed.take.size) {
      const n = v.take ? v.take.cubes : 0;
      const options = [];
      const seen = new Set();
      for (const [g, counts] of allowed.take) {
        const other = (c.colours.get(colourOf(g)).goods || []).find((x) => x !== g);
        for (const k of counts) {
          const split = { [g]: k };
          if (n - k > 0) split[other] = n - k;
          const key = c.goodIds.map((x) => split[x] || 0).join('/');
          if (seen.has(key)) continue;
          seen.add(key);
          // Named by what it shows (the goods); the hint says it in words.
          options.push(actButton({ type: 'take', good: g, count: k }, goodsList(split), { class: 'small', hint: model.takeHint(split, t) }));
        }
      }
      body.push(group(t('merkator.actions.take', { count: n }), h('div', { class: 'buttons' }, options)));
    }
    if (allowed.keepLetter || allowed.nextLetter) {
      body.push(group(t('merkator.actions.letter', { letter: v.letter }),
        h('p', { class: 'hint' }, t('merkator.actions.letterHint')),
        h('div', { class: 'buttons' },
          allowed.keepLetter ? actButton({ type: 'keep_letter' }, t('merkator.actions.keepLetter', { letter: v.letter }), { hint: model.keepLetterHint(v, t) }) : null,
          allowed.nextLetter ? actButton({ type: 'next_letter' }, t('merkator.actions.nextLetter', { row: (v.next_row ?? 0) + 1 }), { hint: model.nextLetterHint(v, t) }) : null)));
    }
    if (allowed.discard.length) {
      body.push(group(t('merkator.actions.discard', { count: v.loss ? v.loss.need[state.seat] : 1, column: v.loss ? v.loss.column : '' }),
        h('div', { class: 'buttons' }, allowed.discard.map((g) =>
          actButton({ type: 'discard', good: g }, [cube(g), t('merkator.actions.discardGood', { good: good(g), count: me.goods[g] })], { class: 'small', hint: model.discardHint(v, state.seat, g, t) })))));
    }
    if (allowed.fulfil.length) {
      body.push(group(t('merkator.actions.fulfil', { location: place(v.location) }),
        h('div', { class: 'buttons' }, allowed.fulfil.map((id) =>
          actButton({ type: 'fulfil', contract: id }, t('merkator.actions.fulfilContract', { contract: model.contractName(id, t) }),
            { class: 'primary small', dataset: { contract: id }, hint: model.fulfilHint(c, v, state.seat, id, t) })))));
    }
    if (allowed.trade.size) {
      const here = model.contractsHere(c, v, state.seat);
      const missing = {};
      for (const id of here) Object.assign(missing, model.missingGoods(c, me, id));
      body.push(group(t('merkator.actions.trade'),
        h('p', { class: 'hint' }, Object.keys(missing).length ? t('merkator.actions.tradeMissing', { goods: model.goodsText(missing, t) }) : t('merkator.actions.tradeHint')),
        [...allowed.trade].map(([give, gets]) => h('div', { class: 'mk-row' },
          h('span', { class: 'mk-row-label' }, give === 'time' ? t('merkator.actions.giveTime') : [cube(give), t('merkator.actions.giveGood', { good: good(give) })]),
          h('div', { class: 'buttons' }, gets.map((g) => actButton({ type: 'trade', give, good: g }, [cube(g), good(g)], {
            class: ['small', missing[g] ? 'is-wanted' : ''].join(' '),
            label: give === 'time' ? t('merkator.actions.tradeTime', { good: good(g) }) : t('merkator.actions.tradeGood', { give: good(give), good: good(g) }),
            hint: model.tradeHint(v, state.seat, give, g, t),
          })))))));
    }
    if (allowed.done) finish.push(actButton({ type: 'done' }, t('merkator.actions.done'), { class: allowed.fulfil.length ? '' : 'primary', hint: model.doneHint(t) }));
    if (finish.length) body.push(h('div', { class: 'buttons mk-finish' }, finish));
    if (allowed.supply.length) {
      body.push(fold('supply', t('merkator.actions.supply'), [
        h('p', { class: 'hint' }, t('merkator.actions.supplyHint')),
        h('div', { class: 'buttons' }, allowed.supply.map((g) =>
          actButton({ type: 'supply', good: g }, [cube(g), good(g)], { class: 'small', label: t('merkator.actions.supplyGood', { good: good(g) }), hint: model.supplyHint(g, t) })))],
      { cls: 'mk-group mk-supply-use' }));
    }
    return h('section', {
      class: ['mk-card', 'mk-actions', busy ? 'is-busy' : ''], 'aria-labelledby': 'mk-actions-h', 'aria-busy': busy ? 'true' : 'false',
      'data-testid': 'actions', 'data-decision': true,
    },
    h('div', { class: 'mk-actions-head' },
      h('h2', { id: 'mk-actions-h' }, t('merkator.actions.heading')),
      h('p', { class: 'mk-your-status', 'data-testid': 'status' }, model.statusText(v, state.names, state.seat, t))),
      body,
      busy ? h('p', { class: 'hint', role: 'status' }, state.offline ? t('conn.reconnectingNow') : t('table.busy')) : null);
  }

  function map(v) {
    const zoom = {
      on: zoomed, hint: hints.attrs(t('merkator.map.zoomHint')),
      toggle: () => {
        zoomed = !zoomed;
        refresh();
        if (zoomed) centreMap();
      },
    };
    return mapView({ c: C(), v, t, targets: travelTargets(), act: onAction, busy: Boolean(state.busy), mark, markTitle, zoom });
  }

  /** The larger map slid so that the pawn (else the middle) is in view. */
  function centreMap() {
    const scroller = el.querySelector('.mk-map-scroll');
    const at = el.querySelector('.mk-map .mk-pawn');
    if (!scroller) return;
    const box = scroller.getBoundingClientRect();
    if (at) {
      const r = at.getBoundingClientRect();
      scroller.scrollLeft += (r.left + r.width / 2) - (box.left + box.width / 2);
    } else {
      scroller.scrollLeft = (scroller.scrollWidth - scroller.clientWidth) / 2;
    }
  }

  function chart(v) {
    const c = C();
    return h('div', { ...mark('chart', ['mk-chart']) },
      h('ol', { class: 'mk-chart-rows', 'data-testid': 'chart' }, v.chart.rows.map((row, r) => {
        const cells = [];
        for (let i = 0; i < c.rowLength; i++) {
          const filled = i >= c.rowLength - row.count;
          const letter = row.known[String(i)];
          cells.push(h('span', { class: ['mk-counter', filled ? 'is-there' : 'is-gone', letter ? 'is-known' : '', v.next_row === r && i === c.rowLength - row.count ? 'is-next' : ''], 'aria-hidden': 'true' }, letter || ''));
        }
        const known = Object.values(row.known);
        return h('li', { class: ['mk-chart-row', row.count === 0 ? 'is-empty' : ''] },
          h('span', { class: 'visually-hidden' }, t('merkator.chart.row', { row: r + 1, count: row.count }), known.length ? ` ${t('merkator.chart.known', { list: known.join(t('common.listSeparator')) })}` : ''),
          h('span', { class: 'mk-row-no', 'aria-hidden': 'true' }, String(r + 1)), cells);
      })),
      v.letter ? h('p', { class: 'mk-letter' }, t('merkator.chart.letter', { letter: v.letter, column: model.letterInfo(v.letter).column })) : null,
      h('p', { class: 'hint' }, t('merkator.chart.hint')));
  }

  function contractCard(id, seat, p, allowedHere) {
    const c = C();
    const k = c.contracts.get(id);
    if (!k) return h('li', { class: 'mk-contract' }, id);
    const here = v0().location && k.destination === v0().location && !seat.fulfilled.includes(id);
    const can = allowedHere.has(id);
    const done = seat.fulfilled.includes(id);
    return h('li', { ...mark(`contract:${id}`, ['mk-contract', here ? 'is-here' : '', can ? 'is-ready' : '', done ? 'is-done' : '']), 'data-contract': id },
      h('span', { class: 'mk-value' }, String(k.value)),
      h('span', { class: 'mk-dest' }, k.destination ? place(k.destination) : t('merkator.contract.peaceShort')),
      Object.keys(k.goods).length ? goodsList(k.goods, 'mk-need') : null,
      can ? h('span', { class: 'badge badge--turn' }, t('merkator.contract.ready'))
        : here ? h('span', { class: 'badge' }, t('merkator.contract.here')) : null,
      done ? h('span', { class: 'badge' }, t('merkator.contract.fulfilled')) : null);
  }

  const v0 = () => state.view;

  function office(seat, p) {
    const c = C();
    return h('ul', { ...mark(`office:${p}`, ['mk-office']), 'data-testid': 'office' }, c.columns.map((col) => h('li', { class: ['mk-col', `mk-area--${col.area}`] },
      h('span', { class: 'mk-col-id', title: t(`merkator.area.${col.area === 'depot' ? 'depot' : 'storage'}`) }, col.id),
      col.goods.map((g) => h('span', { class: ['mk-col-good', seat.goods[g] ? '' : 'is-zero'] },
        cube(g, 'cube--small'), good(g), ' ', h('b', null, String(seat.goods[g] || 0)))))));
  }

  /** Every key of a merchant's board (the fold of another merchant shows the newest mark among them). */
  function seatKeys(seat, p) {
    return [`seat:${p}`, `office:${p}`, `supply:${p}`, `coins:${p}`, `time:${p}`,
      ...seat.contracts.map((id) => `contract:${id}`), ...seat.bonus_cards.map((id) => `card:${id}`), ...seat.buildings.map((id) => `card:${id}`)];
  }

  function stats(seat, p) {
    return [
      h('span', { ...mark(`coins:${p}`, ['mk-stat']), title: t('merkator.seat.coins') }, h('span', { class: 'coin', 'aria-hidden': 'true' }), h('span', { 'data-testid': 'coins' }, t('merkator.coins', { count: seat.coins }))),
      h('span', { ...mark(`time:${p}`, ['mk-stat']), title: t('merkator.seat.time') }, h('span', { class: 'mk-hourglass', 'aria-hidden': 'true' }), h('span', { 'data-testid': 'time' }, t('merkator.timeCount', { count: seat.time }))),
    ];
  }

  /** One merchant's board: the viewer's own (or, for spectators, the traveller's) beside the map, the others folded. */
  function seatCard(v, p, legalFulfil) {
    const c = C();
    const seat = v.seats[p];
    const name = model.nameOf(state.names, p, t);
    const deciding = v.phase !== 'over' && model.toMove(v).includes(p);
    const connected = !state.connected || state.connected[p] !== false;
    const supply = c.colourIds.filter((col) => seat.supply[col] > 0);
    const supplyCount = supply.reduce((n, col) => n + seat.supply[col], 0);
    const held = seat.contracts.length;
    return h('article', {
      class: ['mk-seat', `p${p}`, p === state.seat ? 'is-me' : '', deciding ? 'is-turn' : ''],
      'aria-label': t('merkator.seat.label', { name }), 'data-seat': String(p),
    },
    h('header', mark(`seat:${p}`),
      swatch(p, initial(state.names[p], p, t)),
      h('h3', null, playerName(state.names, p, state.seat, t)),
      stats(seat, p)),
    h('div', { class: 'badges' },
      v.active === p && v.phase !== 'over' ? h('span', { class: 'badge badge--turn' }, t('merkator.seat.active')) : null,
      deciding && v.active !== p ? h('span', { class: 'badge badge--turn' }, t('merkator.seat.deciding')) : null,
      v.start_player === p ? h('span', { class: 'badge' }, t('merkator.seat.startPlayer')) : null,
      !connected ? h('span', { class: 'badge badge--off' }, t('table.seat.disconnected')) : null),
    h('h4', null, t('merkator.seat.office', { count: model.goodsCount(seat) })),
    office(seat, p),
    h('h4', null, t('merkator.seat.contracts', { count: held, points: model.contractPoints(c, seat.contracts) })),
    held ? h('ul', { class: 'mk-contracts', 'data-testid': 'contracts' }, seat.contracts.map((id) => contractCard(id, seat, p, p === state.seat ? legalFulfil : new Set())))
      : h('p', { class: 'hint' }, t('merkator.seat.noContracts')),
    fold(`supply-tile-${p}`, t('merkator.seat.supplyCount', { count: supplyCount }),
      supply.length ? h('p', { class: 'mk-supply' }, supply.map((col) => h('span', { class: 'mk-good', title: listGoods(col) }, colourCube(col, 'cube--small'), seat.supply[col] > 1 ? `${seat.supply[col]}×` : '', listGoods(col))))
        : h('p', { class: 'hint' }, t('merkator.seat.supplyEmpty')),
    { cls: 'mk-supply-tile', summaryAttrs: mark(`supply:${p}`) }),
    seat.bonus_cards.length || seat.buildings.length
      ? h('ul', { class: 'mk-chips', 'aria-label': t('merkator.seat.cards') },
        seat.bonus_cards.map((b) => h('li', { ...mark(`card:${b}`, ['mk-chip', 'mk-chip--bonus']), title: bonusHelp(b) }, model.bonusName(b, t))),
        seat.buildings.map((b) => h('li', { ...mark(`card:${b}`, ['mk-chip', 'mk-chip--building']), title: buildingHelp(b), 'data-building': b },
          model.buildingName(b, t), ' ', h('small', { class: 'mk-now' },
            v.phase === 'over' ? '' : t('merkator.seat.buildingNow', { count: model.buildingPoints(c, v, b, p) })))))
      : h('p', { class: 'hint' }, t('merkator.seat.noCards')));
  }

  /** Another merchant, folded: the summary says the essentials and carries the mark of their last move. */
  function seatFold(v, p) {
    const seat = v.seats[p];
    return fold(`seat-${p}`, [
      swatch(p, initial(state.names[p], p, t)),
      h('span', { class: 'mk-fold-name' }, playerName(state.names, p, state.seat, t)),
      h('span', { class: 'mk-fold-facts' }, [t('merkator.coins', { count: seat.coins }), t('merkator.timeCount', { count: seat.time }),
        t('merkator.fold.goods', { count: model.goodsCount(seat) }), t('merkator.fold.contracts', { count: seat.contracts.length })].join(' · ')),
    ], seatCard(v, p, new Set()), { summaryAttrs: markAny(seatKeys(seat, p)), cls: `mk-fold--seat p${p}` });
  }

  const listGoods = (col) => model.listText((C().colours.get(col).goods || []).map(good), t);
  function bonusHelp(id) {
    const b = C().bonus.get(id);
    return b ? t('merkator.bonusHelp', { location: place(b.location), good: good(b.good), active: b.active, joiner: b.joiner }) : '';
  }
  const buildingHelp = (id) => model.buildingText(id, t, C());

  function market(v) {
    const c = C();
    return h('div', { class: 'mk-market' },
      h('h3', null, t('merkator.market.bonus', { count: v.bonus_pile_count })),
      h('ul', { class: 'mk-offer', 'data-testid': 'bonus-display' }, v.bonus_display.map((id) => {
        const b = c.bonus.get(id);
        return h('li', { ...mark(`offer:${id}`, ['mk-offer-card', 'mk-chip--bonus']), 'data-card': id },
          h('span', { class: 'mk-offer-head' }, h('strong', null, model.bonusName(id, t)), h('span', { class: 'price' }, h('span', { class: 'coin coin--small', 'aria-hidden': 'true' }), t('merkator.cost', { count: b ? b.cost : 0 }))),
          h('span', { class: 'mk-offer-text' }, bonusHelp(id)));
      })),
      h('h3', null, t('merkator.market.buildings', { count: v.building_pile_count })),
      h('ul', { class: 'mk-offer', 'data-testid': 'building-display' }, v.building_display.map((id) => {
        const b = c.buildings.get(id);
        return h('li', { ...mark(`offer:${id}`, ['mk-offer-card', 'mk-chip--building']), 'data-card': id },
          h('span', { class: 'mk-offer-head' }, h('strong', null, model.buildingName(id, t)), h('span', { class: 'price' }, h('span', { class: 'coin coin--small', 'aria-hidden': 'true' }), t('merkator.cost', { count: b ? b.cost : 0 }))),
          h('span', { class: 'mk-offer-text' }, buildingHelp(id)),
          b && b.sole_player ? h('span', { class: 'badge' }, t('merkator.market.sole')) : null);
      })),
      h('h3', null, t('merkator.market.piles')),
      h('ul', { ...mark('piles', ['mk-piles']) }, v.contract_piles.map((pile) => h('li', { class: ['mk-pile', pile.count ? '' : 'is-empty'] },
        h('span', { class: 'mk-value' }, String(pile.value)),
        h('span', null, t('merkator.market.pile', { count: pile.count })),
        pile.top ? h('small', { class: 'muted' }, c.contracts.get(pile.top) && c.contracts.get(pile.top).destination ? place(c.contracts.get(pile.top).destination) : '') : null))),
      v.discards.length ? h('p', { class: 'hint' }, t('merkator.market.discards', { count: v.discards.length })) : null);
  }

  /** What folds below the board: the other merchants, the cards on offer and the piles, the time chart. */
  function more(v, focus) {
    const others = v.seats.map((_, p) => p).filter((p) => p !== focus);
    const offerKeys = [...v.bonus_display, ...v.building_display].map((id) => `offer:${id}`);
    return h('section', { class: 'mk-more', 'aria-labelledby': 'mk-more-h' },
      h('h2', { id: 'mk-more-h', class: 'visually-hidden' }, t('merkator.more')),
      h('div', { class: 'mk-folds' },
        others.map((p) => seatFold(v, p)),
        fold('market', [h('span', { class: 'mk-fold-name' }, t('merkator.market.heading')),
          h('span', { class: 'mk-fold-facts' }, t('merkator.fold.market', { count: v.bonus_display.length + v.building_display.length }))],
        market(v), { summaryAttrs: markAny([...offerKeys, 'piles']) }),
        fold('chart', [h('span', { class: 'mk-fold-name' }, t('merkator.chart.heading')),
          h('span', { class: 'mk-fold-facts' }, t('merkator.chart.remaining', { count: v.chart.remaining }))],
        chart(v), { summaryAttrs: markAny(['chart']) })));
  }

  function render() {
    const v = state.view;
    el.dataset.version = String(v.version);
    el.dataset.phase = v.phase;
    el.dataset.seat = mine() ? String(state.seat) : 'spectator';
    if (!C()) {
      replace(el, h('p', { class: failed ? 'banner banner--warn' : 'hint', role: 'status' }, t(failed ? 'merkator.dataFailed' : 'merkator.dataLoading')));
      return;
    }
    // Beside the map: the viewer's own board; a spectator's is the traveller's.
    const focus = mine() ? state.seat : Number.isInteger(v.active) ? v.active : 0;
    hints.begin();
    const panel = actions(v);
    const prompted = Boolean(panel && panel.querySelector('[data-testid=join-prompt]'));
    const legalFulfil = new Set(model.legalActions(myLegal(), C()).fulfil);
    // the larger map keeps where it was slid to
    const slid = el.querySelector('.mk-map-scroll');
    const left = slid ? slid.scrollLeft : 0;
    replace(el,
      h('div', { class: 'mk-head' }, bar(v), steps(v)),
      result(v),
      h('div', { class: ['mk-main', panel ? 'has-panel' : ''] },
        map(v),
        panel || h('p', { class: 'mk-status', 'data-testid': 'status' }, model.statusText(v, state.names, state.seat, t)),
        h('div', { class: 'mk-side' }, prompted ? null : standingControl(v), mapKey({ c: C(), t })),
        h('section', { class: 'mk-own', 'aria-label': t('merkator.seats.heading') }, seatCard(v, focus, legalFulfil))),
      more(v, focus),
      hints.layer());
    const again = el.querySelector('.mk-map-scroll');
    if (again && left) again.scrollLeft = left;
  }

  function refresh() {
    hadTurn = renderForTurn(el, render, {
      turn: myLegal().length > 0 && !state.busy && !answering(), hadTurn, busy: state.busy,
      first: ['[data-action]'], fallback: ['[data-action]', '.mk-bar'],
    });
  }

  loadData().then(() => {
    if (alive && state) {
      answerByStanding();
      refresh();
    }
  }, (err) => {
    console.error('emporium: Merkator data', err);
    failed = true;
    if (alive && state) render();
  });

  return {
    update(next) {
      state = next;
      answerByStanding();
      refresh();
    },
    onEvents(events) {
      noteEvents(marks, moves, events, state && state.view ? state.view.active : null);
    },
    destroy() {
      alive = false;
      el.remove();
    },
  };
}

export default {
  id: 'merkator',
  // what the model needs before it applies any events: the data file (true once installed, false if it failed)
  ready: () => loadData().then(() => true, () => false),
  nameKey: 'merkator.name',
  strings, // its English strings; the other languages' are loaded by the registry
  cardArt: 4, // the boxes of its picture on the lobby's card (board.css, .game-art--merkator)
  layout: 'wide', // the map takes the page's width beside the move panel and the viewer's board; the side panels go below
  model: {
    applyEvents: model.applyEvents,
    describeEvent, // model.describeEvent, and "You stayed home (your standing choice)" for the standing choice's answer
    toMove: model.toMove,
    isOver: model.isOver,
    statusText: model.statusText,
    seatScore: model.seatScore,
  },
  createBoard,
};
