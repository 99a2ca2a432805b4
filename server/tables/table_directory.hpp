#pragma once
// Every table this node serves: finds them by id, invite code or seat token, creates them, restores them after a
// restart, brings finished ones back from the store, and (several nodes) takes them over from other nodes and hands
// them off (it is the cluster's TableHost). A plain mutex guards its maps: every operation is a short lookup, and
// rooms and members on any strand call it.
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <emporium/protocol/protocol.hpp>

#include "cluster/table_host.hpp"
#include "common/net.hpp"
#include "store/store.hpp"
#include "tables/tables_context.hpp"

namespace emporium::server {

class Member;
class Room;

class TableDirectory final : public TableHost {
 public:
  TableDirectory(net::any_io_executor executor, const TablesContext& context);

  // Rebuilds every unfinished table from the store; returns how many.
  std::size_t restore();

  struct Created {
    std::shared_ptr<Room> table;
    std::optional<protocol::ParseError> error;
  };
  // Checks the request, stores the table and registers it; `done` gets the outcome, on the store's thread (or at
  // once, for a request the engine refuses).
  // `account`: the signed-in creator's (empty for a guest), whose correspondence games are limited (game_limit.hpp).
  void create_table(const protocol::CreateTable& request, const std::string& account, std::function<void(Created)> done);
  // Stores a finished table's rematch (and the offer on that table) and registers it, provided the finished table's
  // offer is still `replaces` in the store. If another node offered one meanwhile, `instead` is that offer. Calls
  // the store: only on the store's thread (Room::offer_rematch); throws StoreError.
  struct RematchMade {
    std::shared_ptr<Room> table;  // null if it could not be saved, or was not made
    std::optional<protocol::RematchOffer> instead;
  };
  RematchMade create_rematch(StoredTable table, const protocol::RematchOffer& offer,
                             const std::optional<protocol::RematchOffer>& replaces);

  // Private tables are found only by invite code (or a seat's token). A table not in this node's memory is looked
  // for in the store, on the store's thread: a finished one (after a restart) is brought back, so its players can
  // resume it and anyone may watch it; with several nodes, an unfinished one is taken over first. Then the lookup
  // is `pending`, and `later` gets what was found, on another thread. `unavailable`: the store could not be asked
  // (nothing is known of the table; it is not "no such table").
  struct Found {
    std::shared_ptr<Room> table;
    bool unavailable = false;
  };
  struct Lookup {
    std::shared_ptr<Room> table;
    bool pending = false;
  };
  using TakenCallback = std::function<void(Found)>;
  Lookup find(const protocol::TableRef& ref, TakenCallback later);
  Lookup find_by_token(const std::string& token, TakenCallback later);
  // The table `table_id` where `account` claimed a seat (people store), with that seat's token hash (empty when it
  // claimed none there: no table). Always from the store's thread.
  using SeatCallback = std::function<void(Found, std::string token_hash)>;
  Lookup find_by_account(const std::string& account, const std::string& table_id, SeatCallback later);
  // Any table by its id, private ones included (for the server's own use, never a client's request): `found` gets
  // it, at once if it is in memory, else from the store's thread as find() does.
  void find_id(const std::string& id, TakenCallback found);
  // The room if it is in this node's memory (the store is not asked).
  std::shared_ptr<Room> find_local(const std::string& id);
  // Replies to `member` with what each token's table is, once every room holding one has answered on its own
  // strand. Tables not in memory are described from the store, on the store's thread, without replaying them
  // (my_games.cpp). A signed-in member also gets its account's newest claimed seats (kMyGamesOfAccount), tokenless,
  // read with their tables in one query.
  void my_games(const std::shared_ptr<Member>& member, std::vector<std::string> tokens, nlohmann::json re);
  static constexpr std::size_t kMyGamesOfAccount = 100;

