#pragma once
// The registry of tables: finds them by id, invite code or seat token, creates and restores them,
// and keeps the live list of public tables for those who watch the lobby. A plain mutex guards
// its maps: every operation is a short lookup, and rooms and sessions on any strand call it.
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
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
  // Stores a finished table's rematch (and the offer on that table) and registers it; null if it cannot be saved.
  std::shared_ptr<room> create_rematch(StoredTable table, const protocol::RematchOffer& offer);

  // Private tables are found only by invite code. A finished table not in memory (after a restart) is
  // brought back from the store when asked for, so its players can resume it and anyone may watch it.
  std::shared_ptr<room> find(const protocol::TableRef& ref);
  std::shared_ptr<room> find_by_token(const std::string& token);
  // Any table by its id, private ones included (for the server's own use, never a client's request).
  std::shared_ptr<room> find_id(const std::string& id);
  // Replies to `s` with what each token's table is, once every room holding one has answered on its own strand.
  // Tables finished and not in memory are described from the store, without replaying them.
  void my_games(const std::shared_ptr<websocket_session>& s, std::vector<std::string> tokens, nlohmann::json re);
  // Seats are registered by their token's hash (hash_token): the server never keeps a token itself.
  void register_token(const std::string& token_hash, const std::shared_ptr<room>& table);
  void unregister_token(const std::string& token_hash);
  void remove_room(const std::string& id);

  // A room's summary changed: store it and tell lobby watchers if the table is public.
  void update(const protocol::TableInfo& table);
  std::vector<protocol::TableInfo> public_tables() const;
  std::map<std::pair<std::string, std::string>, int> room_counts() const;

  // Connections: lobby watchers get the public list whenever it changes; every open connection
  // is told "going away" at shutdown.
  void add_session(const std::shared_ptr<websocket_session>& s);
  void remove_session(const websocket_session* s);
  void watch(const std::shared_ptr<websocket_session>& s, bool on);
  void shutdown();
  std::size_t open_connections() const;  // WebSocket connections not yet closed

 private:
  // Registers a room with the tokens its people resume with; returns the room registered under its id (an
  // earlier one, if another request brought the same table back first).
  std::shared_ptr<room> register_room(const std::shared_ptr<room>& table, const std::vector<StoredSeat>& seats);
  // A stored table with its record replayed, registered; null when the record does not replay.
  std::shared_ptr<room> rebuild(StoredTable stored);
  std::shared_ptr<room> bring_back_finished(const std::string& id);
  std::optional<protocol::MyGame> describe_stored(const std::string& token_hash);
  void notify_watchers();

  net::any_io_executor executor_;
  server_context& context_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<room>> rooms_;
  std::unordered_map<std::string, std::weak_ptr<room>> by_invite_;
  std::unordered_map<std::string, std::weak_ptr<room>> by_token_;  // by token hash
  std::map<std::string, protocol::TableInfo> summaries_;  // every room, by id
  std::unordered_map<const websocket_session*, std::weak_ptr<websocket_session>> sessions_;
  std::unordered_map<const websocket_session*, std::weak_ptr<websocket_session>> watchers_;
};

}  // namespace emporium::server
