#pragma once
// The default store: one SQLite database (WAL) in the data directory, <data_dir>/emporium.db. One connection
// behind a mutex: each write is a few microseconds, and moves arrive in group commits (commit_queue.hpp). The log
// is copied back into the database (a checkpoint: two fsyncs, milliseconds) by the commit queue's writer once a
// batch is announced, on a second connection and outside that mutex: the writes rooms make on network threads
// (seats, a new table) wait for a transaction at most, never for a checkpoint.
#include <atomic>
#include <mutex>
#include <utility>
#include <vector>

#include "store/store.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace emporium::server {

// One node only: the writes' epochs are always 0 and ignored.
class SqliteStore final : public Store {
 public:
  // Opens (creating if needed) <data_dir>/emporium.db and brings its schema up to date (schema.hpp). Throws
  // StoreError.
  explicit SqliteStore(const std::string& data_dir);
  ~SqliteStore() override;
  SqliteStore(const SqliteStore&) = delete;
  SqliteStore& operator=(const SqliteStore&) = delete;

  void create_table(const StoredTable& table) override;
  std::optional<nlohmann::json> create_rematch(const StoredTable& table, const nlohmann::json& offer,
                                               const nlohmann::json& replaces) override;
  void save_seats(const std::string& table, const std::vector<StoredSeat>& seats, int players, int creator_seat,
                  std::uint64_t epoch = 0) override;
  void set_state(const std::string& table, TableState state, const nlohmann::json& result = nullptr,
                 std::uint64_t epoch = 0) override;
  void append_actions(const std::vector<ActionWrite>& batch) override;
  // Copies the log back into the database once it is past 4 MiB.
  void after_batch() override;
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

 private:
  void exec(const char* sql);
  void write_clock(const std::string& table, const nlohmann::json& clock_state);  // under the mutex
  // The first column of the first row `sql` (one `?`, bound to `key`) finds, if any.
  std::optional<std::string> first_text(const char* sql, const std::string& key);
  StoredTable read_table(const std::string& id, bool with_actions = true);
  // Without the lock: the bodies of create_table, create_rematch and save_seats.
  void insert_table(const StoredTable& table);
  void insert_seats(const std::string& table, const std::vector<StoredSeat>& seats);
  // Runs `body` in a transaction (the caller holds the lock).
  template <class F>
  void transaction(F&& body);
  // A statement prepared once and kept (the hot path's); with the mutex held.
  sqlite3_stmt* kept(const char* sql);

  std::mutex mutex_;
  sqlite3* db_ = nullptr;
  sqlite3* checkpointer_ = nullptr;      // used by after_batch only
  std::atomic<int> log_pages_{0};        // the log's length after the last commit (SQLite's wal hook)
  int checkpoint_pages_ = 4096;          // 4 MiB of log
  std::vector<std::pair<const char*, sqlite3_stmt*>> kept_;  // by the address of their SQL text
};

}  // namespace emporium::server
