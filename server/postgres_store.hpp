#pragma once
// The store for several nodes: PostgreSQL through libpq, chosen with --store postgresql://… (store.hpp). The same
// tables and columns as the SQLite store (stored_rows.hpp). One connection behind a mutex; the commit queue's group
// commits go in one round trip (libpq's pipeline mode), and a lost connection is opened again on the next call.
#include <mutex>
#include <string>
#include <vector>

#include "store.hpp"

struct pg_conn;
struct pg_result;

namespace emporium::server {

class postgres_store final : public store {
 public:
  // Connects to `uri` (a libpq connection URI) and creates the schema if it is missing; several nodes may start
  // at once. Throws store_error. `node` names this server in the database (its sign of life).
  explicit postgres_store(const std::string& uri, std::string node = "main");
  ~postgres_store() override;
  postgres_store(const postgres_store&) = delete;
  postgres_store& operator=(const postgres_store&) = delete;

  void create_table(const StoredTable& table) override;
  void create_rematch(const StoredTable& table, const nlohmann::json& offer) override;
  void save_seats(const std::string& table, const std::vector<StoredSeat>& seats, int players,
                  int creator_seat) override;
  void set_state(const std::string& table, const std::string& state, const nlohmann::json& result = nullptr) override;
  void append_actions(const std::vector<ActionWrite>& batch) override;
  void save_clock(const std::string& table, const nlohmann::json& clock_state) override;
  void mark_alive(std::int64_t unix_ms) override;
  std::optional<std::int64_t> last_alive() override;
  void delete_table(const std::string& table) override;
  std::size_t load_unfinished(const std::function<void(std::size_t place, StoredTable&& table)>& take) override;
  std::optional<StoredTable> load(const std::string& table, bool with_actions = true) override;
  std::optional<std::string> table_of_token(const std::string& token_hash) override;
  std::optional<std::string> table_of_invite(const std::string& invite) override;

  // A statement's parameter: text, or NULL.
  using param = std::optional<std::string>;

 private:
  class result;
  // With the mutex held: a connection that is up (opened again if it was lost).
  pg_conn* connection();
  void prepare();  // the group commit's statements, once per connection (after connection())
  // Runs one statement with text parameters; throws store_error unless it succeeded.
  result run(const char* sql, const std::vector<param>& params = {});
  // Runs one statement and hands its rows to `take` one at a time as they arrive (a long result is never whole in
  // memory); throws store_error unless it succeeded.
  template <class F>
  void each_row(const char* sql, const std::vector<param>& params, F&& take);
  // Runs `body` between BEGIN (`begin`) and COMMIT, rolling back if it throws (the caller holds the mutex).
  template <class F>
  void transaction(F&& body, const char* begin = "BEGIN");
  void insert_table(const StoredTable& table);
  void insert_seats(const std::string& table, const std::vector<StoredSeat>& seats);
  std::optional<StoredTable> read_table(const std::string& id, bool with_actions);  // none: no such table
  std::optional<std::string> first_text(const char* sql, const std::string& key);
  [[noreturn]] void fail(const std::string& what);

  std::mutex mutex_;
  std::string uri_;
  std::string node_;
  pg_conn* conn_ = nullptr;
  bool prepared_ = false;  // the group commit's statements, on this connection
};

}  // namespace emporium::server
