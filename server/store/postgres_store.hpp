#pragma once
// The store for several nodes: PostgreSQL through libpq, chosen with --store postgresql://… (open_store.hpp). The same
// tables and columns as the SQLite store (stored_rows.hpp). One connection behind a mutex; the commit queue's group
// commits go in one round trip (libpq's pipeline mode), and a lost connection is opened again on the next call.
#include <chrono>
#include <mutex>
#include <string>
#include <vector>

#include "store/pg_connection.hpp"
#include "store/store.hpp"

namespace emporium::server {

class PostgresStore final : public Store {
 public:
  // Connects to `uri` (a libpq connection URI) and brings the schema up to date (schema.hpp); several nodes may
  // start at once. Throws StoreError. `node` names this server in the database (its sign of life).
  // `first_lease`: how long a table this node creates is its own before it must renew the lease (the cluster's
  // lease length).
  explicit PostgresStore(const std::string& uri, std::string node = "main",
                         std::chrono::milliseconds first_lease = std::chrono::seconds(5));
  ~PostgresStore() override;
  PostgresStore(const PostgresStore&) = delete;
  PostgresStore& operator=(const PostgresStore&) = delete;

  void create_table(const StoredTable& table) override;
  std::optional<nlohmann::json> create_rematch(const StoredTable& table, const nlohmann::json& offer,
                                               const nlohmann::json& replaces) override;
  void save_seats(const std::string& table, const std::vector<StoredSeat>& seats, int players, int creator_seat,
                  std::uint64_t epoch = 0) override;
  void set_state(const std::string& table, TableState state, const nlohmann::json& result = nullptr,
                 std::uint64_t epoch = 0) override;
  void append_actions(const std::vector<ActionWrite>& batch) override;
  void save_clock(const std::string& table, const nlohmann::json& clock_state, std::uint64_t epoch = 0) override;
  void mark_alive(std::int64_t unix_ms) override;
  std::optional<std::int64_t> last_alive() override;
  void delete_table(const std::string& table, std::uint64_t epoch = 0) override;
  std::size_t load_unfinished(const std::function<void(std::size_t place, StoredTable&& table)>& take) override;
  std::optional<StoredTable> load(const std::string& table, bool with_actions = true) override;
  std::optional<std::string> table_of_token(const std::string& token_hash) override;
  std::optional<std::string> table_of_invite(const std::string& invite) override;
  void save_analysis(const std::string& table, const std::string& engine_version, const std::string& body) override;
  std::optional<std::string> load_analysis(const std::string& table, const std::string& engine_version) override;
  std::uint64_t reconnections() const override {
    const auto opened = db_.generation();
    return opened > 0 ? opened - 1 : 0;
  }

 private:
  // The connection with the group commit's statements prepared (once per connection); with the mutex held.
  PGconn* prepared();
  // append_actions for a batch with a game's end in it: one statement at a time, in one transaction.
  void append_with_game_ends(const std::vector<ActionWrite>& batch);
  void insert_table(const StoredTable& table);
  void insert_seats(const std::string& table, const std::vector<StoredSeat>& seats);
  std::optional<StoredTable> read_table(const std::string& id, bool with_actions);  // none: no such table
  std::optional<std::string> first_text(const char* sql, const std::string& key);
  // In a write's transaction: throws StoreError unless this node holds `table` at `epoch` (nothing to check at 0).
  void held(const std::string& table, std::uint64_t epoch);

  std::mutex mutex_;
  PgConnection db_;
  std::string node_;
  std::string first_lease_ms_;
  std::uint64_t prepared_in_ = 0;  // the connection's generation whose session has the group commit's statements
};

}  // namespace emporium::server
