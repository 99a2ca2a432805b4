#include "store/heartbeat.hpp"

#include "common/wall_clock.hpp"

namespace emporium::server {

namespace {
constexpr auto kTick = std::chrono::milliseconds(250);
constexpr int kTicksPerBeat = 4;
}  // namespace

void Heartbeat::run() {
  net::dispatch(timer_.get_executor(), [this] { tick(); });
}

void Heartbeat::stop() {
  net::dispatch(timer_.get_executor(), [this] {
    stopped_ = true;
    timer_.cancel();
    if (health_.up() && !beating_) beat();
  });
}

void Heartbeat::tick() {
  if (stopped_) return;
  health_.check();
  if (ticks_++ % kTicksPerBeat == 0 && !beating_.exchange(true)) {
    beater_.post([this] {
      beat();
      beating_ = false;
    });
  }
  timer_.expires_after(kTick);
  timer_.async_wait([this](boost::system::error_code ec) {
    if (!ec) tick();
  });
}

void Heartbeat::beat() {
  try {
    db_.mark_alive(unix_ms_now());
  } catch (const std::exception&) {
    // Counted by the store's health (GuardedStore); a missed beat only costs the clocks' precision after a crash.
  }
}

}  // namespace emporium::server
