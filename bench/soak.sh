#!/usr/bin/env bash
# Memory over a soak: a freshly built Release server plays Maritime Silk Road at full speed with the project's load
# generator (100 tables of 3 players and a spectator, every finished game replaced by a new table) for
# `seconds` (default 600), while this script samples the server's RSS every 10 s. Finished tables leave memory
# once nobody is connected (--finished-unwatched-s, 60 s by default), so RSS must level off: the summary compares
# the last minute's mean with the second minute's.
#   bench/soak.sh [seconds] [tables]   (the summary needs node)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-600}"
tables="${2:-100}"
source bench/release.sh
data="$(mktemp -d /tmp/emporium-soak.XXXXXX)"
start_server "$data"
samples="$data/rss"
( while kill -0 "$server" 2>/dev/null; do
    echo "$(date +%s) $(awk '/^VmRSS/ {print $2}' /proc/$server/status)"
    sleep 10
  done ) > "$samples" &
sampler=$!
result=$("$load" --port "$port" --server-pid "$server" --tables "$tables" --players 3 --spectators 1 \
              --seconds "$seconds" --rate 0)
kill "$sampler" 2>/dev/null || true
echo "$result"
node -e '
  const [result, samples] = process.argv.slice(1);
  const r = JSON.parse(result);
  const rows = samples.trim().split("\n").map((l) => l.split(" ").map(Number));
  const t0 = rows[0][0];
  const mib = (kb) => +(kb / 1024).toFixed(1);
  const mean = (from, to) => { const v = rows.filter(([t]) => t - t0 >= from && t - t0 < to).map(([, kb]) => kb);
                               return v.length ? v.reduce((a, b) => a + b, 0) / v.length : NaN; };
  const end = rows[rows.length - 1][0] - t0;
  const second = mean(60, 120), last = mean(end - 60, end + 1);
  console.log(JSON.stringify({
    seconds: r.windowS, moves: r.movesAccepted, movesPerSec: r.movesPerSec, gamesFinished: r.gamesFinished,
    rssMiB: rows.map(([t, kb]) => [t - t0, mib(kb)]),
    secondMinuteMiB: mib(second), lastMinuteMiB: mib(last), lastOverSecond: +(last / second).toFixed(3),
  }));' "$result" "$(cat "$samples")"
