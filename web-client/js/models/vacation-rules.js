// Vacations (issue 35) without DOM: what the account page and the table show of them.
//
// GET /api/account has "vacation":{"until":<unix seconds>|null,"days_left":n,"days_per_year":21}; POST
// /api/account/vacation {"days":n} (1..days left) starts one now, POST /api/account/vacation/end ends it early (a day
// started counts as used). At a table with a correspondence clock that allows vacations, a seat whose player is on
// vacation carries "vacation_until":<unix seconds>: everyone at the table sees it (js/models/clock-rules.js has
// what the clock does meanwhile).
import { timeWords } from './account-rules.js';

const count = (n) => (Number.isInteger(n) && n > 0 ? n : 0);

/** The account's vacation part, or null when the server has none: {until (seconds) or null, daysLeft, perYear}. */
export function vacationView(vacation) {
  if (!vacation || typeof vacation !== 'object') return null;
  const until = Number.isFinite(vacation.until) && vacation.until > 0 ? vacation.until : null;
  return { until, daysLeft: count(vacation.days_left), perYear: count(vacation.days_per_year) };
}

/** The lengths a vacation may have now: 1 to the days left. */
export function dayChoices(daysLeft) {
  return Array.from({ length: count(daysLeft) }, (_, i) => i + 1);
}

/** Until when a seat's player is on vacation (seconds), or null. */
export function seatVacationUntil(seat) {
  return seat && Number.isFinite(seat.vacation_until) && seat.vacation_until > 0 ? seat.vacation_until : null;
}

/** "on vacation until 2 Dec 2026, 14:05" (in the viewer's language) for a seat on vacation; '' otherwise. */
export function seatVacationWords(seat, t, lang) {
  const until = seatVacationUntil(seat);
  return until === null ? '' : t('table.vacation', { until: timeWords(until, lang) });
}
