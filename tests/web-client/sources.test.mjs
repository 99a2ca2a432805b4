// Static checks of web-client/: no markup from strings (chat and names stay text), no request
// outside the server (it may run offline), no build step (plain relative ES module imports that
// resolve), and every module split as the design says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { knownGames } from '../../web-client/games/registry.js';

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
  for (const f of ['index.html', 'css/style.css', 'js/main.js',
    'js/core/connection.js', 'js/core/store.js', 'js/core/route.js', 'js/core/errors.js', 'js/core/dom.js', 'js/core/i18n/index.js', 'js/core/i18n/en.js',
    'js/core/accounts.js', 'js/core/passkey-codec.js', 'js/models/account-rules.js',
    'js/ui/account-menu.js', 'js/ui/password-fields.js', 'js/ui/form-status.js',
    'js/pages/account.js', 'js/pages/account/passkey-list.js', 'js/pages/account/password-change.js', 'js/pages/account/session-list.js',
    'js/pages/account/sign-in-history.js', 'js/pages/account/data-and-deletion.js',
    'js/pages/sign-in.js', 'js/pages/sign-in/passkey-way.js', 'js/pages/sign-in/password-way.js',
    'js/models/table-model.js', 'js/models/lobby-list.js', 'js/models/bots.js', 'js/models/clock-rules.js', 'js/models/rematch-rules.js',
    'js/models/attention-rules.js', 'js/models/my-games-model.js', 'js/models/replay-model.js', 'js/models/stand-in.js', 'js/models/shuffle-check.js',
    'js/models/last-moves.js',
    'js/ui/bot-mark.js', 'js/ui/board-host.js', 'js/ui/howto.js', 'js/ui/language-picker.js', 'js/ui/name-form.js', 'js/ui/seat-marks.js', 'js/ui/theme-switch.js',
    'js/pages/lobby.js', 'js/pages/lobby/game-cards.js', 'js/pages/lobby/play-bots.js', 'js/pages/my-games.js', 'js/pages/replay.js',
    'js/models/analysis-model.js', 'js/pages/replay/analysis.js',
    'js/pages/table.js', 'js/pages/table/head.js', 'js/pages/table/pregame.js', 'js/pages/table/players.js', 'js/pages/table/invite.js',
    'js/pages/table/log.js', 'js/pages/table/chat.js', 'js/pages/table/clock.js', 'js/pages/table/rematch.js', 'js/pages/table/fairness.js',
    'js/pages/table/attention.js',
    'js/models/ratings.js', 'js/models/rating-graph.js', 'js/ui/rating-mark.js', 'js/pages/table/rating-changes.js',
    'js/pages/profile.js', 'js/pages/profile/graph.js', 'js/pages/leaderboard.js',
    'js/models/friends-model.js', 'js/ui/friends.js', 'js/ui/invitation-notices.js', 'js/pages/lobby/friends-panel.js',
    'js/pages/table/invite-friend.js', 'js/pages/profile/friend-actions.js',
    'js/models/email-rules.js', 'js/pages/account/email-settings.js', 'js/pages/account/act.js', 'js/pages/lobby/in-progress-panel.js',
    'games/registry.js', 'games/board-parts.js', 'games/model-parts.js', 'games/medici/board.js', 'games/medici/model.js', 'games/medina/board.js',
    'games/medina/model.js', 'games/silkroad/board.js', 'games/silkroad/model.js', 'games/merkator/board.js', 'games/merkator/model.js']) {
    assert.ok(existsSync(path.join(WEB, f)), f);
  }
});

test('every game the registry lists has its folder: board, model and stylesheet, linked from index.html', () => {
  const html = readFileSync(path.join(WEB, 'index.html'), 'utf8');
  for (const id of knownGames()) {
    for (const f of ['board.js', 'model.js', 'board.css']) assert.ok(existsSync(path.join(WEB, 'games', id, f)), `games/${id}/${f}`);
    assert.ok(html.includes(`<link rel="stylesheet" href="/games/${id}/board.css">`), `index.html links games/${id}/board.css`);
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
  const pure = js().map(rel).filter((f) => f.startsWith('js/models/') || /^games\/[^/]+\/model\.js$/.test(f));
  for (const f of [...pure, 'js/core/connection.js', 'js/core/store.js', 'js/core/route.js', 'js/core/i18n/index.js',
    'js/core/accounts.js', 'js/core/passkey-codec.js']) {
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
