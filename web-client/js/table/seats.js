// The seats as the table shows them: the pieces every seat row shares (colour swatch, "(you)",
// the connection dot) and the players panel shown once the game has started (a bot seat shows
// the robot mark instead of the connection dot; a bot standing in for a person says "(left)",
// "(away)" or "(out of time)"; a disconnected person shows "away N min" and, once away long enough, other players get
// "Let a bot play"). The seated player's "Leave game" asks for confirmation in the panel.
import { h, replace, keepFocus } from '../dom.js';
import { t } from '../i18n/index.js';
import { inviteBox } from './invite.js';
import { botLevel } from '../bots.js';
import { botMark } from '../bot-mark.js';
import { awaySeconds, awayWords, canLeaveRunning, canReplace, standIn, standInWords } from '../stand-in.js';

/** A seat's colour swatch; `extra`: more classes. Decorative: the name beside it says whose it is. */
export function swatch(seat, text, extra = '') {
  return h('span', { class: ['swatch', `p${seat}`, extra], 'aria-hidden': 'true' }, text);
}

/** A seat's swatch with the first letter of its name (the seat number for an empty seat). */
export function initialSwatch(seat, name) {
  const first = name ? [...name.trim()][0] : null;
  return swatch(seat, first ? first.toUpperCase() : String(seat + 1));
}

export function youTag(testid = null) {
  return [' ', h('small', { class: 'you-tag', 'data-testid': testid }, t('common.youTag'))];
}

export function connText(seat) {
  return seat.connected ? t('table.seat.connected') : t('table.seat.disconnected');
}

/**
 * The players panel (hidden before the start): who plays, whose turn it is, who is connected.
 * `on` has the actions: replace(seat) (hand an absent player's seat to a bot), leave() (leave the
 * running game, after the confirmation here).
 */
export function createPlayers({ on = {} } = {}) {
  const el = h('section', { class: 'card players', 'aria-labelledby': 'players-h' });
  let confirming = false; // the inline "leave the game?" question is open
  let last = null;

  function leaveBox(info, me) {
    if (!canLeaveRunning(info, me)) { confirming = false; return null; }
    if (!confirming) {
      return h('div', { class: 'leave-game' },
        h('button', {
          type: 'button', class: 'btn subtle', 'data-testid': 'leave-game', 'data-focus': 'leave-game',
          onclick: () => { confirming = true; render(last); },
        }, t('table.leaveGame')));
    }
    return h('div', { class: 'leave-game is-confirming', role: 'group', 'aria-labelledby': 'leave-game-q' },
      h('p', { id: 'leave-game-q' }, t('table.leaveGame.confirm')),
      h('div', { class: 'leave-game-buttons' },
        h('button', {
          type: 'button', class: 'btn primary', 'data-testid': 'leave-game-yes',
          onclick: (e) => { e.currentTarget.disabled = true; confirming = false; if (on.leave) on.leave(); },
        }, t('table.leaveGame.yes')),
        h('button', {
          type: 'button', class: 'btn', 'data-testid': 'leave-game-no', 'data-focus': 'leave-game',
          onclick: () => { confirming = false; render(last); },
        }, t('table.leaveGame.no'))));
  }

  /**
   * `me` is the viewer's seat (null unless seated); `movers` the seats to move now; `infoAt` when the
   * table frame arrived and `now` the time (ms), for how long people have been away; `threshold`
   * the seconds after which a bot may take an absent player's seat.
   */
  function render(props) {
    last = props;
    const { info, me, movers, invite, infoAt = 0, now = infoAt, threshold = Infinity } = props;
    el.hidden = !info || info.state === 'waiting';
    if (el.hidden) { confirming = false; replace(el); return; }
    keepFocus(el, () => replace(el,
      h('h2', { id: 'players-h' }, t('table.seats.heading')),
      h('ul', { class: 'player-list' }, info.seats.map((seat) => {
        const bot = botLevel(seat);
        const why = standIn(seat);
        const away = awaySeconds(seat, infoAt, now);
        return h('li', {
          class: ['player', seat.seat === me ? 'is-me' : '', bot ? 'is-bot' : '', why ? 'is-stand-in' : '',
            away !== null ? 'is-away' : '', movers.includes(seat.seat) ? 'is-turn' : ''],
          'data-seat': String(seat.seat),
          title: why ? t(`table.standIn.${why}Title`, { name: seat.name }) : null,
        },
        initialSwatch(seat.seat, seat.name),
        h('span', { class: 'player-name' }, seat.name || t('table.seat.empty'), seat.seat === me ? youTag('you') : null,
          why ? [' ', h('small', { class: 'stand-in-tag', 'data-testid': 'stand-in' }, standInWords(seat, t))] : null),
        bot ? botMark(bot, { compact: Boolean(why) }) : null,
        seat.name && !bot ? h('span', { class: ['conn-dot', seat.connected ? 'is-on' : 'is-off'], title: connText(seat) },
          h('span', { class: 'visually-hidden' }, connText(seat))) : null,
        away !== null ? h('small', { class: 'away-tag', 'data-testid': 'away' }, awayWords(away, t)) : null,
        canReplace(info, seat, me, away, threshold) ? h('button', {
          type: 'button', class: 'btn small', 'data-testid': 'replace-absent', 'data-focus': `replace-${seat.seat}`,
          'aria-label': t('table.away.replaceLabel', { name: seat.name }),
          onclick: (e) => { e.currentTarget.disabled = true; if (on.replace) on.replace(seat.seat); },
        }, t('table.away.replace')) : null);
      })),
      leaveBox(info, me),
      info.state !== 'waiting' ? inviteBox(info, invite) : null));
  }

  return { el, render };
}
