// The turn clock's bookkeeping: turn time first, then the reserve; timeouts in a row; the stored form and
// a restart that charges nobody for the downtime; a decision paused for a vacation.
#include "tables/turn_clock.hpp"

#include <gtest/gtest.h>

namespace emporium::server {
namespace {

using namespace std::chrono_literals;
using Json = nlohmann::json;

const TurnClock::time_point t0{};

TEST(TurnClock, TheTurnTimeRunsFirstThenTheReserve) {
  TurnClock c({20, 60}, 3);
  EXPECT_FALSE(c.running_seat());
  EXPECT_FALSE(c.deadline());
  EXPECT_EQ(c.live(t0), Json::parse(R"({"reserve_ms":[60000,60000,60000],"timeouts":[0,0,0],"running":null})"));
  c.start(1, t0);
  EXPECT_EQ(c.running_seat(), 1);
  EXPECT_EQ(*c.deadline(), t0 + 80s);
  EXPECT_EQ(c.live(t0 + 5s)["running"], Json::parse(R"({"seat":1,"turn_ms":15000,"reserve_ms":60000})"));
  EXPECT_EQ(c.live(t0 + 30s)["running"], Json::parse(R"({"seat":1,"turn_ms":0,"reserve_ms":50000})"));
  EXPECT_EQ(c.live(t0 + 30s)["reserve_ms"], Json::parse("[60000,50000,60000]"));
  EXPECT_EQ(c.live(t0 + 99s)["running"], Json::parse(R"({"seat":1,"turn_ms":0,"reserve_ms":0})"));
  // Moving after 30 s costs 10 s of reserve; the next decision gets the whole turn again.
  c.stop(t0 + 30s);
  EXPECT_FALSE(c.running_seat());
  c.start(1, t0 + 31s);
  EXPECT_EQ(*c.deadline(), t0 + 31s + 20s + 50s);
  // Moving within the turn time costs nothing.
  c.stop(t0 + 40s);
  EXPECT_EQ(c.live(t0 + 40s)["reserve_ms"], Json::parse("[60000,50000,60000]"));
}

TEST(TurnClock, APausedDecisionGoesOnWithTheTimeItHadAcrossARestart) {
  TurnClock c({20, 60}, 2);
  c.start(0, t0);
  c.pause(t0 + 25s);  // 5 s into the reserve
  EXPECT_FALSE(c.running_seat());
  EXPECT_FALSE(c.deadline());
  EXPECT_EQ(c.paused_seat(), 0);
  EXPECT_EQ(*c.paused_left(), 55s);
  EXPECT_EQ(c.live(t0 + 500s), Json::parse(R"({"reserve_ms":[55000,60000],"timeouts":[0,0],"running":null,
                                               "paused":{"seat":0,"turn_ms":0,"reserve_ms":55000}})"));
  // Stored and read back days later: still paused, nothing charged.
  const Json stored = c.to_stored(t0 + 30s, 1'700'000'000'000);
  EXPECT_EQ(stored["paused"], Json::parse(R"({"seat":0,"turn_ms":0})"));
  auto back = TurnClock::from_stored({20, 60}, 2, stored, 1'700'000'900'000, t0 + 1000s);
  EXPECT_EQ(back.live(t0 + 2000s), c.live(t0 + 500s));
  // The same seat's decision resumes where it stopped.
  back.start(0, t0 + 2000s);
  EXPECT_EQ(*back.deadline(), t0 + 2000s + 55s);
  // Paused within the turn time: the turn time left is kept too.
  TurnClock d({20, 60}, 2);
  d.start(1, t0);
  d.pause(t0 + 8s);
  d.start(1, t0 + 100s);
  EXPECT_EQ(*d.deadline(), t0 + 100s + 12s + 60s);
  // A decision made meanwhile (stop) ends the paused one: the next starts afresh; so does another seat's.
  d.pause(t0 + 101s);
  d.stop(t0 + 102s);
  EXPECT_FALSE(d.paused_seat());
  d.start(1, t0 + 103s);
  EXPECT_EQ(*d.deadline(), t0 + 103s + 20s + 60s);
  d.pause(t0 + 104s);
  d.start(0, t0 + 105s);
  EXPECT_FALSE(d.paused_seat());
  EXPECT_EQ(*d.deadline(), t0 + 105s + 20s + 60s);
}

TEST(TurnClock, TimeoutsCountInARowAndAnOwnDecisionClearsThem) {
  TurnClock c({5, 0}, 2);
  EXPECT_EQ(c.count_decision(0, true), 1);
  EXPECT_EQ(c.count_decision(0, true), 2);
  EXPECT_EQ(c.count_decision(1, true), 1);
  EXPECT_EQ(c.count_decision(0, false), 0);
  EXPECT_EQ(c.count_decision(0, true), 1);
  c.clear_timeouts(0);
  EXPECT_EQ(c.live(t0)["timeouts"], Json::parse("[0,1]"));
}

TEST(TurnClock, ARestartChargesNobodyForTheDowntime) {
  TurnClock c({30, 60}, 2);
  c.start(0, t0);
  c.stop(t0 + 40s);  // 10 s off seat 0's reserve
  c.start(1, t0 + 40s);
  const std::int64_t wall = 1'700'000'000'000;  // Unix ms at t0 + 45s
  const Json stored = c.to_stored(t0 + 45s, wall);
  EXPECT_EQ(stored, Json::parse(R"({"reserve_ms":[50000,60000],"timeouts":[0,0],
                                    "running":{"seat":1,"turn_ms":30000,"since_ms":1699999995000}})"));
  // The server was last alive 3 s after that (8 s into the decision), then down for a while: the decision
  // goes on from 8 s, whenever it comes back.
  const TurnClock::time_point later = t0 + 1000s;
  const auto back = TurnClock::from_stored({30, 60}, 2, stored, wall + 3000, later);
  EXPECT_EQ(back.running_seat(), 1);
  EXPECT_EQ(back.live(later), Json::parse(R"({"reserve_ms":[50000,60000],"timeouts":[0,0],
                                              "running":{"seat":1,"turn_ms":22000,"reserve_ms":60000}})"));
  EXPECT_EQ(*back.deadline(), later + 22s + 60s);
  // Never known to be alive after the decision began: it starts where it was stored.
  const auto fresh = TurnClock::from_stored({30, 60}, 2, stored, std::nullopt, later);
  EXPECT_EQ(fresh.live(later)["running"]["turn_ms"], 30000);
  // Nothing stored (a table from before clocks were kept): full reserves, nobody running.
  EXPECT_EQ(TurnClock::from_stored({30, 60}, 2, nullptr, wall, later).live(later),
            TurnClock({30, 60}, 2).live(later));
}

}  // namespace
}  // namespace emporium::server
