// The account page's "E-mail notifications": the address mails go to (entered, then confirmed through a link the
// server mails to it; pending until then), and which mails to send, after how long and in which language. Each
// preference is saved as it changes, one POST each, in order. A server that sends no mail says so; the preferences
// still show when this account's browsers get pushes (account/push-settings.js), whom they tell the same.
// The rules (the address check, the delays, the body of a change) are js/models/email-rules.js.
import { h } from '../../core/dom.js';
import { t, language, LANGUAGES } from '../../core/i18n/index.js';
import { errorText } from '../../core/errors.js';
import { formStatus } from '../../ui/form-status.js';
import { createActor } from './act.js';
import {
  ADDRESS_MAX_CHARS, DELAY_CHOICES, MAIL_LANGUAGES, NOTIFY_KEYS, addressProblem, cleanAddress, delayKey, emailView,
  prefBody, prefValue, withPrefs,
} from '../../models/email-rules.js';

const INPUT_ID = 'account-email-input';

/** `reload()` asks for the account again and draws the page, `redraw()` draws it from the last answer. */
export function createEmailSettings({ accounts, reload, redraw }) {
  const status = formStatus('account-email-status');
  const saved = formStatus('account-email-saved');
  let changing = false; // the address form is open beside a confirmed or pending address
  let section = null; // the section last drawn
  let expected = null; // the preferences as they will be once every change sent is saved (emailView's)
  let saving = Promise.resolve();
  let inFlight = 0; // preference changes sent or waiting
  let focusAfter = null;
  let invalid = false; // the server refused the address typed (bad_address)

  function emailError(err) {
    const wait = Number(err && err.retryAfter);
    if (err && err.code === 'too_many_mails' && wait > 0) {
      return t('account.email.error.too_many_mails.wait', { count: Math.ceil(wait / 60) });
    }
    return errorText(err, 'account.email');
  }

  /** Runs one request about the address, says how it went, and draws the page again from a fresh answer. */
  const act = createActor({
    status, reload, describe: (err) => emailError(err),
    settle(err, { after }) {
      if (!err) {
        changing = false;
        invalid = false;
        focusAfter = after;
      } else {
        invalid = err.code === 'bad_address';
        focusAfter = invalid ? `#${INPUT_ID}` : focusedSelector();
      }
    },
  });

  function send(address, after = '[data-testid=account-email-resend]') {
    return act(() => accounts.setEmail(address, language()), { ok: () => t('account.email.sent', { address }), after });
  }

  function submit(input) {
    const problem = addressProblem(input.value);
    invalid = Boolean(problem);
    if (problem) {
      input.setAttribute('aria-invalid', 'true');
      input.focus();
      status.set('error', () => t(`account.email.problem.${problem}`, { max: ADDRESS_MAX_CHARS }));
      return;
    }
    input.removeAttribute('aria-invalid');
    send(cleanAddress(input.value));
  }

  /** Sends one changed preference after those before it; a refused one goes back to what the server keeps. */
  function change(key, value, control) {
    const body = prefBody(expected, key, value);
    if (!body) return;
    const before = expected;
    expected = withPrefs(expected, body);
    inFlight += 1;
    saved.set('busy', () => t('account.email.saving'));
    saving = saving.then(async () => {
      try {
        await accounts.setNotifications(body);
        if (inFlight === 1) saved.set('ok', () => t('account.email.saved'));
      } catch (err) {
        saved.set('error', () => emailError(err));
        const kept = prefValue(before, key);
        expected = withPrefs(expected, { [key]: kept });
        // Back to the value kept, before the page is drawn again: the redraw keeps the fields' values as they are
        // (and would send this one again).
        const now = (section && section.querySelector(`[data-pref="${key}"]`)) || control;
        if (now.type === 'checkbox') now.checked = kept;
        else now.value = String(kept);
      } finally {
        inFlight -= 1;
      }
      if (inFlight === 0) {
        focusAfter = focusedSelector();
        await reload();
      }
    }).catch((err) => console.error('emporium: saving an e-mail preference failed', err));
  }

  /** A selector of the element of this section that has the focus, to focus it again once the page is drawn. */
  function focusedSelector() {
    const active = section && section.ownerDocument.activeElement;
    const id = active && section.contains(active) ? active.getAttribute('data-testid') : null;
    return id ? `[data-testid="${id}"]` : null;
  }

  function addressForm(v) {
    const input = h('input', {
      type: 'email', id: INPUT_ID, name: 'email', autocomplete: 'email', spellcheck: 'false', autocapitalize: 'off',
      'aria-describedby': 'account-email-input-hint', 'aria-invalid': invalid ? 'true' : null, 'data-testid': 'account-email-input',
    });
    const open = v.address || v.pending;
    return h('form', {
      class: 'account-form', novalidate: true,
      onsubmit: (e) => { e.preventDefault(); submit(input); },
    },
    h('div', { class: 'field' },
      h('label', { for: INPUT_ID }, t(open ? 'account.email.newAddress' : 'account.email.address')),
      input,
      h('p', { class: 'hint', id: 'account-email-input-hint' }, t('account.email.confirmHint'))),
    h('div', { class: 'buttons' },
      h('button', { type: 'submit', class: 'btn primary', 'data-testid': 'account-email-send' }, t('account.email.send')),
      open ? h('button', {
        type: 'button', class: 'btn subtle', 'data-testid': 'account-email-cancel',
        onclick: () => { changing = false; status.clear(); focusAfter = v.address ? '[data-testid=account-email-change]' : '[data-testid=account-email-another]'; redraw(); },
      }, t('common.cancel')) : null));
  }

  /** "Change" and "Use another address": the address form beside the address kept. */
  function openForm() {
    changing = true;
    status.clear();
    focusAfter = `#${INPUT_ID}`;
    redraw();
  }

  const removeButton = () => h('button', {
    type: 'button', class: 'btn small subtle', 'data-testid': 'account-email-remove',
    onclick: () => act(() => accounts.removeEmail(), { ok: () => t('account.email.removed'), after: `#${INPUT_ID}` }),
  }, t('account.email.remove'));

  function addressPart(v) {
    const parts = [];
    if (v.address) {
      parts.push(h('div', { class: 'account-item' },
        h('div', { class: 'account-item-main' },
          h('span', { class: 'account-item-facts' }, t('account.email.goesTo')),
          h('strong', { class: 'account-item-title', 'data-testid': 'account-email-address' }, v.address)),
        h('div', { class: 'buttons' },
          changing ? null : h('button', {
            type: 'button', class: 'btn small', 'data-testid': 'account-email-change',
            onclick: openForm,
          }, t('account.email.change')),
          removeButton())));
    }
    if (v.pending) {
      parts.push(h('div', { class: 'email-pending', 'data-testid': 'account-email-pending' },
        h('p', null, t('account.email.pending', { address: v.pending })),
        h('div', { class: 'buttons' },
          h('button', { type: 'button', class: 'btn small', 'data-testid': 'account-email-resend', onclick: () => send(v.pending) },
            t('account.email.sendAgain')),
          changing ? null : h('button', {
            type: 'button', class: 'btn small subtle', 'data-testid': 'account-email-another',
            onclick: openForm,
          }, t('account.email.another')),
          v.address ? null : removeButton())));
    }
    if (v.state === 'none' || changing) parts.push(addressForm(v));
    return parts;
  }

  function checkbox(key, extra = null) {
    const id = `account-email-pref-${key}`;
    return h('div', { class: 'email-pref' },
      h('div', { class: 'field field--check' },
        h('input', {
          type: 'checkbox', id, name: id, value: 'on', checked: expected.notify[key], 'data-pref': key, 'data-testid': id,
          onchange: (e) => change(key, e.currentTarget.checked, e.currentTarget),
        }),
        h('label', { for: id, class: 'check-label' }, t(`account.email.pref.${key}`))),
      extra);
  }

  function select({ id, pref, label, value, options }) {
    return h('div', { class: 'field email-select' },
      h('label', { for: id }, label),
      h('select', {
        id, name: id, 'data-pref': pref, 'data-testid': id,
        onchange: (e) => change(pref, e.currentTarget.value, e.currentTarget),
      }, options.map(([v, words]) => h('option', { value: String(v), selected: String(v) === String(value) }, words))));
  }

  // `pushed`: this account's browsers get pushes too, which the same preferences govern: the words say so.
  function preferences(pushed) {
    const words = (key) => t(pushed ? `account.notify.${key}` : `account.email.${key}`);
    const delay = select({
      id: 'account-email-delay', pref: 'turn_delay_minutes', label: words('delay'), value: expected.delay,
      options: DELAY_CHOICES.map((m) => [m, t(delayKey(m))]),
    });
    const names = new Map(LANGUAGES.map((l) => [l.id, l.name]));
    return h('div', { class: 'email-prefs' },
      h('fieldset', null,
        h('legend', null, words('prefs')),
        NOTIFY_KEYS.map((key) => checkbox(key, key === 'your_turn' ? delay : null))),
      select({
        id: 'account-email-language', pref: 'language', label: words('language'), value: expected.language,
        options: MAIL_LANGUAGES.map((id) => [id, names.get(id) || id]),
      }),
      saved.render());
  }

  function render(details) {
    const devices = details.push && details.push.devices;
    const v = emailView(details.email, devices);
    const pushed = Number.isInteger(devices) && devices > 0;
    // A change on its way is not in the answer yet: keep comparing with what was sent.
    if (inFlight === 0) expected = v;
    section = h('section', { class: 'card account-section', 'aria-labelledby': 'email-h', 'data-testid': 'account-email' },
      h('h2', { id: 'email-h' }, t('account.email.heading')),
      v.state === 'off'
        ? [h('p', { class: 'hint', 'data-testid': 'account-email-off' }, t('account.email.off')), v.prefs ? preferences(pushed) : null]
        : [h('p', { class: 'hint' }, t('account.email.intro')), addressPart(v), status.render(), v.prefs ? preferences(pushed) : null]);
    return section;
  }

  /** The element to focus once the page is drawn (after an action), or null. */
  function takeFocus(root) {
    const selector = focusAfter;
    focusAfter = null;
    return selector ? root.querySelector(selector) : null;
  }

  return { render, takeFocus };
}
