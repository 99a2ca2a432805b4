#!/usr/bin/env bash
# The three standard loads, against a freshly built Release server, with the project's load generator
# (build-release/bench/emporium-load, which starts the server on a fresh data directory and stops it). Maritime
# Silk Road, 3 players and a spectator per table, each on its own connection; one JSON line per load from the
# generator, then a summary line:
#   1. 500 tables at full speed: server CPU per accepted action (cpuPct/100 x window / moves);
#   2. 100 tables at full speed: p50/p99 action -> last viewer;
#   3. 2,500 tables at 1 action/s per table (10,000 connections): p99, server RSS, connections dropped.
#   bench/loads.sh [seconds]   (default 20 per load; the summary needs node)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-20}"
source bench/release.sh
run() {  # tables rate
  "$load" --spawn --server-bin build-release/server/emporium-server --project . --port 0 --tables "$1" --players 3 \
    --spectators 1 --seconds "$seconds" --rate "$2"
}
full500=$(run 500 0); echo "$full500"
full100=$(run 100 0); echo "$full100"
many=$(run 2500 1); echo "$many"
node -e '
  const [a, b, c] = process.argv.slice(1).map(JSON.parse);
  const us = (r) => (r.server.cpuPct / 100 * r.windowS * 1e6 / r.movesAccepted).toFixed(1);
  console.log(JSON.stringify({
    cpuPerActionUs500: +us(a), movesPerSec500: a.movesPerSec,
    p50p99Ms100: [b.latencyMs.p50, b.latencyMs.p99],
    p99Ms2500: c.latencyMs.p99, rssMiB2500: c.server.peakRssMiB, disconnects2500: c.disconnects,
    generatorCpuPct: [a.loadgen.cpuPct, b.loadgen.cpuPct, c.loadgen.cpuPct],
  }));' "$full500" "$full100" "$many"
