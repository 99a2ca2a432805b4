// What every game's board (games/<game>/board.js) draws the same way: a seat's colour swatch (the table's
// own, js/ui/seat-marks.js), its initial, and its name with "(you)" for the viewer; and the hints that tell
// what each action control does and costs (createHints).
import { swatch, youTag } from '../js/ui/seat-marks.js';
import { nameOf } from './model-parts.js';
import { h } from '../js/core/dom.js';

export { swatch };

/** The first letter of a seat's name ("P" of "Player 2" while it has none), upper case. */
export function initial(name, p, t) {
  const n = (name || nameOf([], p, t)).trim();
  return [...n][0] ? [...n][0].toUpperCase() : String(p + 1);
}

/** A seat's name, followed by "(you)" for the viewer's own seat. */
export function playerName(names, p, mySeat, t) {
  const name = nameOf(names, p, t);
  return p === mySeat ? [name, youTag()] : name;
}

/** How long the pointer rests on a control before its hint shows (ms): passing over controls shows nothing. */
export const HINT_DELAY = 450;

// The last way the person used the page, over the whole document: a focus that a keyboard did not bring (a tap,
// a click, the client's own focus after another player's move) shows no hint. Touch never shows one.
let lastInput = null;
if (typeof document !== 'undefined') {
  document.addEventListener('keydown', (e) => { if (e.key === 'Tab' || e.key.startsWith('Arrow')) lastInput = 'key'; }, true);
  document.addEventListener('pointerdown', () => { lastInput = 'pointer'; }, true);
}

/** What a hint may never cover: anything one can press or type in (not the scrolling boxes, a log or a chat,
 *  that take the focus only to scroll by keyboard). */
const CONTROLS = 'button, a[href], input, select, textarea, summary, [role=button], [role=tab], [data-hint]';

/**
 * Where a tip of size `w`×`hgt` goes near `r` (the control's rectangle) in a window `vw`×`vh`, covering neither
 * the control nor any of `avoid` (rectangles): centred just below or above it when that is free, else the free
 * place nearest to it (within `reach` px; below before above on a tie); null when there is none (the hint then
 * stays unseen: screen readers still read it). Pure, for the unit tests.
 */
export function placeTip(r, w, hgt, avoid, vw, vh, { gap = 6, margin = 4, reach = 320, step = 10 } = {}) {
  const blocked = [r, ...avoid];
  const fits = (c) => c.left >= margin && c.top >= margin && c.left + w <= vw - margin + 0.5 && c.top + hgt <= vh - margin + 0.5;
  const clear = (c) => blocked.every((a) => a.right + gap <= c.left || a.left - gap >= c.left + w || a.bottom + gap <= c.top || a.top - gap >= c.top + hgt);
  const centred = Math.max(margin, Math.min(r.left + r.width / 2 - w / 2, vw - w - margin));
  for (const top of [r.bottom + gap, r.top - hgt - gap]) {
    const c = { left: centred, top };
    if (fits(c) && clear(c)) return { left: Math.round(c.left), top: Math.round(c.top) };
  }
  const cost = (c) => Math.max(0, c.left - r.right, r.left - (c.left + w)) + Math.max(0, c.top - r.bottom, r.top - (c.top + hgt))
    + (c.top < r.top ? 1 : 0) + Math.abs(c.left + w / 2 - (r.left + r.width / 2)) / 1000;
  const range = (from, to) => {
    const out = [];
    for (let x = from; x < to; x += step) out.push(x);
    out.push(to);
    return out;
  };
  let best = null;
  let bestCost = Infinity;
  for (const top of range(Math.max(margin, r.top - reach - hgt), Math.min(vh - hgt - margin, r.bottom + reach))) {
    for (const left of range(Math.max(margin, r.left - reach - w), Math.min(vw - w - margin, r.right + reach))) {
      const c = { left, top };
      const k = cost(c);
      if (k < bestCost && fits(c) && clear(c)) { best = c; bestCost = k; }
    }
  }
  return best && { left: Math.round(best.left), top: Math.round(best.top) };
}

/**
 * Hints: every action control of a board explains itself — what it does and what it costs — in a short
 * text shown beside it when the mouse rests on it (HINT_DELAY) and on keyboard focus, never on touch, and
 * read by screen readers as the control's description (aria-describedby). The board's controls carry no
 * `title` (the browser's own tooltip would come too, over the next control). A board makes one with
 * createHints(root, prefix) and, on every render:
 *   hints.begin()                 before building the controls (the ids start again, the same on each render)
 *   h('button', { ...hints.attrs(text), ... })   on each control (text from the game's `<game>.hint.*` keys)
 *   hints.layer()                 the tooltip elements, appended last inside the board's root
 * The tooltip is `position: fixed` beside the control where it covers no other control (placeTip), so it
 * takes no room in the layout and follows the control when the page scrolls; Escape, a press, leaving the
 * control or its scrolling out of the window hides it. Styled by `.board-tip` in css/style.css.
 */
