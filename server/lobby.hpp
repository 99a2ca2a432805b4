#pragma once
// The registry of tables: finds them by id, invite code or seat token, creates and restores them,
// and keeps the live list of public tables for those who watch the lobby. A plain mutex guards
// its maps: every operation is a short lookup, and rooms and sessions on any strand call it.
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <emporium/protocol/protocol.hpp>

#include "net.hpp"
#include "server_context.hpp"
#include "store.hpp"

namespace emporium::server {

class room;
class websocket_session;

class lobby {
 public:
  static constexpr std::size_t kMaxListed = 200;

  lobby(net::any_io_executor executor, server_context& context);

  // Rebuilds every unfinished table from the store; returns how many.
  std::size_t restore();

  struct created {
    std::shared_ptr<room> table;
    std::optional<protocol::ParseError> error;
  };
  created create_table(const protocol::CreateTable& request);
  // Stores a finished table's rematch (and the offer on that table) and registers it, provided the finished table's
  // offer is still `replaces` in the store. If another node offered one meanwhile, `instead` is that offer.
  struct rematch_made {
    std::shared_ptr<room> table;  // null if it could not be saved, or was not made
    std::optional<protocol::RematchOffer> instead;
  };
  rematch_made create_rematch(StoredTable table, const protocol::RematchOffer& offer,
                              const std::optional<protocol::RematchOffer>& replaces);

  // Private tables are found only by invite code (or a seat's token). A finished table not in memory (after a
  // restart) is brought back from the store when asked for, so its players can resume it and anyone may watch it.
  // With several nodes (cluster.hpp), an unfinished table that is not in this node's memory is taken over first: then
  // `later` gets the room (or null) on another thread once it is here, and the lookup is `pending`; without `later`
  // such a table is not found.
  struct lookup {
    std::shared_ptr<room> table;
    bool pending = false;
  };
  using taken_callback = std::function<void(std::shared_ptr<room>)>;
  lookup find(const protocol::TableRef& ref, taken_callback later = nullptr);
  lookup find_by_token(const std::string& token, taken_callback later = nullptr);
  // Any table by its id, private ones included (for the server's own use, never a client's request).
  std::shared_ptr<room> find_id(const std::string& id);
  // The same, where an unfinished table on another node is taken over first (several nodes): `found` gets the room,
  // or null when there is no such table (or it could not be taken over), at once or later on another thread.
  void find_id(const std::string& id, taken_callback found);
  // The room if it is in this node's memory (the store is not asked).
  std::shared_ptr<room> find_local(const std::string& id);
  // A table this node has just taken over (its lease's epoch in `stored`), replayed and registered; null if its
  // record does not replay.
  std::shared_ptr<room> adopt(StoredTable stored);
  // The table leaves this node (room::move_away), `then` after; without the room here, `then` at once.
  void hand_off(const std::string& id, std::function<void()> then);
  // Replies to `s` with what each token's table is, once every room holding one has answered on its own strand.
  // Tables finished and not in memory are described from the store, without replaying them.
  void my_games(const std::shared_ptr<websocket_session>& s, std::vector<std::string> tokens, nlohmann::json re);
  // Seats are registered by their token's hash (hash_token): the server never keeps a token itself.
  void register_token(const std::string& token_hash, const std::shared_ptr<room>& table);
  void unregister_token(const std::string& token_hash);
  void remove_room(const std::string& id);
  // A finished room nobody is connected to leaves memory, unless it was handed out since the room saw
  // `lookups_seen` lookups (false then: a request may be on its way). True when it is no longer the lobby's.
  bool release_unwatched(const std::string& id, const room* table, std::uint64_t lookups_seen);

  // A room's summary changed: store it and tell lobby watchers if the table is public.
  void update(const protocol::TableInfo& table);
  // Several nodes (cluster.hpp): another node's public table, new or changed, and one that left its listing. Each
  // node's watchers see every node's tables; a table held here is this node's to describe.
  void remote_update(const std::string& node, const protocol::TableInfo& table);
  void remote_removed(const std::string& node, const std::string& id);
  // This node's own public tables as they would be listed (for a node that just started: cluster.hpp).
  std::vector<protocol::TableInfo> own_listed() const;
  std::map<std::pair<std::string, std::string>, int> room_counts() const;

