// The display-name form, used by the lobby and by a table's "take a seat" panel. The name is
// remembered in the browser and told to the server at once (set_name) and on every hello. A signed-in
// connection plays under its account's name (the server refuses set_name): the form then says so instead.
import { h, append } from '../core/dom.js';
import { t } from '../core/i18n/index.js';
import { errorText } from '../core/errors.js';

const MAX_NAME = 32;

/** Trims ASCII whitespace like the server; returns null for a name the server would refuse. */
export function cleanName(raw) {
  const name = String(raw ?? '').replace(/^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g, '');
  if (name === '' || [...name].length > MAX_NAME) return null;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return null;
  return name;
}

let formCount = 0;

export function nameForm({ conn, store, compact = false }) {
  formCount += 1;
  const id = `name-input-${formCount}`;
  const hintId = `${id}-hint`;
  const status = h('p', { class: 'form-status', role: 'status', 'aria-live': 'polite' });
  const input = h('input', {
    id, name: 'name', type: 'text', autocomplete: 'nickname', maxlength: '64', required: true,
    value: store.name() || '', placeholder: conn.name || '', 'aria-describedby': hintId, spellcheck: 'false',
  });
  const fields = h('div', { class: 'name-fields' });
  const account = h('p', { class: 'name-account', 'data-testid': 'name-account', hidden: true });
  const showCurrent = () => {
    const signedIn = Boolean(conn.account);
    fields.hidden = signedIn;
    account.hidden = !signedIn;
    if (signedIn) {
      account.textContent = t('lobby.name.account', { name: conn.account.name });
      return;
    }
    if (!input.placeholder && conn.name) input.placeholder = conn.name;
    if (!status.textContent && conn.name) status.textContent = t('lobby.name.current', { name: conn.name });
  };
  const off = conn.on('ready', showCurrent);
  /** Checks and saves the typed name; the saved name, or null (the form says why). */
  async function save() {
    if (conn.account) return conn.account.name;
    const name = cleanName(input.value);
    if (name === null) {
      status.textContent = t('error.bad_name');
      status.dataset.kind = 'error';
      input.setAttribute('aria-invalid', 'true');
      input.focus();
      return null;
    }
    input.removeAttribute('aria-invalid');
    store.setName(name);
    input.value = name;
    try {
      const saved = conn.ready ? await conn.setName(name) : name;
      status.dataset.kind = 'ok';
      status.textContent = t('lobby.name.saved', { name: saved });
      return saved;
    } catch (err) {
      status.dataset.kind = 'error';
      status.textContent = errorText(err);
      return null;
    }
  }
  const form = h('form', {
    class: ['name-form', compact ? 'compact' : ''],
    onsubmit: (e) => {
      e.preventDefault();
      save();
    },
  },
  account,
  append(fields,
    [h('label', { for: id }, t('lobby.name.label')),
      h('div', { class: 'inline-field' },
        input,
        h('button', { type: 'submit', class: 'btn', 'data-testid': 'save-name' }, t('lobby.name.save'))),
      h('p', { class: 'hint', id: hintId }, t('lobby.name.hint')),
      status]));
  if (conn.ready) showCurrent();
  return { el: form, save, destroy: off };
}
