// Limits on guessing, per key over a sliding window (server/common/throttle.hpp).
#include <gtest/gtest.h>

#include "common/throttle.hpp"

namespace emporium::server {
namespace {

using namespace std::chrono_literals;

TEST(Throttle, AKeyWaitsOnceItReachedItsLimitUntilItsOldestEventLeavesTheWindow) {
  Throttle t(3, 60s);
  const auto t0 = Throttle::Clock::time_point() + 1000s;
  EXPECT_EQ(t.wait("ann", t0), Throttle::Clock::duration::zero());
  t.count("ann", t0);
  t.count("ann", t0 + 10s);
  EXPECT_EQ(t.wait("ann", t0 + 10s), Throttle::Clock::duration::zero());
  t.count("ann", t0 + 20s);
  EXPECT_EQ(t.wait("ann", t0 + 20s), 40s);  // the first of the three leaves at t0 + 60 s
  EXPECT_EQ(t.wait("ann", t0 + 59s), 1s);
  EXPECT_EQ(t.wait("ann", t0 + 60s), Throttle::Clock::duration::zero());
  // Other keys are counted apart.
  EXPECT_EQ(t.wait("bo", t0 + 20s), Throttle::Clock::duration::zero());
}

TEST(Throttle, ForgettingAKeyClearsItsCount) {
  Throttle t(1, 60s);
  const auto t0 = Throttle::Clock::time_point() + 1000s;
  t.count("ann", t0);
  EXPECT_GT(t.wait("ann", t0), Throttle::Clock::duration::zero());
  t.forget("ann");
  EXPECT_EQ(t.wait("ann", t0), Throttle::Clock::duration::zero());
}

TEST(Throttle, OnlyTheNewestEventsAreKept) {
  // An attacker's thousand tries on one key keep `limit` times, not a thousand; the wait is the window from the
  // newest of them.
  Throttle t(2, 60s);
  const auto t0 = Throttle::Clock::time_point() + 1000s;
  for (int i = 0; i < 1000; ++i) t.count("ann", t0 + std::chrono::seconds(i));
  EXPECT_EQ(t.wait("ann", t0 + 999s), 59s);  // the 999th leaves at t0 + 998 s + 60 s
}

}  // namespace
}  // namespace emporium::server
