// The moderators' page (/moderation): the open reports, oldest first (GET /api/moderation/reports). Each says who
// reported whom, why, the note, when, the table (its page, or its replay once finished) and the chat as the
// reporter saw it, the reported line marked. A moderator acts on it: Dismiss, Warn, Mute (1, 24 or 168 hours) or
// Suspend (24, 168 or 720 hours), always with a reason the player is told (POST /api/moderation/act); the report
// then leaves the list. Anyone else is told "Only moderators can see this page" (403).
import { h, replace, keepValues } from '../core/dom.js';
import { t, language } from '../core/i18n/index.js';
import { errorText } from '../core/errors.js';
import { tablePath, replayPath } from '../core/route.js';
import { timeWords } from '../models/account-rules.js';
import { formStatus } from '../ui/form-status.js';

const ACTIONS = ['dismiss', 'warn', 'mute', 'suspend'];
const HOURS = { mute: [1, 24, 168], suspend: [24, 168, 720] };

export function mountModeration(root, ctx) {
  const { accounts, setTitle } = ctx;
  let reports = null;
  let failure = null;
  let destroyed = false;
  const statuses = new Map(); // report id → its form's status
  const pageStatus = formStatus('moderation-status');

  function chatContext(context) {
    const lines = context && Array.isArray(context.chat) ? context.chat : [];
    if (!lines.length) return h('p', { class: 'hint' }, t('moderation.noChat'));
    const marked = context.line ? context.line.id : null;
    return h('ol', { class: 'moderation-chat', 'aria-label': t('moderation.chat') }, lines.map((l) => {
      const reported = marked !== null && l.id === marked;
      return h('li', { class: ['moderation-line', reported ? 'is-reported' : ''], 'data-testid': reported ? 'reported-line' : null },
        h('strong', null, l.from), l.channel === 'spectators' ? h('span', { class: 'hint' }, ` (${t('table.chat.spectator')})`) : null, ': ',
        reported ? h('mark', null, l.text) : h('span', null, l.text),
        reported ? h('span', { class: 'visually-hidden' }, ` (${t('moderation.reportedLine')})`) : null);
    }));
  }

  function tableLink(report) {
    const table = report.context && report.context.table;
    const finished = table && table.state === 'finished';
    return h('a', { href: finished ? replayPath(report.table) : tablePath(report.table), 'data-link': '' },
      t(finished ? 'moderation.replay' : 'moderation.table', { id: report.table }));
  }

  function actionForm(report) {
    const status = statuses.get(report.id) || formStatus(`moderation-act-status`);
    statuses.set(report.id, status);
    const prefix = `act-${report.id}`;
    const hoursField = h('select', { id: `${prefix}-hours`, 'data-testid': 'mod-hours' });
    const hoursLabel = h('label', { for: `${prefix}-hours` }, t('moderation.hours'));
    const hoursBox = h('div', { class: 'field', hidden: true }, hoursLabel, hoursField);
    const reason = h('input', { id: `${prefix}-reason`, type: 'text', required: true, maxlength: '500', 'data-testid': 'mod-reason', 'aria-describedby': `${prefix}-reason-hint` });
    function showHours() {
      const picked = form.querySelector(`input[name="${prefix}-action"]:checked`);
      const list = picked ? HOURS[picked.value] : null;
      hoursBox.hidden = !list;
      if (list) replace(hoursField, list.map((n) => h('option', { value: String(n) }, t('moderation.hoursN', { count: n }))));
    }
    const form = h('form', {
      class: 'moderation-act',
      onsubmit: async (e) => {
        e.preventDefault();
        const picked = form.querySelector(`input[name="${prefix}-action"]:checked`);
        if (!picked) { status.set('error', () => t('moderation.chooseAction')); return; }
        if (!reason.value.trim()) { status.set('error', () => t('moderation.needReason')); reason.focus(); return; }
        const body = { report: report.id, action: picked.value, reason: reason.value.trim() };
        if (HOURS[picked.value]) body.hours = Number(hoursField.value);
        status.set('busy', () => t('moderation.sending'));
        try {
          await accounts.post('/api/moderation/act', body);
          reports = reports.filter((r) => r.id !== report.id);
          statuses.delete(report.id);
          pageStatus.set('ok', () => t(`moderation.done.${picked.value}`, { name: report.account }));
          draw();
          root.querySelector('h1').focus({ preventScroll: true });
        } catch (err) {
          status.set('error', () => errorText(err, 'moderation'));
        }
      },
    },
    h('fieldset', null, h('legend', null, t('moderation.action')),
      ACTIONS.map((a) => h('label', { class: 'moderation-choice' },
        h('input', { type: 'radio', name: `${prefix}-action`, value: a, 'data-testid': `mod-action-${a}`, onchange: showHours }), ' ',
        t(`moderation.action.${a}`)))),
    hoursBox,
    h('div', { class: 'field' },
      h('label', { for: `${prefix}-reason` }, t('moderation.reason')), reason,
      h('p', { class: 'hint', id: `${prefix}-reason-hint` }, t('moderation.reasonHint'))),
    h('button', { type: 'submit', class: 'btn primary', 'data-testid': 'mod-submit' }, t('moderation.submit')),
    status.render());
    return form;
  }

  function reportCard(report) {
    return h('li', { class: 'card moderation-report', 'data-testid': 'moderation-report', 'data-account': report.account },
      h('h2', null, t('moderation.who', { reporter: report.reporter, name: report.account })),
      h('p', null, h('strong', null, t(`report.reason.${report.reason}`)), ' · ', timeWords(report.at, language()), ' · ', tableLink(report)),
      report.note ? h('blockquote', { class: 'report-quote', 'data-testid': 'report-note-shown' }, report.note) : null,
      h('h3', null, t('moderation.chat')),
      chatContext(report.context),
      actionForm(report));
  }

  function draw() {
    if (destroyed) return;
    setTitle(t('app.title.moderation'));
    const heading = h('h1', { tabindex: '-1' }, t('moderation.heading'));
    let body;
    if (failure && (failure.code === 'not_moderator' || failure.status === 403 || failure.code === 'not_signed_in')) {
      body = h('p', { class: 'card', 'data-testid': 'moderation-refused' }, t('moderation.onlyModerators'));
    } else if (failure) {
      body = h('p', { class: 'card', role: 'alert' }, errorText(failure));
    } else if (!reports) {
      body = h('p', { class: 'hint' }, t('common.loading'));
    } else if (!reports.length) {
      body = h('p', { class: 'card hint', 'data-testid': 'moderation-empty' }, t('moderation.none'));
    } else {
      body = h('ol', { class: 'moderation-reports' }, reports.map(reportCard));
    }
    keepValues(root, () => replace(root, h('div', { class: 'moderation-page' }, h('div', { class: 'page-head' }, heading), pageStatus.render(), body)));
  }

  async function load() {
    try {
      const reply = await accounts.get('/api/moderation/reports');
      reports = Array.isArray(reply.reports) ? reply.reports : [];
      failure = null;
    } catch (err) {
      failure = err;
    }
    draw();
  }

  draw();
  load();
  return { destroy() { destroyed = true; }, relabel: draw };
}
