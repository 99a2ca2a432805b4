// The real server binary started for tests and tools (support.mjs's harness, scripts/example-views.mjs): on a free
// loopback port (port 0, its port file), with its data in `dataDir`, the per-address caps off (every client connects
// from 127.0.0.1), serving `webRoot`, with `args` after those. Not a test file itself.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Starts `binary` and resolves once it listens: { port, proc }. Its output goes into `log` (an array); a server that
 * exits before listening, or writes no port file within 10 s, rejects with that output.
 */
export async function spawnServer({ binary, dataDir, webRoot, args = [], log = [] }) {
  if (!existsSync(binary)) {
    throw new Error(`${binary} is missing: build it first (cmake --build ${path.dirname(path.dirname(binary))} --target emporium-server) or set EMPORIUM_BUILD_DIR`);
  }
  const portFile = path.join(dataDir, 'port');
  const proc = spawn(binary, ['--bind', '127.0.0.1', '--port', '0', '--port-file', portFile, '--data-dir', dataDir,
    '--max-connections-per-ip', '0', '--max-tables-per-ip-per-minute', '0', '--web-root', webRoot, ...args],
  { stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout.on('data', (d) => log.push(String(d)));
  proc.stderr.on('data', (d) => log.push(String(d)));
  const exited = new Promise((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
  for (let i = 0; i < 200; i++) {
    if (existsSync(portFile)) {
      const port = readFileSync(portFile, 'utf8').trim();
      if (/^\d+$/.test(port)) return { port: Number(port), proc };
    }
    const done = await Promise.race([exited, new Promise((r) => setTimeout(() => r(null), 50))]);
    if (done) throw new Error(`the server exited (${JSON.stringify(done)}) before listening:\n${log.join('')}`);
  }
  proc.kill('SIGKILL');
  throw new Error(`the server wrote no port file within 10 s:\n${log.join('')}`);
}
