#include "store/postgres_store.hpp"

#include <algorithm>
#include <string_view>
#include <utility>

#include "common/wall_clock.hpp"
#include "store/analysis_rows.hpp"
#include "store/game_end.hpp"
#include "store/schema.hpp"
#include "store/stored_rows.hpp"

namespace emporium::server {

using Param = PgConnection::Param;
using Result = PgConnection::Result;

namespace {

// The group commit's statements, prepared once per connection.
constexpr const char* kInsertAction = "emporium_insert_action";
constexpr const char* kSaveClock = "emporium_save_clock";
constexpr const char* kFinish = "emporium_finish";
constexpr const char* kAppendHeld = "emporium_append_held";
constexpr const char* kInsertActionSql = "INSERT INTO actions (table_id, idx, player, action) VALUES ($1, $2, $3, $4)";
constexpr const char* kAppendHeldSql = "SELECT emporium_append($1, $2, $3, $4, $5, $6)";
constexpr const char* kSaveClockSql = "UPDATE game_tables SET clock_state = $1 WHERE id = $2";
constexpr const char* kFinishSql =
    "UPDATE game_tables SET state = 'finished', result = $1, updated_at = $2, finished_at = $2 WHERE id = $3";
const std::pair<const char*, const char*> kPrepared[] = {
    {kInsertAction, kInsertActionSql},
    {kAppendHeld, kAppendHeldSql},
    {kSaveClock, kSaveClockSql},
    {kFinish, kFinishSql},
};

// The tables' rows are locked in the order of their ids, as the lease renewal locks them (table_leases.cpp), so
// that a node's batch and its renewal never each wait for a lock the other holds.
std::vector<const ActionWrite*> in_table_order(const std::vector<ActionWrite>& batch) {
  std::vector<const ActionWrite*> ordered;
  for (const auto& a : batch) ordered.push_back(&a);
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto* x, const auto* y) { return x->table < y->table; });
  return ordered;
}

PgConnection::Param or_null(const std::string& text) {
  return text.empty() ? PgConnection::Param() : PgConnection::Param(text);
}

}  // namespace

PostgresStore::PostgresStore(const std::string& uri, std::string node, std::chrono::milliseconds first_lease)
    : db_(uri), node_(std::move(node)), first_lease_ms_(std::to_string(first_lease.count())) {
  std::lock_guard lock(mutex_);
  PgSqlConnection connection(db_);
  schema::migrate(connection);
}

PostgresStore::~PostgresStore() = default;

PGconn* PostgresStore::prepared() {
  PGconn* conn = db_.get();
  // A session opened since (a restart of the database, a dropped connection) has none of them.
  if (prepared_in_ == db_.generation()) return conn;
  for (const auto& [name, sql] : kPrepared) {
    PGresult* r = PQprepare(conn, name, sql, 0, nullptr);
    const bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
    if (!ok) db_.fail(std::string("cannot prepare ") + name);
  }
  prepared_in_ = db_.generation();
  return conn;
}

void PostgresStore::insert_table(const StoredTable& t) {
  const auto now = std::to_string(unix_now());
  // A node's new table is its own from the start, for one lease (renewed with the others' from then on).
  db_.run("INSERT INTO game_tables (id, game, players, options, seed, private, invite, creator_seat, state, rematch_of, "
          "created_at, updated_at, clock, salt, owner, epoch, lease_until, rated, friends_only, undo) "
          "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, "
          "CASE WHEN $15::text IS NULL THEN 0 ELSE emporium_now_ms() + $17::bigint END, $18, $19, $20)",
          {t.id, t.game, std::to_string(t.players), t.options.dump(), t.seed.to_hex(), t.is_private ? "1" : "0",
           or_null(t.invite), std::to_string(t.creator_seat), std::string(name_of(t.state)), or_null(t.rematch_of), now, now,
           t.clock ? Param(t.clock->to_json().dump()) : Param(), or_null(t.salt), or_null(t.owner),
           std::to_string(t.epoch), first_lease_ms_, t.rated ? "1" : "0",
           t.friends_only ? "1" : "0", t.undo ? "1" : "0"});
  insert_seats(t.id, t.seats);
}

