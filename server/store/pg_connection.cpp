#include "store/pg_connection.hpp"

namespace emporium::server {

std::string PgConnection::error() const {
  std::string message = conn_ ? PQerrorMessage(conn_) : "out of memory";
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  return message;
}

void PgConnection::fail(const std::string& what, const PGresult* failed) const {
  throw StoreError("postgresql: " + what + ": " + error(), kind_of(failed));
}

StoreError::Kind PgConnection::kind_of(const PGresult* failed) const {
  using Kind = StoreError::Kind;
  if (!conn_ || PQstatus(conn_) != CONNECTION_OK) return Kind::unavailable;
  const char* code = failed ? PQresultErrorField(failed, PG_DIAG_SQLSTATE) : nullptr;
  if (!code) return failed ? Kind::other : Kind::unavailable;  // no answer from the server at all
  const std::string state = code;
  if (state == "EM001") return Kind::lease_lost;  // emporium_held (postgres_store.cpp)
  if (state.starts_with("23")) return Kind::conflict;  // integrity constraints: a record's index already there
  // Connection exceptions; the server shutting down or not yet up; out of resources; system errors; a statement
  // cancelled by its timeout; a lock not granted in time; a transaction given up as idle; serialization failures.
  for (const char* prefix : {"08", "57P", "53", "58", "57014", "55P03", "25P03", "40001", "40P01"}) {
    if (state.starts_with(prefix)) return Kind::unavailable;
  }
  return Kind::other;
}

void PgConnection::open() {
  if (conn_) {
    PQreset(conn_);
  } else {
    // Our bounds first: settings in the URI (expanded from `dbname`, after them) override them.
    const auto connect = std::to_string(limits_.connect_timeout_s);
    const auto tcp = std::to_string(limits_.tcp_user_timeout_ms);
    const char* keys[] = {"connect_timeout", "keepalives", "keepalives_idle", "keepalives_interval",
                          "keepalives_count", "tcp_user_timeout", "dbname", nullptr};
    const char* values[] = {connect.c_str(), "1", "5", "2", "3", tcp.c_str(), uri_.c_str(), nullptr};
    conn_ = PQconnectdbParams(keys, values, /*expand_dbname=*/1);
  }
  if (!conn_ || PQstatus(conn_) != CONNECTION_OK) fail("cannot connect");
  const auto session = "SET client_min_messages = warning; SET lock_timeout = " +
                       std::to_string(limits_.lock_timeout_ms) + "; SET statement_timeout = " +
                       std::to_string(limits_.statement_timeout_ms) +
                       "; SET idle_in_transaction_session_timeout = " +
                       std::to_string(limits_.idle_in_transaction_timeout_ms);
  Result set(PQexec(conn_, session.c_str()));
  if (PQresultStatus(set.raw()) != PGRES_COMMAND_OK) fail("cannot set the session's limits", set.raw());
  generation_.fetch_add(1, std::memory_order_relaxed);
}

PGconn* PgConnection::get() {
  if (!conn_ || PQstatus(conn_) != CONNECTION_OK) open();
  return conn_;
}

void PgConnection::drop() {
  PQfinish(conn_);
  conn_ = nullptr;
}

PgConnection::Result PgConnection::run(const char* sql, const std::vector<Param>& params) {
  PGconn* conn = get();
  const auto values = values_of(params);
  Result r(PQexecParams(conn, sql, static_cast<int>(values.size()), nullptr, values.data(), nullptr, nullptr, 0));
  const auto status = PQresultStatus(r.raw());
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) fail(std::string(sql).substr(0, 60), r.raw());
  return r;
}

std::vector<const char*> PgConnection::values_of(const std::vector<Param>& params) {
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const auto& p : params) values.push_back(p ? p->c_str() : nullptr);
  return values;
}

std::vector<SqlRow> PgSqlConnection::rows(const std::string& sql, const std::vector<SqlValue>& params) {
  std::vector<PgConnection::Param> texts;
  texts.reserve(params.size());
  for (const auto& p : params) {
    if (const auto* text = std::get_if<std::string>(&p)) {
      texts.emplace_back(*text);
    } else if (const auto* number = std::get_if<long long>(&p)) {
      texts.emplace_back(std::to_string(*number));
    } else {
      texts.emplace_back();
    }
  }
  const auto result = db_.run(sql.c_str(), texts);
  const int columns = PQnfields(result.raw());
  std::vector<SqlRow> rows(static_cast<std::size_t>(result.rows()));
  for (int i = 0; i < result.rows(); ++i) {
    for (int col = 0; col < columns; ++col) rows[static_cast<std::size_t>(i)].columns.push_back(result[i].text(col));
  }
  return rows;
}

void PgSqlConnection::script(const std::string& sql) {
  // PQexec: the one call that takes several statements (without parameters).
  const PgConnection::Result result(PQexec(db_.get(), sql.c_str()));
  const auto status = PQresultStatus(result.raw());
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) db_.fail(sql.substr(0, 60), result.raw());
}

}  // namespace emporium::server
