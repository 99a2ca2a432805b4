// The lobby's games: for each game this client can show, a small picture (CSS only: no images are
// fetched), what the game is about, how many play and for how long, the two ways to start it and its
// "How to play" (js/ui/howto.js). "New table" chooses the game in the form below and moves there; "Play against
// bots" starts that game against bots at once, with the choices of the form below (lobby/play-bots.js start).
import { h } from '../../core/dom.js';
import { t } from '../../core/i18n/index.js';
import { gameModule, gameName } from '../../../games/registry.js';
import { howToButton } from '../../ui/howto.js';

/** A picture made of a few styled boxes (the game's board.css, .game-art--<id>); decorative. */
function art(id) {
  const parts = gameModule(id).cardArt || 0;
  return h('div', { class: ['game-art', `game-art--${id}`], 'aria-hidden': 'true' },
    Array.from({ length: parts }, (_, i) => h('span', { class: `art-${i + 1}` })));
}

/** `onNewTable(id)` and `onBots(id)` choose the game in the lobby's forms and bring them into view. */
export function gameCards({ games, onNewTable, onBots }) {
  const shown = games.filter((g) => gameModule(g.id));
  return h('ul', { class: 'game-cards', 'data-testid': 'game-cards' }, shown.map((g) => {
    const name = gameName(g.id, games);
    const headingId = `game-card-${g.id}`;
    return h('li', { class: 'game-card', 'data-game': g.id, 'aria-labelledby': headingId },
      art(g.id),
      h('div', { class: 'game-card-body' },
        h('h3', { id: headingId }, name),
        h('p', { class: 'game-blurb' }, t(`lobby.games.${g.id}.blurb`)),
        h('p', { class: 'game-facts' },
          h('span', null, g.min_players === g.max_players
            ? t('lobby.games.players.one', { count: g.min_players })
            : t('lobby.games.players', { min: g.min_players, max: g.max_players })),
          h('span', null, t(`lobby.games.${g.id}.length`))),
        h('div', { class: 'buttons' },
          h('button', { type: 'button', class: 'btn small', 'aria-describedby': headingId, onclick: () => onNewTable(g.id) }, t('lobby.games.newTable')),
          h('button', { type: 'button', class: 'btn small subtle', 'aria-describedby': headingId, onclick: () => onBots(g.id) }, t('lobby.games.bots')),
          howToButton({ game: () => g.id, title: () => name, testid: 'howto-card' }))));
  }));
}
