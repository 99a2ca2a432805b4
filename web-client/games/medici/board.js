// The Medici board: renders the view (games/medici/model.js has the rules-free logic) and the
// controls that the `legal` list allows, nothing else. A game's module exports (games/registry.js)
//   { id, nameKey, strings, cardArt, model: {applyEvents, describeEvent, toMove, isOver, statusText},
//     createBoard(root, ctx) }
// and createBoard returns { update(state), onEvents(events), destroy() } where state is
//   { view, legal, seat (null for spectators), names, bots (the bot level by seat, null for
//   people), connected, busy, offline }.
// Spectators (seat null) get no controls at all: no bid control exists in their DOM.
// Each player's last move is marked where it changed the board (model.moveMarks: the drawn tile, the
// bid row, the won tiles on the ship, the discarded lot), on every page.
import * as model from './model.js';
import strings from './i18n/en.js';
import { h, replace, renderForTurn } from '../../js/core/dom.js';
import { initial, swatch, playerName, createHints, markBy } from '../board-parts.js';
import { botMark } from '../../js/ui/bot-mark.js';
import { createLastMoves, markProps } from '../../js/models/last-moves.js';

const { COMMODITIES, TRACK_BONUS, TRACK_TOP } = model;

/** A tile; `marked` is its last-move mark ({ mark, words, by }, see markOf in createBoard) or null. */
function tileEl(tile, t, marked = null) {
  const text = model.tileText(tile, t);
  const label = marked ? t('medici.lastMove.label', { label: text, move: marked.words }) : text;
  return h('span', { ...markProps(marked && marked.mark, ['tile', `tile--${tile.commodity}`]), ...(marked ? marked.by : {}), role: 'img', 'aria-label': label, title: label },
    h('b', { 'aria-hidden': 'true' }, String(tile.value)),
    h('small', { 'aria-hidden': 'true' }, t(`medici.commodity.${tile.commodity}`)));
}

function emptySlot(label, extra = '') {
  return h('span', { class: ['tile', 'tile--empty', extra], role: 'img', 'aria-label': label });
}

/** One day's scoring as a table: one column per player. */
export function scoringTable(scoring, names, mySeat, t) {
  const players = scoring.totals.length;
  const cols = Array.from({ length: players }, (_, p) => p);
  const num = (n, extra = '') => h('td', { class: ['num', n === 0 ? 'zero' : '', extra] }, String(n));
  const row = (label, cells, cls = '') => h('tr', { class: cls }, h('th', { scope: 'row' }, label), cells);
  const best = Math.max(...scoring.totals);
  return h('div', { class: 'table-scroll', tabindex: '0', role: 'group', 'aria-label': t('medici.scoring.caption', { day: scoring.day }) },
    h('table', { class: 'scoring' },
      h('caption', { class: 'visually-hidden' }, t('medici.scoring.caption', { day: scoring.day })),
      h('thead', null, h('tr', null,
        h('th', { scope: 'col' }, t('medici.scoring.item')),
        cols.map((p) => h('th', { scope: 'col', class: p === mySeat ? 'is-me' : '' },
          swatch(p, initial(names[p], p, t)), ' ', playerName(names, p, mySeat, t))))),
      h('tbody', null,
        row(t('medici.scoring.shipValue'), cols.map((p) => num(scoring.ship_values[p]))),
        row(t('medici.scoring.shipPayment'), cols.map((p) => num(scoring.ship_payments[p], 'pay')))),
      scoring.commodities.map((c) => {
        const name = t(`medici.commodityTitle.${c.commodity}`);
        const chip = h('span', { class: ['chip', `tile--${c.commodity}`], 'aria-hidden': 'true' });
        return h('tbody', { class: 'commodity' },
          row([chip, t('medici.scoring.commodity', { commodity: name })],
            cols.map((p) => h('td', { class: 'num' }, t('medici.scoring.position', { pos: c.positions[p], moved: c.moved[p] })))),
          row(t('medici.scoring.majority', { commodity: name }), cols.map((p) => num(c.majority[p], 'pay'))),
          row(t('medici.scoring.bonus', { commodity: name }), cols.map((p) => num(c.bonus[p], 'pay'))));
      }),
      h('tfoot', null,
        row(t('medici.scoring.total'), cols.map((p) => num(scoring.totals[p], scoring.totals[p] === best ? 'best' : '')), 'total'),
        row(t('medici.scoring.money'), cols.map((p) => num(scoring.money[p])), 'money'))));
}

