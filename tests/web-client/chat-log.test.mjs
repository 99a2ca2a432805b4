// The table chat's log (web-client/js/models/chat-log.js): lines merged by id, a history replacing the log, the
// tabs' filtering by channel and mutes, and a moderator's decision in words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addLine, chatLine, fromHistory, visibleLines, setMuted, nameKey, moderationWords } from '../../web-client/js/models/chat-log.js';

const ann = { id: 1, from: 'Ann', seat: 0, channel: 'players', text: 'hi', at: 100 };
const cy = { id: 2, from: 'Cy', seat: null, channel: 'spectators', text: 'go Ann', at: 101 };
const bo = { id: 3, from: 'Bo', seat: 1, channel: 'players', text: 'gl', at: 102 };

test('a line is added once: a second frame of the same id changes nothing', () => {
  let log = addLine([], ann);
  log = addLine(log, cy);
  const again = addLine(log, { ...cy, text: 'changed' });
  assert.equal(again, log);
  assert.deepEqual(log.map((l) => l.id), [1, 2]);
});

test('the log keeps the newest 300 lines', () => {
  let log = [];
  for (let i = 0; i < 310; i++) log = addLine(log, { ...ann, id: i });
  assert.equal(log.length, 300);
  assert.equal(log[0].id, 10);
  assert.equal(log[299].id, 309);
});

test('a history replaces the log; an empty or odd one empties it', () => {
  const log = addLine([], ann);
  assert.deepEqual(fromHistory({ lines: [cy, bo] }).map((l) => l.id), [2, 3]);
  assert.deepEqual(fromHistory({}), []);
  assert.notEqual(log.length, 0);
});

test('each tab shows its channel; lines kept before channels came are read by their seat', () => {
  const log = [ann, cy, bo, { from: 'Old', seat: null, text: 'x' }, { from: 'Older', seat: 1, text: 'y' }];
  assert.deepEqual(visibleLines(log, 'players').map((l) => l.from), ['Ann', 'Bo', 'Older']);
  assert.deepEqual(visibleLines(log, 'spectators').map((l) => l.from), ['Cy', 'Old']);
  assert.equal(chatLine({ from: 'Old', seat: null, text: 'x' }).id, null);
});

test('muted writers are left out, whatever the case of their name; unmuting brings them back', () => {
  let muted = setMuted(new Set(), 'CY', true);
  assert.deepEqual(visibleLines([ann, cy], 'spectators', muted), []);
  assert.equal(muted.has(nameKey('cy')), true);
  const before = muted;
  muted = setMuted(muted, 'cy', false);
  assert.equal(before.has('cy'), true, 'a new set each time');
  assert.deepEqual(visibleLines([ann, cy], 'spectators', muted).map((l) => l.id), [2]);
});

test('a moderator\'s decision in words: a warning, a mute and a suspension until a date, the reason always', () => {
  assert.deepEqual(moderationWords({ action: 'warn', reason: 'be kind', until: null }), { key: 'moderation.notice.warn', params: { reason: 'be kind' } });
  const mute = moderationWords({ action: 'mute', reason: 'insults', until: 1796000000 }, 'en');
  assert.equal(mute.key, 'moderation.notice.mute');
  assert.equal(mute.params.reason, 'insults');
  assert.match(mute.params.until, /2026/);
  assert.equal(moderationWords({ action: 'suspend', reason: 'r', until: 1796000000 }).key, 'moderation.notice.suspend');
  assert.equal(moderationWords({ action: 'mute', reason: 'r', until: null }).key, 'moderation.notice.mute.open');
  assert.equal(moderationWords({ action: 'bogus', reason: 'r' }).key, 'moderation.notice.warn');
});
