#include "cluster/table_leases.hpp"

#include <set>

#include "store/stored_rows.hpp"

namespace emporium::server {
namespace {


// A text[] literal: each id quoted, " and \ escaped.
std::string array_of(const std::vector<std::string>& ids) {
  std::string out = "{";
  for (const auto& id : ids) {
    if (out.size() > 1) out += ',';
    out += '"';
    for (char c : id) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out + "}";
}

}  // namespace

TableLeases::TableLeases(const std::string& uri, std::string node, std::chrono::milliseconds length)
    : db_(uri), node_(std::move(node)), length_ms_(std::to_string(length.count())) {
  listen_if_new();
}

void TableLeases::listen_if_new() {
  db_.get();
  const auto session = db_.generation();
  if (listening_in_ == session) return;
  db_.run("LISTEN emporium_handoff");
  db_.run("LISTEN emporium_lobby");
  // Both on the same session, or again on the next call.
  if (db_.generation() == session) listening_in_ = session;
}

void TableLeases::release_all() {
  listen_if_new();
  db_.run("UPDATE game_tables SET owner = NULL, lease_until = 0 WHERE owner = $1", {node_});
}

std::optional<std::uint64_t> TableLeases::take(const std::string& table) {
  listen_if_new();
  const auto r = db_.run("UPDATE game_tables SET owner = $1, epoch = epoch + 1, lease_until = emporium_now_ms() + $3 "
                         "WHERE id = $2 AND state <> 'finished' AND "
                         "(owner IS NULL OR owner = $1 OR lease_until < emporium_now_ms()) RETURNING epoch",
                         {node_, table, length_ms_});
  if (r.rows() == 0) return std::nullopt;
  return static_cast<std::uint64_t>(r[0].integer(0));
}

std::optional<TableLeases::Holding> TableLeases::holder(const std::string& table) {
  listen_if_new();
  const auto r = db_.run("SELECT owner, lease_until - emporium_now_ms(), state FROM game_tables WHERE id = $1", {table});
  if (r.rows() == 0) return std::nullopt;
  return Holding{r[0].text(0), r[0].integer(1), stored_rows::state_column(r[0].text(2))};
}

std::vector<std::string> TableLeases::renew(const std::vector<Held>& tables) {
  listen_if_new();
  if (tables.empty()) return {};
  std::vector<std::string> ids, epochs;
  for (const auto& t : tables) {
    ids.push_back(t.table);
    epochs.push_back(std::to_string(t.epoch));
  }
  // The rows are locked in the order of their ids, as a batch of moves locks them (postgres_store.cpp).
  const auto r = db_.run("WITH locked AS (SELECT g.id FROM game_tables g "
                         "JOIN unnest($3::text[], $4::bigint[]) AS held(id, epoch) "
                         "ON g.id = held.id AND g.epoch = held.epoch WHERE g.owner = $1 "
                         "ORDER BY g.id FOR NO KEY UPDATE OF g) "
                         "UPDATE game_tables SET lease_until = emporium_now_ms() + $2 FROM locked "
                         "WHERE game_tables.id = locked.id RETURNING game_tables.id",
                         {node_, length_ms_, array_of(ids), array_of(epochs)});
  std::set<std::string> kept;
  for (int i = 0; i < r.rows(); ++i) kept.insert(r[i].text(0));
  std::vector<std::string> lost;
  for (const auto& t : tables) {
    if (!kept.count(t.table)) lost.push_back(t.table);
  }
  return lost;
}

void TableLeases::release(const std::string& table, std::uint64_t epoch) {
  listen_if_new();
  db_.run("UPDATE game_tables SET owner = NULL, lease_until = 0 WHERE id = $2 AND owner = $1 AND "
          "($3::bigint = 0 OR epoch = $3::bigint)",
          {node_, table, std::to_string(epoch)});
}

std::vector<std::string> TableLeases::orphans(std::size_t limit, std::chrono::milliseconds grace) {
  listen_if_new();
  // A lease given up or never taken has lease_until 0.
  const auto r = db_.run("SELECT id FROM game_tables WHERE state <> 'finished' AND "
                         "lease_until < emporium_now_ms() - $2 ORDER BY created_at, id LIMIT $1",
                         {std::to_string(limit), std::to_string(grace.count())});
  std::vector<std::string> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back(r[i].text(0));
  return out;
}

void TableLeases::notify(const char* channel, const std::string& payload) {
  listen_if_new();
  db_.run("SELECT pg_notify($1, $2)", {channel, payload});
}

int TableLeases::socket() {
  listen_if_new();
  return PQsocket(db_.get());
}

std::vector<std::pair<std::string, std::string>> TableLeases::notifications() {
  listen_if_new();
  PGconn* conn = db_.get();
  if (!PQconsumeInput(conn)) {
    db_.drop();  // lost: opened again (and listening) on the next call
    return {};
  }
  std::vector<std::pair<std::string, std::string>> out;
  while (PGnotify* n = PQnotifies(conn)) {
    out.emplace_back(n->relname, n->extra);
    PQfreemem(n);
  }
  return out;
}

}  // namespace emporium::server
