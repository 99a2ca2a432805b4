// js/models/ratings.js: a rating and a change in figures ("1000?", "+23", "−8"), which seats show a rating and
// link to a profile, the rating changes of a finished rated table, the create form's switch, a guest at a rated
// table, leaving a rated game, the leaderboard's "you", and a profile's games and recent games read safely.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import {
  changesPending, deltaKind, deltaText, hasProfile, isRated, leaderboardView, leavingCounts, needsAccount, profileGames,
  ratedChoice, ratingChanges, ratingText, recentRows, seatRating,
} from '../../web-client/js/models/ratings.js';

const seats = [
  { seat: 0, name: 'Ann', rating: { value: 1234, provisional: false } },
  { seat: 1, name: 'Bo', rating: { value: 1000, provisional: true } },
  { seat: 2, name: 'Bot 1', bot: 'normal', rating: { value: 1350, provisional: false, bot: true } },
  { seat: 3, name: 'Cy' }, // a seat without a rating (an older frame)
  { seat: 4, name: null },
];
const table = (over = {}) => ({ id: 't', game: 'medici', state: 'playing', rated: true, seats, ...over });

describe('in figures', () => {
  test('a rating: the number, with "?" while provisional', () => {
    assert.equal(ratingText({ value: 1234, provisional: false }), '1234');
    assert.equal(ratingText({ value: 1000, provisional: true }), '1000?');
    assert.equal(ratingText({ value: 1499.6, provisional: false }), '1500');
    assert.equal(ratingText(null), '');
    assert.equal(ratingText({ value: 'x' }), '');
  });

  test('a change: a plus or a real minus sign, and ±0', () => {
    assert.equal(deltaText(23), '+23');
    assert.equal(deltaText(-8), '\u22128');
    assert.equal(deltaText(0), '±0');
    assert.equal(deltaText(0.4), '±0');
    assert.equal(deltaText(undefined), '±0');
    assert.deepEqual([deltaKind(5), deltaKind(-1), deltaKind(0)], ['up', 'down', 'same']);
  });
});

describe('at a table', () => {
  test('rated only when the table says so', () => {
    assert.equal(isRated(table()), true);
    assert.equal(isRated(table({ rated: false })), false);
    assert.equal(isRated({ seats: [] }), false, 'an older server\'s table is casual');
  });

  test('ratings beside the names of rated seats only; bots marked; names of rated people link to profiles', () => {
    const t = table();
    assert.deepEqual(seatRating(t, seats[0]), { value: 1234, provisional: false, bot: false });
    assert.deepEqual(seatRating(t, seats[1]), { value: 1000, provisional: true, bot: false });
    assert.deepEqual(seatRating(t, seats[2]), { value: 1350, provisional: false, bot: true });
    assert.equal(seatRating(t, seats[3]), null);
    assert.equal(seatRating(t, seats[4]), null);
    assert.equal(seatRating(table({ rated: false }), seats[0]), null, 'casual tables show no rating');
    assert.deepEqual(seats.map((s) => hasProfile(t, s)), [true, true, false, false, false]);
    assert.equal(hasProfile(table({ rated: false }), seats[0]), false);
  });

  test('the rating changes of a finished rated table, in seat order, the viewer\'s marked', () => {
    const t = table({
      state: 'finished',
      rating_changes: [
        { seat: 1, before: 1000, after: 992, delta: -8, provisional: true },
        { seat: 0, before: 1234, after: 1257, delta: 23, provisional: false },
      ],
    });
    const changes = ratingChanges(t, 1);
    assert.deepEqual(changes.map((c) => [c.seat, c.name, c.text, c.kind, c.after, c.provisional, c.you]), [
      [0, 'Ann', '+23', 'up', 1257, false, false],
      [1, 'Bo', '\u22128', 'down', 992, true, true],
    ]);
    assert.equal(changesPending(t), false);
  });

  test('no changes at a casual table; a rated one waits for its update', () => {
    assert.deepEqual(ratingChanges(table({ state: 'finished', rated: false, rating_changes: [{ seat: 0, before: 1, after: 2, delta: 1 }] })), []);
    assert.deepEqual(ratingChanges(table({ state: 'finished' })), []);
    assert.equal(changesPending(table({ state: 'finished' })), true);
    assert.equal(changesPending(table({ state: 'playing' })), false);
    assert.equal(changesPending(table({ state: 'finished', rated: false })), false);
    assert.equal(ratingChanges(table({ state: 'finished', rating_changes: [{ seat: 0, before: 1000, after: 990 }] }))[0].text, '\u221210',
      'a change without its delta is after − before');
  });

  test('leaving counts only for a seated player of a running rated game', () => {
    assert.equal(leavingCounts(table(), 0), true);
    assert.equal(leavingCounts(table(), null), false);
    assert.equal(leavingCounts(table({ rated: false }), 0), false);
    assert.equal(leavingCounts(table({ state: 'waiting' }), 0), false);
    assert.equal(leavingCounts(table({ state: 'finished' }), 0), false);
  });

  test('the create form: rated by default when signed in; a guest cannot turn it on', () => {
    assert.deepEqual(ratedChoice(true), { checked: true, disabled: false });
    assert.deepEqual(ratedChoice(false), { checked: false, disabled: true });
  });

  test('a guest is told to sign in at a rated table only', () => {
    assert.equal(needsAccount(table(), false), true);
    assert.equal(needsAccount(table(), true), false);
    assert.equal(needsAccount(table({ rated: false }), false), false);
  });
});

