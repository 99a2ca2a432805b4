// StoreHealth: when the store counts as down and up again, and what /metrics says of it.
#include "store/store_health.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace emporium::server {
namespace {

using namespace std::chrono_literals;

bool has_line(const std::string& text, const std::string& line) {
  return text.find("\n" + line + "\n") != std::string::npos;
}

TEST(StoreHealth, AnUnavailableStoreIsDownUntilACallSucceeds) {
  StoreHealth health(2s, 0ms, 0ms);
  EXPECT_TRUE(health.up());
  health.begin().failed(StoreError("connection refused", StoreError::Kind::unavailable));
  EXPECT_FALSE(health.up());
  EXPECT_NE(health.reason().find("connection refused"), std::string::npos);
  health.begin().failed(StoreError("still refused", StoreError::Kind::unavailable));  // the same outage
  health.begin().answered();
  EXPECT_TRUE(health.up());
  EXPECT_EQ(health.reason(), "");
  const auto metrics = "\n" + health.render(3);
  EXPECT_TRUE(has_line(metrics, "emporium_store_up 1")) << metrics;
  EXPECT_TRUE(has_line(metrics, "emporium_store_outages_total 1")) << metrics;
  EXPECT_TRUE(has_line(metrics, "emporium_store_errors_total{kind=\"unavailable\"} 2")) << metrics;
  EXPECT_TRUE(has_line(metrics, "emporium_store_reconnections_total 3")) << metrics;
}

// A table locked for seconds: the sign of life gets through while moves still time out. One outage, which ends only
// once a call succeeds after `quiet` without trouble; while it lasts, one call per `trial_every` is let through.
TEST(StoreHealth, AnOutageEndsOnlyAfterAQuietSpellAndTriesOneCallAtATime) {
  StoreHealth health(2s, 100ms, 40ms);
  const StoreError timeout("lock timeout", StoreError::Kind::unavailable);
  health.begin().failed(timeout);
  EXPECT_FALSE(health.admit());        // refused at once
  health.admit(/*probe=*/true)->answered();  // the sign of life, at once: not yet
  EXPECT_FALSE(health.up());
  std::this_thread::sleep_for(50ms);
  auto trial = health.admit();
  ASSERT_TRUE(trial);
  EXPECT_FALSE(health.admit());  // one at a time
  std::this_thread::sleep_for(120ms);
  health.admit(true)->answered();  // quiet for 170 ms, but the trial is still under way
  EXPECT_FALSE(health.up());
  trial->failed(timeout);
  std::this_thread::sleep_for(60ms);
  health.admit(true)->answered();  // 60 ms after the trial failed
  EXPECT_FALSE(health.up());
  std::this_thread::sleep_for(60ms);
  health.admit(true)->answered();  // 120 ms
  EXPECT_TRUE(health.up());
  EXPECT_TRUE(health.admit());
  EXPECT_TRUE(has_line("\n" + health.render(0), "emporium_store_outages_total 1"));
}

TEST(StoreHealth, ARefusalByAWorkingStoreIsNotAnOutage) {
  StoreHealth health;
  health.begin().failed(StoreError("the lease is another node's", StoreError::Kind::lease_lost));
  health.begin().failed(StoreError("duplicate key", StoreError::Kind::conflict));
  EXPECT_TRUE(health.up());
  const auto metrics = "\n" + health.render(0);
  EXPECT_TRUE(has_line(metrics, "emporium_store_errors_total{kind=\"lease_lost\"} 1")) << metrics;
  EXPECT_TRUE(has_line(metrics, "emporium_store_errors_total{kind=\"conflict\"} 1")) << metrics;
  EXPECT_TRUE(has_line(metrics, "emporium_store_outages_total 0")) << metrics;
}

TEST(StoreHealth, ACallThatHangsTakesTheStoreDownAndItsAnswerBringsItBack) {
  StoreHealth health(30ms, 0ms);
  auto call = health.begin();
  health.check();
  EXPECT_TRUE(health.up());  // not yet stalled
  std::this_thread::sleep_for(60ms);
  health.check();
  EXPECT_FALSE(health.up());
  EXPECT_GE(health.seconds_since_answer(), 0.05);
  EXPECT_TRUE(has_line("\n" + health.render(0), "emporium_store_up 0"));
  call.answered();
  EXPECT_TRUE(health.up());
  EXPECT_LT(health.seconds_since_answer(), 0.05);
}

}  // namespace
}  // namespace emporium::server
