// The lobby: the signed-in player's games in progress (js/pages/lobby/in-progress-panel.js), the display name, "play against bots" (js/pages/lobby/play-bots.js), a form to create a table (with the
// chosen game's "How to play"; rated or casual; undo allowed or not), the live list of public tables (watch_lobby; js/models/lobby-list.js
// keeps it; each marked rated or casual) and the tables this browser holds a seat at, the Friends panel
// (js/pages/lobby/friends-panel.js), and the way to the leaderboards. A change of language draws it again in
// place (relabel), keeping what was chosen in the forms and the list of tables.
import { h, replace, keepValues } from '../core/dom.js';
import { t } from '../core/i18n/index.js';
import { tablePath, myGamesPath, leaderboardPath, signInPath } from '../core/route.js';
import { rememberSeat } from '../core/store.js';
import { nameForm } from '../ui/name-form.js';
import { errorText } from '../core/errors.js';
import { gameModule, gameName } from '../../games/registry.js';
import { botLevel, seatName } from '../models/bots.js';
import { botMark } from '../ui/bot-mark.js';
import { createPlayBots } from './lobby/play-bots.js';
import {
  CLOCK_LIMITS, CLOCK_PRESETS, CUSTOM_PRESET, DEFAULT_PRESET, clockWords, offersVacations, presetClock, withVacations,
} from '../models/clock-rules.js';
import { isReserved, reservedWords } from '../models/rematch-rules.js';
import { applyLobbyFrame, isLobbyFrame } from '../models/lobby-list.js';
import { gameCards } from './lobby/game-cards.js';
import { howToButton } from '../ui/howto.js';
import { needsAccount, ratedChoice } from '../models/ratings.js';
import { undoDefault } from '../models/undo-rules.js';
import { ratedBadge } from '../ui/rating-mark.js';
import { createFriendsPanel } from './lobby/friends-panel.js';
import { createInProgressPanel } from './lobby/in-progress-panel.js';

function optionField(opt, idPrefix) {
  const id = `${idPrefix}-${opt.name}`;
  const label = h('label', { for: id }, opt.description || opt.name);
  if (opt.type === 'boolean') {
    return h('div', { class: 'field field--check' },
      h('input', { type: 'checkbox', id, name: `opt:${opt.name}`, checked: Boolean(opt.default), 'data-type': 'boolean' }), label);
  }
  if (opt.type === 'choice') {
    return h('div', { class: 'field' }, label,
      h('select', { id, name: `opt:${opt.name}`, 'data-type': 'choice' },
        (opt.choices || []).map((c) => h('option', { value: String(c), selected: c === opt.default }, String(c)))));
  }
  return h('div', { class: 'field' }, label,
    h('input', {
      type: 'number', id, name: `opt:${opt.name}`, 'data-type': 'integer', step: '1',
      min: opt.min !== undefined ? String(opt.min) : null, max: opt.max !== undefined ? String(opt.max) : null,
      value: String(opt.default ?? ''),
    }));
}

/**
 * The create form's "Rated" switch: on by default when signed in; a guest's is off and disabled, with the
 * reason and the way to sign in. `read()` is what create_table says: {rated} when signed in, else nothing (the
 * server's default for a guest is casual).
 */
function ratedField(signedIn, onChange = () => {}) {
  const choice = ratedChoice(signedIn);
  const input = h('input', {
    type: 'checkbox', role: 'switch', id: 'create-rated', name: 'rated', checked: choice.checked, disabled: choice.disabled,
    'aria-describedby': 'create-rated-hint', 'data-testid': 'create-rated', onchange: () => onChange(input.checked),
  });
  const el = h('div', { class: 'rated-field' },
    h('div', { class: 'field field--check' }, input, h('label', { for: 'create-rated' }, t('lobby.create.rated'))),
    h('p', { class: 'hint', id: 'create-rated-hint' }, signedIn ? t('lobby.create.rated.hint')
      : [t('lobby.create.rated.guest'), ' ', h('a', { href: signInPath('/'), 'data-link': '', 'data-testid': 'create-rated-sign-in' }, t('account.signIn'))]));
  return { el, read: () => (signedIn ? { rated: input.checked } : {}), rated: () => input.checked };
}

