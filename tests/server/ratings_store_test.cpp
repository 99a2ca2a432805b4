// Ratings in both stores (docs/ratings.md "Storage", "Exactly once"): a game's end for its accounts is written in the
// transaction of its last action, once; what profiles and leaderboards read back; deletion. SQLite in a temporary
// directory and PostgreSQL (postgres_local.hpp), each with the game store and the people store on one database.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <future>
#include <memory>
#include <unistd.h>

#include "postgres_local.hpp"
#include "ratings/bot_ratings.hpp"
#include "ratings/ratings.hpp"
#include "store/open_store.hpp"
#include "store/people_store.hpp"
#include "tables/game_ends.hpp"

using namespace emporium::server;
using nlohmann::json;

namespace {

class RatingsStore : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "sqlite") {
      std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
      std::replace(test.begin(), test.end(), '/', '-');
      dir_ = std::filesystem::temp_directory_path() / ("emporium-ratings-" + std::to_string(::getpid()) + "-" + test);
      std::filesystem::remove_all(dir_);
      setting_ = "sqlite:" + dir_.string();
    } else {
      EMPORIUM_NEED_POSTGRES(pg);
      setting_ = pg->new_database();
    }
    games_ = open_store(setting_);
    people_ = open_people_store(setting_);
    for (const char* name : {"Ann", "Bo", "Cy"}) {
      ASSERT_TRUE(people_->create_account({std::string("id-") + name, name, std::string("key:") + name, "", 1000},
                                          std::nullopt));
    }
  }
  void TearDown() override {
    people_.reset();
    games_.reset();
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  // A started rated Medici table: one seat per entry, an account's id ("id-Ann") or a bot's level ("bot:normal").
  StoredTable table(const std::string& id, const std::vector<std::string>& seats, bool rated = true) {
    StoredTable t;
    t.id = id;
    t.game = "medici";
    t.players = static_cast<int>(seats.size());
    t.seed = emporium::engine::Seed(1, 2);
    t.rated = rated;
    t.state = TableState::playing;
    for (std::size_t i = 0; i < seats.size(); ++i) {
      StoredSeat s{static_cast<int>(i), "P" + std::to_string(i), std::string(60, 'a') + id + std::to_string(i)};
      if (seats[i].starts_with("bot:")) {
        s.bot = seats[i].substr(4);
      } else {
        s.account = seats[i];
      }
      t.seats.push_back(s);
    }
    games_->create_table(t);
    return t;
  }
  // The last action of `t`, at `index`, with the end the room would make of `ranking` (player -> rank).
  static ActionWrite last_action(const StoredTable& t, std::uint64_t index, const std::vector<int>& ranks,
                                 const std::vector<StandIn>& stand_ins = {}) {
    Seats seats(t.seats.size());
    json ranking = json::array();
    for (std::size_t i = 0; i < t.seats.size(); ++i) {
      auto& seat = seats[i];
      seat.name = t.seats[i].name;
      seat.token_hash = t.seats[i].token_hash;
      seat.account = t.seats[i].account;
      if (!t.seats[i].bot.empty()) seat.bot = emporium::engine::bot::level_from_name(t.seats[i].bot);
      if (i < stand_ins.size() && stand_ins[i] != StandIn::none) {
        seat.bot = emporium::engine::bot::Level::normal;
        seat.stand_in = stand_ins[i];
      }
      ranking.push_back({{"player", i}, {"rank", ranks[i]}});
    }
    const json result{{"ranking", ranking}};
    ActionWrite a{t.id, index, 0, R"({"type":"last"})", "", result.dump()};
    a.end = game_end_of(t.id, t.game, seats, result, t.rated, t.is_private);
    return a;
  }
  std::optional<RatingRow> rating(const std::string& account, const std::string& game = "medici") {
    const auto rows = people_->ratings_of({account}, game);
    if (rows.empty()) return std::nullopt;
    return rows.front();
  }

  std::filesystem::path dir_;
  std::string setting_;
  std::unique_ptr<Store> games_;
  std::unique_ptr<PeopleStore> people_;
};

namespace rt = emporium::server::ratings;

