// The people store suite (store/people_store.hpp): every test runs against both stores, SQLite in a temporary
// directory and PostgreSQL (a database of its own in a server this process starts: postgres_local.hpp), as the
// store suite does. Few tests, each a whole topic: each PostgreSQL test starts a server of its own.
#include <gtest/gtest.h>

#include <map>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <thread>

#include "common/secrets.hpp"
#include "common/wall_clock.hpp"
#include "postgres_local.hpp"
#include "store/open_store.hpp"
#include "store/people_store.hpp"
#include "store/pg_connection.hpp"
#include "store/schema.hpp"
#include "store/sql_people_store.hpp"
#include "store/sqlite_connection.hpp"
#include "store/stored_rows.hpp"

using namespace emporium::server;

namespace {

// A connection of the test's own to a store's database, without a store: to load a fixture, and to see what the
// stores' calls do not show.
class RawDatabase {
 public:
  explicit RawDatabase(const std::string& setting) {
    if (setting.starts_with("sqlite:")) {
      sqlite_ = open_connection(database_file(setting.substr(7)));
      sql_ = std::make_unique<SqliteConnection>(sqlite_);
    } else {
      pg_ = std::make_unique<PgConnection>(setting);
      sql_ = std::make_unique<PgSqlConnection>(*pg_);
    }
  }
  ~RawDatabase() {
    sql_.reset();
    sqlite3_close(sqlite_);
  }
  SqlConnection& sql() { return *sql_; }
  long long number(const std::string& query, const std::vector<SqlValue>& params = {}) {
    return sql_->rows(query, params).at(0).integer(0);
  }
  // Every row of every table either store keeps, as text: what a change to any of them would show.
  std::string contents() {
    std::string all;
    for (const char* table : {"schema_version", "game_tables", "seats", "actions", "accounts", "passkeys", "sessions",
                              "sign_ins", "challenges", "seat_claims", "chat_lines", "ratings", "rating_updates",
                              "game_results", "friend_requests", "friendships", "blocks", "invitations", "presence",
                              "reports", "moderation_actions", "mail_settings", "mails_sent", "server_keys",
                              "vacations", "push_subscriptions", "analyses"}) {
      all += std::string(table) + ":\n";
      for (const auto& row : sql_->rows(std::string("SELECT * FROM ") + table + " ORDER BY 1, 2")) {
        for (const auto& column : row.columns) all += column + "|";
        all += "\n";
      }
    }
    return all;
  }

 private:
  sqlite3* sqlite_ = nullptr;
  std::unique_ptr<PgConnection> pg_;
  std::unique_ptr<SqlConnection> sql_;
};

class PeopleStoreSuite : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "sqlite") {
      // One directory (the test's name ends in "/sqlite"), so that removing it leaves nothing behind.
      std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
      std::replace(test.begin(), test.end(), '/', '-');
      dir_ = std::filesystem::temp_directory_path() / ("emporium-people-" + std::to_string(::getpid()) + "-" + test);
      std::filesystem::remove_all(dir_);
      setting_ = "sqlite:" + dir_.string();
    } else {
      EMPORIUM_NEED_POSTGRES(pg);
      setting_ = pg->new_database();
    }
  }
  void TearDown() override {
    close_stores();
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  // The stores as the server opens them, on first use.
  PeopleStore& people() {
    if (!people_) people_ = open_people_store(setting_);
    return *people_;
  }
  Store& game() {
    if (!game_) game_ = open_store(setting_);
    return *game_;
  }
  void close_stores() {
    people_.reset();
    game_.reset();
  }

  std::string setting_;
  std::filesystem::path dir_;
  std::unique_ptr<PeopleStore> people_;
  std::unique_ptr<Store> game_;
};

AccountRow account_named(const std::string& id, const std::string& name) {
  return {id, name, "key:" + name, "", 1000};
}

// A table of the game store, one seat per name; a seat's token is "<table>/<seat>" (the store keeps its hash).
StoredTable game_table(const std::string& id, TableState state, const std::vector<std::string>& names) {
  StoredTable t;
  t.id = id;
  t.game = "medici";
  t.players = static_cast<int>(names.size());
  t.seed = emporium::engine::Seed(1, 2);
  t.state = state;
  for (std::size_t s = 0; s < names.size(); ++s) {
    t.seats.push_back({static_cast<int>(s), names[s], hash_token(id + "/" + std::to_string(s)), "", StandIn::none, ""});
  }
  return t;
}
std::string seat_hash(const std::string& table, int seat) { return hash_token(table + "/" + std::to_string(seat)); }

