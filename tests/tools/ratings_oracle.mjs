// The ratings oracle (issue 33; docs/ratings.md): the C++ rating update (server/ratings/) must equal the npm package
// openskill's (its default plackettLuce model with its default parameters) within 1e-6 on every mu and sigma, for
// thousands of seeded random games of 2 to 6 players with random rankings (ties included):
//  - independent games, each player with a random prior (some new, most anywhere in mu -10..60, sigma 0.05..12);
//  - leagues: a pool of players, all new, playing game after game, each game's priors openskill's results of the
//    games before (so also the small sigmas of settled players).
// Usage: node tests/tools/ratings_oracle.mjs <ratings_cli> [--games N] [--seed S]   (ctest runs it: Ratings.Oracle)
// Exits 0 when every value agrees, 1 with the first mismatches when not.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const kTolerance = 1e-6;
const kExpectedVersion = '5.0.1';

const args = process.argv.slice(2);
const cli = args[0];
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const totalGames = option('--games', 2400);
const seed = option('--seed', 33);
if (!cli || !(totalGames >= 10)) {
  console.error('usage: node tests/tools/ratings_oracle.mjs <ratings_cli> [--games N >= 10] [--seed S]');
  process.exit(2);
}

let openskill;
let version;
try {
  openskill = await import('openskill');
  version = JSON.parse(readFileSync(new URL('../../node_modules/openskill/package.json', import.meta.url))).version;
} catch (e) {
  console.error(`ratings oracle: the npm package openskill is not installed (${e.message}); run \`npm ci\` at the ` +
                'top of the repository (scripts/test.sh does)');
  process.exit(1);
}
if (version !== kExpectedVersion) {
  console.error(`ratings oracle: openskill ${version} is installed, the model follows ${kExpectedVersion} ` +
                '(package.json pins it; run `npm ci`)');
  process.exit(1);
}

// mulberry32: a small seeded generator, so that a failure is the same failure on every run.
function generator(state) {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = generator(seed);
const between = (low, high) => low + (high - low) * random();
const integer = (low, high) => low + Math.floor(random() * (high - low + 1));  // low..high inclusive
const shuffle = (list) => {
  for (let i = list.length - 1; i > 0; i -= 1) {
    const j = integer(0, i);
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
};

// Ranks for n players, ties in every shape: free draws (many ties), a strict order, a strict order with some
// neighbours merged, everyone tied.
function randomRanks(n) {
  const kind = random();
  if (kind < 0.35) return Array.from({ length: n }, () => integer(1, n));
  const order = shuffle(Array.from({ length: n }, (_, i) => i + 1));
  if (kind < 0.65) return order;
  if (kind < 0.95) {
    const merged = new Map();
    let rank = 1;
    for (let place = 1; place <= n; place += 1) {
      if (place > 1 && random() < 0.4) merged.set(place, merged.get(place - 1));
      else merged.set(place, rank++);
    }
    return order.map((place) => merged.get(place));
  }
  return Array(n).fill(integer(0, 9));
}

function randomPrior() {
  if (random() < 0.15) return openskill.rating();
  return { mu: between(-10, 60), sigma: Math.exp(between(Math.log(0.05), Math.log(12))) };
}

const games = [];  // { players: [{mu, sigma}], ranks, kind }
const leagues = 8;
const perLeague = Math.floor(totalGames / 2 / leagues);
for (let league = 0; league < leagues; league += 1) {
  const pool = Array.from({ length: 9 }, () => openskill.rating());
  for (let g = 0; g < perLeague; g += 1) {
    const seats = shuffle(Array.from(pool.keys())).slice(0, integer(2, 6));
    const ranks = randomRanks(seats.length);
    const players = seats.map((s) => ({ ...pool[s] }));
    games.push({ players, ranks, kind: `league ${league + 1}, game ${g + 1}` });
    const after = openskill.rate(players.map((p) => [p]), { rank: ranks });
    seats.forEach((s, i) => { pool[s] = after[i][0]; });
  }
}
while (games.length < totalGames) {
  const n = integer(2, 6);
  games.push({ players: Array.from({ length: n }, randomPrior), ranks: randomRanks(n), kind: 'independent' });
}

const input = games.map((g) => JSON.stringify({ players: g.players.map((p) => [p.mu, p.sigma]), ranks: g.ranks }))
  .join('\n') + '\n';
const run = spawnSync(cli, [], { input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
if (run.error || run.status !== 0) {
  console.error(`ratings oracle: ${cli} failed (${run.error?.message ?? `exit status ${run.status}`}):\n${run.stderr}`);
  process.exit(1);
}
const lines = run.stdout.split('\n').filter((l) => l.length > 0);
if (lines.length !== games.length) {
  console.error(`ratings oracle: ${games.length} games in, ${lines.length} results out`);
  process.exit(1);
}

let mismatches = 0;
let worst = 0;
const counts = [0, 0, 0, 0, 0, 0, 0];
let tied = 0;
games.forEach((game, index) => {
  counts[game.players.length] += 1;
  if (new Set(game.ranks).size < game.ranks.length) tied += 1;
  const expected = openskill.rate(game.players.map((p) => [p]), { rank: game.ranks }).map((team) => team[0]);
  const got = JSON.parse(lines[index]);
  const problems = [];
  if (!got.players || got.players.length !== expected.length) {
    problems.push(`C++ answered ${lines[index]}`);
  } else {
    expected.forEach((e, i) => {
      const [mu, sigma] = got.players[i];
      for (const [name, want, have] of [['mu', e.mu, mu], ['sigma', e.sigma, sigma]]) {
        const difference = Math.abs(want - have);
        if (!(difference <= kTolerance)) problems.push(`player ${i} ${name}: openskill ${want}, C++ ${have}`);
        else worst = Math.max(worst, difference);
      }
    });
  }
  if (problems.length > 0) {
    mismatches += 1;
    if (mismatches <= 5) {
      console.error(`ratings oracle: game ${index + 1} (${game.kind}) differs by more than ${kTolerance}:\n` +
                    `  priors ${JSON.stringify(game.players)}\n  ranks ${JSON.stringify(game.ranks)}\n  ` +
                    problems.join('\n  '));
    }
  }
});
const summary = `${games.length} games (${games.length - leagues * perLeague} independent, ${leagues} leagues of ` +
  `${perLeague}; ${counts.slice(2).map((c, i) => `${c}×${i + 2}p`).join(' ')}; ${tied} with ties), ` +
  `openskill ${version}, seed ${seed}`;
if (mismatches > 0) {
  console.error(`ratings oracle: FAILED: ${mismatches} of ${summary} differ by more than ${kTolerance}`);
  process.exit(1);
}
console.log(`ratings oracle: ${summary}: every mu and sigma within ${kTolerance} (largest difference ${worst})`);