  // Connections: lobby watchers get the list when they start watching (returned), then only what changes in it
  // (lobby_changed, lobby_removed); every open connection is told "going away" at shutdown.
  void add_session(const std::shared_ptr<websocket_session>& s);
  void remove_session(const websocket_session* s);
  std::vector<protocol::TableInfo> watch(const std::shared_ptr<websocket_session>& s, bool on);
  void shutdown();
  std::size_t open_connections() const;  // WebSocket connections not yet closed

 private:
  std::shared_ptr<room> handed_out(std::shared_ptr<room> table);  // counts the lookup; with mutex_ held
  // Out of the maps, the ranking and the lobby list; with mutex_ held.
  void erase_room(std::unordered_map<std::string, std::shared_ptr<room>>::iterator it);
  // Registers a room with the tokens its people resume with; returns the room registered under its id (an
  // earlier one, if another request brought the same table back first).
  std::shared_ptr<room> register_room(const std::shared_ptr<room>& table, const std::vector<StoredSeat>& seats);
  // A stored table with its record replayed, not yet registered; null when the record does not replay. Touches
  // nothing shared: restore() calls it from several threads.
  std::shared_ptr<room> loaded(const StoredTable& stored);
  // loaded(), registered.
  std::shared_ptr<room> rebuild(StoredTable stored);
  // A table this node has just made: several nodes' lease is this node's from the start (epoch 1; own() before it
  // is stored, registered_new() after).
  void own(StoredTable& table) const;
  std::shared_ptr<room> registered_new(StoredTable stored);
  std::optional<protocol::MyGame> describe_stored(const std::string& token_hash);
  // The table `id`, not in this node's memory: brought back from the store if finished, taken over if another
  // node's (find). `by_public_id`: found by its id, so a private table is not found.
  lookup from_store(const std::string& id, bool by_public_id, taken_callback later);

  // A public table's place in the listing: waiting first, then the newest (highest sequence) first.
  using rank = std::tuple<bool, std::uint64_t, std::string>;  // (playing, ~sequence, id)
  struct summary {
    protocol::TableInfo info;
    std::uint64_t sequence = 0;  // registration order: restored tables in store order, then new ones
    std::string node;            // several nodes: the node that listed it, when it is not in this one's memory
  };
  // Takes `id`'s summary out of the ranking and the map, if it has one; with mutex_ held.
  void drop_summary(const std::string& id);
  static std::optional<rank> rank_of(const summary& s);
  void place(const summary& s, bool add);  // in or out of ranked_; with mutex_ held
  // The listed public tables: at most kMaxListed, waiting before playing, newest first (by creation here).
  std::vector<protocol::TableInfo> listed_locked() const;
  std::unordered_set<std::string> listed_ids_locked() const;  // the ids of the same
  // With mutex_ held: brings listed_ up to date with the ranking and tells watchers what changed in the listing,
  // `changed` included if it is listed. Frames are posted under the lock, so every watcher sees them in order.
  void publish(const std::string& changed);

  net::any_io_executor executor_;
  server_context& context_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<room>> rooms_;
  std::unordered_map<std::string, std::weak_ptr<room>> by_invite_;
  std::unordered_map<std::string, std::weak_ptr<room>> by_token_;  // by token hash
  std::unordered_map<std::string, summary> summaries_;  // every room, by id
  std::set<rank> ranked_;                              // the public tables that may be listed, best first
  std::unordered_set<std::string> listed_;             // what watchers were last told is listed (while any watch)
  std::uint64_t next_sequence_ = 0;
  std::unordered_map<const websocket_session*, std::weak_ptr<websocket_session>> sessions_;
  std::size_t sweep_sessions_at_ = 1024;  // add_session sweeps out expired entries when sessions_ reaches this
  std::unordered_map<const websocket_session*, std::weak_ptr<websocket_session>> watchers_;
};

}  // namespace emporium::server