/**
 * The create form's "Allow undo" (issue 37): whether a player may take back a step of theirs. Checked for a casual
 * table, unchecked for a rated one, following the "Rated" switch (`follow(rated)`); the player may choose otherwise.
 * `read()` is what create_table says: {undo}.
 */
function undoField(rated) {
  const input = h('input', {
    type: 'checkbox', id: 'create-undo', name: 'undo', checked: undoDefault(rated),
    'aria-describedby': 'create-undo-hint', 'data-testid': 'create-undo',
  });
  const el = h('div', { class: 'rated-field' },
    h('div', { class: 'field field--check' }, input, h('label', { for: 'create-undo' }, t('lobby.create.undo'))),
    h('p', { class: 'hint', id: 'create-undo-hint' }, t('lobby.create.undo.hint')));
  return { el, read: () => ({ undo: input.checked }), follow: (nowRated) => { input.checked = undoDefault(nowRated); } };
}

/**
 * The create form's "Friends only" checkbox (signed in only; a guest's is disabled, with the way to sign in). Such
 * a table is not listed in the lobby, so the public/private choice goes while it is checked.
 * `read()` is what create_table says: {friends_only: true} when checked, else nothing.
 */
function friendsOnlyField(signedIn, visibility) {
  const input = h('input', {
    type: 'checkbox', id: 'create-friends-only', name: 'friends_only', disabled: !signedIn,
    'aria-describedby': 'create-friends-only-hint', 'data-testid': 'create-friends-only',
    onchange: () => { visibility.disabled = input.checked; },
  });
  const el = h('div', { class: 'rated-field' },
    h('div', { class: 'field field--check' }, input, h('label', { for: 'create-friends-only' }, t('lobby.create.friendsOnly'))),
    h('p', { class: 'hint', id: 'create-friends-only-hint' }, signedIn ? t('lobby.create.friendsOnly.hint')
      : [t('lobby.create.friendsOnly.guest'), ' ', h('a', { href: signInPath('/'), 'data-link': '' }, t('account.signIn'))]));
  return { el, read: () => (signedIn && input.checked ? { friends_only: true } : {}) };
}

/**
 * The clock field of the create form: the presets, two numbers for a custom clock, and for a correspondence clock
 * (a day per move) "Allow vacations", checked by default.
 */
