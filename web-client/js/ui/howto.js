// "How to play": a game's rules in short, in a modal <dialog> opened from the table's head and from the
// lobby (each game's card and the create form). The words are catalog entries howto.<game>.{summary,
// setup, turn, scoring, end, rulings}, among the game's strings (games/<game>/i18n/): plain text where
// "\n\n" separates paragraphs and a line that starts with "• " is a list item. They are put on the page as text (never as markup).
// The dialog is labelled by its heading, keeps the keyboard inside it (Tab and Shift+Tab go round),
// closes with Esc or its button, and gives the focus back to the button that opened it.
// After the summary stands a picture of the board: the game's own board module drawing its example position
// (games/<game>/howto-figure.js, handed over by the registry with addHowToFigure) as a spectator sees it, inert and
// scaled to the dialog, with numbered callouts over its parts and a numbered legend naming them (the text
// alternative: the board itself is inert, so hidden from screen readers).
import { h } from '../core/dom.js';
import { t } from '../core/i18n/index.js';
import { seatNames } from '../models/table-model.js';
import { boardState } from './board-host.js';

/** The sections after the summary, each under its heading (help.section.<id>). */
export const HOWTO_SECTIONS = ['setup', 'turn', 'scoring', 'end', 'rulings'];
const BULLET = /^\s*[•·]\s+/;

/**
 * Pure: a how-to text as blocks — {type: 'p', text} for a paragraph (its single line breaks kept) and
 * {type: 'ul', items} for a run of "• " lines.
 */
export function howToBlocks(text) {
  const blocks = [];
  for (const para of String(text ?? '').replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    let lines = [];
    let items = null;
    const flushLines = () => {
      if (lines.length) blocks.push({ type: 'p', text: lines.join('\n') });
      lines = [];
    };
    const flushItems = () => {
      if (items && items.length) blocks.push({ type: 'ul', items });
      items = null;
    };
    for (const raw of para.split('\n')) {
      const line = raw.trim();
      if (!line) continue;
      if (BULLET.test(line)) {
        flushLines();
        if (!items) items = [];
        items.push(line.replace(BULLET, ''));
      } else {
        flushItems();
        lines.push(line);
      }
    }
    flushLines();
    flushItems();
  }
  return blocks;
}

function blocksEl(text) {
  return howToBlocks(text).map((b) => (b.type === 'ul'
    ? h('ul', { class: 'howto-list' }, b.items.map((item) => h('li', null, item)))
    : h('p', null, b.text)));
}

// ---- the picture of the board ----

/**
 * game id → { board (its module), load() → its figure: { example: {seats, view}, width, minWidth?, parts: [{key,
 * selector}] } }.
 */
const figures = new Map();

/** The registry hands over each game's board and how to load its figure (loaded the first time the dialog shows it). */
export function addHowToFigure(board, load) {
  figures.set(board.id, { board, load });
}

/** The scale a board is drawn at, when its figure allows (a phone's board rather than a desktop's shrunk). */
export const FIGURE_SCALE = 0.7;
/** The narrowest a board is laid out at: narrower, boards would wrap in ways a table page never shows. */
export const FIGURE_MIN_WIDTH = 420;
/** A callout's radius in px (css/style.css .howto-callout is twice as wide). */
export const CALLOUT_R = 11;
/** How far inside its part's corner a callout's centre stands (px). */
const CORNER_INSET = 1;

/**
 * Pure: the width (px) a board whose figure says `width` (at most) and `minWidth` (at least) is laid out at in a
 * picture `available` px wide, and the scale that fits it there (never above 1).
 */
export function figureLayout(available, width, minWidth = FIGURE_MIN_WIDTH) {
  const layout = Math.round(Math.max(minWidth, Math.min(width, available / FIGURE_SCALE)));
  return { layout, scale: available > 0 ? Math.min(1, available / layout) : 0 };
}

/**
 * Pure: where each part's callout goes. A part is the boxes ({left, top, width, height}, in the picture's px) of
 * the elements its selector matches, in the board's order; its callout is {x, y, match}: its centre, on the first
 * of them (`match`, an index) where it covers no callout placed before it, else on the first; the parts with the
 * fewest boxes are placed first. The centre stands just inside the box's top left corner, so that it covers the
 * part's edge rather than what the part shows (at the centre of a box too small for that), or further along the
 * box, right then down, where that corner is taken. Null for a part with no box of any size.
 */
