#include "store/sql_people_store.hpp"

#include <algorithm>
#include <string_view>

#include "common/wall_clock.hpp"
#include "store/game_end.hpp"
#include "store/schema.hpp"
#include "store/stored_rows.hpp"

namespace emporium::server {
namespace {

// The columns each row reads, in its order.
constexpr const char* kAccountColumns =
    "id, name, name_key, password_hash, created_at, role, suspended_until, chat_muted_until";
constexpr const char* kPasskeyColumns = "id, account, public_key, label, alg, sign_count, created_at, last_used_at";
constexpr const char* kSessionColumns = "id_hash, public_id, account, device, created_at, last_seen_at, expires_at";
constexpr const char* kSignInColumns = "account, method, device, address, ok, at";
constexpr const char* kChallengeColumns = "challenge, purpose, account, expires_at";
constexpr const char* kChatColumns = "account, table_id, text, at";
// A claim counts only while its seat exists (a table deleted before its start takes its seats with it).
constexpr const char* kClaimsOfSeats =
    "SELECT c.token_hash, c.account, c.table_id, c.claimed_at, t.game, t.state, s.name, s.seat FROM seat_claims c "
    "JOIN seats s ON s.token = c.token_hash JOIN game_tables t ON t.id = c.table_id ";

// A node silent for longer is taken for dead: its presence rows do not count (its heartbeat writes every second).
constexpr long long kNodeSilentMs = 15000;

// The sign-ins kept per account (its account page shows them; older ones only fill the database).
constexpr long long kSignInsKept = 100;
// Failed sign-ins on names no account has count toward their address's limit only, whose window is minutes.
constexpr long long kUnknownNameSignInsKeptFor = 24 * 3600;

AccountRow account_row(const SqlRow& r) {
  return {r.text(0), r.text(1), r.text(2), r.text(3), r.integer(4), r.text(5), r.integer(6), r.integer(7)};
}
PasskeyRow passkey_row(const SqlRow& r) {
  return {r.text(0), r.text(1), r.text(2), r.text(3), static_cast<int>(r.integer(4)),
          static_cast<std::uint32_t>(r.integer(5)), r.integer(6), r.integer(7)};
}
SessionRow session_row(const SqlRow& r) {
  return {r.text(0), r.text(1), r.text(2), r.text(3), r.integer(4), r.integer(5), r.integer(6)};
}
SignInRow sign_in_row(const SqlRow& r) {
  return {r.text(0), r.text(1), r.text(2), r.text(3), r.integer(4) != 0, r.integer(5)};
}
ChallengeRow challenge_row(const SqlRow& r) { return {r.text(0), r.text(1), r.text(2), r.integer(3)}; }
ClaimRow claim_row(const SqlRow& r) {
  return {r.text(0), r.text(1), r.text(2), r.integer(3), r.text(4), r.text(5), r.text(6), static_cast<int>(r.integer(7))};
}
ChatRow chat_row(const SqlRow& r) { return {r.text(0), r.text(1), r.text(2), r.integer(3)}; }
constexpr const char* kRatingColumns = "account, game, mu, sigma, displayed, provisional, games";
RatingRow rating_row(const SqlRow& r) {
  return {r.text(0), r.text(1), exact_value(r.text(2)), exact_value(r.text(3)), static_cast<int>(r.integer(4)),
          r.integer(5) != 0, r.integer(6)};
}
constexpr const char* kRatingUpdateColumns =
    "u.table_id, u.account, u.game, u.seat, u.rank, u.mu_before, u.sigma_before, u.mu_after, u.sigma_after, "
    "u.displayed_before, u.displayed_after, u.at";
RatingUpdateRow rating_update_row(const SqlRow& r) {
  return {r.text(0), r.text(1), r.text(2), static_cast<int>(r.integer(3)), static_cast<int>(r.integer(4)),
          exact_value(r.text(5)), exact_value(r.text(6)), exact_value(r.text(7)), exact_value(r.text(8)),
          static_cast<int>(r.integer(9)), static_cast<int>(r.integer(10)), r.integer(11)};
}
// A result with its rating update's delta, if any (the update has the same key).
constexpr const char* kResultsWithDelta =
    "SELECT r.table_id, r.account, r.game, r.seat, r.rank, r.players, r.rated, r.private, r.left_by, r.finished_at, "
    "u.displayed_after - u.displayed_before, u.table_id FROM game_results r "
    "LEFT JOIN rating_updates u ON u.table_id = r.table_id AND u.account = r.account ";
GameResultRow result_row(const SqlRow& r) {
  GameResultRow g{r.text(0), r.text(1), r.text(2), static_cast<int>(r.integer(3)), static_cast<int>(r.integer(4)),
                  static_cast<int>(r.integer(5)), r.integer(6) != 0, r.integer(7) != 0, r.text(8), r.integer(9), {}};
  if (!r.text(11).empty()) g.delta = static_cast<int>(r.integer(10));
  return g;
}
// Who shows on a leaderboard (its parameters: $1 the game, $2 the fewest games).
constexpr const char* kOnTheBoard =
    " FROM ratings r JOIN accounts a ON a.id = r.account WHERE r.game = $1 AND r.provisional = 0 AND r.games >= $2";
LeaderboardRow board_row(const SqlRow& r, int place) {
  return {place, r.text(0), static_cast<int>(r.integer(1)), r.integer(2)};
}

template <class Row>
std::vector<Row> read_all(const std::vector<SqlRow>& rows, Row (*read)(const SqlRow&)) {
  std::vector<Row> out;
  out.reserve(rows.size());
  for (const auto& r : rows) out.push_back(read(r));
  return out;
}
template <class Row>
std::optional<Row> read_first(const std::vector<SqlRow>& rows, Row (*read)(const SqlRow&)) {
  if (rows.empty()) return std::nullopt;
  return read(rows.front());
}
// The one row of a count.
std::size_t count_of(const std::vector<SqlRow>& rows) { return static_cast<std::size_t>(rows.at(0).integer(0)); }

// "a, b" as "t.a, t.b"; how many columns.
std::string aliased(std::string_view columns, const char* alias) {
  std::string out;
  for (std::string_view rest = columns; !rest.empty();) {
    const auto comma = rest.find(", ");
    out += (out.empty() ? alias : std::string(", ") + alias) + std::string(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 2);
  }
  return out;
}
int column_count(std::string_view columns) {
  return static_cast<int>(std::count(columns.begin(), columns.end(), ',')) + 1;
}

std::string select_from(const char* columns, const char* rest) {
  return std::string("SELECT ") + columns + " FROM " + rest;
}

// Inserts that return the new row's key, or nothing when a unique column is taken.
constexpr const char* kInsertAccount =
    "INSERT INTO accounts (id, name, name_key, password_hash, created_at) VALUES ($1, $2, $3, $4, $5) "
    "ON CONFLICT DO NOTHING RETURNING id";
constexpr const char* kInsertPasskey =
    "INSERT INTO passkeys (id, account, public_key, label, alg, sign_count, created_at, last_used_at) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING id";
std::vector<SqlValue> passkey_values(const PasskeyRow& p) {
  return {p.id, p.account, p.public_key, p.label, static_cast<long long>(p.alg),
          static_cast<long long>(p.sign_count), p.created_at, p.last_used_at};
}

}  // namespace

std::vector<SqlRow> SqlPeopleStore::run(const std::string& statement, const std::vector<SqlValue>& params) {
  std::lock_guard hold(mutex_);
  return sql().rows(statement, params);
}

void SqlPeopleStore::in_transaction(const std::function<void(SqlConnection& db)>& body) {
  std::lock_guard hold(mutex_);
  SqlConnection& db = sql();
  db.transaction([&] { body(db); });
}

bool SqlPeopleStore::create_account(const AccountRow& a, const std::optional<PasskeyRow>& first_passkey) {
  struct Taken {};  // the name's key or the passkey's id: the transaction is rolled back
  try {
    in_transaction([&](SqlConnection& db) {
      if (db.rows(kInsertAccount, {a.id, a.name, a.name_key, text_or_null(a.password_hash), a.created_at}).empty() ||
          (first_passkey && db.rows(kInsertPasskey, passkey_values(*first_passkey)).empty())) {
        throw Taken();
      }
    });
  } catch (const Taken&) {
    return false;
  }
  return true;
}

std::optional<AccountRow> SqlPeopleStore::account(const std::string& id) {
  return read_first(run(select_from(kAccountColumns, "accounts WHERE id = $1"), {id}), account_row);
}

std::optional<AccountRow> SqlPeopleStore::account_by_name_key(const std::string& name_key) {
  return read_first(run(select_from(kAccountColumns, "accounts WHERE name_key = $1"), {name_key}), account_row);
}

void SqlPeopleStore::set_password(const std::string& account, const std::string& hash) {
  run("UPDATE accounts SET password_hash = $2 WHERE id = $1", {account, text_or_null(hash)});
}

bool SqlPeopleStore::add_passkey(const PasskeyRow& passkey) {
  return !run(kInsertPasskey, passkey_values(passkey)).empty();
}

std::optional<PasskeyRow> SqlPeopleStore::passkey(const std::string& id) {
  return read_first(run(select_from(kPasskeyColumns, "passkeys WHERE id = $1"), {id}), passkey_row);
}

std::vector<PasskeyRow> SqlPeopleStore::passkeys_of(const std::string& account) {
  return read_all(
      run(select_from(kPasskeyColumns, "passkeys WHERE account = $1 ORDER BY created_at, id"), {account}),
      passkey_row);
}

bool SqlPeopleStore::use_passkey(const std::string& id, std::uint32_t old_count, std::uint32_t new_count,
                                 long long at) {
  return !run("UPDATE passkeys SET sign_count = $3, last_used_at = $4 WHERE id = $1 AND sign_count = $2 RETURNING id",
              {id, static_cast<long long>(old_count), static_cast<long long>(new_count), at})
              .empty();
}

bool SqlPeopleStore::rename_passkey(const std::string& account, const std::string& id, const std::string& label) {
  return !run("UPDATE passkeys SET label = $3 WHERE account = $1 AND id = $2 RETURNING id", {account, id, label})
              .empty();
}

PeopleStore::Removal SqlPeopleStore::remove_passkey(const std::string& account, const std::string& id) {
  auto removal = Removal::no_such_passkey;
  in_transaction([&](SqlConnection& db) {
    // The account's row first, locked until the end (PostgreSQL; SQLite's transaction holds the write lock already):
    // another removal of its passkeys waits here, and then counts what this one left.
    if (db.rows("UPDATE accounts SET password_hash = password_hash WHERE id = $1 RETURNING id", {account}).empty()) {
      return;
    }
    const bool removed = !db.rows("DELETE FROM passkeys WHERE account = $1 AND id = $2 AND ("
                                  "(SELECT count(*) FROM passkeys WHERE account = $1) > 1 OR "
                                  "(SELECT password_hash FROM accounts WHERE id = $1) IS NOT NULL) RETURNING id",
                                  {account, id})
                               .empty();
    if (removed) {
      removal = Removal::removed;
    } else if (!db.rows("SELECT id FROM passkeys WHERE account = $1 AND id = $2", {account, id}).empty()) {
      removal = Removal::last_sign_in_method;
    }
  });
  return removal;
}

void SqlPeopleStore::create_session(const SessionRow& s) {
  run("INSERT INTO sessions (id_hash, public_id, account, device, created_at, last_seen_at, expires_at) "
      "VALUES ($1, $2, $3, $4, $5, $6, $7)",
      {s.id_hash, s.public_id, s.account, s.device, s.created_at, s.last_seen_at, s.expires_at});
}

std::optional<SessionRow> SqlPeopleStore::session(const std::string& id_hash) {
  return read_first(run(select_from(kSessionColumns, "sessions WHERE id_hash = $1"), {id_hash}), session_row);
}

void SqlPeopleStore::touch_session(const std::string& id_hash, long long last_seen, long long expires_at) {
  run("UPDATE sessions SET last_seen_at = $2, expires_at = $3 WHERE id_hash = $1", {id_hash, last_seen, expires_at});
}

bool SqlPeopleStore::delete_session(const std::string& id_hash) {
  return !run("DELETE FROM sessions WHERE id_hash = $1 RETURNING id_hash", {id_hash}).empty();
}

bool SqlPeopleStore::delete_session_by_public_id(const std::string& account, const std::string& public_id) {
  return !run("DELETE FROM sessions WHERE account = $1 AND public_id = $2 RETURNING id_hash", {account, public_id})
              .empty();
}

std::size_t SqlPeopleStore::delete_sessions_of(const std::string& account) {
  return run("DELETE FROM sessions WHERE account = $1 RETURNING id_hash", {account}).size();
}

std::vector<std::string> SqlPeopleStore::delete_sessions_but(const std::string& account, const std::string& kept) {
  std::vector<std::string> deleted;
  for (const auto& r : run("DELETE FROM sessions WHERE account = $1 AND public_id <> $2 RETURNING public_id",
                           {account, kept})) {
    deleted.push_back(r.text(0));
  }
  return deleted;
}

std::vector<SessionRow> SqlPeopleStore::sessions_of(const std::string& account, long long now) {
  return read_all(run(select_from(kSessionColumns,
                             "sessions WHERE account = $1 AND expires_at > $2 ORDER BY created_at DESC, id_hash"),
                      {account, now}),
                  session_row);
}

void SqlPeopleStore::record_sign_in(const SignInRow& s) {
  in_transaction([&](SqlConnection& db) {
    db.rows("INSERT INTO sign_ins (account, method, device, address, ok, at) VALUES ($1, $2, $3, $4, $5, $6)",
            {text_or_null(s.account), s.method, s.device, s.address, s.ok ? 1LL : 0LL, s.at});
    if (s.account.empty()) return;
    db.rows("DELETE FROM sign_ins WHERE account = $1 AND id <= "
            "(SELECT id FROM sign_ins WHERE account = $1 ORDER BY id DESC LIMIT 1 OFFSET $2)",
            {s.account, kSignInsKept});
  });
}

std::vector<SignInRow> SqlPeopleStore::sign_ins_of(const std::string& account, std::size_t limit) {
  return read_all(run(select_from(kSignInColumns, "sign_ins WHERE account = $1 ORDER BY id DESC LIMIT $2"),
                      {account, static_cast<long long>(limit)}),
                  sign_in_row);
}

std::size_t SqlPeopleStore::failures_since(const std::string& account, long long since) {
  return count_of(run("SELECT count(*) FROM sign_ins WHERE account = $1 AND ok = 0 AND at >= $2", {account, since}));
}

std::size_t SqlPeopleStore::failures_from(const std::string& address, long long since) {
  return count_of(run("SELECT count(*) FROM sign_ins WHERE address = $1 AND ok = 0 AND at >= $2", {address, since}));
}

void SqlPeopleStore::put_challenge(const ChallengeRow& c) {
  run("INSERT INTO challenges (challenge, purpose, account, expires_at) VALUES ($1, $2, $3, $4)",
      {c.challenge, c.purpose, text_or_null(c.account), c.expires_at});
}

std::optional<ChallengeRow> SqlPeopleStore::take_challenge(const std::string& challenge, long long now) {
  // One statement finds it and uses it up, so of two takers only one gets it; an expired one goes too.
  auto taken = read_first(
      run(std::string("DELETE FROM challenges WHERE challenge = $1 RETURNING ") + kChallengeColumns, {challenge}),
      challenge_row);
  if (taken && taken->expires_at <= now) return std::nullopt;
  return taken;
}

std::vector<ClaimRow> SqlPeopleStore::claim_seats(const std::string& account,
                                                  const std::vector<std::string>& token_hashes, long long now) {
  std::vector<ClaimRow> claims;
  in_transaction([&](SqlConnection& db) {
    for (const auto& token_hash : token_hashes) {
      // A seat that exists and nobody claimed; one another account claimed stays theirs.
      db.rows("INSERT INTO seat_claims (token_hash, account, table_id, claimed_at) "
              "SELECT token, $1, table_id, $2 FROM seats WHERE token = $3 ON CONFLICT (token_hash) DO NOTHING",
              {account, now, token_hash});
      const auto mine = db.rows(std::string(kClaimsOfSeats) + "WHERE c.token_hash = $1 AND c.account = $2",
                                {token_hash, account});
      if (!mine.empty()) claims.push_back(claim_row(mine.front()));
    }
  });
  return claims;
}

std::vector<ClaimRow> SqlPeopleStore::claims_of(const std::string& account) {
  return read_all(
      run(std::string(kClaimsOfSeats) + "WHERE c.account = $1 ORDER BY c.claimed_at, c.token_hash", {account}),
      claim_row);
}

std::optional<ClaimRow> SqlPeopleStore::claim_at(const std::string& account, const std::string& table_id) {
  // The newest, should the account hold two seats there (claimed as a guest's on two devices).
  return read_first(run(std::string(kClaimsOfSeats) +
                            "WHERE c.account = $1 AND c.table_id = $2 ORDER BY c.claimed_at DESC, c.token_hash DESC "
                            "LIMIT 1",
                        {account, table_id}),
                    claim_row);
}

std::vector<ClaimedTable> SqlPeopleStore::claimed_tables(const std::string& account, std::size_t limit) {
  // One row per seat of each claimed table: the table's columns (stored_rows::table), the claim's token hash, then
  // the seat's (stored_rows::seat), a claim's rows together and in seat order.
  static const std::string query =
      "SELECT " + aliased(stored_rows::kTableColumns, "t.") +
      ", c.token_hash, " + aliased(stored_rows::kSeatColumns, "s.") + " FROM "
      "(SELECT c.token_hash, c.table_id, c.claimed_at FROM seat_claims c JOIN seats mine ON mine.token = c.token_hash "
      "WHERE c.account = $1 ORDER BY c.claimed_at DESC, c.token_hash LIMIT $2) c "
      "JOIN game_tables t ON t.id = c.table_id JOIN seats s ON s.table_id = t.id "
      "ORDER BY c.claimed_at DESC, c.token_hash, s.seat";
  static const int claim_column = column_count(stored_rows::kTableColumns);
  std::vector<ClaimedTable> claimed;
  for (const auto& r : run(query, {account, static_cast<long long>(limit)})) {
    if (claimed.empty() || claimed.back().token_hash != r.text(claim_column)) {
      claimed.push_back({r.text(claim_column), stored_rows::table(r)});
    }
    claimed.back().table.seats.push_back(stored_rows::seat(r, claim_column + 1));
  }
  return claimed;
}

std::optional<std::string> SqlPeopleStore::account_of_seat(const std::string& token_hash) {
  const auto claim =
      read_first(run(std::string(kClaimsOfSeats) + "WHERE c.token_hash = $1", {token_hash}), claim_row);
  if (!claim) return std::nullopt;
  return claim->account;
}

void SqlPeopleStore::record_chat(const ChatRow& line) {
  run("INSERT INTO chat_lines (account, table_id, text, at) VALUES ($1, $2, $3, $4)",
      {line.account, line.table_id, line.text, line.at});
}

std::vector<ChatRow> SqlPeopleStore::chat_of(const std::string& account) {
  return read_all(run(select_from(kChatColumns, "chat_lines WHERE account = $1 ORDER BY id"), {account}), chat_row);
}

std::vector<RatingRow> SqlPeopleStore::ratings_of(const std::vector<std::string>& accounts, const std::string& game) {
  std::vector<RatingRow> out;
  std::lock_guard hold(mutex_);
  for (const auto& account : accounts) {
    for (const auto& r : sql().rows(select_from(kRatingColumns, "ratings WHERE account = $1 AND game = $2"),
                                    {account, game})) {
      out.push_back(rating_row(r));
    }
  }
  return out;
}

std::vector<RatingRow> SqlPeopleStore::ratings_of_account(const std::string& account) {
  return read_all(run(select_from(kRatingColumns, "ratings WHERE account = $1 ORDER BY game"), {account}), rating_row);
}

std::vector<RatingUpdateRow> SqlPeopleStore::rating_updates_of_table(const std::string& table) {
  return read_all(run(std::string("SELECT ") + kRatingUpdateColumns +
                          " FROM rating_updates u WHERE u.table_id = $1 ORDER BY u.seat",
                      {table}),
                  rating_update_row);
}

std::vector<RatingUpdateRow> SqlPeopleStore::rating_updates_of(const std::string& account, bool with_private) {
  return read_all(run(std::string("SELECT ") + kRatingUpdateColumns +
                          " FROM rating_updates u JOIN game_results r ON r.table_id = u.table_id AND "
                          "r.account = u.account WHERE u.account = $1 AND (r.private = 0 OR $2 = 1) "
                          "ORDER BY u.at, u.table_id",
                      {account, with_private ? 1LL : 0LL}),
                  rating_update_row);
}

std::vector<GameResultRow> SqlPeopleStore::results_of(const std::string& account, bool with_private,
                                                      std::size_t limit) {
  return read_all(run(std::string(kResultsWithDelta) +
                          "WHERE r.account = $1 AND (r.private = 0 OR $2 = 1) "
                          "ORDER BY r.finished_at DESC, r.table_id DESC LIMIT $3",
                      {account, with_private ? 1LL : 0LL, static_cast<long long>(limit)}),
                  result_row);
}

std::vector<PeopleStore::ResultCounts> SqlPeopleStore::result_counts(const std::string& account, bool with_private) {
  std::vector<ResultCounts> out;
  for (const auto& r : run("SELECT game, count(*), sum(CASE WHEN rank = 1 THEN 1 ELSE 0 END), "
                           "sum(CASE WHEN left_by = 'left' THEN 1 ELSE 0 END), "
                           "sum(CASE WHEN left_by = 'timeout' THEN 1 ELSE 0 END) FROM game_results "
                           "WHERE account = $1 AND (private = 0 OR $2 = 1) GROUP BY game ORDER BY game",
                           {account, with_private ? 1LL : 0LL})) {
    out.push_back({r.text(0), r.integer(1), r.integer(2), r.integer(3), r.integer(4)});
  }
  return out;
}

std::vector<LeaderboardRow> SqlPeopleStore::leaderboard(const std::string& game, long long min_games,
                                                        std::size_t limit) {
  std::vector<LeaderboardRow> out;
  for (const auto& r : run(std::string("SELECT a.name, r.displayed, r.games") + kOnTheBoard +
                               " ORDER BY r.displayed DESC, r.games DESC, a.name_key LIMIT $3",
                           {game, min_games, static_cast<long long>(limit)})) {
    out.push_back(board_row(r, static_cast<int>(out.size()) + 1));
  }
  return out;
}

std::optional<LeaderboardRow> SqlPeopleStore::leaderboard_place(const std::string& game, long long min_games,
                                                                const std::string& account) {
  std::lock_guard hold(mutex_);
  const auto mine = sql().rows(std::string("SELECT a.name, r.displayed, r.games, a.name_key") + kOnTheBoard +
                                   " AND r.account = $3",
                               {game, min_games, account});
  if (mine.empty()) return std::nullopt;
  const auto& m = mine.front();
  // Its place: one after everyone ordered before it.
  const auto before = sql().rows(std::string("SELECT count(*)") + kOnTheBoard +
                                     " AND (r.displayed > $3 OR (r.displayed = $3 AND (r.games > $4 OR "
                                     "(r.games = $4 AND a.name_key < $5))))",
                                 {game, min_games, m.integer(1), m.integer(2), m.text(3)});
  return board_row(m, static_cast<int>(count_of(before)) + 1);
}

// ---- Friends

std::vector<RelationRow> SqlPeopleStore::relations_of(const std::string& account) {
  // One read of the four lists, each row with the other's name as it is now.
  return read_all(run("SELECT r.other, a.name, r.relation, r.at FROM ("
                      "SELECT other, 'friend' AS relation, since AS at FROM friendships WHERE account = $1 "
                      "UNION ALL SELECT from_account, 'incoming', at FROM friend_requests WHERE to_account = $1 "
                      "AND from_account NOT IN (SELECT other FROM blocks WHERE account = $1) "
                      "UNION ALL SELECT to_account, 'outgoing', at FROM friend_requests WHERE from_account = $1 "
                      "UNION ALL SELECT other, 'blocked', at FROM blocks WHERE account = $1"
                      ") r JOIN accounts a ON a.id = r.other ORDER BY r.relation, a.name_key",
                      {account}),
                  +[](const SqlRow& r) { return RelationRow{r.text(0), r.text(1), r.text(2), r.integer(3)}; });
}

std::vector<std::string> SqlPeopleStore::blocked_by(const std::string& account) {
  return read_all(run("SELECT account FROM blocks WHERE other = $1", {account}),
                  +[](const SqlRow& r) { return r.text(0); });
}

FriendRequest SqlPeopleStore::request_friend(const std::string& from, const std::string& to, long long at) {
  auto outcome = FriendRequest::sent;
  in_transaction([&](SqlConnection& db) {
    if (db.rows("SELECT id FROM accounts WHERE id = $1", {to}).empty()) {
      outcome = FriendRequest::unknown;
    } else if (!db.rows("SELECT other FROM friendships WHERE account = $1 AND other = $2", {from, to}).empty()) {
      outcome = FriendRequest::already_friends;
    } else if (!db.rows("SELECT other FROM blocks WHERE account = $1 AND other = $2", {from, to}).empty()) {
      outcome = FriendRequest::you_blocked;
    } else if (!db.rows("SELECT at FROM friend_requests WHERE from_account = $1 AND to_account = $2", {from, to})
                    .empty()) {
      outcome = FriendRequest::already_requested;
    } else if (!db.rows("SELECT at FROM friend_requests WHERE from_account = $1 AND to_account = $2 AND $2 NOT IN "
                        "(SELECT other FROM blocks WHERE account = $1)",
                        {to, from})
                    .empty()) {
      // They asked first (and `from` did not block them, checked above): the second request is an acceptance.
      db.rows("DELETE FROM friend_requests WHERE (from_account = $1 AND to_account = $2) OR "
              "(from_account = $2 AND to_account = $1)",
              {from, to});
      db.rows("INSERT INTO friendships (account, other, since) VALUES ($1, $2, $3), ($2, $1, $3)", {from, to, at});
      outcome = FriendRequest::became_friends;
    } else {
      db.rows("INSERT INTO friend_requests (from_account, to_account, at) VALUES ($1, $2, $3)", {from, to, at});
    }
  });
  return outcome;
}

bool SqlPeopleStore::accept_friend(const std::string& account, const std::string& from, long long at) {
  bool accepted = false;
  in_transaction([&](SqlConnection& db) {
    // Only a request the acceptor sees: not one from someone it blocked.
    if (db.rows("DELETE FROM friend_requests WHERE from_account = $1 AND to_account = $2 AND $1 NOT IN "
                "(SELECT other FROM blocks WHERE account = $2) RETURNING at",
                {from, account})
            .empty()) {
      return;
    }
    db.rows("DELETE FROM friend_requests WHERE from_account = $1 AND to_account = $2", {account, from});
    db.rows("INSERT INTO friendships (account, other, since) VALUES ($1, $2, $3), ($2, $1, $3) "
            "ON CONFLICT DO NOTHING",
            {account, from, at});
    accepted = true;
  });
  return accepted;
}

bool SqlPeopleStore::delete_friend_request(const std::string& from, const std::string& to) {
  return !run("DELETE FROM friend_requests WHERE from_account = $1 AND to_account = $2 RETURNING at", {from, to})
              .empty();
}

bool SqlPeopleStore::remove_friend(const std::string& account, const std::string& other) {
  return !run("DELETE FROM friendships WHERE (account = $1 AND other = $2) OR (account = $2 AND other = $1) "
              "RETURNING since",
              {account, other})
              .empty();
}

bool SqlPeopleStore::block(const std::string& account, const std::string& other, long long at) {
  bool blocked = false;
  in_transaction([&](SqlConnection& db) {
    if (db.rows("INSERT INTO blocks (account, other, at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING at",
                {account, other, at})
            .empty()) {
      return;
    }
    db.rows("DELETE FROM friendships WHERE (account = $1 AND other = $2) OR (account = $2 AND other = $1)",
            {account, other});
    db.rows("DELETE FROM friend_requests WHERE (from_account = $1 AND to_account = $2) OR "
            "(from_account = $2 AND to_account = $1)",
            {account, other});
    db.rows("DELETE FROM invitations WHERE (account = $1 AND from_account = $2) OR "
            "(account = $2 AND from_account = $1)",
            {account, other});
    blocked = true;
  });
  return blocked;
}

bool SqlPeopleStore::unblock(const std::string& account, const std::string& other) {
  return !run("DELETE FROM blocks WHERE account = $1 AND other = $2 RETURNING at", {account, other}).empty();
}

void SqlPeopleStore::set_presence(const PresenceRow& p) {
  run("INSERT INTO presence (account, node, status, table_id, game, updated_at) VALUES ($1, $2, $3, $4, $5, $6) "
      "ON CONFLICT (account, node) DO UPDATE SET status = excluded.status, table_id = excluded.table_id, "
      "game = excluded.game, updated_at = excluded.updated_at",
      {p.account, p.node, p.status, text_or_null(p.table_id), text_or_null(p.game), p.updated_at});
}

void SqlPeopleStore::clear_presence(const std::string& account, const std::string& node, long long at) {
  in_transaction([&](SqlConnection& db) {
    db.rows("DELETE FROM presence WHERE account = $1 AND node = $2", {account, node});
    db.rows("UPDATE accounts SET last_seen_at = $2 WHERE id = $1", {account, at});
  });
}

void SqlPeopleStore::clear_node_presence(const std::string& node) {
  run("DELETE FROM presence WHERE node = $1", {node});
}

std::vector<FriendPresence> SqlPeopleStore::presence_of(const std::vector<std::string>& accounts) {
  std::vector<FriendPresence> out;
  std::lock_guard hold(mutex_);
  // Several nodes share PostgreSQL: a node that died leaves its rows behind until it starts again, so only the rows
  // of nodes with a sign of life in the last 15 s count. One SQLite server: its rows are its own.
  const bool nodes = sql().dialect() == Dialect::postgresql;
  const std::string rows = std::string("SELECT account, node, status, table_id, game, updated_at FROM presence "
                                       "WHERE account = $1 ") +
                           (nodes ? "AND node IN (SELECT node FROM server_alive WHERE at_ms >= $2) " : "") +
                           "ORDER BY node";
  for (const auto& account : accounts) {
    FriendPresence f{account, {}, 0};
    std::vector<SqlValue> params{account};
    if (nodes) params.emplace_back(unix_ms_now() - kNodeSilentMs);
    for (const auto& r : sql().rows(rows, params)) {
      f.nodes.push_back({r.text(0), r.text(1), r.text(2), r.text(3), r.text(4), r.integer(5)});
    }
    for (const auto& r : sql().rows("SELECT last_seen_at FROM accounts WHERE id = $1", {account})) {
      f.last_seen_at = r.integer(0);
    }
    out.push_back(std::move(f));
  }
  return out;
}

bool SqlPeopleStore::add_invitation(const InvitationRow& i) {
  return !run("INSERT INTO invitations (table_id, account, from_account, at) VALUES ($1, $2, $3, $4) "
              "ON CONFLICT DO NOTHING RETURNING at",
              {i.table_id, i.account, i.from_account, i.at})
              .empty();
}

std::vector<InvitationRow> SqlPeopleStore::invitations_of(const std::string& account) {
  return read_all(
      run("SELECT i.table_id, i.account, i.from_account, i.at, a.name, t.game, t.invite, t.players "
          "FROM invitations i JOIN game_tables t ON t.id = i.table_id JOIN accounts a ON a.id = i.from_account "
          "WHERE i.account = $1 AND t.state = 'waiting' AND NOT EXISTS "
          "(SELECT 1 FROM seats s WHERE s.table_id = i.table_id AND s.account = $1) ORDER BY i.at, i.table_id",
          {account}),
      +[](const SqlRow& r) {
        return InvitationRow{r.text(0), r.text(1), r.text(2), r.integer(3), r.text(4), r.text(5), r.text(6),
                             static_cast<int>(r.integer(7))};
      });
}

std::optional<std::string> SqlPeopleStore::take_invitation(const std::string& table_id, const std::string& account) {
  const auto rows =
      run("DELETE FROM invitations WHERE table_id = $1 AND account = $2 RETURNING from_account", {table_id, account});
  if (rows.empty()) return std::nullopt;
  return rows.front().text(0);
}

// ---- Moderation

bool SqlPeopleStore::set_role(const std::string& account, const std::string& role) {
  return !run("UPDATE accounts SET role = $2 WHERE id = $1 RETURNING id", {account, text_or_null(role)}).empty();
}

std::vector<AccountRow> SqlPeopleStore::accounts_with_role(const std::string& role) {
  return read_all(run(select_from(kAccountColumns, "accounts WHERE role = $1 ORDER BY name_key"), {role}), account_row);
}

void SqlPeopleStore::add_report(const ReportRow& r) {
  run("INSERT INTO reports (id, reporter, account, table_id, reason, note, context, state, created_at) "
      "VALUES ($1, $2, $3, $4, $5, $6, $7, 'open', $8)",
      {r.id, text_or_null(r.reporter), r.account, r.table_id, r.reason, r.note, r.context, r.created_at});
}

namespace {
// Open reports with the names of the reporter (if it still exists) and the reported.
constexpr const char* kOpenReports =
    "SELECT r.id, r.reporter, r.account, r.table_id, r.reason, r.note, r.context, r.state, r.created_at, "
    "coalesce(p.name, ''), a.name FROM reports r JOIN accounts a ON a.id = r.account "
    "LEFT JOIN accounts p ON p.id = r.reporter WHERE r.state = 'open' ";
ReportRow report_row(const SqlRow& r) {
  return {r.text(0), r.text(1), r.text(2), r.text(3), r.text(4), r.text(5),
          r.text(6), r.text(7), r.integer(8), r.text(9), r.text(10)};
}
}  // namespace

std::vector<ReportRow> SqlPeopleStore::open_reports(std::size_t limit) {
  return read_all(run(std::string(kOpenReports) + "ORDER BY r.created_at, r.id LIMIT $1", {static_cast<long long>(limit)}),
                  report_row);
}

std::optional<ReportRow> SqlPeopleStore::open_report(const std::string& id) {
  return read_first(run(std::string(kOpenReports) + "AND r.id = $1", {id}), report_row);
}

bool SqlPeopleStore::moderate(const ModerationRow& m) {
  bool done = false;
  in_transaction([&](SqlConnection& db) {
    if (!m.report.empty() &&
        db.rows("UPDATE reports SET state = 'resolved' WHERE id = $1 AND state = 'open' RETURNING id", {m.report})
            .empty()) {
      return;
    }
    db.rows("INSERT INTO moderation_actions (id, report, moderator, account, action, reason, until_at, at) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            {m.id, text_or_null(m.report), text_or_null(m.moderator), m.account, m.action, m.reason,
             m.until > 0 ? SqlValue(m.until) : SqlValue(), m.at});
    if (m.action == "mute") db.rows("UPDATE accounts SET chat_muted_until = $2 WHERE id = $1", {m.account, m.until});
    if (m.action == "suspend") db.rows("UPDATE accounts SET suspended_until = $2 WHERE id = $1", {m.account, m.until});
    done = true;
  });
  return done;
}

