// The client's one translation helper. Every client-facing string lives in a catalog
// (./en.js for English; one file per language), looked up by key:
//   t('lobby.create')                       → "Create table"
//   t('table.seatsTaken', { n: 2, of: 3 })  → "2 of 3 seats taken"
// A catalog entry is a string with {param} placeholders, or an object of plural forms
// ({ one, other, ... } as Intl.PluralRules names them) chosen by params.count.
// A missing key is shown as ⟦key⟧ so it is visible on screen instead of silently blank.
import en from './en.js';

const catalogs = { en };
let current = { lang: 'en', catalog: en };

/** Pure: translates `key` with `params` in `catalog` (for tests and for t()). */
export function translate(catalog, key, params = {}, lang = 'en') {
  let entry = catalog[key];
  if (entry === undefined) return `⟦${key}⟧`;
  if (typeof entry === 'object' && entry !== null) {
    const count = Number(params.count);
    const form = new Intl.PluralRules(lang).select(Number.isFinite(count) ? count : 0);
    entry = entry[form] ?? entry.other;
    if (entry === undefined) return `⟦${key}⟧`;
  }
  return String(entry).replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(params, name) && params[name] !== undefined && params[name] !== null
      ? String(params[name])
      : whole);
}

/** Translates in the current language. */
export function t(key, params) {
  return translate(current.catalog, key, params, current.lang);
}

/** Whether the current catalog has `key` (to fall back on server messages, e.g. error codes). */
export function has(key) {
  return Object.prototype.hasOwnProperty.call(current.catalog, key);
}

export function setLanguage(lang) {
  if (!catalogs[lang]) return false;
  current = { lang, catalog: catalogs[lang] };
  return true;
}

export function language() {
  return current.lang;
}

/** Pure: a list in words with `tr` (t or a test's own): "Ann", "Ann and Bo", "Ann, Bo and Cy". */
export function listText(items, tr = t) {
  if (items.length <= 1) return items.join('');
  return tr('common.list', { head: items.slice(0, -1).join(tr('common.listSeparator')), last: items[items.length - 1] });
}
