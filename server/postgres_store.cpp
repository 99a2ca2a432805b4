#include "postgres_store.hpp"

#include <libpq-fe.h>

#include <string_view>
#include <unordered_map>
#include <utility>

#include "stored_rows.hpp"

namespace emporium::server {

// One statement's result, cleared on scope exit; a row reads as stored_rows expects (NULL as "" and 0).
class postgres_store::result {
 public:
  explicit result(PGresult* r) : r_(r) {}
  result(result&& other) noexcept : r_(std::exchange(other.r_, nullptr)) {}
  result& operator=(result&&) = delete;
  ~result() { PQclear(r_); }
  int rows() const { return PQntuples(r_); }
  const PGresult* raw() const { return r_; }

  struct row {
    const PGresult* r;
    int at;
    std::string text(int col) const {
      return PQgetisnull(r, at, col) ? std::string() : std::string(PQgetvalue(r, at, col), PQgetlength(r, at, col));
    }
    long long integer(int col) const { return PQgetisnull(r, at, col) ? 0 : std::stoll(PQgetvalue(r, at, col)); }
  };
  row operator[](int at) const { return {r_, at}; }

 private:
  PGresult* r_;
};

namespace {

// The schema, made once by whichever node starts first (the advisory lock keeps two from racing). The same
// columns as the SQLite store's; integers that may pass 2^31 are BIGINT.
constexpr const char* kSchema = R"sql(
  BEGIN;
  SELECT pg_advisory_xact_lock(4242001);
  CREATE TABLE IF NOT EXISTS game_tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    options TEXT NOT NULL,
    seed TEXT NOT NULL,
    private INTEGER NOT NULL,
    invite TEXT,
    creator_seat INTEGER NOT NULL,
    state TEXT NOT NULL,
    result TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    clock TEXT,
    clock_state TEXT,
    rematch TEXT,
    rematch_of TEXT,
    salt TEXT,
    finished_at BIGINT
  );
  CREATE INDEX IF NOT EXISTS game_tables_invite ON game_tables(invite);
  CREATE INDEX IF NOT EXISTS game_tables_unfinished ON game_tables(created_at, id) WHERE state <> 'finished';
  CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    token TEXT NOT NULL UNIQUE,
    bot TEXT,
    stand_in TEXT,
    reserved_for TEXT,
    PRIMARY KEY (table_id, seat)
  );
  CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
    idx BIGINT NOT NULL,
    player INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)
  );
  CREATE TABLE IF NOT EXISTS server_alive (
    node TEXT PRIMARY KEY,
    at_ms BIGINT NOT NULL
  );
  COMMIT;
)sql";

// The group commit's statements, prepared once per connection.
constexpr const char* kInsertAction = "emporium_insert_action";
constexpr const char* kSaveClock = "emporium_save_clock";
constexpr const char* kFinish = "emporium_finish";
const std::pair<const char*, const char*> kPrepared[] = {
    {kInsertAction, "INSERT INTO actions (table_id, idx, player, action) VALUES ($1, $2, $3, $4)"},
    {kSaveClock, "UPDATE game_tables SET clock_state = $1 WHERE id = $2"},
    {kFinish, "UPDATE game_tables SET state = 'finished', result = $1, updated_at = $2, finished_at = $2 WHERE id = $3"},
};

std::string error_of(PGconn* conn) {
  std::string message = conn ? PQerrorMessage(conn) : "out of memory";
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  return message;
}

// Parameter values as libpq takes them: pointers to text, null for NULL.
std::vector<const char*> values_of(const std::vector<postgres_store::param>& params) {
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const auto& p : params) values.push_back(p ? p->c_str() : nullptr);
  return values;
}

postgres_store::param or_null(const std::string& text) {
  return text.empty() ? postgres_store::param() : postgres_store::param(text);
}

}  // namespace

postgres_store::postgres_store(const std::string& uri, std::string node) : uri_(uri), node_(std::move(node)) {
  std::lock_guard lock(mutex_);
  PGresult* made = PQexec(connection(), kSchema);
  const bool ok = PQresultStatus(made) == PGRES_COMMAND_OK;
  PQclear(made);
  if (!ok) fail("cannot create the schema");
}

postgres_store::~postgres_store() { PQfinish(conn_); }

