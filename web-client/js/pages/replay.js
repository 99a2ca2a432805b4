// A finished game's replay (/t/<id>/replay): every move, forwards and back — buttons, a slider, the keyboard
// (arrows, Page Up/Down, Home/End, Space to play or pause) and play at a move a second — with the board as it
// was after the move, everything revealed, and that move in words. The whole game is fetched once
// (GET /tables/<id>/replay.json), so any jump is drawn at once from memory; a change of language draws
// the same move again in the new words (relabel). Once loaded, the game's analysis joins it (replay/analysis.js): the
// graph of the win chances above the slider, the marked decisions and what the analysis would have played.
// Undos (issue 37) stay in the history as steps of their own: the slider goes through every one; a step that was
// later taken back is told struck through with "taken back at move N", and an undo step as "Ann took back: …".
import { h, replace } from '../core/dom.js';
import { t } from '../core/i18n/index.js';
import { tablePath } from '../core/route.js';
import { gameModule, gameName } from '../../games/registry.js';
import { seatNames } from '../models/table-model.js';
import { createBoardHost } from '../ui/board-host.js';
import { stepFor, replayTable, replayDataPath } from '../models/replay-model.js';
import { replayUndos, tellWithUndo } from '../models/undo-rules.js';
import { createReplayAnalysis } from './replay/analysis.js';

const PLAY_MS = 1000;

