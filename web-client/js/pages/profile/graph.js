// A rating graph as inline SVG, from js/models/rating-graph.js's geometry: the rating after each rated game, with a
// few ticks on both axes. For screen readers the drawing is one image whose name sums it up ("12 rated games:
// from 1000 to 1234, lowest 980, highest 1250"), and the points are a visually hidden table beside it.
import { h, svg } from '../../core/dom.js';
import { t, language } from '../../core/i18n/index.js';
import { timeWords } from '../../models/account-rules.js';
import { graphGeometry } from '../../models/rating-graph.js';
import { deltaText } from '../../models/ratings.js';

/** The graph of `history` ([{at, value, delta, table}], oldest first) of the game called `game`. */
export function ratingGraph(history, game) {
  const g = graphGeometry(history);
  const { plot, summary } = g;
  // Ratings are written as figures ("1234"), as everywhere, not as the language writes other numbers ("1,234").
  const label = t('profile.graph.label', {
    game, count: summary.count, first: String(summary.first), last: String(summary.last), min: String(summary.min), max: String(summary.max),
  });
  const drawing = svg('svg', {
    class: 'rating-graph', viewBox: `0 0 ${g.width} ${g.height}`, role: 'img', 'aria-label': label, 'data-testid': 'rating-graph',
    preserveAspectRatio: 'xMidYMid meet',
  },
  ...g.yTicks.map((tick) => svg('g', { class: 'graph-tick' },
    svg('line', { class: 'graph-grid', x1: plot.x0, x2: plot.x1, y1: tick.y, y2: tick.y }),
    svg('text', { class: 'graph-label', x: plot.x0 - 6, y: tick.y, 'text-anchor': 'end', 'dominant-baseline': 'middle' }, String(tick.value)))),
  svg('line', { class: 'graph-axis', x1: plot.x0, x2: plot.x1, y1: plot.y0, y2: plot.y0 }),
  ...g.xTicks.map((tick) => svg('text', { class: 'graph-label', x: tick.x, y: plot.y0 + 14, 'text-anchor': 'middle' }, String(tick.game))),
  svg('text', { class: 'graph-label graph-axis-name', x: plot.x1, y: g.height - 4, 'text-anchor': 'end' }, t('profile.graph.games')),
  svg('path', { class: 'graph-line', d: g.path, fill: 'none' }),
  ...g.dots.map((d) => svg('circle', { class: 'graph-dot', cx: d.x, cy: d.y, r: 3.5, 'data-value': d.value })));
  const lang = language();
  const points = h('table', { class: 'visually-hidden', 'data-testid': 'rating-points' },
    h('caption', null, t('profile.graph.tableCaption', { game })),
    h('thead', null, h('tr', null, h('th', { scope: 'col' }, t('profile.graph.game')), h('th', { scope: 'col' }, t('profile.graph.when')),
      h('th', { scope: 'col' }, t('profile.graph.rating')), h('th', { scope: 'col' }, t('profile.graph.change')))),
    h('tbody', null, history.map((p, i) => h('tr', null,
      h('td', null, String(i + 1)), h('td', null, timeWords(p.at, lang)), h('td', null, String(p.value)),
      h('td', null, Number.isFinite(p.delta) ? deltaText(p.delta) : '')))));
  return h('figure', { class: 'rating-graph-figure' }, drawing, points);
}
