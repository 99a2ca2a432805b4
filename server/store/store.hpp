#pragma once
// Durable storage of tables, seats and action records: what is stored (StoredTable) and the interface of the stores.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <emporium/engine/rng.hpp>
#include <emporium/protocol/protocol.hpp>
#include <nlohmann/json.hpp>

#include "store/states.hpp"

namespace emporium::server {

struct StoredSeat {
  int seat = 0;
  std::string name{};
  std::string token_hash{};  // hash_token of the seat's token: the token itself is never stored
  std::string bot{};  // a bot's level ("easy", "normal") when a bot holds the seat; empty for a person
  // Why that bot plays a person's seat during the game (none for a bot seated before the start); while it only
  // keeps the seat for its person (keeps_seat_for_person), the token is still theirs and resuming takes it back.
  StandIn stand_in = StandIn::none;
  // A rematch's seat kept for a person of the finished table: their token's hash there (their claim). Such a seat has
  // no token of its own (empty here; the store writes a placeholder that no client can send).
  std::string reserved_for{};
  // The account the seat is played for (a signed-in person took it), kept when a bot finishes the game for them; empty
  // for a guest's seat and a bot's own.
  std::string account{};
  // Whether a person resumes this seat with its token (a person's, or one a bot stands in for while they are away).
  bool resumable() const { return reserved_for.empty() && (bot.empty() || keeps_seat_for_person(stand_in)); }
};

struct StoredTable {
  std::string id;
  std::string game;
  int players = 0;             // seats at the table (the player count once started)
  nlohmann::json options = nlohmann::json::object();
  engine::Seed seed;
  std::string salt;            // 32 hex digits; empty for tables from before commitments (records.hpp)
  bool is_private = false;
  bool rated = false;          // its end updates the ratings of its people (docs/ratings.md)
  bool friends_only = false;   // a private table the creator's friends may also join by id (docs/friends.md)
  bool undo = true;            // its players may take back a step (docs/undo.md)
  std::string invite;          // empty for public tables
  int creator_seat = 0;
  TableState state = TableState::waiting;
  std::vector<StoredSeat> seats;
  std::vector<std::pair<int, nlohmann::json>> actions;  // (player, action), in order
  // load_unfinished hands the actions over as text, for the taker to parse (a restart parses on its builder
  // threads): parse_actions() turns them into `actions`.
  std::vector<std::pair<int, std::string>> action_texts;
  void parse_actions();
  nlohmann::json rematch;      // a finished table's rematch offer ({"table","by","invite"?}), or null
  std::string rematch_of;      // the finished table this one is the rematch of, or empty
  nlohmann::json result;       // the engine's result once finished, else null (read only: set_state writes it)
  long long updated_at = 0;    // unix seconds of the last change of seats or state (read only)
  long long finished_at = 0;   // unix seconds when the game ended, 0 before (read only)
  std::optional<protocol::ClockConfig> clock;  // timed tables only
  nlohmann::json clock_state = nullptr;         // TurnClock::to_stored, once a timed game has started
  // Several nodes (cluster/cluster.hpp, PostgreSQL only): the node holding the table's lease and the lease's epoch, which
  // every action it writes is checked against. Empty and 0 on one node.
  std::string owner;
  std::uint64_t epoch = 0;
};

// A game's end as the store keeps it for its people's accounts, carried by its last action (ActionWrite::end) and
// written in the same transaction (docs/ratings.md "Exactly once"): every account's result, and on a rated table the
// rating update.
struct GameEndSeat {
  int seat = 0;
  int rank = 1;            // 1 is best; equal ranks tie
  std::string account;     // a person's seat played for an account; empty for a guest's seat or a bot's own
  std::string bot;         // a bot's own seat (not a stand-in): its level; it is rated at its fixed rating
  double bot_mu = 0, bot_sigma = 0;
  std::string left_by;     // "left" or "timeout": its person left, or lost the seat to timeouts (ranked last)
};
struct GameEnd {
  std::string game;
  int players = 0;
  bool rated = false;
  bool is_private = false;
  std::vector<GameEndSeat> seats;  // every seat, in seat order
};

// One accepted action as the commit queue writes it (commit_queue.hpp); the texts are JSON made by the room.
struct ActionWrite {
  std::string table;
  std::uint64_t index = 0;  // the action's place in the table's record (the version it was made at)
  int player = 0;
  std::string action;
  std::string clock_state;  // a timed table's clock after the action, else empty
  std::string result;       // the engine's result when the action ends the game (the table is then finished), else empty
  // Several nodes: the epoch of the writer's lease on the table. The action is stored only while that lease is
  // still the writer's (else the batch fails): a node that lost a table can never add to its record. 0 on one node.
  std::uint64_t epoch = 0;
  // The game's end, for its accounts (only with `result`, and only when a seat is an account's); null otherwise.
  std::shared_ptr<const GameEnd> end{};
};

// A store call that failed. Its kind says what the caller may do about it: an `unavailable` store (unreachable,
// restarting, too slow, locked by another process, out of disk) is worth trying again once it answers; the others
// are answers from a store that works.
class StoreError : public std::runtime_error {
 public:
  enum class Kind {
    unavailable,  // the store did not answer in time, or could not do the work now: retry later
    lease_lost,   // several nodes: the writer no longer holds the table (another node took it over)
    conflict,     // the write contradicts what is stored (a record's index already there)
    other,        // anything else: a bug, or data the store refuses
  };
  explicit StoreError(const std::string& what, Kind kind = Kind::other) : std::runtime_error(what), kind_(kind) {}
  Kind kind() const { return kind_; }
  bool unavailable() const { return kind_ == Kind::unavailable; }

