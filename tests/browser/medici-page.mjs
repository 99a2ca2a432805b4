// What the Medici browser tests read off a page: the board's version and phase, which controls are
// enabled, whether the result shows; and one seeded move through the board's buttons. Not a test file itself (node --test runs only *.test.mjs here).

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

/**
 * Makes one move on `page` whose board state `st` (boardState) has controls: draw or stop (drawing a
 * little more often), else bid now and then, else pass. `random()` is a seeded PRNG (support.mjs
 * rng). With `lenient`, a control that went away meanwhile (a clock ran out) is no failure.
 */
export async function moveOnce(page, st, random, { lenient = false } = {}) {
  const r = random();
  let action = 'pass';
  if (st.draw || st.stop) action = st.draw && (!st.stop || r < 0.45) ? 'draw' : 'stop';
  else if (st.bid && r < 0.3) action = 'bid';
  const click = page.click(`[data-action=${action}]`, lenient ? { timeout: 2000 } : undefined);
  if (lenient) await click.catch(() => {});
  else await click;
}