function createBoard(root, { t, onAction }) {
  let state = null;
  let scoringDay = null; // the day whose scoring panel is open
  let bid = { key: null, value: null }; // the amount being chosen, kept across re-renders
  let hadTurn = false;
  const openDetails = new Set(); // <details> the player opened stay open across re-renders
  const marks = createLastMoves();
  const el = h('div', { class: 'medici' });
  root.append(el);
  const hints = createHints(el, 'm');

  const mine = () => state && state.seat !== null && state.seat !== undefined;
  const myLegal = () => (mine() ? state.legal || [] : []);

  /** The last-move mark on the place `key`: { mark (last-moves.js), words ("Ann's last move") } or null. */
  function markOf(key) {
    const mark = marks.at(key);
    return mark ? { mark, words: t('common.lastMove', { name: model.nameOf(state.names, mark.player, t) }), by: markBy(mark, state.names, t) } : null;
  }

  /** An element's own classes plus, when `key` is marked, the mark's classes, seat and title. */
  function markAttrs(key, own) {
    const m = markOf(key);
    return m ? { ...markProps(m.mark, own), ...m.by, title: m.words } : { class: own };
  }

  function details(key, cls, summary, content) {
    return h('details', {
      class: cls, open: openDetails.has(key), 'data-details': key,
      ontoggle: (e) => { if (e.target.open) openDetails.add(key); else openDetails.delete(key); },
    }, h('summary', { 'data-focus': `details-${key}` }, summary), content);
  }

  /** Why each number of a day's scoring is what it is (model.scoringWhy), folded under its table. */
  function why(scoring, where) {
    return details(`why-${where}-${scoring.day}`, 'm-why', t('medici.why.heading'),
      h('ul', { class: 'm-why-list', 'data-testid': 'scoring-why' }, model.scoringWhy(scoring, state.names, t).map((r) =>
        h('li', null, swatch(r.player, initial(state.names[r.player], r.player, t)), ' ',
          h('strong', null, playerName(state.names, r.player, state.seat, t)),
          h('ul', null, r.lines.map((line) => h('li', null, line)))))));
  }

  function dismissScoring() {
    scoringDay = null;
    render();
    const target = el.querySelector('[data-action]') || el.querySelector('.m-bar');
    if (target) target.focus({ preventScroll: true });
  }

  // ---- pieces ----

  function bar(v) {
    return h('div', { class: 'm-bar', tabindex: '-1' },
      h('span', { class: 'pill pill--day' }, t('medici.day', { day: v.day, days: v.days })),
      h('span', { class: 'pill' }, t('medici.bag', { count: v.bag_count })),
      h('span', { class: 'pill pill--muted' }, t('medici.removed', { count: v.removed_count })));
  }

  function scoringPanel(v) {
    const scoring = v.scorings.find((s) => s.day === scoringDay);
    if (!scoring || v.phase === 'over') return null;
    const id = `m-scoring-${scoring.day}`;
    return h('section', {
      class: 'm-panel m-scoring-panel', role: 'region', 'aria-labelledby': id,
      onkeydown: (e) => { if (e.key === 'Escape') { e.preventDefault(); dismissScoring(); } },
    },
    h('div', { class: 'm-panel-head' },
      h('h2', { id }, t('medici.scoring.heading', { day: scoring.day })),
      h('button', { type: 'button', class: 'btn', 'data-focus': 'dismiss-scoring', 'data-testid': 'dismiss-scoring', onclick: dismissScoring },
        t('medici.scoring.dismiss'))),
    h('p', { class: 'hint' }, t('medici.scoring.dismissHint')),
    scoringTable(scoring, state.names, state.seat, t), why(scoring, 'panel'));
  }

  function result(v) {
    if (v.phase !== 'over' || !v.result) return null;
    const last = v.scorings[v.scorings.length - 1];
    const earlier = v.scorings.slice(0, -1);
    const winners = new Set(v.result.winners);
    return h('section', { class: 'm-panel m-result', 'aria-labelledby': 'm-result-h', 'data-testid': 'result' },
      h('h2', { id: 'm-result-h' }, t('medici.result.heading')),
      h('p', { class: 'm-winner' }, model.resultSentence(v.result, state.names, t)),
      h('ol', { class: 'ranking' }, v.result.ranking.map((r) =>
        h('li', { class: ['rank', winners.has(r.player) ? 'winner' : '', r.player === state.seat ? 'is-me' : ''] },
          h('span', { class: 'place' }, t('medici.result.place', { rank: r.rank })),
          swatch(r.player, initial(state.names[r.player], r.player, t)),
          h('span', { class: 'rank-name' }, playerName(state.names, r.player, state.seat, t)),
          botMark(state.bots && state.bots[r.player]),
          h('span', { class: 'rank-money' }, t('common.florins', { count: r.money }))))),
      last ? [h('h3', null, t('medici.scoring.heading', { day: last.day })), scoringTable(last, state.names, state.seat, t), why(last, 'result')] : null,
      earlier.length ? details('earlier', 'm-history', t('medici.scoring.earlier'),
        earlier.map((s) => [h('h3', null, t('medici.scoring.heading', { day: s.day })), scoringTable(s, state.names, state.seat, t), why(s, 'result')])) : null);
  }

  function lot(v) {
    const slots = [];
    v.lot.forEach((tile, i) => slots.push(tileEl(tile, t, markOf(model.markKey.lot(v, i)))));
    if (v.phase === 'draw') {
      for (let i = v.lot.length; i < v.lot_limit; i++) slots.push(emptySlot(t('medici.lot.slotEmpty'), 'tile--slot'));
    }
    return h('section', { class: 'm-card m-lot', 'aria-labelledby': 'm-lot-h' },
      h('h2', { id: 'm-lot-h' }, t('medici.lot.heading')),
      h('div', { class: 'tiles tiles--lot', 'data-testid': 'lot' }, slots.length ? slots : h('p', { class: 'hint' }, t('medici.lot.empty'))),
      v.phase === 'draw' ? h('p', { class: 'hint' }, t('medici.lot.limit', { count: v.lot_limit })) : null);
  }

  function auction(v) {
    const a = v.auction;
    const rows = model.auctionRows(v);
    return h('section', { class: 'm-card m-auction', 'aria-labelledby': 'm-auction-h' },
      h('h2', { id: 'm-auction-h' }, t('medici.auction.heading')),
      !a ? h('p', { class: 'hint' }, t('medici.auction.none')) : [
        h('p', { class: 'm-high' }, a.high_bidder !== null
          ? t('medici.auction.high', { amount: t('common.florins', { count: a.high_bid }), name: model.nameOf(state.names, a.high_bidder, t) })
          : t('medici.auction.noHigh')),
        h('ol', { class: 'm-bids', 'aria-label': t('medici.auction.orderCaption') }, rows.map((r) => {
          let text;
          if (r.state === 'bid') text = t('medici.auction.bid', { count: r.amount });
          else if (r.state === 'pass') text = r.forced ? t('medici.auction.forced') : t('medici.auction.pass');
          else if (r.state === 'current') text = t('medici.auction.current');
          else text = t('medici.auction.waiting');
          return h('li', markAttrs(model.markKey.bid(v, r.player), ['bid-row', `bid-${r.state}`, r.high ? 'bid-high' : '', r.player === state.seat ? 'is-me' : '']),
            swatch(r.player, initial(state.names[r.player], r.player, t)),
            h('span', { class: 'bid-name' }, playerName(state.names, r.player, state.seat, t)),
            h('span', { class: 'bid-state' }, text));
        })),
      ]);
  }

  function actions(v) {
    if (!mine()) return null; // spectators: no controls at all
    const legal = myLegal();
    if (legal.length === 0) return null;
    const allowed = model.legalActions(legal);
    // While an action is on its way the controls stay in place (so the keyboard focus stays on
    // them) but are marked aria-disabled and do nothing.
    const busy = Boolean(state.busy);
    const act = (action) => { if (!state.busy) onAction(action); };
    const body = [];
    if (allowed.draw || allowed.stop) {
      body.push(h('div', { class: 'buttons' },
        allowed.draw ? h('button', { type: 'button', class: 'btn primary', 'data-action': 'draw', 'data-focus': 'draw', 'aria-disabled': busy ? 'true' : null, ...hints.attrs(model.drawHint(v, t)), onclick: () => act({ type: 'draw' }) }, t('medici.actions.draw')) : null,
        allowed.stop ? h('button', { type: 'button', class: 'btn', 'data-action': 'stop', 'data-focus': 'stop', 'aria-disabled': busy ? 'true' : null, ...hints.attrs(model.stopHint(v, t)), onclick: () => act({ type: 'stop' }) }, t('medici.actions.stop')) : null));
    }
    if (allowed.pass || allowed.bid) {
      const range = allowed.bid;
      const key = `${v.version}`;
      if (bid.key !== key) bid = { key, value: range ? range.min : null };
      if (range) bid.value = model.clampBid(bid.value, range);
      const submit = (e) => {
        e.preventDefault();
        if (!range) return;
        const amount = model.clampBid(number.value, range);
        if (model.isLegalBid(legal, amount)) act({ type: 'bid', amount });
      };
      let number = null;
      let slider = null;
      let bidButton = null;
      const sync = (value, from) => {
        const n = model.clampBid(value, range);
        bid.value = n;
        if (from !== number) number.value = String(n);
        if (from !== slider) slider.value = String(n);
        bidButton.textContent = `${t('medici.actions.bid')} ${t('common.florins', { count: n })}`;
        const tip = el.querySelector(`#${CSS.escape(bidButton.getAttribute('data-hint'))}`);
        if (tip) tip.textContent = model.bidHint(v, state.seat, n, t);
      };
      if (range) {
        number = h('input', {
          type: 'number', id: 'm-bid-amount', name: 'bid', class: 'bid-number', inputmode: 'numeric',
          min: String(range.min), max: String(range.max), step: '1', value: String(bid.value), required: true,
          'aria-describedby': 'm-bid-range', 'data-focus': 'bid-amount', readOnly: busy,
          oninput: () => { if (number.value !== '') sync(number.value, number); },
          onchange: () => sync(number.value, null),
        });
        slider = h('input', {
          type: 'range', class: 'bid-slider', name: 'bid-slider', min: String(range.min), max: String(range.max), step: '1',
          value: String(bid.value), 'aria-label': t('medici.actions.bidSlider'), 'data-focus': 'bid-slider', 'aria-disabled': busy ? 'true' : null,
          oninput: () => sync(slider.value, slider),
        });
        bidButton = h('button', { type: 'submit', class: 'btn primary', 'data-action': 'bid', 'data-focus': 'bid', 'aria-disabled': busy ? 'true' : null, ...hints.attrs(model.bidHint(v, state.seat, bid.value, t)) },
          `${t('medici.actions.bid')} ${t('common.florins', { count: bid.value })}`);
      }
      body.push(h('form', { class: 'm-bid', onsubmit: submit, novalidate: true },
        range ? [
          h('div', { class: 'bid-field' },
            h('label', { for: 'm-bid-amount' }, t('medici.actions.bidAmount')),
            number),
          slider,
          h('p', { class: 'hint', id: 'm-bid-range' }, t('medici.actions.bidRange', { min: range.min, max: range.max })),
        ] : h('p', { class: 'hint' }, t('medici.actions.cannotBid')),
        h('div', { class: 'buttons' },
          bidButton,
          allowed.pass ? h('button', { type: 'button', class: 'btn', 'data-action': 'pass', 'data-focus': 'pass', 'aria-disabled': busy ? 'true' : null, ...hints.attrs(model.passHint(v, state.seat, state.names, t)), onclick: () => act({ type: 'pass' }) }, t('medici.actions.pass')) : null)));
    }
    return h('section', { class: ['m-card', 'm-actions', busy ? 'is-busy' : ''], 'aria-labelledby': 'm-actions-h', 'aria-busy': busy ? 'true' : 'false', 'data-testid': 'actions', 'data-decision': true },
      h('h2', { id: 'm-actions-h' }, t('medici.actions.heading')),
      h('p', { class: 'm-your-status' }, model.statusText(v, state.names, state.seat, t, legal)),
      body,
      busy ? h('p', { class: 'hint', role: 'status' }, state.offline ? t('conn.reconnectingNow') : t('table.busy')) : null);
  }

  function ships(v) {
    return h('section', { class: 'm-ships', 'aria-labelledby': 'm-ships-h' },
      h('h2', { id: 'm-ships-h' }, t('medici.ships.heading')),
      h('div', { class: ['ship-grid', v.capacity > 5 ? 'ship-grid--wide' : ''] }, v.seats.map((seat, p) => {
        const drawing = v.phase === 'draw' && v.active === p;
        const bidding = v.phase === 'auction' && v.auction && v.auction.bidder === p;
        const cargo = seat.ship.map((tile, i) => tileEl(tile, t, markOf(model.markKey.ship(v, p, i))));
        for (let i = seat.ship.length; i < v.capacity; i++) cargo.push(emptySlot(t('medici.ship.slotEmpty')));
        const connected = !state.connected || state.connected[p] !== false;
        return h('article', {
          class: ['m-ship', `p${p}`, p === state.seat ? 'is-me' : '', drawing || bidding ? 'is-turn' : '', seat.in_day ? '' : 'is-full'],
          'aria-label': t('medici.ship.label', { name: model.nameOf(state.names, p, t) }),
          'data-seat': String(p),
        },
        h('header', null,
          swatch(p, initial(state.names[p], p, t)),
          h('h3', null, playerName(state.names, p, state.seat, t)),
          h('p', { class: 'money', 'data-testid': 'money' }, h('strong', null, String(seat.money)), ' ', h('span', null, t('medici.ship.moneyUnit', { count: seat.money })))),
        h('div', { class: 'badges' },
          drawing ? h('span', { class: 'badge badge--turn' }, t('medici.ship.active')) : null,
          bidding ? h('span', { class: 'badge badge--turn' }, t('medici.ship.bidding')) : null,
          v.start_player === p && v.phase !== 'over' ? h('span', { class: 'badge' }, t('medici.ship.startPlayer')) : null,
          !connected ? h('span', { class: 'badge badge--off' }, t('table.seat.disconnected')) : null),
        h('div', { class: 'tiles tiles--ship', 'data-capacity': String(v.capacity) }, cargo),
        h('p', { class: 'ship-foot' },
          h('span', null, t('medici.ship.value', { value: model.shipValue(seat.ship) })),
          h('span', null, seat.in_day ? t('medici.ship.free', { count: seat.free }) : t('medici.ship.full'))));
      })));
  }

  function tracks(v) {
    const positions = Array.from({ length: TRACK_TOP + 1 }, (_, i) => i);
    return h('section', { class: 'm-tracks', 'aria-labelledby': 'm-tracks-h' },
      h('h2', { id: 'm-tracks-h' }, t('medici.tracks.heading')),
      h('p', { class: 'hint', id: 'm-tracks-caption' }, t('medici.tracks.caption')),
      h('table', { class: 'track-table', 'aria-describedby': 'm-tracks-caption' },
        h('thead', null, h('tr', null,
          h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, t('medici.tracks.commodity'))),
          positions.map((pos) => h('th', { scope: 'col', class: TRACK_BONUS[pos] ? 'bonus-col' : '' },
            h('span', { class: 'pos' }, String(pos)),
            TRACK_BONUS[pos] ? h('span', { class: 'bonus' }, t('medici.tracks.bonus', { amount: TRACK_BONUS[pos] })) : null)))),
        h('tbody', null, COMMODITIES.map((c) => {
          const markers = model.trackMarkers(v, c);
          const title = t(`medici.commodityTitle.${c}`);
          return h('tr', { 'data-commodity': c },
            h('th', { scope: 'row' }, h('span', { class: ['chip', `tile--${c}`], 'aria-hidden': 'true' }), title),
            positions.map((pos) => {
              const here = markers[pos];
              const label = here.length
                ? t('medici.tracks.cell', { commodity: title, pos, names: here.map((p) => model.nameOf(state.names, p, t)).join(t('common.listSeparator')) })
                : t('medici.tracks.cellEmpty', { commodity: title, pos });
              return h('td', { class: [TRACK_BONUS[pos] ? 'bonus-col' : '', here.length ? '' : 'empty'], title: label },
                h('span', { class: 'visually-hidden' }, label),
                h('span', { class: 'markers', 'aria-hidden': 'true' },
                  here.map((p) => h('span', { class: ['marker', `p${p}`, p === state.seat ? 'is-me' : ''] }, initial(state.names[p], p, t)))));
            }));
        }))));
  }

  function discarded(v) {
    return h('section', { class: 'm-card m-discarded', 'aria-labelledby': 'm-disc-h' },
      h('h2', { id: 'm-disc-h' }, t('medici.discarded.heading')),
      v.discarded.length
        ? h('div', { class: 'tiles tiles--small' }, v.discarded.map((tile, i) => tileEl(tile, t, markOf(model.markKey.discard(v, i)))))
        : h('p', { class: 'hint' }, t('medici.discarded.empty')));
  }

  function history(v) {
    if (v.phase === 'over' || v.scorings.length === 0) return null;
    return details('past', 'm-history m-card', t('medici.scoring.past'),
      v.scorings.map((s) => [h('h3', null, t('medici.scoring.heading', { day: s.day })), scoringTable(s, state.names, state.seat, t), why(s, 'past')]));
  }

  function render() {
    const v = state.view;
    el.dataset.version = String(v.version);
    el.dataset.phase = v.phase;
    el.dataset.seat = mine() ? String(state.seat) : 'spectator';
    hints.begin();
    replace(el,
      bar(v),
      h('p', { class: 'm-status' }, model.statusText(v, state.names, state.seat, t, myLegal())),
      scoringPanel(v),
      result(v),
      v.phase !== 'over' ? h('div', { class: 'm-market' }, lot(v), auction(v), actions(v)) : null,
      ships(v),
      tracks(v),
      h('div', { class: 'm-lower' }, discarded(v), history(v)),
      hints.layer());
  }

  return {
    update(next) {
      state = next;
      hadTurn = renderForTurn(el, render, {
        turn: myLegal().length > 0 && !state.busy, hadTurn, busy: state.busy,
        first: ['[data-action]:not([disabled])'], fallback: ['[data-action]:not([disabled])', '.m-bar'],
      });
    },
    onEvents(events) {
      // Called before update() brings the new view: walk the events from the view they apply to.
      let v = state && state.view;
      let mover = null; // the player whose move this action is, for the results it causes
      for (const e of events) {
        if (e.type === 'day_end') scoringDay = e.day;
        if (!v) continue;
        const m = model.moveMarks(v, e);
        if (m && m.player !== null) {
          marks.note(m.player, m.keys);
          mover = m.player;
        } else if (m && mover !== null) {
          marks.add(mover, m.keys);
        }
        v = model.applyEvent(v, e);
      }
    },
    destroy() {
      el.remove();
    },
  };
}

export default {
  id: 'medici',
  nameKey: 'medici.name',
  strings, // its English strings; the other languages' are loaded by the registry
  cardArt: 4, // the boxes of its picture on the lobby's card (board.css, .game-art--medici)
  model: {
    applyEvents: model.applyEvents,
    describeEvent: model.describeEvent,
    toMove: model.toMove,
    isOver: model.isOver,
    statusText: model.statusText,
    seatScore: model.seatScore,
  },
  createBoard,
};
