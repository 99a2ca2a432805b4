#pragma once
// An account's vacations (docs/mail.md "Vacation"): a number of days a calendar year (UTC) during which its clocks stop
// at correspondence tables that allow it. Requests come through Accounts (accounts.hpp), on its workers; the tables
// hear of a vacation's start and end through on_changed (main.cpp), and read it themselves when they load.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "people/account_reply.hpp"
#include "store/people_store.hpp"

namespace emporium::server {

struct VacationSettings {
  int days_per_year = 21;
};

// The days the vacations of the year starting at `year_start` use: each counts every day it started (ending a
// three-day vacation after an hour used one day), in the year it started.
int vacation_days_used(const std::vector<VacationRow>& vacations, long long year_start);
// The first second of the UTC calendar year `at` is in.
long long year_start_of(long long at);

class AccountVacation {
 public:
  explicit AccountVacation(PeopleStore& store, VacationSettings settings = {});

  // The account page's "vacation": {"until": Unix seconds|null, "days_left", "days_per_year"}.
  nlohmann::json view(const std::string& account);
  AccountReply start(const std::string& body, const SignedIn& who);  // POST /api/account/vacation {"days":n}
  AccountReply end(const SignedIn& who);                             // POST /api/account/vacation/end

  // Runs on a worker once a vacation started (its end) or ended early (none), with the account's seats at waiting
  // and running tables. Set before serving.
  using Changed = std::function<void(const std::string&, std::optional<long long>, const std::vector<ClaimRow>&)>;
  void on_changed(Changed then) { on_changed_ = std::move(then); }

 private:
  struct Now {
    std::optional<long long> until;  // the running vacation's end
    int days_left = 0;
  };
  Now now_of(const std::string& account, long long now);
  nlohmann::json view(const Now& state) const;
  void changed(const std::string& account, std::optional<long long> until);

  PeopleStore& store_;
  const VacationSettings settings_;
  Changed on_changed_;
};

}  // namespace emporium::server
