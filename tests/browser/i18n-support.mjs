// What the browser tests need to play in another language: the catalogs (the client's own files, shared
// and games' strings together, loaded by the client's own i18n loader and read with its translate()),
// texts and patterns made from their entries, and the check that no English word is left on screen. Not a test file itself (node --test runs only *.test.mjs here).
//
//   const L = await language('ja');           // { lang, locale, tr(key, params), pattern(key, fill), … }
//   L.tr('table.turn.over')                    // the words the page shows
//   new RegExp(L.pattern('silkroad.coins', { count: /(\d+)/ }))   // the entry's shape, any params
//   await assertNoEnglish(page, L, { names: ['Ann', 'Bot 1'], where: 'mid-game' })
import assert from 'node:assert/strict';
import '../../web-client/games/registry.js'; // the games' strings join the catalogs
import { formatNumber, loadLanguage, loadedCatalog, translate } from '../../web-client/js/core/i18n/index.js';

const en = loadedCatalog('en');

/** The browser locale (navigator.languages) that makes the client choose each language by itself. */
export const LOCALES = { en: 'en-US', 'zh-Hant': 'zh-TW', 'zh-Hans': 'zh-CN', ja: 'ja-JP' };

/**
 * English words that may stay on a page in any language: names of the games and the site (some
 * translations keep them), and technical words a translation keeps as they are. Player and bot names
 * and the chat are left out of the check separately (assertNoEnglish's `names`, CHAT_SELECTORS).
 */
export const ALLOWED_ENGLISH = new Set([
  'emporium', // the site's name
  'medici', 'medina', 'merkator', // the games' names (a translation may keep them in Latin letters)
  'json', 'sha', // "the game record (JSON)", SHA-256
  'bot', // "Bot 1", "Bot 2": the server's names for bots (names are removed first; this covers a bare "Bot")
  'tab', 'esc', 'escape', 'enter', 'shift', // keys, named as the keyboard says ("Tab 鍵")
]);

/** Elements whose text is the players' own (chat), not the client's. */
export const CHAT_SELECTORS = ['[data-testid=chat]', '[data-testid=chat-text]', '.chat-from', '[data-testid=my-name]'];

const escape = (s) => String(s).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let cachedWords = null;

/** The words (3 letters or more, lower case) of every English entry, without its {placeholders}. */
export function englishWords(catalog = en) {
  if (catalog === en && cachedWords) return cachedWords;
  const words = new Set();
  for (const value of Object.values(catalog)) {
    for (const text of typeof value === 'string' ? [value] : Object.values(value)) {
      for (const w of String(text).replace(/\{\w+\}/g, ' ').match(/[A-Za-z]{3,}/g) || []) words.add(w.toLowerCase());
    }
  }
  for (const w of ALLOWED_ENGLISH) words.delete(w);
  if (catalog === en) cachedWords = words;
  return words;
}

async function loadCatalog(lang) {
  assert.ok(await loadLanguage(lang), `the ${lang} catalog could not be loaded`);
  return loadedCatalog(lang);
}

/**
 * A language for a test: `tr(key, params)` the words the client shows (with English for a key the
 * catalog lacks, as the client does), `pattern(key, fill)` a RegExp source matching the entry whatever
 * its params (see below), `forms(key)` its texts.
 */
export async function language(lang) {
  const catalog = await loadCatalog(lang);
  const entry = (key) => (catalog[key] !== undefined ? catalog[key] : en[key]);
  const forms = (key) => {
    const v = entry(key);
    assert.ok(v !== undefined, `no entry ${key}`);
    return typeof v === 'string' ? [v] : [...new Set(Object.values(v))];
  };
  /**
   * A RegExp source for any form of `key`: its text escaped, each {param} replaced by `fill[param]` — a
   * RegExp (its source, groups and all) or a value (written as translate() writes it) — or by a lazy
   * wildcard when not given. Alternatives for the plural forms; no anchors.
   */
  const pattern = (key, fill = {}) => {
    const alternatives = forms(key).map((text) => text.split(/(\{\w+\})/).map((part) => {
      const m = /^\{(\w+)\}$/.exec(part);
      if (!m) return escape(part);
      const f = fill[m[1]];
      if (f instanceof RegExp) return `(?:${f.source})`;
      if (f !== undefined && f !== null) return escape(formatNumber(f, lang));
      return '.+?';
    }).join(''));
    return alternatives.length === 1 ? alternatives[0] : `(?:${alternatives.join('|')})`;
  };
  return {
    lang,
    locale: LOCALES[lang],
    catalog,
    tr: (key, params = {}) => translate(catalog, key, params, lang, en),
    pattern,
    forms,
    /** The English texts of `key` (its plural forms). */
    english: (key) => (typeof en[key] === 'string' ? [en[key]] : Object.values(en[key] ?? {})),
    /** The keys under `prefix` with an English text that passes `test` (e.g. the log lines that say "You …"). */
    keysWhereEnglish: (prefix, test) => Object.keys(en).filter((k) => k.startsWith(prefix)
      && (typeof en[k] === 'string' ? [en[k]] : Object.values(en[k])).some((text) => test(text))),
  };
}

/**
 * The English words a page shows (document.body.innerText: what is rendered, screen-reader-only text
 * included), leaving out the chat, the viewer's name in the header and every name in `names` (players,
 * bots). Returns [{word, context}] — empty when the page speaks only the language.
 */
export async function englishOnScreen(page, { names = [], words = englishWords() } = {}) {
  const text = await page.evaluate((selectors) => {
    let all = document.body.innerText;
    for (const el of document.querySelectorAll(selectors.join(','))) {
      const own = el.innerText;
      if (own) all = all.split(own).join('\n');
    }
    return all;
  }, CHAT_SELECTORS);
  let rest = text;
  for (const name of [...names].sort((a, b) => b.length - a.length)) if (name) rest = rest.split(name).join(' ');
  const found = [];
  // Whole words only: letters inside a run of digits and letters (a commitment's hex, "dc2013add304") are no word.
  for (const m of rest.matchAll(/(?<![A-Za-z0-9])[A-Za-z]{3,}(?![A-Za-z0-9])/g)) {
    if (words.has(m[0].toLowerCase())) found.push({ word: m[0], context: rest.slice(Math.max(0, m.index - 30), m.index + m[0].length + 30).replace(/\s+/g, ' ') });
  }
  return found;
}

/** Fails, with the words and where they stand, if `page` shows English words of the client's. */
export async function assertNoEnglish(page, L, { names = [], where = '' } = {}) {
  if (L.lang === 'en') return;
  const found = await englishOnScreen(page, { names });
  assert.deepEqual(found.map((f) => `${f.word}: …${f.context}…`), [], `${where}: English on a ${L.lang} page`);
}
