// js/core/accounts.js against a fake server (a fetch that answers like server/people/accounts.cpp and
// server/net/http_session.cpp) and a fake authenticator: the session and its anti-CSRF token, the headers of
// every POST, errors by code with retry_after, who is signed in and when the listeners hear of it, the
// passkey ceremonies end to end (options → browser → answer) and seat tokens handed over.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import { Accounts, AccountError, seatsToClaim } from '../../web-client/js/core/accounts.js';
import { bufferToBase64Url, base64UrlToBuffer } from '../../web-client/js/core/passkey-codec.js';

/** A fake server: `routes[method path](body, request)` → [status, json, headers?]; records every request. */
function fakeServer(routes) {
  const requests = [];
  const state = { csrf: 'tok-1' };
  const fetch = async (path, init = {}) => {
    const method = init.method || 'GET';
    const body = init.body ? JSON.parse(init.body) : undefined;
    const request = { method, path, body, headers: init.headers || {}, credentials: init.credentials };
    requests.push(request);
    const route = routes[`${method} ${path}`];
    if (!route) return response(404, { error: { code: 'not_found', message: 'no such request' } });
    const [status, json, headers = {}] = route(body, request, state);
    return response(status, json, headers);
  };
  return { fetch, requests, state };
}

function response(status, json, headers = {}) {
  return {
    status, ok: status >= 200 && status < 300,
    headers: { get: (name) => headers[name] ?? null },
    json: async () => (typeof json === 'string' ? JSON.parse(json) : json),
  };
}

/** The CSRF rule of the server: a POST without the session's token is refused. */
const guarded = (fn) => (body, req, state) => (req.headers['X-CSRF-Token'] !== state.csrf
  ? [403, { error: { code: 'bad_csrf_token', message: 'the page\'s security token is missing or old' } }]
  : fn(body, req, state));

const session = (account = null) => (body, req, state) => [200, { signed_in: Boolean(account), account, csrf: state.csrf }];

describe('the session', () => {
  test('start() reads who is signed in and the token; the listeners hear the first answer', async () => {
    const server = fakeServer({ 'GET /api/session': session({ id: 'a1', name: 'Ann' }) });
    const accounts = new Accounts({ fetch: server.fetch, scope: {} });
    const heard = [];
    accounts.on((e) => heard.push(e));
    assert.deepEqual(await accounts.start(), { id: 'a1', name: 'Ann' });
    assert.equal(accounts.known, true);
    assert.equal(accounts.available, true);
    assert.equal(accounts.signedIn, true);
    assert.equal(accounts.csrf, 'tok-1');
    assert.deepEqual(heard, [{ account: { id: 'a1', name: 'Ann' }, previous: null }]);
    assert.equal(server.requests[0].credentials, 'same-origin');
  });

  test('a guest\'s first answer is heard too (the header draws "Sign in")', async () => {
    const server = fakeServer({ 'GET /api/session': session(null) });
    const accounts = new Accounts({ fetch: server.fetch, scope: {} });
    let heard = 0;
    accounts.on(() => { heard += 1; });
    assert.equal(await accounts.start(), null);
    assert.equal(heard, 1);
    assert.equal(accounts.signedIn, false);
  });

  test('a server without accounts (404, or the page instead of JSON) leaves them unavailable, without failing', async () => {
    for (const fetch of [
      fakeServer({}).fetch,
      async () => ({ status: 200, ok: true, headers: { get: () => null }, json: async () => { throw new SyntaxError('<!doctype html>'); } }),
    ]) {
      const accounts = new Accounts({ fetch, scope: {} });
      assert.equal(await accounts.start(), null);
      assert.equal(accounts.known, true);
      assert.equal(accounts.available, false);
    }
  });

  test('a network failure at the start: known, still available, a guest for now', async () => {
    const accounts = new Accounts({ fetch: async () => { throw new TypeError('Failed to fetch'); }, scope: {} });
    assert.equal(await accounts.start(), null);
    assert.equal(accounts.known, true);
    assert.equal(accounts.available, true);
  });
});

