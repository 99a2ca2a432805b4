// "How to play": a game's rules in short, in a modal <dialog> opened from the table's head and from the
// lobby (each game's card and the create form). The words are catalog entries howto.<game>.{summary,
// setup, turn, scoring, end, rulings}, among the game's strings (games/<game>/i18n/): plain text where
// "\n\n" separates paragraphs and a line that starts with "• " is a list item. They are put on the page as text (never as markup).
// The dialog is labelled by its heading, keeps the keyboard inside it (Tab and Shift+Tab go round),
// closes with Esc or its button, and gives the focus back to the button that opened it.
import { h } from '../core/dom.js';
import { t } from '../core/i18n/index.js';

/** The sections after the summary, each under its heading (help.section.<id>). */
export const HOWTO_SECTIONS = ['setup', 'turn', 'scoring', 'end', 'rulings'];
const BULLET = /^\s*[•·]\s+/;

/**
 * Pure: a how-to text as blocks — {type: 'p', text} for a paragraph (its single line breaks kept) and
 * {type: 'ul', items} for a run of "• " lines.
 */
export function howToBlocks(text) {
  const blocks = [];
  for (const para of String(text ?? '').replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    let lines = [];
    let items = null;
    const flushLines = () => {
      if (lines.length) blocks.push({ type: 'p', text: lines.join('\n') });
      lines = [];
    };
    const flushItems = () => {
      if (items && items.length) blocks.push({ type: 'ul', items });
      items = null;
    };
    for (const raw of para.split('\n')) {
      const line = raw.trim();
      if (!line) continue;
      if (BULLET.test(line)) {
        flushLines();
        if (!items) items = [];
        items.push(line.replace(BULLET, ''));
      } else {
        flushItems();
        lines.push(line);
      }
    }
    flushLines();
    flushItems();
  }
  return blocks;
}

function blocksEl(text) {
  return howToBlocks(text).map((b) => (b.type === 'ul'
    ? h('ul', { class: 'howto-list' }, b.items.map((item) => h('li', null, item)))
    : h('p', null, b.text)));
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

let dialogCount = 0;

/**
 * Opens the how-to-play dialog of `game` (its id) named `title` (the game's display name). Returns the
 * dialog element; it removes itself when closed and gives the focus back to `opener` (or what had it).
 */
export function openHowTo(game, title, opener = document.activeElement) {
  dialogCount += 1;
  const headingId = `howto-h-${dialogCount}`;
  const close = h('button', { type: 'button', class: 'btn subtle small howto-close', 'data-testid': 'howto-close', autofocus: true }, t('common.close'));
  const body = h('div', { class: 'howto-body', tabindex: '0', role: 'region', 'aria-labelledby': headingId },
    h('div', { class: 'howto-summary', 'data-section': 'summary' }, blocksEl(t(`howto.${game}.summary`))),
    HOWTO_SECTIONS.map((id) => h('section', { class: 'howto-section', 'data-section': id },
      h('h3', null, t(`help.section.${id}`)),
      blocksEl(t(`howto.${game}.${id}`)))));
  const dialog = h('dialog', { class: 'howto', 'aria-labelledby': headingId, 'data-testid': 'howto', 'data-game': game },
    h('div', { class: 'howto-head' }, h('h2', { id: headingId }, t('help.title', { game: title })), close),
    body);
  close.addEventListener('click', () => dialog.close());
  // The keyboard stays in the dialog: Tab from the last control goes to the first, Shift+Tab the other way.
  dialog.addEventListener('keydown', (e) => {
    if (e.key !== 'Tab') return;
    const items = [...dialog.querySelectorAll(FOCUSABLE)].filter((el) => el.offsetParent !== null || el === document.activeElement);
    if (items.length === 0) { e.preventDefault(); return; }
    const first = items[0];
    const last = items[items.length - 1];
    if (e.shiftKey && (document.activeElement === first || !dialog.contains(document.activeElement))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (document.activeElement === last || !dialog.contains(document.activeElement))) {
      e.preventDefault();
      first.focus();
    }
  });
  // A click on the backdrop (outside the dialog's box) closes it too.
  dialog.addEventListener('click', (e) => {
    if (e.target !== dialog) return;
    const r = dialog.getBoundingClientRect();
    if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) dialog.close();
  });
  dialog.addEventListener('close', () => {
    dialog.remove();
    if (opener && opener.isConnected && typeof opener.focus === 'function') opener.focus({ preventScroll: true });
  });
  document.body.append(dialog);
  dialog.showModal();
  close.focus();
  return dialog;
}

/**
 * A "How to play" button: `game()` gives the game's id (null: nothing to show yet) and `title(id)` its
 * display name; the button's accessible name says which game.
 */
export function howToButton({ game, title, className = 'btn small subtle', testid = 'howto-open' }) {
  const button = h('button', {
    type: 'button', class: [className, 'howto-open'], 'data-testid': testid,
    onclick: () => {
      const id = game();
      if (id) openHowTo(id, title(id), button);
    },
  }, t('help.button'));
  /** The accessible name for the game shown now (the text says only "How to play"). */
  button.relabel = () => {
    const id = game();
    const text = t('help.button');
    if (button.textContent !== text) button.textContent = text;
    const label = id ? t('help.buttonLabel', { game: title(id) }) : null;
    if (label && button.getAttribute('aria-label') !== label) button.setAttribute('aria-label', label);
  };
  button.relabel();
  return button;
}
