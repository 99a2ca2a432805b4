// The Medina board: renders the view (games/medina/model.js has the rules-free logic) and the
// controls that the `legal` list allows, nothing else. Same shape as the other boards:
// createBoard(root, ctx) returns { update(state), onEvents(events), destroy() } where state is
// { view, legal, seat (null for spectators), names, connected, busy }.
//
// The city (city.js) is the 16 × 11 squares, the ring of wall spaces around them and a numbered
// tower on each corner, lettered and numbered along its edges as the log names places. Placing: the
// piece picker (the move panel, `data-decision`) lists the pieces the legal list allows; the squares
// where the chosen piece may go become buttons (highlighted), every other square is plain text and
// cannot be clicked. Each player's last turn stays marked on its squares on every page. What is shown is what the view holds: another
// player's stock is null in the view until the rules make it public, so it cannot appear.
// Spectators get no controls at all.
import * as model from './model.js';
import strings from './i18n/en.js';
import { h, replace, keepFocus, renderForTurn } from '../../js/core/dom.js';
import { swatch, playerName, createHints } from '../board-parts.js';
import { botMark } from '../../js/ui/bot-mark.js';
import { createLastMoves } from '../../js/models/last-moves.js';
import { renderCity, initial } from './city.js';

const { COLOURS } = model;

/** A small picture of a piece (decorative: the text next to it says what it is). */
function pieceIcon(group, extra = '') {
  if (group.piece === 'palace') return h('span', { class: ['md-icon', 'md-icon--palace', `c-${group.colour}`, extra], 'aria-hidden': 'true' });
  if (group.piece === 'dome') return h('span', { class: ['md-icon', 'md-icon--dome', group.dome ? `dome-${group.dome}` : '', extra], 'aria-hidden': 'true' });
  return h('span', { class: ['md-icon', `md-icon--${group.piece}`, extra], 'aria-hidden': 'true' });
}

