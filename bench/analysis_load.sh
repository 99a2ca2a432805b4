#!/usr/bin/env bash
# Other tables' latency while the server analyses finished games (docs/benchmarks.md, "Analysis beside play").
# bench/stored_tables --finished writes K finished games (easy bots', 3 players); every run restarts a Release server
# (bench/release.sh) on a fresh copy of them with --analysis-threads N, and the project's load generator plays T
# other tables (Maritime Silk Road, 3 players and a spectator each, 1 move a second per table) for S seconds. An
# "analysing" run first asks for the analysis of all K games (POST /tables/<id>/analysis), so the analysis pool is
# busy for the whole window; a "baseline" run asks for none. Rounds alternate which goes first. One JSON line per
# run, then a summary of medians; exits 1 unless every analysing run had its pool busy to the window's end.
#   bench/analysis_load.sh [rounds] [T] [S] [K] [N] [game]   (default 3 rounds, 200 tables, 20 s, 12, 1, silkroad)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-3}"
tables="${2:-200}"
seconds="${3:-20}"
games="${4:-12}"
threads="${5:-1}"
game="${6:-silkroad}"
source bench/release.sh
cmake --build build-release --target stored_tables >/dev/null
work="$(mktemp -d /tmp/emporium-analysis-load.XXXXXX)"
server=""
cleanup() {
  [[ -n "$server" ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
build-release/bench/stored_tables "$work/template" --tables "$games" --game "$game" --finished "$work/ids" >/dev/null \
  2>&1

metric() {  # name: its value on /metrics (0 if absent)
  curl -sf "http://127.0.0.1:$port/metrics" | awk -v m="$1" '$1 == m { v = $2 } END { print v + 0 }'
}

run() {  # kind (analysing or baseline) round
  local dir="$work/$1-$2" line load_average done_before
  mkdir -p "$dir"
  cp -r "$work/template" "$dir/db"
  load_average="$(cut -d' ' -f1 /proc/loadavg)"
  start_server "$dir" --analysis-threads "$threads" --analysis-queue 1000 --analysis-asks-per-ip-per-minute 0 >"$dir/server.log" 2>&1
  trap cleanup EXIT  # start_server's own would remove only this run's directory
  until curl -sf "http://127.0.0.1:$port/healthz" >/dev/null; do sleep 0.02; done
  if [[ "$1" == analysing ]]; then
    while read -r id; do
      curl -sf -o /dev/null -X POST -H "Origin: http://127.0.0.1:$port" "http://127.0.0.1:$port/tables/$id/analysis" || { echo "POST $id failed" >&2; exit 1; }
    done <"$work/ids"
  fi
  done_before="$(metric emporium_analyses_done_total)"
  line="$("$load" --port "$port" --server-pid "$server" --tables "$tables" --players 3 --spectators 1 \
    --seconds "$seconds" --rate 1 --seed "$2")"
  local done_after queue_after
  done_after="$(metric emporium_analyses_done_total)"
  queue_after="$(metric emporium_analysis_queue)"
  kill "$server"; wait "$server" 2>/dev/null || true; server=""
  /usr/bin/python3 - "$1" "$2" "$load_average" "$done_before" "$done_after" "$queue_after" "$threads" "$line" <<'PY'
import json, sys
kind, rnd, load_average, done_before, done_after, queue_after, threads, line = sys.argv[1:]
load = json.loads(line)
lat = load["latencyMs"]
print(json.dumps({
    "run": kind, "round": int(rnd), "threads": int(threads), "loadAverage": float(load_average),
    "p50Ms": lat["p50"], "p99Ms": lat["p99"], "maxMs": lat["max"], "moves": lat["n"],
    "serverCpuPct": load["server"]["cpuPct"], "generatorLagP99Ms": load["loadgen"]["eventLoopLagP99Ms"],
    "disconnects": load["disconnects"], "errors": load["errors"],
    "analysesDone": int(float(done_after)) - int(float(done_before)), "queueAfter": int(float(queue_after)),
    "load": load}))
PY
}

lines=()
for round in $(seq "$rounds"); do
  if ((round % 2)); then order=(baseline analysing); else order=(analysing baseline); fi
  for kind in "${order[@]}"; do
    run "$kind" "$round" >"$work/line"  # not in a $(...): its server and trap belong to this shell
    lines+=("$(cat "$work/line")")
    echo "${lines[-1]}"
  done
done
node -e '
  const runs = process.argv.slice(1).map(JSON.parse);
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b), m = s.length >> 1;
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  };
  const of = (kind, f) => median(runs.filter((r) => r.run === kind).map(f));
  const busy = runs.filter((r) => r.run === "analysing");
  console.log(JSON.stringify({
    rounds: busy.length, threads: runs[0].threads,
    p50p99MaxMsBaseline: [of("baseline", (r) => r.p50Ms), of("baseline", (r) => r.p99Ms), of("baseline", (r) => r.maxMs)],
    p50p99MaxMsAnalysing: [of("analysing", (r) => r.p50Ms), of("analysing", (r) => r.p99Ms),
                           of("analysing", (r) => r.maxMs)],
    movesBaselineAnalysing: [of("baseline", (r) => r.moves), of("analysing", (r) => r.moves)],
    serverCpuPct: [of("baseline", (r) => r.serverCpuPct), of("analysing", (r) => r.serverCpuPct)],
    analysesDone: busy.map((r) => r.analysesDone), queueAfter: busy.map((r) => r.queueAfter),
  }));
  // The pool must have been busy to the end of the window: games still queued after it.
  if (!busy.every((r) => r.queueAfter > 0)) {
    console.error("an analysing run ran out of games to analyse inside its window: ask for more (K)");
    process.exit(1);
  }' "${lines[@]}"