void PostgresStore::insert_seats(const std::string& table, const std::vector<StoredSeat>& seats) {
  for (const auto& s : seats) {
    db_.run("INSERT INTO seats (table_id, seat, name, token, bot, stand_in, reserved_for, account) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        {table, std::to_string(s.seat), s.name, stored_rows::token_column(table, s), or_null(s.bot), or_null(std::string(name_of(s.stand_in))),
         or_null(s.reserved_for), or_null(s.account)});
  }
}

void PostgresStore::create_table(const StoredTable& t) {
  std::lock_guard lock(mutex_);
  db_.transaction([&] { insert_table(t); });
}

std::optional<nlohmann::json> PostgresStore::create_rematch(const StoredTable& t, const nlohmann::json& offer,
                                                            const nlohmann::json& replaces) {
  std::lock_guard lock(mutex_);
  std::optional<nlohmann::json> instead;
  db_.transaction([&] {
    // Under READ COMMITTED a second node's update waits for the first one's row lock, then sees its offer: one wins.
    const auto updated = db_.run(
        "UPDATE game_tables SET rematch = $1, updated_at = $2 WHERE id = $3 AND rematch IS NOT DISTINCT FROM $4 "
        "RETURNING id",
        {offer.dump(), std::to_string(unix_now()), t.rematch_of, replaces.is_null() ? Param() : Param(replaces.dump())});
    if (PQntuples(updated.raw()) > 0) return insert_table(t);
    const auto now = db_.run("SELECT rematch FROM game_tables WHERE id = $1", {t.rematch_of});
    instead = stored_rows::json_or_null(PQntuples(now.raw()) > 0 ? now[0].text(0) : "");
  });
  return instead;
}

void PostgresStore::held(const std::string& table, std::uint64_t epoch) {
  if (epoch == 0) return;
  db_.run("SELECT emporium_held($1, $2, $3)", {table, node_, std::to_string(epoch)});
}

void PostgresStore::save_seats(const std::string& table, const std::vector<StoredSeat>& seats, int players,
                                int creator_seat, std::uint64_t epoch) {
  std::lock_guard lock(mutex_);
  db_.transaction([&] {
    held(table, epoch);
    db_.run("DELETE FROM seats WHERE table_id = $1", {table});
    insert_seats(table, seats);
    db_.run("UPDATE game_tables SET players = $1, creator_seat = $2, updated_at = $3 WHERE id = $4",
        {std::to_string(players), std::to_string(creator_seat), std::to_string(unix_now()), table});
  });
}

void PostgresStore::set_state(const std::string& table, TableState state, const nlohmann::json& result,
                               std::uint64_t epoch) {
  std::lock_guard lock(mutex_);
  db_.transaction([&] {
    held(table, epoch);
    db_.run("UPDATE game_tables SET state = $1, result = $2, updated_at = $3::bigint, "
            "finished_at = CASE WHEN $1 = 'finished' THEN $3::bigint ELSE NULL END WHERE id = $4",
            {std::string(name_of(state)), result.is_null() ? Param() : Param(result.dump()), std::to_string(unix_now()), table});
  });
}

void PostgresStore::append_with_game_ends(const std::vector<ActionWrite>& batch) {
  const long long now = unix_now();
  const auto at = std::to_string(now);
  PgSqlConnection sql(db_);
  db_.transaction([&] {
    for (const auto* write : in_table_order(batch)) {
      const auto& a = *write;
      if (a.epoch == 0) {
        db_.run(kInsertActionSql, {a.table, std::to_string(a.index), std::to_string(a.player), a.action});
      } else {
        db_.run(kAppendHeldSql, {a.table, std::to_string(a.index), std::to_string(a.player), a.action, node_,
                                 std::to_string(a.epoch)});
      }
      if (!a.clock_state.empty()) db_.run(kSaveClockSql, {a.clock_state, a.table});
      if (!a.result.empty()) db_.run(kFinishSql, {a.result, at, a.table});
      if (a.end) store_game_end(sql, a.table, *a.end, now);
    }
  });
}

