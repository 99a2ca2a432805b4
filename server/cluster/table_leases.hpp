#pragma once
// Which node holds which unfinished table, kept in PostgreSQL (game_tables.owner, epoch, lease_until) for the
// cluster (cluster.hpp). A lease runs out unless its node renews it; taking a table raises its epoch, and every
// write a node makes to a table is checked against the epoch it took (PostgresStore: emporium_held), so a node that
// lost a table can never change it. Times are the database's clock (emporium_now_ms), the one clock all nodes
// share. The functions are part of the store's schema: the store is opened first.
// The nodes talk by LISTEN/NOTIFY on this connection: handoff requests and lobby changes. Not thread-safe: the
// cluster's thread uses it.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/pg_connection.hpp"
#include "store/states.hpp"

namespace emporium::server {

class TableLeases {
 public:
  TableLeases(const std::string& uri, std::string node, std::chrono::milliseconds length);

  const std::string& node() const { return node_; }
  // Gives up every lease this node's name holds (a process that just started holds no table).
  void release_all();
  // Takes `table` if nobody holds it, its lease ran out, or this node holds it: the new epoch. Nothing when
  // another node holds it, or the table is finished or unknown.
  std::optional<std::uint64_t> take(const std::string& table);
  struct Holding {
    std::string owner;          // empty: nobody
    long long left_ms = 0;      // how long the lease has to run (negative: ran out)
    TableState state = TableState::waiting;
  };
  std::optional<Holding> holder(const std::string& table);  // nothing: no such table
  // A lease this node holds: the table, and the epoch it took it at.
  struct Held {
    std::string table;
    std::uint64_t epoch = 0;
  };
  // Renews this node's leases on `tables`, each at its epoch; returns the tables of those it no longer holds.
  std::vector<std::string> renew(const std::vector<Held>& tables);
  // Gives up this node's lease on `table`, the one taken at `epoch` only (0: whichever it holds).
  void release(const std::string& table, std::uint64_t epoch = 0);
  // Unfinished tables nobody has held, or whose lease ran out, for at least `grace`; oldest first.
  std::vector<std::string> orphans(std::size_t limit, std::chrono::milliseconds grace = {});
  // The channels the nodes talk on: "<owner> <table>" asks `owner` to hand `table` over; the lobby's are JSON
  // (cluster.cpp).
  static constexpr const char* kHandoff = "emporium_handoff";
  static constexpr const char* kLobby = "emporium_lobby";
  void notify(const char* channel, const std::string& payload);
  // The socket to wait on for notifications (poll for reading), and those that arrived since the last call (this
  // node's own included): (channel, payload).
  int socket();
  std::vector<std::pair<std::string, std::string>> notifications();

 private:
  void listen_if_new();  // LISTEN again on a connection just (re)opened

  PgConnection db_;
  std::uint64_t listening_in_ = 0;  // the connection's generation whose session LISTENs
  std::string node_;
  std::string length_ms_;
};

}  // namespace emporium::server