TEST_P(PeopleStoreSuite, AccountsAndTheirPasskeys) {
  auto& db = people();
  EXPECT_TRUE(db.create_account({"A1", "Ann", "ann", "hash-1", 1000}, std::nullopt));
  // A name's key is one account's: "ANN" is Ann's name too.
  EXPECT_FALSE(db.create_account({"A2", "ANN", "ann", "", 1001}, std::nullopt));
  EXPECT_FALSE(db.account("A2"));
  const auto ann = db.account("A1");
  ASSERT_TRUE(ann);
  EXPECT_EQ(ann->name, "Ann");
  EXPECT_EQ(ann->name_key, "ann");
  EXPECT_EQ(ann->password_hash, "hash-1");
  EXPECT_EQ(ann->created_at, 1000);
  EXPECT_EQ(db.account_by_name_key("ann")->id, "A1");
  EXPECT_FALSE(db.account_by_name_key("bo"));
  db.set_password("A1", "");
  EXPECT_EQ(db.account("A1")->password_hash, "");
  db.set_password("A1", "hash-2");
  EXPECT_EQ(db.account("A1")->password_hash, "hash-2");

  // A sign-up with a passkey stores both, or neither: a passkey id stored already takes the new account down too.
  EXPECT_TRUE(db.create_account({"B1", "Bo", "bo", "", 1002},
                                PasskeyRow{"cred-1", "B1", "cose-1", "Phone", -7, 3, 1002, 1002}));
  EXPECT_FALSE(db.create_account({"C1", "Cy", "cy", "", 1003},
                                 PasskeyRow{"cred-1", "C1", "cose-x", "Key", -8, 0, 1003, 1003}));
  EXPECT_FALSE(db.account("C1"));
  EXPECT_FALSE(db.account_by_name_key("cy"));
  const auto phone = db.passkey("cred-1");
  ASSERT_TRUE(phone);
  EXPECT_EQ(phone->account, "B1");
  EXPECT_EQ(phone->public_key, "cose-1");
  EXPECT_EQ(phone->label, "Phone");
  EXPECT_EQ(phone->alg, -7);
  EXPECT_EQ(phone->sign_count, 3u);
  EXPECT_EQ(phone->created_at, 1002);

  // A credential id is stored once, whoever adds it.
  EXPECT_TRUE(db.add_passkey({"cred-2", "B1", "cose-2", "Laptop", -8, 0, 1004, 0}));
  EXPECT_FALSE(db.add_passkey({"cred-2", "A1", "cose-y", "Mine", -7, 0, 1005, 0}));
  const auto bos = db.passkeys_of("B1");
  ASSERT_EQ(bos.size(), 2u);
  EXPECT_EQ(bos[0].id, "cred-1");
  EXPECT_EQ(bos[1].id, "cred-2");
  EXPECT_TRUE(db.passkeys_of("A1").empty());

  // The counter is compare-and-set: of two assertions made at one count, the second loses.
  EXPECT_FALSE(db.use_passkey("cred-1", 2, 4, 1010));
  EXPECT_TRUE(db.use_passkey("cred-1", 3, 4, 1010));
  EXPECT_FALSE(db.use_passkey("cred-1", 3, 5, 1011));
  EXPECT_EQ(db.passkey("cred-1")->sign_count, 4u);
  EXPECT_EQ(db.passkey("cred-1")->last_used_at, 1010);
  EXPECT_TRUE(db.use_passkey("cred-2", 0, 4294967295u, 1012));  // the whole range of the authenticator's counter
  EXPECT_EQ(db.passkey("cred-2")->sign_count, 4294967295u);
  // Two connections racing on one counter: each count is used once.
  auto other = open_people_store(setting_);
  std::atomic<std::uint32_t> used{0};
  const auto race = [&](PeopleStore* store) {
    for (int i = 0; i < 100; ++i) {
      const auto count = store->passkey("cred-1")->sign_count;
      if (store->use_passkey("cred-1", count, count + 1, 2000)) ++used;
    }
  };
  std::thread first(race, &db), second(race, other.get());
  first.join();
  second.join();
  EXPECT_GE(used.load(), 100u);
  EXPECT_EQ(db.passkey("cred-1")->sign_count, 4u + used.load());

  // Renaming and removing touch only the account's own.
  EXPECT_FALSE(db.rename_passkey("A1", "cred-2", "Stolen"));
  EXPECT_TRUE(db.rename_passkey("B1", "cred-2", "Work laptop"));
  EXPECT_EQ(db.passkey("cred-2")->label, "Work laptop");
  using Removal = PeopleStore::Removal;
  EXPECT_EQ(db.remove_passkey("A1", "cred-2"), Removal::no_such_passkey);
  EXPECT_EQ(db.remove_passkey("B1", "cred-2"), Removal::removed);
  EXPECT_FALSE(db.passkey("cred-2"));
  EXPECT_EQ(db.remove_passkey("B1", "cred-2"), Removal::no_such_passkey);
  // The last way to sign in stays: the only passkey of an account without a password; with one, it may go.
  EXPECT_EQ(db.remove_passkey("B1", "cred-1"), Removal::last_sign_in_method);
  EXPECT_TRUE(db.passkey("cred-1"));
  db.set_password("B1", "hash-b");
  EXPECT_EQ(db.remove_passkey("B1", "cred-1"), Removal::removed);
  EXPECT_TRUE(db.passkeys_of("B1").empty());
}

// Two removals at once of a passwordless account's two passkeys, on two connections: one passes, the other finds
// the passkey left the last way to sign in.
TEST_P(PeopleStoreSuite, TwoRemovalsAtOnceLeaveTheLastPasskey) {
  auto& db = people();
  auto other = open_people_store(setting_);
  using Removal = PeopleStore::Removal;
  for (int round = 0; round < 20; ++round) {
    const std::string account = "R" + std::to_string(round);
    ASSERT_TRUE(db.create_account({account, account, account, "", 1},
                                  PasskeyRow{account + "-a", account, "k", "A", -7, 0, 1, 1}));
    ASSERT_TRUE(db.add_passkey({account + "-b", account, "k", "B", -7, 0, 1, 1}));
    std::atomic<int> waiting{2};
    Removal removals[2];
    const auto remove = [&](PeopleStore* store, const std::string& id, Removal* removal) {
      for (--waiting; waiting > 0;) {
      }
      *removal = store->remove_passkey(account, id);
    };
    std::thread first(remove, &db, account + "-a", &removals[0]), second(remove, other.get(), account + "-b", &removals[1]);
    first.join();
    second.join();
    EXPECT_EQ(std::count(std::begin(removals), std::end(removals), Removal::removed), 1) << "round " << round;
    EXPECT_EQ(std::count(std::begin(removals), std::end(removals), Removal::last_sign_in_method), 1);
    EXPECT_EQ(db.passkeys_of(account).size(), 1u);
  }
}