void postgres_store::fail(const std::string& what) {
  throw store_error("postgresql: " + what + ": " + error_of(conn_));
}

PGconn* postgres_store::connection() {
  if (conn_ && PQstatus(conn_) == CONNECTION_OK) return conn_;
  if (conn_) {
    PQreset(conn_);
  } else {
    conn_ = PQconnectdb(uri_.c_str());
  }
  prepared_ = false;
  if (!conn_ || PQstatus(conn_) != CONNECTION_OK) {
    // The message, not the URI: it may hold a password.
    throw store_error("postgresql: cannot connect: " + error_of(conn_));
  }
  PQclear(PQexec(conn_, "SET client_min_messages = warning"));
  return conn_;
}

void postgres_store::prepare() {
  if (prepared_) return;
  for (const auto& [name, sql] : kPrepared) {
    PGresult* r = PQprepare(conn_, name, sql, 0, nullptr);
    const bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
    if (!ok) fail(std::string("cannot prepare ") + name);
  }
  prepared_ = true;
}

postgres_store::result postgres_store::run(const char* sql, const std::vector<param>& params) {
  PGconn* conn = connection();
  const auto values = values_of(params);
  result r(PQexecParams(conn, sql, static_cast<int>(values.size()), nullptr, values.data(), nullptr, nullptr, 0));
  const auto status = PQresultStatus(r.raw());
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) fail(std::string(std::string_view(sql).substr(0, 60)));
  return r;
}

template <class F>
void postgres_store::each_row(const char* sql, const std::vector<param>& params, F&& take) {
  PGconn* conn = connection();
  const auto values = values_of(params);
  if (!PQsendQueryParams(conn, sql, static_cast<int>(values.size()), nullptr, values.data(), nullptr, nullptr, 0) ||
      !PQsetSingleRowMode(conn)) {
    fail(std::string(std::string_view(sql).substr(0, 60)));
  }
  // One result per row, then an empty one that ends the set (or an error), then none. Every result is taken
  // even after an error, so that the connection is ready for the next statement.
  std::string error;
  while (PGresult* raw = PQgetResult(conn)) {
    result r(raw);
    const auto status = PQresultStatus(raw);
    if (status == PGRES_SINGLE_TUPLE) {
      if (error.empty()) take(r[0]);
    } else if (status != PGRES_TUPLES_OK && error.empty()) {
      error = PQresultErrorMessage(raw);
    }
  }
  if (!error.empty()) throw store_error("postgresql: " + error);
}

template <class F>
void postgres_store::transaction(F&& body, const char* begin) {
  run(begin);
  try {
    body();
    run("COMMIT");
  } catch (...) {
    if (conn_ && PQstatus(conn_) == CONNECTION_OK) PQclear(PQexec(conn_, "ROLLBACK"));
    throw;
  }
}

void postgres_store::insert_table(const StoredTable& t) {
  const auto now = std::to_string(unix_now());
  run("INSERT INTO game_tables (id, game, players, options, seed, private, invite, creator_seat, state, rematch_of, "
      "created_at, updated_at, clock, salt) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
      {t.id, t.game, std::to_string(t.players), t.options.dump(), t.seed.to_hex(), t.is_private ? "1" : "0",
       or_null(t.invite), std::to_string(t.creator_seat), t.state, or_null(t.rematch_of), now, now,
       t.clock ? param(t.clock->to_json().dump()) : param(), or_null(t.salt)});
  insert_seats(t.id, t.seats);
}

void postgres_store::insert_seats(const std::string& table, const std::vector<StoredSeat>& seats) {
  for (const auto& s : seats) {
    run("INSERT INTO seats (table_id, seat, name, token, bot, stand_in, reserved_for) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        {table, std::to_string(s.seat), s.name, stored_rows::token_column(table, s), or_null(s.bot), or_null(s.stand_in),
         or_null(s.reserved_for)});
  }
}

void postgres_store::create_table(const StoredTable& t) {
  std::lock_guard lock(mutex_);
  transaction([&] { insert_table(t); });
}

void postgres_store::create_rematch(const StoredTable& t, const nlohmann::json& offer) {
  std::lock_guard lock(mutex_);
  transaction([&] {
    insert_table(t);
    run("UPDATE game_tables SET rematch = $1, updated_at = $2 WHERE id = $3",
        {offer.dump(), std::to_string(unix_now()), t.rematch_of});
  });
}

