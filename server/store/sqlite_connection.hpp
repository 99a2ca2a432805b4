#pragma once
// SQLite as both of its stores use it (sqlite_store.hpp, sql_people_store.hpp): connections to <data_dir>/emporium.db,
// statements, and what an error means for the caller.
#include <sqlite3.h>

#include <functional>
#include <string>
#include <vector>

#include "store/sql_connection.hpp"
#include "store/store.hpp"

namespace emporium::server {

// What SQLite's last error on `db` means for the caller: busy or locked (a backup, another process), an I/O error,
// a full disk or a file that cannot be opened now are an unavailable store; a constraint is a conflict.
StoreError::Kind kind_of(sqlite3* db);

// One prepared statement; finalized on scope exit.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK) fail("prepare");
  }
  // A kept statement (SqliteStore::kept): reset for its next use instead of finalized.
  Statement(sqlite3* db, sqlite3_stmt* kept) : db_(db), stmt_(kept), kept_(true) {}
  ~Statement() {
    if (!kept_) {
      sqlite3_finalize(stmt_);
    } else {
      sqlite3_reset(stmt_);
      sqlite3_clear_bindings(stmt_);
    }
  }
  Statement& bind(int i, const std::string& text) {
    check(sqlite3_bind_text(stmt_, i, text.c_str(), static_cast<int>(text.size()), SQLITE_TRANSIENT));
    return *this;
  }
  Statement& bind(int i, long long value) {
    check(sqlite3_bind_int64(stmt_, i, value));
    return *this;
  }
  Statement& bind_null(int i) {
    check(sqlite3_bind_null(stmt_, i));
    return *this;
  }
  // Empty text is stored as NULL (an optional column: invite, a seat's bot and stand-in).
  Statement& bind_or_null(int i, const std::string& text) { return text.empty() ? bind_null(i) : bind(i, text); }
  // The index of the parameter named `name` ("$1"); 0 when the statement has none of that name.
  int parameter(const std::string& name) const { return sqlite3_bind_parameter_index(stmt_, name.c_str()); }
  int columns() const { return sqlite3_column_count(stmt_); }
  bool step() {  // true while there is a row
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    fail("step");
  }
  void run() { while (step()) {} }
  std::string text(int col) const {
    auto* p = sqlite3_column_text(stmt_, col);
    return p ? reinterpret_cast<const char*>(p) : "";
  }
  long long integer(int col) const { return sqlite3_column_int64(stmt_, col); }

 private:
  void check(int rc) {
    if (rc != SQLITE_OK) fail("bind");
  }
  [[noreturn]] void fail(const char* what) {
    throw StoreError(std::string("sqlite ") + what + ": " + sqlite3_errmsg(db_), kind_of(db_));
  }
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  bool kept_ = false;
};

// A connection to the database at `path`, its writes waiting a while for another's lock. Throws StoreError.
sqlite3* open_connection(const std::string& path);
// Runs `sql` (statements without parameters); throws StoreError.
void exec_on(sqlite3* db, const char* sql);

// <data_dir>/emporium.db, the directory made if it is missing. Throws StoreError.
std::string database_file(const std::string& data_dir);
// A connection to the database file at `path` as both stores use it (WAL, foreign keys, 1 KiB pages when it is
// new), with the schema brought up to date (schema.hpp). Throws StoreError.
sqlite3* open_database(const std::string& path);

// The SqlConnection over a connection it does not own.
class SqliteConnection final : public SqlConnection {
 public:
  explicit SqliteConnection(sqlite3* db) : db_(db) {}
  Dialect dialect() const override { return Dialect::sqlite; }
  std::vector<SqlRow> rows(const std::string& sql, const std::vector<SqlValue>& params = {}) override;
  void script(const std::string& sql) override { exec_on(db_, sql.c_str()); }
  void transaction(const std::function<void()>& body) override;

 private:
  sqlite3* db_;
};

}  // namespace emporium::server
