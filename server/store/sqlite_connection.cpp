#include "store/sqlite_connection.hpp"

#include <chrono>
#include <filesystem>
#include <system_error>
#include <thread>

#include "store/schema.hpp"

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

namespace {
// Another connection holds the write lock (this process's other store, the checkpointer, or a backup): try again
// after a short sleep, a tenth of a millisecond at first, then a millisecond, for about a second in all. SQLite's
// own busy timeout sleeps up to 50 ms at a time, so a move's commit waiting behind another connection's write
// (the notifier's once-only marks, a session's renewal) would wait that long after the lock was free.
int wait_for_the_lock(void*, int tries) {
  constexpr int kShort = 20, kLong = 1000;
  if (tries >= kShort + kLong) return 0;  // the store counts as unavailable
  std::this_thread::sleep_for(tries < kShort ? std::chrono::microseconds(100) : std::chrono::microseconds(1000));
  return 1;
}
}  // namespace

sqlite3* open_connection(const std::string& path) {
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    throw StoreError("cannot open " + path + ": " + msg);
  }
  // A write waits about a second for another's lock before the store counts as unavailable.
  sqlite3_busy_handler(db, wait_for_the_lock, nullptr);
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

std::string database_file(const std::string& data_dir) {
  std::error_code ec;
  std::filesystem::create_directories(data_dir, ec);
  if (ec) throw StoreError("cannot create data directory " + data_dir + ": " + ec.message());
  return (std::filesystem::path(data_dir) / "emporium.db").string();
}

sqlite3* open_database(const std::string& path) {
  sqlite3* db = open_connection(path);
  try {
    // New databases get 1 KiB pages (SQLite fixes the size when it creates the file; older ones keep 4 KiB). A
    // commit writes each page it changed whole into the log, and at a steady load most commits carry a move or
    // two (three pages: 12 KiB of log a move with 4 KiB pages), so the log fills three to four times slower.
    exec_on(db, "PRAGMA page_size=1024");
    // WAL + synchronous=NORMAL: a commit survives the process being killed (it is in the OS's
    // cache); only a power loss can take the last few, and that is a price worth the speed.
    exec_on(db, "PRAGMA journal_mode=WAL");
    exec_on(db, "PRAGMA synchronous=NORMAL");
    exec_on(db, "PRAGMA foreign_keys=ON");
    SqliteConnection connection(db);
    schema::migrate(connection);
  } catch (...) {
    sqlite3_close(db);
    throw;
  }
  return db;
}

std::vector<SqlRow> SqliteConnection::rows(const std::string& sql, const std::vector<SqlValue>& params) {
  Statement s(db_, sql.c_str());
  for (std::size_t i = 0; i < params.size(); ++i) {
    // By name: SQLite numbers "$n" parameters in the order they first appear in the text, not by their n.
    const std::string name = "$" + std::to_string(i + 1);
    const int at = s.parameter(name);
    if (at == 0) throw StoreError("sqlite: no parameter " + name + " in " + sql.substr(0, 60));
    if (const auto* text = std::get_if<std::string>(&params[i])) {
      s.bind(at, *text);
    } else if (const auto* number = std::get_if<long long>(&params[i])) {
      s.bind(at, *number);
    } else {
      s.bind_null(at);
    }
  }
  std::vector<SqlRow> rows;
  while (s.step()) {
    SqlRow& row = rows.emplace_back();
    for (int col = 0; col < s.columns(); ++col) row.columns.push_back(s.text(col));
  }
  return rows;
}

void SqliteConnection::transaction(const std::function<void()>& body) {
  exec_on(db_, "BEGIN IMMEDIATE");
  try {
    body();
    exec_on(db_, "COMMIT");
  } catch (...) {
    // Unless SQLite ended it itself (a full disk, an I/O error).
    if (!sqlite3_get_autocommit(db_)) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

}  // namespace emporium::server
