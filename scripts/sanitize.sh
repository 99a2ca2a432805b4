#!/usr/bin/env bash
# Builds the C++ tree with sanitizers, each in its own build directory, and runs the tests under them.
#   scripts/sanitize.sh asan   AddressSanitizer + UndefinedBehaviorSanitizer (clang, build-asan/): the whole ctest suite
#   scripts/sanitize.sh tsan   ThreadSanitizer (build-tsan/): the server's end-to-end tests (the e2e_tests
#                              executable, serially), which spawn the TSan build of emporium-server
#   scripts/sanitize.sh        both
#   scripts/sanitize.sh asan build|test   only build, or only run the tests of what was built (scripts/test.sh builds
#                              while the web client's tests run, and runs these tests after them)
# Every finding is fatal (-fno-sanitize-recover=all; TSan's halt_on_error). JOBS (default 1) sets the build's
# parallelism, CTEST_JOBS (default 2) the tests'. The benchmarks are not built.
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"
part="${2:-all}"  # asan only: build, test or all
jobs="${JOBS:-1}"
ctest_jobs="${CTEST_JOBS:-2}"
scripts/setup.sh --test

configure() {  # dir sanitizers [cmake flags...]
  # -O0 for the server and the tests: a sanitized build is for finding bugs, and it compiles in about half the
  # time of -O1. -O1 for the engine (EMPORIUM_ENGINE_FLAGS): the bots' searches and the random games spend their
  # time there, and at -O0 a bot that stands in for a player is too slow for the tests' waits. -g1: line tables
  # only, enough for the reports' file:line stacks, and much cheaper to compile and link than full debug
  # information.
  cmake -S . -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O0 -g1" \
    -DEMPORIUM_ENGINE_FLAGS=-O1 -DEMPORIUM_WERROR=ON -DEMPORIUM_BUILD_BENCH=OFF -DEMPORIUM_SANITIZE="$2" "${@:3}" \
    >/dev/null
}

# Tests left out under sanitizers, by ctest label (tests/CMakeLists.txt), none of them for a finding:
#  - no_sanitizer: BotLoad.* (bot tables at full speed beside a people's table held to a latency bound: it
#    measures the unsanitized server's speed, and runs alone, RUN_SERIAL, in the normal suite) and
#    E2ELimits.OutOfDescriptors* (the server is driven out of file descriptors on purpose, and the sanitizer
#    runtime itself needs descriptors: UBSan's vptr check opens a pipe to probe memory and, failing, reports a
#    bogus "invalid vptr" inside spdlog's formatting).
# ASAN_EXCLUDE_LABELS (a ctest label regex) leaves out more: CI passes 'unsanitized_in_ci' (see scripts/test.sh).
# ASAN_EXCLUDE (a ctest regex of test names) leaves out more still.
asan_exclude_labels='no_sanitizer'
[[ -n "${ASAN_EXCLUDE_LABELS:-}" ]] && asan_exclude_labels+="|${ASAN_EXCLUDE_LABELS}"
asan_exclude_names=()
[[ -n "${ASAN_EXCLUDE:-}" ]] && asan_exclude_names=(-E "${ASAN_EXCLUDE}")

if [[ "$what" == all || "$what" == asan ]]; then
  if [[ "$part" == all || "$part" == build ]]; then
    # Executables whose tests are all left out are not built (EMPORIUM_SKIP_TEST_LABELS: a list, not a regex).
    # clang: it builds this tree in about 60% of gcc's time, and CI's normal build already checks gcc's warnings.
    configure build-asan "address,undefined" -DCMAKE_CXX_COMPILER=clang++ \
      -DEMPORIUM_SKIP_TEST_LABELS="${ASAN_EXCLUDE_LABELS:+${ASAN_EXCLUDE_LABELS//|/;}}"
    cmake --build build-asan -j "$jobs"
  fi
  if [[ "$part" == all || "$part" == test ]]; then
    # detect_leaks: the server's processes and every test binary are checked for leaks at exit, too.
    ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1" \
    UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
      ctest --test-dir build-asan --output-on-failure -j "$ctest_jobs" -LE "$asan_exclude_labels" \
        "${asan_exclude_names[@]}"
  fi
fi

if [[ "$what" == all || "$what" == tsan ]]; then
  configure build-tsan "thread"
  cmake --build build-tsan -j "$jobs" --target e2e_tests
  # The executable itself, one test after another: under TSan a complete game against two `normal` bots
  # (thousands of searched playouts) takes minutes, beyond ctest's 300 s per test when two run at once.
  TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1" build-tsan/tests/e2e_tests
fi
