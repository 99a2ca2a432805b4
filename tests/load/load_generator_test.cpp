// The load generator's own parts that decide what it reports: the check of hidden information, its options,
// and its reading of the server's /metrics. (LoadGenerator.PlaysCleanGamesAgainstTheServer runs it whole.)
#include "options.hpp"
#include "server_process.hpp"
#include "view_check.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace emporium::load {
namespace {

using Json = nlohmann::json;

// A Silk Road view of three seats as seat 1 is shown it: its own hand, the others' hands hidden.
Json view_for_seat_one() {
  return Json::parse(R"({"game":"silkroad","phase":"loading","deck_count":51,
    "seats":[{"coins":null,"hand":null,"hand_count":3},
             {"coins":4,"hand":{"silk":1,"tea":2},"hand_count":3},
             {"coins":null,"hand":null,"hand_count":3}]})");
}

TEST(LoadGeneratorViewCheck, APlayerMaySeeItsOwnHandOnly) {
  const Json view = view_for_seat_one();
  EXPECT_TRUE(snapshot_view_ok(view, 1));
  EXPECT_FALSE(snapshot_view_ok(view, 0)) << "seat 0 was shown seat 1's hand";
  EXPECT_FALSE(snapshot_view_ok(view, -1)) << "a spectator was shown seat 1's hand";
}

TEST(LoadGeneratorViewCheck, NoViewHoldsTheDeckOrLeavesAHandOut) {
  Json with_deck = view_for_seat_one();
  with_deck["deck"] = Json::array({"silk", "tea"});
  EXPECT_FALSE(snapshot_view_ok(with_deck, 1));

  Json hand_missing = view_for_seat_one();
  hand_missing["seats"][2].erase("hand");  // not even null: the check cannot tell what was hidden
  EXPECT_FALSE(snapshot_view_ok(hand_missing, 1));

  EXPECT_FALSE(snapshot_view_ok(Json(nullptr), 1)) << "a snapshot without a view";
}

TEST(LoadGeneratorViewCheck, OnlyTheDrawerIsToldWhatWasDrawn) {
  const Json drawn = Json::parse(R"([{"type":"draw","player":2,"cards":["silk","ore"]},{"type":"turn","player":0}])");
  EXPECT_TRUE(events_view_ok(drawn, 2));
  EXPECT_FALSE(events_view_ok(drawn, 0));
  EXPECT_FALSE(events_view_ok(drawn, -1));

  const Json extra = Json::parse(R"([{"type":"extra_draw","player":1,"good":"tea"}])");
  EXPECT_TRUE(events_view_ok(extra, 1));
  EXPECT_FALSE(events_view_ok(extra, 2));

  const Json redacted = Json::parse(R"([{"type":"draw","player":2,"count":2},{"type":"extra_draw","player":1}])");
  EXPECT_TRUE(events_view_ok(redacted, 0));
  EXPECT_TRUE(events_view_ok(redacted, -1));
}

TEST(LoadGeneratorOptions, TakeLoadJsNamesAndRefuseWhatMakesNoRun) {
  const auto o = parse_options({"--spawn", "--server-bin", "bin/server", "--port", "0", "--tables", "500",
                                "--spectators", "1", "--seconds", "2.5", "--rate", "1", "--on-end", "stop"});
  EXPECT_TRUE(o.spawn);
  EXPECT_EQ(o.server_bin, "bin/server");
  EXPECT_EQ(o.port, 0);
  EXPECT_EQ(o.tables, 500);
  EXPECT_EQ(o.players, 3);
  EXPECT_EQ(o.spectators, 1);
  EXPECT_DOUBLE_EQ(o.seconds, 2.5);
  EXPECT_DOUBLE_EQ(o.rate, 1);
  EXPECT_EQ(o.game_over, on_end::stop);

  EXPECT_THROW(parse_options({"--players", "5"}), std::invalid_argument);
  EXPECT_THROW(parse_options({"--tables", "ten"}), std::invalid_argument);
  EXPECT_THROW(parse_options({"--port", "0"}), std::invalid_argument) << "any free port only for a spawned server";
  EXPECT_THROW(parse_options({"--spawn"}), std::invalid_argument) << "nothing to spawn";
  EXPECT_THROW(parse_options({"--on-end", "later"}), std::invalid_argument);
  EXPECT_THROW(parse_options({"--wat"}), std::invalid_argument);
  EXPECT_THROW(parse_options({"--seconds"}), std::invalid_argument);
}

TEST(LoadGeneratorMetrics, ReadTheServersCountsByCode) {
  const auto counts = parse_metrics(
      "# TYPE emporium_actions_accepted_total counter\n"
      "emporium_actions_accepted_total 1234\n"
      "emporium_actions_rejected_total{code=\"stale_version\"} 3\n"
      "emporium_actions_rejected_total{code=\"not_your_turn\"} 1\n"
      "emporium_messages_refused_total{code=\"rate_limited\"} 7\n"
      "emporium_action_latency_seconds_bucket{le=\"0.001\"} 99\n");
  EXPECT_EQ(counts.accepted, 1234);
  EXPECT_EQ(counts.rejected, (std::map<std::string, long>{{"not_your_turn", 1}, {"stale_version", 3}}));
  EXPECT_EQ(counts.refused, (std::map<std::string, long>{{"rate_limited", 7}}));
}

}  // namespace
}  // namespace emporium::load
