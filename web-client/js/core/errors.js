// A refused request in words: the client's own text for the codes it knows, else the server's
// message (protocol/README.md: program against `code`, show `message`). A refusal that says when to try
// again (an account request's 429, `retryAfter` seconds) is said with its wait when the code has words for it
// (`error.<code>.wait`, plural by minutes). A `scope` says the words of a part that reads a code its own way
// (`friends.error.already_seated`: the friend invited is at the table already), before the general ones.
// A suspended account's sign-in says the server's words (they hold the moderator's reason) and until when.
import { t, has, language } from './i18n/index.js';

export function errorText(err, scope = null) {
  const code = err && err.code;
  if (code && scope && has(`${scope}.error.${code}`)) return t(`${scope}.error.${code}`);
  if (code === 'suspended' && Number.isFinite(err.until)) {
    const until = new Intl.DateTimeFormat(language(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(err.until * 1000));
    return t('error.suspendedUntil', { message: err.message || '', until });
  }
  const wait = err && Number(err.retryAfter);
  if (code && wait > 0 && has(`error.${code}.wait`)) return t(`error.${code}.wait`, { count: Math.ceil(wait / 60) });
  if (code && has(`error.${code}`)) return t(`error.${code}`);
  return t('error.generic', { message: (err && err.message) || String(err) });
}
