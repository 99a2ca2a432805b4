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
# line tables for its reports), and full debug information makes this build much longer. The executables whose
# tests carry no label are not built here: those tests run in the sanitized build only (see below).
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" \
  -DEMPORIUM_WERROR=ON -DEMPORIUM_UNLABELLED_TESTS=OFF >/dev/null
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
#   for the tests' waits for a frame on a busy machine), and the cluster and database-fault tests (their bounds on
#   tables moving again are about this build's speed);
# every other test runs under AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/, clang), after the web
# client's tests; then each libFuzzer target for 20 s from its corpus (build-fuzz/), two at a time.
#
# The sanitized and fuzzing builds run beside the other unsanitized tests and the web client's tests, which leave
# part of the machine idle (the database fault tests and the browser tests mostly wait). They run at the lowest priority
# so they take only what the tests leave: nice 19 in a session of their own (setsid: stopping the group stops
# their compilers too) whose autogroup is niced as well, as the kernel shares the CPU between sessions first.
# Their output goes to a log, shown when they fail.

# First, with nothing beside them: the two tests whose bounds are about how fast this machine runs a loaded server
# (the cluster test's 300 tables, a killed node's tables back within 10 s; BotLoad's p99 with fifty bot tables at
# full speed). Even a build at the lowest priority took enough of the machine to fail the cluster test once here.
step "the cluster and bot-load tests, alone"
ctest --test-dir build --output-on-failure -R '^(Cluster|BotLoad)\.'

step "the sanitized and fuzzing builds start beside the tests"
beside_log=build/beside-tests.log
# The fuzzing build goes first: its few large files leave a core idle at its end, which the sanitized build's many
# files fill; the other way round, the machine waited for its last files alone.
# shellcheck disable=SC2016  # expanded by the inner shell
setsid -w bash -c 'echo 19 >/proc/self/autogroup 2>/dev/null || true
  exec nice -n 19 bash -c "JOBS=$(nproc) scripts/fuzz.sh build &&
    ASAN_EXCLUDE_LABELS=unsanitized_in_ci JOBS=$(nproc) scripts/sanitize.sh asan build"' >"$beside_log" 2>&1 &
beside=$!
trap 'kill -- "-$beside" 2>/dev/null || true' EXIT

step "the unsanitized tests"
ctest --test-dir build --output-on-failure -j "$(nproc)" -L 'no_sanitizer|unsanitized_in_ci' -E '^(Cluster|BotLoad)\.'

step "the web client"
# Unit tests of its pure modules, then the browser tests (headless Chromium), with the normal build's server.
if [[ -f package-lock.json ]]; then npm ci --no-audit --no-fund >/dev/null; else npm install --no-audit --no-fund >/dev/null; fi
npm run --silent test:unit
npm run --silent test:browser

step "waiting for the sanitized and fuzzing builds"
if ! wait "$beside"; then
  echo "the sanitized or the fuzzing build failed; the end of $beside_log:" >&2
  tail -n 150 "$beside_log" >&2
  exit 1
fi
trap - EXIT
step "the sanitized tests"
CTEST_JOBS="$(nproc)" ASAN_EXCLUDE_LABELS=unsanitized_in_ci scripts/sanitize.sh asan test
step "the fuzz targets"
FUZZ_JOBS="$(nproc)" scripts/fuzz.sh 20
step "done"