export function createHints(root, prefix) {
  let n = 0;
  let tips = [];
  let shownFor = null;
  let pointerOn = null; // the control under the mouse (its data-focus key, else its hint id), across renders
  let pressed = null; // the control last pressed: no hint on it again until the mouse leaves it
  let timer = null;
  let wasShown = null; // the key of the control whose hint showed when the render began

  const keyOf = (el) => (el.hasAttribute('data-focus') ? ['data-focus', el.getAttribute('data-focus')] : ['data-hint', el.getAttribute('data-hint')]);
  const same = (a, b) => Boolean(a && b && a[0] === b[0] && a[1] === b[1]);

  const tipOf = (el) => {
    const id = el && el.getAttribute('data-hint');
    return id ? root.querySelector(`#${CSS.escape(id)}`) : null;
  };

  function hide() {
    clearTimeout(timer);
    for (const tip of root.querySelectorAll('.board-tip:not([hidden])')) tip.hidden = true;
    shownFor = null;
    window.removeEventListener('scroll', follow, true);
  }

  // A scroll moves the control (and may have been what brought it under the pointer): the tip follows it, and goes
  // once the control has left the window.
  function follow() {
    const tip = tipOf(shownFor);
    if (!tip || !shownFor.isConnected) return hide();
    const r = shownFor.getBoundingClientRect();
    if (r.bottom < 0 || r.top > window.innerHeight || !place(shownFor, tip)) hide();
  }

  function show(el) {
    const tip = tipOf(el);
    if (!tip) return;
    if (shownFor !== el) hide();
    tip.style.left = '0px';
    tip.style.top = '0px';
    tip.style.visibility = 'hidden';
    tip.hidden = false;
    if (!place(el, tip)) { tip.hidden = true; return; }
    tip.style.visibility = '';
    shownFor = el;
    window.addEventListener('scroll', follow, { capture: true, passive: true });
  }

  function later(el) {
    clearTimeout(timer);
    timer = setTimeout(() => { if (el.isConnected && el.matches(':hover')) show(el); }, HINT_DELAY);
  }

  /** Puts `tip` beside `el` where it covers no control; false when there is no such place. */
  function place(el, tip) {
    const avoid = [];
    for (const c of document.querySelectorAll(CONTROLS)) {
      if (c === el || c.contains(el) || el.contains(c) || c.closest('.board-tip') || !c.checkVisibility()) continue;
      const r = c.getBoundingClientRect();
      if (r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < window.innerHeight) avoid.push(r);
    }
    const at = placeTip(el.getBoundingClientRect(), tip.offsetWidth, tip.offsetHeight, avoid, window.innerWidth, window.innerHeight);
    if (!at) return false;
    tip.style.left = `${at.left}px`;
    tip.style.top = `${at.top}px`;
    return true;
  }

  const hinted = (target) => (target && target.closest ? target.closest('[data-hint]') : null);
  root.addEventListener('pointerover', (e) => {
    const el = hinted(e.target);
    if (pressed && !(el && same(keyOf(el), pressed))) pressed = null; // the mouse has left the pressed control
    if (e.pointerType !== 'mouse' || !el || !root.contains(el) || pressed) return;
    pointerOn = keyOf(el);
    if (shownFor !== el) later(el);
  });
  root.addEventListener('pointerout', (e) => {
    const el = hinted(e.target);
    if (!el || el.contains(e.relatedTarget)) return;
    pointerOn = null;
    if (el === document.activeElement && shownFor === el && lastInput === 'key') return;
    clearTimeout(timer);
    if (shownFor === el) hide();
  });
  root.addEventListener('pointerleave', () => { pressed = null; });
  root.addEventListener('pointerdown', (e) => {
    const el = hinted(e.target);
    pressed = el ? keyOf(el) : null;
    pointerOn = null;
    hide();
  });
  root.addEventListener('focusin', (e) => {
    const el = hinted(e.target);
    if (el && el === e.target && lastInput === 'key' && el.matches(':focus-visible')) show(el);
  });
  root.addEventListener('focusout', (e) => { if (shownFor && hinted(e.target) === shownFor) hide(); });
  root.addEventListener('keydown', (e) => { if (e.key === 'Escape' && shownFor) hide(); });

  return {
    begin() {
      n = 0;
      tips = [];
      wasShown = shownFor && keyOf(shownFor);
      shownFor = null;
      clearTimeout(timer);
    },
    /** The attributes that tie a control to its hint `text` (none for an empty text; no `title` with one). */
    attrs(text, describedBy = null) {
      if (!text) return describedBy ? { 'aria-describedby': describedBy } : {};
      n += 1;
      const id = `${prefix}-hint-${n}`;
      tips.push(h('span', { class: 'board-tip', id, role: 'tooltip', hidden: true }, text));
      return { 'aria-describedby': describedBy ? `${id} ${describedBy}` : id, 'data-hint': id, title: null };
    },
    /** The tooltips of this render (append inside the board's root, after everything else). */
    layer() {
      // A re-render replaces the control under the mouse: its new self shows the hint again, at once if it was
      // showing, else after the delay (the keyboard's focus comes back by itself, through keepFocus and focusin).
      queueMicrotask(() => {
        if (!pointerOn || shownFor) return;
        const el = root.querySelector(`[${pointerOn[0]}="${CSS.escape(pointerOn[1])}"]`);
        if (!el || !el.hasAttribute('data-hint') || !el.matches(':hover')) return;
        if (same(pointerOn, wasShown)) show(el); else later(el);
      });
      return h('div', { class: 'board-tips' }, tips);
    },
    hide,
  };
}

/**
 * The attribute that puts the mover's initial on a place marked as their last move (js/models/last-moves.js
 * outlines it in the mover's colour; each board's board.css shows `data-mark-by` in a small badge), so the
 * player colour is never the only sign of whose move it was. `mark` is last-moves' mark or null.
 */
export function markBy(mark, names, t) {
  return mark ? { 'data-mark-by': initial(names && names[mark.player], mark.player, t) } : {};
}
