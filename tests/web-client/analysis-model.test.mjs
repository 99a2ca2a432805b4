// The replay's analysis, its pure part (web-client/js/models/analysis-model.js): where it is read and asked for, what
// each answer of the routes means, the graph's geometry, the nearest position to a click, the marked decisions.
import test from 'node:test';
import assert from 'node:assert/strict';
import {
  MARKS, analysisPath, analysisStatus, canAsk, percent, analysisGeometry, positionTicks, nearestPosition, positionX,
  markedDecisionAt, chanceBefore,
} from '../../web-client/js/models/analysis-model.js';
import { translate } from '../../web-client/js/core/i18n/index.js';
import en from '../../web-client/js/core/i18n/en.js';
import ja from '../../web-client/js/core/i18n/ja.js';

/** A 2-seat game of 4 actions: seat 1 blundered with action 2 (decided at position 1), seat 0 was inaccurate with action 4. */
const ANALYSIS = {
  positions: [
    { version: 0, chances: [0.5, 0.5], intervals: [[0.3, 0.7], [0.3, 0.7]] },
    { version: 1, chances: [0.25, 0.75], intervals: [[0.1, 0.4], [0.6, 0.9]] },
    { version: 2, chances: [1, 0], intervals: [[0.9, 1], [0, 0.1]] },
    { version: 3, chances: [1, 0], intervals: [[0.9, 1], [0, 0.1]] },
    { version: 4, chances: [1, 0], intervals: [[1, 1], [0, 0]] },
  ],
  decisions: [
    { version: 0, seat: 0, mark: null },
    { version: 1, seat: 1, mark: 'blunder', chance_played: 0, chance_preferred: 0.75 },
    { version: 3, seat: 0, mark: 'inaccuracy', chance_played: 1, chance_preferred: 1 },
  ],
};

test('the routes: analysis.json to read, analysis to ask; a private table\'s invite on both', () => {
  assert.equal(analysisPath('t1'), '/tables/t1/analysis.json');
  assert.equal(analysisPath('t1', null, { ask: true }), '/tables/t1/analysis');
  assert.equal(analysisPath('t 1', 'c/d'), '/tables/t%201/analysis.json?invite=c%2Fd');
  assert.equal(analysisPath('t1', 'abc', { ask: true }), '/tables/t1/analysis?invite=abc');
});

test('every answer of the contract means one state', () => {
  assert.deepEqual(analysisStatus(200, { positions: [] }), { kind: 'done' });
  assert.deepEqual(analysisStatus(200, { status: 'done' }), { kind: 'done' });
  assert.deepEqual(analysisStatus(202, { status: 'queued', ahead: 3 }), { kind: 'queued', ahead: 3 });
  assert.deepEqual(analysisStatus(202, { status: 'running', done: 400, planned: 1000 }), { kind: 'running', percent: 40 });
  assert.deepEqual(analysisStatus(202, { status: 'running', done: 999, planned: 1000 }), { kind: 'running', percent: 99 }, 'never 100% before it is done');
  assert.deepEqual(analysisStatus(202, { status: 'running', done: 5, planned: 0 }), { kind: 'running', percent: 0 });
  assert.deepEqual(analysisStatus(404, { error: 'not_analysed' }), { kind: 'absent' });
  assert.deepEqual(analysisStatus(404, { error: 'no_table' }), { kind: 'noTable' });
  assert.deepEqual(analysisStatus(403, { error: 'private' }), { kind: 'private' });
  assert.deepEqual(analysisStatus(409, { error: 'not_finished' }), { kind: 'notFinished' });
  assert.deepEqual(analysisStatus(429, { error: 'busy' }, '30'), { kind: 'busy', retryAfter: 30 });
  assert.deepEqual(analysisStatus(429, null, null), { kind: 'busy', retryAfter: null });
  assert.deepEqual(analysisStatus(503, { error: 'analysis_off' }), { kind: 'off' });
  assert.deepEqual(analysisStatus(503, { error: 'unavailable' }), { kind: 'unavailable' });
  assert.deepEqual(analysisStatus(500, null), { kind: 'failed' });
  assert.equal(canAsk('absent'), true);
  assert.equal(canAsk('busy'), true);
  assert.equal(canAsk('off'), false, 'no button on a server that runs no analyses');
  assert.equal(canAsk('running'), false);
  assert.equal(canAsk('private'), false);
});

