#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan, build-fuzz/) and runs each for the given time.
#   scripts/fuzz.sh [seconds] [target...]    default 30 s, every target
#   scripts/fuzz.sh build [target...]        only build them (scripts/test.sh builds while other tests run)
# Targets (tests/fuzz/): fuzz_protocol, fuzz_<game> for every game, fuzz_merkator_data; by default all of them
# (every target with a seed corpus). Each starts from its seed corpus in tests/fuzz/corpus/<name>/ (read only)
# and keeps what it finds in build-fuzz/corpus/<name>/; a crash leaves its input in build-fuzz/artifacts/ and
# fails the script.
# Extra libFuzzer flags can be passed in FUZZ_FLAGS (e.g. FUZZ_FLAGS=-runs=10000000). JOBS sets the build's
# parallelism (default 1), FUZZ_JOBS how many targets run at once (default 1). Each run's log is
# build-fuzz/logs/<name>.log; its closing figures are printed. A target named twice (with FUZZ_JOBS=2) runs as two
# processes on one corpus, to give one target two cores.
# FUZZ_SANITIZE=none: the campaign build instead, for long runs (e.g. FUZZ_FLAGS=-runs=10000000): the same
# targets instrumented for coverage only (-fsanitize=fuzzer, -O2; no ASan nor UBSan; tests/fuzz/fast/), several
# times faster (docs/testing.md), in build-fuzz-fast/ (its corpus, artifacts and logs there too). Re-run what it finds in
# the ASan + UBSan build. FUZZ_SANITIZE unset (or address,undefined) is the build above, which CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
shift || true
build_only=false
[[ "$seconds" == build ]] && build_only=true
targets=("$@")
if ((${#targets[@]} == 0)); then
  for corpus in tests/fuzz/corpus/*/; do targets+=("fuzz_$(basename "$corpus")"); done
fi
scripts/setup.sh --test

case "${FUZZ_SANITIZE:-address,undefined}" in
  address,undefined)
    out=build-fuzz
    cmake -S . -B "$out" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DEMPORIUM_WERROR=ON -DEMPORIUM_BUILD_SERVER=OFF -DEMPORIUM_BUILD_TESTS=OFF -DEMPORIUM_BUILD_BENCH=OFF \
      -DEMPORIUM_FUZZ=ON >/dev/null
    ;;
  none)
    out=build-fuzz-fast
    cmake -S tests/fuzz/fast -B "$out" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DEMPORIUM_WERROR=ON >/dev/null
    ;;
  *) echo "fuzz: FUZZ_SANITIZE is address,undefined (the default) or none" >&2; exit 2 ;;
esac
cmake --build "$out" -j "${JOBS:-1}" --target "${targets[@]}"
$build_only && exit 0

mkdir -p "$out/logs" "$out/artifacts"
# No allocation stacks (a third of the time goes to recording them); re-run a crash's input with
# ASAN_OPTIONS=malloc_context_size=30 to see where its memory came from.
export ASAN_OPTIONS="${ASAN_OPTIONS:-malloc_context_size=0}"
run_one() {  # target log
  local t="$1" name="${1#fuzz_}" log="$2"
  mkdir -p "$out/corpus/$name"
  local flags=(-max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1
               -artifact_prefix="$out/artifacts/$name-")
  [[ -f "tests/fuzz/$name.dict" ]] && flags+=(-dict="tests/fuzz/$name.dict")
  # shellcheck disable=SC2086  # FUZZ_FLAGS is a list of flags
  if ! "$out/tests/fuzz/$t" "${flags[@]}" ${FUZZ_FLAGS:-} "$out/corpus/$name" "tests/fuzz/corpus/$name" \
      >"$log" 2>&1; then
    echo "fuzz: $t FAILED; the end of $log:" >&2
    tail -n 60 "$log" >&2
    return 1
  fi
  # "#123456 DONE cov: 1234 ft: 5678 corp: ..." and "stat::average_exec_per_sec: 4567"
  local done_line rate
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1 || true)
  rate=$(awk '/stat::average_exec_per_sec/ {print $2}' "$log")
  echo "fuzz: $t ok: ${done_line:-?} (${rate:-?} exec/s)"
}

# FUZZ_JOBS targets at a time (default 1): each run is one process on one core. A target named twice runs as two
# processes on its one corpus (libFuzzer reloads the directory every second, so they share what they find); the
# second one's log is <target>-2.log.
running=()
failed=0
declare -A runs_of
for t in "${targets[@]}"; do
  n=$(( ${runs_of[$t]:-0} + 1 ))
  runs_of[$t]=$n
  log="$out/logs/${t#fuzz_}.log"
  ((n == 1)) || log="$out/logs/${t#fuzz_}-$n.log"
  run_one "$t" "$log" &
  running+=($!)
  if ((${#running[@]} >= ${FUZZ_JOBS:-1})); then
    wait "${running[0]}" || failed=1
    running=("${running[@]:1}")
  fi
done
for pid in "${running[@]}"; do wait "$pid" || failed=1; done
exit "$failed"