export function calloutSpots(parts, r = CALLOUT_R) {
  const gap = 2 * r + 2;
  const steps = (from, to) => {
    const out = [from];
    for (let x = from + gap; x <= to; x += gap) out.push(x);
    return out;
  };
  const placed = [];
  const free = (x, y) => placed.every((p) => Math.hypot(p.x - x, p.y - y) >= gap);
  const corner = (b) => ({ ix: Math.min(b.width / 2, CORNER_INSET), iy: Math.min(b.height / 2, CORNER_INSET) });
  function freeSpot(b) {
    const { ix, iy } = corner(b);
    for (const y of steps(b.top + iy, b.top + b.height - iy)) {
      for (const x of steps(b.left + ix, b.left + b.width - ix)) if (free(x, y)) return { x, y };
    }
    return null;
  }
  const shown = parts.map((boxes) => [].concat(boxes).map((b, match) => ({ b, match })).filter(({ b }) => b && b.width > 0 && b.height > 0));
  const spots = parts.map(() => null);
  // the parts with the fewest places to go first: one with many finds another place more easily
  const order = shown.map((_, i) => i).filter((i) => shown[i].length).sort((a, b) => shown[a].length - shown[b].length || a - b);
  for (const i of order) {
    let spot = null;
    for (const { b, match } of shown[i]) {
      const at = freeSpot(b);
      if (at) { spot = { ...at, match }; break; }
    }
    if (!spot) {
      const { b, match } = shown[i][0];
      const { ix, iy } = corner(b);
      spot = { x: b.left + ix, y: b.top + iy, match };
    }
    placed.push(spot);
    spots[i] = spot;
  }
  return spots;
}

/** What ties a board's elements to each other or to its hints: in the picture they would clash with the table's own board. */
const REFERENCES = ['id', 'for', 'aria-labelledby', 'aria-describedby', 'aria-controls', 'aria-owns', 'data-hint', 'data-testid', 'data-decision'];

/** Takes every id and id reference, and the hints' layer, out of a drawn board. */
function scrub(root) {
  for (const tips of root.querySelectorAll('.board-tips')) tips.remove();
  for (const el of root.querySelectorAll(REFERENCES.map((a) => `[${a}]`).join(','))) {
    for (const a of REFERENCES) if (el.hasAttribute(a)) el.removeAttribute(a);
  }
}

/**
 * The figure of `game` in the dialog: the caption at once; the board, its callouts and the legend once the figure
 * is loaded and drawn. Anything failing leaves the dialog as text only (and says so in the console).
 * Returns { el, destroy } or null (a game without a figure).
 */
