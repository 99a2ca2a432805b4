// Before the start: the invite link, a name form for visitors, the seat list (take a seat; the
// creator adds a bot to an empty seat or removes one; on a rated table each seat's rating) and the creator's
// start button; the leave button for the seated. A guest at a rated table is told to sign in instead of
// being offered a seat the server would refuse (rated_needs_account).
import { h, replace, keepFocus } from '../../core/dom.js';
import { t } from '../../core/i18n/index.js';
import { nameForm } from '../../ui/name-form.js';
import * as tm from '../../models/table-model.js';
import { BOT_LEVELS, DEFAULT_BOT_LEVEL, botLevel, emptySeats, levelWords, seatActions, seatName } from '../../models/bots.js';
import { botMark } from '../../ui/bot-mark.js';
import { inviteBox } from './invite.js';
import { swatch, youTag, connText, seatReportButton } from '../../ui/seat-marks.js';
import { isReserved, reservedWords } from '../../models/rematch-rules.js';
import { gameName } from '../../../games/registry.js';
import { signInPath } from '../../core/route.js';
import { hasProfile, needsAccount, seatRating } from '../../models/ratings.js';
import { playerName, ratingMark } from '../../ui/rating-mark.js';

/** `on` has the actions: take(seat), start(), leave(), addBot(seat, level), removeBot(seat), report(name). */
export function createPregame({ conn, store, on }) {
  const el = h('section', { class: 'card pregame', 'aria-labelledby': 'pregame-h', hidden: true });
  let nameWidget = null;
  const levels = new Map(); // the bot level chosen per empty seat, kept across renders

  function dropNameWidget() {
    if (nameWidget) { nameWidget.destroy(); nameWidget = null; }
  }

  function addBotControls(seat) {
    const n = seat.seat + 1;
    const id = `bot-level-${seat.seat}`;
    const select = h('select', {
      id, class: 'bot-level', 'data-testid': 'bot-level', 'data-focus': `bot-level-${seat.seat}`, 'aria-label': t('table.bot.levelLabel', { n }),
      onchange: (e) => levels.set(seat.seat, e.target.value),
    }, BOT_LEVELS.map((level) => h('option', { value: level, selected: level === (levels.get(seat.seat) || DEFAULT_BOT_LEVEL) }, levelWords(level, t))));
    return h('span', { class: 'seat-actions' },
      select,
      h('button', {
        type: 'button', class: 'btn', 'data-testid': 'add-bot', 'data-focus': `seat-action-${seat.seat}`, 'aria-label': t('table.bot.addLabel', { n }),
        onclick: (e) => {
          e.currentTarget.disabled = true;
          on.addBot(seat.seat, select.value);
        },
      }, t('table.bot.add')));
  }

  /** Why a guest cannot sit at a rated table, and the way to sign in (back to this table). */
  function signInCard() {
    return h('div', { class: 'join-card', 'data-testid': 'rated-sign-in' },
      h('p', { class: 'join-invite' }, t('rating.needsAccount')),
      h('a', { class: 'btn primary', href: signInPath(location.pathname), 'data-link': '', 'data-testid': 'rated-sign-in-link' }, t('account.signIn')));
  }

  function seatRow(info, seat, me) {
    const actions = seatActions(info, seat, me).filter((a) => a !== 'take' || !needsAccount(info, Boolean(conn.account)));
    const bot = botLevel(seat);
    const kept = isReserved(seat);
    return h('li', { class: ['seat', seat.name ? '' : 'is-empty', bot ? 'is-bot' : '', kept ? 'is-reserved' : '', seat.seat === me ? 'is-me' : ''], 'data-seat': String(seat.seat) },
      swatch(seat.seat, String(seat.seat + 1)),
      h('span', { class: 'seat-name' },
        kept ? h('span', { class: 'reserved-tag', 'data-testid': 'reserved' }, reservedWords(seat, t))
          : (seat.name ? playerName(seatName(seat, t), hasProfile(info, seat)) : t('table.seat.empty')),
        seat.seat === me ? youTag() : null),
      kept ? null : ratingMark(seatRating(info, seat)),
      bot ? botMark(bot) : null,
      seat.name && !bot && !kept ? h('span', { class: ['conn-dot', seat.connected ? 'is-on' : 'is-off'] }, connText(seat)) : null,
      seat.seat === info.creator_seat && seat.name ? h('span', { class: 'badge' }, t('table.seat.creator')) : null,
      kept ? null : seatReportButton(seat, { me, canReport: Boolean(conn.account), isBot: Boolean(bot), onReport: on.report }),
      actions.includes('take') ? h('button', {
        type: 'button', class: 'btn primary', 'data-testid': 'take-seat', 'aria-label': t('table.seat.takeLabel', { n: seat.seat + 1 }),
        onclick: () => on.take(seat.seat),
      }, t('table.seat.take')) : null,
      actions.includes('add-bot') ? addBotControls(seat) : null,
      actions.includes('remove-bot') ? h('button', {
        type: 'button', class: 'btn subtle', 'data-testid': 'remove-bot', 'data-focus': `seat-action-${seat.seat}`,
        'aria-label': t('table.bot.removeLabel', { n: seat.seat + 1 }),
        onclick: (e) => {
          e.currentTarget.disabled = true;
          on.removeBot(seat.seat);
        },
      }, t('table.bot.remove')) : null);
  }

  /**
   * A visitor's way in: who invited them to what, their name, and one button that saves the name and
   * takes the first free seat (the seat list below still lets them pick another).
   */
  function joinCard(info, creatorName) {
    const free = emptySeats(info);
    const game = gameName(info.game, conn.games);
    const join = async (e) => {
      const button = e.currentTarget;
      button.disabled = true;
      const name = await nameWidget.save();
      button.disabled = false;
      if (name !== null) on.take(free[0]);
    };
    return h('div', { class: 'join-card', 'data-testid': 'join-card' },
      h('p', { class: 'join-invite' }, creatorName ? t('table.join.invited', { name: creatorName, game }) : t('table.join.open', { game })),
      nameWidget.el,
      h('button', {
        type: 'button', class: 'btn primary big', 'data-testid': 'join-game', 'data-focus': 'join-game', onclick: join,
      }, t('table.join.button', { n: free[0] + 1 })),
      free.length > 1 ? h('p', { class: 'hint' }, t('table.join.orPick')) : null);
  }

  /** `me` is the viewer's seat (null unless seated); `minPlayers` the game's minimum. */
  function render({ info, open, me, invite, minPlayers }) {
    const waiting = Boolean(info) && info.state === 'waiting' && open;
    el.hidden = !waiting;
    if (!waiting) {
      dropNameWidget();
      replace(el);
      return;
    }
    const seated = me !== null;
    const count = tm.seatedCount(info);
    const st = tm.startState(info, me, minPlayers);
    const creatorName = info.seats[info.creator_seat] ? info.seats[info.creator_seat].name : null;
    if (!seated && !nameWidget) nameWidget = nameForm({ conn, store, compact: true });
    if (seated) dropNameWidget();
    for (const seat of levels.keys()) if (!emptySeats(info).includes(seat)) levels.delete(seat);
    const guestAtRated = !seated && needsAccount(info, Boolean(conn.account));
    keepFocus(el, () => replace(el,
      h('h2', { id: 'pregame-h' }, t('table.seats.heading')),
      guestAtRated ? signInCard() : null,
      !seated && !guestAtRated && emptySeats(info).length ? joinCard(info, creatorName) : null,
      inviteBox(info, invite),
      !seated && !guestAtRated && !emptySeats(info).length ? nameWidget.el : null,
      h('ol', { class: 'seat-list' }, info.seats.map((seat) => seatRow(info, seat, me))),
      h('div', { class: 'pregame-foot' },
        st.show ? h('button', { type: 'button', class: 'btn primary big', 'data-testid': 'start', disabled: !st.enabled, onclick: on.start }, t('table.start')) : null,
        h('p', { class: 'hint' },
          count < info.players ? t('table.start.waiting', { count: info.players - count }) : t('table.start.ready'),
          !st.show && creatorName ? [' ', t('table.start.hostWill', { name: creatorName })] : null,
          st.show && count < info.players ? [' ', t('table.bot.hint')] : null),
        seated ? h('button', { type: 'button', class: 'btn subtle', onclick: on.leave }, t('table.leave')) : null)));
  }

  return { el, render, destroy: dropNameWidget };
}