void PostgresStore::append_actions(const std::vector<ActionWrite>& batch) {
  if (batch.empty()) return;
  std::lock_guard lock(mutex_);
  // A game's end for accounts reads (ratings) and decides on what it read: not a pipeline's blind statements. Such
  // batches are few (one per game that ends).
  if (std::any_of(batch.begin(), batch.end(), [](const ActionWrite& a) { return a.end != nullptr; })) {
    return append_with_game_ends(batch);
  }
  PGconn* conn = prepared();
  // The whole batch in one round trip: BEGIN, the statements, COMMIT, queued in pipeline mode and read back at
  // each sync (one every few hundred statements, so that neither side's buffers fill while the other waits).
  if (!PQenterPipelineMode(conn)) db_.fail("cannot enter pipeline mode");
  std::string error;
  auto kind = StoreError::Kind::other;
  int queued = 0;
  auto drain = [&] {
    if (!PQpipelineSync(conn)) return false;
    // Each statement's result and a null after it, then the sync's own result.
    for (;;) {
      PGresult* raw = PQgetResult(conn);
      if (!raw) {
        if (queued-- > 0) continue;  // the null after a statement's result
        return false;                // the connection is gone
      }
      Result r(raw);
      const auto status = PQresultStatus(raw);
      if (status == PGRES_PIPELINE_SYNC) {
        queued = 0;
        return true;
      }
      if (status == PGRES_FATAL_ERROR && error.empty()) {
        error = PQresultErrorMessage(raw);
        kind = db_.kind_of(raw);
      }
    }
  };
  auto send = [&](const char* prepared, const std::vector<Param>& params) {
    const auto values = PgConnection::values_of(params);
    const bool sent = prepared ? PQsendQueryPrepared(conn, prepared, static_cast<int>(values.size()), values.data(),
                                                     nullptr, nullptr, 0)
                               : PQsendQueryParams(conn, "BEGIN", 0, nullptr, nullptr, nullptr, nullptr, 0);
    if (!sent) return false;
    ++queued;
    return queued < 256 || drain();
  };
  const auto now = std::to_string(unix_now());
  bool ok = send(nullptr, {});
  for (const auto* write : in_table_order(batch)) {
    const auto& a = *write;
    if (!ok) break;
    ok = a.epoch == 0 ? send(kInsertAction, {a.table, std::to_string(a.index), std::to_string(a.player), a.action})
                      : send(kAppendHeld, {a.table, std::to_string(a.index), std::to_string(a.player), a.action,
                                           node_, std::to_string(a.epoch)});
    if (ok && !a.clock_state.empty()) ok = send(kSaveClock, {a.clock_state, a.table});
    if (ok && !a.result.empty()) ok = send(kFinish, {a.result, now, a.table});
  }
  if (ok) ok = PQsendQueryParams(conn, "COMMIT", 0, nullptr, nullptr, nullptr, nullptr, 0) && (++queued, drain());
  if (!ok || !PQexitPipelineMode(conn)) {
    // The pipeline is in an unknown state: the connection is dropped (the server rolls back what it holds) and
    // opened again on the next call.
    const std::string why = db_.error();
    db_.drop();
    throw StoreError("postgresql: the batch was not stored: " + why, StoreError::Kind::unavailable);
  }
  if (!error.empty()) {
    PQclear(PQexec(conn, "ROLLBACK"));
    throw StoreError("postgresql: the batch was not stored: " + error, kind);
  }
}

void PostgresStore::save_clock(const std::string& table, const nlohmann::json& clock_state, std::uint64_t epoch) {
  std::lock_guard lock(mutex_);
  db_.transaction([&] {
    held(table, epoch);
    db_.run("UPDATE game_tables SET clock_state = $1 WHERE id = $2", {clock_state.dump(), table});
  });
}

void PostgresStore::mark_alive(std::int64_t unix_ms) {
  std::lock_guard lock(mutex_);
  // The sign of life is also how the server sees the store answer again after an outage: it takes the lock a move
  // takes on the actions table, so that it does not pass while moves still wait (a table locked by a migration or
  // an operator's transaction).
  db_.run("SELECT 1 FROM actions LIMIT 0", {});
  db_.run("INSERT INTO server_alive (node, at_ms) VALUES ($1, $2) ON CONFLICT (node) DO UPDATE SET at_ms = excluded.at_ms",
      {node_, std::to_string(unix_ms)});
}

