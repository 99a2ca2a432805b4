// The store suite: every test runs against both stores, SQLite in a temporary directory and PostgreSQL (a database
// of its own in a server this process starts: postgres_local.hpp). What the server relies on, said once for both.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <future>
#include <memory>
#include <thread>
#include <unistd.h>

#include "store/commit_queue.hpp"
#include "postgres_local.hpp"
#include "store/open_store.hpp"
#include "store/postgres_store.hpp"
#include "store/sqlite_store.hpp"
#include "cluster/table_leases.hpp"

using namespace emporium::server;
using nlohmann::json;

namespace {

class StoreSuite : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "sqlite") {
      dir_ = std::filesystem::temp_directory_path() /
             ("emporium-store-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name());
      std::filesystem::remove_all(dir_);
      db_ = std::make_unique<SqliteStore>(dir_.string());
    } else {
      EMPORIUM_NEED_POSTGRES(pg);
      uri_ = pg->new_database();
      db_ = std::make_unique<PostgresStore>(uri_);
    }
  }
  void TearDown() override {
    db_.reset();
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  // The same store opened again (as after a restart).
  std::unique_ptr<Store> reopen() {
    db_.reset();
    if (GetParam() == "sqlite") return std::make_unique<SqliteStore>(dir_.string());
    return std::make_unique<PostgresStore>(uri_);
  }

  static StoredTable table(const std::string& id, int players = 3) {
    StoredTable t;
    t.id = id;
    t.game = "silkroad";
    t.players = players;
    t.options = json{{"variant", "base"}};
    t.seed = emporium::engine::Seed(0x0123456789abcdefULL, 0xfedcba9876543210ULL);
    t.salt = "00112233445566778899aabbccddeeff";
    for (int s = 0; s < players; ++s) {
      t.seats.push_back({s, "Player " + std::to_string(s), std::string(63, 'a') + char('0' + s) + id, "", StandIn::none, ""});
    }
    return t;
  }

  std::unique_ptr<Store> db_;
  std::filesystem::path dir_;
  std::string uri_;
};

TEST_P(StoreSuite, ATableComesBackAsItWasStored) {
  StoredTable t = table("T1", 4);
  t.is_private = true;
  t.invite = "INVITE42";
  t.creator_seat = 2;
  t.clock = emporium::protocol::ClockConfig{30, 120};
  t.seats[1].bot = "normal";
  t.seats[1].token_hash = std::string(64, 'b');
  t.seats[3].bot = "easy";
  t.seats[3].stand_in = StandIn::absent;
  db_->create_table(t);

  const auto back = db_->load("T1");
  ASSERT_TRUE(back);
  EXPECT_EQ(back->id, "T1");
  EXPECT_EQ(back->game, "silkroad");
  EXPECT_EQ(back->players, 4);
  EXPECT_EQ(back->options, t.options);
  EXPECT_EQ(back->seed, t.seed);
  EXPECT_EQ(back->salt, t.salt);
  EXPECT_TRUE(back->is_private);
  EXPECT_EQ(back->invite, "INVITE42");
  EXPECT_EQ(back->creator_seat, 2);
  EXPECT_EQ(back->state, TableState::waiting);
  ASSERT_TRUE(back->clock);
  EXPECT_EQ(*back->clock, (emporium::protocol::ClockConfig{30, 120}));
  EXPECT_TRUE(back->result.is_null());
  EXPECT_EQ(back->finished_at, 0);
  EXPECT_GT(back->updated_at, 0);
  ASSERT_EQ(back->seats.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(back->seats[i].seat, t.seats[i].seat);
    EXPECT_EQ(back->seats[i].name, t.seats[i].name);
    EXPECT_EQ(back->seats[i].token_hash, t.seats[i].token_hash);
    EXPECT_EQ(back->seats[i].bot, t.seats[i].bot);
    EXPECT_EQ(back->seats[i].stand_in, t.seats[i].stand_in);
  }
  EXPECT_TRUE(back->actions.empty());
  EXPECT_FALSE(db_->load("nope"));
}

