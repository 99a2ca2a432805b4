// The game log panel: the game's events in words, newest at the bottom. The entries themselves
// live in the table's transcript (js/table.js); this only shows them.
import { h, replace } from '../dom.js';
import { t } from '../i18n/index.js';

const SHOWN = 300;

function logItem(entry) {
  return h('li', { class: ['log-item', `log-${entry.kind || 'event'}`] }, entry.text);
}

export function createLog() {
  const list = h('ol', { class: 'log-list', 'aria-live': 'polite', 'aria-relevant': 'additions', 'data-testid': 'log' });
  const box = h('div', { class: 'log-box', tabindex: '0', role: 'group', 'aria-labelledby': 'log-h' }, list);
  const el = h('section', { class: 'card log', 'aria-labelledby': 'log-h' }, h('h2', { id: 'log-h' }, t('table.log.heading')), box);

  /** Adds one entry, following the bottom only if the reader was already there. */
  function append(entry) {
    const empty = list.querySelector('.log-empty');
    if (empty) empty.remove();
    const stick = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
    list.append(logItem(entry));
    while (list.children.length > SHOWN) list.firstChild.remove();
    if (stick) box.scrollTop = box.scrollHeight;
  }

  function render(entries) {
    replace(list, entries.length ? entries.slice(-SHOWN).map(logItem) : h('li', { class: 'log-empty hint' }, t('table.log.empty')));
    box.scrollTop = box.scrollHeight;
  }

  return { el, append, render };
}
