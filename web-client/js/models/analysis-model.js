// Pure: a finished game's analysis (GET /tables/<id>/analysis.json, docs/analysis.md) as the replay page shows it:
// where it is served, what an answer means, the graph's geometry (win chances per seat over the positions, the
// marked decisions as points on the mover's line) and which decision reached a position.
import { niceStep } from './rating-graph.js';

/** The marks, worst first, with the symbol chess readers know (never the colour alone). */
export const MARKS = Object.freeze({ blunder: '??', mistake: '?', inaccuracy: '?!' });

/** Where a table's analysis is read (…/analysis.json) or asked for (…/analysis, POST); a private table's needs its invite. */
export function analysisPath(tableId, invite, { ask = false } = {}) {
  const base = `/tables/${encodeURIComponent(tableId)}/analysis${ask ? '' : '.json'}`;
  return invite ? `${base}?invite=${encodeURIComponent(invite)}` : base;
}

/**
 * What an answer of either route means, from its HTTP status, its JSON body (null if none) and its Retry-After
 * header (seconds, or null): {kind, ...}. Kinds: 'done' (GET: `body` is the analysis; POST: GET it now),
 * 'queued' {ahead}, 'running' {percent}, 'absent' (nobody asked: offer the button), 'busy' {retryAfter},
 * 'off' (this server runs no analyses), 'unavailable', 'private', 'noTable', 'notFinished', 'failed'.
 */
export function analysisStatus(status, body, retryAfter = null) {
  const error = body && typeof body.error === 'string' ? body.error : null;
  if (status === 200) return { kind: 'done' };
  if (status === 202 && body && body.status === 'running') {
    const planned = Number(body.planned);
    const done = Number(body.done);
    const percent = planned > 0 && done >= 0 ? Math.min(100, Math.floor((done / planned) * 100)) : 0;
    return { kind: 'running', percent };
  }
  if (status === 202) return { kind: 'queued', ahead: Math.max(0, Number(body && body.ahead) || 0) };
  if (status === 403) return { kind: 'private' };
  if (status === 404) return { kind: error === 'not_analysed' ? 'absent' : 'noTable' };
  if (status === 409) return { kind: 'notFinished' };
  if (status === 429) {
    const seconds = Number(retryAfter);
    return { kind: 'busy', retryAfter: Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : null };
  }
  if (status === 503) return { kind: error === 'analysis_off' ? 'off' : 'unavailable' };
  return { kind: 'failed' };
}

/** Whether the reader may ask (again) for the analysis in this state: not when the server runs none. */
export function canAsk(kind) {
  return ['absent', 'busy', 'unavailable', 'unreachable', 'failed'].includes(kind);
}

/** A chance (0..1) as a whole percentage. */
export const percent = (chance) => Math.round(Number(chance) * 100);

// In the units of the SVG's viewBox, which scales to the replay's width.
export const ANALYSIS_GRAPH_SIZE = Object.freeze({ width: 800, height: 190, top: 12, right: 12, bottom: 26, left: 40 });

const round = (x) => Math.round(x * 10) / 10;

/**
 * Everything the drawing needs, from the analysis: {width, height, plot: {x0, x1, y0, y1}, last, seats: [{seat,
 * path, band}] (band: the 95% interval as a closed path, '' if none), marks: [{x, y, seat, version, position,
 * mark}] (on the mover's line at the position its move reached), xTicks: [{x, position}], yTicks: [{y, value}]}.
 * x is the position (0..last), y the chance 0..100%.
 */
export function analysisGeometry(analysis, size = ANALYSIS_GRAPH_SIZE) {
  const { width, height, top, right, bottom, left } = { ...ANALYSIS_GRAPH_SIZE, ...size };
  const plot = { x0: left, x1: width - right, y0: height - bottom, y1: top };
  const positions = analysis.positions || [];
  const last = Math.max(0, positions.length - 1);
  const x = (position) => positionX(position, { plot, last });
  const y = (chance) => round(plot.y0 - Math.max(0, Math.min(1, chance)) * (plot.y0 - plot.y1));
  const count = positions.length ? positions[0].chances.length : 0;
  const seats = Array.from({ length: count }, (_, seat) => {
    const path = positions.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(i)} ${y(p.chances[seat])}`).join(' ');
    const withBand = positions.every((p) => p.intervals && p.intervals[seat]);
    const band = withBand && positions.length
      ? [...positions.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(i)} ${y(p.intervals[seat][1])}`),
        ...positions.map((p, i) => [i, p]).reverse().map(([i, p]) => `L${x(i)} ${y(p.intervals[seat][0])}`), 'Z'].join(' ')
      : '';
    return { seat, path, band };
  });
  const marks = (analysis.decisions || []).filter((d) => d.mark && MARKS[d.mark] && positions[d.version + 1])
    .map((d) => ({ x: x(d.version + 1), y: y(positions[d.version + 1].chances[d.seat]), seat: d.seat, version: d.version, position: d.version + 1, mark: d.mark }));
  return {
    width, height, plot, last, seats, marks,
    xTicks: positionTicks(last).map((position) => ({ x: x(position), position })),
    yTicks: [0, 0.25, 0.5, 0.75, 1].map((value) => ({ y: y(value), value })),
  };
}

/** A position's x in a graph of `last + 1` positions (the cursor's, a point's). */
export function positionX(position, { plot, last }) {
  return round(last === 0 ? plot.x0 : plot.x0 + (position / last) * (plot.x1 - plot.x0));
}

/** The positions to label on the x axis: 0, the last, and round ones between that keep clear of both. */
export function positionTicks(last, count = 6) {
  if (last <= 0) return [0];
  const step = Math.max(1, Math.ceil(niceStep(last, count)));
  const ticks = [0];
  for (let p = step; p < last; p += step) if (last - p >= step / 2) ticks.push(p);
  ticks.push(last);
  return ticks;
}

/** The position (0..last) nearest to `x`, a point in the graph's units (outside the plot: the nearer end). */
export function nearestPosition(x, geometry) {
  const { plot, last } = geometry;
  if (last <= 0) return 0;
  const at = ((x - plot.x0) / (plot.x1 - plot.x0)) * last;
  return Math.max(0, Math.min(last, Math.round(at)));
}

/** The marked decision whose move reached `position` (its `version + 1`), or null. */
export function markedDecisionAt(analysis, position) {
  return (analysis.decisions || []).find((d) => d.mark && d.version + 1 === position) || null;
}

/** A seat's chance before a decision (the position it decided in), or null. */
export function chanceBefore(analysis, decision) {
  const p = (analysis.positions || [])[decision.version];
  return p ? p.chances[decision.seat] : null;
}