 private:
  Kind kind_;
};
// The kind's name, as /metrics labels it.
const char* kind_name(StoreError::Kind kind);

// Where tables, seats and action records are kept: SQLite in a data directory (sqlite_store.hpp, the default) or
// PostgreSQL (postgres_store.hpp). Every accepted action is appended here before anyone is told of it; on start the
// server rebuilds every unfinished table from its record. Implementations are thread-safe: rooms on different
// strands, the commit queue's writer and the record builders call them.
class Store {
 public:
  virtual ~Store() = default;

  // Creates a table with its seats.
  virtual void create_table(const StoredTable& table) = 0;
  // Creates `table` (a rematch, with its seats) and records it as the offer of `table.rematch_of`, at once, provided
  // that table's offer is still `replaces` (null: none yet). If it is not (with several nodes: another node offered
  // a rematch of the same table meanwhile), nothing is stored and the offer the table has now is returned.
  virtual std::optional<nlohmann::json> create_rematch(const StoredTable& table, const nlohmann::json& offer,
                                                       const nlohmann::json& replaces) = 0;
  // The writes of a table's room. `epoch`: with several nodes, the writer's lease on the table (StoredTable::epoch);
  // the write is refused (StoreError) unless the writer still holds it. 0 on one node.
  // Replaces the seats of a table (used on join, leave and start).
  virtual void save_seats(const std::string& table, const std::vector<StoredSeat>& seats, int players,
                          int creator_seat, std::uint64_t epoch = 0) = 0;
  virtual void set_state(const std::string& table, TableState state, const nlohmann::json& result = nullptr,
                         std::uint64_t epoch = 0) = 0;
  // Every action of `batch`, in order, in one transaction: all of them or none (throws StoreError). An action's
  // clock and, for a game's last action, the finished state and result go with it. An action whose (table, index)
  // is already stored fails the batch: a record never forks.
  virtual void append_actions(const std::vector<ActionWrite>& batch) = 0;
  // Run by the commit queue's writer after a batch's rooms were told it is stored: housekeeping that should delay
  // neither the batch's announcement nor the network threads (SQLite copies its log back into the database).
  virtual void after_batch() {}
  // One action on its own (tools and tests; the server writes through the commit queue).
  void append_action(const std::string& table, std::uint64_t index, int player, const nlohmann::json& action,
                     const nlohmann::json& clock_state = nullptr);
  virtual void save_clock(const std::string& table, const nlohmann::json& clock_state, std::uint64_t epoch = 0) = 0;
  // The server's sign of life (Unix ms), written every second: after a crash, the moment it went down.
  virtual void mark_alive(std::int64_t unix_ms) = 0;
  virtual std::optional<std::int64_t> last_alive() = 0;
  virtual void delete_table(const std::string& table, std::uint64_t epoch = 0) = 0;

  // Every unfinished table, each handed to `take` (with its place in creation order) as soon as it is read whole,
  // its actions still text (StoredTable::parse_actions), so a restart replays one while the next is read. Returns
  // how many. `take` must not call the store.
  virtual std::size_t load_unfinished(const std::function<void(std::size_t place, StoredTable&& table)>& take) = 0;
  // Without its actions the table is only described, not replayed (my_games).
  virtual std::optional<StoredTable> load(const std::string& table, bool with_actions = true) = 0;
  // The id of the table a seat token (by its hash) or an invite code belongs to (finished tables included).
  virtual std::optional<std::string> table_of_token(const std::string& token_hash) = 0;
  virtual std::optional<std::string> table_of_invite(const std::string& invite) = 0;

  // A finished table's analysis (docs/analysis.md, "Serving it"): one per table, the document as served. Saving
  // one replaces the table's analysis of any engine version; loading finds it only for `engine_version` (the
  // stored one of another version is stale).
  virtual void save_analysis(const std::string& table, const std::string& engine_version, const std::string& body) = 0;
  virtual std::optional<std::string> load_analysis(const std::string& table, const std::string& engine_version) = 0;

  // Connections to the database opened again since the first (/metrics).
  virtual std::uint64_t reconnections() const { return 0; }
};

}  // namespace emporium::server
