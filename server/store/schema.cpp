#include "store/schema.hpp"

#include <spdlog/spdlog.h>

#include <iterator>
#include <string>

#include "common/secrets.hpp"
#include "common/wall_clock.hpp"
#include "store/store.hpp"

namespace emporium::server::schema {
namespace {

// Version 1, in both dialects: the tables of tables, seats and moves (stored_rows.hpp reads them), created if
// missing, as every server before versions made them.
constexpr const char* kGameTables = R"sql(
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
)sql";

// Version 1 on SQLite: the sign of life of its one server.
constexpr const char* kSqliteSignOfLife = R"sql(
  CREATE TABLE IF NOT EXISTS server_alive (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    at_ms INTEGER NOT NULL
  );
)sql";

// Version 1 on PostgreSQL: what several nodes need besides (postgres_store.cpp, cluster/table_leases.cpp).
constexpr const char* kPostgresNodes = R"sql(
  CREATE INDEX IF NOT EXISTS game_tables_unfinished ON game_tables(created_at, id) WHERE state <> 'finished';
  CREATE TABLE IF NOT EXISTS server_alive (
    node TEXT PRIMARY KEY,
    at_ms BIGINT NOT NULL
  );
  -- Several nodes (cluster.hpp): the node holding an unfinished table's lease, the lease's epoch (one more at each
  -- taking) and when it runs out unless renewed, in Unix ms on the database's clock (emporium_now_ms), the one
  -- clock all nodes share.
  ALTER TABLE game_tables ADD COLUMN IF NOT EXISTS owner TEXT;
  ALTER TABLE game_tables ADD COLUMN IF NOT EXISTS epoch BIGINT NOT NULL DEFAULT 0;
  ALTER TABLE game_tables ADD COLUMN IF NOT EXISTS lease_until BIGINT NOT NULL DEFAULT 0;
  CREATE OR REPLACE FUNCTION emporium_now_ms() RETURNS BIGINT LANGUAGE sql VOLATILE AS $$
    SELECT (extract(epoch from clock_timestamp()) * 1000)::bigint
  $$;
  -- Every write of a node's to a table it holds starts here: it fails (and the whole transaction with it) unless
  -- the node still holds the table's lease at that epoch. FOR SHARE: a node taking the table over waits for the
  -- transaction, so it reads the table with the write in it or without it, never one that changes behind it.
  CREATE OR REPLACE FUNCTION emporium_held(t TEXT, node TEXT, ep BIGINT) RETURNS void LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM 1 FROM game_tables WHERE id = t AND owner = node AND epoch = ep FOR SHARE;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'table % is no longer held by node % at epoch %', t, node, ep USING ERRCODE = 'EM001';
    END IF;
  END $$;
  -- An action of a node's, stored only while it holds the table (emporium_held).
  CREATE OR REPLACE FUNCTION emporium_append(t TEXT, i BIGINT, p INTEGER, a TEXT, node TEXT, ep BIGINT)
  RETURNS void LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM emporium_held(t, node, ep);
    INSERT INTO actions (table_id, idx, player, action) VALUES (t, i, p, a);
  END $$;
)sql";

// SQLite databases from before bots, stand-ins, clocks, rematches and commitments lack these columns (there was no
// PostgreSQL store yet).
struct Column {
  const char* table;
  const char* name;
  const char* type;
};
constexpr Column kColumnsAddedBeforeVersions[] = {
    {"seats", "bot", "TEXT"},
    {"seats", "stand_in", "TEXT"},
    {"seats", "reserved_for", "TEXT"},
    {"game_tables", "clock", "TEXT"},
    {"game_tables", "clock_state", "TEXT"},
    {"game_tables", "rematch", "TEXT"},
    {"game_tables", "rematch_of", "TEXT"},
    {"game_tables", "salt", "TEXT"},
    {"game_tables", "finished_at", "INTEGER"},
};

void add_missing_columns(SqlConnection& db) {
  for (const auto& column : kColumnsAddedBeforeVersions) {
    bool present = false;
    for (const auto& row : db.rows(std::string("PRAGMA table_info(") + column.table + ")")) {
      present = present || row.text(1) == column.name;
    }
    if (!present) {
      db.script(std::string("ALTER TABLE ") + column.table + " ADD COLUMN " + column.name + " " + column.type);
    }
  }
}