TEST_P(StoreSuite, ActionsAreKeptInOrderWithTheClockAndTheEnd) {
  db_->create_table(table("A"));
  db_->create_table(table("B"));
  db_->append_actions({{"A", 0, 0, R"({"type":"x","n":1})", R"({"left":[1,2]})", ""},
                       {"B", 0, 1, R"({"type":"y"})", "", ""},
                       {"A", 1, 2, R"({"type":"x","n":2})", R"({"left":[3,4]})", ""}});
  db_->append_actions({{"A", 2, 1, R"({"type":"last"})", "", R"({"winners":[1]})"}});

  const auto a = db_->load("A");
  ASSERT_TRUE(a);
  ASSERT_EQ(a->actions.size(), 3u);
  EXPECT_EQ(a->actions[0], std::make_pair(0, json{{"type", "x"}, {"n", 1}}));
  EXPECT_EQ(a->actions[1], std::make_pair(2, json{{"type", "x"}, {"n", 2}}));
  EXPECT_EQ(a->actions[2], std::make_pair(1, json{{"type", "last"}}));
  EXPECT_EQ(a->clock_state, (json{{"left", {3, 4}}}));
  EXPECT_EQ(a->state, TableState::finished);
  EXPECT_EQ(a->result, (json{{"winners", {1}}}));
  EXPECT_GT(a->finished_at, 0);
  const auto b = db_->load("B");
  ASSERT_EQ(b->actions.size(), 1u);
  EXPECT_EQ(b->state, TableState::waiting);
  // Described only: no actions read.
  EXPECT_TRUE(db_->load("A", /*with_actions=*/false)->actions.empty());
}

TEST_P(StoreSuite, ABatchWithAnIndexAlreadyStoredStoresNothing) {
  db_->create_table(table("A"));
  db_->create_table(table("B"));
  db_->append_actions({{"A", 0, 0, R"({"n":0})", "", ""}});
  // A second writer's idea of action 0 of A (a node that lost the table) forks nothing, and takes the rest of its
  // batch down with it.
  EXPECT_THROW(db_->append_actions({{"B", 0, 0, R"({"n":"b0"})", "", ""},
                                    {"A", 1, 0, R"({"n":1})", "", ""},
                                    {"A", 0, 2, R"({"n":"fork"})", "", ""}}),
               StoreError);
  EXPECT_EQ(db_->load("A")->actions, (std::vector<std::pair<int, json>>{{0, json{{"n", 0}}}}));
  EXPECT_TRUE(db_->load("B")->actions.empty());
  // And the store goes on: the next batch is stored.
  db_->append_actions({{"A", 1, 1, R"({"n":1})", "", ""}, {"B", 0, 0, R"({"n":"b0"})", "", ""}});
  EXPECT_EQ(db_->load("A")->actions.size(), 2u);
  EXPECT_EQ(db_->load("B")->actions.size(), 1u);
}

TEST_P(StoreSuite, AGroupCommitOfManyMovesIsStoredWhole) {
  // More statements than one pipeline sync holds (PostgresStore): 1,000 moves of 50 tables, clocks included.
  for (int t = 0; t < 50; ++t) db_->create_table(table("G" + std::to_string(t)));
  std::vector<ActionWrite> batch;
  for (int i = 0; i < 20; ++i) {
    for (int t = 0; t < 50; ++t) {
      batch.push_back({"G" + std::to_string(t), static_cast<std::uint64_t>(i), i % 3,
                       json{{"i", i}, {"t", t}, {"text", "quote \" backslash \\ 日本"}}.dump(),
                       json{{"i", i}}.dump(), ""});
    }
  }
  db_->append_actions(batch);
  for (int t = 0; t < 50; t += 7) {
    const auto g = db_->load("G" + std::to_string(t));
    ASSERT_EQ(g->actions.size(), 20u);
    EXPECT_EQ(g->actions[19].second["text"], "quote \" backslash \\ 日本");
    EXPECT_EQ(g->clock_state, (json{{"i", 19}}));
  }
}

