#pragma once
// Writes the server's sign of life to the store every second, so that after a crash the turn clocks know
// when the server went down and charge nobody for the time it was away.
#include <chrono>
#include <memory>

#include "common/net.hpp"
#include "store/store.hpp"
#include "common/wall_clock.hpp"

namespace emporium::server {

class Heartbeat {
 public:
  // The timer has a strand of its own: stop() comes from the signal handler, on any network thread, while the
  // timer's handler may be running on another.
  Heartbeat(net::any_io_executor executor, Store& db) : timer_(net::make_strand(executor)), db_(db) {}

  void run() {
    net::dispatch(timer_.get_executor(), [this] { beat_and_wait(); });
  }
  void stop() {
    net::dispatch(timer_.get_executor(), [this] {
      stopped_ = true;
      timer_.cancel();
      beat();
    });
  }

 private:
  void beat_and_wait() {
    if (stopped_) return;
    beat();
    timer_.expires_after(std::chrono::seconds(1));
    timer_.async_wait([this](boost::system::error_code ec) {
      if (!ec) beat_and_wait();
    });
  }
  void beat() {
    try {
      db_.mark_alive(unix_ms_now());
    } catch (const std::exception&) {
      // A busy or failing disk shows up in the moves' own writes; a missed beat only costs precision.
    }
  }

  net::steady_timer timer_;
  Store& db_;
  bool stopped_ = false;  // on the strand
};

}  // namespace emporium::server
