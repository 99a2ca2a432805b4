// The account's pure decisions (tests/web-client/account-rules.test.mjs): what a password must be (the server's
// rule, docs/accounts.md: 8 to 256 bytes of UTF-8), what a sign-up or a change of password form lacks, the order
// the account page lists sessions and sign-ins in, and the words of a device, a way of signing in and a time.

export const PASSWORD_MIN_BYTES = 8;
export const PASSWORD_MAX_BYTES = 256;
export const LABEL_MAX_CHARS = 64;

/** The length of `text` in bytes of UTF-8 (what the server counts). */
export function utf8Bytes(text) {
  return new TextEncoder().encode(String(text ?? '')).length;
}

/**
 * What is wrong with a new password, or null: 'empty', 'short' (under 8 bytes), 'long' (over 256), 'mismatch'
 * (the confirmation differs; only when `confirm` is given).
 */
export function passwordProblem(password, confirm = undefined) {
  const p = String(password ?? '');
  if (p === '') return 'empty';
  const n = utf8Bytes(p);
  if (n < PASSWORD_MIN_BYTES) return 'short';
  if (n > PASSWORD_MAX_BYTES) return 'long';
  if (confirm !== undefined && String(confirm ?? '') !== p) return 'mismatch';
  return null;
}

/** A passkey's label as the server keeps it: trimmed, '' for "name it for me"; null when it is too long. */
export function cleanLabel(raw) {
  const label = String(raw ?? '').trim().replace(/\s+/g, ' ');
  return [...label].length > LABEL_MAX_CHARS ? null : label;
}

/** The sessions to list: this device's first, then the most recently seen. */
export function sessionRows(sessions) {
  return [...(sessions || [])].sort((a, b) => Number(Boolean(b.current)) - Number(Boolean(a.current))
    || (b.last_seen_at || 0) - (a.last_seen_at || 0));
}

/** The sign-ins to list: newest first, at most `max`. */
export function signInRows(signIns, max = 20) {
  return [...(signIns || [])].sort((a, b) => (b.at || 0) - (a.at || 0)).slice(0, max);
}

/** The passkeys to list: oldest first (the first one made comes first, as on most sites). */
export function passkeyRows(passkeys) {
  return [...(passkeys || [])].sort((a, b) => (a.created_at || 0) - (b.created_at || 0));
}

/** A way of signing in in words ('passkey', 'password'; another one as it came). */
export function methodWords(method, t) {
  return method === 'passkey' || method === 'password' ? t(`account.method.${method}`) : String(method || '');
}

/** A device as the server names it ("Chrome on Linux"; "a browser" when it could not tell) in words. */
export function deviceWords(device, t) {
  return !device || device === 'a browser' ? t('account.device.unknown') : String(device);
}

/** A time (Unix seconds) the way `lang` writes a date and time; '' for none (0: never). */
export function timeWords(seconds, lang) {
  if (!seconds) return '';
  const date = new Date(seconds * 1000);
  try {
    return date.toLocaleString(lang, { dateStyle: 'medium', timeStyle: 'short' });
  } catch {
    return date.toLocaleString();
  }
}
