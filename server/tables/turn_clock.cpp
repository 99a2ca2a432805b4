#include "tables/turn_clock.hpp"

#include <algorithm>

namespace emporium::server {

using Json = nlohmann::json;

TurnClock::TurnClock(protocol::ClockConfig config, int seats)
    : config_(config),
      reserve_(static_cast<std::size_t>(seats), std::chrono::seconds(config.reserve_s)),
      timeouts_(static_cast<std::size_t>(seats), 0) {}

TurnClock TurnClock::from_stored(protocol::ClockConfig config, int seats, const Json& stored,
                                   std::optional<std::int64_t> alive_ms, time_point now) {
  TurnClock c(config, seats);
  if (!stored.is_object()) return c;
  const auto& reserves = stored.value("reserve_ms", Json::array());
  const auto& timeouts = stored.value("timeouts", Json::array());
  for (int s = 0; s < seats; ++s) {
    if (s < static_cast<int>(reserves.size())) c.reserve_[s] = ms(reserves[s].get<std::int64_t>());
    if (s < static_cast<int>(timeouts.size())) c.timeouts_[s] = timeouts[s].get<int>();
  }
  const auto& running = stored.value("running", Json());
  if (running.is_object()) {
    const int seat = running.at("seat").get<int>();
    if (seat >= 0 && seat < seats) {
      const auto since_ms = running.at("since_ms").get<std::int64_t>();
      const auto ran = alive_ms ? std::max<std::int64_t>(0, *alive_ms - since_ms) : 0;
      c.running_ = Decision{seat, now - ms(ran), ms(running.at("turn_ms").get<std::int64_t>())};
    }
  }
  const auto& paused = stored.value("paused", Json());
  if (paused.is_object()) {
    const int seat = paused.at("seat").get<int>();
    if (seat >= 0 && seat < seats) c.paused_ = Decision{seat, now, ms(paused.at("turn_ms").get<std::int64_t>())};
  }
  return c;
}

void TurnClock::start(int seat, time_point now) {
  const bool resumed = paused_ && paused_->seat == seat;
  running_ = Decision{seat, now, resumed ? paused_->turn_left : std::chrono::seconds(config_.turn_s)};
  paused_.reset();
}

void TurnClock::stop(time_point now) {
  paused_.reset();
  if (!running_) return;
  reserve_[running_->seat] = left(*running_, now).second;
  running_.reset();
}

void TurnClock::pause(time_point now) {
  if (!running_) return;
  const auto [turn, reserve] = left(*running_, now);
  reserve_[running_->seat] = reserve;
  paused_ = Decision{running_->seat, now, turn};
  running_.reset();
}

std::optional<int> TurnClock::running_seat() const {
  return running_ ? std::optional<int>(running_->seat) : std::nullopt;
}

std::optional<int> TurnClock::paused_seat() const {
  return paused_ ? std::optional<int>(paused_->seat) : std::nullopt;
}

std::optional<TurnClock::ms> TurnClock::paused_left() const {
  if (!paused_) return std::nullopt;
  return paused_->turn_left + reserve_[paused_->seat];
}

std::optional<TurnClock::time_point> TurnClock::deadline() const {
  if (!running_) return std::nullopt;
  return running_->since + running_->turn_left + reserve_[running_->seat];
}

int TurnClock::count_decision(int seat, bool timed_out) {
  timeouts_[seat] = timed_out ? timeouts_[seat] + 1 : 0;
  return timeouts_[seat];
}

void TurnClock::clear_timeouts(int seat) { timeouts_[seat] = 0; }

std::pair<TurnClock::ms, TurnClock::ms> TurnClock::left(const Decision& d, time_point now) const {
  const auto spent = std::max(ms(0), std::chrono::duration_cast<ms>(now - d.since));
  const auto beyond_turn = std::max(ms(0), spent - d.turn_left);
  return {std::max(ms(0), d.turn_left - spent), std::max(ms(0), reserve_[d.seat] - beyond_turn)};
}

Json TurnClock::live(time_point now) const {
  Json reserves = Json::array();
  for (const auto& r : reserve_) reserves.push_back(r.count());
  Json running = nullptr;
  if (running_) {
    const auto [turn, reserve] = left(*running_, now);
    reserves[running_->seat] = reserve.count();
    running = {{"seat", running_->seat}, {"turn_ms", turn.count()}, {"reserve_ms", reserve.count()}};
  }
  Json j{{"reserve_ms", std::move(reserves)}, {"timeouts", timeouts_}, {"running", std::move(running)}};
  if (paused_) {
    j["paused"] = {{"seat", paused_->seat}, {"turn_ms", paused_->turn_left.count()},
                   {"reserve_ms", reserve_[paused_->seat].count()}};
  }
  return j;
}

Json TurnClock::to_stored(time_point now, std::int64_t wall_now_ms) const {
  Json reserves = Json::array();
  for (const auto& r : reserve_) reserves.push_back(r.count());
  Json running = nullptr;
  if (running_) {
    const auto since_ms = wall_now_ms - std::chrono::duration_cast<ms>(now - running_->since).count();
    running = {{"seat", running_->seat}, {"turn_ms", running_->turn_left.count()}, {"since_ms", since_ms}};
  }
  Json j{{"reserve_ms", std::move(reserves)}, {"timeouts", timeouts_}, {"running", std::move(running)}};
  if (paused_) j["paused"] = {{"seat", paused_->seat}, {"turn_ms", paused_->turn_left.count()}};
  return j;
}

}  // namespace emporium::server