std::vector<ModerationRow> SqlPeopleStore::moderation_of(const std::string& account) {
  return read_all(run("SELECT m.id, coalesce(m.report, ''), coalesce(m.moderator, ''), m.account, m.action, m.reason, "
                      "coalesce(m.until_at, 0), m.at, coalesce(a.name, '') FROM moderation_actions m "
                      "LEFT JOIN accounts a ON a.id = m.moderator WHERE m.account = $1 ORDER BY m.at DESC, m.id",
                      {account}),
                  +[](const SqlRow& r) {
                    return ModerationRow{r.text(0), r.text(1), r.text(2), r.text(3), r.text(4), r.text(5),
                                         r.integer(6), r.integer(7), r.text(8)};
                  });
}

namespace {
PushSubscriptionRow push_subscription_row(const SqlRow& r) {
  return {r.text(0), r.text(1), r.text(2), r.text(3), r.integer(4)};
}
}  // namespace

void SqlPeopleStore::add_push_subscription(const PushSubscriptionRow& s, std::size_t keep) {
  in_transaction([&](SqlConnection& db) {
    // An endpoint is one browser's: signed in to another account now, it is that account's.
    db.rows("DELETE FROM push_subscriptions WHERE endpoint = $1", {s.endpoint});
    db.rows("INSERT INTO push_subscriptions (account, endpoint, p256dh, auth, created_at) VALUES ($1, $2, $3, $4, $5)",
            {s.account, s.endpoint, s.p256dh, s.auth, s.created_at});
    db.rows("DELETE FROM push_subscriptions WHERE account = $1 AND endpoint NOT IN (SELECT endpoint FROM "
            "push_subscriptions WHERE account = $1 ORDER BY created_at DESC, endpoint DESC LIMIT " +
                std::to_string(keep) + ")",
            {s.account});
  });
}