describe('requests', () => {
  test('every POST sends JSON with the token; a refused token is fetched again once and the request repeated', async () => {
    let signIns = 0;
    const server = fakeServer({
      'GET /api/session': session(null),
      'POST /api/sign-in': guarded((body) => { signIns += 1; return [200, { account: { id: 'a1', name: body.name }, claimed: 0 }]; }),
    });
    const accounts = new Accounts({ fetch: server.fetch, scope: {} });
    await accounts.start();
    server.state.csrf = 'tok-2'; // e.g. the cookie was cleared meanwhile
    const reply = await accounts.signInWithPassword({ name: 'Ann', password: 'correct horse' });
    assert.equal(reply.account.name, 'Ann');
    assert.equal(signIns, 1);
    const posts = server.requests.filter((r) => r.method === 'POST');
    assert.equal(posts.length, 2, 'refused once, then sent again');
    assert.equal(posts[1].headers['X-CSRF-Token'], 'tok-2');
    assert.equal(posts[1].headers['Content-Type'], 'application/json');
    assert.deepEqual(posts[1].body, { name: 'Ann', password: 'correct horse', seats: [] });
  });

  test('a POST before the session was read asks for it first', async () => {
    const server = fakeServer({ 'GET /api/session': session(null), 'POST /api/sign-out': guarded(() => [200, {}]) });
    const accounts = new Accounts({ fetch: server.fetch, scope: {} });
    await accounts.signOut();
    assert.deepEqual(server.requests.map((r) => `${r.method} ${r.path}`), ['GET /api/session', 'POST /api/sign-out']);
  });

  test('a refusal is an AccountError with its code, status and retry_after (or the Retry-After header)', async () => {
    const server = fakeServer({
      'GET /api/session': session(null),
      'POST /api/sign-in': guarded(() => [429, { error: { code: 'too_many_attempts', message: 'try later', retry_after: 600 } }, { 'Retry-After': '600' }]),
      'POST /api/sign-up': guarded(() => [429, { error: { code: 'too_many_attempts', message: 'try later' } }, { 'Retry-After': '90' }]),
      'POST /api/passkeys/sign-in': guarded(() => [401, { error: { code: 'bad_credentials', message: 'wrong name or password' } }]),
    });
    const accounts = new Accounts({ fetch: server.fetch, scope: {} });
    await accounts.start();
    await assert.rejects(accounts.signInWithPassword({ name: 'Ann', password: 'x'.repeat(8) }),
      (e) => e instanceof AccountError && e.code === 'too_many_attempts' && e.status === 429 && e.retryAfter === 600);
    await assert.rejects(accounts.signUpWithPassword({ name: 'Ann', password: 'x'.repeat(8) }), (e) => e.retryAfter === 90);
    await assert.rejects(accounts.post('/api/passkeys/sign-in', {}), (e) => e.code === 'bad_credentials' && e.retryAfter === null);
    assert.equal(accounts.signedIn, false, 'nothing signed in');
  });

  test('401 not_signed_in signs the page out (the session ended elsewhere)', async () => {
    const server = fakeServer({
      'GET /api/session': session({ id: 'a1', name: 'Ann' }),
      'GET /api/account': () => [401, { error: { code: 'not_signed_in', message: 'sign in first' } }],
    });
    const accounts = new Accounts({ fetch: server.fetch, scope: {} });
    await accounts.start();
    const heard = [];
    accounts.on((e) => heard.push(e.account));
    await assert.rejects(accounts.details(), (e) => e.code === 'not_signed_in');
    assert.equal(accounts.signedIn, false);
    assert.deepEqual(heard, [null]);
  });

  test('a network failure is the code "network"', async () => {
    const accounts = new Accounts({ fetch: async () => { throw new TypeError('Failed to fetch'); }, scope: {} });
    accounts.csrf = 'tok';
    await assert.rejects(accounts.post('/api/sign-out-everywhere', {}), (e) => e.code === 'network');
  });
});

