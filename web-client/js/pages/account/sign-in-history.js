// The account page's recent sign-ins (the server keeps the last 20): when, how (passkey or password), whether it
// worked, and from which device, newest first. A failed one the person does not remember is a reason to change
// the password; the intro says so.
import { h } from '../../core/dom.js';
import { t, language } from '../../core/i18n/index.js';
import { deviceWords, methodWords, signInRows, timeWords } from '../../models/account-rules.js';

export function signInHistory(details) {
  const rows = signInRows(details.sign_ins);
  return h('section', { class: 'card account-section', 'aria-labelledby': 'sign-ins-h', 'data-testid': 'account-sign-ins' },
    h('h2', { id: 'sign-ins-h' }, t('account.signIns.heading')),
    h('p', { class: 'hint' }, t('account.signIns.intro')),
    rows.length === 0 ? h('p', { class: 'empty' }, t('account.signIns.none')) : h('table', { class: 'account-table', 'data-testid': 'sign-in-list' },
        h('caption', { class: 'visually-hidden' }, t('account.signIns.heading')),
        h('thead', null, h('tr', null,
          h('th', { scope: 'col' }, t('account.signIns.when')),
          h('th', { scope: 'col' }, t('account.signIns.method')),
          h('th', { scope: 'col' }, t('account.signIns.result')),
          h('th', { scope: 'col' }, t('account.signIns.device')))),
        h('tbody', null, rows.map((s) => h('tr', { 'data-testid': 'sign-in', 'data-ok': s.ok ? 'true' : 'false' },
          h('td', null, timeWords(s.at, language())),
          h('td', null, methodWords(s.method, t)),
          h('td', null, h('span', { class: ['result-mark', s.ok ? 'is-ok' : 'is-failed'] }, t(s.ok ? 'account.signIns.ok' : 'account.signIns.failed'))),
          h('td', null, deviceWords(s.device, t)))))));
}
