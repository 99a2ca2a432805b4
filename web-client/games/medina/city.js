// The Medina city as a grid of 20 × 15 cells: the letters and numbers along the four edges
// (model.edgeLabels, the same names the log uses), the ring of wall spaces with a numbered tower
// on each corner, and the 16 × 11 squares with streets between them. Only the squares of the
// chosen piece's legal list are buttons; every other square is text. Each player's last move is
// marked on its squares (markProps). Pure rendering: board.js owns the state.
import * as model from './model.js';
import { h } from '../../js/core/dom.js';
import { markProps } from '../../js/models/last-moves.js';
import { markBy } from '../board-parts.js';

const { WIDTH } = model;

// The market square: decoration in the middle of the city (columns G–J, rows 5–7), drawn as one
// paved place with a fountain across its squares. Every square there is an ordinary square.
const MARKET = { x: 6, y: 4, w: 4, h: 3 };
const inMarket = (x, y) => x >= MARKET.x && x < MARKET.x + MARKET.w && y >= MARKET.y && y < MARKET.y + MARKET.h;

const SIDES = [[0, -1, 'n'], [1, 0, 'e'], [0, 1, 's'], [-1, 0, 'w']];

/** The first letter of a name (for a dome or a swatch), or the seat's number. */
export function initial(name, p, t) {
  const n = (name || model.nameOf([], p, t)).trim();
  return [...n][0] ? [...n][0].toUpperCase() : String(p + 1);
}

/**
 * ctx: { t, state, group (the chosen piece's legal group or null), marks (last moves), name(p),
 * groupLabel(g), onAction(action), onKeyDown }.
 */
