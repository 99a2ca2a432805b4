// The Maritime Silk Road board: renders the view (games/silkroad/model.js has the rules-free
// logic) and the controls that the `legal` list allows, nothing else. Same shape as the Medici
// board: createBoard(root, ctx) returns { update(state), onEvents(events), destroy() } where state
// is { view, legal, seat (null for spectators), names, connected, busy }.
// What is shown is what the view holds: other seats' hands and coins are null in the view until
// the end (coins) or for ever (hands), so they cannot appear. Spectators get no controls at all.
import * as model from './model.js';
import strings from './i18n/en.js';
import { h, replace, keepFocus, renderForTurn } from '../../js/core/dom.js';
import { initial, swatch, playerName, createHints, markBy } from '../board-parts.js';
import { botMark } from '../../js/ui/bot-mark.js';
import { createLastMoves, markProps } from '../../js/models/last-moves.js';

const { GOODS, CARDS } = model;

/** A marker cube of one good (decorative: the text next to it says which). */
function cube(good, extra = '') {
  return h('span', { class: ['cube', `good--${good}`, extra], 'aria-hidden': 'true' });
}

/** A marker cube that also carries its good's letters (where no words stand next to it: the ships). */
function letteredCube(good, t) {
  return h('span', { class: ['cube', 'cube--lettered', `good--${good}`], 'aria-hidden': 'true' }, t(`silkroad.goodShort.${good}`));
}

/** A stable key for an action's control, to keep the keyboard focus across re-renders. */
function focusKey(action) {
  return [action.type, action.card, action.ship, action.good, action.slot].filter((x) => x !== undefined).join('-');
}

