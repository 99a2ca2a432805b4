#include "common/throttle.hpp"

#include <vector>

namespace emporium::server {

Throttle::Clock::duration Throttle::wait(const std::string& key, Clock::time_point now) {
  std::lock_guard lock(mutex_);
  const auto it = events_.find(key);
  if (it == events_.end()) return {};
  auto& times = it->second;
  while (!times.empty() && times.front() + window_ <= now) times.pop_front();
  if (times.size() < limit_) return {};
  // Once the oldest counted event leaves the window, there is room for one more.
  return times.front() + window_ - now;
}

void Throttle::count(const std::string& key, Clock::time_point now) {
  std::lock_guard lock(mutex_);
  prune(now);
  auto& times = events_[key];
  times.push_back(now);
  while (times.size() > limit_) times.pop_front();  // only the newest `limit_` ever matter
}

void Throttle::forget(const std::string& key) {
  std::lock_guard lock(mutex_);
  events_.erase(key);
}

void Throttle::prune(Clock::time_point now) {
  if (now - last_prune_ < window_) return;
  last_prune_ = now;
  std::erase_if(events_, [&](const auto& entry) { return entry.second.empty() || entry.second.back() + window_ <= now; });
}

}  // namespace emporium::server
