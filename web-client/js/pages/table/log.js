// The game log panel: the game's events in words, newest at the bottom. The entries themselves
// live in the table's transcript (js/pages/table.js); this only shows them. A step that was taken back
// (js/models/undo-rules.js) keeps its lines, struck through and followed by "(taken back)": not colour alone.
import { h, replace } from '../../core/dom.js';
import { t } from '../../core/i18n/index.js';

const SHOWN = 300;

/** An entry's words: struck through, with "(taken back)", once its step was taken back. */
function words(entry) {
  if (!entry.undone) return entry.text;
  return [h('s', null, entry.text), ' ', h('span', { class: 'log-undone-tag' }, t('table.undo.takenBack'))];
}

function logItem(entry, latest) {
  const kind = entry.kind || 'event';
  return h('li', {
    class: ['log-item', `log-${kind}`, latest && 'log-latest', entry.undone && 'log-undone'], 'data-version': entry.version,
    'data-undone': entry.undone ? 'true' : null,
  }, words(entry));
}

/** The version whose move lines stand out: the newest one with a move in it. */
function latestVersion(entries) {
  for (let i = entries.length - 1; i >= 0; i--) if ((entries[i].kind || 'event') === 'event') return entries[i].version;
  return null;
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
    const isMove = (entry.kind || 'event') === 'event';
    if (isMove) {
      for (const old of list.querySelectorAll('.log-latest')) {
        if (old.dataset.version !== String(entry.version)) old.classList.remove('log-latest');
      }
    }
    list.append(logItem(entry, isMove));
    while (list.children.length > SHOWN) list.firstChild.remove();
    if (stick) box.scrollTop = box.scrollHeight;
  }

  function render(entries) {
    const latest = latestVersion(entries);
    const shown = entries.slice(-SHOWN).map((e) => logItem(e, (e.kind || 'event') === 'event' && e.version === latest));
    replace(list, shown.length ? shown : h('li', { class: 'log-empty hint' }, t('table.log.empty')));
    box.scrollTop = box.scrollHeight;
  }

  /** Shows the lines of `version` as taken back (`entries`: the transcript, already marked), in place. */
  function markUndone(entries, version) {
    const lines = entries.filter((e) => e.version === version && (e.kind || 'event') === 'event');
    const items = [...list.querySelectorAll(`.log-event[data-version="${version}"]`)];
    // The newest lines are the ones shown (the list keeps the last SHOWN).
    const shown = lines.slice(-items.length);
    items.forEach((item, i) => {
      if (!shown[i] || !shown[i].undone) return;
      item.classList.add('log-undone');
      item.classList.remove('log-latest');
      item.dataset.undone = 'true';
      replace(item, words(shown[i]));
    });
  }

  return { el, append, render, markUndone };
}
