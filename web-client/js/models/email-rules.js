// The pure decisions of the account page's "E-mail notifications" (tests/web-client/email-rules.test.mjs): what
// an address must look like before it is sent (the server checks again: bad_address), the delays a "your turn"
// mail may wait, which state the section is in, and the body of POST /api/account/notifications for one changed
// preference (protocol: any subset of the keys; each change is sent alone).

export const ADDRESS_MAX_CHARS = 254;
/** The minutes a "your turn" mail may wait (the server takes these only), shortest first. */
export const DELAY_CHOICES = Object.freeze([0, 5, 10, 30, 60, 180, 720]);
/** The mails one can turn on or off, in the order the page lists them. */
export const NOTIFY_KEYS = Object.freeze(['your_turn', 'game_over', 'invited', 'low_clock', 'digest']);
/** The languages a mail can be written in. */
export const MAIL_LANGUAGES = Object.freeze(['en', 'ja', 'zh-Hans', 'zh-Hant']);

/** An address as it is sent: trimmed. */
export function cleanAddress(raw) {
  return String(raw ?? '').trim();
}

/**
 * What is wrong with a typed address, or null: 'empty', 'long' (over 254 characters), 'invalid' (not one @, a
 * space inside, nothing before the @, no dot inside the domain).
 */
export function addressProblem(raw) {
  const address = cleanAddress(raw);
  if (address === '') return 'empty';
  if ([...address].length > ADDRESS_MAX_CHARS) return 'long';
  if (/\s/.test(address)) return 'invalid';
  const parts = address.split('@');
  if (parts.length !== 2 || parts[0] === '') return 'invalid';
  // A dot with something on both sides ("b.c"), so "a@b", "a@.b" and "a@b." are refused.
  return /^[^.]+(\.[^.]+)+$/.test(parts[1]) ? null : 'invalid';
}

/** The delay choice to show for `minutes`: itself when offered, else the nearest offered one (ties: the shorter). */
export function delayChoice(minutes) {
  const m = Number(minutes);
  if (!Number.isFinite(m)) return DELAY_CHOICES[0];
  return DELAY_CHOICES.reduce((best, c) => (Math.abs(c - m) < Math.abs(best - m) ? c : best));
}

/** The catalog key of a delay's words ("at once", "5 minutes", …). */
export function delayKey(minutes) {
  return `account.email.delay.${minutes}`;
}

/**
 * The e-mail part of GET /api/account (or of a POST's answer) as the page shows it: `state` is 'off' (the server
 * sends no mail; also an answer without the part, from a server that has none), 'none', 'pending' or
 * 'confirmed' (an address confirmed; a newer one may be pending beside it); `prefs` whether the preferences show:
 * with an address, or with `pushDevices` (browsers getting pushes: the same preferences say what they are told),
 * even on a server that sends no mail.
 */
export function emailView(email, pushDevices = 0) {
  if (!email || typeof email !== 'object') return { state: 'off', prefs: false };
  const available = email.available === true;
  const address = available && typeof email.address === 'string' && email.address ? email.address : null;
  const pending = available && typeof email.pending === 'string' && email.pending ? email.pending : null;
  const notify = email.notify && typeof email.notify === 'object' ? email.notify : {};
  const on = {};
  for (const key of NOTIFY_KEYS) on[key] = Boolean(notify[key]);
  const pushed = Number.isInteger(pushDevices) && pushDevices > 0;
  if (!available && !pushed) return { state: 'off', prefs: false };
  return {
    state: !available ? 'off' : (address ? 'confirmed' : (pending ? 'pending' : 'none')),
    address,
    pending,
    prefs: Boolean(address || pending || pushed),
    notify: on,
    delay: delayChoice(notify.turn_delay_minutes),
    language: MAIL_LANGUAGES.includes(email.language) ? email.language : 'en',
  };
}

/**
 * The body of POST /api/account/notifications for one control's new value (a checkbox's `checked`, a select's
 * `value`), or null when it is no change from `view` (emailView's) or not a value the server takes.
 */
export function prefBody(view, key, value) {
  if (key === 'turn_delay_minutes') {
    const minutes = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
    if (!DELAY_CHOICES.includes(minutes) || minutes === view.delay) return null;
    return { turn_delay_minutes: minutes };
  }
  if (key === 'language') {
    if (!MAIL_LANGUAGES.includes(value) || value === view.language) return null;
    return { language: value };
  }
  if (!NOTIFY_KEYS.includes(key) || typeof value !== 'boolean' || value === view.notify[key]) return null;
  return { [key]: value };
}

/** The value of one preference in `view` (emailView's), by its key in the POST body. */
export function prefValue(view, key) {
  if (key === 'turn_delay_minutes') return view.delay;
  if (key === 'language') return view.language;
  return view.notify[key];
}

/** `view` as it will be once the server took `body` (prefBody's): what the next change is compared with. */
export function withPrefs(view, body) {
  const next = { ...view, notify: { ...view.notify } };
  for (const [key, value] of Object.entries(body || {})) {
    if (key === 'turn_delay_minutes') next.delay = value;
    else if (key === 'language') next.language = value;
    else if (NOTIFY_KEYS.includes(key)) next.notify[key] = value;
  }
  return next;
}