function createBoard(root, { t, onAction }) {
  let state = null;
  let chosen = null; // the picked piece's key ('palace:grey', 'wall', …), kept across re-renders
  let hadTurn = false;
  // Each player's last move: the squares of the pieces placed in their latest turn (a turn of
  // several pieces is several actions, so `moving` says whose turn the marks are still growing).
  const marks = createLastMoves();
  let moving = null;
  const el = h('div', { class: 'medina' });
  root.append(el);
  const hints = createHints(el, 'md');

  const mine = () => state && state.seat !== null && state.seat !== undefined;
  const myLegal = () => (mine() ? state.legal || [] : []);
  const colourName = (c) => model.colourText(c, t);
  const name = (p) => model.nameOf(state.names, p, t);

  /** The picker's groups and the chosen one (the previous pick while still legal, else the first). */
  function picking() {
    const v = state.view;
    if (!mine() || v.phase === 'over') return { groups: [], group: null };
    const groups = model.legalByPiece(myLegal());
    const group = groups.find((g) => g.key === chosen) || groups[0] || null;
    return { groups, group };
  }

  function groupLabel(g, title = false) {
    if (g.piece === 'palace') {
      return title ? t('medina.piece.palaceTitle', { colour: t(`medina.colourTitle.${g.colour}`) }) : t('medina.piece.palace', { colour: colourName(g.colour) });
    }
    if (g.piece === 'dome') return g.dome ? t(`medina.piece.dome.${g.dome}`) : t('medina.piece.dome');
    return t(`medina.piece.${g.piece}`);
  }

  /** What is left of the picked piece, from the viewer's own stock and domes. */
  function groupLeft(v, g) {
    const me = v.seats[state.seat];
    if (v.phase === 'setup') return null;
    if (g.piece === 'dome') {
      if (typeof me.domes === 'number') return me.domes;
      return g.dome && me.domes ? me.domes[g.dome].length : null;
    }
    if (!me.stock) return null;
    if (g.piece === 'palace') return me.stock.palaces[g.colour];
    return me.stock[`${g.piece}s`];
  }

  // ---- the bar and the turn indicator ----

  function turnDots(v) {
    const dots = [];
    for (let i = 0; i < v.pieces; i++) dots.push(h('span', { class: ['md-dot', i < v.placed ? 'is-done' : ''] }));
    return h('span', { class: 'md-dots', 'aria-hidden': 'true' }, dots);
  }

  function bar(v) {
    const left = model.piecesLeft(v);
    return h('div', { class: 'md-bar', tabindex: '-1' },
      h('span', { class: 'pill pill--day' }, v.phase === 'setup' ? t('medina.setup') : v.phase === 'over' ? t('medina.over') : t('medina.turnNo', { turn: v.turn })),
      v.phase === 'play'
        ? h('span', { class: 'pill md-left', 'data-testid': 'pieces-left', 'data-left': String(left) },
          turnDots(v), t('medina.piecesLeft', { count: left, of: v.pieces, name: name(v.active) }))
        : null,
      v.forced_dome ? h('span', { class: 'pill md-forced' }, t('medina.forcedDome', { name: name(v.active) })) : null,
      v.closed.length ? h('span', { class: 'pill pill--muted' }, t('medina.closed', { list: v.closed.map(colourName).join(t('common.listSeparator')) })) : null);
  }

  // ---- the picker (own turn only) ----

  function picker(v) {
    if (!mine() || v.phase === 'over') return null; // spectators: no controls at all
    const { groups, group } = picking();
    if (!groups.length) return null;
    const busy = Boolean(state.busy);
    const left = model.piecesLeft(v);
    return h('section', {
      class: ['md-card', 'md-picker', busy ? 'is-busy' : ''], 'aria-labelledby': 'md-picker-h', 'data-decision': '',
      'aria-busy': busy ? 'true' : 'false', 'data-testid': 'picker',
    },
    h('h2', { id: 'md-picker-h' }, t('medina.picker.heading')),
    h('p', { class: 'md-turn-left', 'data-testid': 'turn-left' },
      v.phase === 'setup'
        ? t('medina.picker.setup')
        : [turnDots(v), h('strong', null, t('medina.picker.left', { count: left })), ' ', t('medina.picker.of', { placed: v.placed, of: v.pieces })]),
    v.forced_dome ? h('p', { class: 'md-warn' }, t('medina.picker.forced')) : null,
    h('div', { class: 'md-pieces', role: 'group', 'aria-label': t('medina.picker.choose') }, groups.map((g) => {
      const n = groupLeft(v, g);
      return h('button', {
        type: 'button', class: ['btn', 'md-pick', g === group ? 'is-chosen' : ''],
        'aria-pressed': g === group ? 'true' : 'false', 'data-piece': g.key, 'data-focus': `pick-${g.key}`,
        onclick: () => { chosen = g.key; keepFocus(el, render); },
        ...hints.attrs(model.pickHint(g, n, t)),
      },
      pieceIcon(g),
      h('span', { class: 'md-pick-name' }, groupLabel(g, true)),
      n === null ? null : h('span', { class: 'md-pick-count' }, t('medina.picker.count', { count: n })));
    })),
    group ? h('p', { class: 'hint', role: 'status' }, t('medina.picker.hint', { piece: groupLabel(group), count: group.squares.size })) : null,
    busy ? h('p', { class: 'hint' }, state.offline ? t('conn.reconnectingNow') : t('table.busy')) : null);
  }

  // ---- the city (city.js) ----

  /** Arrow keys move the focus to the nearest highlighted square in that direction. */
  function arrowKeys(e) {
    const dir = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
    const from = dir && e.target.closest && e.target.closest('.md-sq.is-legal');
    if (!from) return;
    const fx = Number(from.dataset.x);
    const fy = Number(from.dataset.y);
    let best = null;
    let bestCost = Infinity;
    for (const b of el.querySelectorAll('.md-sq.is-legal')) {
      const dx = Number(b.dataset.x) - fx;
      const dy = Number(b.dataset.y) - fy;
      const along = dx * dir[0] + dy * dir[1];
      if (along <= 0) continue;
      const cost = along + 3 * Math.abs(dx * dir[1] + dy * dir[0]);
      if (cost < bestCost) { best = b; bestCost = cost; }
    }
    e.preventDefault();
    if (best) best.focus();
  }

  function city(v) {
    return renderCity(v, {
      t, state, group: picking().group, marks, name, groupLabel, onAction, onKeyDown: arrowKeys,
      hint: (action, board) => hints.attrs(model.placeHint(v, state.seat, action, t, board)),
    });
  }

  // ---- the palaces still without a dome ----

  /** Every unclaimed palace: where it is, its size, and who may claim it (model.claimants). */
  function openPalaces(v) {
    if (!v.palaces.length) return null;
    const open = v.palaces.filter((p) => p.owner === null);
    return h('section', { class: 'md-card md-open', 'aria-labelledby': 'md-open-h', 'data-testid': 'open-palaces' },
      h('h2', { id: 'md-open-h' }, t('medina.open.heading')),
      open.length === 0 ? h('p', { class: 'hint' }, t('medina.open.none')) : h('ul', { class: 'md-open-list' }, open.map((p) => {
        const who = model.claimants(v, p);
        return h('li', { class: 'md-open-row', 'data-palace': String(p.id), 'data-claimants': who.join(' ') },
          h('p', { class: 'md-open-what' },
            h('span', { class: ['md-icon', 'md-icon--palace', `c-${p.colour}`], 'aria-hidden': 'true' }),
            t('medina.open.palace', { colour: t(`medina.colourTitle.${p.colour}`), where: model.placeText(p.pieces[0][0], p.pieces[0][1], t), count: p.size }),
            ' · ', h('span', { class: 'muted' }, t(p.status === 'completed' ? 'medina.open.completed' : 'medina.open.growing'))),
          who.length
            ? h('p', { class: 'md-open-who' }, t('medina.open.who'), ' ',
              who.map((q) => h('span', { class: 'md-holder' }, swatch(q, initial(state.names[q], q, t)), playerName(state.names, q, state.seat, t))))
            : h('p', { class: 'md-open-who muted' }, t('medina.open.nobody')));
      })),
      h('p', { class: 'hint' }, t('medina.open.rule')));
  }

  // ---- tiles, stocks, seats ----

  function holderText(p) {
    return p === null ? h('span', { class: 'muted' }, t('medina.tiles.free'))
      : h('span', { class: 'md-holder' }, swatch(p, initial(state.names[p], p, t)), playerName(state.names, p, state.seat, t));
  }

  function tiles(v) {
    return h('section', { class: 'md-card md-tiles', 'aria-labelledby': 'md-tiles-h' },
      h('h2', { id: 'md-tiles-h' }, t('medina.tiles.heading')),
      h('ul', { class: 'md-tile-list', 'data-testid': 'palace-tiles' }, COLOURS.map((c) => h('li', { class: 'md-tile-row', 'data-colour': c },
        h('span', { class: ['md-tile', `c-${c}`], 'aria-hidden': 'true' }, String(model.palaceTileValue(c))),
        h('span', { class: 'md-tile-name' }, t('medina.tiles.palace', { colour: t(`medina.colourTitle.${c}`), value: model.palaceTileValue(c) })),
        holderText(v.palace_tiles[c])))),
      h('ul', { class: 'md-tile-list', 'data-testid': 'tower-tiles' }, v.tower_tiles.map((p, i) => h('li', { class: 'md-tile-row', 'data-tower': String(i + 1) },
        h('span', { class: 'md-tile md-tile--tower', 'aria-hidden': 'true' }, String(i + 1)),
        h('span', { class: 'md-tile-name' }, t('medina.tiles.tower', { n: i + 1 })),
        holderText(p)))));
  }

  /** A stock as a list; `compact` leaves out what is used up (a seat card shown to others). */
  function stockList(stock, compact = false) {
    const items = [];
    for (const c of COLOURS) {
      if (compact && !stock.palaces[c]) continue;
      items.push(h('li', { class: 'md-stock-item', 'data-kind': `palace:${c}`, 'data-count': String(stock.palaces[c]) },
        h('span', { class: ['md-icon', 'md-icon--palace', `c-${c}`], 'aria-hidden': 'true' }),
        t('medina.stock.palace', { count: stock.palaces[c], colour: colourName(c) })));
    }
    for (const k of ['stables', 'residents', 'walls']) {
      if (compact && !stock[k]) continue;
      items.push(h('li', { class: 'md-stock-item', 'data-kind': k, 'data-count': String(stock[k]) },
        h('span', { class: ['md-icon', `md-icon--${k.slice(0, -1)}`], 'aria-hidden': 'true' }),
        t(`medina.stock.${k}`, { count: stock[k] })));
    }
    if (!items.length) return h('p', { class: 'hint' }, t('medina.stock.empty'));
    return h('ul', { class: 'md-stock' }, items);
  }

  function screen(v) {
    if (!mine()) return null;
    const me = v.seats[state.seat];
    if (!me || !me.stock) return null;
    return h('section', { class: 'md-card md-screen', 'aria-labelledby': 'md-screen-h', 'data-testid': 'my-stock' },
      h('h2', { id: 'md-screen-h' }, me.stock_public ? t('medina.screen.public') : t('medina.screen.heading')),
      stockList(me.stock),
      domesText(v, me));
  }

  function domesText(v, seat) {
    const d = seat.domes;
    if (typeof d === 'number') {
      return h('p', { class: 'md-domes', 'data-testid': 'domes', 'data-domes': String(d) },
        h('span', { class: 'md-dome-row', 'aria-hidden': 'true' }, Array.from({ length: d }, () => h('span', { class: 'md-icon md-icon--dome' }))),
        t('medina.domes.left', { count: d }));
    }
    const list = (cs) => (cs.length ? cs.map(colourName).join(t('common.listSeparator')) : t('medina.domes.none'));
    return h('div', { class: 'md-domes', 'data-testid': 'domes', 'data-domes': String(d.scoring.length + d.blocking.length) },
      h('p', null, h('span', { class: `md-icon md-icon--dome dome-${d.scoring_colour}`, 'aria-hidden': 'true' }), t('medina.domes.scoring', { list: list(d.scoring) })),
      h('p', null, h('span', { class: `md-icon md-icon--dome dome-${d.blocking_colour}`, 'aria-hidden': 'true' }), t('medina.domes.blocking', { list: list(d.blocking) })),
      d.removed.length ? h('p', { class: 'hint' }, t('medina.domes.removed', { list: list(d.removed) })) : null);
  }

  /** "2 pieces + 1 stable + 1 wall" (what a palace scores for, zeros left out). */
  function partsText(ps) {
    return ['pieces', 'stables', 'residents', 'walls'].filter((k) => ps[k] > 0)
      .map((k) => t(`medina.part.${k}`, { count: ps[k] })).join(' + ');
  }

  function scoreBreakdown(v, sc, player) {
    const rows = sc.palaces.map((ps) => {
      const p = v.palaces[ps.palace];
      return h('li', null, h('span', { class: ['md-icon', 'md-icon--palace', `c-${p.colour}`], 'aria-hidden': 'true' }),
        t('medina.score.palace', { colour: t(`medina.colourTitle.${p.colour}`), count: ps.points, parts: partsText(ps) }));
    });
    const why = model.scoreWhy(v, player, sc, t);
    if (why.palaceTiles) rows.push(h('li', null, why.palaceTiles));
    if (why.towerTiles) rows.push(h('li', null, why.towerTiles));
    if (rows.length) rows.push(h('li', { class: 'md-breakdown-total' }, why.total));
    return rows.length ? h('ul', { class: 'md-breakdown', 'data-testid': 'score-why' }, rows) : h('p', { class: 'hint' }, t('medina.score.nothing'));
  }

  function seats(v) {
    const live = model.scores(v);
    return h('section', { class: 'md-seats', 'aria-labelledby': 'md-seats-h' },
      h('h2', { id: 'md-seats-h' }, t('medina.seats.heading')),
      h('div', { class: 'md-seat-grid' }, v.seats.map((seat, p) => {
        const who = name(p);
        const turn = v.phase !== 'over' && v.active === p;
        const connected = !state.connected || state.connected[p] !== false;
        const sc = live[p];
        const hidden = !seat.stock;
        return h('article', {
          class: ['md-seat', `p${p}`, p === state.seat ? 'is-me' : '', turn ? 'is-turn' : ''],
          'aria-label': t('medina.seat.label', { name: who }), 'data-seat': String(p),
        },
        h('header', null,
          swatch(p, initial(state.names[p], p, t)),
          h('h3', null, playerName(state.names, p, state.seat, t)),
          h('p', { class: 'md-points', 'data-testid': 'score', 'data-points': String(sc.total) },
            h('strong', null, String(sc.total)), ' ', t('medina.points', { count: sc.total }))),
        h('div', { class: 'badges' },
          turn ? h('span', { class: 'badge badge--turn' }, t('medina.seat.active')) : null,
          v.start_player === p && v.phase !== 'over' ? h('span', { class: 'badge' }, t('medina.seat.startPlayer')) : null,
          seat.stock_public && v.phase !== 'over' ? h('span', { class: 'badge' }, t('medina.seat.shown')) : null,
          !connected ? h('span', { class: 'badge badge--off' }, t('table.seat.disconnected')) : null),
        domesText(v, seat),
        hidden
          ? h('p', { class: 'md-hidden-stock', 'data-testid': 'stock', 'data-hidden': 'true', 'data-public': 'false' },
            h('span', { class: 'md-lock', 'aria-hidden': 'true' }), t('medina.seat.screen'))
          : h('div', { 'data-testid': 'stock', 'data-hidden': 'false', 'data-public': seat.stock_public ? 'true' : 'false' },
            p === state.seat && !seat.stock_public && v.phase !== 'over' ? h('p', { class: 'hint' }, t('medina.seat.ownScreen')) : stockList(seat.stock, true)),
        h('details', { class: 'md-seat-score', open: v.phase === 'over' ? true : null },
          h('summary', null, v.phase === 'over' ? t('medina.seat.scoreFinal') : t('medina.seat.scoreDetails')),
          scoreBreakdown(v, sc, p)));
      })));
  }

  function result(v) {
    if (v.phase !== 'over' || !v.result) return null;
    const winners = new Set(v.result.winners);
    return h('section', { class: 'md-card md-result', 'aria-labelledby': 'md-result-h', 'data-testid': 'result' },
      h('h2', { id: 'md-result-h' }, t('medina.result.heading')),
      h('p', { class: 'md-winner' }, model.resultSentence(v.result, state.names, t)),
      h('ol', { class: 'ranking' }, v.result.ranking.map((r) =>
        h('li', { class: ['rank', winners.has(r.player) ? 'winner' : '', r.player === state.seat ? 'is-me' : ''], 'data-player': String(r.player) },
          h('span', { class: 'place' }, t('medina.result.place', { rank: r.rank })),
          swatch(r.player, initial(state.names[r.player], r.player, t)),
          h('span', { class: 'rank-name' }, playerName(state.names, r.player, state.seat, t)),
          botMark(state.bots && state.bots[r.player]),
          h('span', { class: 'rank-money', 'data-testid': 'result-points' }, t('medina.points.long', { count: r.points }))))));
  }

  function render() {
    const v = state.view;
    el.dataset.version = String(v.version);
    el.dataset.phase = v.phase;
    el.dataset.seat = mine() ? String(state.seat) : 'spectator';
    el.dataset.players = String(v.players);
    hints.begin();
    replace(el,
      h('div', { class: 'md-top' }, bar(v), h('p', { class: 'md-status' }, model.statusText(v, state.names, state.seat, t))),
      result(v),
      h('div', { class: 'md-layout' },
        h('div', { class: 'md-main' }, city(v)),
        picker(v),
        h('div', { class: 'md-side' }, screen(v), openPalaces(v), tiles(v))),
      seats(v),
      hints.layer());
  }

  return {
    update(next) {
      state = next;
      hadTurn = renderForTurn(el, render, {
        turn: myLegal().length > 0 && !state.busy, hadTurn, busy: state.busy,
        first: ['[data-piece][aria-pressed=true]', '[data-action]'], fallback: ['[data-piece][aria-pressed=true]', '.md-bar'],
      });
    },
    onEvents(events) {
      // The picked piece stays picked while it is legal (placing two walls in a row is common).
      for (const e of events) {
        // A placement taken back: its square is no longer part of the player's last move.
        if (e.type === 'undo') {
          marks.forget(e.player, (e.undone || []).filter((u) => u.type === 'place').map((u) => model.key(u.x, u.y)));
          continue;
        }
        if (e.type === 'turn' || e.type === 'skip' || e.type === 'game_over') { moving = null; continue; }
        if (e.type !== 'place' || !Number.isInteger(e.player)) continue;
        const k = model.key(e.x, e.y);
        if (moving === e.player) marks.add(e.player, k);
        else marks.note(e.player, k);
        moving = e.player;
      }
    },
    destroy() {
      el.remove();
    },
  };
}

export default {
  id: 'medina',
  nameKey: 'medina.name',
  strings, // its English strings; the other languages' are loaded by the registry
  cardArt: 5, // the boxes of its picture on the lobby's card (board.css, .game-art--medina)
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
