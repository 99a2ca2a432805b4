#pragma once
// Counts events per key (a name, an address) over a sliding window, against a limit: the failed sign-ins per name
// and per address, the sign-ups and passkey challenges per address. Per node, in memory; thread-safe. Keys that
// have seen nothing for a window are forgotten, so an attacker's many keys cost memory for a window at most.
#include <chrono>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>

namespace emporium::server {

class Throttle {
 public:
  using Clock = std::chrono::steady_clock;
  Throttle(std::size_t limit, Clock::duration window) : limit_(limit), window_(window) {}

  // How long until `key` may try again: zero when it is under its limit now.
  Clock::duration wait(const std::string& key, Clock::time_point now = Clock::now());
  void count(const std::string& key, Clock::time_point now = Clock::now());
  void forget(const std::string& key);  // e.g. a name's failures once it signed in

 private:
  void prune(Clock::time_point now);  // with the mutex held

  const std::size_t limit_;
  const Clock::duration window_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::deque<Clock::time_point>> events_;
  Clock::time_point last_prune_{};
};

}  // namespace emporium::server
