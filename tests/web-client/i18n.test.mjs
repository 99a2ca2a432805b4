// js/core/i18n: the t() helper, plurals, missing keys shown visibly, and the English catalog checked
// against every key the client's code uses.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import '../../web-client/games/registry.js'; // the games' strings join the catalogs
import { t, translate, has, setLanguage, language, loadedCatalog } from '../../web-client/js/core/i18n/index.js';

const en = loadedCatalog('en'); // the shared strings and every game's

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web-client');

/** The code without its comments (which show usage examples). */
const code = (file) => readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** Every .js file of the client: js/ and the games' folders. */
function sources(dir = WEB) {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.js') ? [p] : [];
  });
}

describe('translate', () => {
  const catalog = {
    hello: 'Hello, {name}!',
    plain: 'No parameters',
    apples: { one: '{count} apple', other: '{count} apples' },
    onlyOther: { other: '{count} things' },
  };

  test('fills parameters', () => {
    assert.equal(translate(catalog, 'hello', { name: 'Ann' }), 'Hello, Ann!');
    assert.equal(translate(catalog, 'plain'), 'No parameters');
    assert.equal(translate(catalog, 'hello', { name: 0 }), 'Hello, 0!');
  });

  test('a missing key is visible, not blank', () => {
    assert.equal(translate(catalog, 'nope.nothing'), '⟦nope.nothing⟧');
    assert.equal(translate({}, 'x', { a: 1 }), '⟦x⟧');
  });

  test('a missing parameter stays visible as its placeholder', () => {
    assert.equal(translate(catalog, 'hello'), 'Hello, {name}!');
    assert.equal(translate(catalog, 'hello', { name: null }), 'Hello, {name}!');
  });

  test('plural forms by count', () => {
    assert.equal(translate(catalog, 'apples', { count: 1 }), '1 apple');
    assert.equal(translate(catalog, 'apples', { count: 0 }), '0 apples');
    assert.equal(translate(catalog, 'apples', { count: 2 }), '2 apples');
    assert.equal(translate(catalog, 'onlyOther', { count: 1 }), '1 things', 'falls back to "other"');
    assert.equal(translate(catalog, 'apples', {}), '{count} apples');
  });

  test('parameters are inserted as they are: no markup processing', () => {
    assert.equal(translate(catalog, 'hello', { name: '<b>x</b>' }), 'Hello, <b>x</b>!');
    assert.equal(translate(catalog, 'hello', { name: '{name}' }), 'Hello, {name}!');
  });

  test('t uses the current language (English)', () => {
    assert.equal(language(), 'en');
    assert.equal(setLanguage('xx'), false);
    assert.equal(t('common.florins', { count: 1 }), '1 florin');
    assert.equal(t('common.florins', { count: 12 }), '12 florins');
    assert.equal(t('missing.key.for.test'), '⟦missing.key.for.test⟧');
    assert.ok(has('app.name') && !has('missing.key.for.test'));
  });
});

describe('the English catalog', () => {
  test('entries are non-empty strings or plural objects with "other"', () => {
    for (const [key, value] of Object.entries(en)) {
      if (typeof value === 'string') continue;
      assert.equal(typeof value, 'object', key);
      assert.equal(typeof value.other, 'string', `${key} needs an "other" form`);
      for (const form of Object.keys(value)) assert.ok(['zero', 'one', 'two', 'few', 'many', 'other'].includes(form), `${key}.${form}`);
    }
  });

  test('every key the client uses exists', () => {
    const used = new Map();
    const prefixes = new Map();
    for (const file of sources()) {
      const text = code(file);
      const rel = path.relative(WEB, file);
      for (const m of text.matchAll(/\bt\(\s*'([a-zA-Z0-9_.]+)'/g)) used.set(m[1], rel);
      for (const m of text.matchAll(/\bt\(\s*`([a-zA-Z0-9_.]+)\$\{/g)) prefixes.set(m[1], rel);
      // keys passed around as values (e.g. nameKey: 'medici.name', key: 'table.turn.yours')
      for (const m of text.matchAll(/(?:nameKey|key):\s*'([a-zA-Z0-9_.]+)'/g)) used.set(m[1], rel);
      for (const m of text.matchAll(/return '((?:app|table)\.[a-zA-Z0-9_.]+)'/g)) used.set(m[1], rel);
    }
    assert.ok(used.size > 100, `found ${used.size} keys`);
    const missing = [...used].filter(([k]) => !(k in en)).map(([k, f]) => `${k} (${f})`);
    assert.deepEqual(missing, [], 'keys used in the code but missing from the English catalogs');
    for (const [prefix, file] of prefixes) {
      assert.ok(Object.keys(en).some((k) => k.startsWith(prefix)), `no key starts with ${prefix} (${file})`);
    }
  });

  test('dynamic keys: every commodity, event, error and table state has its words', () => {
    for (const c of ['cloth', 'fur', 'grain', 'dye', 'spice', 'gold']) assert.ok(`medici.commodity.${c}` in en, c);
    for (const c of ['cloth', 'fur', 'grain', 'dye', 'spice']) assert.ok(`medici.commodityTitle.${c}` in en, c);
    for (const s of ['waiting', 'playing', 'finished']) assert.ok(`state.${s}` in en, s);
    for (const e of ['day_start', 'draw', 'stop', 'auction', 'bid', 'pass', 'lot_won', 'lot_discarded', 'turn', 'fill', 'day_end']) {
      assert.ok(`medici.event.${e}` in en, e);
    }
  });

  test('no client-facing literal text outside the catalog (user-visible strings go through t)', () => {
    // Heuristic: h(tag, attrs, 'Some words') with a capitalised English literal is a string
    // that escaped the catalog.
    const offenders = [];
    for (const file of sources()) {
      if (file.includes(`${path.sep}i18n${path.sep}`)) continue;
      const text = code(file);
      for (const m of text.matchAll(/h\('[a-z0-9]+',[^()]*?,\s*'([A-Z][a-z]+ [^']*)'\)/g)) offenders.push(`${path.basename(file)}: ${m[1]}`);
      for (const m of text.matchAll(/'aria-label':\s*'([^']+)'/g)) offenders.push(`${path.basename(file)}: aria-label ${m[1]}`);
    }
    assert.deepEqual(offenders, []);
  });
});
