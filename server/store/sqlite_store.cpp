#include "store/sqlite_store.hpp"

#include <algorithm>
#include <chrono>
#include <utility>
#include <vector>

#include "common/wall_clock.hpp"
#include "store/analysis_rows.hpp"
#include "store/game_end.hpp"
#include "store/sqlite_connection.hpp"
#include "store/stored_rows.hpp"

namespace emporium::server {
namespace {

// Kept by its address (SqliteStore::kept), so one constant for the two places that save a clock.
constexpr const char* kClockSql = "UPDATE game_tables SET clock_state = ? WHERE id = ?";

}  // namespace

SqliteStore::SqliteStore(const std::string& data_dir) {
  const std::string path = database_file(data_dir);
  db_ = open_database(path);
  // Checkpoints every 4 MiB of log, whatever the page size (SQLite's default counts 1000 pages): with the small
  // pages, about a third as many of those stalls at 2,500 moves a second. Not SQLite's own, which runs in whichever
  // commit passes the limit, holding the store's mutex: a quarter of them were on a network thread (strace),
  // which then served nobody for the two fsyncs. The hook (which replaces SQLite's own) only notes the length.
  {
    Statement size(db_, "PRAGMA page_size");
    const long long page = size.step() ? size.integer(0) : 4096;
    checkpoint_pages_ = static_cast<int>((4 << 20) / std::max(page, 512LL));
  }
  // Once the log starts over, its file is cut back to this size (it keeps the longest it ever was otherwise).
  exec("PRAGMA journal_size_limit=4194304");
  sqlite3_wal_hook(
      db_,
      [](void* self, sqlite3*, const char*, int pages) {
        static_cast<SqliteStore*>(self)->log_pages_.store(pages, std::memory_order_relaxed);
        return SQLITE_OK;
      },
      this);
  // The same syncing as the main connection's, and the log opened (a connection that has not read the database
  // does not know it is in WAL mode, and its checkpoints copy nothing).
  checkpointer_ = open_connection(path);
  exec_on(checkpointer_, "PRAGMA synchronous=NORMAL");
  exec_on(checkpointer_, "PRAGMA journal_mode=WAL");
}

void SqliteStore::after_batch() {
  if (log_pages_.load(std::memory_order_relaxed) < checkpoint_pages_) return;
  // PASSIVE: copies what no reader still needs, beside any write a network thread makes meanwhile. The log starts
  // over at the next commit only once all of it is copied, and a copy counts only the log it found when it began
  // (the hook has seen any commit since): so what such writes added during the copy is copied next with them held
  // back, a short copy, where SQLite's own checkpoint held them for a whole one.
  const auto copy_all = [&] {
    int log = 0, copied = 0;
    return sqlite3_wal_checkpoint_v2(checkpointer_, nullptr, SQLITE_CHECKPOINT_PASSIVE, &log, &copied) == SQLITE_OK &&
           log == copied && log_pages_.load(std::memory_order_relaxed) <= log;
  };
  if (!copy_all()) {
    std::lock_guard hold(mutex_);
    copy_all();
  }
  log_pages_.store(0, std::memory_order_relaxed);  // the next commit tells the new length
}

template <class F>
void SqliteStore::transaction(F&& body) {
  static constexpr const char* begin = "BEGIN";
  static constexpr const char* commit = "COMMIT";
  Statement(db_, kept(begin)).run();
  try {
    body();
    Statement(db_, kept(commit)).run();
  } catch (...) {
    exec("ROLLBACK");
    throw;
  }
}

SqliteStore::~SqliteStore() {
  for (auto& [sql, stmt] : kept_) sqlite3_finalize(stmt);
  sqlite3_close(checkpointer_);
  sqlite3_close(db_);
}

sqlite3_stmt* SqliteStore::kept(const char* sql) {
  for (auto& [text, stmt] : kept_) {
    if (text == sql) return stmt;
  }
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) != SQLITE_OK) {
    throw StoreError(std::string("sqlite prepare: ") + sqlite3_errmsg(db_));
  }
  kept_.emplace_back(sql, stmt);
  return stmt;
}

void SqliteStore::exec(const char* sql) { exec_on(db_, sql); }


