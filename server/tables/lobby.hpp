#pragma once
// The lobby: the public tables as listed for those who watch it, this node's and (several nodes) the others'.
// Watchers get the list when they start watching, then only what changes in it (lobby_changed, lobby_removed).
// A plain mutex guards it: every operation is short, and the directory, rooms, members and the cluster's thread
// call it. The directory calls it with its own lock held (the directory's lock, then this one; never the reverse).
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <emporium/protocol/protocol.hpp>

#include "store/states.hpp"
#include "tables/tables_context.hpp"

namespace emporium::server {

class Member;

class Lobby {
 public:
  static constexpr std::size_t kMaxListed = 200;

  explicit Lobby(const TablesContext& context) : context_(context) {}

  // This node's tables. A table registered here (it replaces another node's listing of it): not yet told to
  // watchers, as its creator's join follows at once and its update() tells them.
  void add(const protocol::TableInfo& table);
  // A table's summary changed: watchers are told if it is public (and, several nodes, the other nodes).
  void update(const protocol::TableInfo& table);
  // A table left this node.
  void remove(const std::string& id);

  // Several nodes (cluster/cluster.hpp): another node's public table, new or changed, and one that left its listing.
  // Each node's watchers see every node's tables; a table held here is this node's to describe.
  void remote_update(const std::string& node, const protocol::TableInfo& table);
  void remote_removed(const std::string& node, const std::string& id);
  // This node's own public tables as they would be listed (for a node that just started).
  std::vector<protocol::TableInfo> own_listed() const;
  // This node's tables by (game, state), for /metrics.
  std::map<std::pair<std::string, std::string>, int> room_counts() const;

  // Starts (returns the list) or stops watching. The list is exactly what the changes sent from then on apply to.
  std::vector<protocol::TableInfo> watch(const std::shared_ptr<Member>& member, bool on);
  void forget(const Member* member);  // its connection closed

 private:
  // A public table's place in the listing: waiting first, then the newest (highest sequence) first.
  using Rank = std::tuple<bool, std::uint64_t, std::string>;  // (playing, ~sequence, id)
  struct Summary {
    protocol::TableInfo info;
    TableState state = TableState::waiting;  // info.state's
    std::uint64_t sequence = 0;  // registration order: restored tables in store order, then new ones
    std::string node;            // several nodes: the node that listed it, when it is not in this one's memory
  };
  static Summary summary_of(const protocol::TableInfo& table, std::uint64_t sequence, std::string node);
  // Takes `id`'s summary out of the ranking and the map, if it has one; with mutex_ held.
  void drop_summary(const std::string& id);
  // Puts `table` in the place of the summary `it` points to; with mutex_ held.
  void replace(std::unordered_map<std::string, Summary>::iterator it, const protocol::TableInfo& table);
  static std::optional<Rank> rank_of(const Summary& s);
  void place(const Summary& s, bool add);  // in or out of ranked_; with mutex_ held
  // The listed public tables: at most kMaxListed, waiting before playing, newest first (by creation here).
  std::vector<protocol::TableInfo> listed_locked() const;
  std::unordered_set<std::string> listed_ids_locked() const;  // the ids of the same
  // With mutex_ held: brings listed_ up to date with the ranking and tells watchers what changed in the listing,
  // `changed` included if it is listed. Frames are queued under the lock, so every watcher sees them in order.
  void publish(const std::string& changed);

  const TablesContext& context_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Summary> summaries_;  // every table of this node, and the others' public ones
  std::set<Rank> ranked_;                               // the public tables that may be listed, best first
  std::unordered_set<std::string> listed_;              // what watchers were last told is listed (while any watch)
  std::uint64_t next_sequence_ = 0;
  std::unordered_map<const Member*, std::weak_ptr<Member>> watchers_;
};

}  // namespace emporium::server