std::optional<std::int64_t> PostgresStore::last_alive() {
  std::lock_guard lock(mutex_);
  const auto r = db_.run("SELECT at_ms FROM server_alive WHERE node = $1", {node_});
  if (r.rows() == 0) return std::nullopt;
  return r[0].integer(0);
}

void PostgresStore::delete_table(const std::string& table, std::uint64_t epoch) {
  std::lock_guard lock(mutex_);
  db_.transaction([&] {
    held(table, epoch);
    db_.run("DELETE FROM game_tables WHERE id = $1", {table});
  });
}

std::optional<StoredTable> PostgresStore::read_table(const std::string& id, bool with_actions) {
  const auto rows = db_.run((std::string("SELECT ") + stored_rows::kTableColumns + " FROM game_tables WHERE id = $1").c_str(), {id});
  if (rows.rows() == 0) return std::nullopt;
  StoredTable t = stored_rows::table(rows[0]);
  const auto seats = db_.run((std::string("SELECT ") + stored_rows::kSeatColumns +
                          " FROM seats WHERE table_id = $1 ORDER BY seat").c_str(), {id});
  for (int i = 0; i < seats.rows(); ++i) t.seats.push_back(stored_rows::seat(seats[i], 0));
  if (!with_actions) return t;
  db_.each_row("SELECT player, action FROM actions WHERE table_id = $1 ORDER BY idx", {id}, [&](const PgConnection::Result::Row& r) {
    t.actions.emplace_back(static_cast<int>(r.integer(0)), nlohmann::json::parse(r.text(1)));
  });
  return t;
}

// One snapshot for the three reads of a table (or of every table): what another node commits meanwhile is seen
// whole or not at all.
constexpr const char* kReadSnapshot = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY";

std::size_t PostgresStore::load_unfinished(const std::function<void(std::size_t, StoredTable&&)>& take) {
  std::lock_guard lock(mutex_);
  stored_rows::UnfinishedTables reader(take);
  using Row = PgConnection::Result::Row;
  db_.transaction(
      [&] {
        db_.run("SET LOCAL statement_timeout = 0");  // a restart reads every unfinished table: no bound
        db_.each_row(reader.tables_query().c_str(), {}, [&](const Row& r) { reader.table(r); });
        db_.each_row(reader.kSeatsQuery, {}, [&](const Row& r) { reader.seat(r); });
        db_.each_row(reader.kActionsQuery, {}, [&](const Row& r) { reader.action(r); });
      },
      kReadSnapshot);
  return reader.finish();
}

std::optional<StoredTable> PostgresStore::load(const std::string& table, bool with_actions) {
  std::lock_guard lock(mutex_);
  std::optional<StoredTable> loaded;
  db_.transaction([&] { loaded = read_table(table, with_actions); }, kReadSnapshot);
  return loaded;
}

std::optional<std::string> PostgresStore::first_text(const char* sql, const std::string& key) {
  std::lock_guard lock(mutex_);
  const auto r = db_.run(sql, {key});
  if (r.rows() == 0) return std::nullopt;
  return r[0].text(0);
}

std::optional<std::string> PostgresStore::table_of_token(const std::string& token) {
  return first_text("SELECT table_id FROM seats WHERE token = $1", token);
}

std::optional<std::string> PostgresStore::table_of_invite(const std::string& invite) {
  return first_text("SELECT id FROM game_tables WHERE invite = $1", invite);
}

void PostgresStore::save_analysis(const std::string& table, const std::string& engine_version,
                                  const std::string& body) {
  std::lock_guard lock(mutex_);
  PgSqlConnection sql(db_);
  write_analysis(sql, table, engine_version, body, unix_now());
}

std::optional<std::string> PostgresStore::load_analysis(const std::string& table, const std::string& engine_version) {
  std::lock_guard lock(mutex_);
  PgSqlConnection sql(db_);
  return read_analysis(sql, table, engine_version);
}

}  // namespace emporium::server
