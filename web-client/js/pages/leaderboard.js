// A game's leaderboard (/leaderboard/<game>; GET /api/leaderboard/<game>, protocol/README.md "Ratings (HTTP)"):
// a picker of the games, the rows (place, name linked to the profile, rating, rated games), the viewer's own row
// marked, and "You are #120" when the viewer qualifies beyond the rows shown (js/models/ratings.js
// leaderboardView); who qualifies is explained (a settled rating and at least the minimum of rated games).
// /leaderboard alone shows the first game's. A change of language draws it again from the last answer.
import { askWhileMounted } from '../core/accounts.js';
import { h, replace } from '../core/dom.js';
import { t } from '../core/i18n/index.js';
import { errorText } from '../core/errors.js';
import { leaderboardPath } from '../core/route.js';
import { leaderboardView } from '../models/ratings.js';
import { youTag } from '../ui/seat-marks.js';
import { playerName } from '../ui/rating-mark.js';
import { gameName, knownGames } from '../../games/registry.js';

export function mountLeaderboard(root, ctx, { game: asked }) {
  const { conn, accounts, setTitle } = ctx;
  const games = knownGames();
  const gameId = asked || games[0];
  if (!asked) history.replaceState(null, '', leaderboardPath(gameId));
  const known = games.includes(gameId);
  let reply = null;
  let failure = null;
  const name = (id) => gameName(id, conn.games || []);

  function picker() {
    return h('nav', { class: 'game-picker', 'aria-label': t('leaderboard.pick') },
      h('ul', null, games.map((id) => h('li', null, h('a', {
        class: ['btn', id === gameId ? 'primary' : 'subtle'], href: leaderboardPath(id), 'data-link': '',
        'aria-current': id === gameId ? 'page' : null, 'data-testid': 'leaderboard-game',
      }, name(id))))));
  }

  function board(view) {
    const rows = view.rows.length
      ? h('table', { class: 'leaderboard', 'data-testid': 'leaderboard' },
        h('caption', { class: 'visually-hidden' }, t('leaderboard.caption', { game: name(gameId) })),
        h('thead', null, h('tr', null,
          h('th', { scope: 'col' }, t('leaderboard.place')), h('th', { scope: 'col' }, t('leaderboard.player')),
          h('th', { scope: 'col' }, t('leaderboard.rating')), h('th', { scope: 'col' }, t('leaderboard.games')))),
        h('tbody', null, view.rows.map((r) => h('tr', {
          class: r.you ? 'is-me' : null, 'aria-current': r.you ? 'true' : null, 'data-testid': 'leaderboard-row',
        },
        h('td', null, String(r.place)),
        h('th', { scope: 'row' }, playerName(r.name, true), r.you ? youTag() : null),
        h('td', null, String(r.value)),
        h('td', null, String(r.games))))))
      : h('p', { class: 'empty', 'data-testid': 'leaderboard-empty' }, t('leaderboard.empty'));
    let mine = null;
    if (view.beyond) {
      mine = h('p', { class: 'leaderboard-you', 'data-testid': 'leaderboard-you' },
        t('leaderboard.youAre', { place: view.you.place, value: String(view.you.value), count: view.you.games }));
    } else if (!view.you && accounts.account) {
      mine = h('p', { class: 'hint', 'data-testid': 'leaderboard-you' }, t('leaderboard.notYet'));
    }
    return [rows, mine];
  }

  function body() {
    if (!known) return [h('p', { class: 'card', role: 'alert' }, t('leaderboard.noSuchGame'))];
    if (failure) {
      return [h('section', { class: 'card', role: 'alert' }, h('p', null, errorText(failure)),
        h('button', { type: 'button', class: 'btn', onclick: () => page.retry() }, t('account.tryAgain')))];
    }
    if (!reply) return [h('p', { class: 'hint' }, t('common.loading'))];
    const view = leaderboardView(reply, accounts.account ? accounts.account.name : null);
    return [h('section', { class: 'card', 'aria-labelledby': 'leaderboard-h' },
      h('p', { class: 'hint', 'data-testid': 'leaderboard-rule' }, t('leaderboard.rule', { count: view.minGames ?? 0 })),
      board(view))];
  }

  function draw() {
    const title = known ? t('leaderboard.title', { game: name(gameId) }) : t('leaderboard.heading');
    setTitle(t('app.title.leaderboard', { title }));
    replace(root, h('div', { class: 'leaderboard-page', 'aria-busy': known && !reply && !failure ? 'true' : null },
      h('div', { class: 'page-head' }, h('h1', { tabindex: '-1', id: 'leaderboard-h' }, title)),
      picker(),
      body()));
  }

  draw();
  if (!known) return { destroy() {}, relabel: draw };
  // Signed in or out meanwhile: "you" changes.
  const page = askWhileMounted(accounts, () => accounts.leaderboard(gameId), (answer, error) => {
    reply = answer;
    failure = error;
    draw();
  }, draw);
  return page;
}
