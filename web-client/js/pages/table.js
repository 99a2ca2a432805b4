// A table page: it holds the table's state (the seats, the viewer's role, the game's view, the
// transcript of log and chat), talks to the server and composes the parts in js/pages/table/:
//   head.js        heading, state line, turn indicator, tab title; the banner
//   pregame.js     before the start: invite link, seats to take, start and leave
//   players.js     the players panel during the game: stand-in bots, absent players,
//                  "Let a bot play" and "Leave game"
//   invite.js      the invite link of a private table
//   invite-friend.js  "Invite a friend" for a signed-in player seated at a waiting table
//   log.js         the game log in words
//   chat.js        the chat's tabs (players, spectators), mutes, Report (ui/report-dialog.js)
//   clock.js       the clocks of a timed table (the seat on the clock counting down, reserves)
//   rematch.js     "Play again" on a finished table and the offer to the others
//   rating-changes.js  a finished rated table's changes of rating ("+23")
//   fairness.js    the shuffle's commitment, and its check when the game ends
//   attention.js   the your-turn sound and notification switches
//   undo-bar.js    Undo and "Confirm my turn" beside the turn indicator; the steps kept, above the board
// and the game's board in js/ui/board-host.js (shared with the replay page).
// It keeps the game's view current by applying each `events` message with the game's pure
// reducer, and takes a full snapshot only on join, resume, reconnection, a missed version, a
// stale_version refusal or an undo (the position before the undone step cannot be computed from events).
//
// Taking back (issue 37): the legal list's undo entry never reaches the board (js/models/undo-rules.js); Undo and
// Ctrl+Z / Cmd+Z send {"type":"undo"}. With "Confirm my turn" on (js/models/confirm-turn.js) the player's steps are
// kept here and previewed instead of sent; the board draws the preview; Undo takes a kept step off; Confirm sends
// them as acts, one after another, each at the version the previous ack gave.
//
// A change of language re-renders the page in place (relabel): the parts whose words are fixed when
// they are made are made again, the others render again from the state kept here, and the log's lines
// are told again from the events they came from. Nothing is asked of the server.
//
// Entered as /t/<id> (resume the remembered seat, else watch) or /i/<invite> (watch through the
// invite; the URL then becomes /t/<id>). After every reconnection the same happens again, so a
// reload or a lost network puts the player back in the same seat.
import { h, replace } from '../core/dom.js';
import { t } from '../core/i18n/index.js';
import { tablePath } from '../core/route.js';
import { gameModule, gameName } from '../../games/registry.js';
import { rememberSeat } from '../core/store.js';
import { errorText } from '../core/errors.js';
import * as tm from '../models/table-model.js';
import { createHead, createBanner } from './table/head.js';
import { createPregame } from './table/pregame.js';
import { createBoardHost } from '../ui/board-host.js';
import { createPlayers } from './table/players.js';
import { createLog } from './table/log.js';
import { createChat } from './table/chat.js';
import { createClocks } from './table/clock.js';
import { createRematch } from './table/rematch.js';
import { createRatingChanges } from './table/rating-changes.js';
import { createFairness } from './table/fairness.js';
import { createAttention } from './table/attention.js';
import { createInviteFriend } from './table/invite-friend.js';
import { createReportDialog } from '../ui/report-dialog.js';
import { addLine, fromHistory, setMuted, nameKey } from '../models/chat-log.js';
import { absentThreshold, botPlaysMine, msUntilThreshold, playableGame } from '../models/stand-in.js';
import { readLive } from '../models/clock-rules.js';
import {
  splitLegal, isUndoEvent, tellWithUndo, undoneVersion, markUndone, isMac, isUndoKey, undoShortcut,
} from '../models/undo-rules.js';
import * as confirmTurn from '../models/confirm-turn.js';
import { createUndoBar } from './table/undo-bar.js';
import { createResign } from './table/resign.js';

const ACK_GRACE_MS = 3000;
// While the server cannot reach its database, a seat is looked up again this often.
const STORE_RETRY_MS = 3000;
const AWAY_TICK_MS = 15000; // how often "away N min" is brought up to date between table frames

