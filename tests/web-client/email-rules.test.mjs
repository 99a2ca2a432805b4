// js/models/email-rules.js: the address check before it is sent, the delays of a "your turn" mail, the section's
// state from GET /api/account's "email", and the body of POST /api/account/notifications for one changed
// preference; and js/core/accounts.js's three e-mail requests against a fake server.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import {
  ADDRESS_MAX_CHARS, DELAY_CHOICES, MAIL_LANGUAGES, NOTIFY_KEYS, addressProblem, cleanAddress, delayChoice, delayKey,
  emailView, prefBody, withPrefs,
} from '../../web-client/js/models/email-rules.js';
import { Accounts } from '../../web-client/js/core/accounts.js';
import en from '../../web-client/js/core/i18n/en.js';

const EMAIL = {
  available: true, address: 'ann@example.org', pending: null, language: 'ja',
  notify: { your_turn: true, turn_delay_minutes: 10, game_over: true, invited: true, low_clock: true, digest: false },
};

describe('the address check', () => {
  test('a plain address passes, trimmed', () => {
    for (const a of ['ann@example.org', '  ann@example.org\n', 'a.b+c@mail.example.co.uk', 'x@y.z', 'añn@exämple.org']) {
      assert.equal(addressProblem(a), null, a);
    }
    assert.equal(cleanAddress('  ann@example.org \t'), 'ann@example.org');
  });

  test('empty, or only spaces, is "empty"', () => {
    for (const a of ['', '   ', null, undefined]) assert.equal(addressProblem(a), 'empty', String(a));
  });

  test('one @, something before it, no spaces, a dot inside the domain', () => {
    for (const a of ['ann', 'ann@', '@example.org', 'ann@@example.org', 'ann@b@example.org', 'ann@example', 'ann@.org',
      'ann@example.', 'ann@example..org', 'ann smith@example.org', 'ann@exa mple.org', 'ann@example.org\u00a0x']) {
      assert.equal(addressProblem(a), 'invalid', a);
    }
  });

  test('at most 254 characters, spaces around not counted', () => {
    const at254 = `${'a'.repeat(254 - '@example.org'.length)}@example.org`;
    assert.equal(ADDRESS_MAX_CHARS, 254);
    assert.equal(at254.length, 254);
    assert.equal(addressProblem(`  ${at254}  `), null);
    assert.equal(addressProblem(`a${at254}`), 'long');
  });
});

describe('the delays', () => {
  test('the choices are the server\'s, shortest first, each with its words in English', () => {
    assert.deepEqual([...DELAY_CHOICES], [0, 5, 10, 30, 60, 180, 720]);
    for (const m of DELAY_CHOICES) assert.equal(typeof en[delayKey(m)], 'string', delayKey(m));
  });

  test('a value offered is itself; another one is shown as the nearest choice', () => {
    for (const m of DELAY_CHOICES) assert.equal(delayChoice(m), m);
    assert.equal(delayChoice(7), 5);
    assert.equal(delayChoice(7.5), 5, 'a tie goes to the shorter');
    assert.equal(delayChoice(8), 10);
    assert.equal(delayChoice(100), 60);
    assert.equal(delayChoice(100000), 720);
    assert.equal(delayChoice(-3), 0);
    assert.equal(delayChoice(undefined), 0);
    assert.equal(delayChoice('abc'), 0);
  });
});

describe('the section\'s state', () => {
  test('available=false, or no "email" at all, is off: no form, no preferences', () => {
    for (const e of [{ ...EMAIL, available: false }, undefined, null, {}]) {
      assert.deepEqual(emailView(e), { state: 'off', prefs: false });
    }
  });

  test('browsers getting pushes show the preferences, even on a server that sends no mail', () => {
    const pushOnly = emailView({ ...EMAIL, available: false }, 1);
    assert.equal(pushOnly.state, 'off');
    assert.equal(pushOnly.prefs, true);
    assert.equal(pushOnly.address, null, 'no address is shown from a server that sends no mail');
    assert.equal(pushOnly.delay, 10);
    const noAddress = emailView({ ...EMAIL, address: null }, 2);
    assert.equal(noAddress.state, 'none');
    assert.equal(noAddress.prefs, true);
    assert.equal(emailView({ ...EMAIL, address: null }, 0).prefs, false);
  });

  test('none, pending, confirmed; the preferences once an address is confirmed or pending', () => {
    const none = emailView({ ...EMAIL, address: null });
    assert.equal(none.state, 'none');
    assert.equal(none.prefs, false);
    const pending = emailView({ ...EMAIL, address: null, pending: 'new@example.org' });
    assert.equal(pending.state, 'pending');
    assert.equal(pending.pending, 'new@example.org');
    assert.equal(pending.prefs, true);
    const both = emailView({ ...EMAIL, pending: 'new@example.org' });
    assert.equal(both.state, 'confirmed');
    assert.equal(both.address, 'ann@example.org');
    assert.equal(both.pending, 'new@example.org');
    assert.equal(both.prefs, true);
  });

  test('the preferences as the server keeps them; unknown values fall back', () => {
    const v = emailView(EMAIL);
    assert.deepEqual(v.notify, { your_turn: true, game_over: true, invited: true, low_clock: true, digest: false });
    assert.equal(v.delay, 10);
    assert.equal(v.language, 'ja');
    const odd = emailView({ ...EMAIL, language: 'fr', notify: { turn_delay_minutes: 15 } });
    assert.equal(odd.language, 'en');
    assert.equal(odd.delay, 10);
    assert.deepEqual(odd.notify, { your_turn: false, game_over: false, invited: false, low_clock: false, digest: false });
  });
});

