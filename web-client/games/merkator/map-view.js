// The Merkator map: roads, nodes, name plates, cube stacks and the pawn (placed by map-layout.js so that
// plates overlap nothing; each plate as wide as its text in the page's own font), and — when the viewer may
// travel — a button over each place they can go to (the same action as the move panel's button). The colour key
// (mapKey) is the board's to place: beside or below the map. On a narrow board the map can be shown larger
// (`zoom`), in a frame that slides sideways.
import { h } from '../../js/core/dom.js';
import { markProps } from '../../js/models/last-moves.js';
import * as model from './model.js';
import { layoutMap, NODE_R, CUBE, LABEL_FONT } from './map-layout.js';

const SVG = 'http://www.w3.org/2000/svg';
const MAX_CUBES = CUBE.perRow * CUBE.rows;
/** Room kept beside a measured text: a plate's text never touches its edge. */
const TEXT_SLACK = 1.06;

export function s(tag, attrs = null, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.setAttribute('class', Array.isArray(v) ? v.filter(Boolean).join(' ') : v);
    else if (k === 'text') el.textContent = String(v);
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat(Infinity)) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

export const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '±0');

let canvas = null;
/**
 * Each plate's text width in map units as the page draws it (its font and language: the name in bold, the time
 * value bolder), measured on a canvas; null where there is no canvas (the layout then estimates).
 */
function measuredWidths(plates) {
  try {
    if (typeof document === 'undefined' || !document.body) return null;
    canvas = canvas || document.createElement('canvas');
    const ctx = canvas.getContext('2d');
    if (!ctx) return null;
    const family = getComputedStyle(document.body).fontFamily || 'sans-serif';
    const size = 100;
    return plates.map(({ name, time }) => {
      ctx.font = `700 ${size}px ${family}`;
      const a = ctx.measureText(`${name} `).width;
      ctx.font = `800 ${size}px ${family}`;
      const b = ctx.measureText(time).width;
      return ((a + b) / size) * LABEL_FONT * TEXT_SLACK;
    });
  } catch {
    return null;
  }
}

let cached = null;
/** The layout for the installed catalog, with its names in the page's language (computed once per data file, language and font). */
function layoutFor(c, t) {
  const plates = c.locationIds.map((id) => ({ name: model.locationName(id, t, c), time: signed(c.locations.get(id).time) }));
  const widths = measuredWidths(plates);
  const locations = c.locationIds.map((id, i) => ({
    id, kind: c.locations.get(id).kind, text: `${plates[i].name} ${plates[i].time}`, textWidth: widths ? widths[i] : undefined,
  }));
  const key = locations.map((l) => `${l.text}:${l.textWidth ? l.textWidth.toFixed(2) : ''}`).join('|');
  if (!cached || cached.c !== c || cached.key !== key) cached = { c, key, layout: layoutMap(locations, c.roadList) };
  return cached.layout;
}

/**
 * The colour key: per colour its cube, its two goods (each a word of its own, never cut) and the place whose
 * cubes they are. `c` the catalog, `t` the strings.
 */
export function mapKey({ c, t }) {
  const GOODS = '\u0001';
  return h('section', { class: 'mk-card mk-map-key', 'aria-labelledby': 'mk-key-h', 'data-testid': 'map-key' },
    h('h3', { id: 'mk-key-h' }, t('merkator.map.key')),
    h('ul', { class: 'mk-key' }, c.colourIds.map((col) => {
      const home = (c.colours.get(col) || {}).home;
      const goods = ((c.colours.get(col) || {}).goods || []).map((g) => model.goodName(g, t, c));
      const names = goods.map((g, i) => [i ? ' / ' : '', h('span', { class: 'mk-key-good' }, g)]);
      const text = home && c.locations.get(home) ? t('merkator.map.keyHome', { goods: GOODS, location: model.locationName(home, t, c) }) : GOODS;
      const [before, after = ''] = text.split(GOODS);
      return h('li', { 'data-colour': col },
        h('span', { class: ['cube', 'cube--small', `mk-col--${col}`], 'aria-hidden': 'true' }),
        h('span', { class: 'mk-key-text' }, before, names, after));
    })));
}

/**
 * ctx: { c, v, t, targets: Map(location → {action, label}), act(action), busy, mark(key, classes) → attrs,
 * markTitle(key) → text|null, zoom: { on, toggle(), hint } (the larger map on a narrow board) }.
 */