describe('who is signed in', () => {
  test('signing up, in and out: the listeners hear each change once, and nothing when nothing changed', async () => {
    const server = fakeServer({
      'GET /api/session': session(null),
      'POST /api/sign-up': guarded((body) => [200, { account: { id: 'a1', name: body.name }, claimed: body.seats.length }]),
      'POST /api/sign-out': guarded(() => [200, {}]),
      'POST /api/sign-out-everywhere': guarded(() => [200, { signed_out: 2 }]),
      'POST /api/sign-in': guarded((body) => [200, { account: { id: 'a1', name: 'Ann' }, claimed: 0 }]),
    });
    const accounts = new Accounts({ fetch: server.fetch, scope: {} });
    await accounts.start();
    const heard = [];
    accounts.on(({ account }) => heard.push(account && account.name));
    const reply = await accounts.signUpWithPassword({ name: 'Ann', password: 'long enough', seats: ['s1', 's2', 's1', '', 7] });
    assert.equal(reply.claimed, 2, 'the seat tokens went along, each once');
    assert.deepEqual(server.requests.at(-1).body.seats, ['s1', 's2']);
    await accounts.signOut();
    await accounts.signOut(); // signed out already: no news
    await accounts.signInWithPassword({ name: 'Ann', password: 'long enough' });
    assert.equal(await accounts.signOutEverywhere(), 2);
    assert.deepEqual(heard, ['Ann', null, 'Ann', null]);
  });

  test('a sign-out the server refuses still signs the page out', async () => {
    const server = fakeServer({
      'GET /api/session': session({ id: 'a1', name: 'Ann' }),
      'POST /api/sign-out': guarded(() => [503, { error: { code: 'store_unavailable', message: 'later' } }]),
    });
    const accounts = new Accounts({ fetch: server.fetch, scope: {} });
    await accounts.start();
    await assert.rejects(accounts.signOut(), (e) => e.code === 'store_unavailable');
    assert.equal(accounts.signedIn, false);
  });

  test('deleting the account and signing this session out sign the page out; another session does not', async () => {
    const server = fakeServer({
      'GET /api/session': session({ id: 'a1', name: 'Ann' }),
      'POST /api/account/sessions/sign-out': guarded(() => [200, {}]),
      'POST /api/account/delete': guarded((body) => (body.name === 'Ann' ? [200, {}] : [400, { error: { code: 'confirm_with_name', message: 'type it' } }])),
    });
    const accounts = new Accounts({ fetch: server.fetch, scope: {} });
    await accounts.start();
    await accounts.signOutSession('other-session');
    assert.equal(accounts.signedIn, true);
    await assert.rejects(accounts.deleteAccount('Bob'), (e) => e.code === 'confirm_with_name');
    assert.equal(accounts.signedIn, true);
    await accounts.deleteAccount('Ann');
    assert.equal(accounts.signedIn, false);
    assert.deepEqual(server.requests.at(-1).body, { name: 'Ann' });
    await accounts.start();
    await accounts.signOutSession('this-one', { current: true });
    assert.equal(accounts.signedIn, false);
  });

  test('a new name in the account page\'s answer renames the header\'s', async () => {
    const server = fakeServer({
      'GET /api/session': session({ id: 'a1', name: 'Ann' }),
      'GET /api/account': () => [200, { account: { id: 'a1', name: 'Ann Lee', created_at: 1, has_password: true }, passkeys: [], sessions: [], sign_ins: [] }],
    });
    const accounts = new Accounts({ fetch: server.fetch, scope: {} });
    await accounts.start();
    const heard = [];
    accounts.on(({ account }) => heard.push(account.name));
    await accounts.details();
    assert.deepEqual(heard, ['Ann Lee']);
  });

  test('setPassword sends `current` only when one is set', async () => {
    const server = fakeServer({ 'GET /api/session': session({ id: 'a1', name: 'Ann' }), 'POST /api/account/password': guarded(() => [200, {}]) });
    const accounts = new Accounts({ fetch: server.fetch, scope: {} });
    await accounts.setPassword({ password: 'new password' });
    await accounts.setPassword({ current: 'old password', password: 'new password' });
    assert.deepEqual(server.requests.filter((r) => r.method === 'POST').map((r) => r.body),
      [{ password: 'new password' }, { current: 'old password', password: 'new password' }]);
  });
});