void SqliteStore::insert_table(const StoredTable& t) {
  static constexpr const char* insert_sql =
      "INSERT INTO game_tables (id, game, players, options, seed, private, invite, creator_seat, state, "
      "rematch_of, created_at, updated_at, clock, salt, rated, friends_only, undo) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
  Statement s(db_, kept(insert_sql));
  s.bind(1, t.id).bind(2, t.game).bind(3, t.players).bind(4, t.options.dump()).bind(5, t.seed.to_hex());
  s.bind(6, t.is_private ? 1LL : 0LL);
  s.bind_or_null(7, t.invite);
  s.bind(8, t.creator_seat).bind(9, std::string(name_of(t.state))).bind_or_null(10, t.rematch_of);
  s.bind(11, unix_now()).bind(12, unix_now());
  if (t.clock) s.bind(13, t.clock->to_json().dump()); else s.bind_null(13);
  s.bind_or_null(14, t.salt);
  s.bind(15, t.rated ? 1LL : 0LL);
  s.bind(16, t.friends_only ? 1LL : 0LL);
  s.bind(17, t.undo ? 1LL : 0LL);
  s.run();
  insert_seats(t.id, t.seats);
}

void SqliteStore::insert_seats(const std::string& table, const std::vector<StoredSeat>& seats) {
  static constexpr const char* insert_sql =
      "INSERT INTO seats (table_id, seat, name, token, bot, stand_in, reserved_for, account) VALUES (?,?,?,?,?,?,?,?)";
  for (const auto& seat : seats) {
    Statement insert(db_, kept(insert_sql));
    insert.bind(1, table).bind(2, seat.seat).bind(3, seat.name).bind(4, stored_rows::token_column(table, seat));
    insert.bind_or_null(5, seat.bot).bind_or_null(6, std::string(name_of(seat.stand_in))).bind_or_null(7, seat.reserved_for);
    insert.bind_or_null(8, seat.account).run();
  }
}

void SqliteStore::create_table(const StoredTable& t) {
  std::lock_guard lock(mutex_);
  transaction([&] { insert_table(t); });
}

std::optional<nlohmann::json> SqliteStore::create_rematch(const StoredTable& t, const nlohmann::json& offer,
                                                          const nlohmann::json& replaces) {
  std::lock_guard lock(mutex_);
  std::optional<nlohmann::json> instead;
  transaction([&] {
    Statement(db_, "UPDATE game_tables SET rematch = ?, updated_at = ? WHERE id = ? AND rematch IS ?")
        .bind(1, offer.dump()).bind(2, unix_now()).bind(3, t.rematch_of)
        .bind_or_null(4, replaces.is_null() ? "" : replaces.dump()).run();
    if (sqlite3_changes(db_) > 0) return insert_table(t);
    Statement now(db_, "SELECT rematch FROM game_tables WHERE id = ?");
    now.bind(1, t.rematch_of);
    instead = stored_rows::json_or_null(now.step() ? now.text(0) : "");
  });
  return instead;
}

void SqliteStore::save_seats(const std::string& table, const std::vector<StoredSeat>& seats, int players, int creator_seat,
                              std::uint64_t) {
  static constexpr const char* delete_sql = "DELETE FROM seats WHERE table_id = ?";
  static constexpr const char* update_sql =
      "UPDATE game_tables SET players = ?, creator_seat = ?, updated_at = ? WHERE id = ?";
  std::lock_guard lock(mutex_);
  transaction([&] {
    Statement(db_, kept(delete_sql)).bind(1, table).run();
    insert_seats(table, seats);
    Statement(db_, kept(update_sql))
        .bind(1, players).bind(2, creator_seat).bind(3, unix_now()).bind(4, table).run();
  });
}

void SqliteStore::set_state(const std::string& table, TableState state, const nlohmann::json& result,
                             std::uint64_t) {
  static constexpr const char* update_sql =
      "UPDATE game_tables SET state = ?, result = ?, updated_at = ?, "
      "finished_at = CASE WHEN ? = 'finished' THEN ? ELSE NULL END WHERE id = ?";
  std::lock_guard lock(mutex_);
  Statement s(db_, kept(update_sql));
  const std::string name(name_of(state));
  s.bind(1, name);
  if (result.is_null()) s.bind_null(2); else s.bind(2, result.dump());
  s.bind(3, unix_now()).bind(4, name).bind(5, unix_now()).bind(6, table).run();
}

void SqliteStore::append_actions(const std::vector<ActionWrite>& batch) {
  static constexpr const char* insert_sql = "INSERT INTO actions (table_id, idx, player, action) VALUES (?,?,?,?)";
  static constexpr const char* finished_sql =
      "UPDATE game_tables SET state = 'finished', result = ?, updated_at = ?, finished_at = ? WHERE id = ?";
  std::lock_guard lock(mutex_);
  transaction([&] {
    const long long now = unix_now();
    for (const auto& a : batch) {
      Statement(db_, kept(insert_sql))
          .bind(1, a.table).bind(2, static_cast<long long>(a.index)).bind(3, a.player).bind(4, a.action).run();
      if (!a.clock_state.empty()) Statement(db_, kept(kClockSql)).bind(1, a.clock_state).bind(2, a.table).run();
      if (!a.result.empty()) Statement(db_, kept(finished_sql)).bind(1, a.result).bind(2, now).bind(3, now).bind(4, a.table).run();
      if (a.end) {
        SqliteConnection sql(db_);
        store_game_end(sql, a.table, *a.end, now);
      }
    }
  });
}