TEST_P(PeopleStoreSuite, SessionsLiveUntilTheyExpireOrAreSignedOut) {
  auto& db = people();
  ASSERT_TRUE(db.create_account(account_named("A1", "Ann"), std::nullopt));
  ASSERT_TRUE(db.create_account(account_named("B1", "Bo"), std::nullopt));
  db.create_session({"h1", "p1", "A1", "Firefox on Linux", 100, 110, 1000});
  db.create_session({"h2", "p2", "A1", "Safari on iOS", 200, 200, 2000});
  db.create_session({"h3", "p3", "A1", "Old phone", 50, 50, 150});
  db.create_session({"h4", "p4", "B1", "Chrome on Windows", 300, 300, 3000});
  const auto h1 = db.session("h1");
  ASSERT_TRUE(h1);
  EXPECT_EQ(h1->public_id, "p1");
  EXPECT_EQ(h1->account, "A1");
  EXPECT_EQ(h1->device, "Firefox on Linux");
  EXPECT_EQ(h1->created_at, 100);
  EXPECT_EQ(h1->last_seen_at, 110);
  EXPECT_EQ(h1->expires_at, 1000);
  EXPECT_FALSE(db.session("nope"));
  // The account's live ones, newest first.
  const auto live = db.sessions_of("A1", 500);
  ASSERT_EQ(live.size(), 2u);
  EXPECT_EQ(live[0].id_hash, "h2");
  EXPECT_EQ(live[1].id_hash, "h1");
  db.touch_session("h1", 600, 5000);
  EXPECT_EQ(db.session("h1")->last_seen_at, 600);
  EXPECT_EQ(db.session("h1")->expires_at, 5000);

  // Signing one out by its public id: only the account's own.
  EXPECT_FALSE(db.delete_session_by_public_id("A1", "p4"));
  EXPECT_TRUE(db.session("h4"));
  EXPECT_TRUE(db.delete_session_by_public_id("A1", "p2"));
  EXPECT_FALSE(db.session("h2"));
  EXPECT_TRUE(db.delete_session("h1"));
  EXPECT_FALSE(db.delete_session("h1"));

  // What is past its time goes, sessions and challenges alike; the rest stays.
  db.put_challenge({"c-old", "sign_in", "", 150});
  db.put_challenge({"c-live", "sign_in", "", 5000});
  EXPECT_EQ(db.delete_expired(500), 2u);
  EXPECT_FALSE(db.session("h3"));
  EXPECT_TRUE(db.session("h4"));
  EXPECT_TRUE(db.take_challenge("c-live", 500));

  // Signing out everywhere: every session of the account, and only its.
  db.create_session({"h5", "p5", "A1", "a", 700, 700, 9000});
  db.create_session({"h6", "p6", "A1", "b", 800, 800, 9000});
  EXPECT_EQ(db.delete_sessions_of("A1"), 2u);
  EXPECT_TRUE(db.sessions_of("A1", 0).empty());
  EXPECT_EQ(db.sessions_of("B1", 0).size(), 1u);
}

TEST_P(PeopleStoreSuite, SignInsAreKeptAndCountedForTheLimits) {
  auto& db = people();
  ASSERT_TRUE(db.create_account(account_named("A1", "Ann"), std::nullopt));
  ASSERT_TRUE(db.create_account(account_named("B1", "Bo"), std::nullopt));
  for (int i = 0; i < 105; ++i) {
    db.record_sign_in(
        {"A1", i % 2 ? "passkey" : "password", "device " + std::to_string(i), "10.0.0.1", i % 3 == 0, 1000 + i});
  }
  // The newest 100 of an account's, newest first.
  const auto kept = db.sign_ins_of("A1", 1000);
  ASSERT_EQ(kept.size(), 100u);
  EXPECT_EQ(kept.front().at, 1104);
  EXPECT_EQ(kept.back().at, 1005);
  const auto last = db.sign_ins_of("A1", 2);
  ASSERT_EQ(last.size(), 2u);
  EXPECT_EQ(last[0].account, "A1");
  EXPECT_EQ(last[0].method, "password");
  EXPECT_EQ(last[0].device, "device 104");
  EXPECT_EQ(last[0].address, "10.0.0.1");
  EXPECT_FALSE(last[0].ok);
  EXPECT_TRUE(kept[2].ok);  // 102
  std::size_t failed_kept = 0;
  for (int i = 5; i < 105; ++i) failed_kept += i % 3 != 0;
  EXPECT_EQ(db.failures_since("A1", 0), failed_kept);
  EXPECT_EQ(db.failures_since("A1", 1102), 2u);  // 103 and 104

  // Failures count by account and by address, those on names no account has included (they are nobody's).
  db.record_sign_in({"", "password", "d", "10.0.0.2", false, 2000});
  db.record_sign_in({"", "password", "d", "10.0.0.2", false, 2000});
  db.record_sign_in({"B1", "password", "d", "10.0.0.2", false, 2001});
  db.record_sign_in({"B1", "password", "d", "10.0.0.2", true, 2002});
  EXPECT_EQ(db.failures_since("B1", 2000), 1u);
  EXPECT_EQ(db.failures_since("B1", 2002), 0u);
  EXPECT_EQ(db.failures_from("10.0.0.2", 2000), 3u);
  EXPECT_EQ(db.failures_from("10.0.0.2", 2001), 1u);
  EXPECT_TRUE(db.sign_ins_of("", 10).empty());
  EXPECT_EQ(db.sign_ins_of("B1", 10).size(), 2u);  // the cap is each account's
  // A day on, the unknown names' are gone; the accounts' stay.
  EXPECT_EQ(db.delete_expired(2000 + 24 * 3600 + 1), 2u);
  EXPECT_EQ(db.failures_from("10.0.0.2", 0), 1u);
  EXPECT_EQ(db.sign_ins_of("A1", 1000).size(), 100u);
}

TEST_P(PeopleStoreSuite, AChallengeAnswersOnce) {
  auto& db = people();
  db.put_challenge({"ch-1", "sign_in", "", 1000});
  db.put_challenge({"ch-2", "add", "A1", 1000});
  db.put_challenge({"ch-3", "sign_up", "NEW1", 500});
  const auto add = db.take_challenge("ch-2", 900);
  ASSERT_TRUE(add);
  EXPECT_EQ(add->challenge, "ch-2");
  EXPECT_EQ(add->purpose, "add");
  EXPECT_EQ(add->account, "A1");
  EXPECT_EQ(add->expires_at, 1000);
  EXPECT_FALSE(db.take_challenge("ch-2", 900));
  // An expired one answers nothing, and is gone.
  EXPECT_FALSE(db.take_challenge("ch-3", 900));
  EXPECT_FALSE(db.take_challenge("ch-3", 0));
  EXPECT_FALSE(db.take_challenge("nope", 0));
  EXPECT_EQ(db.take_challenge("ch-1", 999)->account, "");
  // A challenge is put once.
  db.put_challenge({"ch-4", "sign_in", "", 1000});
  try {
    db.put_challenge({"ch-4", "sign_in", "", 2000});
    ADD_FAILURE() << "a challenge was put twice";
  } catch (const StoreError& e) {
    EXPECT_EQ(e.kind(), StoreError::Kind::conflict) << e.what();
  }

  // Two connections taking the same challenges at once: each is taken once.
  for (int i = 0; i < 50; ++i) db.put_challenge({"race-" + std::to_string(i), "sign_in", "", 5000});
  auto other = open_people_store(setting_);
  std::atomic<int> taken{0};
  const auto take_all = [&](PeopleStore* store) {
    for (int i = 0; i < 50; ++i) taken += store->take_challenge("race-" + std::to_string(i), 100) ? 1 : 0;
  };
  std::thread first(take_all, &db), second(take_all, other.get());
  first.join();
  second.join();
  EXPECT_EQ(taken.load(), 50);
}