export function mountReplay(root, ctx, { id }) {
  const { store, conn, setTitle } = ctx;
  const heading = h('h1', { tabindex: '-1' }, t('replay.loading'));
  const back = h('a', { class: 'btn subtle', href: tablePath(id), 'data-link': '', 'data-testid': 'replay-back' }, t('replay.back'));
  const body = h('div', { class: 'replay-body' });
  replace(root, h('div', { class: 'replay-page' }, h('div', { class: 'replay-head' }, heading, back), body));
  setTitle(t('replay.loading'));

  let replay = null;
  let index = 0;
  let timer = null;
  let destroyed = false;
  let view = null; // the parts, once loaded
  let failure = null; // the catalog key of why it could not be loaded
  let analysis = null; // its parts (replay/analysis.js), once the replay is loaded
  let undos = { undoneBy: new Map(), takesBack: new Map() }; // which steps were taken back, and by which undo

  async function load() {
    let res;
    try {
      res = await fetch(replayDataPath(id, store.invite(id)));
    } catch {
      return failed('replay.unreachable');
    }
    if (destroyed) return;
    if (!res.ok) {
      const why = { 403: 'replay.private', 404: 'replay.notFound', 409: 'replay.running' }[res.status] || 'replay.failed';
      return failed(why);
    }
    replay = await res.json();
    if (destroyed) return;
    undos = replayUndos(replay.steps);
    analysis = createReplayAnalysis({
      id, invite: store.invite(id), replay, names: () => seatNames(replayTable(replay), t), words: eventWords,
      onJump: (to) => { stop(); go(to); }, onBoard: (step) => drawBoard(step || replay.steps[index], false),
    });
    build();
    show(replay.steps.length - 1);
  }

  function failed(key) {
    failure = key;
    heading.textContent = t('replay.title');
    setTitle(t('replay.title'));
    replace(body, h('p', { class: 'banner', role: 'alert', 'data-testid': 'replay-error' }, t(key)));
  }

  function build() {
    const last = replay.steps.length - 1;
    const title = t('replay.heading', { game: gameName(replay.game, conn.games) });
    heading.textContent = title;
    setTitle(title);
    const button = (key, label, text) => h('button', {
      type: 'button', class: 'btn', 'aria-label': label, title: label, 'data-step': key,
      onclick: () => { stop(); go(stepFor(key, index, last)); },
    }, text);
    const playButton = h('button', { type: 'button', class: 'btn primary', 'data-testid': 'replay-play', onclick: toggle });
    const slider = h('input', {
      type: 'range', min: '0', max: String(last), step: '1', value: String(index), 'aria-label': t('replay.slider'),
      'data-testid': 'replay-slider', oninput: (e) => { stop(); go(Number(e.target.value)); },
    });
    const position = h('p', { class: 'replay-position', 'data-testid': 'replay-position' });
    const move = h('p', { class: 'replay-move', 'aria-live': 'polite', 'data-testid': 'replay-move' });
    const boardHost = createBoardHost({ onAction: () => {} });
    replace(body,
      h('div', { class: 'card replay-controls', role: 'group', 'aria-label': t('replay.controls') },
        h('div', { class: 'buttons' },
          button('first', t('replay.first'), '«'), button('previous', t('replay.previous'), '‹'), playButton,
          button('next', t('replay.next'), '›'), button('last', t('replay.last'), '»')),
        analysis.top, slider, position, move,
        h('p', { class: 'hint' }, t('replay.keys'))),
      analysis.panel, boardHost.el, analysis.bottom);
    view = { slider, position, move, playButton, boardHost };
    document.addEventListener('keydown', onKey);
  }

  function onKey(e) {
    if (!replay || e.altKey || e.ctrlKey || e.metaKey) return;
    const typing = e.target.closest && e.target.closest('input:not([type=range]), textarea, select');
    if (typing) return;
    if (e.key === ' ' && !(e.target.closest && e.target.closest('button, a'))) {
      e.preventDefault();
      toggle();
      return;
    }
    const to = stepFor(e.key, index, replay.steps.length - 1);
    if (to === null) return;
    e.preventDefault();
    stop();
    go(to);
  }

  function go(to) {
    if (to !== null && to !== index) show(to);
  }

  /** A step's events in words, as the game's log writes them (an undo: "Ann took back: …"). */
  function eventWords(events) {
    const mod = gameModule(replay.game);
    const names = seatNames(replayTable(replay), t);
    const tell = (e) => mod.model.describeEvent(e, names, t, null);
    return mod ? events.map((e) => tellWithUndo(e, names, null, tell, t)).filter(Boolean).join(' ') : '';
  }

  /** The move's words: a step taken back later is struck through and says so (not by its colour alone). */
  function moveWords(i, step) {
    if (i === 0) return t('replay.start');
    const words = eventWords(step.events);
    const by = undos.undoneBy.get(i);
    if (by === undefined) return words;
    return [h('s', null, words), ' ', h('span', { class: 'replay-undone-tag' }, t('replay.takenBack', { move: by }))];
  }

  /** Draws a step's view on the board (a replay step's, or the analysis's better move); `marked`: with its move marked. */
  function drawBoard(step, marked) {
    const info = replayTable(replay);
    view.boardHost.render({
      info, game: { view: step.view, version: step.version, legal: [] }, mod: gameModule(replay.game), me: null, names: seatNames(info, t), busy: false, ready: true,
    });
    if (marked) view.boardHost.onEvents(step.events);
  }

  function show(to) {
    const step = replay.steps[to];
    const forward = to === index + 1;
    index = to;
    // One move forward: the board marks it as it does during a game.
    drawBoard(step, forward);
    const last = replay.steps.length - 1;
    view.slider.value = String(index);
    view.slider.setAttribute('aria-valuetext', t('replay.position', { move: index, total: last }));
    view.position.textContent = t('replay.position', { move: index, total: last });
    view.position.dataset.version = String(step.version);
    replace(view.move, moveWords(index, step));
    view.move.classList.toggle('is-undone', undos.undoneBy.has(index));
    view.move.classList.toggle('is-undo', undos.takesBack.has(index));
    view.move.dataset.undone = undos.undoneBy.has(index) ? 'true' : 'false';
    for (const b of body.querySelectorAll('[data-step]')) {
      const key = b.dataset.step;
      b.disabled = (key === 'first' || key === 'previous') ? index === 0 : index === last;
    }
    renderPlay();
    analysis.show(index);
  }

  function toggle() {
    if (timer) { stop(); return; }
    if (index === replay.steps.length - 1) show(0);
    timer = setInterval(() => {
      if (index >= replay.steps.length - 1) stop();
      else show(index + 1);
    }, PLAY_MS);
    renderPlay();
  }

  function stop() {
    clearInterval(timer);
    timer = null;
    if (view) renderPlay();
  }

  function renderPlay() {
    view.playButton.textContent = timer ? t('replay.pause') : t('replay.play');
    view.playButton.setAttribute('aria-pressed', timer ? 'true' : 'false');
  }

  /** After a change of language: the controls and the move shown, in the new words. */
  function relabel() {
    back.textContent = t('replay.back');
    if (failure) { failed(failure); return; }
    if (!replay || !view) {
      heading.textContent = t('replay.loading');
      setTitle(t('replay.loading'));
      return;
    }
    document.removeEventListener('keydown', onKey);
    view.boardHost.destroy();
    analysis.relabel();
    build();
    show(index);
  }

  load();

  return {
    relabel,
    destroy() {
      destroyed = true;
      clearInterval(timer);
      document.removeEventListener('keydown', onKey);
      if (view) view.boardHost.destroy();
      if (analysis) analysis.destroy();
    },
  };
}
