// "My games": the games this browser has played or is playing, from the seat tokens it keeps
// (js/core/store.js), and on a signed-in connection its account's games from any device, asked for with
// `my_games` (which joins nothing). Each row has the game, the
// players, the state, the result and a link; running games where it is the viewer's turn come first
// and are marked. Tokens the server no longer knows are forgotten. js/models/my-games-model.js has the logic.
// A change of language draws the rows again from the last answer (relabel), without asking again.
// First comes "In progress" (issue 35): the running games, those waiting for the viewer first, each with who is to
// move and the time left on a timed game's clock (inProgress in the model); the full list follows.
import { h, replace } from '../core/dom.js';
import { t, language } from '../core/i18n/index.js';
import { tablePath, replayPath } from '../core/route.js';
import { errorText } from '../core/errors.js';
import { gameName } from '../../games/registry.js';
import { botMark } from '../ui/bot-mark.js';
import { seatName } from '../models/bots.js';
import { youTag } from '../ui/seat-marks.js';
import {
  forsakenWords, gameRows, inProgress, moverWords, resultWords, rowClockWords, rowNames, tablesToForget, tokensToAsk,
} from '../models/my-games-model.js';

function when(seconds) {
  if (!seconds) return '';
  try {
    return new Date(seconds * 1000).toLocaleString(language(), { dateStyle: 'medium', timeStyle: 'short' });
  } catch {
    return new Date(seconds * 1000).toLocaleString();
  }
}

