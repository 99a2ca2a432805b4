// js/models/vacation-rules.js: the account's vacation part, the lengths offered, and a seat's "on vacation until".
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { dayChoices, seatVacationUntil, seatVacationWords, vacationView } from '../../web-client/js/models/vacation-rules.js';
import { t } from '../../web-client/js/core/i18n/index.js';

test('the account\'s vacation, read defensively', () => {
  assert.deepEqual(vacationView({ until: 1767225600, days_left: 18, days_per_year: 21 }), { until: 1767225600, daysLeft: 18, perYear: 21 });
  assert.deepEqual(vacationView({ until: null, days_left: 21, days_per_year: 21 }), { until: null, daysLeft: 21, perYear: 21 });
  assert.deepEqual(vacationView({ until: 'soon', days_left: -2 }), { until: null, daysLeft: 0, perYear: 0 });
  assert.equal(vacationView(undefined), null, 'a server without vacations: nothing shown');
});

test('a vacation lasts from one day to the days left', () => {
  assert.deepEqual(dayChoices(3), [1, 2, 3]);
  assert.deepEqual(dayChoices(0), []);
  assert.deepEqual(dayChoices(2.5), []);
});

test('a seat says until when its player is away, and nothing otherwise', () => {
  const seat = { seat: 0, name: 'Ann', vacation_until: 1767225600 };
  assert.equal(seatVacationUntil(seat), 1767225600);
  assert.equal(seatVacationUntil({ seat: 0, name: 'Ann' }), null);
  const words = seatVacationWords(seat, t, 'en');
  assert.ok(words.length > 0 && words !== 'table.vacation', words);
  assert.match(words, /2026|2025/);
  assert.equal(seatVacationWords({ seat: 1 }, t, 'en'), '');
});