TEST_P(RatingsStore, ARatedEndUpdatesEveryPersonOnceAsTheModelSaysAndNeverTheBot) {
  const auto t = table("T1", {"id-Ann", "id-Bo", "bot:normal"});
  games_->append_actions({{"T1", 0, 0, R"({"type":"first"})", "", ""}});
  const auto last = last_action(t, 1, {3, 1, 2});
  ASSERT_TRUE(last.end);
  games_->append_actions({last});

  const auto bot = *rt::bot_rating("medici", "normal");
  const std::vector<rt::Rating> before{rt::initial_rating(), rt::initial_rating(), bot};
  const auto expected = rt::rate(before, std::vector<int>{3, 1, 2});
  const auto ann = rating("id-Ann"), bo = rating("id-Bo");
  ASSERT_TRUE(ann && bo);
  EXPECT_EQ(ann->mu, expected[0].mu);  // exact: stored as the shortest text of the double
  EXPECT_EQ(ann->sigma, expected[0].sigma);
  EXPECT_EQ(bo->mu, expected[1].mu);
  EXPECT_EQ(bo->sigma, expected[1].sigma);
  EXPECT_EQ(ann->games, 1);
  EXPECT_EQ(ann->displayed, rt::displayed_rating(expected[0]));
  EXPECT_LT(ann->mu, rt::initial_rating().mu);
  EXPECT_GT(bo->mu, rt::initial_rating().mu);

  const auto updates = people_->rating_updates_of_table("T1");
  ASSERT_EQ(updates.size(), 2u);  // the people's, not the bot's
  EXPECT_EQ(updates[0].account, "id-Ann");
  EXPECT_EQ(updates[0].seat, 0);
  EXPECT_EQ(updates[0].rank, 3);
  EXPECT_EQ(updates[0].displayed_before, 1000);
  EXPECT_EQ(updates[0].displayed_after, ann->displayed);
  EXPECT_EQ(updates[1].account, "id-Bo");

  // The same last action again (a restart that replays it, a second writer): refused whole, nothing changes.
  EXPECT_THROW(games_->append_actions({last}), StoreError);
  EXPECT_EQ(rating("id-Ann")->games, 1);
  EXPECT_EQ(rating("id-Ann")->mu, expected[0].mu);
  EXPECT_EQ(people_->rating_updates_of_table("T1").size(), 2u);

  // What a profile reads.
  const auto results = people_->results_of("id-Bo", false, 20);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].rank, 1);
  EXPECT_TRUE(results[0].rated);
  ASSERT_TRUE(results[0].delta);
  EXPECT_EQ(*results[0].delta, bo->displayed - 1000);
  const auto counts = people_->result_counts("id-Bo", false);
  ASSERT_EQ(counts.size(), 1u);
  EXPECT_EQ(counts[0].played, 1);
  EXPECT_EQ(counts[0].won, 1);
}

TEST_P(RatingsStore, ALeaverIsRankedLastAndCountedAsLeaving) {
  const auto t = table("T1", {"id-Ann", "id-Bo", "id-Cy"});
  // Ann left (a bot finished her seat and came first), Cy lost his to timeouts: both last, tied.
  games_->append_actions({last_action(t, 0, {1, 2, 3}, {StandIn::left, StandIn::none, StandIn::timeout})});
  const auto updates = people_->rating_updates_of_table("T1");
  ASSERT_EQ(updates.size(), 3u);
  EXPECT_EQ(updates[0].rank, 3);
  EXPECT_EQ(updates[1].rank, 2);  // the engine's rank: only the order counts
  EXPECT_EQ(updates[2].rank, 3);
  const auto expected =
      rt::rate(std::vector<rt::Rating>(3, rt::initial_rating()), std::vector<int>{2, 1, 2});
  EXPECT_EQ(rating("id-Ann")->mu, expected[0].mu);
  EXPECT_EQ(rating("id-Cy")->mu, expected[2].mu);
  const auto ann = people_->result_counts("id-Ann", false), cy = people_->result_counts("id-Cy", false);
  EXPECT_EQ(ann.at(0).left, 1);
  EXPECT_EQ(cy.at(0).timed_out, 1);
  EXPECT_TRUE(people_->results_of("id-Ann", false, 20).at(0).left_by == "left");
}

TEST_P(RatingsStore, ACasualEndKeepsResultsAndRatesNobody) {
  const auto t = table("T1", {"id-Ann", "id-Bo"}, false);
  games_->append_actions({last_action(t, 0, {1, 2})});
  EXPECT_FALSE(rating("id-Ann"));
  EXPECT_TRUE(people_->rating_updates_of_table("T1").empty());
  const auto results = people_->results_of("id-Ann", false, 20);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_FALSE(results[0].rated);
  EXPECT_FALSE(results[0].delta);
}

TEST_P(RatingsStore, NoUpdateWhenAPersonsSeatHasNoAccountOrOnlyOneIsRated) {
  const auto guest = table("T1", {"id-Ann", ""});  // a seat with no account: should not happen on a rated table
  games_->append_actions({last_action(guest, 0, {1, 2})});
  EXPECT_FALSE(rating("id-Ann"));
  EXPECT_EQ(games_->load("T1", false)->state, TableState::finished);  // the move is stored all the same
  const auto twice = table("T2", {"id-Ann", "id-Ann"});  // one account at two seats counts once: nobody to rate against
  games_->append_actions({last_action(twice, 0, {1, 2})});
  EXPECT_FALSE(rating("id-Ann"));
  EXPECT_EQ(people_->results_of("id-Ann", false, 20).size(), 2u);
}

