// Taking back and confirming, for the seated player of a running game (issue 37), in two places:
//   tools  beside the turn indicator (table/head.js): "Undo" while there is a step to take back (the legal list's
//          undo entry, or a step kept by "Confirm my turn"; also Ctrl+Z / Cmd+Z, js/pages/table.js) and the "Confirm
//          my turn" switch for the games whose turn has several steps (js/models/confirm-turn.js), with shorter words
//          on a phone. They take no room from the board: nothing under the pointer moves when a step is made.
//   panel  right above the board for as long as "Confirm my turn" is on (so that keeping a step moves nothing
//          either): how many steps are kept, with Confirm and Cancel; once the kept turn is ready (its last step
//          could not be taken back, so the board has no control left) what they are ("Your turn so far: …"), and the
//          focus goes to Confirm.
// It holds no state of the table: the table page renders it.
import { h, replace, keepFocus } from '../../core/dom.js';
import { t } from '../../core/i18n/index.js';
import { createHints } from '../../../games/board-parts.js';

/** `on`: { undo(), confirm(), cancel(), setConfirm(on) }. */
export function createUndoBar({ on }) {
  const tools = h('div', { class: 'undo-tools', role: 'group', 'aria-label': t('table.undo.bar'), 'data-testid': 'undo-tools', hidden: true });
  const panel = h('section', { class: 'confirm-panel', 'aria-label': t('table.confirm.switch'), 'data-testid': 'confirm-panel', hidden: true });
  const hints = createHints(tools, 'undo');
  const panelHints = createHints(panel, 'confirm');
  let shown = null;
  let hadUndo = false; // while a request is under way the button stays (unpressable) rather than blink
  let wasReady = false;

  /**
   * `show` whether the player may take back or confirm at all here (seated, running); `canUndo` whether Undo takes
   * something back now (`kept`: it takes a kept step off, else it asks the server); `offersConfirm`/`confirmOn` the
   * switch; `steps` the kept steps in words (empty: none kept); `ready` the kept turn is complete (a preview said
   * final, or no more may be kept); `canConfirm`, `sending`; `busy` a request is under way; `shortcut` {text, aria}.
   */
  function render(props) {
    shown = props;
    const { show, canUndo, steps, busy, offersConfirm, confirmOn } = props;
    const withUndo = show && (canUndo || (busy && hadUndo));
    hadUndo = withUndo;
    tools.hidden = !show || (!withUndo && !offersConfirm);
    panel.hidden = !show || !((offersConfirm && confirmOn) || steps.length > 0);
    keepFocus(tools, () => drawTools({ ...props, withUndo, pressable: canUndo && !busy }));
    keepFocus(panel, () => drawPanel(props));
    const ready = !panel.hidden && steps.length > 0 && props.ready && props.canConfirm;
    if (ready && !wasReady) {
      const send = panel.querySelector('[data-testid=confirm-send]');
      if (send) send.focus();
    }
    wasReady = ready;
  }

  function drawTools({ withUndo, pressable, kept, offersConfirm, confirmOn, steps, sending, shortcut }) {
    hints.begin();
    if (tools.hidden) { replace(tools); return; }
    const undo = withUndo ? h('button', {
      type: 'button', class: 'btn small undo-btn', 'data-testid': 'undo', 'data-focus': 'undo', 'aria-keyshortcuts': shortcut.aria,
      'aria-disabled': pressable ? null : 'true',
      ...hints.attrs(t(kept ? 'table.undo.hintKept' : 'table.undo.hint', { keys: shortcut.text })),
      onclick: () => { if (pressable) on.undo(); },
    }, h('span', { class: 'undo-icon', 'aria-hidden': 'true' }, '↶'), t('table.undo.button')) : null;
    const toggle = offersConfirm ? h('label', { class: 'switch confirm-switch' },
      h('input', {
        type: 'checkbox', role: 'switch', checked: confirmOn, disabled: steps.length > 0 || sending,
        'aria-label': t('table.confirm.switch'), 'data-testid': 'confirm-turn', 'data-focus': 'confirm-turn',
        ...hints.attrs(t('table.confirm.switchHint')),
        onchange: (e) => on.setConfirm(e.currentTarget.checked),
      }),
      // The name is the long words (aria-label); a phone shows the short ones, which the long ones contain.
      h('span', { class: 'confirm-switch-long', 'aria-hidden': 'true' }, t('table.confirm.switch')),
      h('span', { class: 'confirm-switch-short', 'aria-hidden': 'true' }, t('table.confirm.switchShort'))) : null;
    replace(tools, undo, toggle, hints.layer());
  }

  function drawPanel({ steps, ready, canConfirm, sending }) {
    panelHints.begin();
    const isReady = Boolean(ready) && steps.length > 0;
    panel.classList.toggle('is-ready', isReady);
    panel.dataset.count = String(steps.length);
    panel.setAttribute('aria-busy', sending ? 'true' : 'false');
    if (panel.hidden) { replace(panel); return; }
    const note = steps.length === 0 ? 'table.confirm.empty'
      : sending ? 'table.confirm.sending' : isReady ? 'table.confirm.ready' : 'table.confirm.kept';
    replace(panel,
      isReady ? h('h2', { id: 'confirm-h' }, t('table.confirm.heading')) : null,
      isReady ? h('ol', { class: 'confirm-steps', 'aria-labelledby': 'confirm-h', 'data-testid': 'confirm-steps' },
        steps.map((words) => h('li', null, words || t('table.confirm.oneStep')))) : null,
      h('div', { class: 'confirm-row' },
        h('p', { class: 'confirm-note', 'data-testid': 'confirm-note' }, t(note, { count: steps.length })),
        steps.length ? h('div', { class: 'buttons' },
          h('button', {
            type: 'button', class: ['btn', 'small', isReady && 'primary'], 'data-testid': 'confirm-send', 'data-focus': 'confirm-send',
            disabled: !canConfirm, ...panelHints.attrs(t('table.confirm.sendHint', { count: steps.length })),
            onclick: () => on.confirm(),
          }, t('table.confirm.send')),
          h('button', {
            type: 'button', class: 'btn small subtle', 'data-testid': 'confirm-cancel', 'data-focus': 'confirm-cancel', disabled: sending,
            ...panelHints.attrs(t('table.confirm.cancelHint')), onclick: () => on.cancel(),
          }, t('table.confirm.cancel'))) : null),
      panelHints.layer());
  }

  /** After a change of language: the same tools and panel in the new words. */
  function relabel() {
    tools.setAttribute('aria-label', t('table.undo.bar'));
    panel.setAttribute('aria-label', t('table.confirm.switch'));
    if (shown) render(shown);
  }

  return { tools, panel, render, relabel };
}
