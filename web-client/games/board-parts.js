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

/**
 * Hints: every action control of a board explains itself — what it does and what it costs — in a short
 * text shown beside it on hover AND on keyboard focus (a `title` alone shows on neither a focus nor a touch)
 * and read by screen readers as the control's description (aria-describedby). A board makes one with
 * createHints(root, prefix) and, on every render:
 *   hints.begin()                 before building the controls (the ids start again, the same on each render)
 *   h('button', { ...hints.attrs(text), ... })   on each control (text from the game's `<game>.hint.*` keys)
 *   hints.layer()                 the tooltip elements, appended last inside the board's root
 * The tooltip is `position: fixed` next to the control (below it, above when there is no room), so it
 * takes no room in the layout and follows the control when the page scrolls; Escape, leaving the control or its
 * scrolling out of the window hides it. Styled by `.board-tip` in css/style.css.
 */
export function createHints(root, prefix) {
  let n = 0;
  let tips = [];
  let shownFor = null;
  let pointerOn = null; // the control under the pointer (its data-focus key, else its hint id), across renders

  const keyOf = (el) => (el.hasAttribute('data-focus') ? ['data-focus', el.getAttribute('data-focus')] : ['data-hint', el.getAttribute('data-hint')]);

  const tipOf = (el) => {
    const id = el && el.getAttribute('data-hint');
    return id ? root.querySelector(`#${CSS.escape(id)}`) : null;
  };

  function hide() {
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
    if (r.bottom < 0 || r.top > window.innerHeight) return hide();
    place(shownFor, tip);
  }

  function show(el) {
    const tip = tipOf(el);
    if (!tip) return;
    if (shownFor !== el) hide();
    shownFor = el;
    tip.hidden = false;
    place(el, tip);
    window.addEventListener('scroll', follow, { capture: true, passive: true });
  }

  function place(el, tip) {
    const r = el.getBoundingClientRect();
    const w = tip.offsetWidth;
    const hgt = tip.offsetHeight;
    const left = Math.max(4, Math.min(r.left + r.width / 2 - w / 2, window.innerWidth - w - 4));
    const below = r.bottom + 6;
    const top = below + hgt > window.innerHeight - 4 && r.top - hgt - 6 > 4 ? r.top - hgt - 6 : below;
    tip.style.left = `${Math.round(left)}px`;
    tip.style.top = `${Math.round(top)}px`;
  }

  const hinted = (target) => (target && target.closest ? target.closest('[data-hint]') : null);
  root.addEventListener('mouseover', (e) => {
    const el = hinted(e.target);
    if (el && root.contains(el)) { pointerOn = keyOf(el); show(el); }
  });
  root.addEventListener('mouseout', (e) => {
    const el = hinted(e.target);
    if (!el || el.contains(e.relatedTarget)) return;
    pointerOn = null;
    if (el === document.activeElement && el.matches(':focus-visible')) return;
    if (shownFor === el) hide();
  });
  root.addEventListener('focusin', (e) => {
    const el = hinted(e.target);
    if (el && el === e.target && el.matches(':focus-visible')) show(el);
  });
  root.addEventListener('focusout', (e) => { if (shownFor && hinted(e.target) === shownFor) hide(); });
  root.addEventListener('keydown', (e) => { if (e.key === 'Escape' && shownFor) hide(); });

  return {
    begin() {
      n = 0;
      tips = [];
      shownFor = null;
    },
    /** The attributes that tie a control to its hint `text` (none for an empty text). */
    attrs(text, describedBy = null) {
      if (!text) return describedBy ? { 'aria-describedby': describedBy } : {};
      n += 1;
      const id = `${prefix}-hint-${n}`;
      tips.push(h('span', { class: 'board-tip', id, role: 'tooltip', hidden: true }, text));
      return { 'aria-describedby': describedBy ? `${id} ${describedBy}` : id, 'data-hint': id };
    },
    /** The tooltips of this render (append inside the board's root, after everything else). */
    layer() {
      // A re-render replaces the control under the pointer: its new self shows the hint again (the keyboard's
      // focus comes back by itself, through keepFocus and focusin).
      queueMicrotask(() => {
        if (!pointerOn || shownFor) return;
        const el = root.querySelector(`[${pointerOn[0]}="${CSS.escape(pointerOn[1])}"]`);
        if (el && el.hasAttribute('data-hint')) show(el);
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