TEST_P(PeopleStoreSuite, SeatClaimsAndDeletingAnAccount) {
  auto& db = people();
  game().create_table(game_table("FIN", TableState::finished, {"Ann", "Bo"}));
  game().create_table(game_table("RUN", TableState::playing, {"Ann", "Bo"}));
  game().create_table(game_table("GONE", TableState::waiting, {"Ann"}));
  ASSERT_TRUE(db.create_account(account_named("A1", "Ann"), PasskeyRow{"cred-a", "A1", "k", "Phone", -7, 0, 1, 1}));
  ASSERT_TRUE(db.create_account(account_named("B1", "Bo"), PasskeyRow{"cred-b", "B1", "k", "Phone", -7, 0, 1, 1}));

  // Claims are made on seats that exist, for their table.
  const auto made = db.claim_seats("A1", {seat_hash("FIN", 0), seat_hash("RUN", 0), seat_hash("GONE", 0),
                                          seat_hash("NOWHERE", 0)}, 100);
  ASSERT_EQ(made.size(), 3u);
  EXPECT_EQ(made[0].token_hash, seat_hash("FIN", 0));
  EXPECT_EQ(made[0].account, "A1");
  EXPECT_EQ(made[0].table_id, "FIN");
  EXPECT_EQ(made[0].claimed_at, 100);
  EXPECT_EQ(made[1].table_id, "RUN");
  // Claiming again keeps the claim as it was; a seat another account claimed stays theirs.
  const auto again = db.claim_seats("A1", {seat_hash("FIN", 0)}, 200);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].claimed_at, 100);
  const auto bos = db.claim_seats("B1", {seat_hash("FIN", 0), seat_hash("FIN", 1), seat_hash("RUN", 1)}, 300);
  ASSERT_EQ(bos.size(), 2u);
  EXPECT_EQ(bos[0].token_hash, seat_hash("FIN", 1));
  EXPECT_EQ(db.account_of_seat(seat_hash("FIN", 0)), "A1");
  EXPECT_EQ(db.account_of_seat(seat_hash("FIN", 1)), "B1");
  EXPECT_FALSE(db.account_of_seat(seat_hash("NOWHERE", 0)));
  // A claim lasts as long as its seat.
  game().delete_table("GONE");
  std::set<std::string> claimed;
  for (const auto& claim : db.claims_of("A1")) claimed.insert(claim.table_id);
  EXPECT_EQ(claimed, (std::set<std::string>{"FIN", "RUN"}));
  EXPECT_FALSE(db.account_of_seat(seat_hash("GONE", 0)));

  // Everything else an account has, for both.
  for (const auto& account : std::vector<std::string>{"A1", "B1"}) {
    db.create_session({"session-" + account, "public-" + account, account, "Firefox", 100, 100, 9000});
    db.record_sign_in({account, "passkey", "Firefox", "10.0.0.1", true, 100});
    db.record_sign_in({account, "password", "Firefox", "10.0.0.1", false, 101});
    db.put_challenge({"challenge-" + account, "add", account, 9000});
    db.record_chat({account, "FIN", "good game, from " + account, 150});
  }
  db.record_chat({"A1", "RUN", "again?", 160});
  const auto chat = db.chat_of("A1");
  ASSERT_EQ(chat.size(), 2u);
  EXPECT_EQ(chat[0].table_id, "FIN");
  EXPECT_EQ(chat[0].text, "good game, from A1");
  EXPECT_EQ(chat[0].at, 150);
  EXPECT_EQ(chat[1].text, "again?");

  db.delete_account("A1", "deleted player");
  // Its finished tables' seats are renamed; a running table's seat is the tables' to hand over, and no other
  // account's seat changes.
  const auto fin = game().load("FIN", false);
  EXPECT_EQ(fin->seats[0].name, "deleted player");
  EXPECT_EQ(fin->seats[1].name, "Bo");
  EXPECT_EQ(game().load("RUN", false)->seats[0].name, "Ann");
  // Nothing of the account is left.
  EXPECT_FALSE(db.account("A1"));
  EXPECT_FALSE(db.passkey("cred-a"));
  EXPECT_FALSE(db.session("session-A1"));
  EXPECT_FALSE(db.take_challenge("challenge-A1", 0));
  EXPECT_FALSE(db.account_of_seat(seat_hash("FIN", 0)));
  RawDatabase raw(setting_);
  EXPECT_EQ(raw.number("SELECT count(*) FROM accounts WHERE id = $1", {"A1"}), 0);
  for (const char* table : {"passkeys", "sessions", "sign_ins", "challenges", "seat_claims", "chat_lines"}) {
    EXPECT_EQ(raw.number(std::string("SELECT count(*) FROM ") + table + " WHERE account = $1", {"A1"}), 0) << table;
    EXPECT_GT(raw.number(std::string("SELECT count(*) FROM ") + table + " WHERE account = $1", {"B1"}), 0) << table;
  }
  // Bo's account is whole, and Ann's name free again.
  EXPECT_TRUE(db.passkey("cred-b"));
  EXPECT_EQ(db.claims_of("B1").size(), 2u);
  EXPECT_TRUE(db.create_account(account_named("A2", "Ann"), std::nullopt));
}

