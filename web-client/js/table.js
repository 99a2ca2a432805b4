// A table: its seats and who is connected, the invite link, the creator's start button, the
// game board (from js/games/registry.js), the turn indicator and "your turn" tab title, the game
// log in words, and the chat. It keeps the game's view current by applying each `events`
// message with the game's pure reducer, and takes a full snapshot only on join, resume,
// reconnection, a missed version or a stale_version refusal.
//
// Entered as /t/<id> (resume the remembered seat, else watch) or /i/<invite> (watch through the
// invite; the URL then becomes /t/<id>). After every reconnection the same happens again, so a
// reload or a lost network puts the player back in the same seat.
import { h, replace } from './dom.js';
import { t } from './i18n/index.js';
import { tablePath, inviteUrl } from './route.js';
import { gameModule } from './games/registry.js';
import { gameName, rememberSeat } from './lobby.js';
import { nameForm } from './name-form.js';
import { errorText } from './errors.js';
import * as tm from './table-model.js';

const ACK_GRACE_MS = 3000;

export function mountTable(root, ctx, params) {
  const { conn, store, navigate, notify, setTitle } = ctx;
  const s = {
    tableId: params.id || null,
    invite: params.invite || null,
    info: null,
    seat: null,
    role: 'none', // 'seated' | 'watching' | 'none'
    status: 'loading', // 'loading' | 'ok' | 'notFound' | 'replaced' | 'closed'
    game: null, // {view, version, legal}
    busy: false,
    log: [],
    chat: [],
  };
  if (s.tableId && !s.invite) s.invite = store.invite(s.tableId);
  if (!s.tableId && s.invite) s.tableId = store.tableForInvite(s.invite);
  if (s.tableId) Object.assign(s, store.transcript(s.tableId));

  const offs = [];
  let board = null;
  let boardGame = null;
  let ackTimer = null;
  let destroyed = false;
  let nameWidget = null;

  // ---- skeleton ----
  const heading = h('h1', { tabindex: '-1' }, t('common.loading'));
  const meta = h('p', { class: 'table-meta' });
  const turn = h('p', { class: 'turn', role: 'status', 'aria-live': 'polite', 'data-testid': 'turn' });
  const banner = h('div', { class: 'banner-slot' });
  const pregame = h('section', { class: 'card pregame', 'aria-labelledby': 'pregame-h', hidden: true });
  const boardSlot = h('div', { class: 'board-slot' });
  const players = h('section', { class: 'card players', 'aria-labelledby': 'players-h' });
  const logList = h('ol', { class: 'log-list', 'aria-live': 'polite', 'aria-relevant': 'additions', 'data-testid': 'log' });
  const logBox = h('div', { class: 'log-box', tabindex: '0', role: 'group', 'aria-labelledby': 'log-h' }, logList);
  const chatList = h('ul', { class: 'chat-list', 'aria-live': 'polite', 'aria-relevant': 'additions', 'data-testid': 'chat' });
  const chatBox = h('div', { class: 'chat-box', tabindex: '0', role: 'group', 'aria-labelledby': 'chat-h' }, chatList);
  const chatInput = h('input', { id: 'chat-input', name: 'chat', type: 'text', maxlength: '500', autocomplete: 'off', required: true });
  const chatForm = h('form', { class: 'chat-form', onsubmit: sendChat },
    h('label', { for: 'chat-input', class: 'visually-hidden' }, t('table.chat.label')),
    chatInput,
    h('button', { type: 'submit', class: 'btn', 'data-testid': 'chat-send' }, t('table.chat.send')));

  replace(root, h('div', { class: 'table-page' },
    h('div', { class: 'table-head' },
      h('div', { class: 'table-title' }, heading, meta),
      turn),
    banner,
    h('div', { class: 'table-grid' },
      h('div', { class: 'table-main' }, pregame, boardSlot),
      h('aside', { class: 'table-side' },
        players,
        h('section', { class: 'card log', 'aria-labelledby': 'log-h' }, h('h2', { id: 'log-h' }, t('table.log.heading')), logBox),
        h('section', { class: 'card chat', 'aria-labelledby': 'chat-h' }, h('h2', { id: 'chat-h' }, t('table.chat.heading')), chatBox, chatForm)))));

  const mod = () => (s.info ? gameModule(s.info.game) : null);
  const names = () => tm.seatNames(s.info);
  const gameInfo = () => (s.info ? (conn.games || []).find((g) => g.id === s.info.game) : null);

  // ---- joining ----

  function setTableId(id) {
    s.tableId = id;
    if (location.pathname !== tablePath(id)) history.replaceState(null, '', tablePath(id));
    const saved = store.transcript(id);
    if (s.log.length === 0 && s.chat.length === 0 && (saved.log.length || saved.chat.length)) {
      Object.assign(s, saved);
      renderLog(true);
      renderChat(true);
    }
  }

  function onSeated(reply) {
    rememberSeat(store, reply);
    s.info = reply.table;
    s.seat = reply.seat;
    s.role = 'seated';
    s.status = 'ok';
    if (reply.invite) s.invite = reply.invite;
    setTableId(reply.table.id);
    renderAll();
  }

  function onWatching(reply) {
    s.info = reply.table;
    s.seat = null;
    s.role = 'watching';
    s.status = 'ok';
    if (s.invite) store.saveInvite(reply.table.id, s.invite);
    setTableId(reply.table.id);
    renderAll();
  }

  async function attach() {
    if (destroyed || s.status === 'replaced' || s.status === 'notFound' || s.status === 'closed') return;
    const mine = s.tableId ? store.seat(s.tableId) : null;
    if (mine) {
      try {
        onSeated(await conn.request({ type: 'resume', token: mine.token }));
        return;
      } catch (err) {
        if (err.code === 'bad_token') {
          store.forgetSeat(s.tableId);
          notify(t('error.bad_token'), 'error');
        } else {
          if (err.code !== 'disconnected') notify(errorText(err), 'error');
          return;
        }
      }
    }
    const ref = s.invite ? { invite: s.invite } : { table: s.tableId };
    try {
      onWatching(await conn.request({ type: 'watch', ...ref }));
    } catch (err) {
      if (err.code === 'no_such_table' || err.code === 'bad_message') {
        s.status = 'notFound';
        renderAll();
      } else if (err.code !== 'disconnected') {
        notify(errorText(err), 'error');
      }
    }
  }

  async function takeSeat(seat) {
    const ref = s.invite ? { invite: s.invite } : { table: s.tableId };
    try {
      onSeated(await conn.request({ type: 'join', ...ref, seat }));
    } catch (err) {
      notify(errorText(err), 'error');
    }
  }

  async function takeBack() {
    s.status = 'loading';
    renderBanner();
    heading.focus({ preventScroll: true });
    await attach();
  }

  async function start() {
    try {
      await conn.request({ type: 'start', table: s.tableId });
    } catch (err) {
      notify(errorText(err), 'error');
    }
  }

  async function leave() {
    try {
      await conn.request({ type: 'leave', table: s.tableId });
      store.forgetSeat(s.tableId);
      navigate('/');
    } catch (err) {
      notify(errorText(err), 'error');
    }
  }

  async function requestSnapshot() {
    if (!s.tableId) return;
    try {
      const reply = await conn.request({ type: 'snapshot', table: s.tableId });
      if (reply.type === 'snapshot') onSnapshot(reply);
      else if (reply.type === 'table') onTable(reply.table);
    } catch (err) {
      if (err.code !== 'disconnected') notify(errorText(err), 'error');
    }
  }

  // ---- game state ----

  function addLog(text, version, kind = 'event') {
    s.log.push({ text, version, kind });
    if (s.log.length > 400) s.log.splice(0, s.log.length - 300);
    appendLogItem(s.log[s.log.length - 1]);
    saveTranscript();
  }

  function onSnapshot(f) {
    const lastLogged = s.log.length ? s.log[s.log.length - 1].version : -1;
    const hadGame = Boolean(s.game);
    s.game = { view: f.view, version: f.version, legal: f.legal || [] };
    s.seat = f.seat;
    s.busy = false;
    clearTimeout(ackTimer);
    if (f.seat !== null && f.seat !== undefined && s.tableId && store.seat(s.tableId)) {
      store.saveSeat(s.tableId, { seat: f.seat });
    }
    if (f.version === 0 && lastLogged < 0) addLog(t('table.log.started'), 0, 'note');
    else if (f.version > lastLogged) {
      addLog(hadGame ? t('table.log.caughtUp', { version: f.version }) : t('table.log.joined', { version: f.version }), f.version, 'note');
    }
    renderAll();
  }

  function onEvents(f) {
    const m = mod();
    const decision = tm.eventsDecision(s.game ? s.game.version : null, f.version);
    if (decision === 'ignore') return;
    if (decision === 'resync' || !m) {
      requestSnapshot();
      return;
    }
    let view;
    try {
      view = m.model.applyEvents(s.game.view, f.events, f.version);
    } catch (err) {
      console.error('emporium: applying events failed; taking a snapshot', err);
      requestSnapshot();
      return;
    }
    s.game = { view, version: f.version, legal: f.legal || [] };
    s.busy = false;
    clearTimeout(ackTimer);
    const viewer = s.role === 'seated' ? s.seat : null;
    for (const e of f.events) addLog(m.model.describeEvent(e, names(), t, viewer), f.version);
    if (board) board.onEvents(f.events);
    renderAll();
  }

  function onTable(info) {
    s.info = info;
    if (s.role === 'seated' && s.tableId && store.seat(s.tableId)) store.saveSeat(s.tableId, { state: info.state });
    renderAll();
  }

  async function act(action) {
    if (!s.game || s.busy) return;
    s.busy = true;
    renderBoard();
    const at = s.game.version;
    try {
      const ack = await conn.request({ type: 'act', table: s.tableId, version: at, action });
      // The events follow the ack; if they do not come, catch up.
      clearTimeout(ackTimer);
      ackTimer = setTimeout(() => {
        if (s.game && s.game.version < ack.version) requestSnapshot();
      }, ACK_GRACE_MS);
    } catch (err) {
      s.busy = false;
      if (err.code === 'stale_version') {
        requestSnapshot();
      } else if (err.code === 'disconnected') {
        // The reconnection brings a fresh snapshot.
      } else {
        notify(errorText(err), 'error');
        requestSnapshot();
      }
      renderBoard();
    }
  }

  // ---- chat ----

  async function sendChat(e) {
    e.preventDefault();
    const text = chatInput.value;
    if (!text.trim() || !s.tableId) return;
    try {
      await conn.request({ type: 'chat', table: s.tableId, text });
      chatInput.value = '';
    } catch (err) {
      notify(errorText(err), 'error');
    }
  }

  function onChat(f) {
    s.chat.push({ from: f.from, seat: f.seat, text: f.text });
    if (s.chat.length > 400) s.chat.splice(0, s.chat.length - 300);
    appendChatItem(s.chat[s.chat.length - 1]);
    saveTranscript();
  }

  function saveTranscript() {
    if (s.tableId) store.saveTranscript(s.tableId, { log: s.log, chat: s.chat });
  }

  // ---- rendering ----

  function renderHead() {
    const m = mod();
    const game = s.info ? gameName(s.info.game, conn.games) : '';
    heading.textContent = s.info ? t('table.heading', { game }) : (s.status === 'notFound' ? t('table.notFound') : t('common.loading'));
    if (s.info) {
      replace(meta,
        h('span', { class: `state state--${s.info.state}` }, t(`state.${s.info.state}`)),
        h('span', { class: 'muted' }, s.info.private ? t('table.private') : t('table.public')),
        h('span', { class: 'muted' }, t('table.spectators', { count: s.info.spectators })),
        s.role === 'watching' ? h('span', { class: 'badge', 'data-testid': 'watching' }, t('table.watching')) : null,
        s.role === 'seated' ? h('span', { class: 'badge' }, t('table.seatedAs', { n: s.seat + 1 })) : null);
    } else {
      replace(meta);
    }
    const indicator = tm.turnIndicator({
      info: s.info, game: s.game, seat: s.seat, names: names(),
      toMove: m ? m.model.toMove : null, isOver: m ? m.model.isOver : null,
    });
    const params = { ...indicator.params };
    if (indicator.kind === 'other') params.name = params.name || t('common.player', { n: params.seat + 1 });
    const text = indicator.kind === 'none' ? '' : t(indicator.key, params);
    if (turn.textContent !== text) turn.textContent = text;
    turn.dataset.kind = indicator.kind;
    const key = tm.titleKey({ info: s.info, game: s.game, seat: s.seat, isOver: m ? m.model.isOver : null });
    setTitle(t(key, { game: game || t('app.name') }));
  }

  function renderBanner() {
    if (s.status === 'replaced') {
      replace(banner, h('div', { class: 'banner banner--warn', role: 'alert' },
        h('strong', null, t('table.replaced.title')), ' ', t('table.replaced.body'), ' ',
        h('button', { type: 'button', class: 'btn', onclick: takeBack }, t('table.replaced.take'))));
    } else if (s.status === 'notFound' || s.status === 'closed') {
      replace(banner, h('div', { class: 'banner banner--warn', role: 'alert' },
        s.status === 'closed' ? t('table.closed') : t('table.notFound'), ' ',
        h('a', { href: '/', 'data-link': '', class: 'btn' }, t('common.back'))));
    } else {
      replace(banner);
    }
  }

  function inviteBox() {
    if (!s.info || !s.info.private || !s.invite) return null;
    const url = inviteUrl(location.origin, s.invite);
    const input = h('input', { id: 'invite-link', type: 'text', readOnly: true, value: url, 'data-testid': 'invite-link', 'aria-describedby': 'invite-hint', onfocus: (e) => e.target.select() });
    const status = h('span', { class: 'form-status', role: 'status' });
    return h('div', { class: 'invite' },
      h('label', { for: 'invite-link' }, t('table.invite.label')),
      h('div', { class: 'inline-field' }, input,
        h('button', {
          type: 'button', class: 'btn', onclick: async () => {
            try {
              await navigator.clipboard.writeText(url);
              status.textContent = t('common.copied');
            } catch {
              input.focus();
              input.select();
              status.textContent = t('common.copyFailed');
            }
          },
        }, t('common.copy'))),
      h('p', { class: 'hint', id: 'invite-hint' }, t('table.invite.hint'), ' ', status));
  }

  function renderPregame() {
    const waiting = s.info && s.info.state === 'waiting' && s.status === 'ok';
    pregame.hidden = !waiting;
    if (!waiting) {
      if (nameWidget) { nameWidget.destroy(); nameWidget = null; }
      replace(pregame);
      return;
    }
    const info = s.info;
    const seated = tm.seatedCount(info);
    const g = gameInfo();
    const st = tm.startState(info, s.role === 'seated' ? s.seat : null, g ? g.min_players : info.players);
    const creatorName = info.seats[info.creator_seat] ? info.seats[info.creator_seat].name : null;
    if (s.role !== 'seated' && !nameWidget) nameWidget = nameForm({ conn, store, compact: true });
    if (s.role === 'seated' && nameWidget) { nameWidget.destroy(); nameWidget = null; }
    replace(pregame,
      h('h2', { id: 'pregame-h' }, t('table.seats.heading')),
      inviteBox(),
      s.role !== 'seated' ? nameWidget.el : null,
      h('ol', { class: 'seat-list' }, info.seats.map((seat) => h('li', { class: ['seat', seat.name ? '' : 'is-empty', seat.seat === s.seat && s.role === 'seated' ? 'is-me' : ''], 'data-seat': String(seat.seat) },
        h('span', { class: ['swatch', `p${seat.seat}`], 'aria-hidden': 'true' }, String(seat.seat + 1)),
        h('span', { class: 'seat-name' }, seat.name || t('table.seat.empty'),
          seat.seat === s.seat && s.role === 'seated' ? [' ', h('small', { class: 'you-tag' }, t('common.youTag'))] : null),
        seat.name ? h('span', { class: ['conn-dot', seat.connected ? 'is-on' : 'is-off'] }, seat.connected ? t('table.seat.connected') : t('table.seat.disconnected')) : null,
        seat.seat === info.creator_seat && seat.name ? h('span', { class: 'badge' }, t('table.seat.creator')) : null,
        !seat.name && s.role !== 'seated' ? h('button', {
          type: 'button', class: 'btn primary', 'data-testid': 'take-seat', 'aria-label': t('table.seat.takeLabel', { n: seat.seat + 1 }),
          onclick: () => takeSeat(seat.seat),
        }, t('table.seat.take')) : null))),
      h('div', { class: 'pregame-foot' },
        st.show ? h('button', { type: 'button', class: 'btn primary big', 'data-testid': 'start', disabled: !st.enabled, onclick: start }, t('table.start')) : null,
        h('p', { class: 'hint' },
          seated < info.players ? t('table.start.waiting', { count: info.players - seated }) : t('table.start.ready'),
          !st.show && creatorName ? [' ', t('table.start.hostWill', { name: creatorName })] : null),
        s.role === 'seated' ? h('button', { type: 'button', class: 'btn subtle', onclick: leave }, t('table.leave')) : null));
  }

  function renderPlayers() {
    players.hidden = !s.info || s.info.state === 'waiting';
    if (players.hidden) { replace(players); return; }
    const info = s.info;
    const m = mod();
    const movers = s.game && m ? m.model.toMove(s.game.view) : [];
    replace(players,
      h('h2', { id: 'players-h' }, t('table.seats.heading')),
      h('ul', { class: 'player-list' }, info.seats.map((seat) => h('li', {
        class: ['player', seat.seat === s.seat && s.role === 'seated' ? 'is-me' : '', movers.includes(seat.seat) ? 'is-turn' : ''],
        'data-seat': String(seat.seat),
      },
      h('span', { class: ['swatch', `p${seat.seat}`], 'aria-hidden': 'true' }, seat.name ? [...seat.name.trim()][0].toUpperCase() : String(seat.seat + 1)),
      h('span', { class: 'player-name' }, seat.name || t('table.seat.empty'),
        seat.seat === s.seat && s.role === 'seated' ? [' ', h('small', { class: 'you-tag', 'data-testid': 'you' }, t('common.youTag'))] : null),
      seat.name ? h('span', { class: ['conn-dot', seat.connected ? 'is-on' : 'is-off'], title: seat.connected ? t('table.seat.connected') : t('table.seat.disconnected') },
        h('span', { class: 'visually-hidden' }, seat.connected ? t('table.seat.connected') : t('table.seat.disconnected'))) : null))),
      info.state !== 'waiting' ? inviteBox() : null);
  }

  function renderBoard() {
    const m = mod();
    if (!s.game || !s.info) {
      if (board) { board.destroy(); board = null; boardGame = null; }
      replace(boardSlot);
      return;
    }
    if (!m) {
      replace(boardSlot, h('p', { class: 'banner' }, t('common.unknownGame', { game: s.info.game })));
      return;
    }
    if (!board || boardGame !== m.id) {
      if (board) board.destroy();
      replace(boardSlot);
      board = m.createBoard(boardSlot, { t, onAction: act });
      boardGame = m.id;
    }
    board.update({
      view: s.game.view,
      legal: s.role === 'seated' ? s.game.legal : [],
      seat: s.role === 'seated' ? s.seat : null,
      names: names(),
      connected: s.info.seats.map((x) => x.connected),
      // Without a connection nothing can be sent: the controls wait for the reconnection.
      busy: s.busy || !conn.ready,
      offline: !conn.ready,
    });
  }

  function logItem(entry) {
    return h('li', { class: ['log-item', `log-${entry.kind || 'event'}`] }, entry.text);
  }

  function appendLogItem(entry) {
    const empty = logList.querySelector('.log-empty');
    if (empty) empty.remove();
    const stick = logBox.scrollHeight - logBox.scrollTop - logBox.clientHeight < 40;
    logList.append(logItem(entry));
    while (logList.children.length > 300) logList.firstChild.remove();
    if (stick) logBox.scrollTop = logBox.scrollHeight;
  }

  function renderLog() {
    replace(logList, s.log.length ? s.log.slice(-300).map(logItem) : h('li', { class: 'log-empty hint' }, t('table.log.empty')));
    logBox.scrollTop = logBox.scrollHeight;
  }

  function chatItem(m) {
    // Text only: a message is exactly what was typed, never markup.
    return h('li', { class: 'chat-item' },
      h('span', { class: ['chat-from', m.seat !== null && m.seat !== undefined ? `p${m.seat}` : 'spectator'] }, m.from),
      m.seat === null || m.seat === undefined ? h('span', { class: 'muted' }, ` (${t('table.chat.spectator')})`) : null,
      h('span', { class: 'chat-text', 'data-testid': 'chat-text' }, m.text));
  }

  function appendChatItem(m) {
    const empty = chatList.querySelector('.chat-empty');
    if (empty) empty.remove();
    chatList.append(chatItem(m));
    while (chatList.children.length > 300) chatList.firstChild.remove();
    chatBox.scrollTop = chatBox.scrollHeight;
  }

  function renderChat() {
    replace(chatList, s.chat.length ? s.chat.slice(-300).map(chatItem) : h('li', { class: 'chat-empty hint' }, t('table.chat.empty')));
    chatBox.scrollTop = chatBox.scrollHeight;
  }

  function renderAll() {
    if (destroyed) return;
    renderHead();
    renderBanner();
    renderPregame();
    renderPlayers();
    renderBoard();
    chatForm.hidden = !s.info || s.status !== 'ok';
  }

  // ---- wiring ----

  offs.push(conn.on('message', (f) => {
    switch (f.type) {
      case 'table':
        if (f.table && f.table.id === s.tableId) onTable(f.table);
        break;
      case 'snapshot':
        if (f.table === s.tableId) onSnapshot(f);
        break;
      case 'events':
        if (f.table === s.tableId) onEvents(f);
        break;
      case 'chat':
        if (f.table === s.tableId) onChat(f);
        break;
      case 'left':
        if (f.table === s.tableId) { s.status = 'closed'; renderAll(); }
        break;
      case 'error':
        if (f.code === 'replaced' && s.role === 'seated' && (!f.message || !s.tableId || f.message.includes(s.tableId))) {
          // Another window took the seat: this one is no longer at the table until taken back.
          s.status = 'replaced';
          s.role = 'none';
          s.busy = false;
          if (s.game) s.game = { ...s.game, legal: [] };
          renderAll();
        }
        break;
      default:
        break;
    }
  }));
  offs.push(conn.on('state', ({ state }) => {
    if (state !== 'open') s.busy = false;
    renderBoard();
  }));
  offs.push(conn.whenReady(attach));

  renderLog();
  renderChat();
  renderAll();

  return {
    destroy() {
      destroyed = true;
      offs.forEach((off) => off());
      clearTimeout(ackTimer);
      if (nameWidget) nameWidget.destroy();
      if (board) board.destroy();
      if (s.role === 'watching' && conn.ready && s.tableId) conn.request({ type: 'leave', table: s.tableId }).catch(() => {});
    },
  };
}