function clockField() {
  const select = h('select', { id: 'create-clock', name: 'clock', 'data-testid': 'create-clock', 'aria-describedby': 'create-clock-hint' },
    [...CLOCK_PRESETS.map((p) => p.id), CUSTOM_PRESET].map((id) => h('option', { value: id, selected: id === DEFAULT_PRESET }, t(`lobby.create.clock.${id}`))));
  const number = (id, key, limits, value) => h('div', { class: 'field' },
    h('label', { for: id }, t(key)),
    h('input', { type: 'number', id, step: '1', min: String(limits.min), max: String(limits.max), value: String(value) }));
  const custom = h('div', { class: 'field-row', hidden: true },
    number('create-clock-turn', 'lobby.create.clock.turn', CLOCK_LIMITS.turn, 60),
    number('create-clock-reserve', 'lobby.create.clock.reserve', CLOCK_LIMITS.reserve, 300));
  const turn = custom.querySelector('#create-clock-turn');
  const reserve = custom.querySelector('#create-clock-reserve');
  const chosen = () => presetClock(select.value, { turn: Number(turn.value), reserve: Number(reserve.value) });
  const allow = h('input', {
    type: 'checkbox', id: 'create-vacations', name: 'vacations', checked: true,
    'aria-describedby': 'create-vacations-hint', 'data-testid': 'create-vacations',
  });
  const vacations = h('div', { class: 'rated-field', hidden: true },
    h('div', { class: 'field field--check' }, allow, h('label', { for: 'create-vacations' }, t('lobby.create.vacations'))),
    h('p', { class: 'hint', id: 'create-vacations-hint' }, t('lobby.create.vacations.hint')));
  const showVacations = () => { vacations.hidden = !offersVacations(chosen().clock); };
  select.addEventListener('change', () => { custom.hidden = select.value !== CUSTOM_PRESET; showVacations(); });
  for (const event of ['input', 'change']) turn.addEventListener(event, showVacations);
  const el = h('div', { class: 'clock-field' },
    h('div', { class: 'field' }, h('label', { for: 'create-clock' }, t('lobby.create.clock')), select,
      h('p', { class: 'hint', id: 'create-clock-hint' }, t('lobby.create.clock.hint'))),
    custom, vacations);
  /** {clock} (null: untimed) or {error, input} with the input to fix. */
  const read = () => {
    const out = chosen();
    turn.removeAttribute('aria-invalid');
    reserve.removeAttribute('aria-invalid');
    if (out.error) {
      const input = out.error === 'reserve' ? reserve : turn;
      input.setAttribute('aria-invalid', 'true');
      return { error: out.error === 'reserve' ? 'lobby.create.clock.badReserve' : 'lobby.create.clock.badTurn', input };
    }
    return { clock: withVacations(out.clock, allow.checked) };
  };
  return { el, read };
}