TEST_P(StoreSuite, SeatsAreReplacedWhole) {
  db_->create_table(table("S", 2));
  std::vector<StoredSeat> seats{{0, "Ann", std::string(64, 'c'), "", StandIn::none, ""},
                                {1, "Bot", std::string(64, 'd'), "easy", StandIn::left, ""},
                                {2, "Cy", std::string(64, 'e'), "", StandIn::none, ""}};
  db_->save_seats("S", seats, 3, 1);
  const auto s = db_->load("S", false);
  EXPECT_EQ(s->players, 3);
  EXPECT_EQ(s->creator_seat, 1);
  ASSERT_EQ(s->seats.size(), 3u);
  EXPECT_EQ(s->seats[1].bot, "easy");
  EXPECT_EQ(s->seats[1].stand_in, StandIn::left);
  EXPECT_EQ(db_->table_of_token(std::string(64, 'e')), "S");
  // The old seats' tokens lead nowhere now.
  EXPECT_FALSE(db_->table_of_token(table("S", 2).seats[0].token_hash));
}

TEST_P(StoreSuite, UnfinishedTablesComeBackInCreationOrderWithTheirRecords) {
  for (const char* id : {"U1", "U2", "U3", "U4"}) db_->create_table(table(id));
  db_->append_actions({{"U2", 0, 0, R"({"n":0})", "", ""}, {"U1", 0, 1, R"({"n":1})", "", ""},
                       {"U2", 1, 1, R"({"n":2})", "", ""}, {"U3", 0, 0, R"({"n":3})", "", R"({"done":true})"}});
  auto again = reopen();
  std::map<std::size_t, StoredTable> taken;
  const auto n = again->load_unfinished([&](std::size_t place, StoredTable&& t) {
    EXPECT_FALSE(taken.count(place));
    t.parse_actions();
    taken.emplace(place, std::move(t));
  });
  EXPECT_EQ(n, 3u);  // U3 is finished
  ASSERT_EQ(taken.size(), 3u);
  std::vector<std::string> ids;
  for (const auto& [place, t] : taken) ids.push_back(t.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"U1", "U2", "U4"}));
  EXPECT_EQ(taken[1].actions, (std::vector<std::pair<int, json>>{{0, json{{"n", 0}}}, {1, json{{"n", 2}}}}));
  EXPECT_EQ(taken[0].actions.size(), 1u);
  EXPECT_TRUE(taken[2].actions.empty());
  EXPECT_EQ(taken[2].seats.size(), 3u);
}

TEST_P(StoreSuite, TablesAreFoundByTokenAndInviteFinishedOrNot) {
  StoredTable t = table("F");
  t.is_private = true;
  t.invite = "CODE1";
  db_->create_table(t);
  db_->set_state("F", TableState::finished, json{{"ranking", {0, 1, 2}}});
  EXPECT_EQ(db_->table_of_invite("CODE1"), "F");
  EXPECT_EQ(db_->table_of_token(t.seats[2].token_hash), "F");
  EXPECT_FALSE(db_->table_of_invite("CODE2"));
  EXPECT_FALSE(db_->table_of_token(""));
  const auto f = db_->load("F", false);
  EXPECT_EQ(f->state, TableState::finished);
  EXPECT_EQ(f->result, (json{{"ranking", {0, 1, 2}}}));
  EXPECT_GT(f->finished_at, 0);
  db_->set_state("F", TableState::playing);
  EXPECT_EQ(db_->load("F", false)->finished_at, 0);
  EXPECT_TRUE(db_->load("F", false)->result.is_null());
}

TEST_P(StoreSuite, ARematchIsStoredWithItsOfferAndReservedSeats) {
  db_->create_table(table("OLD"));
  db_->set_state("OLD", TableState::finished, json{{"r", 1}});
  StoredTable next = table("NEW");
  next.rematch_of = "OLD";
  next.seats[1].reserved_for = std::string(64, 'f');
  next.seats[2].reserved_for = std::string(64, 'g');
  EXPECT_EQ(db_->create_rematch(next, json{{"table", "NEW"}, {"by", 0}}, nullptr), std::nullopt);
  EXPECT_EQ(db_->load("OLD", false)->rematch, (json{{"table", "NEW"}, {"by", 0}}));
  const auto n = db_->load("NEW", false);
  EXPECT_EQ(n->rematch_of, "OLD");
  EXPECT_EQ(n->seats[1].reserved_for, std::string(64, 'f'));
  EXPECT_EQ(n->seats[1].token_hash, "");  // the placeholder stays in the store
  EXPECT_EQ(db_->table_of_token(next.seats[0].token_hash), "NEW");
  // A rematch whose table id exists already stores nothing, the offer included.
  StoredTable clash = table("NEW");
  clash.rematch_of = "OLD";
  for (auto& s : clash.seats) s.token_hash[0] = 'z';
  EXPECT_THROW(db_->create_rematch(clash, json{{"table", "X"}}, json{{"table", "NEW"}, {"by", 0}}), StoreError);
  EXPECT_EQ(db_->load("OLD", false)->rematch["table"], "NEW");
}

