#include "store/sqlite_connection.hpp"

namespace emporium::server {

StoreError::Kind kind_of(sqlite3* db) {
  switch (sqlite3_errcode(db) & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_CANTOPEN:
    case SQLITE_NOMEM:
    case SQLITE_PROTOCOL:
      return StoreError::Kind::unavailable;
    case SQLITE_CONSTRAINT:
      return StoreError::Kind::conflict;
    default:
      return StoreError::Kind::other;
  }
}

sqlite3* open_connection(const std::string& path) {
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    throw StoreError("cannot open " + path + ": " + msg);
  }
  // A write waits this long for another process's lock (a backup) before the store counts as unavailable.
  sqlite3_busy_timeout(db, 1000);
  return db;
}

void exec_on(sqlite3* db, const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    throw StoreError("sqlite: " + msg, kind_of(db));
  }
}

}  // namespace emporium::server
