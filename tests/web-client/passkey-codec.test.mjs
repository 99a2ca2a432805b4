// js/core/passkey-codec.js: base64url both ways, the server's options turned into what
// navigator.credentials.create()/get() take, and the browser's PublicKeyCredential turned into the JSON the
// server reads (protocol/README.md, "Accounts (HTTP)"), with fake credentials made of real bytes.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import {
  assertionJson, attestationJson, base64UrlToBuffer, bufferToBase64Url, ceremonyErrorCode, creationOptions,
  isIpAddress, passkeysAvailable, requestOptions,
} from '../../web-client/js/core/passkey-codec.js';

const bytes = (...list) => new Uint8Array(list).buffer;
const asList = (buffer) => [...new Uint8Array(buffer)];

describe('base64url', () => {
  test('RFC 4648 test vectors, without padding', () => {
    const vectors = [['', ''], ['f', 'Zg'], ['fo', 'Zm8'], ['foo', 'Zm9v'], ['foob', 'Zm9vYg'], ['fooba', 'Zm9vYmE'], ['foobar', 'Zm9vYmFy']];
    for (const [plain, encoded] of vectors) {
      assert.equal(bufferToBase64Url(new TextEncoder().encode(plain)), encoded, plain);
      assert.equal(new TextDecoder().decode(base64UrlToBuffer(encoded)), plain, encoded);
    }
  });

  test('the URL alphabet: - and _ where base64 has + and /, and every byte value round-trips', () => {
    assert.equal(bufferToBase64Url(bytes(0xfb, 0xff, 0xbf)), '-_-_');
    assert.deepEqual(asList(base64UrlToBuffer('-_-_')), [0xfb, 0xff, 0xbf]);
    const all = new Uint8Array(256).map((_, i) => i);
    const text = bufferToBase64Url(all);
    assert.match(text, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(asList(base64UrlToBuffer(text)), [...all]);
  });

  test('reads padded text and the standard alphabet too; refuses what is not base64', () => {
    assert.deepEqual(asList(base64UrlToBuffer('Zg==')), [0x66]);
    assert.deepEqual(asList(base64UrlToBuffer('+/+/')), [0xfb, 0xff, 0xbf]);
    for (const bad of ['Z', 'Zm9v!', 'a b', 42, null, 'Zg===']) assert.throws(() => base64UrlToBuffer(bad), TypeError, String(bad));
  });

  test('a view over part of a buffer is encoded as that part only', () => {
    const whole = new Uint8Array([1, 2, 3, 4, 5]);
    assert.equal(bufferToBase64Url(whole.subarray(1, 3)), bufferToBase64Url(bytes(2, 3)));
    assert.equal(bufferToBase64Url(new DataView(whole.buffer, 3, 2)), bufferToBase64Url(bytes(4, 5)));
    assert.throws(() => bufferToBase64Url('text'), TypeError);
  });

  test('large buffers (an attestation with a certificate chain) in one piece', () => {
    const big = new Uint8Array(100000).map((_, i) => (i * 7) % 256);
    assert.deepEqual(new Uint8Array(base64UrlToBuffer(bufferToBase64Url(big))), big);
  });
});

describe('the options for the browser', () => {
  // As POST /api/passkeys/options answers for sign_up (server/people/accounts.cpp).
  const signUp = {
    challenge: bufferToBase64Url(bytes(1, 2, 3, 4)),
    rp: { id: 'localhost', name: 'Emporium' },
    user: { id: bufferToBase64Url(new TextEncoder().encode('acc-123')), name: 'Ann', displayName: 'Ann' },
    pubKeyCredParams: [{ type: 'public-key', alg: -8 }, { type: 'public-key', alg: -7 }],
    timeout: 300000,
    attestation: 'none',
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' },
    excludeCredentials: [{ type: 'public-key', id: bufferToBase64Url(bytes(9, 9)) }],
  };

  test('create(): challenge, user.id and excludeCredentials ids become bytes; the rest is passed on', () => {
    const o = creationOptions(signUp);
    assert.ok(o.challenge instanceof ArrayBuffer);
    assert.deepEqual(asList(o.challenge), [1, 2, 3, 4]);
    assert.equal(new TextDecoder().decode(o.user.id), 'acc-123');
    assert.equal(o.user.name, 'Ann');
    assert.deepEqual(asList(o.excludeCredentials[0].id), [9, 9]);
    assert.equal(o.excludeCredentials[0].type, 'public-key');
    assert.deepEqual(o.pubKeyCredParams, signUp.pubKeyCredParams);
    assert.deepEqual(o.rp, signUp.rp);
    assert.equal(o.authenticatorSelection.residentKey, 'required');
    assert.equal(typeof signUp.challenge, 'string', 'the server\'s object is left as it was');
    assert.throws(() => creationOptions({ challenge: 'AAAA' }), TypeError, 'without a user it is not a new passkey\'s');
  });

  test('get(): the challenge and allowCredentials ids become bytes', () => {
    const o = requestOptions({ challenge: 'AQID', rpId: 'localhost', timeout: 300000, userVerification: 'preferred', allowCredentials: [] });
    assert.deepEqual(asList(o.challenge), [1, 2, 3]);
    assert.deepEqual(o.allowCredentials, []);
    assert.equal(o.rpId, 'localhost');
    const listed = requestOptions({ challenge: 'AQID', allowCredentials: [{ type: 'public-key', id: 'CQk' }] });
    assert.deepEqual(asList(listed.allowCredentials[0].id), [9, 9]);
    assert.throws(() => requestOptions({ challenge: 'not base64!' }), TypeError);
  });
});

describe('the browser\'s answer for the server', () => {
  const clientData = new TextEncoder().encode(JSON.stringify({ type: 'webauthn.create', challenge: 'AQIDBA', origin: 'http://localhost:8080' }));

  test('a new passkey: {id, clientDataJSON, attestationObject}, ids from the raw bytes, no padding', () => {
    const credential = {
      id: 'ignored-when-rawId-is-there', rawId: bytes(0xfb, 0xff, 0xbf, 0x01), type: 'public-key',
      response: { clientDataJSON: clientData.buffer, attestationObject: bytes(0xa3, 0x63, 0x66, 0x6d) },
    };
    const json = attestationJson(credential);
    assert.deepEqual(Object.keys(json), ['id', 'clientDataJSON', 'attestationObject']);
    assert.equal(json.id, '-_-_AQ');
    assert.equal(json.attestationObject, 'o2NmbQ');
    assert.equal(JSON.parse(new TextDecoder().decode(base64UrlToBuffer(json.clientDataJSON))).challenge, 'AQIDBA');
    for (const v of Object.values(json)) assert.doesNotMatch(v, /[=+/]/);
    assert.equal(attestationJson({ id: 'abc', response: credential.response }).id, 'abc', 'no rawId: the id as given');
    assert.throws(() => attestationJson({ id: 'x', response: { clientDataJSON: clientData.buffer } }), TypeError);
  });

  test('a sign-in: {id, clientDataJSON, authenticatorData, signature, userHandle}; no userHandle when there is none', () => {
    const response = {
      clientDataJSON: clientData.buffer, authenticatorData: bytes(1, 2, 3), signature: bytes(4, 5, 6),
      userHandle: new TextEncoder().encode('acc-123').buffer,
    };
    const json = assertionJson({ rawId: bytes(7, 7), response });
    assert.deepEqual(json, {
      id: 'Bwc', clientDataJSON: bufferToBase64Url(clientData), authenticatorData: 'AQID', signature: 'BAUG',
      userHandle: bufferToBase64Url(new TextEncoder().encode('acc-123')),
    });
    assert.equal('userHandle' in assertionJson({ rawId: bytes(7), response: { ...response, userHandle: null } }), false);
    assert.equal('userHandle' in assertionJson({ rawId: bytes(7), response: { ...response, userHandle: new ArrayBuffer(0) } }), false);
    assert.throws(() => assertionJson({ rawId: bytes(7), response: { clientDataJSON: clientData.buffer } }), TypeError);
  });
});

test('passkeys are available only with PublicKeyCredential, navigator.credentials and a secure context', () => {
  const credentials = { create() {}, get() {} };
  function PublicKeyCredential() {}
  assert.equal(passkeysAvailable({ PublicKeyCredential, isSecureContext: true, navigator: { credentials } }), true);
  assert.equal(passkeysAvailable({ isSecureContext: true, navigator: { credentials } }), false, 'no PublicKeyCredential');
  assert.equal(passkeysAvailable({ PublicKeyCredential, isSecureContext: false, navigator: { credentials } }), false, 'plain http elsewhere than localhost');
  assert.equal(passkeysAvailable({ PublicKeyCredential, isSecureContext: true, navigator: {} }), false);
  assert.equal(passkeysAvailable(null), false);
  const at = (hostname) => passkeysAvailable({ PublicKeyCredential, isSecureContext: true, navigator: { credentials }, location: { hostname } });
  assert.equal(at('localhost'), true);
  assert.equal(at('games.example'), true);
  assert.equal(at('127.0.0.1'), false, 'secure, but an IP address is no relying party');
  assert.equal(at('[::1]'), false);
  assert.equal(at('::1'), false);
});

test('IP addresses, of both kinds', () => {
  for (const ip of ['127.0.0.1', '10.0.0.255', '::1', '[2001:db8::1]']) assert.equal(isIpAddress(ip), true, ip);
  for (const name of ['localhost', 'emporium.example', '127.0.0.1.nip.io', '']) assert.equal(isIpAddress(name), false, name);
});

test('the browser\'s refusals in the client\'s codes', () => {
  const err = (name) => Object.assign(new Error('x'), { name });
  assert.equal(ceremonyErrorCode(err('NotAllowedError')), 'passkey_cancelled');
  assert.equal(ceremonyErrorCode(err('AbortError')), 'passkey_cancelled');
  assert.equal(ceremonyErrorCode(err('InvalidStateError')), 'passkey_here_already');
  assert.equal(ceremonyErrorCode(err('SecurityError')), 'passkey_insecure');
  assert.equal(ceremonyErrorCode(err('NotSupportedError')), 'passkey_unsupported');
  assert.equal(ceremonyErrorCode(err('UnknownError')), 'passkey_failed');
  assert.equal(ceremonyErrorCode(undefined), 'passkey_failed');
});