describe('passkeys', () => {
  /** A fake authenticator: create() and get() record their options and answer with bytes, or throw `fail`. */
  function authenticator({ fail = null } = {}) {
    const calls = [];
    const enc = (text) => new TextEncoder().encode(text).buffer;
    const credentials = {
      async create(options) {
        calls.push(['create', options]);
        if (fail) throw Object.assign(new Error('no'), { name: fail });
        return { id: 'Y3JlZA', rawId: enc('cred'), type: 'public-key', response: { clientDataJSON: enc('{"type":"webauthn.create"}'), attestationObject: enc('att') } };
      },
      async get(options) {
        calls.push(['get', options]);
        if (fail) throw Object.assign(new Error('no'), { name: fail });
        return { id: 'Y3JlZA', rawId: enc('cred'), type: 'public-key', response: { clientDataJSON: enc('{"type":"webauthn.get"}'), authenticatorData: enc('ad'), signature: enc('sig'), userHandle: enc('a1') } };
      },
    };
    function PublicKeyCredential() {}
    return { calls, scope: { PublicKeyCredential, isSecureContext: true, navigator: { credentials } } };
  }

  const creation = (name) => ({
    publicKey: {
      challenge: bufferToBase64Url(new Uint8Array([1, 2, 3])), rp: { id: 'localhost', name: 'Emporium' },
      user: { id: bufferToBase64Url(new TextEncoder().encode('a1')), name, displayName: name },
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }], excludeCredentials: [],
    },
  });

  test('sign-up: options with the name, create() with bytes, then the answer in base64url with the label and seats', async () => {
    const auth = authenticator();
    const server = fakeServer({
      'GET /api/session': session(null),
      'POST /api/passkeys/options': guarded((body) => [200, creation(body.name)]),
      'POST /api/passkeys/sign-up': guarded((body) => [200, { account: { id: 'a1', name: body.name }, claimed: 1 }]),
    });
    const accounts = new Accounts({ fetch: server.fetch, scope: auth.scope });
    assert.equal(accounts.passkeys, true);
    const reply = await accounts.signUpWithPasskey({ name: 'Ann', label: '  My laptop ', seats: ['seat-token'] });
    assert.equal(reply.account.name, 'Ann');
    assert.equal(accounts.signedIn, true);
    const posts = server.requests.filter((r) => r.method === 'POST');
    assert.deepEqual(posts[0].body, { purpose: 'sign_up', name: 'Ann' });
    const [kind, options] = auth.calls[0];
    assert.equal(kind, 'create');
    assert.deepEqual([...new Uint8Array(options.publicKey.challenge)], [1, 2, 3]);
    assert.equal(new TextDecoder().decode(options.publicKey.user.id), 'a1');
    assert.deepEqual(posts[1].body, {
      name: 'Ann', label: 'My laptop', seats: ['seat-token'],
      passkey: { id: 'Y3JlZA', clientDataJSON: bufferToBase64Url(new TextEncoder().encode('{"type":"webauthn.create"}')), attestationObject: 'YXR0' },
    });
  });

  test('sign-in: options without a name, get(), the assertion with its user handle', async () => {
    const auth = authenticator();
    const server = fakeServer({
      'GET /api/session': session(null),
      'POST /api/passkeys/options': guarded(() => [200, { publicKey: { challenge: 'BAUG', rpId: 'localhost', allowCredentials: [] } }]),
      'POST /api/passkeys/sign-in': guarded(() => [200, { account: { id: 'a1', name: 'Ann' }, claimed: 0 }]),
    });
    const accounts = new Accounts({ fetch: server.fetch, scope: auth.scope });
    await accounts.signInWithPasskey({ seats: [] });
    const posts = server.requests.filter((r) => r.method === 'POST');
    assert.deepEqual(posts[0].body, { purpose: 'sign_in' });
    assert.equal(auth.calls[0][0], 'get');
    const sent = posts[1].body.passkey;
    assert.equal(sent.signature, 'c2ln');
    assert.equal(new TextDecoder().decode(base64UrlToBuffer(sent.userHandle)), 'a1');
    assert.equal(accounts.account.name, 'Ann');
  });

  test('a refusal by the browser is a passkey_* error and nothing more is sent; name_taken comes before the browser is asked', async () => {
    const cancelled = authenticator({ fail: 'NotAllowedError' });
    const server = fakeServer({
      'GET /api/session': session(null),
      'POST /api/passkeys/options': guarded((body) => (body.name === 'Taken'
        ? [409, { error: { code: 'name_taken', message: 'that name is taken' } }] : [200, creation(body.name)])),
    });
    const accounts = new Accounts({ fetch: server.fetch, scope: cancelled.scope });
    await assert.rejects(accounts.signUpWithPasskey({ name: 'Ann' }), (e) => e.code === 'passkey_cancelled');
    await assert.rejects(accounts.signUpWithPasskey({ name: 'Taken' }), (e) => e.code === 'name_taken');
    assert.equal(cancelled.calls.length, 1, 'the browser was asked once, for Ann');
    assert.equal(server.requests.filter((r) => r.path === '/api/passkeys/sign-up').length, 0);
    const here = authenticator({ fail: 'InvalidStateError' });
    const again = new Accounts({ fetch: server.fetch, scope: here.scope });
    await assert.rejects(again.signUpWithPasskey({ name: 'Ann' }), (e) => e.code === 'passkey_here_already');
  });

  test('without passkeys in the browser: unavailable, and the ceremony is not attempted', async () => {
    const server = fakeServer({ 'GET /api/session': session(null), 'POST /api/passkeys/options': guarded(() => [200, creation('Ann')]) });
    const accounts = new Accounts({ fetch: server.fetch, scope: { navigator: {} } });
    assert.equal(accounts.passkeys, false);
    await assert.rejects(accounts.signUpWithPasskey({ name: 'Ann' }), (e) => e.code === 'passkey_unsupported');
  });

  test('adding a passkey to the account: purpose add, the label when given', async () => {
    const auth = authenticator();
    const server = fakeServer({
      'GET /api/session': session({ id: 'a1', name: 'Ann' }),
      'POST /api/passkeys/options': guarded(() => [200, creation('Ann')]),
      'POST /api/passkeys/add': guarded((body) => [200, { passkey: { id: body.passkey.id, label: body.label || 'Passkey', created_at: 5 } }]),
    });
    const accounts = new Accounts({ fetch: server.fetch, scope: auth.scope });
    assert.deepEqual(await accounts.addPasskey({ label: '' }), { id: 'Y3JlZA', label: 'Passkey', created_at: 5 });
    const posts = server.requests.filter((r) => r.method === 'POST');
    assert.deepEqual(posts[0].body, { purpose: 'add' });
    assert.equal('label' in posts[1].body, false);
  });
});

