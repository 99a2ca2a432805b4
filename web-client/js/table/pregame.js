// Before the start: the invite link, a name form for visitors, the seat list (take a seat) and the
// creator's start button; the leave button for the seated.
import { h, replace } from '../dom.js';
import { t } from '../i18n/index.js';
import { nameForm } from '../name-form.js';
import * as tm from '../table-model.js';
import { inviteBox } from './invite.js';
import { swatch, youTag, connText } from './seats.js';

/** `on` has the actions: take(seat), start(), leave(). */
export function createPregame({ conn, store, on }) {
  const el = h('section', { class: 'card pregame', 'aria-labelledby': 'pregame-h', hidden: true });
  let nameWidget = null;

  function dropNameWidget() {
    if (nameWidget) { nameWidget.destroy(); nameWidget = null; }
  }

  function seatRow(info, seat, me, seated) {
    return h('li', { class: ['seat', seat.name ? '' : 'is-empty', seat.seat === me ? 'is-me' : ''], 'data-seat': String(seat.seat) },
      swatch(seat.seat, String(seat.seat + 1)),
      h('span', { class: 'seat-name' }, seat.name || t('table.seat.empty'), seat.seat === me ? youTag() : null),
      seat.name ? h('span', { class: ['conn-dot', seat.connected ? 'is-on' : 'is-off'] }, connText(seat)) : null,
      seat.seat === info.creator_seat && seat.name ? h('span', { class: 'badge' }, t('table.seat.creator')) : null,
      !seat.name && !seated ? h('button', {
        type: 'button', class: 'btn primary', 'data-testid': 'take-seat', 'aria-label': t('table.seat.takeLabel', { n: seat.seat + 1 }),
        onclick: () => on.take(seat.seat),
      }, t('table.seat.take')) : null);
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
    replace(el,
      h('h2', { id: 'pregame-h' }, t('table.seats.heading')),
      inviteBox(info, invite),
      !seated ? nameWidget.el : null,
      h('ol', { class: 'seat-list' }, info.seats.map((seat) => seatRow(info, seat, me, seated))),
      h('div', { class: 'pregame-foot' },
        st.show ? h('button', { type: 'button', class: 'btn primary big', 'data-testid': 'start', disabled: !st.enabled, onclick: on.start }, t('table.start')) : null,
        h('p', { class: 'hint' },
          count < info.players ? t('table.start.waiting', { count: info.players - count }) : t('table.start.ready'),
          !st.show && creatorName ? [' ', t('table.start.hostWill', { name: creatorName })] : null),
        seated ? h('button', { type: 'button', class: 'btn subtle', onclick: on.leave }, t('table.leave')) : null));
  }

  return { el, render, destroy: dropNameWidget };
}
