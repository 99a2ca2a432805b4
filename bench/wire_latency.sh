#!/usr/bin/env bash
# Latency as the wire sees it: a freshly built Release server under one of the standard loads (the project's
# generator, Maritime Silk Road, 3 players and a spectator per table) while tcpdump records its loopback traffic
# for a few seconds in the middle of the run; bench/wire_latency.js then prints the time from each `act` leaving
# the generator to its table's last `events` frame leaving the server. The generator's own figure adds the time it
# takes itself to send and to read (on a 2-core machine the two processes share the cores): the two lines side by
# side say which side a tail is on. Needs tcpdump (Debian's package) and the right to capture (root).
#   bench/wire_latency.sh [tables] [rate]   (default 100 tables at full speed; 2500 1 for the 10,000 connections)
set -euo pipefail
cd "$(dirname "$0")/.."
tables="${1:-100}"
rate="${2:-0}"
command -v tcpdump >/dev/null || { echo "tcpdump is needed (apt-get install tcpdump)" >&2; exit 1; }
source bench/release.sh
data="$(mktemp -d /tmp/emporium-wire.XXXXXX)"
start_server "$data"
"$load" --port "$port" --server-pid "$server" --tables "$tables" --players 3 --spectators 1 --seconds 20 \
  --rate "$rate" > "$data/load.json" &
generator=$!
sleep 8  # set-up done, measuring
# Only segments that carry data, and only their first 400 bytes: a frame's head holds its table and version.
timeout 4 tcpdump -i lo -n -s 400 -B 131072 -w "$data/wire.pcap" "tcp port $port and (tcp[tcpflags] & tcp-push != 0)" \
  2>/dev/null || true
wait "$generator"
cat "$data/load.json"
node bench/wire_latency.js "$data/wire.pcap" "$port"
