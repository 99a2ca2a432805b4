// The translations against English, the acceptance check of a language. A language is a shared catalog
// (web-client/js/core/i18n/<lang>.js) and one per game, beside its board (web-client/games/<id>/i18n/<lang>.js);
// each file against its English one: exactly the keys English has (none missing, none extra), no empty text
// (plural forms included), every {placeholder} of any English form of a key in each of its own forms (and
// none English does not have), and an `other` form in every plural object. And each key has one home: the
// shared catalog holds no game's keys, no key is in two files. A file that is missing or behind English
// fails here, by name and key.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import shared from '../../web-client/js/core/i18n/en.js';
import { LANGUAGES } from '../../web-client/js/core/i18n/index.js';
import { gameModule, knownGames } from '../../web-client/games/registry.js';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web-client');
const PLURAL_FORMS = ['zero', 'one', 'two', 'few', 'many', 'other'];

/** A language's files (in web-client/): the shared catalog, then each game's. */
const catalogFiles = (lang) => [`js/core/i18n/${lang}.js`, ...knownGames().map((id) => `games/${id}/i18n/${lang}.js`)];

/** The forms of an entry: [['', text]] for a string, [[form, text], ...] for a plural object. */
const forms = (value) => (typeof value === 'string' ? [['', value]] : Object.entries(value ?? {}));
const placeholders = (text) => new Set([...String(text).matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
/** Every placeholder in any form of an entry. */
const allPlaceholders = (value) => new Set(forms(value).flatMap(([, text]) => [...placeholders(text)]));

/** At most `n` items of a list, for readable failures. */
const some = (list, n = 25) => (list.length > n ? [...list.slice(0, n), `… and ${list.length - n} more`] : list);

async function load(file) {
  const full = path.join(WEB, file);
  if (!existsSync(full)) return null;
  return (await import(pathToFileURL(full).href)).default;
}

test('the picker offers English first and every other language once, each named in its own words', () => {
  assert.equal(LANGUAGES[0].id, 'en');
  assert.equal(new Set(LANGUAGES.map((l) => l.id)).size, LANGUAGES.length);
  for (const l of LANGUAGES) assert.ok(typeof l.name === 'string' && l.name.trim(), l.id);
  for (const id of ['zh-Hant', 'zh-Hans', 'ja']) assert.ok(LANGUAGES.some((l) => l.id === id), id);
});

describe('each key has one home', () => {
  test('a game\'s English strings are its module\'s, and share no key with the shared catalog or another game', async () => {
    const home = new Map(Object.keys(shared).map((key) => [key, 'the shared catalog']));
    const twice = [];
    for (const id of knownGames()) {
      const strings = await load(`games/${id}/i18n/en.js`);
      assert.ok(strings, `web-client/games/${id}/i18n/en.js is missing`);
      assert.equal(gameModule(id).strings, strings, `${id}: the module's strings are its i18n/en.js`);
      for (const key of Object.keys(strings)) {
        if (home.has(key)) twice.push(`${key}: ${home.get(key)} and ${id}`);
        home.set(key, id);
      }
    }
    assert.deepEqual(some(twice), []);
  });

  test('the shared catalog holds none of a game\'s keys (its name, board, lobby card, how to play)', () => {
    const games = knownGames();
    const owned = (key) => games.some((id) => [`${id}.`, `howto.${id}.`, `lobby.games.${id}.`].some((prefix) => key.startsWith(prefix)));
    assert.deepEqual(some(Object.keys(shared).filter(owned)), []);
  });
});

for (const { id: lang } of LANGUAGES.filter((l) => l.id !== 'en')) {
  catalogFiles(lang).forEach((file, i) => describe(`the ${lang} catalog: ${file}`, () => {
    let catalog;
    let en; // the same file in English
    test('exists and is a default-exported object', async () => {
      en = await load(catalogFiles('en')[i]);
      catalog = await load(file);
      assert.ok(catalog, `web-client/${file} is missing`);
      assert.equal(typeof catalog, 'object');
    });

    test('has exactly the keys English has', () => {
      assert.ok(catalog, 'no catalog');
      const missing = Object.keys(en).filter((k) => !Object.prototype.hasOwnProperty.call(catalog, k));
      const extra = Object.keys(catalog).filter((k) => !Object.prototype.hasOwnProperty.call(en, k));
      assert.deepEqual({ missing: some(missing), extra: some(extra) }, { missing: [], extra: [] },
        `${lang}: ${missing.length} key(s) missing, ${extra.length} extra`);
    });

    test('no empty text, plural forms included; plural objects have "other" and only known forms', () => {
      assert.ok(catalog, 'no catalog');
      const bad = [];
      for (const [key, value] of Object.entries(catalog)) {
        if (typeof value === 'string') {
          if (value.trim() === '' && !(typeof en[key] === 'string' && en[key] === '')) bad.push(`${key}: empty`);
          continue;
        }
        if (typeof value !== 'object' || value === null || Array.isArray(value)) { bad.push(`${key}: neither text nor plural forms`); continue; }
        if (typeof value.other !== 'string') bad.push(`${key}: no "other" form`);
        for (const [form, text] of Object.entries(value)) {
          if (!PLURAL_FORMS.includes(form)) bad.push(`${key}.${form}: not a plural form`);
          else if (typeof text !== 'string' || text.trim() === '') bad.push(`${key}.${form}: empty`);
        }
      }
      assert.deepEqual(some(bad), []);
    });

    test('every placeholder of any English form is in each form of the translation, and no other', () => {
      assert.ok(catalog, 'no catalog');
      const bad = [];
      for (const [key, value] of Object.entries(catalog)) {
        if (!Object.prototype.hasOwnProperty.call(en, key)) continue;
        const wanted = allPlaceholders(en[key]);
        for (const [form, text] of forms(value)) {
          const have = placeholders(text);
          const where = form ? `${key}.${form}` : key;
          for (const p of wanted) if (!have.has(p)) bad.push(`${where}: lacks {${p}}`);
          for (const p of have) if (!wanted.has(p)) bad.push(`${where}: {${p}} is not English's`);
        }
      }
      assert.deepEqual(some(bad), []);
    });
  }));
}