  // Seats are registered by their token's hash (hash_token): the server never keeps a token itself.
  void register_token(const std::string& token_hash, const std::shared_ptr<Room>& table);
  void unregister_token(const std::string& token_hash);
  void remove_room(const std::string& id);
  // A finished room nobody is connected to leaves memory, unless it was handed out since the room saw
  // `lookups_seen` lookups (false then: a request may be on its way). True when it is no longer the directory's.
  bool release_unwatched(const std::string& id, const Room* table, std::uint64_t lookups_seen);

  // An account's vacation started (until then) or ended (none): its rooms among `tables` here are told, and those
  // on the other nodes through the cluster (docs/mail.md "Vacation"). Any thread.
  void vacation(const std::string& account, std::optional<long long> until, const std::vector<std::string>& tables);

  // TableHost: what the cluster asks of this node's tables.
  bool serves(const std::string& id) override;
  bool adopt(StoredTable stored) override;
  void hand_off(const std::string& id, std::function<void()> then) override;  // Room::move_away, `then` after
  std::vector<protocol::TableInfo> own_listed() const override;
  void remote_update(const std::string& node, const protocol::TableInfo& table) override;
  void remote_removed(const std::string& node, const std::string& id) override;
  void remote_people(const nlohmann::json& notice) override;

 private:
  std::shared_ptr<Room> handed_out(std::shared_ptr<Room> table);  // counts the lookup; with mutex_ held
  void vacation_here(const std::string& account, std::optional<long long> until, const std::vector<std::string>& tables);
  // Out of the maps and the lobby; with mutex_ held.
  void erase_room(std::unordered_map<std::string, std::shared_ptr<Room>>::iterator it);
  // my_games' answer for these tokens (empty: the account's, unnamed) and their hashes.
  // `stored`: a seat's table as the store holds it, where it was read already (the account's claims), by index.
  void describe_seats(const std::shared_ptr<Member>& member, std::vector<std::string> tokens,
                      std::vector<std::string> hashes, std::vector<std::optional<StoredTable>> stored,
                      nlohmann::json re);
  // Registers a room with the tokens its people resume with; returns the room registered under its id (an
  // earlier one, if another request brought the same table back first).
  std::shared_ptr<Room> register_room(const std::shared_ptr<Room>& table, const std::vector<StoredSeat>& seats);
  // A stored table with its record replayed, not yet registered; null when the record does not replay. Touches
  // nothing shared: restore() calls it from several threads.
  std::shared_ptr<Room> loaded(const StoredTable& stored);
  // loaded(), registered.
  std::shared_ptr<Room> rebuild(StoredTable stored);
  // A table this node has just made: several nodes' lease is this node's from the start (epoch 1; own() before it
  // is stored, registered_new() after).
  void own(StoredTable& table) const;
  std::shared_ptr<Room> registered_new(StoredTable stored);
  // On the store's thread (throws StoreError).
  std::optional<protocol::MyGame> describe_stored(const std::string& token_hash);
  // What my_games tells of a seat whose table is not in memory, from the table as stored (none: not stored).
  std::optional<protocol::MyGame> describe_not_in_memory(const std::optional<StoredTable>& table,
                                                         const std::string& token_hash) const;
  // Runs `job` on the store's thread; a StoreError it throws is logged unless the store is unavailable, and
  // `later` is told (unavailable, or not found).
  void in_store(std::function<void()> job, TakenCallback later);
  // On the store's thread: the table `id`, not in this node's memory, brought back from the store if finished,
  // taken over if another node's; `later` gets it (at once, or from the cluster's thread). `by_public_id`: found
  // by its id, so a private table is not found. Throws StoreError.
  void bring(const std::string& id, bool by_public_id, TakenCallback later);
  // A private table is not found by its id, unless it is friends-only.
  static bool hidden_by_id(const Room& table);

  net::any_io_executor executor_;
  const TablesContext& context_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<Room>> rooms_;
  std::unordered_map<std::string, std::weak_ptr<Room>> by_invite_;
  std::unordered_map<std::string, std::weak_ptr<Room>> by_token_;  // by token hash
};

}  // namespace emporium::server