TEST_P(StoreSuite, ARematchIsStoredOnlyOverTheOfferItReplaces) {
  db_->create_table(table("OLD"));
  db_->set_state("OLD", TableState::finished, json{{"r", 1}});
  StoredTable first = table("FIRST");
  first.rematch_of = "OLD";
  const json first_offer{{"table", "FIRST"}, {"by", 0}};
  EXPECT_EQ(db_->create_rematch(first, first_offer, nullptr), std::nullopt);
  // A second node that saw no offer yet: nothing of its rematch is stored, and it learns the offer there is.
  StoredTable second = table("SECOND");
  second.rematch_of = "OLD";
  for (auto& s : second.seats) s.token_hash[0] = 'y';
  EXPECT_EQ(db_->create_rematch(second, json{{"table", "SECOND"}, {"by", 1}}, nullptr), first_offer);
  EXPECT_FALSE(db_->load("SECOND"));
  EXPECT_FALSE(db_->table_of_token(second.seats[0].token_hash));
  EXPECT_EQ(db_->load("OLD", false)->rematch, first_offer);
  // Once the first rematch is gone (closed before its start), a new offer replaces it.
  db_->delete_table("FIRST");
  EXPECT_EQ(db_->create_rematch(second, json{{"table", "SECOND"}, {"by", 1}}, first_offer), std::nullopt);
  EXPECT_EQ(db_->load("OLD", false)->rematch, (json{{"table", "SECOND"}, {"by", 1}}));
  EXPECT_TRUE(db_->load("SECOND"));
}

TEST_P(StoreSuite, DeletingATableTakesItsSeatsAndRecord) {
  db_->create_table(table("D"));
  db_->append_actions({{"D", 0, 0, "{}", "", ""}});
  db_->delete_table("D");
  EXPECT_FALSE(db_->load("D"));
  EXPECT_FALSE(db_->table_of_token(table("D").seats[0].token_hash));
  // Its id and tokens can be used again.
  db_->create_table(table("D"));
  EXPECT_TRUE(db_->load("D")->actions.empty());
}

TEST_P(StoreSuite, AnAnalysisIsKeptPerTableForItsEngineVersionOnly) {
  db_->create_table(table("A"));
  db_->create_table(table("B"));
  EXPECT_FALSE(db_->load_analysis("A", "1+aaa"));
  db_->save_analysis("A", "1+aaa", R"({"game":"silkroad"})");
  EXPECT_EQ(db_->load_analysis("A", "1+aaa"), R"({"game":"silkroad"})");
  EXPECT_FALSE(db_->load_analysis("A", "1+bbb")) << "another engine version's is stale";
  EXPECT_FALSE(db_->load_analysis("B", "1+aaa"));
  // A new engine version's replaces it; the same bytes again (a second node's) change nothing.
  db_->save_analysis("A", "1+bbb", "{\"new\":1}");
  db_->save_analysis("A", "1+bbb", "{\"new\":1}");
  auto again = reopen();
  EXPECT_FALSE(again->load_analysis("A", "1+aaa"));
  EXPECT_EQ(again->load_analysis("A", "1+bbb"), "{\"new\":1}");
  // It goes with its table.
  again->delete_table("A");
  EXPECT_FALSE(again->load_analysis("A", "1+bbb"));
}

TEST_P(StoreSuite, TheSignOfLifeIsKept) {
  EXPECT_FALSE(db_->last_alive());
  db_->mark_alive(1700000000123);
  db_->mark_alive(1700000000456);
  EXPECT_EQ(reopen()->last_alive(), 1700000000456);
}

TEST_P(StoreSuite, ClocksAreSavedOnTheirOwn) {
  db_->create_table(table("C"));
  db_->save_clock("C", json{{"turn", 12}});
  EXPECT_EQ(db_->load("C", false)->clock_state, (json{{"turn", 12}}));
}

