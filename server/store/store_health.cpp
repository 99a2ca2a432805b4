#include "store/store_health.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <sstream>

namespace emporium::server {

namespace {
std::int64_t ns_of(StoreHealth::Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}
constexpr StoreError::Kind kKinds[] = {StoreError::Kind::unavailable, StoreError::Kind::lease_lost,
                                       StoreError::Kind::conflict, StoreError::Kind::other};
}  // namespace

StoreHealth::StoreHealth(std::chrono::milliseconds stall_after, std::chrono::milliseconds quiet,
                         std::chrono::milliseconds trial_every)
    : stall_after_(stall_after), quiet_(quiet), trial_every_(trial_every), last_answer_ns_(ns_of(Clock::now())) {}

std::optional<StoreHealth::Call> StoreHealth::admit(bool probe) {
  if (up() || probe) return begin();
  {
    std::lock_guard lock(mutex_);
    const auto now = Clock::now();
    if (now < next_trial_) return std::nullopt;
    next_trial_ = now + trial_every_;
  }
  return begin(/*trial=*/true);
}

std::string StoreHealth::reason() const {
  std::lock_guard lock(mutex_);
  return reason_;
}

StoreHealth::Call StoreHealth::begin(bool trial) {
  std::lock_guard lock(mutex_);
  const auto id = next_id_++;
  in_flight_.emplace(id, InFlight{Clock::now(), trial});
  return Call(*this, id);
}

StoreHealth::Call::~Call() {
  if (health_) health_->ended(id_);
}

void StoreHealth::Call::answered() {
  auto* health = std::exchange(health_, nullptr);
  if (!health) return;
  health->last_answer_ns_.store(ns_of(Clock::now()), std::memory_order_relaxed);
  std::lock_guard lock(health->mutex_);
  health->in_flight_.erase(id_);
  const auto now = Clock::now();
  if (!health->up() && now - health->last_trouble_ >= health->quiet_ && !health->stalled(now) && !health->trying()) {
    health->came_back();
  }
}

void StoreHealth::Call::failed(const StoreError& error) {
  auto* health = std::exchange(health_, nullptr);
  if (!health) return;
  health->errors_[static_cast<std::size_t>(error.kind())].fetch_add(1, std::memory_order_relaxed);
  if (!error.unavailable()) {  // the store answered: it works
    health_ = health;
    return answered();
  }
  std::lock_guard lock(health->mutex_);
  health->in_flight_.erase(id_);
  health->last_trouble_ = Clock::now();
  if (health->up()) health->went_down(error.what());
}

void StoreHealth::ended(std::uint64_t id) {
  std::lock_guard lock(mutex_);
  in_flight_.erase(id);
}

bool StoreHealth::stalled(Clock::time_point now) const {
  return std::any_of(in_flight_.begin(), in_flight_.end(),
                     [&](const auto& call) { return now - call.second.since >= stall_after_; });
}

bool StoreHealth::trying() const {
  return std::any_of(in_flight_.begin(), in_flight_.end(), [](const auto& call) { return call.second.trial; });
}

void StoreHealth::check() {
  std::lock_guard lock(mutex_);
  const auto now = Clock::now();
  if (!stalled(now)) return;
  last_trouble_ = now;
  if (!up()) return;
  const auto oldest = std::min_element(in_flight_.begin(), in_flight_.end(),
                                       [](const auto& a, const auto& b) { return a.second.since < b.second.since; });
  went_down("no answer for " +
            std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(now - oldest->second.since).count()) +
            " ms");
}

void StoreHealth::went_down(const std::string& reason) {
  up_.store(false, std::memory_order_relaxed);
  outages_.fetch_add(1, std::memory_order_relaxed);
  down_since_ = Clock::now();
  next_trial_ = down_since_ + trial_every_;
  reason_ = reason;
  spdlog::warn("store unavailable: {}; writes are refused until it answers again", reason);
}

void StoreHealth::came_back() {
  up_.store(true, std::memory_order_relaxed);
  const auto down = std::chrono::duration<double>(Clock::now() - down_since_).count();
  reason_.clear();
  spdlog::info("store available again after {:.1f} s", down);
}

double StoreHealth::seconds_since_answer() const {
  const auto last = last_answer_ns_.load(std::memory_order_relaxed);
  return std::max(0.0, static_cast<double>(ns_of(Clock::now()) - last) / 1e9);
}

std::string StoreHealth::render(std::uint64_t reconnections) const {
  std::ostringstream out;
  out << "# HELP emporium_store_up Whether the store answers (0 while writes are refused).\n"
         "# TYPE emporium_store_up gauge\n"
      << "emporium_store_up " << (up() ? 1 : 0) << "\n"
      << "# HELP emporium_store_seconds_since_answer Seconds since the store last answered a call.\n"
         "# TYPE emporium_store_seconds_since_answer gauge\n"
      << "emporium_store_seconds_since_answer " << seconds_since_answer() << "\n"
      << "# HELP emporium_store_errors_total Store calls that failed, by kind.\n"
         "# TYPE emporium_store_errors_total counter\n";
  for (const auto kind : kKinds) {
    out << "emporium_store_errors_total{kind=\"" << kind_name(kind) << "\"} "
        << errors_[static_cast<std::size_t>(kind)].load(std::memory_order_relaxed) << "\n";
  }
  out << "# HELP emporium_store_outages_total Times the store went down.\n"
         "# TYPE emporium_store_outages_total counter\n"
      << "emporium_store_outages_total " << outages_.load(std::memory_order_relaxed) << "\n"
      << "# HELP emporium_store_reconnections_total Connections to the database opened again after the first.\n"
         "# TYPE emporium_store_reconnections_total counter\n"
      << "emporium_store_reconnections_total " << reconnections << "\n";
  return out.str();
}

}  // namespace emporium::server
