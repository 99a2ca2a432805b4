// The replay's analysis (issue 38; GET/POST /tables/<id>/analysis, docs/analysis.md): its state while it is asked
// for and computed ("Analysing… 40%", polled every 2 s), then the graph of the win chances above the slider, the
// marked decision at the position shown (what was played, what the analysis prefers, and that move on the board on
// request), each player's summary with the turning points, and every number in a table for screen readers.
// The replay page places `top` (in its controls), `panel` (above the board) and `bottom` (below it), and tells it
// the position shown (show); the parts keep their state across a change of language (relabel).
import { h, replace, svg } from '../../core/dom.js';
import { t, listText } from '../../core/i18n/index.js';
import { nameOf } from '../../../games/model-parts.js';
import { initialSwatch } from '../../ui/seat-marks.js';
import {
  MARKS, analysisPath, analysisStatus, canAsk, percent, analysisGeometry, nearestPosition, positionX, markedDecisionAt, chanceBefore,
} from '../../models/analysis-model.js';

const POLL_MS = 2000;
const NARROW = { width: 360, height: 200, left: 36 };

/**
 * `replay` is the loaded replay.json; `names()` the seats' names; `words(events)` a step's events in words;
 * `onJump(position)` moves the replay there; `onBoard(step)` draws a step's view on the board (null: the position
 * shown again).
 */