TEST_P(StoreSuite, WritersOnSeveralThreadsLoseNothing) {
  for (int t = 0; t < 4; ++t) db_->create_table(table("W" + std::to_string(t)));
  std::vector<std::thread> writers;
  for (int t = 0; t < 4; ++t) {
    writers.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        db_->append_actions({{"W" + std::to_string(t), static_cast<std::uint64_t>(i), 0, json{{"i", i}}.dump(), "", ""}});
        if (i % 10 == 0) {
          EXPECT_TRUE(db_->load("W" + std::to_string(3 - t), false));
        }
      }
    });
  }
  for (auto& w : writers) w.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(db_->load("W" + std::to_string(t))->actions.size(), 50u);
}

INSTANTIATE_TEST_SUITE_P(BothStores, StoreSuite, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& info) { return info.param; });

// A two-player Medici table in play, seated by A and B, as these tests store it.
StoredTable medici_in_play(const std::string& id) {
  StoredTable t;
  t.id = id;
  t.game = "medici";
  t.players = 2;
  t.state = TableState::playing;
  t.seats = {{0, "A", std::string(64, '1'), "", StandIn::none, ""}, {1, "B", std::string(64, '2'), "", StandIn::none, ""}};
  return t;
}

// Every other connection to `uri`'s database is ended by the server (as in a restart or a failover); how many.
std::string end_other_connections(emporium::test::postgres_local& pg, const std::string& uri) {
  return pg.run("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid()",
                uri);
}

// PostgreSQL only: a connection the server dropped (a restart, a failover, an idle timeout) is opened again.
TEST(PostgresStore, ALostConnectionIsOpenedAgain) {
  EMPORIUM_NEED_POSTGRES(pg);
  const auto uri = pg->new_database();
  PostgresStore db(uri);
  db.create_table(medici_in_play("R"));
  db.append_actions({{"R", 0, 0, "{}", "", ""}});
  EXPECT_EQ(end_other_connections(*pg, uri), "1");
  // The first call after may fail (the store learns of the loss); what follows works.
  try {
    db.append_actions({{"R", 1, 1, "{}", "", ""}});
  } catch (const StoreError&) {
    db.append_actions({{"R", 1, 1, "{}", "", ""}});
  }
  EXPECT_EQ(db.load("R")->actions.size(), 2u);
}

// Issue 39, finding 2: the connection opened again by one kind of call (here the sign of life, as the heartbeat's)
// must not be used by the next append as if the statements prepared on the old one were still there.
TEST(PostgresStore, StatementsArePreparedAgainOnAConnectionOpenedByAnotherCall) {
  EMPORIUM_NEED_POSTGRES(pg);
  const auto uri = pg->new_database();
  PostgresStore db(uri);
  db.create_table(medici_in_play("P"));
  db.append_actions({{"P", 0, 0, "{}", "", ""}});  // the append's statements are prepared on this connection
  end_other_connections(*pg, uri);
  try {
    db.mark_alive(1);  // learns of the loss
  } catch (const StoreError& e) {
    EXPECT_TRUE(e.unavailable()) << e.what();
  }
  db.mark_alive(2);                                 // opens a new connection
  db.append_actions({{"P", 1, 1, "{}", "", ""}});  // on it, at once
  EXPECT_EQ(db.load("P")->actions.size(), 2u);
  EXPECT_GE(db.reconnections(), 1u);
}

TEST(PostgresStore, SeveralNodesMayCreateTheSchemaAtOnce) {
  EMPORIUM_NEED_POSTGRES(pg);
  const auto uri = pg->new_database();
  std::vector<std::thread> nodes;
  std::atomic<int> failed{0};
  for (int i = 0; i < 4; ++i) {
    nodes.emplace_back([&] {
      try {
        PostgresStore db(uri);
      } catch (const StoreError&) {
        ++failed;
      }
    });
  }
  for (auto& n : nodes) n.join();
  EXPECT_EQ(failed.load(), 0);
}

