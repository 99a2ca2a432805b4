// Light or dark: the system's colour scheme unless the reader chose one with the header's switch (kept
// in the store). The stylesheet does the rest: colours are light-dark() pairs and data-theme on <html>
// pins the scheme.
import { h } from '../core/dom.js';
import { t } from '../core/i18n/index.js';

export function createThemeSwitch({ store, root = document.documentElement, media = window.matchMedia('(prefers-color-scheme: dark)') }) {
  const button = h('button', { type: 'button', class: 'btn subtle small theme-switch', 'data-testid': 'theme-switch', onclick: toggle });
  const current = () => store.theme() || (media.matches ? 'dark' : 'light');

  function show() {
    const chosen = store.theme();
    if (chosen) root.dataset.theme = chosen;
    else delete root.dataset.theme;
    const dark = current() === 'dark';
    button.setAttribute('aria-pressed', String(dark));
    // the words in a span of their own: a phone's header shows only the sun or the moon (css/style.css)
    button.replaceChildren(h('span', { class: 'theme-label' }, dark ? t('theme.dark') : t('theme.light')));
    button.title = dark ? t('theme.toLight') : t('theme.toDark');
  }

  function toggle() {
    store.setTheme(current() === 'dark' ? 'light' : 'dark');
    show();
  }

  media.addEventListener('change', show);
  show();
  return { el: button, relabel: show };
}
