#pragma once
// One libpq connection, as the PostgreSQL store and the cluster's lease keeper use it: opened on first use and
// again after it was lost, statements with text parameters, results read as text. Not thread-safe: its owner
// serializes the calls.
// Every session it opens is bounded (Limits): a statement, a wait for a lock and a transaction left idle (by a
// process frozen in the middle of one) all end within seconds, so no node's pause holds a lock another node waits
// on; the connection itself gives up on a server that does not answer (connect and TCP timeouts, keepalives).
#include <libpq-fe.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "store/sql_connection.hpp"
#include "store/store.hpp"

namespace emporium::server {

// The bounds of every session a PgConnection opens (docs/scaling.md: "When the database fails"). The URI's own
// settings win.
struct PgLimits {
  int connect_timeout_s = 3;                  // opening a connection
  int tcp_user_timeout_ms = 10000;            // unacknowledged data on the socket (a host that vanished)
  int lock_timeout_ms = 1000;                 // a statement waiting for another session's lock
  int statement_timeout_ms = 10000;           // any one statement
  int idle_in_transaction_timeout_ms = 2000;  // a transaction its client stopped driving: its locks are freed
};

class PgConnection {
 public:
  using Param = std::optional<std::string>;  // a statement's parameter: text, or NULL

  // One statement's result, cleared on scope exit; a row reads as stored_rows expects (NULL as "" and 0).
  class Result {
   public:
    explicit Result(PGresult* r) : r_(r) {}
    Result(Result&& other) noexcept : r_(std::exchange(other.r_, nullptr)) {}
    Result& operator=(Result&&) = delete;
    ~Result() { PQclear(r_); }
    int rows() const { return PQntuples(r_); }
    const PGresult* raw() const { return r_; }
    struct Row {
      const PGresult* r;
      int at;
      std::string text(int col) const {
        return PQgetisnull(r, at, col) ? std::string() : std::string(PQgetvalue(r, at, col), PQgetlength(r, at, col));
      }
      long long integer(int col) const { return PQgetisnull(r, at, col) ? 0 : std::stoll(PQgetvalue(r, at, col)); }
    };
    Row operator[](int at) const { return {r_, at}; }

   private:
    PGresult* r_;
  };

  explicit PgConnection(std::string uri, PgLimits limits = {}) : uri_(std::move(uri)), limits_(limits) {}
  ~PgConnection() { PQfinish(conn_); }
  PgConnection(const PgConnection&) = delete;
  PgConnection& operator=(const PgConnection&) = delete;

  // The connection, up: opened (again) if it is not. Throws StoreError with libpq's reason (never the URI: it may
  // hold a password).
  PGconn* get();
  // How many sessions this connection has opened: when it changes, what was prepared or listened to on the old
  // session is gone.
  std::uint64_t generation() const { return generation_.load(std::memory_order_relaxed); }
  // Closes it (after a failure that leaves it in an unknown state); the next get() opens it again.
  void drop();
  // One statement with text parameters; throws StoreError unless it succeeded.
  Result run(const char* sql, const std::vector<Param>& params = {});
  // One statement whose rows are handed to `take` one at a time as they arrive (a long result is never whole in
  // memory); throws StoreError unless it succeeded.
  template <class F>
  void each_row(const char* sql, const std::vector<Param>& params, F&& take);
  // `body` between `begin` and COMMIT, rolled back if it throws.
  template <class F>
  void transaction(F&& body, const char* begin = "BEGIN");
  // Throws StoreError for `what`, of the kind `failed` (a statement's result, if there is one) and the
  // connection's state say.
  [[noreturn]] void fail(const std::string& what, const PGresult* failed = nullptr) const;
  std::string error() const;  // libpq's last message, trimmed
  // What a failure means: an unavailable store when the connection is down or the server could not do the work
  // now (shutting down, a timeout, a lock not granted, out of resources), a lost lease, a conflict, or other.
  StoreError::Kind kind_of(const PGresult* failed) const;

  // Parameter values as libpq takes them: pointers to text, null for NULL.
  static std::vector<const char*> values_of(const std::vector<Param>& params);

 private:
  void open();  // connects (or reconnects) and bounds the session; throws StoreError

  std::string uri_;
  PgLimits limits_;
  PGconn* conn_ = nullptr;
  std::atomic<std::uint64_t> generation_{0};  // read by /metrics from other threads
};

template <class F>
void PgConnection::each_row(const char* sql, const std::vector<Param>& params, F&& take) {
  PGconn* conn = get();
  const auto values = values_of(params);
  if (!PQsendQueryParams(conn, sql, static_cast<int>(values.size()), nullptr, values.data(), nullptr, nullptr, 0) ||
      !PQsetSingleRowMode(conn)) {
    fail(std::string(sql).substr(0, 60));
  }
  // One result per row, then an empty one that ends the set (or an error), then none. Every result is taken even
  // after an error, so that the connection is ready for the next statement.
  std::string error;
  auto kind = StoreError::Kind::other;
  while (PGresult* raw = PQgetResult(conn)) {
    Result r(raw);
    const auto status = PQresultStatus(raw);
    if (status == PGRES_SINGLE_TUPLE) {
      if (error.empty()) take(r[0]);
    } else if (status != PGRES_TUPLES_OK && error.empty()) {
      error = PQresultErrorMessage(raw);
      kind = kind_of(raw);
    }
  }
  if (!error.empty()) throw StoreError("postgresql: " + error, kind);
  if (PQstatus(conn) != CONNECTION_OK) fail(std::string(sql).substr(0, 60));
}

template <class F>
void PgConnection::transaction(F&& body, const char* begin) {
  run(begin);
  try {
    body();
    run("COMMIT");
  } catch (...) {
    if (conn_ && PQstatus(conn_) == CONNECTION_OK) PQclear(PQexec(conn_, "ROLLBACK"));
    throw;
  }
}

// The SqlConnection over a PgConnection it does not own.
class PgSqlConnection final : public SqlConnection {
 public:
  explicit PgSqlConnection(PgConnection& db) : db_(db) {}
  Dialect dialect() const override { return Dialect::postgresql; }
  std::vector<SqlRow> rows(const std::string& sql, const std::vector<SqlValue>& params = {}) override;
  void script(const std::string& sql) override;
  void transaction(const std::function<void()>& body) override { db_.transaction(body); }

 private:
  PgConnection& db_;
};

}  // namespace emporium::server