// Several nodes (docs/scaling.md): the leases on tables, and a node's writes checked against its lease.
TEST(TableLeases, ATableIsHeldByOneNodeAtATimeAndALostLeaseStopsItsWrites) {
  EMPORIUM_NEED_POSTGRES(pg);
  const auto uri = pg->new_database();
  PostgresStore n1_store(uri, "n1");
  TableLeases n1(uri, "n1", std::chrono::milliseconds(600));
  TableLeases n2(uri, "n2", std::chrono::milliseconds(600));
  n1_store.create_table(medici_in_play("L"));

  EXPECT_EQ(n1.orphans(10), std::vector<std::string>{"L"});  // nobody holds it yet
  const auto epoch = n1.take("L");
  ASSERT_TRUE(epoch);
  EXPECT_EQ(*epoch, 1u);
  EXPECT_FALSE(n2.take("L"));  // n1 holds it
  const auto holder = n2.holder("L");
  ASSERT_TRUE(holder);
  EXPECT_EQ(holder->owner, "n1");
  EXPECT_GT(holder->left_ms, 0);
  EXPECT_TRUE(n2.orphans(10).empty());
  EXPECT_TRUE(n1.renew({{"L", *epoch}}).empty());
  EXPECT_EQ(n2.renew({{"L", *epoch}}), std::vector<std::string>{"L"});  // not n2's
  EXPECT_FALSE(n2.holder("nope"));

  // n1 writes under its lease.
  n1_store.append_actions({{"L", 0, 0, "{}", "", "", *epoch}});
  n1_store.save_seats("L", medici_in_play("L").seats, 2, 1, *epoch);
  n1_store.save_clock("L", nlohmann::json{{"c", 1}}, *epoch);

  // n1 stops renewing (paused, or cut off): its lease runs out and n2 takes the table (epoch 2).
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  EXPECT_EQ(n2.orphans(10), std::vector<std::string>{"L"});
  const auto taken = n2.take("L");
  ASSERT_TRUE(taken);
  EXPECT_EQ(*taken, 2u);
  EXPECT_EQ(n1.renew({{"L", *epoch}}), std::vector<std::string>{"L"});  // n1 learns it lost the table

  // Nothing n1 writes at its old epoch is stored: not a move (the whole batch fails), not seats, state or clock.
  EXPECT_THROW(n1_store.append_actions({{"L", 1, 1, R"({"stale":true})", "", "", *epoch}}), StoreError);
  EXPECT_THROW(n1_store.save_seats("L", {}, 2, 0, *epoch), StoreError);
  EXPECT_THROW(n1_store.set_state("L", TableState::finished, nlohmann::json{{"x", 1}}, *epoch), StoreError);
  EXPECT_THROW(n1_store.save_clock("L", nlohmann::json{{"c", 2}}, *epoch), StoreError);
  EXPECT_THROW(n1_store.delete_table("L", *epoch), StoreError);
  const auto now = n1_store.load("L");
  ASSERT_TRUE(now);
  EXPECT_EQ(now->actions.size(), 1u);
  EXPECT_EQ(now->seats.size(), 2u);
  EXPECT_EQ(now->state, TableState::playing);
  EXPECT_EQ(now->clock_state, (nlohmann::json{{"c", 1}}));
  // n2 writes at its own epoch; the record goes on from where it was.
  PostgresStore n2_store(uri, "n2");
  n2_store.append_actions({{"L", 1, 1, "{}", "", "", *taken}});
  EXPECT_EQ(n2_store.load("L")->actions.size(), 2u);

  // Handing over: n2 gives the lease up and n1 takes it at once (epoch 3); finished tables are nobody's.
  n2.release("L");
  EXPECT_EQ(n1.take("L"), 3u);
  n1_store.set_state("L", TableState::finished, nlohmann::json{{"r", 1}}, 3);
  EXPECT_FALSE(n2.take("L"));
  EXPECT_TRUE(n2.orphans(10).empty());
  // A node that starts again under its name holds nothing from before.
  n1.release_all();
  EXPECT_EQ(n1.holder("L")->owner, "");
}

