#!/usr/bin/env bash
# Backs an Emporium store up, and restores it (deploy/README.md). A backup is taken while the server runs and is
# consistent: every move in it is whole, and a move made after it started is simply not in it.
#   deploy/backup.sh backup  sqlite     DATA_DIR FILE   SQLite's online backup of DATA_DIR/emporium.db (sqlite3 CLI)
#   deploy/backup.sh backup  postgresql URI      FILE   pg_dump in its custom format
#   deploy/backup.sh restore sqlite     FILE DATA_DIR   into DATA_DIR/emporium.db; the server on DATA_DIR is stopped
#   deploy/backup.sh restore postgresql FILE URI        into the (empty or Emporium's) database at URI; the nodes
#                                                       on it are stopped
# Needs Debian's sqlite3 or postgresql-client (pg_dump and pg_restore of the server's major version or newer).
set -euo pipefail
usage() { sed -n '2,10p' "$0" >&2; exit 2; }
(($# == 4)) || usage
action="$1" kind="$2"
case "$action:$kind" in
  backup:sqlite)
    db="$3/emporium.db" file="$4"
    [[ -f "$db" ]] || { echo "backup: no $db" >&2; exit 1; }
    # The online backup API: pages copied under a read transaction, WAL included; the server goes on writing.
    sqlite3 "$db" ".timeout 10000" ".backup '$file'"
    ;;
  backup:postgresql)
    pg_dump --format=custom --no-owner --file="$4" "$3"
    ;;
  restore:sqlite)
    file="$3" dir="$4"
    [[ -f "$file" ]] || { echo "restore: no $file" >&2; exit 1; }
    mkdir -p "$dir"
    # A stale log beside an older database must not be replayed into the restored one.
    rm -f "$dir/emporium.db-wal" "$dir/emporium.db-shm"
    cp "$file" "$dir/emporium.db.restoring"
    sqlite3 "$dir/emporium.db.restoring" "PRAGMA integrity_check" | grep -qx ok ||
      { echo "restore: $file is not a sound SQLite database" >&2; rm -f "$dir/emporium.db.restoring"; exit 1; }
    mv "$dir/emporium.db.restoring" "$dir/emporium.db"
    ;;
  restore:postgresql)
    pg_restore --clean --if-exists --no-owner --single-transaction --dbname="$4" "$3"
    ;;
  *) usage ;;
esac
echo "$action: done"
