// The account page's "Vacation" (issue 35): the days left this year, and either the vacation running ("On vacation
// until …" with "End my vacation") or a length (1 to the days left) and "Start a vacation". While on vacation the
// player's clocks stop in games with a day per move (unless the table forbids vacations) and the other players see
// it. A server without vacations sends no `vacation` part: nothing is shown. The rules are js/models/vacation-rules.js.
import { h } from '../../core/dom.js';
import { t, language } from '../../core/i18n/index.js';
import { errorText } from '../../core/errors.js';
import { formStatus } from '../../ui/form-status.js';
import { timeWords } from '../../models/account-rules.js';
import { dayChoices, vacationView } from '../../models/vacation-rules.js';
import { createActor } from './act.js';

const DAYS_ID = 'account-vacation-days';

/** `reload()` asks for the account again and draws the page. */
export function createVacation({ accounts, reload }) {
  const status = formStatus('account-vacation-status');
  let shown = null; // the vacation part last drawn (vacationView's)
  let focusAfter = null;

  // Too few days left: said with the number this page knows (the server's message is in English).
  const describe = (err) => (err && err.code === 'no_vacation_days' && shown
    ? t('account.vacation.tooFew', { count: shown.daysLeft })
    : errorText(err, 'account.vacation'));

  const act = createActor({
    status, reload, describe,
    settle(err, { after }) { focusAfter = err ? null : after; },
  });

  function startForm(v) {
    const select = h('select', { id: DAYS_ID, name: DAYS_ID, 'data-testid': DAYS_ID },
      dayChoices(v.daysLeft).map((n) => h('option', { value: String(n) }, t('account.vacation.days', { count: n }))));
    return h('form', {
      class: 'account-form', novalidate: true,
      onsubmit: (e) => {
        e.preventDefault();
        act(() => accounts.startVacation(Number(select.value)),
          { ok: () => t('account.vacation.started'), after: '[data-testid=account-vacation-end]' });
      },
    },
    h('div', { class: 'field' }, h('label', { for: DAYS_ID }, t('account.vacation.daysLabel')), select),
    h('div', { class: 'buttons' },
      h('button', { type: 'submit', class: 'btn', 'data-testid': 'account-vacation-start' }, t('account.vacation.start'))));
  }

  function running(v) {
    return h('div', { class: 'account-item' },
      h('p', { class: 'account-item-main', 'data-testid': 'account-vacation-until' },
        t('account.vacation.until', { until: timeWords(v.until, language()) })),
      h('div', { class: 'buttons' },
        h('button', {
          type: 'button', class: 'btn', 'data-testid': 'account-vacation-end',
          onclick: () => act(() => accounts.endVacation(), { ok: () => t('account.vacation.ended'), after: `#${DAYS_ID}` }),
        }, t('account.vacation.end'))));
  }

  function render(details) {
    const v = vacationView(details.vacation);
    shown = v;
    if (!v) return null;
    let action;
    if (v.until) action = running(v);
    else if (v.daysLeft > 0) action = startForm(v);
    else action = h('p', { 'data-testid': 'account-vacation-none' }, t('account.vacation.none'));
    return h('section', { class: 'card account-section', 'aria-labelledby': 'vacation-h', 'data-testid': 'account-vacation' },
      h('h2', { id: 'vacation-h' }, t('account.vacation.heading')),
      h('p', { class: 'hint' }, t('account.vacation.intro')),
      h('p', { 'data-testid': 'account-vacation-left' }, t('account.vacation.left', { count: v.daysLeft, total: v.perYear })),
      action,
      status.render());
  }

  /** The element to focus once the page is drawn (after an action), or null. */
  function takeFocus(root) {
    const selector = focusAfter;
    focusAfter = null;
    return selector ? root.querySelector(selector) : null;
  }

  return { render, takeFocus };
}