test('seatsToClaim: strings the server reads, each once, at most 50', () => {
  const many = Array.from({ length: 60 }, (_, i) => `t${i}`);
  assert.equal(seatsToClaim(many).length, 50);
  assert.deepEqual(seatsToClaim(['a', 'a', '', null, 'x'.repeat(101), 'b']), ['a', 'b']);
  assert.deepEqual(seatsToClaim(undefined), []);
});

test('refusals in words (js/core/errors.js): the wait of a 429 in minutes, every code the account requests answer, never raw', async () => {
  const { errorText } = await import('../../web-client/js/core/errors.js');
  assert.equal(errorText(new AccountError('too_many_attempts', 'x', { retryAfter: 600 })), 'Too many failed attempts: try again in 10 minutes.');
  assert.equal(errorText(new AccountError('too_many_attempts', 'x', { retryAfter: 30 })), 'Too many failed attempts: try again in 1 minute.');
  assert.equal(errorText(new AccountError('too_many_attempts', 'x')), 'Too many failed attempts: wait a while, then try again.');
  assert.equal(errorText(new AccountError('bad_credentials', 'wrong name or password')), 'Wrong name or password.');
  // Every code of protocol/README.md's accounts table, and the browser's, has words of the client's own.
  for (const code of ['bad_credentials', 'name_taken', 'too_many_attempts', 'bad_password', 'bad_name', 'stale_challenge', 'bad_passkey',
    'unknown_passkey', 'passkey_exists', 'no_such_passkey', 'last_sign_in_method', 'no_such_session', 'not_signed_in', 'confirm_with_name',
    'store_unavailable', 'forbidden_origin', 'bad_csrf_token', 'bad_content_type', 'network', 'unavailable', 'passkey_cancelled',
    'passkey_here_already', 'passkey_insecure', 'passkey_unsupported', 'passkey_failed', 'signed_in']) {
    const words = errorText(new AccountError(code, 'SERVER-MESSAGE'));
    assert.doesNotMatch(words, /SERVER-MESSAGE|⟦/, code);
  }
  assert.equal(errorText(new AccountError('brand_new_code', 'the server says why')), 'Something went wrong: the server says why');
});

