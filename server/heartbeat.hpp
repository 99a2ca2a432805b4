#pragma once
// Writes the server's sign of life to the store every second, so that after a crash the turn clocks know
// when the server went down and charge nobody for the time it was away.
#include <chrono>
#include <memory>

#include "net.hpp"
#include "store.hpp"
#include "turn_clock.hpp"

namespace emporium::server {

class heartbeat {
 public:
  heartbeat(net::any_io_executor executor, store& db) : timer_(executor), db_(db) {}

  void run() {
    beat();
    timer_.expires_after(std::chrono::seconds(1));
    timer_.async_wait([this](boost::system::error_code ec) {
      if (!ec) run();
    });
  }
  void stop() {
    timer_.cancel();
    beat();
  }

 private:
  void beat() {
    try {
      db_.mark_alive(unix_ms_now());
    } catch (const std::exception&) {
      // A busy or failing disk shows up in the moves' own writes; a missed beat only costs precision.
    }
  }

  net::steady_timer timer_;
  store& db_;
};

}  // namespace emporium::server
