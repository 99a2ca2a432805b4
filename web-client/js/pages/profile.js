// A player's profile (/u/<name>; GET /api/players/<name>, protocol/README.md "Ratings (HTTP)"): the name, the
// reputation (games finished against games left or timed out, as numbers), per game the rating or
// "provisional", the games played, won, finished and left, and a graph of the rating over time
// (profile/graph.js), then the recent games with links to their replays. A player's own page also lists their
// private tables' games (the server sends them only to them). A change of language draws it again from the
// last answer (relabel). A signed-in viewer on another player's page can ask them to be friends, or block them
// (profile/friend-actions.js).
import { askWhileMounted } from '../core/accounts.js';
import { h, replace, keepFocus } from '../core/dom.js';
import { t, language } from '../core/i18n/index.js';
import { errorText } from '../core/errors.js';
import { leaderboardPath, replayPath } from '../core/route.js';
import { timeWords } from '../models/account-rules.js';
import { ratingText, profileGames, recentRows } from '../models/ratings.js';
import { deltaMark } from '../ui/rating-mark.js';
import { gameName } from '../../games/registry.js';
import { ratingGraph } from './profile/graph.js';
import { createFriendActions } from './profile/friend-actions.js';
import { sameName } from '../models/friends-model.js';

export function mountProfile(root, ctx, { player }) {
  const { conn, accounts, setTitle, friends } = ctx;
  let reply = null; // the last answer
  let failure = null;
  const game = (id) => gameName(id, conn.games || []);

  function stat(label, value, testid) {
    return h('div', null, h('dt', null, label), h('dd', { 'data-testid': testid }, String(value)));
  }

  function reputation(r) {
    return h('section', { class: 'card profile-reputation', 'aria-labelledby': 'reputation-h' },
      h('h2', { id: 'reputation-h' }, t('profile.reputation')),
      h('dl', { class: 'stats', 'data-testid': 'reputation' },
        stat(t('profile.reputation.finished'), r.finished, 'reputation-finished'),
        stat(t('profile.reputation.left'), r.left, 'reputation-left'),
        stat(t('profile.reputation.timedOut'), r.timed_out, 'reputation-timed-out')),
      h('p', { class: 'hint' }, t('profile.reputation.hint')));
  }

  function gameCard(g) {
    const name = game(g.game);
    const headingId = `profile-game-${g.game}`;
    let rating;
    if (!g.rating) rating = h('p', { class: 'profile-rating is-none', 'data-testid': 'profile-rating' }, t('profile.unrated'));
    else {
      rating = h('p', { class: ['profile-rating', g.rating.provisional ? 'is-provisional' : ''], 'data-testid': 'profile-rating' },
        h('span', { class: 'profile-rating-value' }, ratingText(g.rating)),
        g.rating.provisional ? h('span', { class: 'badge badge--provisional' }, t('rating.provisional')) : null);
    }
    return h('section', { class: 'card profile-game', 'aria-labelledby': headingId, 'data-game': g.game, 'data-testid': 'profile-game' },
      h('div', { class: 'profile-game-head' },
        h('h2', { id: headingId }, name),
        h('a', { href: leaderboardPath(g.game), 'data-link': '', 'aria-label': t('leaderboard.linkFor', { game: name }) }, t('leaderboard.heading'))),
      rating,
      h('dl', { class: 'stats' },
        stat(t('profile.played'), g.played, 'profile-played'),
        stat(t('profile.won'), g.won, 'profile-won'),
        stat(t('profile.finished'), g.finished, 'profile-finished'),
        stat(t('profile.left'), g.left, 'profile-left')),
      g.history.length ? ratingGraph(g.history, name) : h('p', { class: 'empty', 'data-testid': 'profile-no-rated' }, t('profile.noRated')));
  }

  function recentRow(r) {
    const name = game(r.game);
    return h('li', { class: 'table-item', 'data-table': r.table, 'data-testid': 'profile-recent' },
      h('div', { class: 'table-item-head' },
        h('strong', null, name),
        h('span', { class: 'muted' }, timeWords(r.finishedAt, language())),
        h('span', { class: ['badge', r.rated ? 'badge--rated' : 'badge--casual'] }, t(r.rated ? 'rating.rated' : 'rating.casual')),
        r.private ? h('span', { class: 'badge' }, t('table.private')) : null),
      h('p', { class: 'profile-recent-result' },
        r.left ? t('profile.recent.left') : (r.rank !== null ? t('profile.recent.rank', { rank: r.rank, of: r.players }) : null),
        r.delta !== null ? [' ', deltaMark(r.delta)] : null),
      h('div', { class: 'buttons' },
        h('a', {
          class: 'btn subtle', href: replayPath(r.table), 'data-link': '', 'data-testid': 'profile-replay',
          'aria-label': t('myGames.replayLabel', { game: name, id: r.table }),
        }, t('replay.link'))));
  }

  function body() {
    if (failure) {
      return [h('section', { class: 'card', role: 'alert', 'data-testid': 'profile-error' },
        h('p', null, failure.code === 'not_found' ? t('profile.notFound', { name: player }) : errorText(failure)),
        failure.code === 'not_found' ? null : h('button', { type: 'button', class: 'btn', onclick: () => page.retry() }, t('account.tryAgain')))];
    }
    if (!reply) return [h('p', { class: 'hint' }, t('common.loading'))];
    const own = accounts.account && accounts.account.name === reply.name;
    const recent = recentRows(reply);
    return [
      h('p', { class: 'tagline' }, reply.since ? t('profile.since', { when: timeWords(reply.since, language()) }) : null),
      reputation(reply.reputation || { finished: 0, left: 0, timed_out: 0 }),
      h('div', { class: 'profile-games' }, profileGames(reply).map(gameCard)),
      h('section', { class: 'card', 'aria-labelledby': 'recent-h' },
        h('h2', { id: 'recent-h' }, t('profile.recent')),
        own ? h('p', { class: 'hint' }, t('profile.recent.ownHint')) : null,
        recent.length
          ? h('ul', { class: 'table-list', 'data-testid': 'profile-recent-list' }, recent.map(recentRow))
          : h('p', { class: 'empty' }, t('profile.recent.empty'))),
    ];
  }

  function draw() {
    const name = reply ? reply.name : player;
    setTitle(t('app.title.profile', { name }));
    // Friends are between accounts: a signed-in viewer, on someone else's page.
    const other = reply && friends.signedIn && conn.account && !sameName(conn.account.name, reply.name);
    replace(root, h('div', { class: 'profile-page', 'aria-busy': !reply && !failure ? 'true' : null },
      h('div', { class: 'page-head' }, h('h1', { tabindex: '-1', 'data-testid': 'profile-name' }, name),
        other ? friendActions.render(reply.name) : null),
      body()));
  }

  /** Drawn again after a change of relation: the keyboard stays on its button, else goes to the first one. */
  function redraw() {
    if (keepFocus(root, draw) === false) root.querySelector('[data-testid=profile-friend] button')?.focus({ preventScroll: true });
  }
  const friendActions = createFriendActions({ friends, redraw });

  draw();
  // Signed in or out meanwhile: one's own private games come or go.
  const page = askWhileMounted(accounts, () => accounts.player(player), (answer, error) => {
    reply = answer;
    failure = error;
    draw();
  }, draw);
  return { ...page, destroy() { friendActions.destroy(); page.destroy(); } };
}
