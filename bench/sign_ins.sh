#!/usr/bin/env bash
# What many password sign-ins at once do to the tables being played (docs/benchmarks.md, "Sign-ins beside play").
# A Release server (bench/release.sh) with --trusted-proxies 127.0.0.1, so that each account signs up and in from
# an address of its own (bench/sign_ins.mjs). N accounts are made first. Then the project's load generator plays
# T tables of Maritime Silk Road (3 players and a spectator each, 1 move a second per table) for S seconds, twice:
# alone, then with the N sign-ins fired at once a third of the way into the window. Prints both load lines, the
# sign-ins' own times, and a summary line.
#   bench/sign_ins.sh [N] [T] [S]   (default 100 sign-ins, 200 tables, 30 s)
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-100}"
tables="${2:-200}"
seconds="${3:-30}"
source bench/release.sh
dir="$(mktemp -d)"
start_server "$dir" --trusted-proxies 127.0.0.1
node bench/sign_ins.mjs "$port" "$n" make
run() {  # seed
  "$load" --port "$port" --server-pid "$server" --tables "$tables" --players 3 --spectators 1 --seconds "$seconds" \
    --rate 1 --seed "$1"
}
alone="$(run 1)"
echo "$alone"
# The generator sets its tables up first (a second or two), then measures for S seconds.
(sleep $((seconds / 3 + 2)); node bench/sign_ins.mjs "$port" "$n" go >"$dir/sign-ins.json") &
signing_in=$!
beside="$(run 2)"
wait "$signing_in"
echo "$beside"
cat "$dir/sign-ins.json"
node -e '
  const [a, b, s] = process.argv.slice(1).map(JSON.parse);
  console.log(JSON.stringify({
    p50p99MsAlone: [a.latencyMs.p50, a.latencyMs.p99], p50p99MsWithSignIns: [b.latencyMs.p50, b.latencyMs.p99],
    signIns: s.signIns, signedIn: s.ok, signInMs: s.ms, allSignedInMs: s.allDoneMs, pageSessionMs: s.pageSessionMs,
    serverCpuPct: [a.server.cpuPct, b.server.cpuPct],
  }));' "$alone" "$beside" "$(cat "$dir/sign-ins.json")"
