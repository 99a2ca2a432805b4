# Sourced by the load scripts (loads.sh, soak.sh): finds the shared load generator (../shared/load/load.js, or
# LOAD_JS=<path>; it needs its `ws` package: npm ci in its folder), builds the Release server into build-release/
# and allows the descriptors 10,000 connections need.
load_js="${LOAD_JS:-../shared/load/load.js}"
[[ -f "$load_js" ]] || { echo "no load generator at $load_js (set LOAD_JS)" >&2; exit 1; }
cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DEMPORIUM_BUILD_TESTS=OFF -DEMPORIUM_BUILD_BENCH=OFF >/dev/null
cmake --build build-release --target emporium-server >/dev/null
ulimit -n 20000
