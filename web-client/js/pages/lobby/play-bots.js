// The lobby's "Play against bots": a game (of those this client can show), the number of players
// and the bots' level; one click creates a private table, seats a bot in every other seat, starts
// the game (js/models/bots.js, playAgainstBots) and opens the table. Each step is shown as it happens,
// and a failed step is said in words (with a link to the table when it was created).
import { h, replace } from '../../core/dom.js';
import { t } from '../../core/i18n/index.js';
import { tablePath } from '../../core/route.js';
import { errorText } from '../../core/errors.js';
import { gameModule, gameName } from '../../../games/registry.js';
import { BOT_LEVELS, DEFAULT_BOT_LEVEL, levelWords, playAgainstBots, playerCounts } from '../../models/bots.js';

/** `onCreated(reply)` gets the new table's create_table reply (the lobby remembers the seat at once). */
export function createPlayBots({ conn, navigate, onCreated }) {
  const el = h('div', { class: 'bots-slot' }, h('p', { class: 'hint' }, t('common.loading')));
  let running = false;
  let gone = false;
  let startWith = null; // (gameId) => starts a game of that game against bots with the form's other choices

  function render() {
    if (running) return;
    const games = (conn.games || []).filter((g) => gameModule(g.id));
    if (games.length === 0) {
      replace(el, h('p', { class: 'hint' }, conn.ready ? t('lobby.create.noGames') : t('common.loading')));
      return;
    }
    const gameSelect = h('select', { id: 'bots-game', name: 'bots-game' },
      games.map((g) => h('option', { value: g.id }, gameName(g.id, games))));
    const playersSelect = h('select', { id: 'bots-players', name: 'bots-players' });
    const levelSelect = h('select', { id: 'bots-level', name: 'bots-level' },
      BOT_LEVELS.map((level) => h('option', { value: level, selected: level === DEFAULT_BOT_LEVEL }, levelWords(level, t))));
    const status = h('p', { class: 'form-status', role: 'status', 'aria-live': 'polite', 'data-testid': 'bots-status' });
    const submit = h('button', { type: 'submit', class: 'btn primary', 'data-testid': 'play-bots' }, t('lobby.bots.submit'));
    const fillPlayers = () => {
      const g = games.find((x) => x.id === gameSelect.value) || games[0];
      const counts = playerCounts(g);
      const wanted = counts.includes(Number(playersSelect.value)) ? Number(playersSelect.value) : (counts.includes(3) ? 3 : counts[0]);
      replace(playersSelect, counts.map((n) => h('option', { value: String(n), selected: n === wanted }, String(n))));
    };
    gameSelect.addEventListener('change', fillPlayers);

    const say = (text, kind = null) => {
      status.textContent = text;
      if (kind) status.dataset.kind = kind;
      else delete status.dataset.kind;
    };
    const form = h('form', {
      class: 'bots-form',
      onsubmit: async (e) => {
        e.preventDefault();
        if (running) return;
        running = true;
        submit.disabled = true;
        form.setAttribute('aria-busy', 'true');
        try {
          const created = await playAgainstBots({
            request: (message) => conn.request(message),
            game: gameSelect.value,
            players: Number(playersSelect.value),
            level: levelSelect.value,
            onProgress: ({ step, n, of }) => say(t(`lobby.bots.progress.${step}`, { n, of })),
            onCreated,
          });
          running = false;
          if (!gone) navigate(tablePath(created.table.id));
        } catch (err) {
          running = false;
          submit.disabled = false;
          form.removeAttribute('aria-busy');
          say(t(`lobby.bots.failed.${err.step || 'create'}`, { error: errorText(err.cause || err) }), 'error');
          if (err.table) {
            status.append(' ', h('a', { href: tablePath(err.table), 'data-link': '', 'data-testid': 'bots-open-table' }, t('lobby.bots.openTable')));
          }
        }
      },
    },
    h('p', { class: 'hint' }, t('lobby.bots.intro')),
    h('div', { class: 'field-row' },
      h('div', { class: 'field' }, h('label', { for: 'bots-game' }, t('lobby.bots.game')), gameSelect),
      h('div', { class: 'field' }, h('label', { for: 'bots-players' }, t('lobby.bots.players')), playersSelect),
      h('div', { class: 'field' }, h('label', { for: 'bots-level' }, t('lobby.bots.level')), levelSelect)),
    h('div', { class: 'buttons' }, submit),
    status);
    fillPlayers();
    replace(el, form);
    startWith = (id) => {
      if (running || !games.some((g) => g.id === id)) return false;
      gameSelect.value = id;
      fillPlayers();
      form.requestSubmit();
      return true;
    };
  }

  /**
   * A game card's "Play against bots" (issue 36): starts that game at once with the form's other choices (its
   * default number of players and bot level unless changed), the progress and any error shown in the form.
   */
  function start(id) {
    if (!startWith) render();
    const started = startWith ? startWith(id) : false;
    if (started) el.scrollIntoView({ block: 'nearest' });
    return started;
  }

  return { el, render, start, destroy() { gone = true; } };
}