void postgres_store::save_seats(const std::string& table, const std::vector<StoredSeat>& seats, int players,
                                int creator_seat) {
  std::lock_guard lock(mutex_);
  transaction([&] {
    run("DELETE FROM seats WHERE table_id = $1", {table});
    insert_seats(table, seats);
    run("UPDATE game_tables SET players = $1, creator_seat = $2, updated_at = $3 WHERE id = $4",
        {std::to_string(players), std::to_string(creator_seat), std::to_string(unix_now()), table});
  });
}

void postgres_store::set_state(const std::string& table, const std::string& state, const nlohmann::json& result) {
  std::lock_guard lock(mutex_);
  run("UPDATE game_tables SET state = $1, result = $2, updated_at = $3::bigint, "
      "finished_at = CASE WHEN $1 = 'finished' THEN $3::bigint ELSE NULL END WHERE id = $4",
      {state, result.is_null() ? param() : param(result.dump()), std::to_string(unix_now()), table});
}

void postgres_store::append_actions(const std::vector<ActionWrite>& batch) {
  if (batch.empty()) return;
  std::lock_guard lock(mutex_);
  PGconn* conn = connection();
  prepare();
  // The whole batch in one round trip: BEGIN, the statements, COMMIT, queued in pipeline mode and read back at
  // each sync (one every few hundred statements, so that neither side's buffers fill while the other waits).
  if (!PQenterPipelineMode(conn)) fail("cannot enter pipeline mode");
  std::string error;
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
      result r(raw);
      const auto status = PQresultStatus(raw);
      if (status == PGRES_PIPELINE_SYNC) {
        queued = 0;
        return true;
      }
      if (status == PGRES_FATAL_ERROR && error.empty()) error = PQresultErrorMessage(raw);
    }
  };
  auto send = [&](const char* prepared, const std::vector<param>& params) {
    const auto values = values_of(params);
    const bool sent = prepared ? PQsendQueryPrepared(conn, prepared, static_cast<int>(values.size()), values.data(),
                                                     nullptr, nullptr, 0)
                               : PQsendQueryParams(conn, "BEGIN", 0, nullptr, nullptr, nullptr, nullptr, 0);
    if (!sent) return false;
    ++queued;
    return queued < 256 || drain();
  };
  const auto now = std::to_string(unix_now());
  bool ok = send(nullptr, {});
  for (const auto& a : batch) {
    if (!ok) break;
    ok = send(kInsertAction, {a.table, std::to_string(a.index), std::to_string(a.player), a.action});
    if (ok && !a.clock_state.empty()) ok = send(kSaveClock, {a.clock_state, a.table});
    if (ok && !a.result.empty()) ok = send(kFinish, {a.result, now, a.table});
  }
  if (ok) ok = PQsendQueryParams(conn, "COMMIT", 0, nullptr, nullptr, nullptr, nullptr, 0) && (++queued, drain());
  if (!ok || !PQexitPipelineMode(conn)) {
    // The pipeline is in an unknown state: the connection is dropped (the server rolls back what it holds) and
    // opened again on the next call.
    const std::string why = error_of(conn);
    PQfinish(conn_);
    conn_ = nullptr;
    throw store_error("postgresql: the batch was not stored: " + why);
  }
  if (!error.empty()) {
    PQclear(PQexec(conn, "ROLLBACK"));
    throw store_error("postgresql: the batch was not stored: " + error);
  }
}

void postgres_store::save_clock(const std::string& table, const nlohmann::json& clock_state) {
  std::lock_guard lock(mutex_);
  run("UPDATE game_tables SET clock_state = $1 WHERE id = $2", {clock_state.dump(), table});
}

void postgres_store::mark_alive(std::int64_t unix_ms) {
  std::lock_guard lock(mutex_);
  run("INSERT INTO server_alive (node, at_ms) VALUES ($1, $2) ON CONFLICT (node) DO UPDATE SET at_ms = excluded.at_ms",
      {node_, std::to_string(unix_ms)});
}

std::optional<std::int64_t> postgres_store::last_alive() {
  std::lock_guard lock(mutex_);
  const auto r = run("SELECT at_ms FROM server_alive WHERE node = $1", {node_});
  if (r.rows() == 0) return std::nullopt;
  return r[0].integer(0);
}

