# Sourced by the load scripts (loads.sh, soak.sh, wire_latency.sh, generator_floor.sh): builds the Release server
# and the project's load generator (bench/load/, `emporium-load`) into build-release/, and allows the descriptors
# 10,000 connections need.
cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DEMPORIUM_BUILD_TESTS=OFF -DEMPORIUM_BUILD_BENCH=ON \
  >/dev/null
cmake --build build-release --target emporium-server emporium-load >/dev/null
load=build-release/bench/emporium-load
ulimit -n 20000

# start_server DIR [FLAG...]: the Release server on a free loopback port, its data in DIR/db, the per-address caps
# off (every generated client connects from 127.0.0.1), with any further flags. Sets `server` (its pid) and `port`;
# on exit the server is stopped and DIR removed.
start_server() {
  local dir="$1"
  build-release/server/emporium-server --bind 127.0.0.1 --port 0 --port-file "$dir/port" --data-dir "$dir/db" \
    --web-root web-client --merkator-data engine/games/merkator/merkator-data.json --log-level warn \
    --max-connections-per-ip 0 --max-tables-per-ip-per-minute 0 "${@:2}" &
  server=$!
  trap "kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf '$dir'" EXIT
  for _ in $(seq 100); do [[ -s "$dir/port" ]] && break; sleep 0.1; done
  port="$(cat "$dir/port")"
}