TEST_P(RatingsStore, TwoTablesEndingAtOnceForOneAccountBothCount) {
  // Two stores (two connections: two nodes, or a node's commit queue and another's), each ending a table of Ann's at
  // the same moment, a few times.
  auto other = open_store(setting_);
  constexpr int kRounds = 5;
  for (int round = 0; round < kRounds; ++round) {
    const auto n = std::to_string(round);
    const auto t1 = table("A" + n, {"id-Ann", "id-Bo"}), t2 = table("B" + n, {"id-Ann", "id-Cy"});
    auto a = std::async(std::launch::async, [&] { games_->append_actions({last_action(t1, 0, {1, 2})}); });
    auto b = std::async(std::launch::async, [&] { other->append_actions({last_action(t2, 0, {2, 1})}); });
    a.get();
    b.get();
  }
  EXPECT_EQ(rating("id-Ann")->games, 2 * kRounds);
  // No update was lost: each started from the rating another one left (or the first from a new player's), so no two
  // started from the same one.
  const auto history = people_->rating_updates_of("id-Ann", true);
  ASSERT_EQ(history.size(), static_cast<std::size_t>(2 * kRounds));
  int from_new = 0;
  for (const auto& u : history) {
    const bool fresh = u.mu_before == rt::initial_rating().mu && u.sigma_before == rt::initial_rating().sigma;
    const auto after_of = std::count_if(history.begin(), history.end(), [&](const RatingUpdateRow& v) {
      return v.mu_after == u.mu_before && v.sigma_after == u.sigma_before;
    });
    from_new += fresh;
    EXPECT_EQ(after_of, fresh ? 0 : 1) << u.table_id;
  }
  EXPECT_EQ(from_new, 1);
}

TEST_P(RatingsStore, TheLeaderboardListsSettledPlayersWithEnoughGames) {
  // Ann and Bo play forty rated games against each other, Ann winning two in three; Cy plays one.
  auto play = [&](const std::string& id, const std::vector<std::string>& seats, const std::vector<int>& ranks) {
    games_->append_actions({last_action(table(id, seats), 0, ranks)});
  };
  for (int g = 0; g < 40; ++g) {
    play("G" + std::to_string(g), {"id-Ann", "id-Bo"}, g % 3 == 0 ? std::vector<int>{2, 1} : std::vector<int>{1, 2});
  }
  play("C1", {"id-Cy", "bot:easy"}, {1, 2});
  const auto ann = *rating("id-Ann"), bo = *rating("id-Bo");
  ASSERT_FALSE(ann.provisional);
  ASSERT_FALSE(bo.provisional);
  const auto board = people_->leaderboard("medici", 10, 100);
  ASSERT_EQ(board.size(), 2u);  // not Cy: two games, provisional
  EXPECT_EQ(board[0].name, "Ann");
  EXPECT_EQ(board[0].place, 1);
  EXPECT_EQ(board[0].displayed, ann.displayed);
  EXPECT_EQ(board[1].name, "Bo");
  EXPECT_EQ(people_->leaderboard("medici", 10, 1).size(), 1u);
  const auto place = people_->leaderboard_place("medici", 10, "id-Bo");
  ASSERT_TRUE(place);
  EXPECT_EQ(place->place, 2);
  EXPECT_FALSE(people_->leaderboard_place("medici", 10, "id-Cy"));
  EXPECT_TRUE(people_->leaderboard("silkroad", 10, 100).empty());
}

TEST_P(RatingsStore, APrivateTablesGameIsOnlyInItsOwnPlayersReads) {
  auto t = table("P1", {"id-Ann", "id-Bo"});
  t.is_private = true;
  games_->append_actions({last_action(t, 0, {1, 2})});
  EXPECT_TRUE(people_->results_of("id-Ann", false, 20).empty());
  EXPECT_TRUE(people_->result_counts("id-Ann", false).empty());
  EXPECT_TRUE(people_->rating_updates_of("id-Ann", false).empty());
  EXPECT_EQ(people_->results_of("id-Ann", true, 20).size(), 1u);
  EXPECT_EQ(people_->rating_updates_of("id-Ann", true).size(), 1u);
}

TEST_P(RatingsStore, DeletingAnAccountTakesItsRatingsUpdatesAndResults) {
  const auto t = table("T1", {"id-Ann", "id-Bo"});
  games_->append_actions({last_action(t, 0, {1, 2})});
  people_->delete_account("id-Ann", "deleted player");
  EXPECT_FALSE(rating("id-Ann"));
  EXPECT_TRUE(people_->ratings_of_account("id-Ann").empty());
  EXPECT_TRUE(people_->results_of("id-Ann", true, 20).empty());
  const auto updates = people_->rating_updates_of_table("T1");
  ASSERT_EQ(updates.size(), 1u);
  EXPECT_EQ(updates[0].account, "id-Bo");
  const auto seats = games_->load("T1", false)->seats;
  EXPECT_EQ(seats[0].account, "");
  EXPECT_EQ(seats[0].name, "deleted player");
  EXPECT_EQ(seats[1].account, "id-Bo");
  EXPECT_TRUE(rating("id-Bo"));
}

INSTANTIATE_TEST_SUITE_P(BothStores, RatingsStore, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& info) { return info.param; });

}  // namespace
