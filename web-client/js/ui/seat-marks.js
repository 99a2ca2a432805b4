// The marks every seat shows wherever it is drawn (the table's panels, the boards, "My games"): its
// colour swatch, "(you)" for the viewer, the connection state in words, "on vacation until …", and "Report" on
// someone else's seat.
import { h } from '../core/dom.js';
import { t, language } from '../core/i18n/index.js';
import { seatVacationWords } from '../models/vacation-rules.js';

/** A seat's colour swatch; `extra`: more classes. Decorative: the name beside it says whose it is. */
export function swatch(seat, text, extra = '') {
  return h('span', { class: ['swatch', `p${seat}`, extra], 'aria-hidden': 'true' }, text);
}

/** A seat's swatch with the first letter of its name (the seat number for an empty seat). */
export function initialSwatch(seat, name) {
  const first = name ? [...name.trim()][0] : null;
  return swatch(seat, first ? first.toUpperCase() : String(seat + 1));
}

export function youTag(testid = null) {
  return [' ', h('small', { class: 'you-tag', 'data-testid': testid }, t('common.youTag'))];
}

/** "on vacation until …" beside the name of a seat whose player is on vacation; null otherwise. */
export function vacationTag(seat) {
  const words = seatVacationWords(seat, t, language());
  return words ? h('small', { class: 'vacation-tag', 'data-testid': 'vacation' }, words) : null;
}

export function connText(seat) {
  return seat.connected ? t('table.seat.connected') : t('table.seat.disconnected');
}

/**
 * "Report" on someone else's seat (a person, not a bot) for a signed-in viewer (`canReport`), or null; `me` is the
 * viewer's seat (null unless seated). `onReport(name)` opens the report dialog.
 */
export function seatReportButton(seat, { me, canReport, isBot, onReport }) {
  if (!canReport || !seat.name || isBot || seat.seat === me) return null;
  return h('button', {
    type: 'button', class: 'btn subtle small seat-report', 'data-testid': 'seat-report', 'data-focus': `seat-report-${seat.seat}`,
    'aria-label': t('table.chat.reportPlayerLabel', { name: seat.name }), onclick: () => onReport(seat.name),
  }, t('table.chat.report'));
}
