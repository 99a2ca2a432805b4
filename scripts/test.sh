#!/usr/bin/env bash
# Installs what is missing, builds everything (warnings are errors) and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step says when it starts, counted from here, so that a slow CI run shows where its time went.
step() { echo "== test.sh: $* (at $SECONDS s)" >&2; }
step "setup"
scripts/setup.sh --test
step "the normal build"
# Optimized without debug information: these binaries are for running the tests (the sanitized build below has
# line tables for its reports), and full debug information makes this build much longer.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" \
  -DEMPORIUM_WERROR=ON >/dev/null
cmake --build build
# The benchmark must at least run: one quick pass so it cannot rot.
build/bench/engine_bench --benchmark_filter='apply.events/medici/3p' --benchmark_min_time=0.01 \
  | grep 'apply+events/medici/3p' >/dev/null || { echo "engine_bench did not run" >&2; exit 1; }
# The C++ suite runs once, each test where it checks most within CI's time (docs/testing.md). Two ctest labels
# (tests/CMakeLists.txt) pick the tests that run here, unsanitized:
# - no_sanitizer: the bot latency bound (BotLoad: it measures this build's speed) and the out-of-descriptors test
#   (the sanitizer runtime needs descriptors itself);
# - unsanitized_in_ci: the engine's randomized property suites (AllGames/*: many random games per game and player
#   count), the end-to-end games that normal bots play (every decision a Monte Carlo search: under ASan too slow
#   for the tests' waits for a frame on a busy machine), and the cluster test (its bound on a dead node's tables
#   coming back is about this build's speed);
# every other test runs under AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/); then each libFuzzer
# target for 20 s from its corpus (build-fuzz/), two at a time.
step "the unsanitized tests"
ctest --test-dir build --output-on-failure -j "$(nproc)" -L 'no_sanitizer|unsanitized_in_ci'

# The web client's tests use the normal build only, and leave part of the machine idle (they wait for pages and
# the server): the sanitized and the fuzzing builds run beside them at the lowest priority, so they take only what
# the tests leave, and the fuzz targets run for a fixed time whatever they get. Their output goes to a log, shown
# when they fail.
step "the web client, with the sanitized and fuzzing builds beside it"
mkdir -p build
beside_log=build/beside-web.log
# setsid: a process group of their own, so that stopping them (a web test failed) stops their compilers too.
# shellcheck disable=SC2016  # expanded by the inner shell
setsid -w nice -n 19 bash -c 'ASAN_EXCLUDE_LABELS=unsanitized_in_ci JOBS="$(nproc)" scripts/sanitize.sh asan build &&
  JOBS="$(nproc)" FUZZ_JOBS="$(nproc)" scripts/fuzz.sh 20' >"$beside_log" 2>&1 &
beside=$!
trap 'kill -- "-$beside" 2>/dev/null || true' EXIT
# The web client: unit tests of its pure modules, then the browser tests (headless Chromium).
if [[ -f package-lock.json ]]; then npm ci --no-audit --no-fund >/dev/null; else npm install --no-audit --no-fund >/dev/null; fi
npm run --silent test:unit
npm run --silent test:browser
step "waiting for the sanitized and fuzzing builds"
if ! wait "$beside"; then
  echo "the sanitized build or the fuzz targets failed; the end of $beside_log:" >&2
  tail -n 150 "$beside_log" >&2
  exit 1
fi
trap - EXIT
grep '^fuzz: ' "$beside_log" || true
step "the sanitized tests"
CTEST_JOBS="$(nproc)" ASAN_EXCLUDE_LABELS=unsanitized_in_ci scripts/sanitize.sh asan test
step "done"
