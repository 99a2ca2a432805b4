// The client's folders and what may import what (docs/client.md, "What may import what"), read from the import
// lines of every module. From the bottom up:
//   js/core/           services: connection, store, routes, i18n, errors, DOM helpers
//   js/models/         pure decisions, no DOM
//   js/ui/             UI parts that pages and boards share
//   games/             each game's board, model and strings (games/<id>/), and the parts they share
//   games/registry.js  the list of games
//   js/pages/          the pages, each with its own parts (pages/<page>.js and pages/<page>/)
//   js/main.js         the entry: the header and the router
//   sw.js              the service worker (docs/push.md), at the root for its scope: it imports nothing and
//                      nothing imports it
// A module imports only from its own layer or the layers below it; a page never imports another page;
// a game never imports another game; and no two files share a name unless they do the same job.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web-client');

function files(dir = WEB) {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}
/** A path inside web-client/, with '/' separators. */
const rel = (p) => path.relative(WEB, p).split(path.sep).join('/');
const modules = () => files().filter((f) => f.endsWith('.js')).map(rel);

const LAYERS = ['core', 'models', 'ui', 'games', 'registry', 'pages', 'main'];

/** The layer of a path in web-client/ (a file, or the folder a computed import starts from); null: none. */
function layerOf(p) {
  if (p === 'js/main.js') return 'main';
  if (p === 'sw.js') return 'worker';
  if (p.startsWith('js/pages/')) return 'pages';
  if (p === 'games/registry.js') return 'registry';
  if (p.startsWith('games/')) return 'games';
  if (p.startsWith('js/ui/')) return 'ui';
  if (p.startsWith('js/models/')) return 'models';
  if (p.startsWith('js/core/')) return 'core';
  return null;
}

/** The page a path belongs to: 'table' for js/pages/table.js and js/pages/table/…; null outside pages. */
function pageOf(p) {
  const m = /^js\/pages\/([^/.]+)(?:\.js$|\/)/.exec(p);
  return m ? m[1] : null;
}

/** The game folder a path belongs to (games/<id>/…), or null. */
function gameOf(p) {
  const m = /^games\/([^/]+)\//.exec(p);
  return m ? m[1] : null;
}

/**
 * What a file's name says it does, for telling same-named files apart: a language's strings wherever they
 * live, the same file of each game, else its own path (a job of its own).
 */
function jobOf(p) {
  if (/(^|\/)i18n\/[^/]+\.js$/.test(p)) return `strings: ${path.posix.basename(p)}`;
  const game = gameOf(p);
  if (game) return `a game's ${p.slice(`games/${game}/`.length)}`;
  return p;
}

/**
 * Every import of `text` (a module at `from`, in web-client/): static, re-exports, side effects and dynamic
 * ones. A computed dynamic import (a template with ${…}) is taken as the folder before its first ${.
 */
function importsOf(text, from) {
  const specs = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"`;]*?from\s+'([^']+)'/g)) specs.push(m[1]);
  for (const m of text.matchAll(/(?:^|\n)\s*import\s+'([^']+)'/g)) specs.push(m[1]);
  for (const m of text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) specs.push(m[1]);
  for (const m of text.matchAll(/\bimport\(\s*`([^`$]*)\$\{/g)) specs.push(m[1]);
  return specs.map((spec) => ({ spec, target: path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)) }));
}

/** The broken rules of one import, as sentences (none: the import is fine). */
function brokenRules(from, target) {
  const broken = [];
  const a = layerOf(from);
  const b = layerOf(target);
  if (a === null) return [`${from} is in no layer`];
  if (b === null) return [`${from} imports ${target}, which is in no layer`];
  if ((a === 'worker') !== (b === 'worker')) return [`${from} imports ${target}: the service worker stands alone`];
  if (LAYERS.indexOf(b) > LAYERS.indexOf(a)) broken.push(`${from} (${a}) imports ${target} (${b}), a layer above it`);
  const pa = pageOf(from);
  const pb = pageOf(target);
  if (pa && pb && pa !== pb) broken.push(`${from} (page ${pa}) imports ${target} (page ${pb}): a page never imports another page`);
  const ga = gameOf(from);
  const gb = gameOf(target);
  if (ga && gb && ga !== gb) broken.push(`${from} (game ${ga}) imports ${target} (game ${gb}): a game never imports another game`);
  return broken;
}

test('the rules themselves: each catches what it is for', () => {
  assert.deepEqual(brokenRules('js/models/clock-rules.js', 'js/core/i18n/index.js'), []);
  assert.deepEqual(brokenRules('games/medici/board.js', 'js/ui/bot-mark.js'), []);
  assert.deepEqual(brokenRules('js/pages/table.js', 'js/pages/table/head.js'), []);
  assert.deepEqual(brokenRules('js/pages/table/head.js', 'js/pages/table.js'), []);
  assert.equal(brokenRules('js/core/store.js', 'js/models/bots.js').length, 1, 'core below models');
  assert.equal(brokenRules('games/medici/board.js', 'js/pages/table/players.js').length, 1, 'a board never imports a page part');
  assert.equal(brokenRules('games/medici/board.js', 'games/registry.js').length, 1, 'a board never imports the registry');
  assert.equal(brokenRules('js/ui/board-host.js', 'games/registry.js').length, 1, 'ui is below the games');
  assert.equal(brokenRules('js/pages/replay.js', 'js/pages/table/head.js').length, 1, 'a page never imports another page\'s part');
  assert.equal(brokenRules('js/pages/my-games.js', 'js/pages/lobby.js').length, 1);
  assert.equal(brokenRules('games/medina/city.js', 'games/medici/model.js').length, 1, 'a game never imports another game');
  assert.equal(brokenRules('js/helpers.js', 'js/core/dom.js').length, 1, 'every module is in a layer');
  assert.equal(brokenRules('sw.js', 'js/core/dom.js').length, 1, 'the service worker imports nothing');
  assert.equal(brokenRules('js/main.js', 'sw.js').length, 1, 'nothing imports the service worker');
  assert.deepEqual(importsOf("import a from './a.js';\nexport { b } from '../b.js';\nimport './c.js';\nconst d = () => import('./d.js');\nconst e = (x) => import(`./${x}/e.js`);", 'games/registry.js')
    .map((i) => i.target), ['games/a.js', 'b.js', 'games/c.js', 'games/d.js', 'games/']);
  assert.notEqual(jobOf('js/pages/table/clock.js'), jobOf('js/models/clock.js'));
  assert.equal(jobOf('games/medici/board.js'), jobOf('games/medina/board.js'));
  assert.equal(jobOf('js/core/i18n/ja.js'), jobOf('games/medina/i18n/ja.js'));
});

test('every module is in a layer and imports only from its own layer or below; pages and games stay apart', () => {
  const broken = [];
  for (const from of modules()) {
    const text = readFileSync(path.join(WEB, from), 'utf8');
    if (layerOf(from) === null) broken.push(`${from} is in no layer`);
    for (const { target } of importsOf(text, from)) broken.push(...brokenRules(from, target));
  }
  assert.deepEqual([...new Set(broken)], []);
});

test('no two files share a name unless they do the same job', () => {
  const byName = new Map();
  for (const p of files().map(rel)) {
    const name = path.posix.basename(p);
    byName.set(name, [...(byName.get(name) || []), p]);
  }
  const clashes = [...byName].filter(([, paths]) => new Set(paths.map(jobOf)).size > 1).map(([name, paths]) => `${name}: ${paths.join(', ')}`);
  assert.deepEqual(clashes, []);
});
