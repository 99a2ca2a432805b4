// The end of a game: a finished table's rematch (js/models/rematch-rules.js decides what shows) — "Play again" for
// its players, the offer to the others ("Ann offers a rematch — Join", one click), a link to the new
// table for those already in it — and, for everyone, the ways on: back to the lobby, the replay, My games.
import { h, replace } from '../../core/dom.js';
import { t } from '../../core/i18n/index.js';
import { tablePath, replayPath, myGamesPath } from '../../core/route.js';
import { rematchState } from '../../models/rematch-rules.js';

/** `onRematch()` sends `rematch` (both to offer and to join) and goes to the new table. */
export function createRematch({ onRematch }) {
  const el = h('section', { class: 'card rematch', 'aria-labelledby': 'rematch-h', hidden: true, 'data-testid': 'rematch' });

  const send = (e) => {
    e.currentTarget.disabled = true;
    onRematch();
  };

  function offerText(st) {
    return st.name ? t('rematch.offer', { name: st.name }) : t('rematch.offerSomeone');
  }

  /** `me` is the viewer's seat (null unless seated); `hasSeatAt(id)` whether this browser sits at table id. */
  function render({ info, me, hasSeatAt }) {
    const st = rematchState(info, me, hasSeatAt);
    const over = Boolean(info) && info.state === 'finished';
    el.hidden = !over;
    el.dataset.kind = st.kind;
    if (!over) { replace(el); return; }
    const heading = (text) => h('h2', { id: 'rematch-h' }, text);
    const onward = h('nav', { class: 'buttons game-over-links', 'aria-label': t('table.over.linksLabel') },
      h('a', { class: 'btn', href: '/', 'data-link': '', 'data-testid': 'back-to-lobby' }, t('table.over.lobby')),
      h('a', { class: 'btn subtle', href: replayPath(info.id), 'data-link': '', 'data-testid': 'replay-link' }, t('replay.link')),
      h('a', { class: 'btn subtle', href: myGamesPath, 'data-link': '' }, t('myGames.link')));
    if (st.kind === 'none') {
      replace(el, heading(t('table.over.heading')), onward);
    } else if (st.kind === 'offer') {
      replace(el, heading(t('rematch.playAgain')),
        h('p', { class: 'hint' }, t('rematch.playAgainHint')),
        h('button', { type: 'button', class: 'btn primary big', 'data-testid': 'play-again', onclick: send }, t('rematch.playAgain')));
    } else if (st.kind === 'join') {
      replace(el, heading(offerText(st)),
        h('div', { class: 'buttons' },
          h('button', {
            type: 'button', class: 'btn primary big', 'data-testid': 'rematch-join',
            'aria-label': t('rematch.joinLabel', { name: st.name || '' }), onclick: send,
          }, t('rematch.join'))));
    } else if (st.kind === 'open') {
      replace(el, heading(st.mine ? t('rematch.offered') : t('rematch.joined')),
        h('a', { class: 'btn primary', href: tablePath(st.table), 'data-link': '', 'data-testid': 'rematch-open' }, t('rematch.open')));
    } else {
      replace(el, heading(offerText(st)));
    }
    if (st.kind !== 'none') el.append(onward);
  }

  return { el, render };
}