void SqliteStore::write_clock(const std::string& table, const nlohmann::json& clock_state) {
  Statement(db_, kept(kClockSql)).bind(1, clock_state.dump()).bind(2, table).run();
}

void SqliteStore::save_clock(const std::string& table, const nlohmann::json& clock_state, std::uint64_t) {
  std::lock_guard lock(mutex_);
  write_clock(table, clock_state);
}

void SqliteStore::mark_alive(std::int64_t unix_ms) {
  std::lock_guard lock(mutex_);
  Statement(db_, "INSERT INTO server_alive (id, at_ms) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at_ms = excluded.at_ms")
      .bind(1, static_cast<long long>(unix_ms)).run();
}

std::optional<std::int64_t> SqliteStore::last_alive() {
  std::lock_guard lock(mutex_);
  Statement s(db_, "SELECT at_ms FROM server_alive WHERE id = 1");
  if (!s.step()) return std::nullopt;
  return s.integer(0);
}

void SqliteStore::delete_table(const std::string& table, std::uint64_t) {
  std::lock_guard lock(mutex_);
  Statement(db_, "DELETE FROM game_tables WHERE id = ?").bind(1, table).run();
}

StoredTable SqliteStore::read_table(const std::string& id, bool with_actions) {
  Statement s(db_, (std::string("SELECT ") + stored_rows::kTableColumns + " FROM game_tables WHERE id = ?").c_str());
  s.bind(1, id);
  if (!s.step()) throw StoreError("no table " + id);
  StoredTable t = stored_rows::table(s);
  Statement seats(db_, (std::string("SELECT ") + stored_rows::kSeatColumns +
                       " FROM seats WHERE table_id = ? ORDER BY seat").c_str());
  seats.bind(1, id);
  while (seats.step()) t.seats.push_back(stored_rows::seat(seats, 0));
  if (!with_actions) return t;
  Statement actions(db_, "SELECT player, action FROM actions WHERE table_id = ? ORDER BY idx");
  actions.bind(1, id);
  while (actions.step()) {
    t.actions.emplace_back(static_cast<int>(actions.integer(0)), nlohmann::json::parse(actions.text(1)));
  }
  return t;
}

std::size_t SqliteStore::load_unfinished(const std::function<void(std::size_t, StoredTable&&)>& take) {
  std::lock_guard lock(mutex_);
  stored_rows::UnfinishedTables reader(take);
  for (Statement rows(db_, reader.tables_query().c_str()); rows.step();) reader.table(rows);
  for (Statement seats(db_, reader.kSeatsQuery); seats.step();) reader.seat(seats);
  for (Statement actions(db_, reader.kActionsQuery); actions.step();) reader.action(actions);
  return reader.finish();
}

std::optional<std::string> SqliteStore::table_of_token(const std::string& token) {
  return first_text("SELECT table_id FROM seats WHERE token = ?", token);
}

std::optional<std::string> SqliteStore::table_of_invite(const std::string& invite) {
  return first_text("SELECT id FROM game_tables WHERE invite = ?", invite);
}

std::optional<std::string> SqliteStore::first_text(const char* sql, const std::string& key) {
  std::lock_guard lock(mutex_);
  Statement s(db_, sql);
  s.bind(1, key);
  if (!s.step()) return std::nullopt;
  return s.text(0);
}

std::optional<StoredTable> SqliteStore::load(const std::string& table, bool with_actions) {
  std::lock_guard lock(mutex_);
  try {
    return read_table(table, with_actions);
  } catch (const StoreError&) {
    return std::nullopt;
  }
}

void SqliteStore::save_analysis(const std::string& table, const std::string& engine_version, const std::string& body) {
  std::lock_guard lock(mutex_);
  SqliteConnection sql(db_);
  write_analysis(sql, table, engine_version, body, unix_now());
}

std::optional<std::string> SqliteStore::load_analysis(const std::string& table, const std::string& engine_version) {
  std::lock_guard lock(mutex_);
  SqliteConnection sql(db_);
  return read_analysis(sql, table, engine_version);
}

}  // namespace emporium::server
