#!/usr/bin/env bash
# The load generator's own floor: the same load as the figures (Maritime Silk Road, 3 players and a spectator per
# table, build-release/bench/emporium-load), but the server alone on one core (one network thread, its data in
# /dev/shm so no write waits for the disk) and the generator alone on the other. Prints the generator's JSON line, then its p99
# beside the server's own histogram (`emporium_action_latency_seconds`: a move from its arrival to its frames
# queued): what the generator reports above what the server took is the generator's and the machine's.
#   bench/generator_floor.sh [tables] [rate]   (default 100 tables at full speed; needs two cores and taskset)
set -euo pipefail
cd "$(dirname "$0")/.."
tables="${1:-100}"
rate="${2:-0}"
command -v taskset >/dev/null || { echo "taskset is needed (util-linux)" >&2; exit 1; }
source bench/release.sh
start_server "$(mktemp -d /dev/shm/emporium-floor.XXXXXX)" --threads 1
taskset -a -p -c 1 "$server" >/dev/null  # every thread of the server, on the second core
line="$(taskset -c 0 "$load" --port "$port" --server-pid "$server" --tables "$tables" --players 3 \
  --spectators 1 --seconds 20 --rate "$rate")"
echo "$line"
node -e '
  const load = JSON.parse(process.argv[1]);
  fetch(`http://127.0.0.1:${process.argv[2]}/metrics`).then((r) => r.text()).then((text) => {
    const bucket = (le) => +new RegExp(`emporium_action_latency_seconds_bucket\\{le="${le}"\\} (\\d+)`).exec(text)[1];
    const all = bucket("\\+Inf");
    const over = (le) => +(100 * (all - bucket(le)) / all).toFixed(3);
    console.log(JSON.stringify({ generatorP50Ms: load.latencyMs.p50, generatorP99Ms: load.latencyMs.p99,
      serverMoves: all, serverOver2_5msPct: over("0.0025"), serverOver5msPct: over("0.005"),
      serverOver10msPct: over("0.01") }));
  });' "$line" "$port"
