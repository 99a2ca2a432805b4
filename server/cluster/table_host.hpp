#pragma once
// What the cluster needs of the tables this node serves. The tables layer implements it (TableDirectory), so the
// cluster, below the tables, never depends on rooms: it moves tables by id and stored row.
#include <functional>
#include <string>
#include <vector>

#include <emporium/protocol/protocol.hpp>

#include "store/store.hpp"

namespace emporium::server {

class TableHost {
 public:
  // Whether the table is in this node's memory.
  virtual bool serves(const std::string& table) = 0;
  // A table this node has just taken over (its lease's epoch in `stored`): replayed, registered and carrying on
  // (bots, clocks). False when its record does not replay.
  virtual bool adopt(StoredTable stored) = 0;
  // The table leaves this node once the move being stored, if any, is stored; `then` runs after (at once when it
  // is not here).
  virtual void hand_off(const std::string& table, std::function<void()> then) = 0;
  // The lobby across nodes: this node's own public tables as listed, and another node's listing changes.
  virtual std::vector<protocol::TableInfo> own_listed() const = 0;
  virtual void remote_update(const std::string& node, const protocol::TableInfo& table) = 0;
  virtual void remote_removed(const std::string& node, const std::string& table) = 0;
  // Friends (tables/friends.hpp): another node's notice for the people connected here.
  virtual void remote_people(const nlohmann::json& notice) = 0;

 protected:
  ~TableHost() = default;
};

}  // namespace emporium::server
