import test from 'node:test';
import assert from 'node:assert/strict';
import { createLastMoves, markProps } from '../../web-client/js/models/last-moves.js';

test('each player keeps the places of their own last move; the newest is latest and fresh for a moment', () => {
  let clock = 1000;
  const marks = createLastMoves({ now: () => clock, freshMs: 500 });
  assert.equal(marks.at('a'), null);
  marks.note(0, ['a', 'b']);
  clock += 100;
  marks.note(1, 'c');
  assert.deepEqual(marks.at('a'), { player: 0, latest: false, fresh: false });
  assert.deepEqual(marks.at('c'), { player: 1, latest: true, fresh: true });
  clock += 600;
  assert.deepEqual(marks.at('c'), { player: 1, latest: true, fresh: false });
  // A player's next move replaces their mark; a place touched by two moves shows the newer.
  marks.note(0, ['c']);
  assert.equal(marks.at('a'), null);
  assert.deepEqual(marks.at('c'), { player: 0, latest: true, fresh: true });
  assert.equal(marks.latestPlayer(), 0);
  marks.add(0, 'd');
  assert.equal(marks.at('d').player, 0);
  marks.clear();
  assert.equal(marks.at('c'), null);
  assert.equal(marks.latestPlayer(), null);
});

test('keys are compared as strings and a non-seat is ignored', () => {
  const marks = createLastMoves();
  marks.note(2, [17, null]);
  assert.equal(marks.at('17').player, 2);
  marks.note(undefined, ['x']);
  assert.equal(marks.at('x'), null);
});

test('markProps adds the classes and the seat, keeping the element\'s own classes', () => {
  assert.deepEqual(markProps(null, ['sq']), { class: ['sq'] });
  const p = markProps({ player: 1, latest: true, fresh: false }, 'sq');
  assert.deepEqual(p['data-last-move'], '1');
  assert.deepEqual(p.class.filter(Boolean), ['sq', 'last-move', 'last-move--latest']);
});