// SQLite databases from before tokens were hashed hold the tokens themselves (24 characters; a hash has 64, a
// reserved seat's placeholder a ':'): they are replaced by their hashes. Whether there were any.
bool hash_stored_tokens(SqlConnection& db) {
  const auto tokens = db.rows("SELECT token FROM seats WHERE length(token) != 64 AND instr(token, ':') = 0");
  const auto claims = db.rows("SELECT DISTINCT reserved_for FROM seats WHERE length(reserved_for) != 64");
  for (const auto& token : tokens) {
    db.rows("UPDATE seats SET token = $1 WHERE token = $2", {hash_token(token.text(0)), token.text(0)});
  }
  for (const auto& claim : claims) {
    db.rows("UPDATE seats SET reserved_for = $1 WHERE reserved_for = $2", {hash_token(claim.text(0)), claim.text(0)});
  }
  return !tokens.empty() || !claims.empty();
}

// Version 1 is what every server before versions made, so a database without a version may be any of theirs: each
// step here leaves alone what is there already.
std::string version_1(SqlConnection& db) {
  db.script(kGameTables);
  if (db.dialect() == Dialect::postgresql) {
    db.script(kPostgresNodes);
    return "";
  }
  db.script(kSqliteSignOfLife);
  add_missing_columns(db);
  // The tokens must not linger in freed pages or in the log either.
  return hash_stored_tokens(db) ? "VACUUM; PRAGMA wal_checkpoint(TRUNCATE)" : "";
}

// Version 2: people (people_store.hpp, docs/accounts.md "Stored data"). `numbered_key`: the dialect's primary key
// that the database numbers, in the order rows are added.
std::string people_tables(const std::string& numbered_key) {
  return R"sql(
  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT,
    created_at BIGINT NOT NULL
  );
  CREATE TABLE passkeys (
    id TEXT PRIMARY KEY,
    account TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    public_key TEXT NOT NULL,
    label TEXT NOT NULL,
    alg INTEGER NOT NULL,
    sign_count BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    last_used_at BIGINT NOT NULL
  );
  CREATE INDEX passkeys_account ON passkeys(account);
  CREATE TABLE sessions (
    id_hash TEXT PRIMARY KEY,
    public_id TEXT NOT NULL,
    account TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    device TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
  );
  CREATE INDEX sessions_account ON sessions(account);
  CREATE INDEX sessions_expires ON sessions(expires_at);
  CREATE TABLE sign_ins (
    id )sql" + numbered_key + R"sql(,
    account TEXT REFERENCES accounts(id) ON DELETE CASCADE,
    method TEXT NOT NULL,
    device TEXT NOT NULL,
    address TEXT NOT NULL,
    ok INTEGER NOT NULL,
    at BIGINT NOT NULL
  );
  CREATE INDEX sign_ins_account ON sign_ins(account, id);
  CREATE INDEX sign_ins_address ON sign_ins(address, at);
  CREATE TABLE challenges (
    challenge TEXT PRIMARY KEY,
    purpose TEXT NOT NULL,
    account TEXT,
    expires_at BIGINT NOT NULL
  );
  CREATE INDEX challenges_expires ON challenges(expires_at);
  CREATE TABLE seat_claims (
    token_hash TEXT PRIMARY KEY,
    account TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    table_id TEXT NOT NULL,
    claimed_at BIGINT NOT NULL
  );
  CREATE INDEX seat_claims_account ON seat_claims(account);
  CREATE TABLE chat_lines (
    id )sql" + numbered_key + R"sql(,
    account TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    table_id TEXT NOT NULL,
    text TEXT NOT NULL,
    at BIGINT NOT NULL
  );
  CREATE INDEX chat_lines_account ON chat_lines(account, id);
)sql";
}

std::string version_2(SqlConnection& db) {
  db.script(people_tables(db.dialect() == Dialect::sqlite ? "INTEGER PRIMARY KEY"
                                                          : "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"));
  return "";
}

// Version 3: ratings (docs/ratings.md "Storage"). Rated tables, the account each person's seat is played for (kept
// when they leave and a bot finishes the game: the seat's token changes then, its account does not), every
// account's rating per game (mu and sigma as the shortest decimal text that reads back to the same double: exact in
// both dialects, which read every column as text), every update of one (the history, and what makes an update happen once per table and
// account), and each finished game of an account's seat (its profile's counts and recent games).
std::string version_3(SqlConnection& db) {
  db.script(R"sql(
  ALTER TABLE game_tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE seats ADD COLUMN account TEXT;
  CREATE TABLE ratings (
    account TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    game TEXT NOT NULL,
    mu TEXT NOT NULL,
    sigma TEXT NOT NULL,
    displayed INTEGER NOT NULL,
    provisional INTEGER NOT NULL,
    games INTEGER NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (account, game)
  );
  CREATE INDEX ratings_board ON ratings(game, provisional, displayed);
  CREATE TABLE rating_updates (
    table_id TEXT NOT NULL,
    account TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    game TEXT NOT NULL,
    seat INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    mu_before TEXT NOT NULL,
    sigma_before TEXT NOT NULL,
    mu_after TEXT NOT NULL,
    sigma_after TEXT NOT NULL,
    displayed_before INTEGER NOT NULL,
    displayed_after INTEGER NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (table_id, account)
  );
  CREATE INDEX rating_updates_account ON rating_updates(account, game, at);
  CREATE TABLE game_results (
    table_id TEXT NOT NULL,
    account TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    game TEXT NOT NULL,
    seat INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    players INTEGER NOT NULL,
    rated INTEGER NOT NULL,
    private INTEGER NOT NULL,
    left_by TEXT,
    finished_at BIGINT NOT NULL,
    PRIMARY KEY (table_id, account)
  );
  CREATE INDEX game_results_account ON game_results(account, finished_at);
)sql");
  return "";
}