export function mapView({ c, v, t, targets, act, busy, mark, markTitle, zoom = null }) {
  const { viewBox: vb, places } = layoutFor(c, t);
  const goodsOf = (colour) => model.listText(((c.colours.get(colour) || {}).goods || []).map((g) => model.goodName(g, t, c)), t);
  const roads = c.roadList.filter(([a, b]) => places.has(a) && places.has(b)).map(([a, b]) => {
    const p = places.get(a);
    const q = places.get(b);
    return s('line', { class: 'mk-road', x1: p.x, y1: p.y, x2: q.x, y2: q.y });
  });
  const titled = (key, text) => {
    const who = markTitle(key);
    return s('title', { text: who ? `${text} — ${who}` : text });
  };
  const nodes = [];
  const overlays = [];
  for (const id of c.locationIds) {
    const loc = c.locations.get(id);
    const name = model.locationName(id, t, c);
    const p = places.get(id);
    const major = loc.kind === 'major';
    const n = major ? v.cubes[id] || 0 : 0;
    const here = v.location === id;
    const target = targets.get(id);
    const stack = [];
    if (major && n > 0) {
      for (let i = 0; i < Math.min(n, MAX_CUBES); i++) {
        stack.push(s('rect', {
          class: `mk-map-cube mk-fill--${loc.colour}`, width: CUBE.w, height: CUBE.h, rx: 0.6,
          x: p.stack.x + (i % CUBE.perRow) * CUBE.dx, y: p.stack.y + Math.floor(i / CUBE.perRow) * CUBE.dy,
        }));
      }
      stack.push(s('text', { class: 'mk-loc-count', x: p.stack.x + CUBE.perRow * CUBE.dx + 0.2, y: p.stack.y + CUBE.h - 0.3, text: `${n}` }));
    }
    const stackName = t('merkator.map.stack', { location: name, count: n, goods: goodsOf(loc.colour) });
    nodes.push(s('g', {
      ...mark(`loc:${id}`, ['mk-loc', major ? 'is-major' : 'is-minor', here ? 'is-here' : '', target ? 'is-target' : '']),
      'data-location': id,
    },
    titled(`loc:${id}`, t(major ? 'merkator.map.major' : 'merkator.map.minor', { location: name, count: n, time: signed(loc.time) })),
    target ? s('circle', { class: 'mk-target-ring', cx: p.x, cy: p.y, r: NODE_R }) : null,
    major ? s('circle', { class: `mk-node mk-fill--${loc.colour}`, cx: p.x, cy: p.y, r: 4.2 })
      : s('rect', { class: 'mk-node mk-minor', x: p.x - 3.6, y: p.y - 3.6, width: 7.2, height: 7.2, rx: 1.2 }),
    s('g', { class: 'mk-label', 'data-label': id },
      s('rect', { class: 'mk-plate', x: p.label.x, y: p.label.y, width: p.label.w, height: p.label.h, rx: 1 }),
      s('text', { class: 'mk-loc-name', x: p.label.tx, y: p.label.ty, 'text-anchor': 'middle' },
        name, ' ', s('tspan', { class: 'mk-loc-time', text: signed(loc.time) }))),
    stack.length ? s('g', { ...mark(`stack:${id}`, ['mk-stack']), 'data-stack': id, role: 'img', 'aria-label': stackName },
      titled(`stack:${id}`, stackName), stack) : null,
    here ? s('g', { ...mark('pawn', ['mk-pawn']), 'data-pawn': id },
      titled('pawn', t('merkator.map.pawn', { location: name })),
      s('circle', { class: 'mk-pawn-ring', cx: p.x, cy: p.y, r: NODE_R - 0.4 }),
      s('circle', { class: 'mk-pawn-head', cx: p.x, cy: p.y, r: 2 })) : null));
    if (target) {
      overlays.push(h('button', {
        type: 'button', class: 'mk-map-go', 'data-action': 'travel', 'data-location': id,
        'data-focus': `map-travel-${id}`, 'aria-label': target.label, ...target.hint,
        'aria-disabled': busy ? 'true' : null,
        style: {
          left: `${((p.x - vb.x) / vb.w) * 100}%`, top: `${((p.y - vb.y) / vb.h) * 100}%`,
          width: `${((2.4 * NODE_R) / vb.w) * 100}%`,
        },
        onclick: () => { if (!busy) act(target.action); },
      }));
    }
  }
  const summary = c.locationIds.filter((id) => model.isMajor(c, id)).map((id) => t('merkator.map.cubesAt', { location: model.locationName(id, t), count: v.cubes[id] || 0 }));
  const zoomed = Boolean(zoom && zoom.on);
  return h('section', { class: ['mk-card', 'mk-map', zoomed ? 'is-zoomed' : ''], 'aria-labelledby': 'mk-map-h', 'data-testid': 'map' },
    h('h2', { id: 'mk-map-h', class: 'visually-hidden' }, t('merkator.map.heading')),
    zoom ? h('button', {
      type: 'button', class: 'btn small subtle mk-zoom', 'aria-pressed': zoomed ? 'true' : 'false', 'data-focus': 'map-zoom',
      ...zoom.hint, onclick: () => zoom.toggle(),
    }, t('merkator.map.zoom')) : null,
    h('div', { class: 'mk-map-scroll' },
      h('div', { class: 'mk-map-frame', style: { '--mk-aspect': String(vb.w / vb.h) } },
        s('svg', {
          viewBox: `${vb.x} ${vb.y} ${vb.w} ${vb.h}`, role: 'img', 'aria-describedby': 'mk-map-hint',
          'aria-label': t('merkator.map.label', { list: summary.join(t('common.listSeparator')) }),
        }, roads, nodes),
        overlays)),
    h('p', { class: 'visually-hidden', id: 'mk-map-hint' }, t('merkator.map.keyHint')));
}

/** Where the pawn stands, in words (the board's head shows it). */
export function pawnLine(c, v, t) {
  return v.location ? t('merkator.map.pawn', { location: model.locationName(v.location, t, c) }) : t('merkator.map.noPawn');
}