test('the graph: x the position, y the chance from 0% at the bottom to 100% at the top, one line and band per seat', () => {
  const g = analysisGeometry(ANALYSIS, { width: 140, height: 120, top: 10, right: 10, bottom: 10, left: 10 });
  assert.deepEqual(g.plot, { x0: 10, x1: 130, y0: 110, y1: 10 });
  assert.equal(g.last, 4);
  assert.deepEqual(g.seats.map((s) => s.seat), [0, 1]);
  assert.equal(g.seats[0].path, 'M10 60 L40 85 L70 10 L100 10 L130 10');
  assert.equal(g.seats[1].path, 'M10 60 L40 35 L70 110 L100 110 L130 110');
  assert.equal(g.seats[0].band, 'M10 40 L40 70 L70 10 L100 10 L130 10 L130 10 L100 20 L70 20 L40 100 L10 80 Z');
  assert.deepEqual(g.yTicks.map((t) => [t.value, t.y]), [[0, 110], [0.25, 85], [0.5, 60], [0.75, 35], [1, 10]]);
  assert.deepEqual(g.xTicks.map((t) => t.position), [0, 1, 2, 3, 4]);
  // Each mark sits on the mover's line at the position its move reached.
  assert.deepEqual(g.marks.map((m) => [m.position, m.seat, m.mark, m.x, m.y]), [[2, 1, 'blunder', 70, 110], [4, 0, 'inaccuracy', 130, 10]]);
  assert.equal(positionX(2, g), 70);
  const flat = analysisGeometry({ positions: [{ chances: [1, 0] }], decisions: [] });
  assert.equal(flat.last, 0);
  assert.equal(flat.seats[0].band, '', 'no intervals: no band');
});

test('a click goes to the nearest position, clamped to the game', () => {
  const g = analysisGeometry(ANALYSIS, { width: 140, height: 120, top: 10, right: 10, bottom: 10, left: 10 });
  assert.equal(nearestPosition(10, g), 0);
  assert.equal(nearestPosition(54, g), 1);
  assert.equal(nearestPosition(56, g), 2);
  assert.equal(nearestPosition(129, g), 4);
  assert.equal(nearestPosition(-50, g), 0);
  assert.equal(nearestPosition(500, g), 4);
  for (let p = 0; p <= 4; p++) assert.equal(nearestPosition(positionX(p, g), g), p);
});

test('the x axis is labelled at 0, the last position and round steps that keep clear of it', () => {
  assert.deepEqual(positionTicks(0), [0]);
  assert.deepEqual(positionTicks(107), [0, 20, 40, 60, 80, 107]);
  assert.deepEqual(positionTicks(101), [0, 20, 40, 60, 80, 101]);
  assert.deepEqual(positionTicks(303), [0, 100, 200, 303]);
});

test('the marked decision that reached a position, and the mover\'s chance before it', () => {
  assert.equal(markedDecisionAt(ANALYSIS, 2).mark, 'blunder');
  assert.equal(markedDecisionAt(ANALYSIS, 4).mark, 'inaccuracy');
  assert.equal(markedDecisionAt(ANALYSIS, 1), null, 'an unmarked decision is not shown');
  assert.equal(markedDecisionAt(ANALYSIS, 3), null);
  assert.equal(chanceBefore(ANALYSIS, ANALYSIS.decisions[1]), 0.75);
  assert.equal(percent(0.1234), 12);
  assert.equal(percent(0.715), 72);
  assert.deepEqual(Object.keys(MARKS), ['blunder', 'mistake', 'inaccuracy']);
});

test('a player\'s summary is plural-correct in English and reads in Japanese', () => {
  const line = (catalog, lang, s) => translate(catalog, 'analysis.summary', {
    inaccuracies: translate(catalog, 'analysis.inaccuracies', { count: s[0] }, lang),
    mistakes: translate(catalog, 'analysis.mistakes', { count: s[1] }, lang),
    blunders: translate(catalog, 'analysis.blunders', { count: s[2] }, lang),
    best: 71,
  }, lang);
  assert.equal(line(en, 'en', [0, 3, 1]), '0 inaccuracies, 3 mistakes, 1 blunder; best move found 71% of the time');
  assert.equal(line(en, 'en', [1, 1, 2]), '1 inaccuracy, 1 mistake, 2 blunders; best move found 71% of the time');
  assert.equal(line(ja, 'ja', [0, 3, 1]), '疑問手0回、悪手3回、大悪手1回。最善手を選んだ割合 71%');
  assert.equal(translate(en, 'analysis.markName', { name: 'Bot 1', move: 34, mark: translate(en, 'analysis.mark.blunder') }), 'Bot 1, move 34: blunder');
});