function boardFigure(game) {
  const entry = figures.get(game);
  if (!entry) return null;
  const picture = h('div', { class: 'howto-picture' });
  const el = h('figure', { class: 'howto-figure', 'data-testid': 'howto-figure', 'data-state': 'loading' },
    h('figcaption', null, t('help.figure.caption')), picture);
  let board = null;
  let observers = [];
  let gone = false;
  const fail = (err) => {
    if (gone) return;
    console.warn(`emporium: the how-to's picture of ${game} could not be drawn`, err);
    destroy();
    el.remove();
  };
  function destroy() {
    gone = true;
    for (const o of observers) o.disconnect();
    observers = [];
    if (board) { try { board.destroy(); } catch { /* it is going anyway */ } }
    board = null;
  }
  Promise.resolve().then(entry.load).then((mod) => {
    if (gone) return;
    const figure = mod.default || mod;
    const { seats, view } = figure.example;
    const stage = h('div', { class: 'howto-board', inert: true });
    const layer = h('div', { class: 'howto-callouts', 'aria-hidden': 'true' });
    picture.append(stage, layer);
    board = entry.board.createBoard(stage, { t, onAction: () => {} });
    // as a spectator sees the table, everyone connected
    const info = { seats: seats.map((seat) => ({ ...seat, connected: true })) };
    board.update(boardState({ info, view: structuredClone(view), legal: [], me: null, names: seatNames(info, t) }));
    scrub(stage);
    const parts = figure.parts.filter((p) => stage.querySelector(p.selector));
    if (!parts.length) throw new Error('none of its parts is on the board');
    const missing = figure.parts.filter((p) => !parts.includes(p)).map((p) => p.key);
    if (missing.length) console.warn(`emporium: the how-to's picture of ${game} lacks ${missing.join(', ')}`);
    const marks = parts.map((p, i) => h('span', { class: 'howto-callout', 'data-part': p.key }, String(i + 1)));
    layer.append(...marks);
    el.append(h('ol', { class: 'howto-parts', 'data-testid': 'howto-parts' }, parts.map((p, i) => h('li', { 'data-part': p.key },
      h('span', { class: 'howto-callout', 'aria-hidden': 'true' }, String(i + 1)), h('span', null, t(p.key))))));
    const fit = () => {
      if (gone) return;
      const { layout, scale } = figureLayout(picture.clientWidth, figure.width, figure.minWidth);
      stage.style.width = `${layout}px`;
      stage.style.transform = `scale(${scale})`;
      picture.style.height = `${Math.ceil(stage.offsetHeight * scale)}px`;
      const origin = layer.getBoundingClientRect();
      const boxes = parts.map((p) => [...stage.querySelectorAll(p.selector)].map((part) => {
        const r = part.getBoundingClientRect();
        return { left: r.left - origin.left, top: r.top - origin.top, width: r.width, height: r.height };
      }));
      calloutSpots(boxes).forEach((spot, i) => {
        marks[i].hidden = !spot;
        if (!spot) return;
        marks[i].style.left = `${spot.x}px`;
        marks[i].style.top = `${spot.y}px`;
        marks[i].dataset.match = String(spot.match);
      });
    };
    // The board may draw itself again (Merkator once its data is in): no ids come back, and the callouts follow.
    const redrawn = new MutationObserver(() => { scrub(stage); fit(); });
    redrawn.observe(stage, { childList: true, subtree: true });
    const resized = new ResizeObserver(() => fit());
    resized.observe(picture);
    resized.observe(stage);
    observers = [redrawn, resized];
    fit();
    el.dataset.state = 'ready';
  }).catch(fail);
  return { el, destroy };
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

let dialogCount = 0;

/**
 * Opens the how-to-play dialog of `game` (its id) named `title` (the game's display name). Returns the
 * dialog element; it removes itself when closed and gives the focus back to `opener` (or what had it).
 */
export function openHowTo(game, title, opener = document.activeElement) {
  dialogCount += 1;
  const headingId = `howto-h-${dialogCount}`;
  const close = h('button', { type: 'button', class: 'btn subtle small howto-close', 'data-testid': 'howto-close', autofocus: true }, t('common.close'));
  const figure = boardFigure(game);
  const body = h('div', { class: 'howto-body', tabindex: '0', role: 'region', 'aria-labelledby': headingId },
    h('div', { class: 'howto-summary', 'data-section': 'summary' }, blocksEl(t(`howto.${game}.summary`))),
    figure && figure.el,
    HOWTO_SECTIONS.map((id) => h('section', { class: 'howto-section', 'data-section': id },
      h('h3', null, t(`help.section.${id}`)),
      blocksEl(t(`howto.${game}.${id}`)))));
  const dialog = h('dialog', { class: 'howto', 'aria-labelledby': headingId, 'data-testid': 'howto', 'data-game': game },
    h('div', { class: 'howto-head' }, h('h2', { id: headingId }, t('help.title', { game: title })), close),
    body);
  close.addEventListener('click', () => dialog.close());
  // The keyboard stays in the dialog: Tab from the last control goes to the first, Shift+Tab the other way.
  dialog.addEventListener('keydown', (e) => {
    if (e.key !== 'Tab') return;
    const items = [...dialog.querySelectorAll(FOCUSABLE)].filter((el) => el.offsetParent !== null || el === document.activeElement);
    if (items.length === 0) { e.preventDefault(); return; }
    const first = items[0];
    const last = items[items.length - 1];
    if (e.shiftKey && (document.activeElement === first || !dialog.contains(document.activeElement))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (document.activeElement === last || !dialog.contains(document.activeElement))) {
      e.preventDefault();
      first.focus();
    }
  });
  // A click on the backdrop (outside the dialog's box) closes it too.
  dialog.addEventListener('click', (e) => {
    if (e.target !== dialog) return;
    const r = dialog.getBoundingClientRect();
    if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) dialog.close();
  });
  dialog.addEventListener('close', () => {
    if (figure) figure.destroy();
    dialog.remove();
    if (opener && opener.isConnected && typeof opener.focus === 'function') opener.focus({ preventScroll: true });
  });
  document.body.append(dialog);
  dialog.showModal();
  close.focus();
  return dialog;
}

/**
 * A "How to play" button: `game()` gives the game's id (null: nothing to show yet) and `title(id)` its
 * display name; the button's accessible name says which game.
 */
export function howToButton({ game, title, className = 'btn small subtle', testid = 'howto-open' }) {
  const button = h('button', {
    type: 'button', class: [className, 'howto-open'], 'data-testid': testid,
    onclick: () => {
      const id = game();
      if (id) openHowTo(id, title(id), button);
    },
  }, t('help.button'));
  /** The accessible name for the game shown now (the text says only "How to play"). */
  button.relabel = () => {
    const id = game();
    const text = t('help.button');
    if (button.textContent !== text) button.textContent = text;
    const label = id ? t('help.buttonLabel', { game: title(id) }) : null;
    if (label && button.getAttribute('aria-label') !== label) button.setAttribute('aria-label', label);
  };
  button.relabel();
  return button;
}
