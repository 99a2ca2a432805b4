#pragma once
// Several nodes on one PostgreSQL (docs/scaling.md): each unfinished table is served by exactly one node at a time,
// the one holding its lease (table_leases.hpp). The proxy sends a table's clients to a node by hashing the table's
// id; that node takes the table over when it does not hold it (asking the holder to hand it over, or waiting for a
// dead holder's lease to run out), and the holder lets it go (room::move_away) with its moves stored. Leases are
// renewed every quarter of their length; tables whose holder died and whom nobody asks for (bots and clocks play
// on) are taken over by whichever node sweeps first. One thread of its own: nothing here blocks a network thread.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <emporium/protocol/protocol.hpp>

#include "table_leases.hpp"

namespace emporium::server {

class lobby;
class room;
class store;

class cluster {
 public:
  struct settings {
    std::string uri;   // the PostgreSQL store's
    std::string node;  // this node's name: unique in the cluster, the same across its restarts
    std::chrono::milliseconds lease{5000};  // a dead node's tables are taken over after at most this long
    std::chrono::milliseconds wait{12000};  // how long a request waits for a table to be handed over
    std::size_t sweep = 200;                // orphaned tables taken over per sweep (one a second)
    std::chrono::milliseconds sweep_grace{2000};  // how long after its lease ran out an orphan is swept up
  };
  cluster(settings s, store& db, lobby& tables);
  ~cluster();
  cluster(const cluster&) = delete;
  cluster& operator=(const cluster&) = delete;

  const std::string& node() const { return settings_.node; }
  // Gives up what this node's name held in an earlier run and starts the thread. Throws store_error.
  void start();
  void stop();
  // An unfinished table not in this node's memory: taken over and registered with the lobby, then `done` gets the
  // room (on the cluster's thread), or null when there is no such table or it was not handed over in time.
  void take(std::string table, std::function<void(std::shared_ptr<room>)> done);
  // A table this node just created and holds (epoch 1): its lease is renewed from now on.
  void hold(std::string table);
  // The lobby's public tables, across nodes: this node's table changed (or is new), or left its listing. The other
  // nodes list it for their lobby watchers (lobby::remote_update); a node that starts asks the others for theirs.
  void announce(const protocol::TableInfo& table);
  void announce_removed(const std::string& table);

 private:
  struct wanted {
    std::string table;
    std::function<void(std::shared_ptr<room>)> done;
    std::chrono::steady_clock::time_point give_up;
    std::chrono::steady_clock::time_point next_try;
    std::chrono::steady_clock::time_point asked;  // when the holder was asked to hand it over (unset: not yet)
  };
  void loop();
  void step();  // one round of the loop; throws store_error when the database fails
  // Tries to take `w.table` once; true when `w` is settled (`done` called).
  bool try_take(wanted& w, std::chrono::steady_clock::time_point now);
  // Taken (at `epoch`): read, replayed, registered, and carrying on (bots, clocks). Null if it cannot be read.
  std::shared_ptr<room> load(const std::string& table, std::uint64_t epoch);
  void renew();
  void sweep();
  void hand_over(const std::string& table);
  void heard(const std::string& channel, const std::string& payload);  // another node's notification

  const settings settings_;
  store& db_;
  lobby& tables_;
  table_leases leases_;  // the cluster thread's own connection
  std::thread thread_;
  std::atomic<bool> stopping_{false};

  std::mutex mutex_;  // guards what other threads hand in
  std::vector<wanted> incoming_;
  std::vector<std::string> made_;      // hold()
  std::vector<std::string> released_;  // tables handed over (their rooms gone): leases to give up
  std::vector<std::string> to_announce_;  // lobby payloads to send

  // The cluster thread's own.
  std::vector<wanted> waiting_;
  std::set<std::string> held_;  // leases this node holds (tables in its memory)
  std::chrono::steady_clock::time_point next_renew_{}, next_sweep_{};
};

}  // namespace emporium::server
