// The chat panel: two tabs, "Table" (the players' lines) and "Spectators" (the spectators'), the messages
// (always as text, never markup) and the form that sends one. Everyone starts on "Table". A seated player reads the
// spectators only after turning "Show spectators' chat" on; a spectator writes to the spectators (and is shown
// that tab once they have written). Each line of someone else has Mute and,
// signed in, Report (buttons that show on hover and focus); muted names are listed with Unmute. The table's
// creator has "Spectators may chat". The lines and settings live in the table page (js/pages/table.js), which
// talks to the server; this shows them and calls back.
import { h, replace, keepFocus } from '../../core/dom.js';
import { t } from '../../core/i18n/index.js';
import { formStatus } from '../../ui/form-status.js';
import { visibleLines, nameKey } from '../../models/chat-log.js';

/**
 * `on`: send(text) → a promise (rejects with the server's error), mute(name, on), seeSpectators(on),
 * spectatorsMayChat(on), report(line). Returns {el, render(props), setOpen(open), showError(text), input}.
 */
export function createChat({ on }) {
  const status = formStatus('chat-status');
  let tab = 'players'; // the tab shown: 'players' | 'spectators'
  let last = null;
  let open = false;
  const seen = { players: null, spectators: null }; // the newest line id read on each tab (null: none yet)

  const list = h('ul', { class: 'chat-list', 'aria-live': 'polite', 'aria-relevant': 'additions', 'data-testid': 'chat' });
  const box = h('div', { class: 'chat-box', tabindex: '0', role: 'tabpanel', id: 'chat-panel' }, list);
  const tabs = h('div', { class: 'chat-tabs', role: 'tablist', 'aria-label': t('table.chat.tabs') });
  const settings = h('div', { class: 'chat-settings' });
  const muted = h('div', { class: 'chat-muted', 'data-testid': 'chat-muted' });
  const input = h('input', { id: 'chat-input', name: 'chat', type: 'text', maxlength: '500', autocomplete: 'off', required: true, 'aria-describedby': 'chat-where' });
  const where = h('p', { class: 'hint chat-where', id: 'chat-where', 'data-testid': 'chat-where' });
  const closed = h('p', { class: 'hint chat-closed', 'data-testid': 'chat-closed', hidden: true }, t('table.chat.spectatorsOff'));
  const form = h('form', { class: 'chat-form', onsubmit: send },
    h('label', { for: 'chat-input', class: 'visually-hidden' }, t('table.chat.label')),
    input,
    h('button', { type: 'submit', class: 'btn', 'data-testid': 'chat-send' }, t('table.chat.send')));
  const statusEl = status.render();
  const el = h('section', { class: 'card chat', 'aria-labelledby': 'chat-h' },
    h('h2', { id: 'chat-h' }, t('table.chat.heading')), tabs, settings, box, muted, where, form, closed, statusEl);

  async function send(e) {
    e.preventDefault();
    const text = input.value;
    if (!text.trim()) return;
    try {
      await on.send(text);
      input.value = '';
      status.clear();
      // A spectator's line goes to the spectators: show it there.
      if (last && last.role !== 'seated' && tab !== 'spectators') {
        tab = 'spectators';
        render(last);
      }
    } catch (err) {
      status.set('error', () => chatErrorText(err));
    }
  }

  function chatErrorText(err) {
    if (err.code === 'chat_muted') {
      const minutes = /(\d+)/.exec(err.message || '');
      return minutes ? t('table.chat.error.chat_muted', { count: Number(minutes[1]) }) : t('table.chat.error.chat_mutedNoTime');
    }
    if (err.code === 'spectators_muted') return t('table.chat.spectatorsOff');
    return on.errorText(err);
  }

  function lineItem(m, props) {
    const spectator = m.channel === 'spectators';
    const mine = props.myName !== null && nameKey(m.from) === nameKey(props.myName);
    return h('li', { class: 'chat-item', 'data-line': m.id === null ? null : String(m.id) },
      h('span', { class: ['chat-from', spectator ? 'spectator' : `p${m.seat}`] }, m.from),
      spectator && props.role === 'seated' ? h('span', { class: 'muted' }, ` (${t('table.chat.spectator')})`) : null,
      ' ',
      h('span', { class: 'chat-text', 'data-testid': 'chat-text' }, m.text),
      mine ? null : h('span', { class: 'chat-actions' },
        h('button', {
          type: 'button', class: 'btn subtle small', 'data-testid': 'chat-mute', 'data-focus': `mute-${m.id}`,
          'aria-label': t('table.chat.muteLabel', { name: m.from }), onclick: () => on.mute(m.from, true),
        }, t('table.chat.mute')),
        props.signedIn && m.id !== null ? h('button', {
          type: 'button', class: 'btn subtle small', 'data-testid': 'chat-report', 'data-focus': `report-${m.id}`,
          'aria-label': t('table.chat.reportLabel', { name: m.from }), onclick: () => on.report(m),
        }, t('table.chat.report')) : null));
  }

  function tabButton(id, props, unread) {
    const selected = id === tab;
    return h('button', {
      type: 'button', role: 'tab', id: `chat-tab-${id}`, 'aria-selected': String(selected), 'aria-controls': 'chat-panel',
      tabindex: selected ? '0' : '-1', class: 'chat-tab', 'data-testid': `chat-tab-${id}`, 'data-focus': `chat-tab-${id}`,
      onclick: () => { tab = id; render(last); },
      onkeydown: (e) => {
        if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
        e.preventDefault();
        tab = id === 'players' ? 'spectators' : 'players';
        render(last);
        el.querySelector(`#chat-tab-${tab}`).focus();
      },
    }, t(id === 'players' ? 'table.chat.tab.players' : 'table.chat.tab.spectators'),
    unread ? h('span', { class: 'chat-unread', 'data-testid': 'chat-unread' }, t('table.chat.unread', { count: unread })) : null);
  }

  /** The newest line id of a tab's lines (-1 for none). */
  const newest = (lines) => lines.reduce((max, l) => (l.id !== null && l.id > max ? l.id : max), -1);


  function toggle(testid, label, checked, onChange) {
    return h('label', { class: 'chat-switch' },
      h('input', { type: 'checkbox', role: 'switch', checked, 'data-testid': testid, 'data-focus': testid, onchange: (e) => onChange(e.currentTarget.checked) }),
      ' ', label);
  }

  /**
   * `props`: {lines, muted (Set of name keys), mutedNames (shown), role ('seated'|'watching'|'none'), myName,
   * signedIn, seeSpectators, spectatorsMayChat, creator (the viewer created the table)}.
   */
  function render(props) {
    if (!props) return;
    last = props;
    const channel = tab;
    const hidden = channel === 'spectators' && props.role === 'seated' && !props.seeSpectators;
    const lines = hidden ? [] : visibleLines(props.lines, channel, props.muted);
    // The other tab counts the lines that came since it was last read (the first lines shown count as read).
    const other = channel === 'players' ? 'spectators' : 'players';
    const otherHidden = other === 'spectators' && props.role === 'seated' && !props.seeSpectators;
    const otherLines = otherHidden ? [] : visibleLines(props.lines, other, props.muted);
    seen[channel] = newest(lines);
    if (seen[other] === null) seen[other] = newest(otherLines);
    const unread = otherLines.filter((l) => l.id !== null && l.id > seen[other]).length;
    const stick = box.scrollTop + box.clientHeight >= box.scrollHeight - 8;
    keepFocus(el, () => {
      replace(tabs, tabButton('players', props, other === 'players' ? unread : 0),
        tabButton('spectators', props, other === 'spectators' ? unread : 0));
      box.setAttribute('aria-labelledby', `chat-tab-${channel}`);
      replace(settings,
        channel === 'spectators' && props.role === 'seated'
          ? toggle('chat-see-spectators', t('table.chat.seeSpectators'), props.seeSpectators, on.seeSpectators) : null,
        props.creator ? toggle('chat-spectators-may-chat', t('table.chat.spectatorsMayChat'), props.spectatorsMayChat, on.spectatorsMayChat) : null);
      replace(list, lines.length ? lines.map((m) => lineItem(m, props))
        : h('li', { class: 'chat-empty hint' }, t(hidden ? 'table.chat.spectatorsHidden' : 'table.chat.empty')));
      replace(muted, props.mutedNames.length ? [h('span', { class: 'hint' }, t('table.chat.mutedList')), ' ',
        props.mutedNames.map((name) => h('span', { class: 'chat-muted-name' }, name, ' ', h('button', {
          type: 'button', class: 'btn subtle small', 'data-testid': 'chat-unmute', 'data-focus': `unmute-${nameKey(name)}`,
          'aria-label': t('table.chat.unmuteLabel', { name }), onclick: () => on.mute(name, false),
        }, t('table.chat.unmute'))))] : null);
    });
    const watching = props.role !== 'seated';
    const silenced = watching && !props.spectatorsMayChat;
    where.textContent = watching && !silenced ? t('table.chat.whereSpectator') : '';
    where.hidden = !where.textContent;
    form.hidden = !open || silenced;
    closed.hidden = !open || !silenced;
    if (stick) box.scrollTop = box.scrollHeight;
  }

  /** The form only while the page is at the table. */
  function setOpen(value) {
    open = value;
    render(last);
    if (!last) form.hidden = !open;
  }

  return { el, render, setOpen, showError: (text) => status.set('error', () => text) };
}