export function createReplayAnalysis({ id, invite, replay, names, words, onJump, onBoard }) {
  const top = h('div', { class: 'analysis-top', 'data-testid': 'analysis' });
  const panel = h('div', { class: 'analysis-panel' });
  const bottom = h('div', { class: 'analysis-bottom' });
  let status = { kind: 'loading' };
  let doc = null;
  let index = 0;
  let better = false; // the preferred move drawn on the board
  let timer = null;
  let destroyed = false;
  let graph = null; // {drawing, cursor, now, geometry}
  // The state in words stays one element while it changes (a live region is announced only if it stays in place).
  const said = h('p', { role: 'status', tabindex: '-1', 'data-testid': 'analysis-status' });
  const extras = h('span', { class: 'analysis-status-extras' });
  const statusBox = h('div', { class: 'analysis-status' }, said, extras);
  const narrow = window.matchMedia('(max-width: 40rem)');
  const onNarrow = () => { if (graph) render(); };
  narrow.addEventListener('change', onNarrow);

  async function request(method) {
    clearTimeout(timer);
    let res;
    let body = null;
    try {
      res = await fetch(analysisPath(id, invite, { ask: method === 'POST' }), { method });
      body = await res.json().catch(() => null);
    } catch {
      if (!destroyed) setStatus({ kind: 'unreachable' });
      return;
    }
    if (destroyed) return;
    const next = analysisStatus(res.status, body, res.headers.get('Retry-After'));
    if (next.kind === 'done' && method === 'POST') { request('GET'); return; }
    if (next.kind === 'done') {
      // A document of another game's length cannot be drawn against this replay.
      if (!body || !Array.isArray(body.positions) || body.positions.length !== replay.steps.length) { setStatus({ kind: 'failed' }); return; }
      doc = body;
    }
    setStatus(next);
    if (next.kind === 'queued' || next.kind === 'running') timer = setTimeout(() => request('GET'), POLL_MS);
  }

  function setStatus(next) {
    const hadFocus = top.contains(document.activeElement);
    status = next;
    render();
    // The button that had the focus is gone: the sentence that replaced it (or the graph's caption) takes it.
    if (hadFocus && !top.contains(document.activeElement)) {
      const next = top.querySelector('[data-testid=analysis-status], .analysis-caption');
      if (next) next.focus();
    }
  }

  function render() {
    graph = null;
    if (status.kind !== 'done') {
      showStatus();
      if (top.firstChild !== statusBox) replace(top, statusBox);
      replace(panel);
      replace(bottom);
      return;
    }
    replace(top, graphFigure());
    replace(bottom, summaryCard());
    show(index);
  }

  function showStatus() {
    const s = status;
    const text = {
      loading: () => t('analysis.loading'),
      absent: () => t('analysis.absent'),
      queued: () => (s.ahead > 0 ? t('analysis.queued', { count: s.ahead }) : t('analysis.queuedNext')),
      running: () => t('analysis.running', { percent: s.percent }),
      busy: () => (s.retryAfter ? t('analysis.busyFor', { count: s.retryAfter }) : t('analysis.busy')),
      off: () => t('analysis.off'),
      unavailable: () => t('analysis.unavailable'),
      unreachable: () => t('analysis.unreachable'),
      private: () => t('analysis.private'),
      noTable: () => t('analysis.noTable'),
      notFinished: () => t('analysis.notFinished'),
      failed: () => t('analysis.failed'),
    }[s.kind]();
    const ask = canAsk(s.kind)
      ? h('button', { type: 'button', class: 'btn', 'data-testid': 'analysis-ask', onclick: () => { setStatus({ kind: 'queued', ahead: 0 }); request('POST'); } },
        s.kind === 'absent' ? t('analysis.ask') : t('analysis.askAgain'))
      : null;
    const progress = s.kind === 'running'
      ? h('progress', { max: '100', value: String(s.percent), 'aria-hidden': 'true' }) : null;
    said.textContent = text;
    said.dataset.kind = s.kind;
    replace(extras, progress, ask);
  }

  const who = (seat) => nameOf(names(), seat, t);
  const markWord = (mark) => t(`analysis.mark.${mark}`);

  function graphFigure() {
    // A phone gets a narrower drawing, so that its labels and marks stay readable once it is scaled to the screen.
    const g = analysisGeometry(doc, narrow.matches ? NARROW : undefined);
    const { plot } = g;
    const cursor = svg('line', { class: 'analysis-cursor', x1: plot.x0, x2: plot.x0, y1: plot.y1, y2: plot.y0 });
    const marks = g.marks.map((m) => {
      const label = t('analysis.markName', { name: who(m.seat), move: m.position, mark: markWord(m.mark) });
      const el = svg('g', {
        class: `analysis-mark is-${m.mark} p${m.seat}`, role: 'button', tabindex: '0', 'aria-label': label,
        'data-position': m.position, 'data-mark': m.mark, 'data-testid': 'analysis-mark',
      }, markShape(m), svg('text', { class: 'analysis-mark-symbol', x: m.x, y: m.y - 9, 'text-anchor': 'middle' }, MARKS[m.mark]),
      svg('title', {}, label));
      el.addEventListener('keydown', (e) => {
        if (e.key !== 'Enter' && e.key !== ' ') return;
        e.preventDefault();
        e.stopPropagation(); // Space here jumps, it does not play the replay
        onJump(m.position);
      });
      return el;
    });
    const drawing = svg('svg', {
      class: 'analysis-graph', viewBox: `0 0 ${g.width} ${g.height}`, role: 'group', 'aria-label': t('analysis.graph'),
      'data-testid': 'analysis-graph', preserveAspectRatio: 'xMidYMid meet',
    },
    ...g.yTicks.map((tick) => svg('g', { class: 'graph-tick', 'aria-hidden': 'true' },
      svg('line', { class: 'graph-grid', x1: plot.x0, x2: plot.x1, y1: tick.y, y2: tick.y }),
      svg('text', { class: 'graph-label', x: plot.x0 - 6, y: tick.y, 'text-anchor': 'end', 'dominant-baseline': 'middle' },
        t('analysis.percent', { percent: percent(tick.value) })))),
    svg('g', { 'aria-hidden': 'true' },
      ...g.xTicks.map((tick) => svg('text', { class: 'graph-label', x: tick.x, y: plot.y0 + 15, 'text-anchor': 'middle' }, String(tick.position))),
      ...g.seats.filter((s) => s.band).map((s) => svg('path', { class: `analysis-band p${s.seat}`, d: s.band })),
      ...g.seats.map((s) => svg('path', { class: `analysis-line p${s.seat} dash${s.seat % 4}`, d: s.path, fill: 'none', 'data-seat': s.seat })),
      cursor),
    ...marks);
    // A click anywhere jumps to the nearest position (on a mark: to its move).
    drawing.addEventListener('click', (e) => {
      const mark = e.target.closest && e.target.closest('[data-position]');
      if (mark) { onJump(Number(mark.dataset.position)); return; }
      const matrix = drawing.getScreenCTM();
      if (!matrix) return;
      const point = new DOMPoint(e.clientX, e.clientY).matrixTransform(matrix.inverse());
      onJump(nearestPosition(point.x, g));
    });
    const now = h('p', { class: 'analysis-now', 'data-testid': 'analysis-now' });
    graph = { drawing, cursor, now, geometry: g };
    const legend = h('ul', { class: 'analysis-legend', 'aria-hidden': 'true' }, g.seats.map((s) => h('li', null,
      svg('svg', { class: 'analysis-key', viewBox: '0 0 24 8', width: '24', height: '8' },
        svg('line', { class: `analysis-line p${s.seat} dash${s.seat % 4}`, x1: 0, x2: 24, y1: 4, y2: 4 })),
      ' ', who(s.seat))));
    return h('figure', { class: 'analysis-figure' },
      h('figcaption', { class: 'analysis-caption', tabindex: '-1' }, t('analysis.caption'), ' ', h('span', { class: 'hint' }, t('analysis.graphHint'))),
      drawing, legend, now);
  }

  /** A mark's shape: a blunder a triangle, a mistake a square, an inaccuracy a circle (and its symbol above). */
  function markShape(m) {
    if (m.mark === 'blunder') return svg('path', { class: 'analysis-mark-shape', d: `M${m.x - 6} ${m.y - 5} L${m.x + 6} ${m.y - 5} L${m.x} ${m.y + 6} Z` });
    if (m.mark === 'mistake') return svg('rect', { class: 'analysis-mark-shape', x: m.x - 4.5, y: m.y - 4.5, width: 9, height: 9 });
    return svg('circle', { class: 'analysis-mark-shape', cx: m.x, cy: m.y, r: 4.5 });
  }

  function summaryCard() {
    const pointsList = (doc.turning_points || []).map((p) => h('li', null, h('button', {
      type: 'button', class: 'btn subtle small', 'data-testid': 'analysis-turning-point', 'data-position': p.version,
      onclick: () => onJump(p.version),
    }, t('analysis.turningPoint', {
      move: p.version, name: who(p.seat), winners: listText((p.winners || []).map(who)), before: percent(p.before), after: percent(p.after),
    }))));
    return h('section', { class: 'card analysis-summary', 'aria-labelledby': 'analysis-summary-title', 'data-testid': 'analysis-summary' },
      h('h2', { id: 'analysis-summary-title' }, t('analysis.summaryTitle')),
      h('ul', { class: 'analysis-players' }, (doc.summary || []).map((s) => h('li', { 'data-seat': s.seat },
        initialSwatch(s.seat, who(s.seat)), ' ', h('strong', null, who(s.seat)), ' ', summaryWords(s)))),
      pointsList.length ? [h('h3', null, t('analysis.turningPoints')), h('ol', { class: 'analysis-turning-points' }, pointsList)] : null,
      numbersTable(),
      h('p', { class: 'hint' }, t('analysis.about', { playouts: doc.settings ? doc.settings.playouts_used : 0 })));
  }

  function summaryWords(s) {
    return t('analysis.summary', {
      inaccuracies: t('analysis.inaccuracies', { count: s.inaccuracies }),
      mistakes: t('analysis.mistakes', { count: s.mistakes }),
      blunders: t('analysis.blunders', { count: s.blunders }),
      best: percent(s.best_found),
    });
  }

  /** Every position's chances per player, and the mark of the move that reached it. */
  function numbersTable() {
    const seats = doc.positions[0].chances.map((_, seat) => seat);
    return h('details', { class: 'analysis-numbers' },
      h('summary', null, t('analysis.numbers')),
      h('table', { 'data-testid': 'analysis-table' },
        h('caption', null, t('analysis.numbersCaption')),
        h('thead', null, h('tr', null, h('th', { scope: 'col' }, t('analysis.move')),
          seats.map((seat) => h('th', { scope: 'col' }, who(seat))), h('th', { scope: 'col' }, t('analysis.markColumn')))),
        h('tbody', null, doc.positions.map((p, i) => {
          const d = markedDecisionAt(doc, i);
          return h('tr', null, h('th', { scope: 'row' }, String(i)),
            p.chances.map((c) => h('td', null, t('analysis.percent', { percent: percent(c) }))),
            h('td', null, d ? t('analysis.markCell', { name: who(d.seat), mark: markWord(d.mark), symbol: MARKS[d.mark] }) : ''));
        }))));
  }

  function decisionPanel(d) {
    const step = d.preferred_step;
    const played = words(replay.steps[d.version + 1].events) || t('analysis.aMove');
    const preferred = step ? (words(step.events) || t('analysis.aMove')) : t('analysis.aMove');
    const toggle = step ? h('button', {
      type: 'button', class: 'btn', 'aria-pressed': better ? 'true' : 'false', 'data-testid': 'analysis-show-better',
      onclick: () => { better = !better; onBoard(better ? step : null); renderPanel(); },
    }, t('analysis.showBetter')) : null;
    return h('section', { class: `card analysis-decision is-${d.mark}`, 'aria-labelledby': 'analysis-decision-title', 'data-testid': 'analysis-decision' },
      h('h2', { id: 'analysis-decision-title' }, t('analysis.decisionTitle', { move: d.version + 1, name: who(d.seat), mark: markWord(d.mark), symbol: MARKS[d.mark] })),
      h('p', { 'data-testid': 'analysis-played' }, t('analysis.played', {
        move: played, name: who(d.seat), before: percent(chanceBefore(doc, d)), after: percent(d.chance_played),
      })),
      h('p', { 'data-testid': 'analysis-better' }, t('analysis.better', { move: preferred, chance: percent(d.chance_preferred) })),
      toggle,
      better ? h('p', { class: 'hint', 'data-testid': 'analysis-board-note' }, t('analysis.boardShowsBetter')) : null);
  }

  function renderPanel() {
    const d = doc && markedDecisionAt(doc, index);
    if (!d) { replace(panel); return; }
    // Keep the focus on the toggle when it redraws itself.
    const focused = panel.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
    replace(panel, decisionPanel(d));
    if (focused) {
      const again = panel.querySelector(`[data-testid=${focused}]`);
      if (again) again.focus();
    }
  }

  /** The replay now shows `position`: the cursor follows, and the better move is no longer drawn. */
  function show(position) {
    if (position !== index) better = false;
    index = position;
    if (graph) {
      const x = positionX(position, graph.geometry);
      graph.cursor.setAttribute('x1', String(x));
      graph.cursor.setAttribute('x2', String(x));
      for (const m of graph.drawing.querySelectorAll('[data-position]')) m.classList.toggle('is-current', Number(m.dataset.position) === position);
      const chances = doc.positions[position].chances.map((c, seat) => t('analysis.chance', { name: who(seat), percent: percent(c) }));
      graph.now.textContent = t('analysis.now', { move: position, chances: chances.join(t('common.listSeparator')) });
    }
    renderPanel();
  }

  request('GET');

  return {
    top, panel, bottom, show,
    relabel() {
      // The board shows the position again when the page is rebuilt: so does the toggle.
      better = false;
      render();
    },
    destroy() {
      destroyed = true;
      clearTimeout(timer);
      narrow.removeEventListener('change', onNarrow);
    },
  };
}