// A node that hands a table over and takes it back at once (a client of its own came back first) holds the new
// lease: giving up the old one, later, lets the new one be; renewing is at the epoch held.
TEST(TableLeases, GivingUpAnOldLeaseLeavesTheOneTakenSince) {
  EMPORIUM_NEED_POSTGRES(pg);
  const auto uri = pg->new_database();
  PostgresStore n1_store(uri, "n1");
  TableLeases n1(uri, "n1", std::chrono::milliseconds(5000));
  TableLeases n2(uri, "n2", std::chrono::milliseconds(5000));
  n1_store.create_table(medici_in_play("H"));
  const auto first = n1.take("H");
  ASSERT_TRUE(first);
  const auto again = n1.take("H");  // taken again by the same node before the first is given up
  ASSERT_TRUE(again);
  EXPECT_GT(*again, *first);
  n1.release("H", *first);  // the handover of the first lease, processed late
  EXPECT_EQ(n1.holder("H")->owner, "n1");
  EXPECT_FALSE(n2.take("H"));  // the new lease stands
  EXPECT_EQ(n1.renew({{"H", *first}}), std::vector<std::string>{"H"});  // the old epoch is not this node's any more
  EXPECT_TRUE(n1.renew({{"H", *again}}).empty());
  n1.release("H", *again);
  EXPECT_EQ(n1.holder("H")->owner, "");
}

TEST(TableLeases, NodesHearEachOthersNotifications) {
  EMPORIUM_NEED_POSTGRES(pg);
  const auto uri = pg->new_database();
  PostgresStore schema(uri);
  TableLeases n1(uri, "n1", std::chrono::milliseconds(1000));
  TableLeases n2(uri, "n2", std::chrono::milliseconds(1000));
  n2.socket();  // listening from now on
  n1.notify(TableLeases::kHandoff, "n2 T1");
  n1.notify(TableLeases::kLobby, R"({"node":"n1","removed":"T9"})");
  std::vector<std::pair<std::string, std::string>> heard;
  for (int i = 0; i < 100 && heard.size() < 2; ++i) {
    for (auto& n : n2.notifications()) heard.push_back(std::move(n));
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(heard.size(), 2u);
  EXPECT_EQ(heard[0], (std::pair<std::string, std::string>{"emporium_handoff", "n2 T1"}));
  EXPECT_EQ(heard[1].first, "emporium_lobby");
}

// SQLite's log: a commit writes every page it changed whole into it, and the commit that finds it past its limit
// copies it back (two fsyncs while every table's moves wait). Small pages on new databases make the log fill
// slower; the limit is 4 MiB whatever the page size, also on a database made before with SQLite's 4 KiB pages.
class SqliteLog : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("emporium-log-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string db_path() const { return (dir_ / "emporium.db").string(); }
  long long page_size() const {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(db_path().c_str(), &db), SQLITE_OK);
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(db, "PRAGMA page_size", -1, &s, nullptr);
    const long long size = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
    sqlite3_finalize(s);
    sqlite3_close(db);
    return size;
  }
  static void create_table(Store& db, const std::string& id, int players) {
    StoredTable t;
    t.id = id;
    t.game = "silkroad";
    t.players = players;
    t.options = json::object();
    t.seed = emporium::engine::Seed(1, 2);
    db.create_table(t);
  }
  // Move `i` of a two-player table, as the commit queue hands it to the store.
  static ActionWrite move(const std::string& table, std::uint64_t i) {
    return {table, i, static_cast<int>(i % 2), json{{"type", "move"}, {"n", i}}.dump(), "", ""};
  }
  std::uintmax_t log_size() const { return std::filesystem::file_size(dir_ / "emporium.db-wal"); }
  // Moves one commit at a time, as they come at a steady load, until `log_bytes` of log have been written;
  // returns the largest the log file was seen.
  std::uintmax_t play(SqliteStore& db, std::uintmax_t log_bytes, long long page) {
    create_table(db, "L", 2);
    std::uintmax_t largest = 0;
    const auto commits = log_bytes / static_cast<std::uintmax_t>(page);  // at least a page each
    for (std::uint64_t i = 0; i < commits; ++i) {
      db.append_actions({move("L", i)});
      db.after_batch();  // as the commit queue's writer does
      if (i % 64 == 0) largest = std::max(largest, log_size());
    }
    largest = std::max(largest, log_size());
    EXPECT_EQ(db.load("L")->actions.size(), commits);
    return largest;
  }

  std::filesystem::path dir_;
};

TEST_F(SqliteLog, NewDatabasesHaveSmallPagesAndALogOfAboutFourMiB) {
  SqliteStore db(dir_.string());
  EXPECT_EQ(page_size(), 1024);
  const auto largest = play(db, 12u << 20, 1024);
  EXPECT_GT(largest, 3u << 20);  // not copied back every 1000 pages (1 MiB): that would be four times the stalls
  EXPECT_LE(largest, 9u << 19);  // 4 MiB of pages, their frame headers and one commit
}

