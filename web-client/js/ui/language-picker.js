// The page's language: on the first visit the browser's preferred languages decide (js/core/i18n/index.js
// detectLanguage), afterwards the choice made in the header's picker (kept in the store). Changing it
// loads that catalog, switches t() over, updates <html lang> and tells the page (onChange), which
// re-renders the screen in place: no reload, the connection and the table stay as they are.
import { h } from '../core/dom.js';
import { LANGUAGES, initialLanguage, language, loadLanguage, setLanguage, t } from '../core/i18n/index.js';

/** Puts the current language on the document (<html lang>: CSS :lang() fonts, screen readers, hyphenation). */
export function applyDocumentLanguage(root = document.documentElement) {
  root.lang = language();
}

/** Chooses the first language (remembered, else the browser's) and waits for its catalog; English if it fails. */
export async function startLanguage(store, tags = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language]) {
  const lang = initialLanguage(store.language(), tags);
  if (lang !== language() && (await loadLanguage(lang))) setLanguage(lang);
  applyDocumentLanguage();
  return language();
}

/**
 * The header's picker: a labelled <select> listing every language in its own words. `onChange(lang)` runs
 * once the new catalog is in use; `notify(text, kind)` reports a catalog that could not be loaded.
 */
export function createLanguagePicker({ store, onChange, notify = () => {} }) {
  const id = 'language-select';
  const label = h('label', { for: id, class: 'visually-hidden' });
  const select = h('select', {
    id, class: 'language-select', 'data-testid': 'language', autocomplete: 'off',
    onchange: () => choose(select.value),
  }, LANGUAGES.map((l) => h('option', { value: l.id, lang: l.id, selected: l.id === language() }, l.name)));
  const el = h('div', { class: 'language' }, label, select);

  async function choose(lang) {
    if (lang === language()) return;
    select.disabled = true;
    const ok = await loadLanguage(lang);
    select.disabled = false;
    if (ok) {
      setLanguage(lang);
      store.setLanguage(lang);
      applyDocumentLanguage();
      relabel();
      onChange(lang);
    } else {
      select.value = language();
      notify(t('language.failed'), 'error');
    }
    select.focus({ preventScroll: true });
  }

  /** The label and the choice shown, in the current language. */
  function relabel() {
    label.textContent = t('language.label');
    select.title = t('language.label');
    select.value = language();
  }

  relabel();
  return { el, relabel, choose };
}