bool SqlPeopleStore::remove_push_subscription(const std::string& endpoint, const std::string& account) {
  if (account.empty()) return !run("DELETE FROM push_subscriptions WHERE endpoint = $1 RETURNING endpoint", {endpoint}).empty();
  return !run("DELETE FROM push_subscriptions WHERE endpoint = $1 AND account = $2 RETURNING endpoint", {endpoint, account})
              .empty();
}

std::vector<PushSubscriptionRow> SqlPeopleStore::push_subscriptions(const std::string& account) {
  return read_all(run("SELECT account, endpoint, p256dh, auth, created_at FROM push_subscriptions WHERE account = $1 "
                      "ORDER BY created_at, endpoint",
                      {account}),
                  push_subscription_row);
}

void SqlPeopleStore::delete_account(const std::string& account, const std::string& deleted_name) {
  in_transaction([&](SqlConnection& db) {
    db.rows("UPDATE seats SET name = $2 WHERE token IN (SELECT token_hash FROM seat_claims WHERE account = $1) "
            "AND table_id IN (SELECT id FROM game_tables WHERE state = 'finished')",
            {account, deleted_name});
    // A seat played for it (it may have left the game, its token then changed) keeps its name where it is
    // finished, but no longer the account.
    db.rows("UPDATE seats SET name = CASE WHEN table_id IN (SELECT id FROM game_tables WHERE state = 'finished') "
            "THEN $2 ELSE name END, account = NULL WHERE account = $1",
            {account, deleted_name});
    // A challenge names the account it is for, not one that must exist (a sign-up's names the account to be).
    db.rows("DELETE FROM challenges WHERE account = $1", {account});
    // Its passkeys, sessions, sign-ins, seat claims, chat lines, ratings, rating updates and games' results go with
    // it (ON DELETE CASCADE).
    db.rows("DELETE FROM accounts WHERE id = $1", {account});
  });
}

