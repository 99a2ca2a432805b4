// Static checks of web-client/: no markup from strings (chat and names stay text), no request
// outside the server (it may run offline), no build step (plain relative ES module imports that
// resolve), and every module split as the design says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web-client');

function files(dir = WEB) {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}
const rel = (p) => path.relative(WEB, p);
const js = () => files().filter((f) => f.endsWith('.js'));

test('the client is split by responsibility', () => {
  for (const f of ['index.html', 'css/style.css', 'js/main.js', 'js/connection.js', 'js/store.js', 'js/lobby.js', 'js/lobby-list.js', 'js/table.js',
    'js/table/head.js', 'js/table/pregame.js', 'js/table/seats.js', 'js/table/invite.js', 'js/table/board-host.js', 'js/table/log.js', 'js/table/chat.js',
    'js/bots.js', 'js/bot-mark.js', 'js/play-bots.js',
    'js/clock.js', 'js/table/clock.js', 'js/rematch.js', 'js/table/rematch.js', 'js/attention.js', 'js/table/attention.js', 'js/my-games.js', 'js/my-games-model.js',
    'games/registry.js', 'games/medici/board.js', 'games/medici/model.js', 'games/medina/board.js', 'games/medina/model.js', 'games/silkroad/board.js', 'games/silkroad/model.js', 'games/merkator/board.js', 'games/merkator/model.js', 'js/i18n/en.js', 'js/i18n/index.js', 'js/language.js', 'js/howto.js']) {
    assert.ok(existsSync(path.join(WEB, f)), f);
  }
});

test('nothing turns strings into markup', () => {
  const bad = [];
  for (const f of js()) {
    const text = readFileSync(f, 'utf8');
    for (const pattern of [/\.innerHTML\b/, /\.outerHTML\s*=/, /insertAdjacentHTML/, /document\.write/, /\beval\(/, /new Function\(/, /createContextualFragment/]) {
      if (pattern.test(text)) bad.push(`${rel(f)}: ${pattern}`);
    }
  }
  assert.deepEqual(bad, []);
});

test('no request leaves the server: no CDN, no outside fonts, scripts or images', () => {
  const bad = [];
  for (const f of files().filter((x) => /\.(html|css|js)$/.test(x))) {
    const text = readFileSync(f, 'utf8').replaceAll('http://www.w3.org/2000/svg', '');
    for (const m of text.matchAll(/(?:https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}[^\s'")]*/gi)) bad.push(`${rel(f)}: ${m[0]}`);
    for (const m of text.matchAll(/@import|url\((?!\s*['"]?data:)/g)) bad.push(`${rel(f)}: ${m[0]}`);
  }
  assert.deepEqual(bad, []);
});

test('ES modules with relative imports that resolve: no bundler, no bare package names', () => {
  const bad = [];
  for (const f of js()) {
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'/g)) {
      const spec = m[1];
      if (!spec.startsWith('./') && !spec.startsWith('../')) bad.push(`${rel(f)}: bare import ${spec}`);
      else if (!existsSync(path.resolve(path.dirname(f), spec))) bad.push(`${rel(f)}: ${spec} does not exist`);
    }
  }
  assert.deepEqual(bad, []);
  const html = readFileSync(path.join(WEB, 'index.html'), 'utf8');
  assert.match(html, /<script type="module" src="\/js\/main\.js"><\/script>/);
  assert.match(html, /<link rel="stylesheet" href="\/css\/style\.css">/);
});

test('the pure modules touch no DOM', () => {
  for (const f of ['games/medici/model.js', 'games/silkroad/model.js', 'games/medina/model.js', 'games/merkator/model.js', 'js/connection.js', 'js/store.js', 'js/route.js', 'js/table-model.js', 'js/bots.js', 'js/i18n/index.js', 'js/clock.js', 'js/rematch.js', 'js/attention.js', 'js/my-games-model.js', 'js/stand-in.js']) {
    const text = readFileSync(path.join(WEB, f), 'utf8');
    assert.doesNotMatch(text, /\bdocument\.|\bwindow\./, f);
  }
});

test('every stylesheet has balanced braces (an unclosed rule silently swallows everything after it)', () => {
  for (const f of files().filter((p) => p.endsWith('.css'))) {
    const text = readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/"[^"]*"|'[^']*'/g, '');
    let depth = 0;
    text.split('\n').forEach((line, i) => {
      for (const ch of line) {
        if (ch === '{') depth += 1;
        if (ch === '}') depth -= 1;
        assert.ok(depth >= 0, `${rel(f)}:${i + 1}: a '}' closes nothing`);
      }
    });
    assert.equal(depth, 0, `${rel(f)}: ${depth} rule(s) left open`);
  }
});
