#!/usr/bin/env bash
# How long a restart takes to bring back many unfinished tables: fills a data directory with N of them
# (bench/stored_tables, written through the server's own store), starts the server on it and times the moment
# /healthz first answers, then prints one JSON line (with the server's RSS then).
#   bench/restore.sh [server-binary] [tables] [moves]   defaults: build-release/server/emporium-server 10000 30
# The tools come from build-release/ (built here if missing) or, for the generator, build/.
set -euo pipefail
cd "$(dirname "$0")/.."
server="${1:-build-release/server/emporium-server}"
tables="${2:-10000}"
moves="${3:-30}"
generator=build-release/bench/stored_tables
[[ -x "$generator" ]] || generator=build/bench/stored_tables
[[ -x "$generator" ]] || { echo "build bench/stored_tables first (cmake --build build --target stored_tables)" >&2; exit 1; }
data="$(mktemp -d /tmp/emporium-restore.XXXXXX)"
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$data"' EXIT
"$generator" "$data" --tables "$tables" --moves "$moves" >/dev/null
start=$(date +%s.%N)
"$server" --bind 127.0.0.1 --port 0 --port-file "$data/port" --data-dir "$data" --web-root web-client \
  --merkator-data engine/games/merkator/merkator-data.json --log-level warn &
pid=$!
until [[ -s "$data/port" ]] && curl -sf "http://127.0.0.1:$(cat "$data/port")/healthz" >/dev/null; do
  kill -0 "$pid" 2>/dev/null || { echo "the server exited" >&2; exit 1; }
  sleep 0.01
done
end=$(date +%s.%N)
rss_kib=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
printf '{"tables":%d,"moves":%d,"healthzAfterS":%.3f,"rssMiB":%.1f}\n' "$tables" "$moves" \
  "$(echo "$end - $start" | bc)" "$(echo "$rss_kib / 1024" | bc -l)"