function createBoard(root, { t, onAction }) {
  let state = null;
  let chosenGood = null; // the good picked for playing, kept across re-renders
  let hadTurn = false;
  // A player's last move is their whole turn (or one marker while loading): the first place of a
  // turn replaces their old mark, the later ones of the same turn join it.
  const marks = createLastMoves();
  const turnStarted = new Set();
  const el = h('div', { class: 'silkroad' });
  root.append(el);
  const hints = createHints(el, 'sr');

  const mine = () => state && state.seat !== null && state.seat !== undefined;
  const myLegal = () => (mine() ? state.legal || [] : []);
  const goodName = (g) => model.goodText(g, t);
  // a good named on its own (a button, a card): capitalised like the cards, "Porcelain" (in a sentence: goodName)
  const goodTitle = (g) => t(`silkroad.goodTitle.${g}`);

  /** h() attributes for a place that may carry a last-move mark: the mark's classes, and its words
   *  added to the title and the accessible name (`attrs` may hold the place's own). */
  function marked(key, own, attrs = {}) {
    const mark = marks.at(key);
    const props = markProps(mark, own);
    if (!mark) return { ...attrs, ...props };
    const note = t('common.lastMove', { name: model.nameOf(state.names, mark.player, t) });
    const join = (a, sep) => (a ? `${a}${sep}${note}` : null);
    return { ...attrs, ...props, ...markBy(mark, state.names, t), title: join(attrs.title, ' — ') || note, 'aria-label': join(attrs['aria-label'], '; ') };
  }

  function actButton(action, label, attrs = {}) {
    const busy = Boolean(state.busy);
    return h('button', {
      type: 'button', class: ['btn', attrs.class], 'aria-disabled': busy ? 'true' : null,
      'data-action': attrs.kind || action.type, 'data-focus': attrs.focus || focusKey(action),
      'aria-label': attrs.label || null, title: attrs.label || null,
      dataset: attrs.dataset || null, ...hints.attrs(attrs.hint),
      onclick: () => { if (!state.busy) onAction(action); },
    }, label);
  }

  function goodButton(action, good, label, kind, hint) {
    return actButton(action, [cube(good), goodTitle(good)], { class: `btn-good good-${good}`, label, kind, hint, dataset: { good } });
  }

  /** An exchange shows the good that comes onto the ship (its row names the ship and what it gives back, its
   *  name and hint say both), so that the choices make a grid of ships by goods, short in every language. */
  function exchangeButton(ship, from, good) {
    const words = { ship: ship + 1, from: goodName(from), good: goodName(good) };
    return actButton({ type: 'exchange', ship, good },
      [cube(good), goodTitle(good)],
      { class: `btn-good btn-exchange good-${good}`, label: t('silkroad.actions.exchangeTo', words), dataset: { good, from, ship: String(ship) },
        hint: model.exchangeHint(state.view, state.seat, ship, good, t) });
  }

  // ---- pieces ----

  /** The viewer has a move panel now (it then says what to do; the bar does not repeat it). */
  const ownPanel = (v) => mine() && myLegal().length > 0 && v.phase !== 'over';

  function bar(v) {
    const s = model.statusBar(v, state.names, state.seat, t, { ownPanel: ownPanel(v) });
    return [
      h('div', { class: 'sr-bar', tabindex: '-1', 'data-testid': 'status-bar' },
        h('span', { class: 'pill pill--day', 'data-testid': 'stage' }, s.stage),
        s.phase ? h('span', { class: 'pill', 'data-testid': 'phase' }, s.phase) : null,
        h('span', { class: 'pill', 'data-testid': 'deck' }, h('span', { class: 'deck-icon', 'aria-hidden': 'true' }), t('silkroad.deck', { count: v.deck_count }))),
      s.line ? h('p', { class: 'sr-status', 'data-testid': 'status-line' }, s.line) : null,
      marks.latestPlayer() !== null ? h('p', { class: 'hint sr-legend' }, h('span', { class: 'sr-legend-mark', 'aria-hidden': 'true' }), t('silkroad.lastMoveLegend')) : null,
    ];
  }

  function result(v) {
    if (v.phase !== 'over' || !v.result) return null;
    const winners = new Set(v.result.winners);
    return h('section', { class: 'sr-panel sr-result', 'aria-labelledby': 'sr-result-h', 'data-testid': 'result' },
      h('h2', { id: 'sr-result-h' }, t('silkroad.result.heading')),
      h('p', { class: 'sr-winner' }, model.resultSentence(v.result, state.names, t)),
      h('p', { class: 'hint' }, t('silkroad.result.note')),
      h('ol', { class: 'ranking' }, v.result.ranking.map((r) =>
        h('li', { class: ['rank', winners.has(r.player) ? 'winner' : '', r.player === state.seat ? 'is-me' : ''] },
          h('span', { class: 'place' }, t('silkroad.result.place', { rank: r.rank })),
          swatch(r.player, initial(state.names[r.player], r.player, t)),
          h('span', { class: 'rank-name' }, playerName(state.names, r.player, state.seat, t)),
          botMark(state.bots && state.bots[r.player]),
          h('span', { class: 'rank-money', 'data-testid': 'result-coins' }, t('silkroad.coins', { count: r.coins })),
          (() => {
            const b = model.finalBreakdown(v, r.player);
            return b ? h('small', { class: 'rank-breakdown', 'data-testid': 'result-breakdown' }, model.breakdownText(b, t)) : null;
          })()))));
  }

  /** The good to play: the one in play, else the one picked, else the first playable. */
  function playGood(v, allowed) {
    if (allowed.play.size === 0) return null;
    if (v.played_good && allowed.play.has(v.played_good)) return v.played_good;
    if (chosenGood && allowed.play.has(chosenGood)) return chosenGood;
    return allowed.play.keys().next().value;
  }

  function actions(v) {
    if (!mine()) return null; // spectators: no controls at all
    const legal = myLegal();
    if (legal.length === 0 || v.phase === 'over') return null;
    const allowed = model.legalActions(legal);
    const busy = Boolean(state.busy);
    const me = v.seats[state.seat];
    const body = [];
    const group = (title, ...content) => h('div', { class: 'sr-group', role: 'group', 'aria-label': title },
      h('h3', null, title), content);

    if (allowed.load.length) {
      const ship = me.ships.length + 1;
      body.push(group(t('silkroad.actions.load', { ship }),
        h('div', { class: 'buttons' }, allowed.load.map((g) =>
          goodButton({ type: 'load', good: g }, g, t('silkroad.actions.loadGood', { good: goodName(g) }), undefined, model.loadHint(v, state.seat, g, t))))));
    }
    if (allowed.exchange.size) {
      body.push(group(t('silkroad.actions.exchange'),
        [...allowed.exchange].map(([ship, goods]) => h('div', { class: 'sr-row sr-exchange' },
          h('span', { class: 'sr-row-label' }, cube(me.ships[ship]), t('silkroad.actions.exchangeShip', { ship: ship + 1, good: goodName(me.ships[ship]) })),
          h('div', { class: 'sr-exchange-goods' }, goods.map((g) => exchangeButton(ship, me.ships[ship], g)))))));
    }
    if (allowed.buyShip.length || allowed.buy.length) {
      body.push(group(t('silkroad.actions.buy'),
        allowed.buyShip.length ? h('div', { class: 'sr-row' },
          h('span', { class: 'sr-row-label' }, t('silkroad.actions.buyShip', { cost: v.costs.ship })),
          h('div', { class: 'buttons' }, allowed.buyShip.map((g) => goodButton({ type: 'buy', card: 'ship', good: g }, g,
            t('silkroad.actions.buyShipGood', { good: goodName(g) }), 'buy-ship', model.buyShipHint(v, state.seat, g, t))))) : null,
        allowed.buy.length ? h('div', { class: 'buttons' }, allowed.buy.map((c) =>
          actButton({ type: 'buy', card: c }, t('silkroad.actions.buyCard', { card: model.cardText(c, t), cost: v.costs[c] }), {
            class: `btn-card card-${c}`, dataset: { card: c },
            label: t('silkroad.actions.buyCardLabel', { card: model.cardText(c, t), cost: v.costs[c], help: t(`silkroad.cardHelp.${c}`) }),
            hint: model.buyCardHint(v, state.seat, c, t),
          }))) : null));
    }
    if (allowed.play.size) {
      const good = playGood(v, allowed);
      body.push(group(t('silkroad.actions.play'),
        v.played_good ? null : h('div', { class: 'buttons sr-choose', role: 'group', 'aria-label': t('silkroad.actions.playGood') },
          [...allowed.play.keys()].map((g) => h('button', {
            type: 'button', class: ['btn', 'btn-good', `good-${g}`, g === good ? 'is-chosen' : ''],
            'aria-pressed': g === good ? 'true' : 'false', 'data-choose': g, 'data-focus': `choose-${g}`,
            ...hints.attrs(model.chooseHint(v, state.seat, g, new Set(allowed.play.get(g)).size, t)),
            onclick: () => { chosenGood = g; keepFocus(el, render); },
          }, cube(g), t('silkroad.actions.chooseGood', { good: goodTitle(g), count: me.hand ? me.hand[g] : 0 })))),
        h('p', { class: 'hint' }, t('silkroad.actions.playHint'))));
    }
    const finish = [];
    if (allowed.score) {
      const pays = model.payoutText(model.scoringPayouts(v, v.played_good), state.names, state.seat, t);
      finish.push(actButton({ type: 'score' }, [t('silkroad.actions.score', { good: goodName(v.played_good) }), h('span', { class: 'sr-pays' }, pays)], {
        // Named by its own words (what it scores and pays); the hint describes it further.
        class: 'primary sr-score', hint: model.scoreHint(v, state.seat, state.names, t),
      }));
    }
    if (allowed.draw) finish.push(actButton({ type: 'draw' }, t('silkroad.actions.draw'), { class: 'primary', hint: model.drawHint(v, t) }));
    if (allowed.extraDraw) finish.push(actButton({ type: 'extra_draw' }, t('silkroad.actions.extraDraw'), { class: 'primary', hint: model.extraDrawHint(v, t) }));
    if (allowed.done) finish.push(actButton({ type: 'done' }, t('silkroad.actions.done'), { hint: model.doneHint(v, t) }));
    if (allowed.endPhase) finish.push(actButton({ type: 'end_phase' }, t('silkroad.actions.endPhase'), { hint: model.endPhaseHint(v, t) }));
    if (allowed.pass) finish.push(actButton({ type: 'pass' }, t('silkroad.actions.pass'), { hint: model.passHint(t) }));
    if (finish.length) body.push(h('div', { class: 'buttons sr-finish' }, finish));

    return h('section', {
      class: ['sr-card', 'sr-actions', busy ? 'is-busy' : ''], 'aria-labelledby': 'sr-actions-h', 'aria-busy': busy ? 'true' : 'false',
      'data-testid': 'actions', 'data-decision': '',
    },
      h('h2', { id: 'sr-actions-h' }, t('silkroad.actions.heading')),
      h('p', { class: 'sr-your-status' }, model.statusText(v, state.names, state.seat, t)),
      body,
      busy ? h('p', { class: 'hint', role: 'status' }, state.offline ? t('conn.reconnectingNow') : t('table.busy')) : null);
  }

  function market(v) {
    const allowed = model.legalActions(myLegal());
    const good = mine() ? playGood(v, allowed) : null;
    const slots = good ? new Set(allowed.play.get(good)) : new Set();
    const counts = GOODS.filter((g) => model.marketCount(v, g) > 0)
      .map((g) => t('silkroad.market.count', { good: goodName(g), count: model.marketCount(v, g) }));
    return h('section', { class: 'sr-card sr-market', 'aria-labelledby': 'sr-market-h' },
      h('h2', { id: 'sr-market-h' }, t('silkroad.market.heading')),
      h('ol', { class: 'sr-slots', 'data-testid': 'market' }, v.market.map((g, slot) => h('li', { class: 'sr-slot' },
        h('div', marked(`slot:${slot}`, ['good-card', `good--${g}`, v.played_good === g ? 'is-scoring' : ''], {
          role: 'img', 'aria-label': t('silkroad.market.slotLabel', { slot: slot + 1, good: goodName(g), covered: v.covered[slot] }),
          'data-good': g, 'data-slot': String(slot),
        }),
        h('span', { class: 'slot-no', 'aria-hidden': 'true' }, String(slot + 1)),
        h('span', { class: 'good-name', 'aria-hidden': 'true' }, t(`silkroad.goodTitle.${g}`)),
        v.covered[slot] ? h('span', { class: 'covered', 'aria-hidden': 'true' }, t('silkroad.market.covered', { count: v.covered[slot] })) : null),
        slots.has(slot) ? playButton(v, good, slot) : null))),
      h('p', { class: 'hint' }, t('silkroad.market.counts', { list: counts.join(t('common.listSeparator')) }), ' — ', t('silkroad.market.hint')));
  }

  /** Play one card on a slot; the button tells what a scoring right after it would pay. */
  function playButton(v, good, slot) {
    const pays = model.payoutText(model.playPayouts(v, good, slot), state.names, state.seat, t);
    return actButton({ type: 'play', good, slot }, [t('silkroad.actions.playHere', { good: goodName(good) }), h('span', { class: 'sr-pays' }, pays)], {
      // Named by its own words (what it plays and pays: the name holds the visible text); the hint says the
      // slot, the card it covers and why the scoring would pay that.
      class: 'btn small sr-play',
      dataset: { slot: String(slot), good }, hint: model.playHint(v, state.seat, good, slot, state.names, t),
    });
  }

  function hand(v) {
    if (!mine()) return null;
    const me = v.seats[state.seat];
    if (!me || !me.hand) return null;
    const cards = GOODS.filter((g) => me.hand[g] > 0);
    return h('section', { class: 'sr-card sr-hand', 'aria-labelledby': 'sr-hand-h' },
      h('div', { class: 'sr-hand-head' },
        h('h2', { id: 'sr-hand-h' }, t('silkroad.hand.heading')),
        h('p', { class: 'sr-my-coins' }, h('span', { class: 'coin', 'aria-hidden': 'true' }),
          h('span', { class: 'visually-hidden' }, t('silkroad.hand.yourCoins'), ': '),
          h('strong', { 'data-testid': 'my-coins', 'data-coins': String(me.coins) }, t('silkroad.coins', { count: me.coins })))),
      cards.length
        ? h('ul', { class: 'sr-hand-cards', 'data-testid': 'hand' }, cards.map((g) => h('li', {
          class: ['good-card', 'good-card--hand', `good--${g}`], 'data-good': g, 'data-count': String(me.hand[g]),
        },
        h('span', { class: 'visually-hidden' }, t('silkroad.hand.card', { good: goodName(g), count: me.hand[g] })),
        h('span', { class: 'good-name', 'aria-hidden': 'true' }, t(`silkroad.goodTitle.${g}`)),
        h('span', { class: 'hand-count', 'aria-hidden': 'true' }, `×${me.hand[g]}`))))
        : h('p', { class: 'hint', 'data-testid': 'hand' }, t('silkroad.hand.empty')));
  }

  function seats(v) {
    return h('section', { class: 'sr-seats', 'aria-labelledby': 'sr-seats-h' },
      h('h2', { id: 'sr-seats-h' }, t('silkroad.seats.heading')),
      h('div', { class: 'sr-seat-grid' }, v.seats.map((seat, p) => {
        const name = model.nameOf(state.names, p, t);
        const turn = v.phase !== 'over' && v.active === p;
        const connected = !state.connected || state.connected[p] !== false;
        const hidden = seat.coins === null || seat.coins === undefined;
        const specials = ['exchange', 'porter', 'license'].filter((c) => seat[c] > 0);
        const ships = [];
        const total = Math.max(seat.ships.length, v.phase === 'loading' ? model.STARTING_SHIPS : 0);
        for (let i = 0; i < total; i++) {
          const g = seat.ships[i];
          const label = g ? t('silkroad.seat.ship', { n: i + 1, good: goodName(g) }) : t('silkroad.seat.shipEmpty', { n: i + 1 });
          ships.push(h('li', marked(`ship:${p}:${i}`, ['sr-ship', g ? '' : 'is-empty'], {
            'aria-label': label, title: label, 'data-good': g || null, 'data-ship': String(i),
          }), h('span', { class: 'hull', 'aria-hidden': 'true' }, g ? letteredCube(g, t) : null)));
        }
        return h('article', {
          class: ['sr-seat', `p${p}`, p === state.seat ? 'is-me' : '', turn ? 'is-turn' : ''],
          'aria-label': t('silkroad.seat.label', { name }), 'data-seat': String(p),
        },
        h('header', null,
          swatch(p, initial(state.names[p], p, t)),
          h('h3', null, playerName(state.names, p, state.seat, t)),
          hidden
            ? h('p', { class: 'sr-coins is-hidden', 'data-testid': 'coins' },
              h('span', { class: 'visually-hidden' }, t('silkroad.coinsHiddenLabel', { name })),
              h('span', { class: 'lock', 'aria-hidden': 'true' }), h('span', { 'aria-hidden': 'true' }, t('silkroad.coinsHidden')))
            : h('p', { class: 'sr-coins', 'data-testid': 'coins' },
              h('span', { class: 'visually-hidden' }, t('silkroad.coinsLabel', { name, count: seat.coins })),
              h('span', { class: 'coin', 'aria-hidden': 'true' }), h('strong', { 'aria-hidden': 'true' }, String(seat.coins)),
              h('span', { 'aria-hidden': 'true' }, ' ', t('silkroad.coinUnit', { count: seat.coins })))),
        h('div', { class: 'badges' },
          turn ? h('span', { class: 'badge badge--turn' }, t('silkroad.seat.active')) : null,
          v.start_player === p && v.phase !== 'over' ? h('span', { class: 'badge' }, t('silkroad.seat.startPlayer')) : null,
          !connected ? h('span', { class: 'badge badge--off' }, t('table.seat.disconnected')) : null),
        h('ul', { class: 'sr-ships', 'aria-label': t('silkroad.seat.ships') }, ships),
        h('div', { class: 'sr-seat-foot' },
          h('span', marked(`hand:${p}`, ['sr-handcount'], { 'data-testid': 'hand-count' }),
            h('span', { class: 'card-backs', 'aria-hidden': 'true' }, Array.from({ length: Math.min(seat.hand_count, 8) }, () => h('span', { class: 'card-back' }))),
            t('silkroad.seat.hand', { count: seat.hand_count })),
          specials.length
            ? h('ul', { class: 'sr-specials', 'aria-label': t('silkroad.seat.specials') }, specials.map((c) =>
              h('li', marked(`special:${p}:${c}`, ['special-chip', `card-${c}`], { title: t(`silkroad.cardHelp.${c}`), 'data-card': c }),
                t('silkroad.seat.special', { card: model.cardText(c, t), count: seat[c] }))))
            : h('span', { class: 'hint' }, t('silkroad.seat.noSpecials'))));
      })));
  }

  function supply(v) {
    return h('section', { class: 'sr-card sr-supply', 'aria-labelledby': 'sr-supply-h' },
      h('h2', { id: 'sr-supply-h' }, t('silkroad.supply.heading')),
      h('ul', { class: 'sr-cubes' }, GOODS.map((g) => h('li', {
        class: ['sr-cube-row', v.supply[g] === 0 ? 'is-out' : ''], 'aria-label': t('silkroad.supply.label', { good: goodName(g), count: v.supply[g] }),
      },
      h('span', { class: 'cube-stack', 'aria-hidden': 'true' }, Array.from({ length: v.supply[g] }, () => cube(g, 'cube--small'))),
      h('span', { 'aria-hidden': 'true' }, t('silkroad.supply.label', { good: t(`silkroad.goodTitle.${g}`), count: v.supply[g] }))))));
  }

  function shop(v) {
    return h('section', { class: 'sr-card sr-shop', 'aria-labelledby': 'sr-shop-h' },
      h('h2', { id: 'sr-shop-h' }, t('silkroad.shop.heading')),
      h('ul', { class: 'sr-shop-list' }, CARDS.map((c) => h('li', marked(`shop:${c}`, ['special-card', `card-${c}`, v.stock[c] === 0 ? 'is-out' : ''], {
        'aria-label': t('silkroad.shop.label', { card: model.cardText(c, t), cost: v.costs[c], left: v.stock[c] }), 'data-card': c,
      }),
      h('div', { class: 'special-head', 'aria-hidden': 'true' },
        h('strong', null, model.cardText(c, t)),
        h('span', { class: 'price' }, h('span', { class: 'coin coin--small' }), String(v.costs[c]))),
      h('p', { class: 'special-help', 'aria-hidden': 'true' }, t(`silkroad.cardHelp.${c}`)),
      h('p', { class: 'special-left', 'aria-hidden': 'true' }, v.stock[c] ? t('silkroad.shop.left', { count: v.stock[c] }) : t('silkroad.shop.soldOut'))))));
  }

  function render() {
    const v = state.view;
    el.dataset.version = String(v.version);
    el.dataset.phase = v.phase;
    el.dataset.seat = mine() ? String(state.seat) : 'spectator';
    hints.begin();
    replace(el,
      bar(v),
      result(v),
      h('div', { class: 'sr-top' }, actions(v), hand(v)),
      market(v),
      seats(v),
      h('div', { class: 'sr-lower' }, shop(v), supply(v)),
      hints.layer());
  }

  return {
    update(next) {
      state = next;
      hadTurn = renderForTurn(el, render, {
        turn: myLegal().length > 0 && !state.busy, hadTurn, busy: state.busy,
        first: ['[data-action]:not([disabled])'], fallback: ['[data-action]:not([disabled])', '.sr-bar'],
      });
    },
    onEvents(events) {
      for (const e of events) {
        // A step taken back: the places it changed are no longer part of the player's last move.
        if (e.type === 'undo') {
          marks.forget(e.player, (e.undone || []).flatMap((u) => model.movedPlaces(u) || []));
          continue;
        }
        if (e.type === 'turn') {
          chosenGood = null; // a new turn starts without a picked good
          turnStarted.add(e.player);
          continue;
        }
        const keys = model.movedPlaces(e);
        if (!keys) continue;
        if (e.type === 'load' || turnStarted.has(e.player)) marks.note(e.player, keys);
        else marks.add(e.player, keys);
        turnStarted.delete(e.player);
      }
    },
    destroy() {
      el.remove();
    },
  };
}

export default {
  id: 'silkroad',
  nameKey: 'silkroad.name',
  strings, // its English strings; the other languages' are loaded by the registry
  cardArt: 5, // the boxes of its picture on the lobby's card (board.css, .game-art--silkroad)
  model: {
    applyEvents: model.applyEvents,
    describeEvent: model.describeEvent,
    toMove: model.toMove,
    isOver: model.isOver,
    statusText: model.statusText,
  },
  createBoard,
};