// Ann's (A1) claims: FIN's seat 0 at 100, GONE's seat 0 at 200 (its table deleted since), RUN's seat 0 at 300; Bo's
// (B1): FIN's seat 1 at 400. FIN is finished, private, with a bot in its third seat.
void claim_three_tables(PeopleStore& db, Store& game) {
  auto fin = game_table("FIN", TableState::finished, {"Ann", "Bo", "Cy"});
  fin.seats[2].bot = "easy";
  fin.is_private = true;
  fin.invite = "INVITE";
  game.create_table(fin);
  game.set_state("FIN", TableState::finished, nlohmann::json{{"scores", {3, 2, 1}}});
  game.create_table(game_table("RUN", TableState::playing, {"Ann", "Bo"}));
  game.create_table(game_table("GONE", TableState::waiting, {"Ann"}));
  EXPECT_TRUE(db.create_account(account_named("A1", "Ann"), std::nullopt));
  EXPECT_TRUE(db.create_account(account_named("B1", "Bo"), std::nullopt));
  db.claim_seats("A1", {seat_hash("FIN", 0)}, 100);
  db.claim_seats("A1", {seat_hash("GONE", 0)}, 200);
  db.claim_seats("A1", {seat_hash("RUN", 0)}, 300);
  db.claim_seats("B1", {seat_hash("FIN", 1)}, 400);
  game.delete_table("GONE");
}

TEST_P(PeopleStoreSuite, AnAccountsClaimAtOneTable) {
  auto& db = people();
  claim_three_tables(db, game());
  // The account's claim at one table; none where it has none, or where its seat is gone.
  ASSERT_TRUE(db.claim_at("A1", "FIN"));
  EXPECT_EQ(db.claim_at("A1", "FIN")->token_hash, seat_hash("FIN", 0));
  EXPECT_EQ(db.claim_at("A1", "FIN")->claimed_at, 100);
  EXPECT_EQ(db.claim_at("B1", "FIN")->token_hash, seat_hash("FIN", 1));
  EXPECT_FALSE(db.claim_at("B1", "RUN"));
  EXPECT_FALSE(db.claim_at("A1", "GONE"));
  EXPECT_FALSE(db.claim_at("A1", "NOWHERE"));
}

// What my_games reads of a stored table (no actions), as one value to compare.
nlohmann::json described(const StoredTable& t) {
  nlohmann::json seats = nlohmann::json::array();
  for (const auto& s : t.seats) {
    seats.push_back({s.seat, s.name, s.token_hash, s.bot, std::string(name_of(s.stand_in)), s.reserved_for});
  }
  return {{"id", t.id},         {"game", t.game},     {"players", t.players}, {"state", std::string(name_of(t.state))},
          {"private", t.is_private}, {"invite", t.invite}, {"result", t.result}, {"updated_at", t.updated_at},
          {"creator_seat", t.creator_seat}, {"rematch", t.rematch}, {"actions", t.actions.size()}, {"seats", seats}};
}

TEST_P(PeopleStoreSuite, AnAccountsNewestClaimsAreReadWithTheirTables) {
  auto& db = people();
  claim_three_tables(db, game());
  // Newest first, each with its table as load() reads it without actions (every seat, others' included).
  const auto claimed = db.claimed_tables("A1", 10);
  ASSERT_EQ(claimed.size(), 2u);
  EXPECT_EQ(claimed[0].token_hash, seat_hash("RUN", 0));
  EXPECT_EQ(claimed[1].token_hash, seat_hash("FIN", 0));
  for (const auto& c : claimed) EXPECT_EQ(described(c.table), described(*game().load(c.table.id, false)));
  EXPECT_EQ(claimed[1].table.seats.size(), 3u);
  const auto newest = db.claimed_tables("A1", 1);
  ASSERT_EQ(newest.size(), 1u);
  EXPECT_EQ(newest[0].table.id, "RUN");
  EXPECT_EQ(db.claimed_tables("B1", 10).size(), 1u);
  EXPECT_TRUE(db.claimed_tables("C1", 10).empty());
}

// A sign-up killed midway (SIGKILL: no destructor, no rollback by the process) leaves a whole account or none.
TEST_P(PeopleStoreSuite, ASignUpKilledMidwayLeavesNoHalfAccount) {
  open_people_store(setting_);  // the schema is made before the first child starts
  for (int round = 0; round < 5; ++round) {
    int ready[2];
    ASSERT_EQ(::pipe(ready), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      // On a connection of its own, sign-ups one after another until killed.
      ::close(ready[0]);
      try {
        auto store = open_people_store(setting_);
        for (long long i = 0;; ++i) {
          const std::string id = "k" + std::to_string(round) + "-" + std::to_string(i);
          store->create_account({id, id, id, "", i}, PasskeyRow{"cred-" + id, id, "key", "Passkey", -7, 0, i, i});
          if (i == 10 && ::write(ready[1], "x", 1) != 1) ::_exit(2);
        }
      } catch (...) {
        ::_exit(1);
      }
    }
    ::close(ready[1]);
    char signing_up = 0;
    ASSERT_EQ(::read(ready[0], &signing_up, 1), 1) << "the child could not sign anyone up";
    ::close(ready[0]);
    std::this_thread::sleep_for(std::chrono::milliseconds(30 + 20 * round));
    ::kill(child, SIGKILL);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the child stopped by itself";
  }
  RawDatabase raw(setting_);
  EXPECT_GT(raw.number("SELECT count(*) FROM accounts"), 5 * 10);
  EXPECT_EQ(raw.number("SELECT count(*) FROM accounts a WHERE NOT EXISTS "
                       "(SELECT 1 FROM passkeys p WHERE p.account = a.id)"),
            0);
}