namespace {
constexpr const char* kMailSettingsColumns =
    "account, address, pending, language, your_turn, turn_delay_minutes, game_over, invited, low_clock, digest, "
    "updated_at";
MailSettingsRow mail_settings_row(const SqlRow& r) {
  return {r.text(0), r.text(1), r.text(2), r.text(3), r.integer(4) != 0, static_cast<int>(r.integer(5)),
          r.integer(6) != 0, r.integer(7) != 0, r.integer(8) != 0, r.integer(9) != 0, r.integer(10)};
}
// "Your turn" marks are kept long enough to outlast any game's wait for one player (a vacation included).
constexpr long long kMailsSentKeptFor = 365LL * 24 * 3600;
}  // namespace

PeopleStore::GameLoad SqlPeopleStore::game_load(const std::string& account, int correspondence_turn_s) {
  GameLoad load;
  // The clock is stored as JSON ({"turn","reserve"}), read here rather than in either dialect's JSON functions.
  for (const auto& row : run("SELECT t.clock FROM seats s JOIN game_tables t ON t.id = s.table_id "
                             "WHERE s.account = $1 AND t.state IN ('waiting', 'playing') AND t.clock IS NOT NULL",
                             {account})) {
    const auto clock = nlohmann::json::parse(row.text(0), nullptr, false);
    if (clock.is_object() && clock.value("turn", 0) >= correspondence_turn_s) ++load.correspondence;
  }
  load.finished = run("SELECT count(*) FROM game_results WHERE account = $1", {account}).at(0).integer(0);
  return load;
}

