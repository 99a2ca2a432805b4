// A refused request in words: the client's own text for the codes it knows, else the server's
// message (protocol/README.md: program against `code`, show `message`). A refusal that says when to try
// again (an account request's 429, `retryAfter` seconds) is said with its wait when the code has words for it
// (`error.<code>.wait`, plural by minutes).
import { t, has } from './i18n/index.js';

export function errorText(err) {
  const code = err && err.code;
  const wait = err && Number(err.retryAfter);
  if (code && wait > 0 && has(`error.${code}.wait`)) return t(`error.${code}.wait`, { count: Math.ceil(wait / 60) });
  if (code && has(`error.${code}`)) return t(`error.${code}`);
  return t('error.generic', { message: (err && err.message) || String(err) });
}
