#include "store/pg_connection.hpp"

namespace emporium::server {

std::string PgConnection::error() const {
  std::string message = conn_ ? PQerrorMessage(conn_) : "out of memory";
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  return message;
}

void PgConnection::fail(const std::string& what) const { throw StoreError("postgresql: " + what + ": " + error()); }

PGconn* PgConnection::get(bool* opened) {
  if (conn_ && PQstatus(conn_) == CONNECTION_OK) return conn_;
  if (conn_) {
    PQreset(conn_);
  } else {
    conn_ = PQconnectdb(uri_.c_str());
  }
  if (!conn_ || PQstatus(conn_) != CONNECTION_OK) fail("cannot connect");
  PQclear(PQexec(conn_, "SET client_min_messages = warning"));
  if (opened) *opened = true;
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
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) fail(std::string(sql).substr(0, 60));
  return r;
}

std::vector<const char*> PgConnection::values_of(const std::vector<Param>& params) {
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const auto& p : params) values.push_back(p ? p->c_str() : nullptr);
  return values;
}

}  // namespace emporium::server