export function mountMyGames(root, ctx) {
  const { conn, store, notify, setTitle } = ctx;
  let shown = null; // the rows last shown
  let running = { waiting: [], others: [] }; // the games in progress last shown
  const progressSlot = h('section', { class: 'card in-progress', 'aria-labelledby': 'in-progress-h', 'data-testid': 'in-progress', hidden: true });
  const listSlot = h('div', { class: 'my-games-slot', 'aria-live': 'polite', 'aria-busy': 'true' });
  const refresh = h('button', { type: 'button', class: 'btn', 'data-testid': 'my-games-refresh', onclick: () => load() });
  function layout() {
    setTitle(t('app.title.myGames'));
    refresh.textContent = t('myGames.refresh');
    replace(root, h('div', { class: 'my-games' },
      h('div', { class: 'page-head' }, h('h1', { tabindex: '-1' }, t('myGames.heading')), refresh),
      h('p', { class: 'tagline' }, t(conn.account ? 'myGames.introAccount' : 'myGames.intro')),
      progressSlot,
      h('section', { class: 'card', 'aria-label': t('myGames.heading') }, listSlot)));
    if (shown) render(shown, running);
    else replace(listSlot, h('p', { class: 'hint' }, t('common.loading')));
  }

  function gameRow(g) {
    const game = gameName(g.game, conn.games);
    const alone = forsakenWords(g, conn.forsakenAfterS, t);
    return h('li', { class: ['table-item', 'my-game', g.yourTurn ? 'is-your-turn' : ''], 'data-table': g.table, 'data-testid': 'my-game' },
      h('div', { class: 'table-item-head' },
        h('strong', null, game),
        h('span', { class: `state state--${g.state}`, 'data-testid': 'my-game-state' }, t(`state.${g.state}`)),
        g.yourTurn ? h('span', { class: 'badge badge--turn', 'data-testid': 'my-game-turn' }, t('myGames.yourTurn')) : null,
        g.updated ? h('span', { class: 'muted' }, t('myGames.updated', { when: when(g.updated) })) : null),
      h('ul', { class: 'seat-chips', 'aria-label': t('myGames.players') }, g.players.map((p) => h('li', { class: ['seat-chip', p.you ? 'is-you' : '', p.bot ? 'is-bot' : ''] },
        seatName(p, t) || t('lobby.tables.open'), p.you ? youTag() : null, botMark(p.bot, { compact: true })))),
      alone ? h('p', { class: 'muted my-game-forsaken', 'data-testid': 'my-game-forsaken' }, alone) : null,
      g.result ? h('p', { class: 'my-game-result', 'data-testid': 'my-game-result' }, resultWords(g.result, rowNames(g, t), t)) : null,
      h('div', { class: 'buttons' },
        h('a', {
          class: ['btn', g.yourTurn ? 'primary' : ''], href: tablePath(g.table), 'data-link': '', 'data-testid': 'my-game-open',
          'aria-label': t('myGames.openLabel', { game, id: g.table }),
        }, t('myGames.open')),
        g.state === 'finished'
          ? h('a', { class: 'btn subtle', href: replayPath(g.table), 'data-link': '', 'data-testid': 'my-game-replay',
            'aria-label': t('myGames.replayLabel', { game, id: g.table }) }, t('replay.link'))
          : null));
  }

  /** A game in progress: the game, who is to move, the time left, the other players, the way to the table. */
  function progressRow(g) {
    const game = gameName(g.game, conn.games);
    const left = rowClockWords(g, t);
    return h('li', { class: ['table-item', 'my-game', g.yourTurn ? 'is-your-turn' : ''], 'data-table': g.table, 'data-testid': 'in-progress-row' },
      h('div', { class: 'table-item-head' },
        h('strong', null, game),
        h('span', { class: g.yourTurn ? 'badge badge--turn' : 'muted', 'data-testid': 'in-progress-mover' }, moverWords(g, t)),
        left ? h('span', { class: 'badge badge--clock', 'data-testid': 'in-progress-left' }, left) : null),
      h('ul', { class: 'seat-chips', 'aria-label': t('myGames.players') }, g.others.map((p) => h('li', { class: ['seat-chip', p.bot ? 'is-bot' : ''] },
        seatName(p, t) || t('lobby.tables.open'), botMark(p.bot, { compact: true })))),
      h('div', { class: 'buttons' },
        h('a', {
          class: ['btn', g.yourTurn ? 'primary' : ''], href: tablePath(g.table), 'data-link': '',
          'aria-label': t('myGames.openLabel', { game, id: g.table }),
        }, t('myGames.open'))));
  }

  function renderProgress() {
    const { waiting, others } = running;
    progressSlot.hidden = waiting.length + others.length === 0;
    const part = (id, testid, title, rows) => (rows.length
      ? [h('h3', { id }, title), h('ul', { class: 'table-list', 'aria-labelledby': id, 'data-testid': testid }, rows.map(progressRow))]
      : null);
    replace(progressSlot, h('h2', { id: 'in-progress-h' }, t('inProgress.heading')),
      part('in-progress-waiting-h', 'in-progress-waiting', t('inProgress.waiting', { count: waiting.length }), waiting),
      part('in-progress-others-h', 'in-progress-others', t('inProgress.others'), others));
  }

  function render(rows, progress) {
    shown = rows;
    running = progress;
    renderProgress();
    listSlot.removeAttribute('aria-busy');
    replace(listSlot, rows.length
      ? h('ul', { class: 'table-list', 'data-testid': 'my-games' }, rows.map(gameRow))
      : h('p', { class: 'empty', 'data-testid': 'my-games-empty' }, t('myGames.empty')));
  }

  async function load() {
    const seats = store.seatTokens();
    // Signed in, the account's seats come too (claimed on any device), even when this browser keeps no token.
    if (seats.length === 0 && !conn.account) { render([], inProgress([])); return; }
    refresh.disabled = true;
    try {
      const reply = await conn.request({ type: 'my_games', tokens: tokensToAsk(seats) });
      const gone = tablesToForget(reply, seats);
      for (const id of gone) store.forgetSeat(id);
      if (gone.length) notify(t('myGames.forgotten', { count: gone.length }), 'info');
      const rows = gameRows(reply);
      for (const g of rows) if (g.invite) store.saveInvite(g.table, g.invite);
      render(rows, inProgress(reply.games));
    } catch (err) {
      if (err.code !== 'disconnected') notify(errorText(err), 'error');
    } finally {
      refresh.disabled = false;
    }
  }

  layout();
  const off = conn.whenReady(load);
  return { destroy: off, relabel: layout };
}
