// The clocks of a timed table (js/models/clock-rules.js does the arithmetic): one chip per seat with its reserve,
// the seat on the clock counting down (its move's time, then the reserve), red and pulsing in the
// last seconds (URGENT_MS). Only the numbers change every second; screen readers hear a polite message
// only when something meaningful changes (js/models/clock-rules.js announcement), never every tick.
// A seat whose player is on vacation says until when; while its decision is paused its time stands still,
// marked "paused".
import { h, replace } from '../../core/dom.js';
import { t } from '../../core/i18n/index.js';
import { clockWords, countdown, formatMs, msToNextTick, reserveAt, announcement, TIMEOUTS_TO_TAKEOVER } from '../../models/clock-rules.js';
import { initialSwatch, vacationTag } from '../../ui/seat-marks.js';

export function createClocks() {
  const list = h('ul', { class: 'clock-list' });
  const config = h('span', { class: 'clock-config muted' });
  const warning = h('p', { class: 'clock-warning', hidden: true, 'data-testid': 'clock-warning' });
  const say = h('p', { class: 'visually-hidden', 'aria-live': 'polite', 'data-testid': 'clock-say' });
  const el = h('section', { class: 'card clocks', 'aria-labelledby': 'clocks-h', hidden: true, 'data-testid': 'clock' },
    h('div', { class: 'clocks-head' }, h('h2', { id: 'clocks-h' }, t('clock.heading')), config), list, warning, say);
  let props = null;
  let rows = []; // per seat: {li, time, reserve, pausedMark, name}
  let timer = null;
  let lastSaid = 'none';

  function stop() {
    clearTimeout(timer);
    timer = null;
  }

  /** Brings the numbers up to date and schedules the next change. */
  function tick() {
    stop();
    if (!props || !props.live) return;
    const now = Date.now();
    const c = countdown(props.live, now);
    const hasReserve = Boolean(props.info.clock && props.info.clock.reserve > 0); // else there is nothing to show but the move
    rows.forEach((row, seat) => {
      const onClock = Boolean(c && c.seat === seat); // running, or paused while the player is on vacation
      const paused = onClock && c.paused === true;
      const running = onClock && !paused;
      const reserve = hasReserve ? reserveAt(props.live, seat, now) : null;
      let time;
      if (onClock) time = c.phase === 'out' ? t('clock.out') : formatMs(c.phase === 'turn' ? c.turnMs : c.reserveMs, t);
      else time = reserve === null ? '' : formatMs(reserve, t);
      if (row.time.textContent !== time) row.time.textContent = time;
      const reserveText = onClock && c.phase === 'turn' && reserve !== null ? t('clock.reserve', { time: formatMs(reserve, t) })
        : (onClock && c.phase === 'reserve' ? t('clock.inReserve') : '');
      if (row.reserve.textContent !== reserveText) row.reserve.textContent = reserveText;
      row.li.classList.toggle('is-running', running);
      row.li.classList.toggle('is-paused', paused);
      row.li.classList.toggle('is-urgent', running && c.urgent);
      row.li.classList.toggle('is-reserve', onClock && c.phase !== 'turn');
      row.pausedMark.hidden = !paused;
      row.time.toggleAttribute('data-running', running);
      row.li.setAttribute('aria-label', t(paused ? 'clock.pausedLabel' : 'clock.seatLabel',
        { name: row.name, time: onClock ? time : (reserve === null ? '' : formatMs(reserve, t)) }));
    });
    const said = announcement(c, props.me, props.names, t);
    if (said.change !== lastSaid) {
      lastSaid = said.change;
      say.textContent = said.text;
    }
    const next = msToNextTick(c);
    if (next !== null) timer = setTimeout(tick, next + 15);
  }

  /**
   * `info` is the table (its `clock` is the configuration), `live` the live clock from js/models/clock-rules.js
   * readLive (null before the start or on an untimed table), `me` the viewer's seat, `names` by seat.
   */
  function render(next) {
    props = next;
    const { info, live, me, names } = next;
    const timed = Boolean(info && info.clock);
    el.hidden = !timed || info.state !== 'playing';
    if (el.hidden) { stop(); rows = []; replace(list); return; }
    config.textContent = clockWords(info.clock, t);
    rows = info.seats.map((seat) => {
      const name = names[seat.seat] || t('common.player', { n: seat.seat + 1 });
      const time = h('span', { class: 'clock-time', 'data-testid': 'clock-time' });
      const reserve = h('small', { class: 'clock-reserve' });
      const pausedMark = h('small', { class: 'clock-paused', 'data-testid': 'clock-paused', hidden: true },
        h('span', { class: 'clock-paused-icon', 'aria-hidden': 'true' }), t('clock.paused'));
      const timeouts = live && live.timeouts[seat.seat] ? live.timeouts[seat.seat] : 0;
      const li = h('li', { class: ['clock-seat', seat.seat === me ? 'is-me' : ''], 'data-seat': String(seat.seat) },
        initialSwatch(seat.seat, names[seat.seat]),
        h('span', { class: 'clock-name' }, name),
        pausedMark,
        h('span', { class: 'clock-times' }, time, reserve),
        vacationTag(seat),
        timeouts ? h('small', { class: 'clock-timeouts', 'data-testid': 'clock-timeouts' }, t('clock.timeouts', { count: timeouts })) : null);
      return { li, time, reserve, pausedMark, name };
    });
    replace(list, rows.map((r) => r.li));
    const mine = live && me !== null && me !== undefined ? live.timeouts[me] || 0 : 0;
    warning.hidden = !(mine > 0 && mine < TIMEOUTS_TO_TAKEOVER && info.state === 'playing');
    warning.textContent = warning.hidden ? '' : t('clock.warnTimeouts', { count: mine, limit: TIMEOUTS_TO_TAKEOVER });
    tick();
  }

  return { el, render, destroy: stop };
}