TEST_P(PeopleStoreSuite, FriendsRequestsBlocksPresenceAndInvitations) {
  auto& db = people();
  for (const auto& [id, name] : std::vector<std::pair<std::string, std::string>>{{"A", "Ann"}, {"B", "Bo"}, {"C", "Cy"}}) {
    ASSERT_TRUE(db.create_account(account_named(id, name), std::nullopt));
  }
  const auto relations = [&](const std::string& account) {
    std::vector<std::string> out;
    for (const auto& r : db.relations_of(account)) out.push_back(r.name + ":" + r.relation);
    return out;
  };
  using V = std::vector<std::string>;

  // A request, seen from both sides; asked back, they are friends and both requests are gone.
  EXPECT_EQ(db.request_friend("A", "B", 10), FriendRequest::sent);
  EXPECT_EQ(db.request_friend("A", "B", 11), FriendRequest::already_requested);
  EXPECT_EQ(db.request_friend("A", "NOBODY", 11), FriendRequest::unknown);
  EXPECT_EQ(relations("A"), (V{"Bo:outgoing"}));
  EXPECT_EQ(relations("B"), (V{"Ann:incoming"}));
  EXPECT_EQ(db.request_friend("B", "A", 12), FriendRequest::became_friends);
  EXPECT_EQ(relations("A"), (V{"Bo:friend"}));
  EXPECT_EQ(relations("B"), (V{"Ann:friend"}));
  EXPECT_EQ(db.request_friend("A", "B", 13), FriendRequest::already_friends);
  EXPECT_EQ(db.relations_of("A").at(0).at, 12);

  // Accepting and declining need a request; removing needs a friendship.
  EXPECT_FALSE(db.accept_friend("C", "A", 20));
  EXPECT_EQ(db.request_friend("C", "A", 20), FriendRequest::sent);
  EXPECT_TRUE(db.delete_friend_request("C", "A"));
  EXPECT_FALSE(db.delete_friend_request("C", "A"));
  EXPECT_EQ(db.request_friend("C", "A", 21), FriendRequest::sent);
  EXPECT_TRUE(db.accept_friend("A", "C", 22));
  EXPECT_EQ(relations("A"), (V{"Bo:friend", "Cy:friend"}));
  EXPECT_TRUE(db.remove_friend("C", "A"));
  EXPECT_FALSE(db.remove_friend("A", "C"));
  EXPECT_EQ(relations("C"), V{});

  // An invitation: open while its table waits and the invitee has no seat there.
  game().create_table(game_table("WAIT", TableState::waiting, {"Ann"}));
  game().create_table(game_table("PLAY", TableState::playing, {"Ann", "Bo"}));
  EXPECT_TRUE(db.add_invitation({"WAIT", "B", "A", 30, {}, {}, {}, 0}));
  EXPECT_FALSE(db.add_invitation({"WAIT", "B", "A", 31, {}, {}, {}, 0}));
  EXPECT_TRUE(db.add_invitation({"PLAY", "B", "A", 32, {}, {}, {}, 0}));
  const auto open = db.invitations_of("B");
  ASSERT_EQ(open.size(), 1u);
  EXPECT_EQ(open[0].table_id, "WAIT");
  EXPECT_EQ(open[0].from_name, "Ann");
  EXPECT_EQ(open[0].game, "medici");
  EXPECT_EQ(open[0].players, 1);
  EXPECT_EQ(db.take_invitation("WAIT", "B"), std::optional<std::string>("A"));
  EXPECT_EQ(db.take_invitation("WAIT", "B"), std::nullopt);
  EXPECT_TRUE(db.add_invitation({"WAIT", "B", "A", 33, {}, {}, {}, 0}));

  // A block ends the friendship, the requests and the invitations between them; the blocked one's request is kept
  // and never shown to the blocker; a request to someone one blocked is refused.
  EXPECT_EQ(db.request_friend("C", "B", 40), FriendRequest::sent);
  EXPECT_TRUE(db.block("B", "A", 41));
  EXPECT_FALSE(db.block("B", "A", 42));
  EXPECT_TRUE(db.invitations_of("B").empty());
  EXPECT_EQ(relations("A"), V{});
  EXPECT_EQ(relations("B"), (V{"Ann:blocked", "Cy:incoming"}));
  EXPECT_EQ(db.blocked_by("A"), V{"B"});
  EXPECT_EQ(db.request_friend("A", "B", 43), FriendRequest::sent);
  EXPECT_EQ(relations("B"), (V{"Ann:blocked", "Cy:incoming"}));
  EXPECT_FALSE(db.accept_friend("B", "A", 44));
  EXPECT_EQ(db.request_friend("B", "A", 45), FriendRequest::you_blocked);
  EXPECT_TRUE(db.unblock("B", "A"));
  EXPECT_FALSE(db.unblock("B", "A"));
  EXPECT_TRUE(db.blocked_by("A").empty());

  // Presence: a row per node; gone with its last connection, the account was last seen then. With several nodes
  // (PostgreSQL) a row counts while its node shows signs of life.
  RawDatabase raw(setting_);
  const bool nodes = !setting_.starts_with("sqlite:");
  if (nodes) {
    raw.sql().rows("INSERT INTO server_alive (node, at_ms) VALUES ('n1', $1), ('n2', $1), ('dead', 1)",
                   {emporium::server::unix_ms_now()});
    db.set_presence({"B", "dead", "online", "", "", 50});
    EXPECT_TRUE(db.presence_of({"B"})[0].nodes.empty()) << "a dead node's row";
    db.clear_node_presence("dead");
  }
  db.set_presence({"A", "n1", "online", "", "", 50});
  db.set_presence({"A", "n2", "playing", "WAIT", "medici", 51});
  db.set_presence({"A", "n1", "playing", "", "", 52});
  auto seen = db.presence_of({"A", "B"});
  ASSERT_EQ(seen.size(), 2u);
  ASSERT_EQ(seen[0].nodes.size(), 2u);
  EXPECT_EQ(seen[0].nodes[0].status, "playing");
  EXPECT_EQ(seen[0].nodes[1].table_id, "WAIT");
  EXPECT_TRUE(seen[1].nodes.empty());
  EXPECT_EQ(seen[1].last_seen_at, 0);
  db.clear_presence("A", "n1", 60);
  db.clear_node_presence("n2");
  seen = db.presence_of({"A"});
  EXPECT_TRUE(seen[0].nodes.empty());
  EXPECT_EQ(seen[0].last_seen_at, 60);

  // A deleted account takes every relation of its own with it.
  db.set_presence({"C", "n1", "online", "", "", 70});
  db.delete_account("C", "deleted player");
  EXPECT_EQ(relations("B"), (V{"Ann:incoming"}));
  for (const char* table : {"friend_requests", "friendships", "blocks", "invitations", "presence"}) {
    EXPECT_EQ(raw.number(std::string("SELECT count(*) FROM ") + table + " WHERE " +
                         (std::string(table) == "friend_requests" ? "from_account = 'C' OR to_account = 'C'"
                          : std::string(table) == "invitations"   ? "account = 'C' OR from_account = 'C'"
                          : std::string(table) == "presence"      ? "account = 'C'"
                                                                  : "account = 'C' OR other = 'C'")),
              0)
        << table;
  }
}

