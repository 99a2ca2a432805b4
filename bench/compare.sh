#!/usr/bin/env bash
# Two server binaries under the three standard loads (bench/loads.sh's), taking turns: each round runs every load
# once against each binary, the first binary first in odd rounds and second in even ones, so that a drift of the
# machine's speed weighs on both alike. One JSON line per run: the generator's, with the binary ("a" or "b") and the
# machine's load average (uptime) just before the run put in front.
#   bench/compare.sh SERVER_A SERVER_B [rounds] [seconds]   (default 3 rounds of 20 s runs)
set -euo pipefail
cd "$(dirname "$0")/.."
a="$(realpath "$1")"
b="$(realpath "$2")"
rounds="${3:-3}"
seconds="${4:-20}"
source bench/release.sh  # the generator, built into build-release/ (with this checkout's server, not used here)
run() {  # name binary tables rate
  local load_average
  load_average="$(cut -d' ' -f1 /proc/loadavg)"
  "$load" --spawn --server-bin "$2" --project . --port 0 --tables "$3" --players 3 --spectators 1 \
    --seconds "$seconds" --rate "$4" | sed "s/^{/{\"binary\":\"$1\",\"loadAverage\":$load_average,/"
}
for round in $(seq "$rounds"); do
  for shape in "500 0" "100 0" "2500 1"; do
    if ((round % 2)); then
      run a "$a" $shape
      run b "$b" $shape
    else
      run b "$b" $shape
      run a "$a" $shape
    fi
  done
done
