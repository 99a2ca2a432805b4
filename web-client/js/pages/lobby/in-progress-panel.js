// The lobby's "Your games in progress" (issue 35): up to MAX_ROWS running games, those waiting for the viewer first
// (inProgress in js/models/my-games-model.js), each with who is to move and the time left, "and N more" leading to
// My games. Hidden while there is none. Asked with my_games (which joins nothing) when the lobby mounts and every
// REFRESH_MS while the page is shown; a change of language draws the last answer again.
import { h, replace } from '../../core/dom.js';
import { t } from '../../core/i18n/index.js';
import { myGamesPath, tablePath } from '../../core/route.js';
import { inProgress, rowClockWords, moverWords, tokensToAsk } from '../../models/my-games-model.js';
import { seatName } from '../../models/bots.js';

const MAX_ROWS = 5;
const REFRESH_MS = 30000;

/** `gameTitle(id)` names a game. Returns {el, relabel, destroy}. */
export function createInProgressPanel({ conn, store, gameTitle }) {
  const el = h('section', { class: 'card mine in-progress', 'aria-labelledby': 'lobby-in-progress-h', 'data-testid': 'lobby-in-progress', hidden: true });
  let rows = [];
  let timer = null;
  let gone = false;

  function row(g) {
    const game = gameTitle(g.game);
    const left = rowClockWords(g, t);
    const others = g.others.map((p) => seatName(p, t) || t('lobby.tables.open'));
    return h('li', { class: ['table-item', 'my-game', g.yourTurn ? 'is-your-turn' : ''], 'data-table': g.table, 'data-testid': 'in-progress-row' },
      h('div', { class: 'table-item-head' },
        h('a', { href: tablePath(g.table), 'data-link': '', 'aria-label': t('myGames.openLabel', { game, id: g.table }) }, h('strong', null, game)),
        h('span', { class: g.yourTurn ? 'badge badge--turn' : 'muted', 'data-testid': 'in-progress-mover' }, moverWords(g, t)),
        left ? h('span', { class: 'badge badge--clock', 'data-testid': 'in-progress-left' }, left) : null),
      others.length ? h('p', { class: 'muted in-progress-with' }, t('inProgress.with', { names: others.join(t('common.listSeparator')) })) : null);
  }

  function draw() {
    el.hidden = rows.length === 0;
    const more = rows.length - MAX_ROWS;
    replace(el,
      h('div', { class: 'mine-head' }, h('h2', { id: 'lobby-in-progress-h' }, t('inProgress.lobbyHeading'))),
      h('ul', { class: 'table-list' }, rows.slice(0, MAX_ROWS).map(row)),
      more > 0 ? h('p', null, h('a', { href: myGamesPath, 'data-link': '', 'data-testid': 'lobby-in-progress-more' }, t('inProgress.more', { count: more }))) : null);
  }

  async function load() {
    const seats = store.seatTokens();
    if (gone || (seats.length === 0 && !conn.account)) return;
    try {
      const reply = await conn.request({ type: 'my_games', tokens: tokensToAsk(seats) });
      const { waiting, others } = inProgress(reply.games);
      rows = [...waiting, ...others];
      if (!gone) draw();
    } catch {
      // Only a summary: My games says what went wrong; the next refresh tries again.
    }
  }

  // Not while the tab is hidden: nobody reads it then, and the server need not answer.
  const tick = () => { if (!document.hidden) load(); };
  const offReady = conn.whenReady(() => {
    load();
    clearInterval(timer);
    timer = setInterval(tick, REFRESH_MS);
  });

  return {
    el,
    relabel: draw,
    destroy() {
      gone = true;
      clearInterval(timer);
      offReady();
    },
  };
}