// Mail (docs/mail.md "Storage"): settings replaced whole, an address confirmed only while it is the one waiting, a
// notification marked once, the links' key made once, and all of it gone with the account.
TEST_P(PeopleStoreSuite, VacationsOneAtATimeEndedEarlyAndGoneWithTheAccount) {
  auto& s = people();
  ASSERT_TRUE(s.create_account(account_named("A1", "Ann"), std::nullopt));
  ASSERT_TRUE(s.create_account(account_named("B2", "Bo"), std::nullopt));
  EXPECT_TRUE(s.start_vacation({"A1", 1000, 5000}));
  EXPECT_FALSE(s.start_vacation({"A1", 2000, 3000})) << "one runs then";
  EXPECT_TRUE(s.start_vacation({"B2", 2000, 3000}));
  EXPECT_EQ(s.vacations_until({"A1", "B2", "C3"}, 2500), (std::map<std::string, long long>{{"A1", 5000}, {"B2", 3000}}));
  EXPECT_EQ(s.vacations_until({"A1", "B2"}, 999), (std::map<std::string, long long>{}));
  EXPECT_FALSE(s.end_vacation("B2", 3000)) << "it is over by then";
  EXPECT_TRUE(s.end_vacation("A1", 4000));
  EXPECT_FALSE(s.end_vacation("A1", 4001));
  EXPECT_TRUE(s.start_vacation({"A1", 4001, 9000})) << "the next may begin once it ended";
  const auto rows = s.vacations_of("A1", 0);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].starts_at, 1000);
  EXPECT_EQ(rows[0].ends_at, 4000);
  EXPECT_EQ(rows[1].starts_at, 4001);
  EXPECT_EQ(s.vacations_of("A1", 4000).size(), 1u) << "only those ending after";
  s.delete_account("A1", "deleted player");
  EXPECT_TRUE(s.vacations_of("A1", 0).empty());
}

TEST_P(PeopleStoreSuite, MailSettingsConfirmationsOnceOnlyMarksAndTheLinksKey) {
  auto& s = people();
  ASSERT_TRUE(s.create_account(account_named("A1", "Ann"), std::nullopt));
  EXPECT_FALSE(s.mail_settings("A1"));
  MailSettingsRow m{"A1"};
  m.pending = "ann@example.org";
  m.language = "ja";
  m.turn_delay_minutes = 30;
  m.digest = true;
  m.updated_at = 5;
  s.put_mail_settings(m);
  auto read = s.mail_settings("A1");
  ASSERT_TRUE(read);
  EXPECT_EQ(read->address, "");
  EXPECT_EQ(read->pending, "ann@example.org");
  EXPECT_EQ(read->language, "ja");
  EXPECT_EQ(read->turn_delay_minutes, 30);
  EXPECT_TRUE(read->your_turn && read->game_over && read->invited && read->low_clock && read->digest);
  EXPECT_FALSE(s.confirm_mail_address("A1", "other@example.org", 6)) << "not the address waiting";
  EXPECT_TRUE(s.confirm_mail_address("A1", "ann@example.org", 6));
  EXPECT_FALSE(s.confirm_mail_address("A1", "ann@example.org", 7)) << "confirmed already";
  read = s.mail_settings("A1");
  EXPECT_EQ(read->address, "ann@example.org");
  EXPECT_EQ(read->pending, "");
  read->your_turn = false;
  s.put_mail_settings(*read);
  EXPECT_FALSE(s.mail_settings("A1")->your_turn);

  EXPECT_TRUE(s.mark_mail_sent("A1", "T1", "your_turn", 4, 10));
  EXPECT_FALSE(s.mark_mail_sent("A1", "T1", "your_turn", 4, 11)) << "once per mark";
  EXPECT_TRUE(s.mark_mail_sent("A1", "T1", "your_turn", 9, 12));
  EXPECT_TRUE(s.mark_mail_sent("A1", "T1", "game_over", 0, 12));

  const auto key = s.server_key("mail_links", "first", 1);
  EXPECT_EQ(key, "first");
  EXPECT_EQ(s.server_key("mail_links", "second", 2), "first") << "the first node's key stays";

  s.delete_account("A1", "deleted player");
  EXPECT_FALSE(s.mail_settings("A1"));
  ASSERT_TRUE(s.create_account(account_named("A1", "Ann"), std::nullopt));
  EXPECT_TRUE(s.mark_mail_sent("A1", "T1", "your_turn", 4, 13)) << "the marks went with the account";
}

TEST_P(PeopleStoreSuite, PushSubscriptionsAtMostKeepPerAccountOneAccountPerEndpoint) {
  auto& s = people();
  ASSERT_TRUE(s.create_account(account_named("A1", "Ann"), std::nullopt));
  ASSERT_TRUE(s.create_account(account_named("B1", "Bob"), std::nullopt));
  for (long long i = 1; i <= 4; ++i) {
    s.add_push_subscription({"A1", "https://push.example/" + std::to_string(i), "key" + std::to_string(i), "auth", i}, 3);
  }
  auto subs = s.push_subscriptions("A1");
  ASSERT_EQ(subs.size(), 3u) << "the oldest went";
  EXPECT_EQ(subs[0].endpoint, "https://push.example/2");
  EXPECT_EQ(subs[0].p256dh, "key2");
  EXPECT_EQ(subs[0].auth, "auth");
  EXPECT_EQ(subs[0].created_at, 2);
  EXPECT_EQ(subs[2].endpoint, "https://push.example/4");
  // The same browser signed in to Bob: the endpoint is his now, with its new keys.
  s.add_push_subscription({"B1", "https://push.example/3", "new", "auth2", 9}, 3);
  EXPECT_EQ(s.push_subscriptions("A1").size(), 2u);
  ASSERT_EQ(s.push_subscriptions("B1").size(), 1u);
  EXPECT_EQ(s.push_subscriptions("B1")[0].p256dh, "new");
  EXPECT_FALSE(s.remove_push_subscription("https://push.example/3", "A1")) << "not Ann's any more";
  EXPECT_TRUE(s.remove_push_subscription("https://push.example/3", "B1"));
  EXPECT_FALSE(s.remove_push_subscription("https://push.example/3", "B1"));
  EXPECT_TRUE(s.remove_push_subscription("https://push.example/2", "")) << "by its endpoint alone (a 410)";
  EXPECT_EQ(s.push_subscriptions("A1").size(), 1u);
  s.delete_account("A1", "deleted player");
  EXPECT_TRUE(s.push_subscriptions("A1").empty());
}

