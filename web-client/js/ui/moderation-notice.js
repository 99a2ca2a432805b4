// A moderator's decision about this account, told as it happens (the `moderation` frame on the app-wide
// connection): a prominent notice under the header on any page (role=alert), "A moderator has warned you: …",
// "… muted your chat until …: …", "… suspended your account until …: …". It stays until closed. The account
// page lists them all (js/pages/account.js).
import { h, replace } from '../core/dom.js';
import { t, language } from '../core/i18n/index.js';
import { moderationWords } from '../models/chat-log.js';

/** Returns {el, render()} (render again after a change of language). */
export function createModerationNotice({ conn }) {
  const el = h('div', { class: 'moderation-notices', role: 'alert', 'data-testid': 'moderation-notices' });
  const shown = [];

  function render() {
    replace(el, shown.map((entry, i) => {
      const words = moderationWords(entry, language());
      return h('div', { class: 'banner banner--warn moderation-notice', 'data-testid': 'moderation-notice', 'data-action': entry.action },
        h('span', null, t(words.key, words.params)), ' ',
        h('button', {
          type: 'button', class: 'btn subtle small', 'aria-label': t('moderation.notice.close'),
          onclick: () => { shown.splice(i, 1); render(); },
        }, t('common.close')));
    }));
  }

  conn.on('message', (f) => {
    if (f.type !== 'moderation') return;
    shown.push({ action: f.action, reason: f.reason, until: f.until });
    render();
  });
  return { el, render };
}
