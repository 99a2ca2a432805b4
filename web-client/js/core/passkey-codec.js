// Passkeys on the wire (protocol/README.md, "Accounts (HTTP)"): the server sends the options of
// navigator.credentials.create() and .get() as JSON, their binary fields in base64url, and wants the browser's
// answer back the same way. This turns one into the other, and nothing else: pure, no DOM, no network
// (tests/web-client/passkey-codec.test.mjs). js/core/accounts.js calls the browser with it.
//   base64url  RFC 4648 §5 without padding; reading also takes padding and the standard alphabet's + and /.

/** An ArrayBuffer, a typed array or a DataView as a Uint8Array over the same bytes. */
function bytes(data) {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw new TypeError('expected an ArrayBuffer or a view of one');
}

/** Bytes as base64url without padding. */
export function bufferToBase64Url(data) {
  const view = bytes(data);
  let binary = '';
  for (let i = 0; i < view.length; i += 0x8000) binary += String.fromCharCode(...view.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** base64url (padded or not) as an ArrayBuffer; a TypeError for anything else. */
export function base64UrlToBuffer(text) {
  if (typeof text !== 'string' || !/^[A-Za-z0-9_+/-]*={0,2}$/.test(text) || text.replace(/=+$/, '').length % 4 === 1) {
    throw new TypeError('not base64url');
  }
  const plain = text.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(plain + '='.repeat((4 - (plain.length % 4)) % 4));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out.buffer;
}

/** A list of credential descriptors ({type, id, transports?}) with each id as bytes. */
function descriptors(list) {
  return Array.isArray(list) ? list.map((d) => ({ ...d, id: base64UrlToBuffer(d.id) })) : list;
}

/**
 * The server's options for navigator.credentials.create({publicKey}), from `POST /api/passkeys/options` with the
 * purpose sign_up or add: the challenge, user.id and every excludeCredentials[].id become ArrayBuffers; the rest
 * is passed on as it came.
 */
export function creationOptions(publicKey) {
  if (!publicKey || typeof publicKey !== 'object' || !publicKey.user) throw new TypeError('not the options of a new passkey');
  const out = { ...publicKey, challenge: base64UrlToBuffer(publicKey.challenge), user: { ...publicKey.user, id: base64UrlToBuffer(publicKey.user.id) } };
  if (publicKey.excludeCredentials) out.excludeCredentials = descriptors(publicKey.excludeCredentials);
  return out;
}

/** The server's options for navigator.credentials.get({publicKey}) (purpose sign_in): the challenge and allowCredentials[].id as bytes. */
export function requestOptions(publicKey) {
  if (!publicKey || typeof publicKey !== 'object') throw new TypeError('not the options of a sign-in');
  const out = { ...publicKey, challenge: base64UrlToBuffer(publicKey.challenge) };
  if (publicKey.allowCredentials) out.allowCredentials = descriptors(publicKey.allowCredentials);
  return out;
}

/** The credential's id: its raw id in base64url (the same text as credential.id, but from the bytes themselves). */
function credentialId(credential) {
  return credential.rawId ? bufferToBase64Url(credential.rawId) : String(credential.id);
}

/** A new passkey (the PublicKeyCredential create() gave) as the "passkey" of sign-up and add: {id, clientDataJSON, attestationObject}. */
export function attestationJson(credential) {
  const r = credential && credential.response;
  if (!r || !r.attestationObject) throw new TypeError('not a new passkey');
  return {
    id: credentialId(credential),
    clientDataJSON: bufferToBase64Url(r.clientDataJSON),
    attestationObject: bufferToBase64Url(r.attestationObject),
  };
}

/**
 * A passkey's answer to a sign-in (the PublicKeyCredential get() gave) as the "passkey" of
 * `/api/passkeys/sign-in`: {id, clientDataJSON, authenticatorData, signature, userHandle} (userHandle only when the
 * authenticator gave one).
 */
export function assertionJson(credential) {
  const r = credential && credential.response;
  if (!r || !r.authenticatorData || !r.signature) throw new TypeError('not a passkey\'s sign-in');
  const out = {
    id: credentialId(credential),
    clientDataJSON: bufferToBase64Url(r.clientDataJSON),
    authenticatorData: bufferToBase64Url(r.authenticatorData),
    signature: bufferToBase64Url(r.signature),
  };
  if (r.userHandle && bytes(r.userHandle).length > 0) out.userHandle = bufferToBase64Url(r.userHandle);
  return out;
}

/** Whether `host` is an IP address (IPv4, or IPv6 with or without its brackets): no relying party id can be one. */
export function isIpAddress(host) {
  const h = String(host || '');
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(h) || h.includes(':');
}

/**
 * Whether this browser can use passkeys here: `scope` is the page's global object (globalThis in a page). It
 * needs PublicKeyCredential, navigator.credentials, a secure context (https, or http://localhost) and a page
 * reached by a domain name: a passkey belongs to a domain, never to an IP address (http://127.0.0.1 is secure
 * but cannot have one).
 */
export function passkeysAvailable(scope) {
  if (!scope || typeof scope.PublicKeyCredential !== 'function') return false;
  if (scope.isSecureContext === false) return false;
  if (scope.location && isIpAddress(scope.location.hostname)) return false;
  const c = scope.navigator && scope.navigator.credentials;
  return Boolean(c && typeof c.create === 'function' && typeof c.get === 'function');
}

/**
 * What a refused navigator.credentials call means, as one of the client's error codes (js/core/errors.js): the
 * browser's DOMException names mapped; anything else is passkey_failed.
 */
export function ceremonyErrorCode(err) {
  switch (err && err.name) {
    case 'NotAllowedError':
    case 'AbortError':
      return 'passkey_cancelled'; // the person said no, or it timed out: the spec hides which
    case 'InvalidStateError':
      return 'passkey_here_already'; // create(): this authenticator holds one of excludeCredentials
    case 'SecurityError':
      return 'passkey_insecure'; // the page's origin cannot use this relying party id (an IP address, plain http)
    case 'NotSupportedError':
      return 'passkey_unsupported';
    default:
      return 'passkey_failed';
  }
}
