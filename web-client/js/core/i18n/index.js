// The client's one translation helper. Every client-facing string lives in a catalog, looked up by key:
//   t('lobby.create')                       → "Create table"
//   t('table.seatsTaken', { n: 2, of: 3 })  → "2 of 3 seats taken"
// A catalog entry is a string with {param} placeholders, or an object of plural forms
// ({ one, other, ... } as Intl.PluralRules names them) chosen by params.count. Number params are
// written the language's way (Intl.NumberFormat: 1,234 / 1.234 …).
// A key the chosen catalog lacks falls back to English; a key English lacks too is shown as ⟦key⟧,
// so it is visible on screen instead of silently blank.
//
// A language's catalog is made of the shared strings, one file per language here (./en.js, ./zh-Hant.js,
// ./zh-Hans.js, ./ja.js), and each game's, beside its board (games/<id>/i18n/<language>.js), which
// games/registry.js hands over with addStrings.
// English is always loaded (it is every other catalog's fallback); another language's files are
// fetched only when it is chosen (loadLanguage, dynamic imports), all before anything is drawn in it.
// js/ui/language-picker.js does the page's part (the header's picker, <html lang>); this module
// touches no DOM.
import shared from './en.js';

/** The languages offered, in the picker's order, each named in its own words. */
export const LANGUAGES = Object.freeze([
  { id: 'en', name: 'English' },
  { id: 'zh-Hant', name: '繁體中文' },
  { id: 'zh-Hans', name: '简体中文' },
  { id: 'ja', name: '日本語' },
]);
export const DEFAULT_LANGUAGE = 'en';

const loaders = {
  'zh-Hant': () => import('./zh-Hant.js'),
  'zh-Hans': () => import('./zh-Hans.js'),
  ja: () => import('./ja.js'),
};

const en = { ...shared };
const catalogs = { en };
let current = { lang: 'en', catalog: en };
const moreLoaders = []; // the games' loaders of the other languages (addStrings)

/**
 * Adds strings kept elsewhere (a game's, beside its board): `english` joins the English catalog at once,
 * and `load(lang)` (a dynamic import of that language's file) is awaited with the shared catalog whenever
 * a language is loaded. Called as the modules load (games/registry.js), before any language is.
 */
export function addStrings(english, load) {
  Object.assign(en, english);
  moreLoaders.push(load);
}

export function isLanguage(lang) {
  return LANGUAGES.some((l) => l.id === lang);
}

/**
 * Pure: the language to show for the browser's preferred languages (navigator.languages, best
 * first): the first tag this client can serve wins — zh-TW/HK/MO and zh-Hant* → zh-Hant, other
 * Chinese (zh-CN/SG, zh-Hans*, plain zh) → zh-Hans, ja* → ja, en* → en; none of them → English.
 */
export function detectLanguage(tags = []) {
  for (const raw of tags || []) {
    const parts = String(raw || '').trim().toLowerCase().replace(/_/g, '-').split('-').filter(Boolean);
    if (parts.length === 0) continue;
    const [primary, ...rest] = parts;
    if (primary === 'en') return 'en';
    if (primary === 'ja') return 'ja';
    if (primary === 'zh') {
      if (rest.includes('hant')) return 'zh-Hant';
      if (rest.includes('hans')) return 'zh-Hans';
      if (rest.some((p) => p === 'tw' || p === 'hk' || p === 'mo')) return 'zh-Hant';
      return 'zh-Hans';
    }
  }
  return DEFAULT_LANGUAGE;
}

/** Pure: the remembered choice if it is still offered, else what the browser's languages say. */
export function initialLanguage(saved, tags) {
  return isLanguage(saved) ? saved : detectLanguage(tags);
}

const numberFormats = new Map();
const pluralRules = new Map();

function pluralForm(count, lang) {
  let rules = pluralRules.get(lang);
  if (!rules) {
    try {
      rules = new Intl.PluralRules(lang);
    } catch {
      rules = new Intl.PluralRules('en');
    }
    pluralRules.set(lang, rules);
  }
  return rules.select(count);
}

/** Pure: a number written the way `lang` writes it (grouping, decimal sign); anything else as a string. */
export function formatNumber(value, lang = 'en') {
  if (typeof value !== 'number' || !Number.isFinite(value)) return String(value);
  let format = numberFormats.get(lang);
  if (!format) {
    try {
      format = new Intl.NumberFormat(lang, { maximumFractionDigits: 3 });
    } catch {
      format = new Intl.NumberFormat('en', { maximumFractionDigits: 3 });
    }
    numberFormats.set(lang, format);
  }
  return format.format(value);
}

/**
 * Pure: translates `key` with `params` in `catalog` (for tests and for t()); `lang` names the
 * catalog's language (plural rules, numbers); `fallback` is the catalog asked for a key `catalog`
 * lacks (English, for the other languages).
 */
export function translate(catalog, key, params = {}, lang = 'en', fallback = null) {
  let entry = catalog[key];
  if (entry === undefined && fallback) entry = fallback[key];
  if (entry === undefined) return `⟦${key}⟧`;
  if (typeof entry === 'object' && entry !== null) {
    const count = Number(params.count);
    const form = pluralForm(Number.isFinite(count) ? count : 0, lang);
    entry = entry[form] ?? entry.other;
    if (entry === undefined) return `⟦${key}⟧`;
  }
  return String(entry).replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(params, name) && params[name] !== undefined && params[name] !== null
      ? formatNumber(params[name], lang)
      : whole);
}

/** Translates in the current language. */
export function t(key, params) {
  return translate(current.catalog, key, params, current.lang, current.catalog === en ? null : en);
}

/** Whether there are words for `key` (to fall back on server messages, e.g. error codes). */
export function has(key) {
  return Object.prototype.hasOwnProperty.call(current.catalog, key) || Object.prototype.hasOwnProperty.call(en, key);
}

/**
 * Fetches a language's catalog once, its shared and its games' files together (English is always there);
 * false if it is not offered or a file failed to load.
 */
export async function loadLanguage(lang) {
  if (!isLanguage(lang)) return false;
  if (catalogs[lang]) return true;
  try {
    const mods = await Promise.all([loaders[lang](), ...moreLoaders.map((load) => load(lang))]);
    if (mods.some((mod) => !mod || typeof mod.default !== 'object' || mod.default === null)) return false;
    catalogs[lang] = Object.assign({}, ...mods.map((mod) => mod.default));
    return true;
  } catch (err) {
    console.warn(`emporium: the ${lang} catalog could not be loaded`, err);
    return false;
  }
}

/** Switches to a language whose catalog is loaded (loadLanguage); false otherwise. */
export function setLanguage(lang) {
  if (!catalogs[lang]) return false;
  current = { lang, catalog: catalogs[lang] };
  return true;
}

export function language() {
  return current.lang;
}

/** A loaded language's whole catalog (shared and games' strings), or null before loadLanguage. */
export function loadedCatalog(lang) {
  return catalogs[lang] || null;
}

/** Pure: a list in words with `tr` (t or a test's own): "Ann", "Ann and Bo", "Ann, Bo and Cy". */
export function listText(items, tr = t) {
  if (items.length <= 1) return items.join('');
  return tr('common.list', { head: items.slice(0, -1).join(tr('common.listSeparator')), last: items[items.length - 1] });
}
