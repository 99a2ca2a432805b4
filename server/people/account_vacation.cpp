#include "people/account_vacation.hpp"

#include <algorithm>
#include <chrono>

#include "common/wall_clock.hpp"

namespace emporium::server {
namespace {
using Json = nlohmann::json;
constexpr long long kDay = 24 * 3600;
}  // namespace

long long year_start_of(long long at) {
  using namespace std::chrono;
  const year_month_day day{floor<days>(sys_seconds{seconds{at}})};
  return duration_cast<seconds>(sys_days{day.year() / January / 1}.time_since_epoch()).count();
}

int vacation_days_used(const std::vector<VacationRow>& vacations, long long year_start) {
  long long used = 0;
  for (const auto& v : vacations) {
    if (year_start_of(v.starts_at) != year_start) continue;
    used += std::max(1LL, (v.ends_at - v.starts_at + kDay - 1) / kDay);
  }
  return static_cast<int>(used);
}

AccountVacation::AccountVacation(PeopleStore& store, VacationSettings settings) : store_(store), settings_(settings) {}

AccountVacation::Now AccountVacation::now_of(const std::string& account, long long now) {
  const auto year = year_start_of(now);
  const auto vacations = store_.vacations_of(account, year);
  Now state;
  state.days_left = std::max(0, settings_.days_per_year - vacation_days_used(vacations, year));
  for (const auto& v : vacations) {
    if (v.starts_at <= now && v.ends_at > now) state.until = v.ends_at;
  }
  return state;
}

Json AccountVacation::view(const Now& state) const {
  return {{"until", state.until ? Json(*state.until) : Json(nullptr)},
          {"days_left", state.days_left},
          {"days_per_year", settings_.days_per_year}};
}

Json AccountVacation::view(const std::string& account) { return view(now_of(account, unix_now())); }

AccountReply AccountVacation::start(const std::string& body, const SignedIn& who) {
  const Json j = Json::parse(body, nullptr, false);
  const Json days = j.is_object() ? j.value("days", Json()) : Json();
  if (!days.is_number_integer() || days.get<long long>() < 1 || days.get<long long>() > settings_.days_per_year) {
    return account_error(400, "bad_days",
                         "send {\"days\": n}, n from 1 to " + std::to_string(settings_.days_per_year));
  }
  const long long now = unix_now();
  const auto state = now_of(who.account, now);
  if (state.until) return account_error(409, "on_vacation", "you are on vacation already");
  if (days.get<int>() > state.days_left) {
    return account_error(409, "no_vacation_days",
                         "you have " + std::to_string(state.days_left) + " vacation days left this year");
  }
  const VacationRow vacation{who.account, now, now + days.get<long long>() * kDay};
  // Two requests at once: the store takes only the first.
  if (!store_.start_vacation(vacation)) return account_error(409, "on_vacation", "you are on vacation already");
  changed(who.account, vacation.ends_at);
  AccountReply r;
  r.body = {{"vacation", view(now_of(who.account, now))}};
  return r;
}

AccountReply AccountVacation::end(const SignedIn& who) {
  const long long now = unix_now();
  if (!store_.end_vacation(who.account, now)) return account_error(409, "not_on_vacation", "you are not on vacation");
  changed(who.account, std::nullopt);
  AccountReply r;
  r.body = {{"vacation", view(now_of(who.account, now))}};
  return r;
}

void AccountVacation::changed(const std::string& account, std::optional<long long> until) {
  if (!on_changed_) return;
  auto claims = store_.claims_of(account);
  std::erase_if(claims, [](const ClaimRow& c) { return c.state == "finished"; });
  on_changed_(account, until, claims);
}

}  // namespace emporium::server