std::optional<MailSettingsRow> SqlPeopleStore::mail_settings(const std::string& account) {
  return read_first(run(select_from(kMailSettingsColumns, "mail_settings WHERE account = $1"), {account}),
                    mail_settings_row);
}

void SqlPeopleStore::put_mail_settings(const MailSettingsRow& m) {
  auto flag = [](bool b) { return static_cast<long long>(b); };
  run("INSERT INTO mail_settings (account, address, pending, language, your_turn, turn_delay_minutes, game_over, "
      "invited, low_clock, digest, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) "
      "ON CONFLICT (account) DO UPDATE SET address = excluded.address, pending = excluded.pending, "
      "language = excluded.language, your_turn = excluded.your_turn, turn_delay_minutes = excluded.turn_delay_minutes, "
      "game_over = excluded.game_over, invited = excluded.invited, low_clock = excluded.low_clock, "
      "digest = excluded.digest, updated_at = excluded.updated_at",
      {m.account, text_or_null(m.address), text_or_null(m.pending), m.language, flag(m.your_turn),
       static_cast<long long>(m.turn_delay_minutes), flag(m.game_over), flag(m.invited), flag(m.low_clock),
       flag(m.digest), m.updated_at});
}

bool SqlPeopleStore::confirm_mail_address(const std::string& account, const std::string& address, long long at) {
  return !run("UPDATE mail_settings SET address = pending, pending = NULL, updated_at = $3 "
              "WHERE account = $1 AND pending = $2 RETURNING account",
              {account, address, at})
              .empty();
}

