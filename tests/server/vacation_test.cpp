// Vacations (docs/mail.md "Vacation"): the days a year allows, counted by the days each vacation started; the
// account routes, whose bad input changes nothing; the tables told of a start and an early end.
#include "people/account_vacation.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include <unistd.h>

#include "common/wall_clock.hpp"
#include "store/sql_people_store.hpp"
#include "store/sqlite_store.hpp"

namespace emporium::server {
namespace {

constexpr long long kDay = 86400;

TEST(VacationDays, EachVacationCountsTheDaysItStartedInTheYearItBegan) {
  const long long y2026 = 1767225600;  // 2026-01-01T00:00:00Z
  EXPECT_EQ(year_start_of(y2026), y2026);
  EXPECT_EQ(year_start_of(y2026 - 1), 1735689600);  // 2025-12-31T23:59:59Z is in 2025
  EXPECT_EQ(year_start_of(1795000000), y2026);      // 2026-11-18
  const std::vector<VacationRow> rows{
      {"A", y2026 + 10, y2026 + 10 + 3600},            // ended after an hour: one day
      {"A", y2026 + 40 * kDay, y2026 + 43 * kDay},     // three days
      {"A", y2026 + 50 * kDay, y2026 + 53 * kDay + 1},  // three days and a second: four
      {"A", y2026 - kDay, y2026 + 5 * kDay},           // began in 2025: that year's
  };
  EXPECT_EQ(vacation_days_used(rows, y2026), 1 + 3 + 4);
  EXPECT_EQ(vacation_days_used(rows, year_start_of(y2026 - 1)), 6);
}

class AccountVacations : public ::testing::Test {
 protected:
  AccountVacations() : dir_(std::filesystem::temp_directory_path() / ("vacations-" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(dir_);
    games_ = std::make_unique<SqliteStore>(dir_.string());
    people_ = std::make_unique<SqlitePeopleStore>(dir_.string());
    people_->create_account({"A1", "Ann", "ann", "", 1}, std::nullopt);
  }
  ~AccountVacations() override {
    people_.reset();
    games_.reset();
    std::filesystem::remove_all(dir_);
  }
  std::filesystem::path dir_;
  std::unique_ptr<SqliteStore> games_;
  std::unique_ptr<SqlitePeopleStore> people_;
  const SignedIn ann{"A1", "Ann", ""};
};

TEST_F(AccountVacations, BadInputIsRefusedAndChangesNothing) {
  AccountVacation vacations(*people_);
  int told = 0;
  vacations.on_changed([&](const std::string&, std::optional<long long>, const std::vector<ClaimRow>&) { ++told; });
  for (const char* body : {"", "[]", "{}", R"({"days":0})", R"({"days":22})", R"({"days":"3"})", R"({"days":1.5})",
                           R"({"days":-1})"}) {
    const auto r = vacations.start(body, ann);
    EXPECT_EQ(r.status, 400) << body;
    EXPECT_EQ(r.body["error"]["code"], "bad_days") << body;
  }
  EXPECT_EQ(vacations.end(ann).status, 409);
  EXPECT_EQ(vacations.end(ann).body["error"]["code"], "not_on_vacation");
  EXPECT_TRUE(people_->vacations_of("A1", 0).empty());
  EXPECT_EQ(told, 0);
  EXPECT_EQ(vacations.view("A1"), nlohmann::json::parse(R"({"until":null,"days_left":21,"days_per_year":21})"));
}

TEST_F(AccountVacations, OneAtATimeWithinTheDaysLeftAndTheTablesAreToldOfItsStartAndEnd) {
  AccountVacation vacations(*people_, VacationSettings{5});
  std::vector<std::optional<long long>> told;
  vacations.on_changed([&](const std::string& account, std::optional<long long> until, const std::vector<ClaimRow>&) {
    EXPECT_EQ(account, "A1");
    told.push_back(until);
  });
  // An earlier one this year used a day.
  const long long now = unix_now();
  ASSERT_TRUE(people_->start_vacation({"A1", now - 20, now - 10}));
  EXPECT_EQ(vacations.view("A1")["days_left"], 4);
  const auto too_long = vacations.start(R"({"days":5})", ann);
  EXPECT_EQ(too_long.status, 409);
  EXPECT_EQ(too_long.body["error"]["code"], "no_vacation_days");
  EXPECT_NE(too_long.body["error"]["message"].get<std::string>().find("4 vacation days left"), std::string::npos);

  const auto started = vacations.start(R"({"days":3})", ann);
  ASSERT_EQ(started.status, 200) << started.body;
  const long long until = started.body["vacation"]["until"];
  EXPECT_NEAR(static_cast<double>(until), static_cast<double>(now + 3 * kDay), 5);
  EXPECT_EQ(started.body["vacation"]["days_left"], 1);
  EXPECT_EQ(people_->vacations_until({"A1", "B2"}, unix_now()), (std::map<std::string, long long>{{"A1", until}}));
  const auto twice = vacations.start(R"({"days":1})", ann);
  EXPECT_EQ(twice.status, 409);
  EXPECT_EQ(twice.body["error"]["code"], "on_vacation");
  // Two at once (another node): the store takes only one.
  EXPECT_FALSE(people_->start_vacation({"A1", unix_now(), unix_now() + kDay}));

  // Ended at once: the day it began is used, the other two come back.
  const auto ended = vacations.end(ann);
  ASSERT_EQ(ended.status, 200) << ended.body;
  EXPECT_EQ(ended.body["vacation"], nlohmann::json::parse(R"({"until":null,"days_left":3,"days_per_year":5})"));
  EXPECT_TRUE(people_->vacations_until({"A1"}, unix_now()).empty());
  EXPECT_EQ(told, (std::vector<std::optional<long long>>{until, std::nullopt}));
}

}  // namespace
}  // namespace emporium::server