INSTANTIATE_TEST_SUITE_P(BothStores, PeopleStoreSuite, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& info) { return info.param; });

// Databases made before versions (tests/server/fixtures/store-v1.*.sql: a few tables a server of the last main
// before versions stored, dumped with sqlite3's .dump and pg_dump --no-owner --inserts).
class Migration : public PeopleStoreSuite {
 protected:
  std::string fixture() const {
    std::ifstream in(std::string(EMPORIUM_SOURCE_DIR) + "/tests/server/fixtures/store-v1." +
                     (GetParam() == "sqlite" ? "sqlite" : "postgres") + ".sql");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  // Into the database no store has opened yet, on a connection of its own (a dump may change its session).
  void load_fixture() {
    std::string sql;
    std::istringstream lines(fixture());
    // Not psql's meta-commands (\restrict, of newer pg_dumps).
    for (std::string line; std::getline(lines, line);) {
      if (!line.starts_with("\\")) sql += line + "\n";
    }
    ASSERT_NE(sql.find("CREATE TABLE"), std::string::npos);
    RawDatabase(setting_).sql().script(sql);
  }
};

TEST_P(Migration, ADatabaseOfTheLastMainComesUpToDateOnceAndOneOfANewerServerIsRefused) {
  ASSERT_EQ(fixture().find("schema_version"), std::string::npos);
  load_fixture();
  RawDatabase raw(setting_);
  const auto tables = raw.sql().rows(
      "SELECT t.id, t.state, t.result, t.invite, (SELECT count(*) FROM actions a WHERE a.table_id = t.id) "
      "FROM game_tables t ORDER BY t.id");
  const auto seats =
      raw.sql().rows("SELECT table_id, seat, name, token, reserved_for FROM seats ORDER BY table_id, seat");
  ASSERT_EQ(tables.size(), 4u);  // a finished game, its rematch, a private timed table, a game in play
  ASSERT_EQ(seats.size(), 8u);

  // The old tables read back as before.
  for (const auto& row : tables) {
    const auto t = game().load(row.text(0));
    ASSERT_TRUE(t) << row.text(0);
    EXPECT_EQ(name_of(t->state), row.text(1));
    EXPECT_EQ(t->result, stored_rows::json_or_null(row.text(2)));
    EXPECT_EQ(static_cast<long long>(t->actions.size()), row.integer(4));
    if (!row.text(3).empty()) {
      EXPECT_EQ(game().table_of_invite(row.text(3)), t->id);
    }
  }
  for (const auto& row : seats) {
    const auto t = game().load(row.text(0), false);
    const auto& seat = t->seats.at(static_cast<std::size_t>(row.integer(1)));
    EXPECT_EQ(seat.name, row.text(2));
    EXPECT_EQ(seat.reserved_for, row.text(4));
    if (row.text(4).empty()) {
      EXPECT_EQ(game().table_of_token(row.text(3)), row.text(0));
    }
  }
  EXPECT_EQ(game().load_unfinished([](std::size_t, StoredTable&&) {}), 3u);
  // It is at the newest version, each migration applied once.
  const auto versions = raw.sql().rows("SELECT version FROM schema_version ORDER BY version");
  ASSERT_EQ(static_cast<int>(versions.size()), schema::newest_version());
  for (int v = 1; v <= schema::newest_version(); ++v) {
    EXPECT_EQ(versions[static_cast<std::size_t>(v - 1)].integer(0), v);
  }

  // The people tables work beside the old ones: a claim on the finished game's seat, renamed with its account.
  std::string finished, finished_token;
  for (const auto& row : tables) {
    if (row.text(1) == "finished") finished = row.text(0);
  }
  for (const auto& row : seats) {
    if (row.text(0) == finished && row.integer(1) == 0) finished_token = row.text(3);
  }
  ASSERT_TRUE(people().create_account(account_named("A1", "Ann"), std::nullopt));
  ASSERT_EQ(people().claim_seats("A1", {finished_token}, 100).size(), 1u);
  people().delete_account("A1", "deleted player");
  EXPECT_EQ(game().load(finished, false)->seats[0].name, "deleted player");

  // Opening it again changes nothing.
  const auto before = raw.contents();
  close_stores();
  game();
  people();
  EXPECT_EQ(raw.contents(), before);

  // A database a newer server has migrated is refused by this one, and left as it is.
  close_stores();
  raw.sql().rows("INSERT INTO schema_version (version, applied_at) VALUES ($1, $2)",
                 {static_cast<long long>(schema::newest_version() + 1), 0LL});
  const auto newer = raw.contents();
  EXPECT_THROW(open_store(setting_), StoreError);
  EXPECT_THROW(open_people_store(setting_), StoreError);
  EXPECT_EQ(raw.contents(), newer);
}

INSTANTIATE_TEST_SUITE_P(BothStores, Migration, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& info) { return info.param; });

TEST(OpenPeopleStore, NamesTheStoreBySetting) {
  const auto dir = std::filesystem::temp_directory_path() / ("emporium-open-people-" + std::to_string(::getpid()));
  EXPECT_TRUE(dynamic_cast<SqlitePeopleStore*>(open_people_store("sqlite:" + dir.string()).get()));
  std::filesystem::remove_all(dir);
  EXPECT_THROW(open_people_store("mysql://x"), std::invalid_argument);
  EXPECT_THROW(open_people_store("sqlite:"), std::invalid_argument);
}

}  // namespace
