// The invite link of a private or friends-only table, with a copy button (shown to everyone who has the link).
import { h } from '../../core/dom.js';
import { t } from '../../core/i18n/index.js';
import { inviteUrl } from '../../core/route.js';

/** The invite box, or null when the table is public or the link is not known here. */
export function inviteBox(info, invite) {
  if (!info || !(info.private || info.friends_only) || !invite) return null;
  const url = inviteUrl(location.origin, invite);
  const input = h('input', { id: 'invite-link', type: 'text', readOnly: true, value: url, 'data-testid': 'invite-link', 'aria-describedby': 'invite-hint', onfocus: (e) => e.target.select() });
  const status = h('span', { class: 'form-status', role: 'status' });
  return h('div', { class: 'invite' },
    h('label', { for: 'invite-link' }, t('table.invite.label')),
    h('div', { class: 'inline-field' }, input,
      h('button', {
        type: 'button', class: 'btn', onclick: async () => {
          try {
            await navigator.clipboard.writeText(url);
            status.textContent = t('common.copied');
          } catch {
            input.focus();
            input.select();
            status.textContent = t('common.copyFailed');
          }
        },
      }, t('common.copy'))),
    h('p', { class: 'hint', id: 'invite-hint' }, t('table.invite.hint'), ' ', status));
}