export function mountLobby(root, ctx) {
  const { conn, store, navigate, notify, setTitle, friends } = ctx;
  let tables = [];
  let listed = false; // the list of tables has come
  const offs = [];
  setTitle(t('app.title.lobby'));

  let name = nameForm({ conn, store });
  const bots = createPlayBots({
    conn, navigate,
    // The new table is one of "your tables" at once, even if a later step fails.
    onCreated: (reply) => { rememberSeat(store, reply); renderMine(); },
  });
  const createSlot = h('div', { class: 'create-slot' }, h('p', { class: 'hint' }, t('common.loading')));
  const listSlot = h('div', { class: 'tables-slot', 'aria-live': 'polite', 'aria-busy': 'true' });
  const mineSlot = h('section', { class: 'card mine', 'aria-labelledby': 'mine-h', hidden: true });
  const gamesSlot = h('section', { class: 'games', 'aria-labelledby': 'games-h', hidden: true });
  const gameTitle = (id) => gameName(id, conn.games || []);
  let friendsPanel = createFriendsPanel({ friends, gameTitle });
  const progress = createInProgressPanel({ conn, store, gameTitle });

  /** The page's frame: headings and the slots the parts below fill. */
  function layout() {
    replace(root,
      h('div', { class: 'lobby' },
        h('div', { class: 'page-head' }, h('h1', { tabindex: '-1' }, t('lobby.heading')), leaderboardsLink()),
        h('p', { class: 'tagline' }, t('app.tagline')),
        progress.el,
        gamesSlot,
        h('div', { class: 'lobby-grid' },
          h('div', { class: 'lobby-col' },
            h('section', { class: 'card', 'aria-labelledby': 'name-h' }, h('h2', { id: 'name-h' }, t('lobby.name.heading')), name.el),
            h('section', { class: 'card', 'aria-labelledby': 'bots-h' }, h('h2', { id: 'bots-h' }, t('lobby.bots.heading')), bots.el),
            h('section', { class: 'card', 'aria-labelledby': 'create-h' }, h('h2', { id: 'create-h' }, t('lobby.create.heading')), createSlot)),
          h('div', { class: 'lobby-col' },
            friendsPanel.el,
            mineSlot,
            h('section', { class: 'card', 'aria-labelledby': 'tables-h' }, h('h2', { id: 'tables-h' }, t('lobby.tables.heading')), listSlot)))));
    if (!listed) replace(listSlot, h('p', { class: 'hint' }, t('common.loading')));
  }
  layout();

  /** The way to the leaderboards (the first game's; the page picks the others). */
  function leaderboardsLink() {
    const first = (conn.games || []).find((g) => gameModule(g.id));
    return h('a', { class: 'btn subtle', href: first ? leaderboardPath(first.id) : '/leaderboard', 'data-link': '', 'data-testid': 'leaderboards-link' },
      t('leaderboard.link'));
  }

  // ---- the games ----
  /** Chooses `id` in the form whose game select is `selector` and moves the keyboard and the view there. */
  function chooseIn(selector, id) {
    const select = root.querySelector(selector);
    if (!select) return;
    select.value = id;
    select.dispatchEvent(new Event('change'));
    select.scrollIntoView({ block: 'center', behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
    select.focus({ preventScroll: true });
  }

  function renderGames() {
    const games = conn.games || [];
    gamesSlot.hidden = games.length === 0;
    replace(gamesSlot, h('h2', { id: 'games-h', class: 'visually-hidden' }, t('lobby.games.heading')),
      gameCards({ games, onNewTable: (id) => chooseIn('#create-game', id), onBots: (id) => { if (!bots.start(id)) chooseIn('#bots-game', id); } }));
  }

  // ---- create ----
  function renderCreate() {
    // Only games this client has a board for can be created here.
    const games = (conn.games || []).filter((g) => gameModule(g.id));
    if (games.length === 0) {
      replace(createSlot, h('p', { class: 'hint' }, conn.ready ? t('lobby.create.noGames') : t('common.loading')));
      return;
    }
    const gameSelect = h('select', { id: 'create-game', name: 'game' },
      games.map((g) => h('option', { value: g.id }, gameName(g.id, games))));
    const howTo = howToButton({ game: () => gameSelect.value, title: (id) => gameName(id, games), testid: 'howto-create' });
    const playersSelect = h('select', { id: 'create-players', name: 'players' });
    const optionsSlot = h('div', { class: 'options-slot' });
    const fillFor = () => {
      const g = games.find((x) => x.id === gameSelect.value) || games[0];
      const wanted = Math.min(g.max_players, Math.max(g.min_players, Number(playersSelect.value) || 3));
      replace(playersSelect, Array.from({ length: g.max_players - g.min_players + 1 }, (_, i) => g.min_players + i)
        .map((n) => h('option', { value: String(n), selected: n === wanted }, String(n))));
      replace(optionsSlot, (g.options || []).length
        ? h('fieldset', null, h('legend', null, t('lobby.create.options')), g.options.map((o) => optionField(o, 'create-opt')))
        : null);
    };
    gameSelect.addEventListener('change', fillFor);
    gameSelect.addEventListener('change', () => howTo.relabel());
    const clock = clockField();
    const rated = ratedField(Boolean(conn.account), (on) => undo.follow(on));
    const undo = undoField(rated.rated());
    const visibility = h('fieldset', { class: 'radio-group' },
      h('legend', null, t('lobby.create.visibility')),
      h('label', { class: 'radio' }, h('input', { type: 'radio', name: 'visibility', value: 'public', checked: true }), t('lobby.create.public')),
      h('label', { class: 'radio' }, h('input', { type: 'radio', name: 'visibility', value: 'private', 'data-testid': 'private' }), t('lobby.create.private')));
    const friendsOnly = friendsOnlyField(Boolean(conn.account), visibility);
    const submit = h('button', { type: 'submit', class: 'btn primary', 'data-testid': 'create-table' }, t('lobby.create.submit'));
    const form = h('form', {
      class: 'create-form',
      onsubmit: async (e) => {
        e.preventDefault();
        const options = {};
        for (const input of optionsSlot.querySelectorAll('[name^="opt:"]')) {
          const key = input.name.slice(4);
          if (input.dataset.type === 'boolean') options[key] = input.checked;
          else if (input.dataset.type === 'integer') options[key] = Math.round(Number(input.value));
          else options[key] = input.value;
        }
        const only = friendsOnly.read();
        const isPrivate = !only.friends_only && form.querySelector('input[name="visibility"]:checked').value === 'private';
        const timing = clock.read();
        if (timing.error) {
          notify(t(timing.error), 'error');
          timing.input.focus();
          return;
        }
        submit.disabled = true;
        try {
          const reply = await conn.request({
            type: 'create_table', game: gameSelect.value, players: Number(playersSelect.value), options, private: isPrivate,
            ...(timing.clock ? { clock: timing.clock } : {}), ...rated.read(), ...undo.read(), ...only,
          });
          rememberSeat(store, reply);
          navigate(tablePath(reply.table.id));
        } catch (err) {
          notify(errorText(err), 'error');
          submit.disabled = false;
        }
      },
    },
    h('div', { class: 'field' }, h('label', { for: 'create-game' }, t('lobby.create.game')),
      h('div', { class: 'inline-field game-field' }, gameSelect, howTo)),
    h('div', { class: 'field' }, h('label', { for: 'create-players' }, t('lobby.create.players')), playersSelect),
    clock.el,
    visibility,
    friendsOnly.el,
    rated.el,
    undo.el,
    optionsSlot,
    h('div', { class: 'buttons' }, submit));
    fillFor();
    replace(createSlot, form);
  }

  // ---- public tables ----
  function seatSummary(table) {
    return table.seats.map((s) => {
      if (isReserved(s)) return h('li', { class: 'seat-chip is-reserved' }, reservedWords(s, t));
      if (!s.name) return h('li', { class: 'seat-chip is-open' }, t('lobby.tables.open'));
      return h('li', { class: ['seat-chip', s.connected ? '' : 'is-off', botLevel(s) ? 'is-bot' : ''] }, seatName(s, t), botMark(botLevel(s), { compact: true }));
    });
  }

  function renderTables() {
    listed = true;
    listSlot.removeAttribute('aria-busy');
    if (tables.length === 0) {
      replace(listSlot, h('p', { class: 'empty' }, t('lobby.tables.empty')));
      return;
    }
    replace(listSlot, h('ul', { class: 'table-list', 'aria-label': t('lobby.tables.caption') }, tables.map((table) => {
      const game = gameName(table.game, conn.games);
      const names = table.seats.filter((s) => s.name).map((s) => seatName(s, t)).join(', ') || '—';
      const taken = table.seats.filter((s) => s.name).length;
      const open = table.state === 'waiting' && taken < table.players && !store.seat(table.id);
      const mustSignIn = open && needsAccount(table, Boolean(conn.account));
      const canJoin = open && !mustSignIn;
      const mineHere = store.seat(table.id);
      return h('li', { class: 'table-item', 'data-table': table.id },
        h('div', { class: 'table-item-head' },
          h('strong', null, game),
          h('span', { class: 'muted' }, t('lobby.tables.players', { count: table.players })),
          h('span', { class: `state state--${table.state}` }, t(`state.${table.state}`)),
          ratedBadge(table),
          table.clock ? h('span', { class: 'badge badge--clock', 'data-testid': 'table-clock' }, clockWords(table.clock, t)) : null,
          table.spectators ? h('span', { class: 'muted' }, t('lobby.tables.spectators', { count: table.spectators })) : null),
        h('ul', { class: 'seat-chips', 'aria-label': t('lobby.tables.seats') }, seatSummary(table)),
        h('div', { class: 'buttons' },
          mineHere ? h('a', { class: 'btn primary', href: tablePath(table.id), 'data-link': '' }, t('lobby.mine.open')) : null,
          canJoin ? h('button', {
            type: 'button', class: 'btn primary', 'aria-label': t('lobby.tables.joinLabel', { game, names }),
            onclick: async (e) => {
              const button = e.currentTarget;
              button.disabled = true;
              try {
                const reply = await conn.request({ type: 'join', table: table.id });
                rememberSeat(store, reply);
                navigate(tablePath(table.id));
              } catch (err) {
                notify(errorText(err), 'error');
                button.disabled = false;
              }
            },
          }, t('lobby.tables.join')) : null,
          // A guest would be refused (rated_needs_account): the button says why and signs in, back to the table.
          mustSignIn ? h('a', {
            class: 'btn primary', href: signInPath(tablePath(table.id)), 'data-link': '', 'data-testid': 'join-sign-in',
            'aria-label': t('lobby.tables.signInLabel', { game, names }),
          }, t('lobby.tables.signInToJoin')) : null,
          !mineHere ? h('a', { class: 'btn', href: tablePath(table.id), 'data-link': '', 'aria-label': t('lobby.tables.watchLabel', { game, names }) },
            t('lobby.tables.watch')) : null));
    })));
  }

  // ---- the seats this browser holds ----
  function renderMine() {
    const list = store.seatList().filter((s) => s.state !== 'finished' || Date.now() - s.savedAt < 86400000);
    mineSlot.hidden = list.length === 0;
    replace(mineSlot, h('div', { class: 'mine-head' }, h('h2', { id: 'mine-h' }, t('lobby.mine.heading')),
      h('a', { href: myGamesPath, 'data-link': '', 'data-testid': 'my-games-link' }, t('lobby.mine.all'))),
      h('ul', { class: 'table-list' }, list.map((s) => {
        const game = gameName(s.game, conn.games);
        return h('li', { class: 'table-item' },
          h('div', { class: 'table-item-head' },
            h('strong', null, game),
            s.state ? h('span', { class: `state state--${s.state}` }, t(`state.${s.state}`)) : null,
            h('span', { class: 'muted' }, t('table.seat.number', { n: (s.seat ?? 0) + 1 }))),
          h('div', { class: 'buttons' },
            h('a', { class: 'btn primary', href: tablePath(s.table), 'data-link': '', 'aria-label': t('lobby.mine.label', { game, id: s.table }) }, t('lobby.mine.open')),
            h('button', { type: 'button', class: 'btn subtle', onclick: () => { store.forgetSeat(s.table); renderMine(); } }, t('lobby.mine.forget'))));
      })));
  }

  offs.push(conn.on('message', (frame) => {
    if (isLobbyFrame(frame)) {
      tables = applyLobbyFrame(tables, frame);
      renderTables();
    }
  }));
  offs.push(conn.whenReady(async () => {
    renderGames();
    renderCreate();
    bots.render();
    try {
      const reply = await conn.request({ type: 'watch_lobby', on: true });
      tables = applyLobbyFrame(tables, reply);  // the whole list; changes follow
      renderTables();
    } catch (err) {
      if (err.code !== 'disconnected') notify(errorText(err), 'error');
    }
  }));
  renderGames();
  renderCreate();
  bots.render();
  renderMine();

  return {
    /** After a change of language: everything again in the new words, with the forms as they were filled. */
    relabel() {
      setTitle(t('app.title.lobby'));
      keepValues(root, () => {
        const typed = name.el.querySelector('input[name=name]').value;
        name.destroy();
        name = nameForm({ conn, store });
        name.el.querySelector('input[name=name]').value = typed;
        friendsPanel.destroy();
        friendsPanel = createFriendsPanel({ friends, gameTitle });
        layout();
        progress.relabel();
        renderGames();
        renderCreate();
        bots.render();
        renderMine();
        if (listed) renderTables();
      });
    },
    destroy() {
      offs.forEach((off) => off());
      name.destroy();
      friendsPanel.destroy();
      progress.destroy();
      bots.destroy();
      if (conn.ready) conn.request({ type: 'watch_lobby', on: false }).catch(() => {});
    },
  };
}
