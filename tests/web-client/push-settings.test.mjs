// The account page's push part (web-client/js/pages/account/push-settings.js): the server's key as PushManager
// takes it, and which browsers are offered the toggle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keyBytes, pushSupported } from '../../web-client/js/pages/account/push-settings.js';

test('the VAPID key in base64url becomes its 65 bytes', () => {
  // RFC 8291 Appendix A's receiver key: a P-256 point, 0x04 first.
  const bytes = keyBytes('BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4');
  assert.equal(bytes.length, 65);
  assert.equal(bytes[0], 4);
  assert.equal(bytes[1], 0x25);
  assert.equal(bytes[64], 0x0e);
  assert.deepEqual([...keyBytes('-_8')], [0xfb, 0xff]);
});

test('only a browser with service workers, PushManager and Notification is offered the toggle', () => {
  const browser = { navigator: { serviceWorker: {} }, PushManager() {}, Notification() {} };
  assert.equal(pushSupported(browser), true);
  const { PushManager: _, ...noPush } = browser;
  assert.equal(pushSupported(noPush), false);
  assert.equal(pushSupported({ ...browser, navigator: {} }), false);
  assert.equal(pushSupported({}), false);
});
