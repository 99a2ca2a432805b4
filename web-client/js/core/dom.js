// A tiny element builder. Text always goes in as text nodes (never as HTML): nothing in the
// client sets innerHTML, so names and chat from other players cannot inject markup.
//   h('button', { class: 'primary', type: 'button', onclick: fn, 'aria-label': '…' }, 'Draw')
// Attributes: `class`, `text` (textContent), on<event> handlers, `dataset` (object), `style`
// (object of custom properties/styles), DOM properties for value/checked/disabled/hidden/open/
// selected/min/max/step, everything else via setAttribute (false/null/undefined are left out).
const PROPS = new Set(['value', 'checked', 'disabled', 'hidden', 'open', 'selected', 'min', 'max', 'step', 'readOnly']);

export function h(tag, attrs = null, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') el.setAttribute('class', Array.isArray(v) ? v.filter(Boolean).join(' ') : v);
      else if (k === 'text') el.textContent = String(v);
      else if (k === 'dataset') Object.assign(el.dataset, v);
      else if (k === 'style') for (const [p, val] of Object.entries(v)) el.style.setProperty(p, val);
      else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
      else if (PROPS.has(k)) el[k] = v;
      else el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** Replaces the children of `el`. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

/**
 * Re-renders `root` with `render()` keeping what was chosen and typed in its form fields: each
 * select and input with an id gets its value back (and a `change` event, so fields that depend on it
 * follow), each radio button and checkbox its state (by name and value). In document order.
 */
export function keepValues(root, render) {
  const fields = [...root.querySelectorAll('select[id], input[id]:not([type=radio]):not([type=checkbox]), input[type=radio], input[type=checkbox]')];
  const saved = fields.map((el) => (el.type === 'radio' || el.type === 'checkbox'
    ? { key: `${el.name}\u0000${el.value}`, checked: el.checked }
    : { id: el.id, value: el.value }));
  render();
  for (const s of saved) {
    let el;
    if (s.id) el = root.querySelector(`#${CSS.escape(s.id)}`);
    else {
      el = [...root.querySelectorAll('input[type=radio], input[type=checkbox]')].find((x) => `${x.name}\u0000${x.value}` === s.key);
    }
    if (!el) continue;
    if (s.id) {
      if (el.value === s.value) continue;
      el.value = s.value;
      if (el.value === s.value) el.dispatchEvent(new Event('change'));
    } else if (el.checked !== s.checked) {
      el.checked = s.checked;
      el.dispatchEvent(new Event('change'));
    }
  }
}

/**
 * Re-renders `root` with `render()` and puts the keyboard focus back on the element with the
 * same data-focus key (or, if it is gone, returns false so the caller can choose).
 */
export function keepFocus(root, render) {
  const active = document.activeElement;
  const key = active && root.contains(active) ? active.getAttribute('data-focus') : null;
  const selection = key && active && 'selectionStart' in active ? [active.selectionStart, active.selectionEnd] : null;
  render();
  if (!key) return null;
  const again = root.querySelector(`[data-focus="${CSS.escape(key)}"]`);
  if (again) {
    again.focus({ preventScroll: true });
    if (selection && again.setSelectionRange) {
      try { again.setSelectionRange(...selection); } catch { /* number inputs */ }
    }
    return true;
  }
  return false;
}

/**
 * A board's re-render (keepFocus) with its turn's focus: when the viewer's turn starts and the keyboard is
 * not busy elsewhere, the focus goes to the first element matching one of `first` (tried in order); when the
 * focused control went away, to one of `fallback`. Returns what the next call gets as `hadTurn` (a turn
 * stays "had" while its move is on its way).
 */
export function renderForTurn(root, render, { turn, hadTurn, busy, first, fallback }) {
  const pick = (selectors) => selectors.map((s) => root.querySelector(s)).find(Boolean);
  const restored = keepFocus(root, render);
  const active = document.activeElement;
  const idle = !active || active === document.body || (root.contains(active) && restored === false);
  if (turn && !hadTurn && idle) {
    const target = pick(first);
    if (target) target.focus({ preventScroll: true });
  } else if (restored === false) {
    const target = pick(fallback);
    if (target) target.focus({ preventScroll: true });
  }
  return turn || (hadTurn && busy);
}

// An SVG element (inline drawings: the bot mark, rating graphs): attributes all set as given.
const SVG_NS = 'http://www.w3.org/2000/svg';
export function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}
