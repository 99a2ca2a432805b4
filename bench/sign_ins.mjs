// Password sign-ins against a running server, for bench/sign_ins.sh (docs/benchmarks.md, "Sign-ins beside play").
//   node bench/sign_ins.mjs PORT N make   signs up accounts "Bench 0" .. "Bench N-1", a few at a time
//   node bench/sign_ins.mjs PORT N go     signs all of them in at once; prints one JSON line of their times, and of a
//                                        page's GET /api/session made every 100 ms meanwhile
// Each account comes from an address of its own (X-Forwarded-For: run the server with --trusted-proxies
// 127.0.0.1), as people do: one address may sign up only 30 accounts an hour.
const [port, count, mode] = process.argv.slice(2);
const n = Number(count);
const base = `http://127.0.0.1:${port}`;
const address = (i) => `10.${(i >> 8) & 255}.${i & 255}.1`;

/** A browser's start: its anti-CSRF cookie and token. */
async function session(i) {
  const r = await fetch(`${base}/api/session`, { headers: { 'X-Forwarded-For': address(i) } });
  const cookies = r.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  return { cookies, csrf: (await r.json()).csrf, i };
}

async function post(path, body, s) {
  const started = performance.now();
  const r = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json', Origin: base, 'X-CSRF-Token': s.csrf, Cookie: s.cookies,
      'X-Forwarded-For': address(s.i),
    },
    body: JSON.stringify(body),
  });
  await r.text();
  return { status: r.status, ms: performance.now() - started };
}

const credentials = (i) => ({ name: `Bench ${i}`, password: `bench password ${i}` });

if (mode === 'make') {
  for (let i = 0; i < n; i += 4) {
    const batch = [];
    for (let j = i; j < Math.min(n, i + 4); j++) batch.push(session(j).then((s) => post('/api/sign-up', credentials(j), s)));
    for (const r of await Promise.all(batch)) if (r.status !== 200) throw new Error(`a sign-up was refused: ${r.status}`);
  }
} else if (mode === 'go') {
  const sessions = await Promise.all(Array.from({ length: n }, (_, i) => session(i)));
  const started = performance.now();
  let burst = true;
  // Meanwhile a page loads every 100 ms: its GET /api/session must not wait behind the hashes.
  const pageLoads = (async () => {
    const times = [];
    while (burst) {
      const t0 = performance.now();
      await session(n);
      times.push(performance.now() - t0);
      await new Promise((r) => { setTimeout(r, 100); });
    }
    return times;
  })();
  const results = await Promise.all(sessions.map((s) => post('/api/sign-in', credentials(s.i), s)));
  burst = false;
  const loads = (await pageLoads).sort((a, b) => a - b);
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  const at = (p) => Math.round(ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]);
  console.log(JSON.stringify({
    signIns: n, ok: results.filter((r) => r.status === 200).length,
    ms: { p50: at(0.5), p95: at(0.95), max: Math.round(ms[ms.length - 1]) },
    allDoneMs: Math.round(performance.now() - started),
    pageSessionMs: { n: loads.length, p50: Math.round(loads[Math.floor(loads.length / 2)]), max: Math.round(loads[loads.length - 1]) },
  }));
} else {
  throw new Error('usage: node bench/sign_ins.mjs PORT N make|go');
}
