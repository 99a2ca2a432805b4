// The chat panel: the messages (always as text, never markup) and the form that sends one.
// The messages live in the table's transcript (js/pages/table.js); this shows them and sends.
import { h, replace } from '../../core/dom.js';
import { t } from '../../core/i18n/index.js';
import { errorText } from '../../core/errors.js';

const SHOWN = 300;

function chatItem(m) {
  const spectator = m.seat === null || m.seat === undefined;
  return h('li', { class: 'chat-item' },
    h('span', { class: ['chat-from', spectator ? 'spectator' : `p${m.seat}`] }, m.from),
    spectator ? h('span', { class: 'muted' }, ` (${t('table.chat.spectator')})`) : null,
    h('span', { class: 'chat-text', 'data-testid': 'chat-text' }, m.text));
}

/** `tableId()` gives the table to send to (null before it is known). */
export function createChat({ conn, notify, tableId }) {
  const list = h('ul', { class: 'chat-list', 'aria-live': 'polite', 'aria-relevant': 'additions', 'data-testid': 'chat' });
  const box = h('div', { class: 'chat-box', tabindex: '0', role: 'group', 'aria-labelledby': 'chat-h' }, list);
  const input = h('input', { id: 'chat-input', name: 'chat', type: 'text', maxlength: '500', autocomplete: 'off', required: true });
  const form = h('form', { class: 'chat-form', onsubmit: send },
    h('label', { for: 'chat-input', class: 'visually-hidden' }, t('table.chat.label')),
    input,
    h('button', { type: 'submit', class: 'btn', 'data-testid': 'chat-send' }, t('table.chat.send')));
  const el = h('section', { class: 'card chat', 'aria-labelledby': 'chat-h' }, h('h2', { id: 'chat-h' }, t('table.chat.heading')), box, form);

  async function send(e) {
    e.preventDefault();
    const text = input.value;
    const table = tableId();
    if (!text.trim() || !table) return;
    try {
      await conn.request({ type: 'chat', table, text });
      input.value = '';
    } catch (err) {
      notify(errorText(err), 'error');
    }
  }

  function append(m) {
    const empty = list.querySelector('.chat-empty');
    if (empty) empty.remove();
    list.append(chatItem(m));
    while (list.children.length > SHOWN) list.firstChild.remove();
    box.scrollTop = box.scrollHeight;
  }

  function render(messages) {
    replace(list, messages.length ? messages.slice(-SHOWN).map(chatItem) : h('li', { class: 'chat-empty hint' }, t('table.chat.empty')));
    box.scrollTop = box.scrollHeight;
  }

  /** The form only while the page is at the table. */
  function setOpen(open) {
    form.hidden = !open;
  }

  return { el, append, render, setOpen };
}