bool SqlPeopleStore::mark_mail_sent(const std::string& account, const std::string& table_id, const std::string& kind,
                                    long long mark, long long at) {
  return !run("INSERT INTO mails_sent (account, table_id, kind, mark, at) VALUES ($1, $2, $3, $4, $5) "
              "ON CONFLICT DO NOTHING RETURNING account",
              {account, table_id, kind, mark, at})
              .empty();
}

std::string SqlPeopleStore::server_key(const std::string& name, const std::string& fresh, long long at) {
  run("INSERT INTO server_keys (name, secret, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING",
      {name, fresh, at});
  return run("SELECT secret FROM server_keys WHERE name = $1", {name}).at(0).text(0);
}

namespace {
VacationRow vacation_row(const SqlRow& r) { return {r.text(0), r.integer(1), r.integer(2)}; }
}  // namespace

std::vector<VacationRow> SqlPeopleStore::vacations_of(const std::string& account, long long since) {
  return read_all(run("SELECT account, starts_at, ends_at FROM vacations WHERE account = $1 AND ends_at > $2 "
                      "ORDER BY starts_at",
                      {account, since}),
                  vacation_row);
}

bool SqlPeopleStore::start_vacation(const VacationRow& v) {
  // The casts type the parameters for PostgreSQL, which reads a bare parameter in a select list as text.
  return !run("INSERT INTO vacations (account, starts_at, ends_at) SELECT $1, CAST($2 AS BIGINT), "
              "CAST($3 AS BIGINT) WHERE NOT EXISTS "
              "(SELECT 1 FROM vacations WHERE account = $1 AND starts_at <= $2 AND ends_at > $2) RETURNING account",
              {v.account, v.starts_at, v.ends_at})
              .empty();
}

