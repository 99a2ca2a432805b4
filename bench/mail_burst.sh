#!/usr/bin/env bash
# Other tables' latency while a restart mails 1,000 "your turn" at once (docs/benchmarks.md, "Mail burst").
# bench/stored_tables --accounts-mailed writes M unfinished tables whose seat to move is an account's (a confirmed
# address, "your turn" after 5 minutes); every run restarts a Release server (bench/release.sh) on a fresh copy of
# that data, and the project's load generator plays T other tables (Maritime Silk Road, 3 players and a spectator
# each, 1 move a second per table) for S seconds. A "burst" run has --smtp-url to tests/tools/smtp_sink.py and
# --mail-minute-ms 1000, so the M mails are due 5 s after the start: inside the window, which opens about 1.5 s
# after the start (once the generator's tables are set up), and early in it, so that the burst is much of it. A
# "baseline" run is the same without --smtp-url (no notifier, no mail; the sink idles). Rounds alternate which goes
# first. One JSON line per run (the mails' times in seconds from the window's start, from the files the sink
# writes), then a summary line of medians; exits 1 unless every burst mailed each of the M accounts exactly once.
# The sink is Python on the same two cores: N (the last argument) runs it at nice N, so that its own CPU weighs
# less on the server and the generator, as a mail server on another machine would; "none" runs no sink, and the
# bursts' --smtp-url names a closed port: the mails are marked sent, written and queued, and their first try fails
# (the notifier's and the store's part of a burst, without the sending).
#   bench/mail_burst.sh [rounds] [T] [S] [M] [N|none]   (default 3 rounds, 200 tables, 20 s, 1,000 mailed, nice 0)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-3}"
tables="${2:-200}"
seconds="${3:-20}"
mailed="${4:-1000}"
sink_nice="${5:-0}"
minute_ms=1000  # the accounts' delay, 5 "minutes", is then 5 s; the digest (an "hour") comes after the run
source bench/release.sh
cmake --build build-release --target stored_tables >/dev/null
work="$(mktemp -d /tmp/emporium-mail-burst.XXXXXX)"
server="" sink=""
cleanup() {
  [[ -n "$server" ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  [[ -n "$sink" ]] && kill "$sink" 2>/dev/null && wait "$sink" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
build-release/bench/stored_tables "$work/template" --tables "$mailed" --moves 30 --accounts-mailed 5 >/dev/null

run() {  # kind (burst or baseline) round
  local dir="$work/$1-$2" smtp_port load_start line flags=()
  mkdir -p "$dir/mails"
  cp -r "$work/template" "$dir/db"
  # The sink runs in both kinds (idle in a baseline), so that only the mail differs; none with "none".
  smtp_port=$(/usr/bin/python3 -c \
    'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  if [[ "$sink_nice" != none ]]; then
    nice -n "$sink_nice" /usr/bin/python3 tests/tools/smtp_sink.py "$smtp_port" "$dir/mails" >/dev/null &
    sink=$!
    for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/"$smtp_port") 2>/dev/null && break; sleep 0.05; done
  fi
  [[ "$1" == burst ]] && flags=(--smtp-url "smtp://127.0.0.1:$smtp_port" --mail-minute-ms "$minute_ms")
  local load_average server_start
  load_average="$(cut -d' ' -f1 /proc/loadavg)"
  server_start=$(date +%s.%N)
  start_server "$dir" "${flags[@]}" >"$dir/server.log" 2>&1  # its log (warnings) out of the JSON lines
  trap cleanup EXIT  # start_server's own would remove only this run's directory
  until curl -sf "http://127.0.0.1:$port/healthz" >/dev/null; do sleep 0.02; done
  load_start=$(date +%s.%N)
  line="$("$load" --port "$port" --server-pid "$server" --tables "$tables" --players 3 --spectators 1 \
    --seconds "$seconds" --rate 1 --seed "$2")"
  kill "$server"; wait "$server" 2>/dev/null || true; server=""
  local sink_cpu_s=0
  if [[ -n "$sink" ]]; then
    sink_cpu_s=$(awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / hz}' "/proc/$sink/stat")
    kill "$sink"; wait "$sink" 2>/dev/null || true; sink=""
  fi
  # The window starts when the generator's tables are set up and half a second has passed (bench/load/main.cpp).
  /usr/bin/python3 - "$1" "$2" "$sink_nice" "$load_average" "$server_start" "$load_start" "$sink_cpu_s" "$dir" \
    "$line" <<'PY'
import json, os, sqlite3, sys
kind, rnd, sink_nice, load_average, server_start, load_start, sink_cpu_s, run_dir, line = sys.argv[1:]
folder = os.path.join(run_dir, "mails")
# The once-only marks the notifier took, one per mail it queued (their times in whole seconds).
marks = sqlite3.connect(os.path.join(run_dir, "db", "emporium.db")).execute(
    "SELECT count(*), count(DISTINCT account), min(at), max(at) FROM mails_sent WHERE kind = 'your_turn'").fetchone()
load = json.loads(line)
start = float(load_start) + load["setupS"] + 0.5
times, accounts = [], set()
for name in os.listdir(folder):
    if name.endswith(".json"):
        path = os.path.join(folder, name)
        times.append(os.stat(path).st_mtime - start)
        accounts.update(json.load(open(path, encoding="utf-8"))["to"])
times.sort()
per_s = [0] * int(load["windowS"] + 0.999)
for t in times:
    if 0 <= t < len(per_s):
        per_s[int(t)] += 1
lat = load["latencyMs"]
print(json.dumps({
    "run": kind, "round": int(rnd), "sinkNice": None if sink_nice == "none" else int(sink_nice),
    "loadAverage": float(load_average),
    "p50Ms": lat["p50"], "p99Ms": lat["p99"], "maxMs": lat["max"], "moves": lat["n"],
    "serverCpuPct": load["server"]["cpuPct"], "generatorLagP99Ms": load["loadgen"]["eventLoopLagP99Ms"],
    "disconnects": load["disconnects"], "errors": load["errors"],
    "serverStartS": round(float(server_start) - start, 2),
    "marked": marks[0], "accountsMarked": marks[1],
    "markedS": [round(marks[2] - start, 1), round(marks[3] - start, 1)] if marks[0] else None,
    "mails": len(times), "accountsMailed": len(accounts),
    "firstMailS": round(times[0], 2) if times else None, "lastMailS": round(times[-1], 2) if times else None,
    "mailsPerSecond": per_s, "sinkCpuS": float(sink_cpu_s), "load": load}))
PY
}

lines=()
for round in $(seq "$rounds"); do
  if ((round % 2)); then order=(baseline burst); else order=(burst baseline); fi
  for kind in "${order[@]}"; do
    run "$kind" "$round" >"$work/line"  # not in a $(...): its server, sink and trap belong to this shell
    lines+=("$(cat "$work/line")")
    echo "${lines[-1]}"
  done
done
MAILED="$mailed" SINK="$sink_nice" node -e '
  const runs = process.argv.slice(1).map(JSON.parse);
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b), m = s.length >> 1;
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  };
  const of = (kind, f) => median(runs.filter((r) => r.run === kind).map(f));
  const bursts = runs.filter((r) => r.run === "burst");
  console.log(JSON.stringify({
    rounds: bursts.length,
    p50p99MsBaseline: [of("baseline", (r) => r.p50Ms), of("baseline", (r) => r.p99Ms)],
    p50p99MsBurst: [of("burst", (r) => r.p50Ms), of("burst", (r) => r.p99Ms)],
    serverCpuPct: [of("baseline", (r) => r.serverCpuPct), of("burst", (r) => r.serverCpuPct)],
    // What the mails cost the server: its CPU in the window, burst less baseline (medians), per mail marked.
    serverCpuMsPerMail: +((of("burst", (r) => r.serverCpuPct) - of("baseline", (r) => r.serverCpuPct)) / 100 *
                          of("burst", (r) => r.load.windowS) * 1000 / of("burst", (r) => r.marked)).toFixed(2),
    generatorLagP99Ms: [of("baseline", (r) => r.generatorLagP99Ms), of("burst", (r) => r.generatorLagP99Ms)],
    marked: bursts.map((r) => r.marked), mails: bursts.map((r) => r.mails),
    accountsMailed: bursts.map((r) => r.accountsMailed),
    baselineMails: runs.filter((r) => r.run === "baseline").map((r) => r.mails),
    markedSeconds: bursts.map((r) => r.markedS), mailSeconds: bursts.map((r) => [r.firstMailS, r.lastMailS]),
    peakMailsPerSecond: bursts.map((r) => Math.max(...r.mailsPerSecond)),
    sinkCpuS: bursts.map((r) => r.sinkCpuS),
  }));
  const m = +process.env.MAILED, sent = process.env.SINK !== "none";
  const right = (r) => r.run === "burst"
    ? r.marked === m && r.accountsMarked === m && (!sent || (r.mails === m && r.accountsMailed === m))
    : r.marked === 0 && r.mails === 0;
  if (!runs.every(right)) {
    console.error("a burst did not mail each of the " + m + " accounts exactly once, or a baseline mailed");
    process.exit(1);
  }' "${lines[@]}"