void postgres_store::delete_table(const std::string& table) {
  std::lock_guard lock(mutex_);
  run("DELETE FROM game_tables WHERE id = $1", {table});
}

std::optional<StoredTable> postgres_store::read_table(const std::string& id, bool with_actions) {
  const auto rows = run((std::string("SELECT ") + stored_rows::kTableColumns + " FROM game_tables WHERE id = $1").c_str(), {id});
  if (rows.rows() == 0) return std::nullopt;
  StoredTable t = stored_rows::table(rows[0]);
  const auto seats = run((std::string("SELECT ") + stored_rows::kSeatColumns +
                          " FROM seats WHERE table_id = $1 ORDER BY seat").c_str(), {id});
  for (int i = 0; i < seats.rows(); ++i) t.seats.push_back(stored_rows::seat(seats[i], 0));
  if (!with_actions) return t;
  each_row("SELECT player, action FROM actions WHERE table_id = $1 ORDER BY idx", {id}, [&](const result::row& r) {
    t.actions.emplace_back(static_cast<int>(r.integer(0)), nlohmann::json::parse(r.text(1)));
  });
  return t;
}

// One snapshot for the three reads of a table (or of every table): what another node commits meanwhile is seen
// whole or not at all.
constexpr const char* kReadSnapshot = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY";

std::size_t postgres_store::load_unfinished(const std::function<void(std::size_t, StoredTable&&)>& take) {
  std::lock_guard lock(mutex_);
  std::vector<StoredTable> tables;
  std::vector<bool> handed;
  transaction(
      [&] {
        std::unordered_map<std::string, std::size_t> place;
        each_row((std::string("SELECT ") + stored_rows::kTableColumns +
                  " FROM game_tables WHERE state <> 'finished' ORDER BY created_at, id").c_str(),
                 {}, [&](const result::row& r) {
                   tables.push_back(stored_rows::table(r));
                   place.emplace(tables.back().id, tables.size() - 1);
                 });
        each_row("SELECT s.table_id, s.seat, s.name, s.token, s.bot, s.stand_in, s.reserved_for FROM seats s "
                 "JOIN game_tables t ON t.id = s.table_id WHERE t.state <> 'finished' ORDER BY s.table_id, s.seat",
                 {}, [&](const result::row& r) { tables[place.at(r.text(0))].seats.push_back(stored_rows::seat(r, 1)); });
        // Actions come ordered by table: each table is handed over as soon as its last action is read.
        handed.assign(tables.size(), false);
        std::optional<std::size_t> reading;
        each_row("SELECT a.table_id, a.player, a.action FROM actions a JOIN game_tables t ON t.id = a.table_id "
                 "WHERE t.state <> 'finished' ORDER BY a.table_id, a.idx",
                 {}, [&](const result::row& r) {
                   const std::size_t i = place.at(r.text(0));
                   if (reading && *reading != i) {
                     handed[*reading] = true;
                     take(*reading, std::move(tables[*reading]));
                   }
                   reading = i;
                   tables[i].action_texts.emplace_back(static_cast<int>(r.integer(1)), r.text(2));
                 });
        if (reading) {
          handed[*reading] = true;
          take(*reading, std::move(tables[*reading]));
        }
      },
      kReadSnapshot);
  for (std::size_t i = 0; i < tables.size(); ++i) {
    if (!handed[i]) take(i, std::move(tables[i]));  // no actions: waiting tables
  }
  return tables.size();
}

std::optional<StoredTable> postgres_store::load(const std::string& table, bool with_actions) {
  std::lock_guard lock(mutex_);
  std::optional<StoredTable> loaded;
  transaction([&] { loaded = read_table(table, with_actions); }, kReadSnapshot);
  return loaded;
}

std::optional<std::string> postgres_store::first_text(const char* sql, const std::string& key) {
  std::lock_guard lock(mutex_);
  const auto r = run(sql, {key});
  if (r.rows() == 0) return std::nullopt;
  return r[0].text(0);
}

std::optional<std::string> postgres_store::table_of_token(const std::string& token) {
  return first_text("SELECT table_id FROM seats WHERE token = $1", token);
}

std::optional<std::string> postgres_store::table_of_invite(const std::string& invite) {
  return first_text("SELECT id FROM game_tables WHERE invite = $1", invite);
}

}  // namespace emporium::server
