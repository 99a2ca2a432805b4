// What the Medici browser tests read off a page: the board's version and phase, which controls are
// enabled, whether the result shows. Not a test file itself (node --test runs only *.test.mjs here).

/** What a page shows of the game right now (one round trip). */
export function boardState(page) {
  return page.evaluate(() => {
    const board = document.querySelector('.medici');
    const actions = document.querySelector('[data-testid=actions]');
    const enabled = (sel) => Boolean(actions && actions.querySelector(`${sel}:not([disabled]):not([aria-disabled=true])`));
    return {
      version: board ? Number(board.dataset.version) : -1,
      phase: board ? board.dataset.phase : null,
      ready: Boolean(actions) && actions.getAttribute('aria-busy') !== 'true',
      draw: enabled('[data-action=draw]'),
      stop: enabled('[data-action=stop]'),
      bid: enabled('[data-action=bid]'),
      pass: enabled('[data-action=pass]'),
      result: Boolean(document.querySelector('[data-testid=result]')),
      scoring: Boolean(document.querySelector('[data-testid=dismiss-scoring]')),
      title: document.title,
      bidControls: document.querySelectorAll('[data-action=bid], input[name=bid], .m-actions').length,
    };
  });
}