bool SqlPeopleStore::end_vacation(const std::string& account, long long at) {
  return !run("UPDATE vacations SET ends_at = $2 WHERE account = $1 AND starts_at <= $2 AND ends_at > $2 "
              "RETURNING account",
              {account, at})
              .empty();
}

std::map<std::string, long long> SqlPeopleStore::vacations_until(const std::vector<std::string>& accounts,
                                                                 long long now) {
  std::map<std::string, long long> until;
  std::lock_guard hold(mutex_);
  for (const auto& account : accounts) {
    for (const auto& r : sql().rows("SELECT ends_at FROM vacations WHERE account = $1 AND starts_at <= $2 AND "
                                    "ends_at > $2",
                                    {account, now})) {
      until[account] = r.integer(0);
    }
  }
  return until;
}

std::size_t SqlPeopleStore::delete_expired(long long now) {
  std::size_t deleted = 0;
  in_transaction([&](SqlConnection& db) {
    deleted += db.rows("DELETE FROM sessions WHERE expires_at <= $1 RETURNING id_hash", {now}).size();
    deleted += db.rows("DELETE FROM challenges WHERE expires_at <= $1 RETURNING challenge", {now}).size();
    deleted += db.rows("DELETE FROM sign_ins WHERE account IS NULL AND at < $1 RETURNING id",
                       {now - kUnknownNameSignInsKeptFor})
                   .size();
    deleted += db.rows("DELETE FROM mails_sent WHERE at < $1 RETURNING account", {now - kMailsSentKeptFor}).size();
  });
  return deleted;
}

SqlitePeopleStore::SqlitePeopleStore(const std::string& data_dir) : db_(open_database(database_file(data_dir))) {}

SqlitePeopleStore::~SqlitePeopleStore() { sqlite3_close(db_); }

PostgresPeopleStore::PostgresPeopleStore(const std::string& uri) : db_(uri) { schema::migrate(connection_); }

}  // namespace emporium::server
