#pragma once
// The server's sign of life, and the store's pulse. Every second the sign of life (Unix ms) is written to the store,
// so that after a crash the turn clocks know when the server went down and charge nobody for the time it was away;
// it is written on a thread of its own, and it is always tried, even while the store is down: it is the probe that
// sees the store answer again (GuardedStore). Every quarter second the store's health is checked for a call that has
// waited too long (StoreHealth::check), on the network threads, without touching the store.
#include <atomic>
#include <chrono>

#include "common/net.hpp"
#include "common/worker_pool.hpp"
#include "store/store.hpp"
#include "store/store_health.hpp"

namespace emporium::server {

class Heartbeat {
 public:
  // The timer has a strand of its own: stop() comes from the signal handler, on any network thread, while the
  // timer's handler may be running on another.
  Heartbeat(net::any_io_executor executor, Store& db, StoreHealth& health)
      : timer_(net::make_strand(executor)), db_(db), health_(health) {}

  void run();
  void stop();  // a last sign of life, if the store answers

 private:
  void tick();
  void beat();

  net::steady_timer timer_;
  Store& db_;
  StoreHealth& health_;
  WorkerPool beater_{1, 0};
  std::atomic<bool> beating_{false};  // a beat is on its way: the next waits for it
  int ticks_ = 0;         // on the strand
  bool stopped_ = false;  // on the strand
};

}  // namespace emporium::server
