// The geometry of a rating graph (pure; the profile page draws it as inline SVG, js/pages/profile/graph.js;
// tested in tests/web-client/rating-graph.test.mjs). Points are a player's rating after each rated game,
// oldest first ({at, value}); x is the game's number (a burst of games on one evening stays readable), y the
// rating, on "nice" ticks (steps of 1, 2 or 5 times a power of ten) that cover every point.

// In the units of the SVG's viewBox, which scales to the card's width: small enough that its 11-unit labels stay
// readable in a card a third of a desktop wide.
export const GRAPH_SIZE = Object.freeze({ width: 380, height: 180, top: 10, right: 12, bottom: 30, left: 40 });

/** A step of 1, 2, 2.5 or 5 × 10^k near `span / count`. */
export function niceStep(span, count) {
  const raw = Math.max(span, 1e-9) / Math.max(count, 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].find((m) => m * power >= raw) * power;
  return step;
}

/** About `count` round values from below `min` to above `max` (a flat line gets some room above and below). */
export function niceTicks(min, max, count = 4) {
  let lo = min;
  let hi = max;
  if (hi - lo < 10) { lo -= 10; hi += 10; }
  if (min >= 0) lo = Math.max(lo, 0); // a displayed rating is never below 0
  const step = niceStep(hi - lo, count);
  const first = Math.floor(lo / step) * step;
  const ticks = [];
  for (let v = first; v <= hi + step * 1e-9 || ticks.length < 2; v += step) ticks.push(Math.round(v * 1000) / 1000);
  if (ticks[ticks.length - 1] < hi) ticks.push(ticks[ticks.length - 1] + step);
  return ticks;
}

/** The games' numbers to label on the x axis: the first, the last and a few round ones between. */
export function gameTicks(n, count = 5) {
  if (n <= 0) return [];
  if (n <= count) return Array.from({ length: n }, (_, i) => i + 1);
  const step = Math.ceil(niceStep(n - 1, count - 1));
  const ticks = [1];
  for (let g = step; g < n; g += step) if (g - 1 >= step / 2 && n - g >= step / 2) ticks.push(g);
  ticks.push(n);
  return [...new Set(ticks)];
}

const round = (x) => Math.round(x * 10) / 10;

/**
 * Everything the drawing needs: {width, height, plot: {x0, x1, y0, y1}, path ('' for no points), dots:
 * [{x, y, game, at, value}], xTicks: [{x, game}], yTicks: [{y, value}], summary: {count, first, last, min, max}}.
 * One point sits in the middle. Coordinates are rounded to a tenth of a pixel.
 */
export function graphGeometry(points, size = GRAPH_SIZE) {
  const { width, height, top, right, bottom, left } = { ...GRAPH_SIZE, ...size };
  const pts = (points || []).filter((p) => p && Number.isFinite(p.value));
  const plot = { x0: left, x1: width - right, y0: height - bottom, y1: top };
  if (pts.length === 0) {
    return { width, height, plot, path: '', dots: [], xTicks: [], yTicks: [], summary: { count: 0, first: null, last: null, min: null, max: null } };
  }
  const values = pts.map((p) => p.value);
  const min = Math.min(...values);
  const max = Math.max(...values);
  const yTickValues = niceTicks(min, max);
  const lo = yTickValues[0];
  const hi = yTickValues[yTickValues.length - 1];
  const y = (v) => round(plot.y0 - ((v - lo) / (hi - lo)) * (plot.y0 - plot.y1));
  const n = pts.length;
  const x = (game) => round(n === 1 ? (plot.x0 + plot.x1) / 2 : plot.x0 + ((game - 1) / (n - 1)) * (plot.x1 - plot.x0));
  const dots = pts.map((p, i) => ({ x: x(i + 1), y: y(p.value), game: i + 1, at: p.at, value: p.value }));
  return {
    width,
    height,
    plot,
    path: dots.map((d, i) => `${i === 0 ? 'M' : 'L'}${d.x} ${d.y}`).join(' '),
    dots,
    xTicks: gameTicks(n).map((game) => ({ x: x(game), game })),
    yTicks: yTickValues.map((value) => ({ y: y(value), value })),
    summary: { count: n, first: values[0], last: values[n - 1], min, max },
  };
}