describe('profiles and leaderboards', () => {
  test('GET /api/players/<name> with the name URL-encoded; a 404 is not_found, in either shape of error', async () => {
    const profile = { name: 'Ann Lee', since: 1, reputation: { finished: 1, left: 0, timed_out: 0 }, games: [], recent: [] };
    const server = fakeServer({
      'GET /api/players/Ann%20Lee': () => [200, profile],
      'GET /api/players/Nobody': () => [404, { error: 'not_found', message: 'no such player' }],
      'GET /api/leaderboard/medici': () => [200, { game: 'medici', min_games: 10, rows: [], you: null }],
      'GET /api/leaderboard/chess': () => [404, { error: { code: 'not_found', message: 'no such game' } }],
    });
    const accounts = new Accounts({ fetch: server.fetch, scope: {} });
    assert.deepEqual(await accounts.player('Ann Lee'), profile);
    await assert.rejects(accounts.player('Nobody'), (e) => e instanceof AccountError && e.code === 'not_found' && e.status === 404
      && e.message === 'no such player');
    assert.equal((await accounts.leaderboard('medici')).min_games, 10);
    await assert.rejects(accounts.leaderboard('chess'), (e) => e.code === 'not_found');
    assert.ok(server.requests.every((r) => r.method === 'GET' && !r.headers['X-CSRF-Token']), 'plain GETs');
  });

  test('rated_needs_account has words of its own', async () => {
    const { errorText } = await import('../../web-client/js/core/errors.js');
    assert.match(errorText({ code: 'rated_needs_account', message: 'SERVER-MESSAGE' }), /^Rated games are for signed-in players/);
  });
});

test('a suspended account\'s sign-in: the server\'s words and until when; without a date, words of the client\'s own', async () => {
  const { errorText } = await import('../../web-client/js/core/errors.js');
  const until = Date.UTC(2026, 11, 24, 12, 0) / 1000;
  const server = fakeServer({
    'GET /api/session': () => [200, { signed_in: false, account: null, csrf: 'tok' }],
    'POST /api/sign-in': () => [403, { error: { code: 'suspended', message: 'this account is suspended: insults', until } }],
  });
  const accounts = new Accounts({ fetch: server.fetch, scope: {} });
  await accounts.start();
  const err = await accounts.signInWithPassword({ name: 'Bo', password: 'a long enough password' }).then(() => null, (e) => e);
  assert.equal(err.code, 'suspended');
  assert.equal(err.until, until);
  assert.match(errorText(err), /^this account is suspended: insults \(until .*2026.*\)$/);
  assert.equal(accounts.account, null, 'not signed in');
  assert.equal(errorText(new AccountError('suspended', 'SERVER-MESSAGE')), 'This account is suspended.');
});