// Version 4: friends and moderation (docs/friends.md "Storage"). A friendship is two rows, one per direction, so that each side's
// list is one indexed read; a request is one row from asker to asked; a block one row from blocker to blocked. An
// invitation is a waiting table's, for one account; presence one row per account and node with connections, so
// that every node reads every friend's; friends-only tables are a kind of private table.
std::string version_4(SqlConnection& db) {
  db.script(R"sql(
  ALTER TABLE game_tables ADD COLUMN friends_only INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE accounts ADD COLUMN last_seen_at BIGINT;
  CREATE TABLE friend_requests (
    from_account TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    to_account TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    at BIGINT NOT NULL,
    PRIMARY KEY (from_account, to_account)
  );
  CREATE INDEX friend_requests_to ON friend_requests(to_account);
  CREATE TABLE friendships (
    account TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    other TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    since BIGINT NOT NULL,
    PRIMARY KEY (account, other)
  );
  CREATE TABLE blocks (
    account TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    other TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    at BIGINT NOT NULL,
    PRIMARY KEY (account, other)
  );
  CREATE INDEX blocks_other ON blocks(other);
  CREATE TABLE invitations (
    table_id TEXT NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
    account TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    from_account TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    at BIGINT NOT NULL,
    PRIMARY KEY (table_id, account)
  );
  CREATE INDEX invitations_account ON invitations(account);
  CREATE TABLE presence (
    account TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    node TEXT NOT NULL,
    status TEXT NOT NULL,
    table_id TEXT,
    game TEXT,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (account, node)
  );
  CREATE INDEX presence_node ON presence(node);
  ALTER TABLE accounts ADD COLUMN role TEXT;
  ALTER TABLE accounts ADD COLUMN suspended_until BIGINT;
  ALTER TABLE accounts ADD COLUMN chat_muted_until BIGINT;
  CREATE TABLE reports (
    id TEXT PRIMARY KEY,
    reporter TEXT REFERENCES accounts(id) ON DELETE SET NULL,
    account TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    table_id TEXT NOT NULL,
    reason TEXT NOT NULL,
    note TEXT NOT NULL,
    context TEXT NOT NULL,
    state TEXT NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX reports_open ON reports(state, created_at);
  CREATE TABLE moderation_actions (
    id TEXT PRIMARY KEY,
    report TEXT REFERENCES reports(id) ON DELETE SET NULL,
    moderator TEXT REFERENCES accounts(id) ON DELETE SET NULL,
    account TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    action TEXT NOT NULL,
    reason TEXT NOT NULL,
    until_at BIGINT,
    at BIGINT NOT NULL
  );
  CREATE INDEX moderation_actions_account ON moderation_actions(account, at);
)sql");
  return "";
}

// Version 5: mail (docs/mail.md "Storage"). An account's mail settings are one row (the confirmed address, the one
// waiting for confirmation, what it wants to hear of); a notification that must go once (a game's "your turn"
// until its player moves) is a row of mails_sent, inserted before the mail is queued; server_keys holds the key
// mail links are signed with, made by the first node that needs it.
std::string version_5(SqlConnection& db) {
  db.script(R"sql(
  CREATE TABLE mail_settings (
    account TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    address TEXT,
    pending TEXT,
    language TEXT NOT NULL,
    your_turn INTEGER NOT NULL,
    turn_delay_minutes INTEGER NOT NULL,
    game_over INTEGER NOT NULL,
    invited INTEGER NOT NULL,
    low_clock INTEGER NOT NULL,
    digest INTEGER NOT NULL,
    updated_at BIGINT NOT NULL
  );
  CREATE TABLE mails_sent (
    account TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    table_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    mark BIGINT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (account, table_id, kind, mark)
  );
  CREATE INDEX mails_sent_at ON mails_sent(at);
  CREATE TABLE server_keys (
    name TEXT PRIMARY KEY,
    secret TEXT NOT NULL,
    created_at BIGINT NOT NULL
  );
)sql");
  return "";
}

// Version 6: vacations (docs/mail.md "Vacation"): one row each, its end moved when it is ended early. The days a
// year allows are counted from these rows.
std::string version_6(SqlConnection& db) {
  db.script(R"sql(
  CREATE TABLE vacations (
    account TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    starts_at BIGINT NOT NULL,
    ends_at BIGINT NOT NULL,
    PRIMARY KEY (account, starts_at)
  );
)sql");
  return "";
}

// Version 7: push subscriptions (docs/push.md): one row per browser (its endpoint), its keys as it gave them.
std::string version_7(SqlConnection& db) {
  db.script(R"sql(
  CREATE TABLE push_subscriptions (
    endpoint TEXT PRIMARY KEY,
    account TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX push_subscriptions_account ON push_subscriptions(account);
)sql");
  return "";
}

// Version 8: finished games' analyses (docs/analysis.md "Serving it"): one per table, the document as served, of
// the engine version it was computed with; a newer engine's replaces it.
std::string version_8(SqlConnection& db) {
  db.script(R"sql(
  CREATE TABLE analyses (
    table_id TEXT PRIMARY KEY REFERENCES game_tables(id) ON DELETE CASCADE,
    engine_version TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL
  );
)sql");
  return "";
}

// Version 9: undo (docs/undo.md): whether a table's players may take back a step, chosen at its creation. The
// tables from before: as a new one would be, on unless rated.
std::string version_9(SqlConnection& db) {
  db.script(R"sql(
  ALTER TABLE game_tables ADD COLUMN undo INTEGER NOT NULL DEFAULT 1;
  UPDATE game_tables SET undo = 0 WHERE rated <> 0;
)sql");
  return "";
}

struct Migration {
  int version;
  const char* what;  // for the log
  // Brings the database from the version before to this one, in the migration's transaction. Returns statements to
  // run once that is committed (what no transaction may hold), or "".
  std::string (*apply)(SqlConnection& db);
};
constexpr Migration kMigrations[] = {
    {1, "tables, seats and moves", version_1},
    {2, "people: accounts, passkeys, sessions, sign-ins, challenges, seat claims, chat", version_2},
    {3, "ratings: rated tables, seats' accounts, ratings, their updates, games' results", version_3},
    {4, "friends and moderation: requests, friendships, blocks, invitations, presence, friends-only tables, "
        "reports, moderators and their actions", version_4},
    {5, "mail: addresses and what to send, notifications sent, the key of mail links", version_5},
    {6, "vacations", version_6},
    {7, "push subscriptions", version_7},
    {8, "analyses of finished games", version_8},
    {9, "undo allowed or not at each table", version_9},
};

// Migration i applies version i + 1: the version a database is at is the index of the next one to apply.
constexpr bool numbered_in_order() {
  for (std::size_t i = 0; i < std::size(kMigrations); ++i) {
    if (kMigrations[i].version != static_cast<int>(i) + 1) return false;
  }
  return true;
}
static_assert(numbered_in_order());

constexpr const char* kVersionTable =
    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)";
// PostgreSQL: one node at a time reads the version and applies the next migration. Unbounded (the session's lock
// and statement limits are for play, not for a start that waits for another node's).
constexpr const char* kOneNodeAtATime =
    "SET LOCAL lock_timeout = 0; SET LOCAL statement_timeout = 0; SELECT pg_advisory_xact_lock(4242001)";

}  // namespace

int newest_version() { return kMigrations[std::size(kMigrations) - 1].version; }

void migrate(SqlConnection& db) {
  for (;;) {
    const Migration* applied = nullptr;
    std::string after_commit;
    db.transaction([&] {
      if (db.dialect() == Dialect::postgresql) db.script(kOneNodeAtATime);
      db.script(kVersionTable);
      const auto version =
          static_cast<int>(db.rows("SELECT coalesce(max(version), 0) FROM schema_version").at(0).integer(0));
      if (version > newest_version()) {
        throw StoreError("the database's schema is at version " + std::to_string(version) +
                         ", newer than this server's " + std::to_string(newest_version()) +
                         ": a newer server made it, and only such a server may open it");
      }
      if (version == newest_version()) return;
      applied = &kMigrations[version];
      after_commit = applied->apply(db);
      db.rows("INSERT INTO schema_version (version, applied_at) VALUES ($1, $2)",
              {static_cast<long long>(applied->version), unix_now()});
    });
    if (!applied) return;
    if (!after_commit.empty()) db.script(after_commit);
    spdlog::info("store: the schema is now at version {} ({})", applied->version, applied->what);
  }
}

}  // namespace emporium::server::schema
