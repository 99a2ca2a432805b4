// A form's status line: what it is doing or why it was refused, told to screen readers as it changes
// (aria-live). The words are kept as a function, so a redraw in another language says them again in it:
//   const status = formStatus('passkey-status');
//   form.append(status.render());           // a new element each render, showing the current state
//   status.set('error', () => errorText(err));  status.set('ok', () => t('…'));  status.clear();
// `kind` is 'busy', 'ok' or 'error' (data-kind: the colour; tests wait on it).
import { h } from '../core/dom.js';

export function formStatus(testid = null, { id = null } = {}) {
  let state = null; // {kind, say}
  let el = null;

  function show() {
    if (!el) return;
    el.textContent = state ? state.say() : '';
    if (state) el.dataset.kind = state.kind;
    else delete el.dataset.kind;
  }

  return {
    render() {
      el = h('p', { class: 'form-status', role: 'status', 'aria-live': 'polite', 'data-testid': testid, id });
      show();
      return el;
    },
    set(kind, say) {
      state = { kind, say };
      show();
    },
    clear() {
      state = null;
      show();
    },
    get kind() {
      return state ? state.kind : null;
    },
  };
}
