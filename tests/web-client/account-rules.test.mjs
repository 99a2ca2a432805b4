// js/models/account-rules.js: the password rule (the server's: 8 to 256 bytes of UTF-8), passkey labels, the
// order of the account page's lists, and the words of methods, devices and times.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  PASSWORD_MAX_BYTES, PASSWORD_MIN_BYTES, cleanLabel, deviceWords, methodWords, passkeyRows, passwordProblem,
  sessionRows, signInRows, timeWords, utf8Bytes,
} from '../../web-client/js/models/account-rules.js';

const t = (key, params) => (params ? `${key} ${JSON.stringify(params)}` : key);

test('a password is counted in bytes of UTF-8, as the server counts it', () => {
  assert.equal(PASSWORD_MIN_BYTES, 8);
  assert.equal(PASSWORD_MAX_BYTES, 256);
  assert.equal(utf8Bytes('abc'), 3);
  assert.equal(utf8Bytes('パスワード'), 15);
  assert.equal(utf8Bytes('🎲'), 4);
  assert.equal(passwordProblem(''), 'empty');
  assert.equal(passwordProblem('1234567'), 'short');
  assert.equal(passwordProblem('12345678'), null);
  assert.equal(passwordProblem('密码密'), null, 'three CJK characters are 9 bytes: enough');
  assert.equal(passwordProblem('密码'), 'short', 'two are 6');
  assert.equal(passwordProblem('x'.repeat(256)), null);
  assert.equal(passwordProblem('x'.repeat(257)), 'long');
  assert.equal(passwordProblem('é'.repeat(129)), 'long', '258 bytes in 129 characters');
});

test('the confirmation must match, and is checked only when asked', () => {
  assert.equal(passwordProblem('correct horse', 'correct horse'), null);
  assert.equal(passwordProblem('correct horse', 'correct hose'), 'mismatch');
  assert.equal(passwordProblem('correct horse', ''), 'mismatch');
  assert.equal(passwordProblem('correct horse'), null);
  assert.equal(passwordProblem('short', 'short'), 'short', 'the rule comes before the confirmation');
});

test('passkey labels: trimmed, spaces folded, at most 64 characters; empty means "name it for me"', () => {
  assert.equal(cleanLabel('  My   phone '), 'My phone');
  assert.equal(cleanLabel(''), '');
  assert.equal(cleanLabel(undefined), '');
  assert.equal(cleanLabel('手'.repeat(64)), '手'.repeat(64));
  assert.equal(cleanLabel('x'.repeat(65)), null);
});

test('sessions: this device first, then the most recently seen', () => {
  const rows = sessionRows([
    { id: 'a', last_seen_at: 10 }, { id: 'b', last_seen_at: 30 }, { id: 'c', last_seen_at: 5, current: true }, { id: 'd', last_seen_at: 20 },
  ]);
  assert.deepEqual(rows.map((s) => s.id), ['c', 'b', 'd', 'a']);
  assert.deepEqual(sessionRows(undefined), []);
});

test('sign-ins newest first and capped; passkeys oldest first', () => {
  const signIns = Array.from({ length: 25 }, (_, i) => ({ at: i }));
  const rows = signInRows(signIns);
  assert.equal(rows.length, 20);
  assert.equal(rows[0].at, 24);
  assert.equal(signInRows(signIns, 3).length, 3);
  assert.deepEqual(passkeyRows([{ id: 'new', created_at: 9 }, { id: 'old', created_at: 1 }]).map((p) => p.id), ['old', 'new']);
});

test('methods, devices and times in words', () => {
  assert.equal(methodWords('passkey', t), 'account.method.passkey');
  assert.equal(methodWords('password', t), 'account.method.password');
  assert.equal(methodWords('sso', t), 'sso', 'a way this client does not know, as it came');
  assert.equal(deviceWords('Chrome on Linux', t), 'Chrome on Linux');
  assert.equal(deviceWords('a browser', t), 'account.device.unknown', 'the server could not tell');
  assert.equal(deviceWords('', t), 'account.device.unknown');
  assert.equal(timeWords(0, 'en'), '', 'never');
  const when = timeWords(1764320000, 'en');
  assert.match(when, /2025/);
  assert.notEqual(timeWords(1764320000, 'ja'), when, 'each language writes it its own way');
});
