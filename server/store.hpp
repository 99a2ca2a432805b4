#pragma once
// Durable storage of tables, seats and action records in one SQLite database (WAL) in the data
// directory. Every accepted action is appended here before anyone is told of it; on start the
// server rebuilds every unfinished table from its record. Thread-safe: one connection behind a
// mutex (rooms on different strands write here; each write is a few microseconds).
#include <cstdint>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <emporium/protocol/protocol.hpp>
#include <nlohmann/json.hpp>

struct sqlite3;

namespace emporium::server {

struct StoredSeat {
  int seat = 0;
  std::string name;
  std::string token;
  std::string bot;  // a bot's level ("easy", "normal") when a bot holds the seat; empty for a person
  // When that bot stands in for a person during a game: "left" (they left it), "absent" (they were away) or
  // "timeout" (three timeouts in a row); for the last two the token is still theirs and resuming takes the
  // seat back. Empty for a bot seated before the start.
  std::string stand_in;
  // Whether a person resumes this seat with its token (a person's, or one a bot stands in for while they are away).
  bool resumable() const { return bot.empty() || stand_in == "absent" || stand_in == "timeout"; }
};

struct StoredTable {
  std::string id;
  std::string game;
  int players = 0;             // seats at the table (the player count once started)
  nlohmann::json options = nlohmann::json::object();
  std::uint64_t seed = 0;
  bool is_private = false;
  std::string invite;          // empty for public tables
  int creator_seat = 0;
  std::string state = "waiting";  // waiting, playing, finished
  std::vector<StoredSeat> seats;
  std::vector<std::pair<int, nlohmann::json>> actions;  // (player, action), in order
  std::optional<protocol::ClockConfig> clock;  // timed tables only
  nlohmann::json clock_state = nullptr;         // turn_clock::to_stored, once a timed game has started
};

struct store_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class store {
 public:
  // Opens (creating if needed) <data_dir>/emporium.db. Throws store_error.
  explicit store(const std::string& data_dir);
  ~store();
  store(const store&) = delete;
  store& operator=(const store&) = delete;

  void create_table(const StoredTable& table);
  // Replaces the seats of a table (used on join, leave and start).
  void save_seats(const std::string& table, const std::vector<StoredSeat>& seats, int players, int creator_seat);
  void set_state(const std::string& table, const std::string& state, const nlohmann::json& result = nullptr);
  // `clock_state`, when not null, is stored with the action in one transaction (a timed table's clock).
  void append_action(const std::string& table, std::uint64_t index, int player, const nlohmann::json& action,
                     const nlohmann::json& clock_state = nullptr);
  void save_clock(const std::string& table, const nlohmann::json& clock_state);
  // The server's sign of life (Unix ms), written every second: after a crash, the moment it went down.
  void mark_alive(std::int64_t unix_ms);
  std::optional<std::int64_t> last_alive();
  void delete_table(const std::string& table);

  std::vector<StoredTable> load_unfinished();
  std::optional<StoredTable> load(const std::string& table);
  // The id of the table a seat token or an invite code belongs to (finished tables included).
  std::optional<std::string> table_of_token(const std::string& token);
  std::optional<std::string> table_of_invite(const std::string& invite);

 private:
  void exec(const char* sql);
  void write_clock(const std::string& table, const nlohmann::json& clock_state);  // under the mutex
  void add_missing_column(const char* table, const char* column, const char* type);
  // The first column of the first row `sql` (one `?`, bound to `key`) finds, if any.
  std::optional<std::string> first_text(const char* sql, const std::string& key);
  StoredTable read_table(const std::string& id);

  std::mutex mutex_;
  sqlite3* db_ = nullptr;
};

}  // namespace emporium::server
