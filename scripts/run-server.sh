#!/usr/bin/env bash
# Installs what is missing, builds an optimised server and runs it on http://localhost:8080/.
# Extra arguments go to the server (try --help), e.g. scripts/run-server.sh --port 9000
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DEMPORIUM_BUILD_TESTS=OFF -DEMPORIUM_BUILD_BENCH=OFF >/dev/null
cmake --build build-release --target emporium-server emporium-verify  # the second checks game records offline
exec build-release/server/emporium-server --web-root web-client --data-dir data --merkator-data engine/games/merkator/merkator-data.json "$@"
