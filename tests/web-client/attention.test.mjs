// js/models/attention-rules.js: the your-turn signals (sound when chosen, a notification only while the tab is
// hidden and only with permission) and the "Notify me" control, which asks only once.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { notifyControl, signals, turnBegan } from '../../web-client/js/models/attention-rules.js';

test('the turn begins only on the change to "yours"', () => {
  assert.equal(turnBegan(false, true), true);
  assert.equal(turnBegan(true, true), false);
  assert.equal(turnBegan(true, false), false);
  assert.equal(turnBegan(false, false), false);
});

test('the signals: the sound when chosen, a notification only to a hidden tab with permission', () => {
  const base = { began: true, sound: false, notify: true, permission: 'granted', hidden: true };
  assert.deepEqual(signals(base), { sound: false, notification: true });
  assert.deepEqual(signals({ ...base, sound: true }), { sound: true, notification: true });
  assert.deepEqual(signals({ ...base, hidden: false }), { sound: false, notification: false }, 'a visible tab has the title and the board');
  assert.deepEqual(signals({ ...base, permission: 'default' }), { sound: false, notification: false });
  assert.deepEqual(signals({ ...base, notify: false }), { sound: false, notification: false });
  assert.deepEqual(signals({ ...base, began: false, sound: true }), { sound: false, notification: false });
});

test('"Notify me" asks once: never again after an answer or a dismissal', () => {
  assert.equal(notifyControl({ permission: 'default', asked: false, notify: false }), 'ask');
  assert.equal(notifyControl({ permission: 'default', asked: true, notify: false }), 'denied', 'dismissed: no second prompt');
  assert.equal(notifyControl({ permission: 'granted', asked: true, notify: true }), 'on');
  assert.equal(notifyControl({ permission: 'granted', asked: true, notify: false }), 'off');
  assert.equal(notifyControl({ permission: 'denied', asked: false, notify: true }), 'denied');
  assert.equal(notifyControl({ permission: 'unsupported', asked: false, notify: false }), 'unsupported');
});