export function renderCity(v, ctx) {
  const { t, state, group, marks, name } = ctx;
  const board = model.squares(v);
  const busy = Boolean(state.busy);
  const nextWalls = new Set(v.arms.filter((a) => a.next).map((a) => model.key(a.next[0], a.next[1])));
  const edges = model.edgeLabels();
  const colourName = (c) => model.colourText(c, t);

  function whoseText(p) {
    if (p.owner !== null) return p.blocking ? t('medina.square.blocked', { name: name(p.owner) }) : t('medina.square.owned', { name: name(p.owner) });
    const who = model.claimants(v, p);
    const state = p.status === 'completed' ? t('medina.square.completed') : t('medina.square.unclaimed');
    const claim = who.length ? t('medina.square.claimants', { names: model.listText(who.map(name), t) }) : t('medina.square.nobody');
    return `${state}; ${claim}`;
  }

  function squareText(x, y, s, tower) {
    const where = model.placeText(x, y, t);
    if (tower) {
      const holder = v.tower_tiles[tower - 1];
      return t(holder === null ? 'medina.square.tower' : 'medina.square.towerHeld', { where, n: tower, name: holder === null ? '' : name(holder) });
    }
    if (!s) return where;
    if (s.kind === 'resident') return t('medina.square.resident', { where });
    if (s.kind === 'wall') return t('medina.square.wall', { where, tower: s.tower });
    const p = v.palaces[s.palace];
    const what = s.kind === 'stable' ? t('medina.square.stable', { where, colour: colourName(p.colour) })
      : t('medina.square.palace', { where, colour: colourName(p.colour) });
    const dome = p.dome && p.dome[0] === x && p.dome[1] === y ? t('medina.square.dome') : '';
    return `${what}, ${whoseText(p)}${dome}`;
  }

  /** The dome's colour class: the owner's colour (3-4 players) or the dome's own (2 players). */
  function domeClass(p) {
    const d = v.seats[p.owner] && v.seats[p.owner].domes;
    if (d && typeof d === 'object') return `dome-${p.blocking ? d.blocking_colour : d.scoring_colour}`;
    return `p${p.owner}`;
  }

  function building(x, y, s) {
    const p = v.palaces[s.palace];
    const joins = SIDES
      .filter(([dx, dy]) => { const o = board.get(model.key(x + dx, y + dy)); return o && (o.kind === 'palace' || o.kind === 'stable') && o.palace === s.palace; })
      .map(([, , side]) => `j-${side}`);
    const owned = p.owner !== null ? ['is-owned', `p${p.owner}`, p.blocking ? 'is-blocked' : ''] : ['is-open'];
    let top = null;
    if (p.dome && p.dome[0] === x && p.dome[1] === y) {
      // The owner's initial on the dome: the player colour is never the only sign of whose it is.
      top = h('span', { class: ['md-dome', domeClass(p), p.blocking ? 'is-blocking' : ''] }, initial(state.names[p.owner], p.owner, t));
    } else if (p.owner === null && p.pieces[0][0] === x && p.pieces[0][1] === y) {
      // Unclaimed: an empty dome outline with a question mark on the palace's first piece.
      top = h('span', {
        class: ['md-dome', 'md-dome--open', p.status === 'completed' ? 'is-completed' : ''],
        'data-testid': 'unclaimed', 'data-palace': String(p.id), 'data-claimants': model.claimants(v, p).join(' '),
      }, '?');
    }
    return h('span', {
      class: ['md-block', s.kind === 'palace' ? `c-${p.colour}` : 'md-block--stable', ...joins, ...owned, p.status === 'completed' ? 'is-completed' : ''],
      'aria-hidden': 'true',
    }, top);
  }

  function pieceOn(x, y, s, tower) {
    if (tower) {
      const holder = v.tower_tiles[tower - 1];
      // The holder's initial beside the number: the player colour is never the only sign of whose it is.
      return h('span', { class: ['md-tower', holder === null ? '' : `p${holder} is-held`], 'aria-hidden': 'true' }, String(tower),
        holder === null ? null : h('span', { class: 'md-tower-holder' }, initial(state.names[holder], holder, t)));
    }
    if (!s) return null;
    if (s.kind === 'palace' || s.kind === 'stable') return building(x, y, s);
    if (s.kind === 'resident') return h('span', { class: 'md-resident', 'aria-hidden': 'true' });
    return h('span', { class: ['md-wall', `tw${s.tower}`], 'aria-hidden': 'true' }, h('span', null, String(s.tower)));
  }

  function cell(x, y) {
    const k = model.key(x, y);
    const s = board.get(k);
    const tower = model.towerAt(x, y);
    const city = model.inCity(x, y);
    const classes = ['md-sq', tower ? 'md-sq--tower' : city ? 'md-sq--city' : 'md-sq--ring'];
    if (s) classes.push(`has-${s.kind}`);
    else if (nextWalls.has(k)) classes.push('is-next');
    const style = {};
    if (city && inMarket(x, y)) {
      classes.push('md-sq--market');
      style['--mx'] = String(x - MARKET.x);
      style['--my'] = String(y - MARKET.y);
    }
    const mark = marks.at(k);
    const markText = mark ? t('common.lastMove', { name: name(mark.player) }) : '';
    const label = [squareText(x, y, s, tower), markText].filter(Boolean).join('; ');
    const content = pieceOn(x, y, s, tower);
    const action = group && group.actions.get(k);
    const common = { 'data-x': String(x), 'data-y': String(y), style, ...markProps(mark, classes), ...markBy(mark, state.names, t) };
    if (action) {
      const where = model.placeText(x, y, t);
      return h('button', {
        ...common, type: 'button', class: [...common.class, 'is-legal', `pick-${group.piece}`],
        'data-action': 'place', 'data-focus': `sq-${k}`, 'aria-disabled': busy ? 'true' : null,
        'aria-label': t('medina.square.place', { piece: ctx.groupLabel(group), where, now: label }),
        ...ctx.hint(action, board),
        onclick: () => { if (!state.busy) ctx.onAction(action); },
      }, content, h('span', { class: 'md-target', 'aria-hidden': 'true' }));
    }
    if (s || tower || mark) return h('div', { ...common, role: 'img', 'aria-label': label, title: label }, content);
    return h('div', { ...common, title: label }, content);
  }

  const edge = (side, text, at) => h('span', { class: ['md-edge', `md-edge--${side}`], 'data-edge': side, ...at, 'aria-hidden': 'true' }, text);
  const cells = [];
  const columnRow = (side) => [h('span', { class: 'md-edge md-edge--corner', 'aria-hidden': 'true' }),
    ...edges.columns.map((c) => edge(side, c.text, { 'data-col': String(c.x) })),
    h('span', { class: 'md-edge md-edge--corner', 'aria-hidden': 'true' })];
  cells.push(...columnRow('top'));
  for (const r of edges.rows) {
    cells.push(edge('left', r.text, { 'data-row': String(r.y) }));
    for (let x = -1; x <= WIDTH; x++) cells.push(cell(x, r.y));
    cells.push(edge('right', r.text, { 'data-row': String(r.y) }));
  }
  cells.push(...columnRow('bottom'));

  return h('section', { class: 'md-card md-citycard', 'aria-labelledby': 'md-city-h' },
    h('h2', { id: 'md-city-h', class: 'visually-hidden' }, t('medina.city.heading')),
    // A city that slides sideways (phones) and holds no control (not the viewer's pick) takes the focus itself, so
    // that the keyboard can slide it too.
    h('div', { class: 'md-city-scroll', tabindex: group ? null : '0', role: group ? null : 'group', 'aria-labelledby': group ? null : 'md-city-h' },
      h('div', { class: ['md-city', group ? 'is-picking' : ''], 'data-testid': 'city', onkeydown: ctx.onKeyDown }, cells)),
    h('ul', { class: 'hint md-legend' },
      h('li', null, t('medina.city.legend')),
      h('li', null, h('span', { class: 'md-legend-mark', 'aria-hidden': 'true' }), t('medina.city.marks')),
      h('li', null, h('span', { class: 'md-legend-open', 'aria-hidden': 'true' }, '?'), t('medina.city.unclaimedMark'))));
}
