// The seats as the table shows them: the pieces every seat row shares (colour swatch, "(you)",
// the connection dot) and the players panel shown once the game has started (a bot seat shows
// the robot mark instead of the connection dot).
import { h, replace } from '../dom.js';
import { t } from '../i18n/index.js';
import { inviteBox } from './invite.js';
import { botLevel } from '../bots.js';
import { botMark } from '../bot-mark.js';

export function swatch(seat, text) {
  return h('span', { class: ['swatch', `p${seat}`], 'aria-hidden': 'true' }, text);
}

export function youTag(testid = null) {
  return [' ', h('small', { class: 'you-tag', 'data-testid': testid }, t('common.youTag'))];
}

export function connText(seat) {
  return seat.connected ? t('table.seat.connected') : t('table.seat.disconnected');
}

/** The players panel (hidden before the start): who plays, whose turn it is, who is connected. */
export function createPlayers() {
  const el = h('section', { class: 'card players', 'aria-labelledby': 'players-h' });

  /** `me` is the viewer's seat (null unless seated); `movers` the seats to move now. */
  function render({ info, me, movers, invite }) {
    el.hidden = !info || info.state === 'waiting';
    if (el.hidden) { replace(el); return; }
    replace(el,
      h('h2', { id: 'players-h' }, t('table.seats.heading')),
      h('ul', { class: 'player-list' }, info.seats.map((seat) => {
        const bot = botLevel(seat);
        return h('li', {
          class: ['player', seat.seat === me ? 'is-me' : '', bot ? 'is-bot' : '', movers.includes(seat.seat) ? 'is-turn' : ''],
          'data-seat': String(seat.seat),
        },
        swatch(seat.seat, seat.name ? [...seat.name.trim()][0].toUpperCase() : String(seat.seat + 1)),
        h('span', { class: 'player-name' }, seat.name || t('table.seat.empty'), seat.seat === me ? youTag('you') : null),
        bot ? botMark(bot) : null,
        seat.name && !bot ? h('span', { class: ['conn-dot', seat.connected ? 'is-on' : 'is-off'], title: connText(seat) },
          h('span', { class: 'visually-hidden' }, connText(seat))) : null);
      })),
      info.state !== 'waiting' ? inviteBox(info, invite) : null);
  }

  return { el, render };
}
