// The players panel, shown once the game has started: every seat with its marks (ui/seat-marks.js),
// whose turn it is and who is connected. A bot seat shows the robot mark instead of the connection
// dot; a bot standing in for a person says "(left)", "(away)" or "(out of time)"; a player on vacation says until
// when; a disconnected person shows "away N min" and, once away long enough, other players get "Let a bot play". On a rated table
// each rated seat shows its rating and a person's name links to their profile (ui/rating-mark.js). A bot's own seat
// shows its name in the language's words (seatName). Resigning is beside the turn indicator (table/resign.js).
import { h, replace, keepFocus } from '../../core/dom.js';
import { t } from '../../core/i18n/index.js';
import { inviteBox } from './invite.js';
import { botLevel, seatName } from '../../models/bots.js';
import { botMark } from '../../ui/bot-mark.js';
import { initialSwatch, youTag, connText, seatReportButton, vacationTag } from '../../ui/seat-marks.js';
import { awaySeconds, awayWords, canReplace, standIn, standInWords } from '../../models/stand-in.js';
import { hasProfile, seatRating } from '../../models/ratings.js';
import { playerName, ratingMark } from '../../ui/rating-mark.js';

/**
 * The players panel (hidden before the start): who plays, whose turn it is, who is connected.
 * `on` has the actions: replace(seat) (hand an absent player's seat to a bot), report(name) (opens the report dialog).
 */
export function createPlayers({ on = {} } = {}) {
  const el = h('section', { class: 'card players', 'aria-labelledby': 'players-h' });

  /**
   * `me` is the viewer's seat (null unless seated); `movers` the seats to move now; `infoAt` when the
   * table frame arrived and `now` the time (ms), for how long people have been away; `threshold`
   * the seconds after which a bot may take an absent player's seat; `canReport` (signed in): a "Report" on the
   * other people's seats; `scores` the words of each seat's score by seat, where the game's score is public.
   */
  function render(props) {
    const { info, me, movers, invite, infoAt = 0, now = infoAt, threshold = Infinity, canReport = false, scores = [] } = props;
    el.hidden = !info || info.state === 'waiting';
    if (el.hidden) { replace(el); return; }
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
        h('span', { class: 'player-name' }, seat.name ? playerName(seatName(seat, t), hasProfile(info, seat)) : t('table.seat.empty'),
          seat.seat === me ? youTag('you') : null,
          why ? [' ', h('small', { class: 'stand-in-tag', 'data-testid': 'stand-in' }, standInWords(seat, t))] : null),
        scores[seat.seat] ? h('span', { class: 'player-score', 'data-testid': 'seat-score' }, scores[seat.seat]) : null,
        ratingMark(seatRating(info, seat)),
        // beside a score, the robot alone (its words stay its accessible name and tooltip): the row keeps one line
        bot ? botMark(bot, { compact: Boolean(why) || Boolean(scores[seat.seat]) }) : null,
        seat.name && !bot ? h('span', { class: ['conn-dot', seat.connected ? 'is-on' : 'is-off'], title: connText(seat) },
          h('span', { class: 'visually-hidden' }, connText(seat))) : null,
        away !== null ? h('small', { class: 'away-tag', 'data-testid': 'away' }, awayWords(away, t)) : null,
        vacationTag(seat),
        seatReportButton(seat, { me, canReport, isBot: Boolean(bot), onReport: (name) => on.report(name) }),
        canReplace(info, seat, me, away, threshold) ? h('button', {
          type: 'button', class: 'btn small', 'data-testid': 'replace-absent', 'data-focus': `replace-${seat.seat}`,
          'aria-label': t('table.away.replaceLabel', { name: seat.name }),
          onclick: (e) => { e.currentTarget.disabled = true; if (on.replace) on.replace(seat.seat); },
        }, t('table.away.replace')) : null);
      })),
      // during play, to bring in spectators (before it the pregame shows it; after it there is nothing to join)
      info.state === 'playing' ? inviteBox(info, invite) : null));
  }

  return { el, render };
}