describe('the leaderboard', () => {
  const rows = [
    { place: 1, name: 'Ann', value: 1600, games: 30 },
    { place: 2, name: 'Bo Lee', value: 1550, games: 18 },
    { place: 3, name: 'Cy', value: 1500, games: 12 },
  ];

  test('the viewer\'s own row is marked when on the list (the server\'s "you", case and spaces aside)', () => {
    const view = leaderboardView({ game: 'medici', min_games: 10, rows, you: { place: 2, name: 'bo  lee', value: 1550, games: 18 } });
    assert.deepEqual(view.rows.map((r) => r.you), [false, true, false]);
    assert.equal(view.you.place, 2);
    assert.equal(view.beyond, false);
    assert.equal(view.minGames, 10);
    assert.equal(view.game, 'medici');
  });

  test('beyond the list: "you are #12"', () => {
    const view = leaderboardView({ game: 'medici', min_games: 10, rows, you: { place: 12, name: 'Dee', value: 1300, games: 11 } });
    assert.deepEqual(view.rows.map((r) => r.you), [false, false, false]);
    assert.deepEqual(view.you, { place: 12, name: 'Dee', value: 1300, games: 11, you: true });
    assert.equal(view.beyond, true);
  });

  test('not qualified (or a guest): nobody is marked', () => {
    const view = leaderboardView({ game: 'medici', min_games: 10, rows, you: null }, null);
    assert.deepEqual(view.rows.map((r) => r.you), [false, false, false]);
    assert.equal(view.you, null);
    assert.equal(view.beyond, false);
    assert.equal(leaderboardView({ rows, you: null }, 'Cy').rows[2].you, true, 'without the server\'s "you", the viewer\'s name');
  });

  test('an empty or malformed answer is an empty board', () => {
    const view = leaderboardView({ game: 'medici', min_games: 10, rows: [], you: null });
    assert.deepEqual([view.rows, view.you, view.beyond], [[], null, false]);
    assert.deepEqual(leaderboardView(null).rows, []);
    assert.deepEqual(leaderboardView({ rows: [{ place: 1 }, null, { place: 2, name: 'X', value: 1200.4, games: 10 }] }).rows,
      [{ place: 2, name: 'X', value: 1200, games: 10, you: false }]);
  });
});

describe('a profile', () => {
  test('the games: the rating or none, the counts, the history', () => {
    const games = profileGames({
      games: [
        { game: 'medici', rating: { value: 1023, provisional: true }, played: 2, won: 1, finished: 2, left: 0,
          history: [{ at: 1, value: 1000, delta: 0, table: 'a' }, { at: 2, value: 1023, delta: 23, table: 'b' }, { at: 3 }] },
        { game: 'medina', rating: null, played: 0, won: 0, finished: 0, left: 0, history: [] },
        { game: 'silkroad' },
        null,
      ],
    });
    assert.deepEqual(games.map((g) => g.game), ['medici', 'medina', 'silkroad']);
    assert.deepEqual(games[0].rating, { value: 1023, provisional: true });
    assert.equal(games[0].history.length, 2, 'a point without a value is dropped');
    assert.equal(games[1].rating, null);
    assert.deepEqual([games[2].played, games[2].won, games[2].finished, games[2].left, games[2].history], [0, 0, 0, 0, []]);
  });

  test('the recent games: a change only at rated tables', () => {
    const rows = recentRows({
      recent: [
        { table: 'b', game: 'medici', finished_at: 20, players: 3, rank: 1, rated: true, delta: 23, private: false, left: false },
        { table: 'a', game: 'medina', finished_at: 10, players: 4, rank: 4, rated: false, delta: 5, private: true, left: true },
        { game: 'medici' },
      ],
    });
    assert.deepEqual(rows.map((r) => [r.table, r.rated, r.delta, r.private, r.left, r.rank, r.finishedAt]), [
      ['b', true, 23, false, false, 1, 20],
      ['a', false, null, true, true, 4, 10],
    ]);
    assert.deepEqual(recentRows({}), []);
  });
});