export function mountTable(root, ctx, params) {
  const { conn, store, navigate, notify, setTitle, friends } = ctx;
  const s = {
    tableId: params.id || null,
    invite: params.invite || null,
    info: null,
    infoAt: 0, // when `info` arrived (its seats' away_s are as of then)
    seat: null,
    role: 'none', // 'seated' | 'watching' | 'none'
    status: 'loading', // 'loading' | 'ok' | 'notFound' | 'replaced' | 'closed'
    game: null, // {view, version, legal (without the undo entry), canUndo}
    kept: confirmTurn.noSteps(), // the steps kept by "Confirm my turn" (js/models/confirm-turn.js)
    live: null, // the live clock of a timed table (js/models/clock-rules.js readLive)
    busy: false,
    log: [],
    chat: [], // js/models/chat-log.js lines
    // The chat's settings: the server forgets them with the connection, so they are sent again on each attach.
    muted: new Set(), // name keys
    mutedNames: [], // as shown
    seeSpectators: false,
  };
  if (s.tableId && !s.invite) s.invite = store.invite(s.tableId);
  if (!s.tableId && s.invite) s.tableId = store.tableForInvite(s.invite);
  if (s.tableId) Object.assign(s, store.transcript(s.tableId));

  const offs = [];
  let ackTimer = null;
  let thresholdTimer = null; // re-renders the players panel when someone away reaches the threshold
  let destroyed = false;
  let wasMyTurn = false; // the decision panel is brought into view when the viewer's turn starts
  const awayTimer = setInterval(() => {
    if (s.info && s.info.state === 'playing' && s.info.seats.some((seat) => Number.isInteger(seat.away_s))) renderPlayers();
  }, AWAY_TICK_MS);

  // ---- the parts (js/pages/table/*) ----
  // Made again on a change of language (their headings and labels are made once): head, banner, log, chat, clocks.
  const undoBar = createUndoBar({ on: { undo: takeBackStep, confirm: confirmKept, cancel: cancelKept, setConfirm } });
  const resign = createResign({ onResign: leaveRunning });
  let head = createHead({ onHowTo: () => (s.info ? s.info.game : null), tools: [undoBar.tools, resign.button] });
  let banner = createBanner({ onTakeBack: takeBack, onResume: takeBackFromBot });
  const reportPlayer = (name) => reportDialog.open({ table: s.tableId, name });
  const pregame = createPregame({ conn, store, on: { take: takeSeat, start, leave, addBot, removeBot, report: reportPlayer } });
  const boardHost = createBoardHost({ onAction: act });
  const players = createPlayers({
    on: { replace: replaceAbsent, report: reportPlayer },
  });
  let log = createLog();
  const chatActions = {
    send: (text) => conn.request({ type: 'chat', table: s.tableId, text }),
    mute: muteName,
    seeSpectators,
    spectatorsMayChat,
    report: (line) => reportDialog.open({ table: s.tableId, name: line.from, line: line.id, text: line.text }),
    errorText: (err) => errorText(err),
  };
  let chat = createChat({ on: chatActions });
  const reportDialog = createReportDialog({ conn });
  let clocks = createClocks();
  const rematch = createRematch({ onRematch: playAgain });
  const ratingChanges = createRatingChanges();
  const fairness = createFairness({ store });
  const attention = createAttention({ store });
  const inviteFriend = createInviteFriend({ friends, gameTitle: (id) => gameName(id, conn.games) });
  const mac = isMac(navigator);

  // The board's column beside the side column, or the side panels below a wide board (data-layout).
  const grid = h('div', { class: 'table-grid' });
  function layout() {
    replace(grid,
      h('div', { class: 'table-main' }, resign.panel, ratingChanges.el, rematch.el, clocks.el, pregame.el, inviteFriend.el, undoBar.panel, boardHost.el),
      h('aside', { class: 'table-side' }, players.el, attention.el, log.el, chat.el, fairness.el));
    replace(root, h('div', { class: 'table-page' }, head.el, banner.el, grid));
  }
  layout();

  const mod = () => (s.info ? gameModule(s.info.game) : null);
  const names = () => tm.seatNames(s.info, t);
  const gameInfo = () => (s.info ? (conn.games || []).find((g) => g.id === s.info.game) : null);
  /** The viewer's seat while seated here, else null. */
  const me = () => (s.role === 'seated' ? s.seat : null);
  /** The game as the viewer may play it: no moves while a bot plays their seat (js/models/stand-in.js). */
  const playable = () => playableGame(s.game, botPlaysMine(s.info, me()));

  // ---- joining ----

  function setTableId(id) {
    s.tableId = id;
    if (location.pathname !== tablePath(id)) history.replaceState(null, '', tablePath(id));
    const saved = store.transcript(id);
    if (s.log.length === 0 && s.chat.length === 0 && (saved.log.length || saved.chat.length)) {
      Object.assign(s, saved);
      log.render(s.log);
      renderChat();
    }
  }

  function setInfo(info) {
    s.info = info;
    s.infoAt = Date.now();
  }

  /** Takes the live clock from a frame that has one (timed tables once started). */
  function setLive(frame) {
    if (frame && frame.clock !== undefined) s.live = readLive(frame.clock, Date.now());
  }

  function onSeated(reply) {
    rememberSeat(store, reply);
    setInfo(reply.table);
    setLive(reply);
    // A bot stood in while this player was away; resuming gave the seat back.
    if (reply.reclaimed) notify(t('table.reclaimed'), 'info');
    s.seat = reply.seat;
    s.role = 'seated';
    s.status = 'ok';
    if (reply.invite) s.invite = reply.invite;
    setTableId(reply.table.id);
    renderAll();
    restoreChatSettings();
  }

  function onWatching(reply) {
    setInfo(reply.table);
    setLive(reply);
    s.seat = null;
    s.role = 'watching';
    s.status = 'ok';
    if (s.invite) store.saveInvite(reply.table.id, s.invite);
    setTableId(reply.table.id);
    renderAll();
    restoreChatSettings();
  }

  /**
   * How to take this table's seat back: by the token this browser keeps, else, signed in, by the table (the
   * account's seat there, claimed on any device); null when neither can.
   */
  function resumeRequest() {
    const mine = s.tableId ? store.seat(s.tableId) : null;
    if (mine && typeof mine.token === 'string') return { type: 'resume', token: mine.token };
    if (s.tableId && conn.account) return { type: 'resume', table: s.tableId };
    return null;
  }

  async function attach() {
    if (destroyed || s.status === 'replaced' || s.status === 'notFound' || s.status === 'closed') return;
    const request = resumeRequest();
    if (request) {
      try {
        onSeated(await conn.request(request));
        return;
      } catch (err) {
        if (err.code === 'bad_token') {
          store.forgetSeat(s.tableId);
          notify(t('error.bad_token'), 'error');
        } else if (err.code === 'not_seated' || err.code === 'not_signed_in') {
          // The account has no seat here (or the session ended): watch, as anyone may.
        } else if (err.code === 'store_unavailable') {
          // The server cannot look the seat up now: the seat is still ours, so ask again shortly.
          notify(errorText(err), 'error');
          retryAttach();
          return;
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
      } else if (err.code === 'store_unavailable') {
        notify(errorText(err), 'error');
        retryAttach();
      } else if (err.code !== 'disconnected') {
        notify(errorText(err), 'error');
      }
    }
  }

  let attachTimer = null;
  function retryAttach() {
    clearTimeout(attachTimer);
    attachTimer = setTimeout(() => { if (!destroyed && conn.ready) attach(); }, STORE_RETRY_MS);
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
    banner.render(s.status);
    head.heading.focus({ preventScroll: true });
    await attach();
  }

  /** Takes the seat back from the bot that plays it after three timeouts (resume, same connection). */
  async function takeBackFromBot() {
    const request = resumeRequest();
    try {
      if (!request) throw Object.assign(new Error('bad_token'), { code: 'bad_token' });
      onSeated(await conn.request(request));
    } catch (err) {
      notify(errorText(err), 'error');
      renderAll();
    }
  }

  /** Offers a rematch, or joins the one offered: the reply seats the player at the new table. */
  async function playAgain() {
    try {
      const reply = await conn.request({ type: 'rematch', table: s.tableId });
      rememberSeat(store, reply);
      navigate(tablePath(reply.table.id));
    } catch (err) {
      notify(errorText(err), 'error');
      renderAll();
    }
  }

  async function start() {
    try {
      await conn.request({ type: 'start', table: s.tableId });
    } catch (err) {
      notify(errorText(err), 'error');
    }
  }

  async function addBot(seat, level) {
    try {
      await conn.request({ type: 'add_bot', table: s.tableId, seat, level });
    } catch (err) {
      notify(errorText(err), 'error');
      renderAll();
    }
  }

  async function removeBot(seat) {
    try {
      await conn.request({ type: 'remove_bot', table: s.tableId, seat });
    } catch (err) {
      notify(errorText(err), 'error');
      renderAll();
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

  /** Leaves the running game (a bot plays the seat from now on), then watches the table. */
  async function leaveRunning() {
    try {
      await conn.request({ type: 'leave', table: s.tableId });
    } catch (err) {
      notify(errorText(err), 'error');
      renderAll();
      return;
    }
    store.forgetSeat(s.tableId);
    s.role = 'none';
    s.seat = null;
    s.busy = false;
    s.kept = confirmTurn.noSteps();
    if (s.game) s.game = { ...s.game, legal: [], canUndo: false };
    notify(t('table.resign.done'), 'info');
    renderAll();
    const ref = s.invite ? { invite: s.invite } : { table: s.tableId };
    try {
      onWatching(await conn.request({ type: 'watch', ...ref }));
    } catch (err) {
      if (err.code !== 'disconnected') notify(errorText(err), 'error');
    }
  }

  /** Hands an absent player's seat to a bot; a refusal shows the server's words (how long they have been away). */
  async function replaceAbsent(seat) {
    const name = s.info && s.info.seats[seat] ? s.info.seats[seat].name : '';
    try {
      await conn.request({ type: 'replace_absent', table: s.tableId, seat });
      notify(t('table.away.replaced', { name }), 'info');
    } catch (err) {
      notify(err.code === 'not_absent' && err.message ? err.message : errorText(err), 'error');
      renderAll();
    }
  }

  async function requestSnapshot() {
    if (!s.tableId) return;
    try {
      const reply = await conn.request({ type: 'snapshot', table: s.tableId });
      if (reply.type === 'snapshot') onSnapshot(reply);
      else if (reply.type === 'table') onTable(reply.table, reply);
    } catch (err) {
      if (err.code !== 'disconnected') notify(errorText(err), 'error');
    }
  }

  // ---- game state ----

  /**
   * Adds a line to the log. `told` says how to tell it again in another language: {key, params} for the
   * table's own notes, {event, viewer} for a game event.
   */
  function addLog(text, version, kind = 'event', told = null) {
    s.log.push({ text, version, kind, ...told });
    if (s.log.length > 400) s.log.splice(0, s.log.length - 300);
    log.append(s.log[s.log.length - 1]);
    saveTranscript();
  }

  function note(key, params, version) {
    addLog(t(key, params), version, 'note', { key, params });
  }

  /** A game event in words (a clock's timeout and an undo are the table's, the rest the game's). */
  function eventWords(m, e, viewer) {
    const tell = (x) => (tm.isTimeout(x) ? tm.timeoutWords(x, names(), viewer, t) : m.model.describeEvent(x, names(), t, viewer));
    return tellWithUndo(e, names(), viewer, tell, t);
  }

  /** The game as the table keeps it: the legal list without its undo entry, and whether undo was in it. */
  function gameState(view, version, legal) {
    const { actions, canUndo } = splitLegal(legal);
    return { view, version, legal: actions, canUndo };
  }

  /** Tells every log line that knows how again, in the current language. */
  function retellLog() {
    const m = mod();
    for (const entry of s.log) {
      try {
        if (entry.key) entry.text = t(entry.key, entry.params || {});
        else if (entry.event && m) entry.text = eventWords(m, entry.event, entry.viewer ?? null);
      } catch { /* an entry of another shape: it keeps its words */ }
    }
  }

  function onSnapshot(f) {
    const lastLogged = s.log.length ? s.log[s.log.length - 1].version : -1;
    const hadGame = Boolean(s.game);
    s.game = gameState(f.view, f.version, f.legal);
    setLive(f);
    s.seat = f.seat;
    s.busy = false;
    clearTimeout(ackTimer);
    if (f.seat !== null && f.seat !== undefined && s.tableId && store.seat(s.tableId)) {
      store.saveSeat(s.tableId, { seat: f.seat });
    }
    if (f.version === 0 && lastLogged < 0) note('table.log.started', {}, 0);
    else if (f.version > lastLogged) note(hadGame ? 'table.log.caughtUp' : 'table.log.joined', { version: f.version }, f.version);
    settleKept();
    renderAll();
  }

  function onEvents(f) {
    const m = mod();
    const decision = tm.eventsDecision(s.game ? s.game.version : null, f.version);
    setLive(f);
    if (decision === 'ignore') { renderClocks(); return; }
    if (decision === 'resync' || !m) {
      requestSnapshot();
      return;
    }
    // A timeout is the clock's, not the game's: the board never sees it, the log says it.
    const events = f.events.filter((e) => !tm.isTimeout(e));
    if (events.some(isUndoEvent)) {
      onUndo(f, m, events);
      return;
    }
    let view;
    try {
      view = m.model.applyEvents(s.game.view, events, f.version);
    } catch (err) {
      console.error('emporium: applying events failed; taking a snapshot', err);
      requestSnapshot();
      return;
    }
    s.game = gameState(view, f.version, f.legal);
    s.busy = false;
    clearTimeout(ackTimer);
    const viewer = s.role === 'seated' ? s.seat : null;
    for (const e of f.events) addLog(eventWords(m, e, viewer), f.version, 'event', { event: e, viewer });
    boardHost.onEvents(events);
    settleKept();
    renderAll();
  }

  /**
   * An undo: the log says what was taken back and strikes the step's own lines; the board forgets its marks (it
   * gets the undo event); the position before the step comes with a snapshot, and until then nothing can be sent.
   */
  function onUndo(f, m, events) {
    const viewer = s.role === 'seated' ? s.seat : null;
    for (const e of f.events) {
      if (isUndoEvent(e)) {
        const version = undoneVersion(s.log, e);
        if (version !== null) {
          s.log = markUndone(s.log, version);
          log.markUndone(s.log, version);
        }
      }
      addLog(eventWords(m, e, viewer), f.version, 'event', { event: e, viewer });
    }
    boardHost.onEvents(events);
    if (s.game) s.game = { ...s.game, legal: [], canUndo: false };
    s.busy = true;
    clearTimeout(ackTimer);
    requestSnapshot();
    renderAll();
  }

  function onTable(info, frame) {
    setInfo(info);
    setLive(frame);
    if (s.role === 'seated' && s.tableId && store.seat(s.tableId)) store.saveSeat(s.tableId, { state: info.state });
    renderAll();
  }

  /** The events of an acknowledged request follow its ack; if they do not come within the grace, catch up. */
  function expectEventsOf(ack) {
    clearTimeout(ackTimer);
    ackTimer = setTimeout(() => {
      if (s.game && s.game.version < ack.version) requestSnapshot();
    }, ACK_GRACE_MS);
  }

  async function act(action, { label = null } = {}) {
    if (!s.game || s.busy) return;
    if (confirming()) {
      keepStep(action, label);
      return;
    }
    s.busy = true;
    renderBoard();
    const at = s.game.version;
    try {
      expectEventsOf(await conn.request({ type: 'act', table: s.tableId, version: at, action }));
    } catch (err) {
      s.busy = false;
      if (err.code === 'stale_version') {
        requestSnapshot();
      } else if (err.code === 'store_unavailable') {
        // Nothing was stored; once the server reaches its database again it sends the table afresh.
        notify(errorText(err), 'error');
      } else if (err.code === 'disconnected') {
        // The reconnection brings a fresh snapshot.
      } else {
        notify(errorText(err), 'error');
        requestSnapshot();
      }
      renderBoard();
    }
  }

  // ---- taking back, and "Confirm my turn" ----

  /** Whether the viewer's steps are kept for "Confirm my turn" (their choice for this game, at a running table). */
  function confirming() {
    return me() !== null && confirmTurn.offersConfirm(s.info) && s.info.state === 'playing' && store.confirmTurn(s.info.game);
  }

  /** Undo (the button, Ctrl+Z): takes a kept step off here, else asks the server to take back the last step. */
  function takeBackStep() {
    if (confirmTurn.hasSteps(s.kept)) {
      if (s.kept.sending || s.kept.awaiting !== null) return;
      s.kept = confirmTurn.dropLast(s.kept);
      s.busy = false; // a preview still on its way is for the step just taken off: its answer is dropped
      renderAll();
      return;
    }
    sendUndo();
  }

  async function sendUndo() {
    if (!s.game || s.busy || !s.game.canUndo || me() === null) return;
    s.busy = true;
    renderBoard();
    try {
      // The undo's events follow the ack (and bring a snapshot).
      expectEventsOf(await conn.request({ type: 'undo', table: s.tableId, version: s.game.version }));
    } catch (err) {
      s.busy = false;
      if (err.code !== 'disconnected') {
        if (err.code !== 'stale_version') notify(errorText(err), 'error');
        requestSnapshot();
      }
      renderBoard();
    }
  }

  /** Keeps a step and asks the server for its preview (nothing is stored, nobody else is told). */
  async function keepStep(action, label) {
    if (!confirmTurn.mayKeep(s.kept)) return;
    s.kept = confirmTurn.keep(s.kept, action, s.game.version, label);
    const asked = s.kept;
    s.busy = true;
    renderAll();
    let reply;
    try {
      reply = await conn.request(confirmTurn.previewRequest(asked, s.tableId));
    } catch (err) {
      if (s.kept !== asked) return; // taken off meanwhile
      s.busy = false;
      if (['stale_version', 'not_your_turn', 'not_started', 'game_over', 'not_seated'].includes(err.code)) {
        s.kept = confirmTurn.noSteps();
        notify(t('table.confirm.dropped', { error: errorText(err) }), 'error');
        requestSnapshot();
      } else {
        s.kept = confirmTurn.dropLast(asked);
        if (err.code !== 'disconnected') notify(errorText(err), 'error');
      }
      renderAll();
      return;
    }
    if (s.kept !== asked) return;
    s.kept = confirmTurn.previewed(asked, reply);
    s.busy = false;
    renderAll();
  }

  /** Confirm: the kept steps as ordinary acts, one after another, each at the version the previous ack gave. */
  async function confirmKept() {
    if (!confirmTurn.mayConfirm(s.kept) || s.busy) return;
    const actions = s.kept.steps.map((step) => step.action);
    let version = s.kept.base;
    s.kept = confirmTurn.sending(s.kept);
    s.busy = true;
    renderAll();
    for (const action of actions) {
      try {
        ({ version } = await conn.request({ type: 'act', table: s.tableId, version, action }));
      } catch (err) {
        // Part of the turn may be in: the table as it is now, and what went wrong.
        s.kept = confirmTurn.noSteps();
        s.busy = false;
        notify(t('table.confirm.failed', { error: errorText(err) }), 'error');
        if (err.code !== 'disconnected') requestSnapshot();
        renderAll();
        return;
      }
    }
    s.kept = confirmTurn.sent(s.kept, version);
    s.busy = false;
    expectEventsOf({ version });
    settleKept();
    renderAll();
  }

  function cancelKept() {
    if (s.kept.sending || s.kept.awaiting !== null) return;
    s.kept = confirmTurn.noSteps();
    s.busy = false;
    renderAll();
  }

  function setConfirm(on) {
    if (!s.info) return;
    store.setConfirmTurn(s.info.game, on);
    renderAll();
  }

  /** The kept steps against the game now: Confirm's go once the game has them; others go if the table moved on. */
  function settleKept() {
    const { kept: now, dropped } = confirmTurn.settle(s.kept, s.game ? s.game.version : null);
    s.kept = now;
    if (dropped) notify(t('table.confirm.movedOn'), 'error');
  }

  /** Ctrl+Z (Cmd+Z on a Mac) is Undo, unless the focus is in a field that takes text (its own undo). */
  function onKey(e) {
    if (!isUndoKey(e, mac) || destroyed) return;
    const target = e.target;
    if (target && target.closest && target.closest('textarea, [contenteditable], input:not([type=checkbox]):not([type=radio]):not([type=range]):not([type=button]):not([type=submit])')) return;
    if (!undoable()) return;
    e.preventDefault();
    takeBackStep();
  }
  document.addEventListener('keydown', onKey);

  /** Whether Undo takes something back now. */
  function undoable() {
    if (me() === null || !s.info || s.info.state !== 'playing') return false;
    if (confirmTurn.hasSteps(s.kept)) return !s.kept.sending && s.kept.awaiting === null;
    return Boolean(s.game && s.game.canUndo) && !s.busy;
  }

  function renderUndoBar() {
    const seated = me() !== null && Boolean(s.info) && s.info.state === 'playing' && Boolean(s.game) && s.status === 'ok';
    const offers = seated && confirmTurn.offersConfirm(s.info);
    const m = mod();
    const viewer = me();
    const steps = confirmTurn.hasSteps(s.kept) && m ? confirmTurn.stepWords(s.kept, (e) => eventWords(m, e, viewer)) : [];
    undoBar.render({
      show: seated && !botPlaysMine(s.info, me()) && (offers || Boolean(s.game.canUndo) || confirmTurn.hasSteps(s.kept)),
      canUndo: seated && (confirmTurn.hasSteps(s.kept) ? !s.kept.sending && s.kept.awaiting === null : Boolean(s.game.canUndo)),
      kept: confirmTurn.hasSteps(s.kept),
      offersConfirm: offers,
      confirmOn: offers && store.confirmTurn(s.info.game),
      steps,
      ready: s.kept.final || (confirmTurn.hasSteps(s.kept) && !confirmTurn.isPending(s.kept) && !confirmTurn.mayKeep(s.kept)),
      canConfirm: confirmTurn.mayConfirm(s.kept) && conn.ready,
      sending: s.kept.sending || s.kept.awaiting !== null,
      busy: s.busy || !conn.ready,
      shortcut: undoShortcut(mac),
    });
  }

  // ---- chat ----

  function onChat(f) {
    s.chat = addLine(s.chat, f);
    renderChat();
    saveTranscript();
  }

  function onChatHistory(f) {
    s.chat = fromHistory(f);
    renderChat();
    saveTranscript();
  }

  /** Mutes and "Show spectators' chat" again on a new connection (the server keeps them per connection). */
  function restoreChatSettings() {
    const table = s.tableId;
    for (const name of s.mutedNames) conn.request({ type: 'mute', table, name, on: true }).catch(() => {});
    if (s.seeSpectators && s.role === 'seated') {
      conn.request({ type: 'chat_settings', table, see_spectators: true }).catch(() => {});
    }
  }

  async function muteName(name, on) {
    try {
      await conn.request({ type: 'mute', table: s.tableId, name, on });
    } catch (err) {
      chat.showError(errorText(err));
      return;
    }
    s.muted = setMuted(s.muted, name, on);
    s.mutedNames = s.mutedNames.filter((n) => nameKey(n) !== nameKey(name));
    if (on) s.mutedNames.push(name);
    renderChat();
  }

  async function seeSpectators(on) {
    try {
      await conn.request({ type: 'chat_settings', table: s.tableId, see_spectators: on });
      s.seeSpectators = on;
    } catch (err) {
      chat.showError(errorText(err));
    }
    renderChat();
  }

  async function spectatorsMayChat(on) {
    try {
      await conn.request({ type: 'chat_settings', table: s.tableId, spectators_may_chat: on });
    } catch (err) {
      chat.showError(errorText(err));
      renderChat();
    }
  }

  function renderChat() {
    const myName = s.role === 'seated' && s.info && s.info.seats[s.seat] ? s.info.seats[s.seat].name : (conn.name || null);
    chat.render({
      lines: s.chat, muted: s.muted, mutedNames: s.mutedNames, role: s.role, myName, signedIn: Boolean(conn.account),
      seeSpectators: s.seeSpectators, spectatorsMayChat: !s.info || s.info.spectators_may_chat !== false,
      creator: s.role === 'seated' && Boolean(s.info) && s.info.creator_seat === s.seat,
    });
  }

  function saveTranscript() {
    if (s.tableId) store.saveTranscript(s.tableId, { log: s.log, chat: s.chat });
  }

  // ---- rendering ----

  function renderBoard() {
    const m = mod();
    grid.dataset.layout = m && m.layout ? m.layout : 'side';
    const sending = s.kept.sending || s.kept.awaiting !== null;
    boardHost.render({
      info: s.info, game: confirmTurn.shownGame(s.kept, playable()), mod: m, me: me(), names: names(), busy: s.busy || sending, ready: conn.ready,
    });
    renderUndoBar();
  }

  function renderPlayers() {
    if (destroyed) return;
    const m = mod();
    const now = Date.now();
    const threshold = absentThreshold(conn.absentAfterS);
    // Each seat's score, where the game's is public (its model's seatScore, from the view this viewer was sent).
    const scores = s.game && m && m.model.seatScore && s.info ? s.info.seats.map((seat) => m.model.seatScore(s.game.view, seat.seat, t)) : [];
    players.render({
      info: s.info, me: me(), movers: s.game && m ? m.model.toMove(s.game.view) : [], invite: s.invite,
      infoAt: s.infoAt, now, threshold, canReport: Boolean(conn.account), scores,
    });
    clearTimeout(thresholdTimer);
    const due = msUntilThreshold(s.info, s.infoAt, now, threshold);
    if (due !== null) thresholdTimer = setTimeout(renderPlayers, due + 50);
  }

  function renderClocks() {
    clocks.render({ info: s.info, live: s.live, me: me(), names: names() });
  }

  function renderAll() {
    if (destroyed) return;
    const g = gameInfo();
    const gameTitle = s.info ? gameName(s.info.game, conn.games) : '';
    head.render({
      info: s.info, status: s.status, role: s.role, seat: s.seat, me: me(), game: playable(), mod: mod(), names: names(),
      gameTitle, setTitle,
    });
    banner.render(s.status, { botPlays: botPlaysMine(s.info, me()) });
    attention.update({
      seated: me() !== null && Boolean(s.info) && s.info.state !== 'finished',
      mine: tm.isMyTurn({ seat: me(), game: playable(), info: s.info }), game: gameTitle, tableId: s.tableId,
    });
    resign.render({ info: s.status === 'ok' ? s.info : null, me: me() });
    rematch.render({ info: s.info, me: me(), hasSeatAt: (id) => Boolean(store.seat(id)) });
    ratingChanges.render({ info: s.info, me: me() });
    fairness.render({ info: s.info, version: s.game ? s.game.version : null, invite: s.invite });
    renderClocks();
    pregame.render({
      info: s.info, open: s.status === 'ok', me: me(), invite: s.invite,
      minPlayers: g ? g.min_players : (s.info ? s.info.players : 1),
    });
    inviteFriend.render({ info: s.status === 'ok' ? s.info : null, me: me() });
    renderPlayers();
    renderBoard();
    renderChat();
    chat.setOpen(Boolean(s.info) && s.status === 'ok');
    const mine = tm.isMyTurn({ seat: me(), game: playable(), info: s.info });
    // Only when the turn starts: mid-turn reading is never interrupted, nor typing in the chat.
    if (mine && !wasMyTurn && !chat.el.contains(document.activeElement)) boardHost.showDecision();
    wasMyTurn = mine;
  }


  // ---- wiring ----

  offs.push(conn.on('message', (f) => {
    switch (f.type) {
      case 'table':
        if (f.table && f.table.id === s.tableId) onTable(f.table, f);
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
      case 'chat_history':
        if (f.table === s.tableId) onChatHistory(f);
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
          s.kept = confirmTurn.noSteps();
          if (s.game) s.game = { ...s.game, legal: [], canUndo: false };
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

  log.render(s.log);
  renderAll();

  /** After a change of language: the page again in the new words, from the state kept here (no request). */
  function relabel() {
    if (destroyed) return;
    const draft = chat.el.querySelector('#chat-input');
    const typed = draft ? draft.value : '';
    const hadFocus = draft && document.activeElement === draft;
    clocks.destroy();
    head = createHead({ onHowTo: () => (s.info ? s.info.game : null), tools: [undoBar.tools, resign.button] });
    banner = createBanner({ onTakeBack: takeBack, onResume: takeBackFromBot });
    log = createLog();
    chat = createChat({ on: chatActions });
    clocks = createClocks();
    pregame.destroy(); // its name form is made again in the new words
    attention.relabel();
    undoBar.relabel();
    layout();
    retellLog();
    saveTranscript();
    log.render(s.log);
    const input = chat.el.querySelector('#chat-input');
    if (input) {
      input.value = typed;
      if (hadFocus) input.focus({ preventScroll: true });
    }
    renderAll();
  }

  return {
    relabel,
    destroy() {
      destroyed = true;
      document.removeEventListener('keydown', onKey);
      offs.forEach((off) => off());
      clearTimeout(ackTimer);
      clearTimeout(attachTimer);
      clearInterval(awayTimer);
      clearTimeout(thresholdTimer);
      clocks.destroy();
      pregame.destroy();
      inviteFriend.destroy();
      reportDialog.destroy();
      boardHost.destroy();
      if (s.role === 'watching' && conn.ready && s.tableId) conn.request({ type: 'leave', table: s.tableId }).catch(() => {});
    },
  };
}
