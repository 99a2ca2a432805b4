// A refused request in words: the client's own text for the codes it knows, else the server's
// message (protocol/README.md: program against `code`, show `message`).
import { t, has } from './i18n/index.js';

export function errorText(err) {
  const code = err && err.code;
  if (code && has(`error.${code}`)) return t(`error.${code}`);
  return t('error.generic', { message: (err && err.message) || String(err) });
}
