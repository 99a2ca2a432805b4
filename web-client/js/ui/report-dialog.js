// The report dialog: a modal <dialog> (showModal: the rest of the page is inert, so the focus stays inside;
// Escape closes it) that reports a chat line (with its `line` id) or a seated player to the moderators: a reason
// (Abuse, Cheating, Spam, Other), an optional note (at most 500 characters) and "Report". It says "Thanks — a
// moderator will look at it." or why the server refused (docs/client.md "Chat and moderation").
import { h, replace } from '../core/dom.js';
import { t } from '../core/i18n/index.js';
import { errorText } from '../core/errors.js';
import { formStatus } from './form-status.js';

const REASONS = ['abuse', 'cheating', 'spam', 'other'];

/** `conn` sends the `report` request. Returns {open({table, name, line, text}), destroy()}. */
export function createReportDialog({ conn }) {
  const dialog = h('dialog', { class: 'report-dialog', 'aria-labelledby': 'report-h', 'data-testid': 'report-dialog' });
  let opener = null;

  function close() {
    dialog.close();
  }
  dialog.addEventListener('close', () => {
    if (opener && opener.isConnected) opener.focus({ preventScroll: true });
    opener = null;
  });

  function open({ table, name, line = null, text = null }) {
    opener = document.activeElement;
    const status = formStatus('report-status');
    const note = h('textarea', { id: 'report-note', name: 'note', maxlength: '500', rows: '3', 'data-testid': 'report-note' });
    const submit = h('button', { type: 'submit', class: 'btn primary', 'data-testid': 'report-submit' }, t('report.submit'));
    const form = h('form', {
      method: 'dialog', novalidate: true,
      onsubmit: async (e) => {
        e.preventDefault();
        const reason = form.querySelector('input[name=report-reason]:checked');
        if (!reason) {
          status.set('error', () => t('report.chooseReason'));
          return;
        }
        submit.disabled = true;
        status.set('busy', () => t('report.sending'));
        try {
          const request = { type: 'report', table, name, reason: reason.value };
          if (note.value.trim()) request.note = note.value.trim();
          if (line !== null) request.line = line;
          await conn.request(request);
          status.set('ok', () => t('report.thanks'));
          replace(buttons, h('button', { type: 'button', class: 'btn', 'data-testid': 'report-close', onclick: close }, t('common.close')));
          buttons.querySelector('button').focus();
        } catch (err) {
          submit.disabled = false;
          status.set('error', () => errorText(err, 'report'));
        }
      },
    });
    const buttons = h('div', { class: 'buttons' }, submit,
      h('button', { type: 'button', class: 'btn subtle', 'data-testid': 'report-cancel', onclick: close }, t('common.cancel')));
    replace(form,
      h('h2', { id: 'report-h' }, line !== null ? t('report.headingLine', { name }) : t('report.heading', { name })),
      text !== null ? h('blockquote', { class: 'report-quote' }, text) : null,
      h('fieldset', { class: 'report-reasons' },
        h('legend', null, t('report.reason')),
        REASONS.map((r) => h('label', { class: 'report-reason' },
          h('input', { type: 'radio', name: 'report-reason', value: r, required: true, 'data-testid': `report-reason-${r}` }), ' ', t(`report.reason.${r}`)))),
      h('label', { for: 'report-note' }, t('report.note')),
      note,
      status.render(),
      buttons);
    replace(dialog, form);
    if (!dialog.isConnected) document.body.append(dialog);
    dialog.showModal();
    form.querySelector('input[type=radio]').focus();
  }

  return {
    open,
    destroy() {
      if (dialog.open) dialog.close();
      dialog.remove();
    },
  };
}
