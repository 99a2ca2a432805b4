// The top of the table page: the heading with the game's "How to play", the table's state line (rated or casual, undo
// allowed or not), the turn indicator (with Undo and "Confirm my turn" beside it) and the tab title; below it the banner
// for a seat taken elsewhere, a table that is gone, or a seat a bot plays after three timeouts.
import { h, replace } from '../../core/dom.js';
import { t } from '../../core/i18n/index.js';
import * as tm from '../../models/table-model.js';
import { clockWords } from '../../models/clock-rules.js';
import { howToButton } from '../../ui/howto.js';
import { ratedBadge } from '../../ui/rating-mark.js';

/**
 * `onHowTo()` gives the table's game id (null before the table is known) for its "How to play"; `tools` (optional)
 * stands beside the turn indicator (Undo and "Confirm my turn", table/undo-bar.js).
 */
export function createHead({ onHowTo = () => null, tools = null } = {}) {
  const heading = h('h1', { tabindex: '-1' }, t('common.loading'));
  const meta = h('p', { class: 'table-meta' });
  const turn = h('p', { class: 'turn', role: 'status', 'aria-live': 'polite', 'data-testid': 'turn' });
  let gameTitleNow = '';
  const howTo = howToButton({ game: onHowTo, title: () => gameTitleNow, testid: 'howto-open' });
  howTo.hidden = true;
  const el = h('div', { class: 'table-head' },
    h('div', { class: 'table-title' }, h('div', { class: 'table-title-row' }, heading, howTo), meta),
    h('div', { class: 'turn-box' }, turn, tools));

  /**
   * `gameTitle` is the game's display name ('' before the table is known); `me` the viewer's seat
   * (null unless seated); the tab title goes through `setTitle`.
   */
  function render({ info, status, role, seat, me, game, mod, names, gameTitle, setTitle }) {
    heading.textContent = info ? t('table.heading', { game: gameTitle }) : (status === 'notFound' ? t('table.notFound') : t('common.loading'));
    gameTitleNow = gameTitle;
    howTo.hidden = !info || !mod;
    if (!howTo.hidden) howTo.relabel();
    if (info) {
      replace(meta,
        h('span', { class: `state state--${info.state}` }, t(`state.${info.state}`)),
        h('span', { class: 'muted', 'data-testid': 'table-access' }, info.friends_only ? t('table.friendsOnly') : (info.private ? t('table.private') : t('table.public'))),
        ratedBadge(info),
        // Whether a player may take back a step (issue 37): only from a server that says.
        typeof info.undo === 'boolean'
          ? h('span', { class: ['badge', info.undo ? 'badge--undo' : 'badge--no-undo'], 'data-testid': 'table-undo', 'data-undo': String(info.undo) },
            t(info.undo ? 'table.undo.allowed' : 'table.undo.notAllowed'))
          : null,
        info.clock ? h('span', { class: 'badge badge--clock', 'data-testid': 'clock-config' }, t('clock.label', { clock: clockWords(info.clock, t) })) : null,
        info.rematch_of ? h('span', { class: 'badge' }, t('rematch.of')) : null,
        h('span', { class: 'muted' }, t('table.spectators', { count: info.spectators })),
        role === 'watching' ? h('span', { class: 'badge', 'data-testid': 'watching' }, t('table.watching')) : null,
        me !== null ? h('span', { class: 'badge' }, t('table.seatedAs', { n: me + 1 })) : null);
    } else {
      replace(meta);
    }
    const indicator = tm.turnIndicator({
      info, game, seat, names, toMove: mod ? mod.model.toMove : null, isOver: mod ? mod.model.isOver : null,
    });
    const params = { ...indicator.params };
    if (indicator.kind === 'other') params.name = params.name || t('common.player', { n: params.seat + 1 });
    const text = indicator.kind === 'none' ? '' : t(indicator.key, params);
    if (turn.textContent !== text) turn.textContent = text;
    turn.dataset.kind = indicator.kind;
    const key = tm.titleKey({ info, game, seat, isOver: mod ? mod.model.isOver : null });
    setTitle(t(key, { game: gameTitle || t('app.name') }));
  }

  return { el, heading, render };
}

/**
 * `onTakeBack()` takes a seat back that another window took over; `onResume()` takes back the seat
 * a bot plays after the player's third timeout in a row, or while they were away.
 */
export function createBanner({ onTakeBack, onResume }) {
  const el = h('div', { class: 'banner-slot' });

  /** `botPlays`: why a bot plays the viewer's seat ('timeout' after three timeouts, 'absent'), else null. */
  function render(status, { botPlays = null } = {}) {
    if (status === 'ok' && botPlays) {
      replace(el, h('div', { class: 'banner banner--warn', role: 'alert', 'data-testid': 'timed-out', 'data-why': botPlays },
        h('strong', null, t('table.timeout.title')), ' ', t(botPlays === 'absent' ? 'table.absent.body' : 'table.timeout.body'), ' ',
        h('button', {
          type: 'button', class: 'btn primary', 'data-testid': 'take-seat-back',
          onclick: (e) => { e.currentTarget.disabled = true; onResume(); },
        }, t('table.timeout.take'))));
    } else if (status === 'replaced') {
      replace(el, h('div', { class: 'banner banner--warn', role: 'alert' },
        h('strong', null, t('table.replaced.title')), ' ', t('table.replaced.body'), ' ',
        h('button', { type: 'button', class: 'btn', onclick: onTakeBack }, t('table.replaced.take'))));
    } else if (status === 'notFound' || status === 'closed') {
      replace(el, h('div', { class: 'banner banner--warn', role: 'alert' },
        status === 'closed' ? t('table.closed') : t('table.notFound'), ' ',
        h('a', { href: '/', 'data-link': '', class: 'btn' }, t('common.back'))));
    } else {
      replace(el);
    }
  }

  return { el, render };
}
