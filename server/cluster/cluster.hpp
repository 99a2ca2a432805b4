#pragma once
// Several nodes on one PostgreSQL (docs/scaling.md): each unfinished table is served by exactly one node at a time,
// the one holding its lease (table_leases.hpp). The proxy sends a table's clients to a node by hashing the table's
// id; that node takes the table over when it does not hold it (asking the holder to hand it over, or waiting for a
// dead holder's lease to run out), and the holder lets it go (TableHost::hand_off) with its moves stored. Leases are
// renewed every quarter of their length; tables whose holder died and whom nobody asks for (bots and clocks play
// on) are taken over by whichever node sweeps first. One thread of its own: nothing here blocks a network thread.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <emporium/protocol/protocol.hpp>

#include "cluster/table_host.hpp"
#include "cluster/table_leases.hpp"
#include "store/store.hpp"

namespace emporium::server {

class Cluster {
 public:
  struct Settings {
    std::string uri;   // the PostgreSQL store's
    std::string node;  // this node's name: unique in the cluster, the same across its restarts
    std::chrono::milliseconds lease{5000};  // a dead node's tables are taken over after at most this long
    std::chrono::milliseconds wait{12000};  // how long a request waits for a table to be handed over
    std::size_t sweep = 200;                // orphaned tables taken over per sweep (one a second)
    std::chrono::milliseconds sweep_grace{2000};  // how long after its lease ran out an orphan is swept up
  };
  Cluster(Settings s, Store& db, TableHost& tables);
  ~Cluster();
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;

  const std::string& node() const { return settings_.node; }
  // Gives up what this node's name held in an earlier run and starts the thread. Throws StoreError.
  void start();
  void stop();
  // What became of a table asked for (take).
  enum class Taken {
    here,         // in this node's memory now, or finished meanwhile (then any node serves it from the store)
    gone,         // no such table, or it was not handed over in time
    unavailable,  // the database did not answer in time: nothing is known
  };
  // An unfinished table not in this node's memory: taken over (TableHost::adopt), then `done` runs on the cluster's
  // thread.
  void take(std::string table, std::function<void(Taken)> done);
  // A table this node just created and holds (epoch 1): its lease is renewed from now on.
  void hold(std::string table);
  // The lobby's public tables, across nodes: this node's table changed (or is new), or left its listing. The other
  // nodes list it for their lobby watchers (TableHost::remote_update); a node that starts asks the others for theirs.
  void announce(const protocol::TableInfo& table);
  void announce_removed(const std::string& table);
  // Friends: a notice for people who may be connected to other nodes (tables/friends.hpp; TableHost::remote_people
  // there). At most about 7,000 bytes: the caller splits longer ones.
  void tell_people(const nlohmann::json& notice);

 private:
  struct Wanted {
    std::string table;
    std::function<void(Taken)> done;
    std::chrono::steady_clock::time_point give_up;
    std::chrono::steady_clock::time_point next_try;
    std::chrono::steady_clock::time_point asked;  // when the holder was asked to hand it over (unset: not yet)
    bool unanswered = false;  // the last try failed for want of the database
  };
  // A lease this node holds, or gives up: the table and the epoch it was taken at (a lease taken again since, at a
  // higher epoch, is another one).
  struct Lease {
    std::string table;
    std::uint64_t epoch = 0;
  };
  void loop();
  void step();  // one round of the loop; throws StoreError when the database fails
  // Tries to take `w.table` once; true when `w` is settled (`done` called).
  bool try_take(Wanted& w, std::chrono::steady_clock::time_point now);
  // Taken (at `epoch`): read and adopted by the host. False if it is not stored or does not replay; throws StoreError
  // when the database does not answer (the lease stays this node's until it runs out).
  bool load(const std::string& table, std::uint64_t epoch);
  // The database failed (`why`) or answered again: one log line each way, and after it answers again no orphan is
  // swept up for one lease, so that every node renews its own leases first.
  void database_failed(const std::string& why);
  void database_answered(std::chrono::steady_clock::time_point now);
  void renew();
  void sweep();
  void hand_over(const std::string& table);
  void heard(const std::string& channel, const std::string& payload);  // another node's notification

  const Settings settings_;
  Store& db_;
  TableHost& tables_;
  TableLeases leases_;  // the cluster thread's own connection
  std::thread thread_;
  std::atomic<bool> stopping_{false};

  std::mutex mutex_;  // guards what other threads hand in
  std::vector<Wanted> incoming_;
  std::vector<std::string> made_;  // hold()
  std::vector<Lease> released_;    // tables handed over (their rooms gone): leases to give up
  std::vector<std::string> to_announce_;  // lobby payloads to send

  // The cluster thread's own.
  std::vector<Wanted> waiting_;
  std::map<std::string, std::uint64_t> held_;  // leases this node holds (tables in its memory), with their epochs
  std::chrono::steady_clock::time_point next_renew_{}, next_sweep_{};
  bool database_failing_ = false;
  std::chrono::steady_clock::time_point sweep_after_{};  // database_answered
};

}  // namespace emporium::server
