#!/usr/bin/env bash
# A throwaway PostgreSQL server for tests, from Debian's `postgresql` package: a fresh cluster in a directory of
# the test's, on a free loopback port, trusting local connections, not fsyncing (its data lives as long as the test).
#   tests/tools/postgres-local.sh start DIR   starts it; prints its URI (postgresql://emporium@127.0.0.1:PORT/postgres)
#   tests/tools/postgres-local.sh stop DIR    stops it at once and removes DIR
#   tests/tools/postgres-local.sh halt DIR    stops it as an operator would (pg_ctl stop -m fast), keeping DIR
#   tests/tools/postgres-local.sh restart DIR stops it the same way if it runs, then starts it again on its port
# Exits 3 with a message when PostgreSQL is not installed (scripts/setup.sh --test installs it). As root, the
# server runs as the `postgres` user (PostgreSQL refuses to run as root).
set -euo pipefail
command="${1:-}"
dir="${2:-}"
[[ -n "$command" && -n "$dir" ]] || { echo "usage: $0 start|stop|halt|restart DIR" >&2; exit 2; }

bindir="${EMPORIUM_PG_BINDIR:-}"
if [[ -z "$bindir" ]]; then
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    [[ -x "$d/initdb" ]] && { bindir="$d"; break; }
  done
fi
if [[ -z "$bindir" ]]; then
  echo "postgres-local: PostgreSQL is not installed (initdb not found in /usr/lib/postgresql/*/bin)" >&2
  exit 3
fi

as_owner=()
if [[ $(id -u) -eq 0 ]]; then as_owner=(runuser -u postgres --); fi

case "$command" in
  start)
    mkdir -p "$dir"
    if [[ $(id -u) -eq 0 ]]; then
      chown postgres: "$dir"
      chmod o+x "$(dirname "$dir")"  # the server's user must reach it (a test's temporary directory is 0700)
    fi
    "${as_owner[@]}" "$bindir/initdb" -D "$dir/data" -U emporium -A trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 ||
      { cat "$dir/initdb.log" >&2; exit 1; }
    # A free port: the kernel picks one for a socket that is closed at once (the server takes it a moment later).
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    "${as_owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200" \
      start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    echo "postgresql://emporium@127.0.0.1:$port/postgres"
    ;;
  halt)
    "${as_owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
  restart)
    # pg_ctl restart starts the server with the options of its first start (data/postmaster.opts), running or not.
    "${as_owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -m fast -w -t 30 restart >/dev/null 2>&1 ||
      { cat "$dir/server.log" >&2; exit 1; }
    ;;
  stop)
    [[ -d "$dir/data" ]] && "${as_owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start|stop|halt|restart DIR" >&2
    exit 2
    ;;
esac