// Seats and new tables are written on network threads, beside the writer's checkpoints. SQLite's copy counts only the
// log it found when it began, so what they wrote during it must be copied too (with them held back), or the log never
// starts over while they keep writing.
TEST_F(SqliteLog, ACopyMadeWhileRoomsWriteStillLetsTheLogStartOver) {
  SqliteStore db(dir_.string());
  create_table(db, "R", 4);
  auto seat_save = [&](int i) {
    std::vector<StoredSeat> seats;
    for (int s = 0; s < 4; ++s) seats.push_back({s, "player " + std::to_string(i), std::string(64, 'a' + s), "", StandIn::none, ""});
    db.save_seats("R", seats, 4, 0);
  };
  for (int i = 0; i < 1500; ++i) seat_save(i);  // past the 4 MiB limit
  ASSERT_GT(log_size(), 9u << 19);
  std::atomic<int> written{0};
  std::atomic<bool> done{false};
  std::thread room([&] {
    while (!done) seat_save(written++);
  });
  while (written < 100) std::this_thread::yield();
  db.after_batch();  // the room goes on writing during the copy
  done = true;
  room.join();
  // The log started over at the room's first write after the copy: its file is cut back and holds only what came
  // after (a few hundred writes at most).
  seat_save(-1);
  EXPECT_LE(log_size(), 9u << 19) << written << " writes beside the copy";
  EXPECT_EQ(db.load("R")->seats[0].name, "player -1");
}

// The server's writer (not the tests above) is what copies the log back: after its batches, and when it is idle.
TEST_F(SqliteLog, TheCommitQueuesWriterCopiesTheLogBackAfterBatchesAndWhenIdle) {
  SqliteStore db(dir_.string());
  create_table(db, "Q", 2);
  std::uintmax_t largest = 0;
  {
    CommitQueue queue(db);
    for (std::uint64_t i = 0; i < 12000; ++i) {  // about 12 MiB of log, one move a commit
      std::promise<bool> stored;
      queue.append(move("Q", i), [&](std::optional<StoreError::Kind> failed) { stored.set_value(!failed); });
      ASSERT_TRUE(stored.get_future().get());
      if (i % 64 == 0) largest = std::max(largest, log_size());
    }
    EXPECT_LE(largest, 9u << 19);
    // Only the rooms write now (seats: about 12 MiB of log); the idle writer copies it back within a quarter second.
    for (int i = 0; i < 3000; ++i) db.save_seats("Q", {{0, "n" + std::to_string(i), std::string(64, 'a'), "", StandIn::none, ""}}, 2, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    db.save_seats("Q", {}, 2, 0);  // starts the log over, cut back
    EXPECT_LE(log_size(), 9u << 19);
  }
  EXPECT_EQ(db.load("Q")->actions.size(), 12000u);
}

TEST_F(SqliteLog, ADatabaseMadeBeforeKeepsItsPagesAndTheSameLimit) {
  sqlite3* old = nullptr;
  ASSERT_EQ(sqlite3_open(db_path().c_str(), &old), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(old, "PRAGMA page_size=4096; PRAGMA journal_mode=WAL; CREATE TABLE before (x)", nullptr,
                         nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(old);
  SqliteStore db(dir_.string());
  EXPECT_EQ(page_size(), 4096);
  const auto largest = play(db, 12u << 20, 4096);
  EXPECT_GT(largest, 3u << 20);
  EXPECT_LE(largest, 9u << 19);  // 4 MiB of pages, their frame headers and one commit
}

TEST(OpenStore, NamesTheStoreBySetting) {
  const auto dir = std::filesystem::temp_directory_path() / ("emporium-open-" + std::to_string(::getpid()));
  EXPECT_TRUE(dynamic_cast<SqliteStore*>(open_store("sqlite:" + dir.string()).get()));
  std::filesystem::remove_all(dir);
  EXPECT_THROW(open_store("mysql://x"), std::invalid_argument);
  EXPECT_THROW(open_store("sqlite:"), std::invalid_argument);
  // An unreachable PostgreSQL is a store error with libpq's reason, not a crash.
  EXPECT_THROW(open_store("postgresql://nobody@127.0.0.1:1/none?connect_timeout=2"), StoreError);
}

}  // namespace
