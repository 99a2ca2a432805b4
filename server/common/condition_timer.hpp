#pragma once
// Runs an action once a condition has held for a while: armed when the condition starts to hold, disarmed when
// it stops, never re-armed while it keeps holding (the time counts from when it began). Used on one strand only.
// The action must keep its owner alive (capture a shared_ptr): the timer lives in that owner.
#include <chrono>
#include <cstdint>
#include <optional>
#include <utility>

#include "common/net.hpp"

namespace emporium::server {

class ConditionTimer {
 public:
  explicit ConditionTimer(net::any_io_executor strand) : timer_(std::move(strand)) {}

  // Tells whether the condition holds now; when it has just started to, `fire` runs `after` from now unless an
  // update(false, …) or cancel() comes first.
  template <class Fire>
  void update(bool holds, std::chrono::steady_clock::duration after, Fire fire) {
    if (!holds) return cancel();
    if (armed_) return;  // already counting since it began to hold
    const auto generation = ++armings_;
    armed_ = generation;
    timer_.expires_after(after);
    timer_.async_wait([this, generation, fire = std::move(fire)](boost::system::error_code ec) mutable {
      if (ec || armed_ != generation) return;  // cancelled, or a callback of an earlier arming
      armed_.reset();
      fire();
    });
  }

  void cancel() {
    if (armed_) timer_.cancel();
    armed_.reset();
  }

 private:
  net::steady_timer timer_;
  std::optional<std::uint64_t> armed_;  // the arming whose callback may fire
  std::uint64_t armings_ = 0;
};

}  // namespace emporium::server
