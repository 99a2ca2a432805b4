// "Resign" (issue 36): a seated player's way out of a running game, as a Board Game Arena player looks for it. The
// button stands beside the turn indicator (table/head.js `tools`); pressing it opens the question above the board:
// "A bot plays your seat to the end; you finish last" (on a rated table: it counts as a loss), with "Resign" and
// "Keep playing". Resigning is the protocol's `leave` on a running game (the seat passes to a bot, stand_in "left").
import { h, replace, keepFocus } from '../../core/dom.js';
import { t } from '../../core/i18n/index.js';
import { canLeaveRunning } from '../../models/stand-in.js';
import { leavingCounts } from '../../models/ratings.js';

/** `onResign()` leaves the running game. Returns {button, panel, render({info, me})}. */
export function createResign({ onResign }) {
  let confirming = false;
  let last = { info: null, me: null };
  let drawn = null; // what the panel shows now: it is drawn again only when that changes (the focus stays put)
  const button = h('button', {
    type: 'button', class: 'btn subtle resign-button', 'data-testid': 'resign', hidden: true,
    'aria-expanded': 'false', 'aria-controls': 'resign-panel',
    onclick: () => { confirming = !confirming; render(last); if (confirming) focusPanel(); },
  });
  const panel = h('section', {
    class: 'card resign-panel', id: 'resign-panel', hidden: true, 'aria-labelledby': 'resign-q',
    onkeydown: (e) => { if (e.key === 'Escape' && confirming) { e.preventDefault(); close(); } },
  });

  function focusPanel() {
    const no = panel.querySelector('[data-testid=resign-no]');
    if (no) no.focus({ preventScroll: false });
  }

  function close() {
    confirming = false;
    render(last);
    button.focus({ preventScroll: true });
  }

  function render(props) {
    last = props;
    const { info, me } = props;
    const can = canLeaveRunning(info, me);
    if (!can) confirming = false;
    button.hidden = !can;
    button.textContent = t('table.resign');
    button.setAttribute('aria-expanded', String(confirming));
    panel.hidden = !confirming;
    const rated = confirming && leavingCounts(info, me);
    const shown = confirming ? `${rated}|${t('table.resign.confirm')}` : '';
    if (shown === drawn) return;
    drawn = shown;
    if (!confirming) { replace(panel); return; }
    keepFocus(panel, () => replace(panel,
      h('h2', { id: 'resign-q' }, t('table.resign.question')),
      h('p', { 'data-testid': 'resign-what' }, t('table.resign.confirm'),
        rated ? [' ', h('strong', { 'data-testid': 'resign-rated' }, t('table.resign.rated'))] : null),
      h('div', { class: 'leave-game-buttons' },
        h('button', {
          type: 'button', class: 'btn danger', 'data-testid': 'resign-yes', 'data-focus': 'resign-yes',
          onclick: (e) => { e.currentTarget.disabled = true; confirming = false; render(last); if (onResign) onResign(); },
        }, t('table.resign.yes')),
        h('button', { type: 'button', class: 'btn', 'data-testid': 'resign-no', 'data-focus': 'resign-no', onclick: close }, t('table.resign.no')))));
  }

  return { button, panel, render };
}