describe('a changed preference\'s body', () => {
  const v = emailView(EMAIL);

  test('a checkbox sends its key alone', () => {
    assert.deepEqual(prefBody(v, 'digest', true), { digest: true });
    assert.deepEqual(prefBody(v, 'your_turn', false), { your_turn: false });
    for (const key of NOTIFY_KEYS) assert.deepEqual(prefBody(v, key, !v.notify[key]), { [key]: !v.notify[key] });
  });

  test('the delay is sent as a number of minutes, only one the server takes', () => {
    assert.deepEqual(prefBody(v, 'turn_delay_minutes', '60'), { turn_delay_minutes: 60 });
    assert.deepEqual(prefBody(v, 'turn_delay_minutes', 0), { turn_delay_minutes: 0 });
    for (const bad of ['15', '-5', '5.0', '', 'x', 15, null]) assert.equal(prefBody(v, 'turn_delay_minutes', bad), null, String(bad));
  });

  test('the language is one of the four', () => {
    assert.deepEqual([...MAIL_LANGUAGES].sort(), ['en', 'ja', 'zh-Hans', 'zh-Hant']);
    assert.deepEqual(prefBody(v, 'language', 'zh-Hant'), { language: 'zh-Hant' });
    for (const bad of ['fr', 'EN', '', null]) assert.equal(prefBody(v, 'language', bad), null, String(bad));
  });

  test('no change, or a key the server does not know, sends nothing', () => {
    assert.equal(prefBody(v, 'digest', false), null);
    assert.equal(prefBody(v, 'turn_delay_minutes', '10'), null);
    assert.equal(prefBody(v, 'language', 'ja'), null);
    assert.equal(prefBody(v, 'address', 'x@y.z'), null);
    assert.equal(prefBody(v, 'digest', 'on'), null, 'a checkbox\'s value is a boolean');
  });

  test('the next change is compared with the sent ones (withPrefs), the view itself left as it was', () => {
    const sent = withPrefs(v, { digest: true });
    assert.equal(prefBody(sent, 'digest', true), null);
    assert.deepEqual(prefBody(sent, 'digest', false), { digest: false });
    assert.equal(v.notify.digest, false);
    const later = withPrefs(withPrefs(sent, { turn_delay_minutes: 180 }), { language: 'en' });
    assert.equal(later.delay, 180);
    assert.equal(later.language, 'en');
    assert.equal(later.notify.digest, true);
    assert.equal(v.delay, 10);
  });
});

describe('the requests (js/core/accounts.js)', () => {
  /** A fake server: records each POST and answers {"email": …}, or the error given for its path. */
  function fake(errors = {}) {
    const posts = [];
    const fetch = async (path, init = {}) => {
      const json = (status, body, headers = {}) => ({
        status, ok: status < 300, headers: { get: (n) => headers[n] ?? null }, json: async () => body,
      });
      if (path === '/api/session') return json(200, { signed_in: true, account: { id: 'a1', name: 'Ann' }, csrf: 'tok' });
      posts.push({ path, body: JSON.parse(init.body), csrf: init.headers['X-CSRF-Token'] });
      if (errors[path]) return json(...errors[path]);
      return json(200, { email: { ...EMAIL, pending: path.endsWith('/email') ? 'new@example.org' : null } });
    };
    return { posts, accounts: new Accounts({ fetch, scope: {} }) };
  }

  test('each sends its body with the anti-CSRF token and resolves with the e-mail part', async () => {
    const { posts, accounts } = fake();
    assert.equal((await accounts.setEmail('new@example.org', 'zh-Hans')).pending, 'new@example.org');
    assert.equal((await accounts.removeEmail()).pending, null);
    assert.equal((await accounts.setNotifications({ digest: true })).address, 'ann@example.org');
    assert.deepEqual(posts, [
      { path: '/api/account/email', body: { address: 'new@example.org', language: 'zh-Hans' }, csrf: 'tok' },
      { path: '/api/account/email/remove', body: {}, csrf: 'tok' },
      { path: '/api/account/notifications', body: { digest: true }, csrf: 'tok' },
    ]);
  });

  test('a refusal rejects with its code, a 429 with its wait', async () => {
    const { accounts } = fake({
      '/api/account/email': [429, { error: 'too_many_mails', message: 'slow down' }, { 'Retry-After': '120' }],
      '/api/account/notifications': [400, { error: 'bad_request', message: 'no' }],
    });
    await assert.rejects(accounts.setEmail('a@b.c', 'en'), (e) => e.code === 'too_many_mails' && e.retryAfter === 120 && e.status === 429);
    await assert.rejects(accounts.setNotifications({ turn_delay_minutes: 15 }), (e) => e.code === 'bad_request');
  });
});
