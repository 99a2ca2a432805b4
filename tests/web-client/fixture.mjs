// Shared by the *-model tests: the engine's own games, from build/tests/engine_fixture, and the
// replay of every viewer's steps through a game's reducer.
// engine_fixture <game> <players> <seed> plays a random game and prints, for every viewer, the
// initial view and per action the events, legal actions and view.
// Not a test file itself (no .test.mjs): node --test only runs it through the tests that import it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const buildDir = path.resolve(root, process.env.EMPORIUM_BUILD_DIR || 'build');
const fixtureBin = path.join(buildDir, 'tests', 'engine_fixture');

function run(game, players, seed) {
  if (!existsSync(fixtureBin)) {
    throw new Error(`${fixtureBin} is missing: build it first (cmake --build ${buildDir} --target engine_fixture), ` +
      'or point EMPORIUM_BUILD_DIR at the build directory');
  }
  const out = execFileSync(fixtureBin, [game, String(players), String(seed)], { maxBuffer: 512 << 20 });
  return JSON.parse(out.toString('utf8'));
}

// Cache the fixtures: several tests read the same games.
const games = new Map();

// The parsed fixture of one engine game: { viewers: [{ seat, initial, steps: [{ events, legal, view }] }] },
// one viewer per player and then the spectator (seat null).
export function engineGame(game, players, seed) {
  const key = `${game}/${players}/${seed}`;
  if (!games.has(key)) games.set(key, run(game, players, seed));
  return games.get(key);
}

// Replays every viewer of a fixture through applyEvents(view, events, version): each step's events
// applied to the previous view must give exactly the engine's view, without changing the previous
// one. check.minSteps: a game has more steps than this (per viewer). check.eachStep(view, step, who,
// i): more checks per step, view being the one before it. check.atEnd(view, who): checks of the
// final view. who names the viewer in messages ('seat 0' … or 'spectator').
export function replayViewers(fixture, players, applyEvents, check) {
  assert.equal(fixture.viewers.length, players + 1, 'one viewer per player plus a spectator');
  for (const viewer of fixture.viewers) {
    const who = viewer.seat === null ? 'spectator' : `seat ${viewer.seat}`;
    let view = viewer.initial;
    assert.ok(viewer.steps.length > check.minSteps, 'a game has many steps');
    viewer.steps.forEach((step, i) => {
      const before = JSON.stringify(view);
      const next = applyEvents(view, step.events, step.view.version);
      assert.equal(JSON.stringify(view), before, `${who}, step ${i}: the previous view must not be changed`);
      assert.deepEqual(next, step.view, `${who}, step ${i} (${step.events.map((e) => e.type).join(', ')})`);
      check.eachStep?.(view, step, who, i);
      view = next;
    });
    check.atEnd?.(view, who);
  }
}
