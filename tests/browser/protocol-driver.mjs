// A game played through the protocol itself from inside a page (its own WebSocket), so browser tests that
// need a finished game get one in seconds: the page's seat plays random legal moves against easy bots (never
// the legal list's undo entry: random undos would only make the games longer). And a spectator's socket that
// records every frame of a table (watchTable). Not a test file itself (node --test runs only *.test.mjs here).

/** In `page`: a public 3-player table of `game` with the page's own seat and two easy bots, not started. */
export function createTableWithBots(page, game = 'medici') {
  return page.evaluate((gameId) => new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${location.host}/ws`);
    let n = 0;
    const pending = new Map();
    const request = (msg) => new Promise((ok, fail) => {
      const id = `r${++n}`;
      pending.set(id, { ok, fail });
      ws.send(JSON.stringify({ ...msg, id }));
    });
    window.__driver = { ws, request, frames: [] };
    ws.onmessage = (m) => {
      const f = JSON.parse(m.data);
      window.__driver.frames.push(f);
      const p = f.re && pending.get(f.re);
      if (p) { pending.delete(f.re); (f.type === 'error' ? p.fail : p.ok)(f); }
    };
    ws.onerror = () => reject(new Error('the socket failed'));
    ws.onopen = async () => {
      try {
        await request({ type: 'hello', protocol: 1, name: 'Dealer' });
        const seated = await request({ type: 'create_table', game: gameId, players: 3, private: false });
        for (const seat of [1, 2]) await request({ type: 'add_bot', table: seated.table.id, seat, level: 'easy' });
        resolve(seated.table.id);
      } catch (e) { reject(new Error(JSON.stringify(e))); }
    };
  }), game);
}

/**
 * In `page`: starts the table and plays its seat with random legal actions until the game is over — once per
 * version, and paced under the server's limit on messages per connection.
 */
export function startAndPlay(page, table) {
  return page.evaluate(async (id) => {
    const d = window.__driver;
    const pause = (ms) => new Promise((r) => setTimeout(r, ms));
    await d.request({ type: 'start', table: id });
    let actedAt = -1;
    for (let i = 0; i < 40000; i++) {
      const last = [...d.frames].reverse().find((f) => (f.type === 'events' || f.type === 'snapshot') && f.table === id);
      if (last && last.type === 'events' && last.seed) return last.version;
      if (last && last.legal && last.legal.length && last.version !== actedAt) {
        actedAt = last.version;
        const moves = last.legal.filter((a) => a.type !== 'undo');
        const action = moves[Math.floor(Math.random() * moves.length)];
        try { await d.request({ type: 'act', table: id, version: last.version, action }); } catch { /* stale: the next frame says */ }
        await pause(60);
      } else {
        await pause(5);
      }
    }
    throw new Error('the game did not end');
  }, table);
}

/**
 * In `page` (on the site, no app running on it): a 3-player table of `game` with two easy bots, started, the
 * page's seat played `moves` random legal moves through the protocol (then more, while `until` is given and
 * the seat's legal actions do not yet include an action of that type, or while `turnStart` is set and the seat's
 * turn has not just begun: the latest frame's events hold a `turn` event of its own); then the seat is handed to the
 * client (its store) and the table opened. Returns the table id.
 */
export async function midGame(page, game, moves, { until = null, turnStart = false } = {}) {
  const table = await createTableWithBots(page, game);
  await page.evaluate(async ({ id, moves: want, until: wanted, turnStart: atStart }) => {
    const d = window.__driver;
    const seated = d.frames.find((f) => f.type === 'seated' && f.table && f.table.id === id);
    localStorage.setItem('emporium.seats', JSON.stringify({
      [id]: { token: seated.token, seat: seated.seat, game: seated.table.game, savedAt: Date.now() },
    }));
    const pause = (ms) => new Promise((r) => setTimeout(r, ms));
    await d.request({ type: 'start', table: id });
    let acted = 0;
    let actedAt = -1;
    for (let i = 0; i < 4000; i++) {
      const last = [...d.frames].reverse().find((f) => (f.type === 'events' || f.type === 'snapshot') && f.table === id);
      if (last && last.type === 'events' && last.seed) break; // over already
      if (last && last.legal && last.legal.length && last.version !== actedAt) {
        const begun = last.type === 'events' && last.events.some((e) => e.type === 'turn' && e.player === seated.seat);
        if (acted >= want && (!wanted || last.legal.some((a) => a.type === wanted)) && (!atStart || begun)) break;
        actedAt = last.version;
        const moves = last.legal.filter((a) => a.type !== 'undo');
        const action = moves[Math.floor(Math.random() * moves.length)];
        try { await d.request({ type: 'act', table: id, version: last.version, action }); acted += 1; } catch { /* stale */ }
        await pause(60);
      } else {
        await pause(5);
      }
    }
    d.ws.close();
  }, { id: table, moves, until, turnStart });
  await page.goto(`/t/${table}`);
  await page.waitForSelector('.board-slot [data-version]');
  return table;
}

/**
 * In `page` (on the site): a spectator's own socket at `table` (hello, watch), recording every frame it gets in
 * window.__watched[table]; resolves once it watches. `watchedFrames(page, table)` reads them back.
 */
export function watchTable(page, table, name = 'Watcher') {
  return page.evaluate(([id, who]) => new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${location.host}/ws`);
    window.__watched = window.__watched || {};
    const frames = [];
    window.__watched[id] = frames;
    ws.onmessage = (m) => {
      const f = JSON.parse(m.data);
      frames.push(f);
      if (f.type === 'hello') ws.send(JSON.stringify({ type: 'watch', table: id, id: 'w1' }));
      if (f.re === 'w1') (f.type === 'error' ? reject(new Error(JSON.stringify(f))) : resolve());
    };
    ws.onerror = () => reject(new Error('the socket failed'));
    ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', protocol: 1, name: who, id: 'h1' }));
  }), [table, name]);
}

/** The frames `page`'s watchTable socket got from `table` so far. */
export function watchedFrames(page, table) {
  return page.evaluate((id) => (window.__watched && window.__watched[id]) || [], table);
}
