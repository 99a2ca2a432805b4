// The robot mark shown on every bot seat (pregame seats, players panel, results, lobby): a small
// inline robot drawing and the words "Bot · Normal" (visually hidden in the compact form, which
// keeps them as the accessible name).
import { h, svg } from '../core/dom.js';
import { t } from '../core/i18n/index.js';
import { botLabel } from '../models/bots.js';

function robot() {
  return svg('svg', { class: 'bot-icon', viewBox: '0 0 16 16', width: 14, height: 14, 'aria-hidden': 'true', focusable: 'false' },
    svg('path', { d: 'M8 1.2v2.6', stroke: 'currentColor', 'stroke-width': 1.4, 'stroke-linecap': 'round', fill: 'none' }),
    svg('circle', { cx: 8, cy: 1.4, r: 1.1, fill: 'currentColor' }),
    svg('rect', { x: 2.2, y: 4.2, width: 11.6, height: 9.6, rx: 2.4, stroke: 'currentColor', 'stroke-width': 1.4, fill: 'none' }),
    svg('circle', { cx: 5.8, cy: 8.4, r: 1.2, fill: 'currentColor' }),
    svg('circle', { cx: 10.2, cy: 8.4, r: 1.2, fill: 'currentColor' }),
    svg('path', { d: 'M6 11.3h4', stroke: 'currentColor', 'stroke-width': 1.3, 'stroke-linecap': 'round', fill: 'none' }));
}

/** The mark for a bot of `level`, or null when `level` is empty (a person). */
export function botMark(level, { compact = false } = {}) {
  if (!level) return null;
  const label = botLabel(level, t);
  return h('span', { class: ['bot-mark', compact ? 'is-compact' : ''], 'data-testid': 'seat-bot', 'data-level': level, title: label },
    robot(), h('span', { class: compact ? 'visually-hidden' : 'bot-mark-text' }, label));
}
