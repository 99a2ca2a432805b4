#pragma once
// Whether the store answers, as every caller of it sees (GuardedStore counts each call here). The store is down
// from a call that failed because it was unavailable (unreachable, shutting down, timed out, locked, out of disk),
// or that has waited longer than `stall_after` (check(), run every fraction of a second), until a call succeeds
// again; meanwhile writes are refused at once instead of waiting (GuardedStore), /healthz answers 503, and one log
// line says so, and one more when it is back. Thread-safe; up() is one atomic load, for a move's path.
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "store/store.hpp"

namespace emporium::server {

class StoreHealth {
 public:
  using Clock = std::chrono::steady_clock;

  explicit StoreHealth(std::chrono::milliseconds stall_after = std::chrono::seconds(2));

  bool up() const { return up_.load(std::memory_order_relaxed); }
  // Why it is down ("" while up).
  std::string reason() const;

  // One call to the store, from begin() until its outcome: answered() or failed().
  class Call {
   public:
    Call(StoreHealth& health, std::uint64_t id) : health_(&health), id_(id) {}
    Call(Call&& other) noexcept : health_(std::exchange(other.health_, nullptr)), id_(other.id_) {}
    Call& operator=(Call&&) = delete;
    ~Call();  // a call that ended without an outcome (an exception other than StoreError) counts as answered

    void answered();                       // it succeeded, or the store refused it while working
    void failed(const StoreError& error);  // counted by kind; an unavailable store goes down

   private:
    StoreHealth* health_;
    std::uint64_t id_;
  };
  Call begin();

  // From a timer: a call that has waited longer than `stall_after` takes the store down.
  void check();

  // Seconds since the store last answered a call (0 while a call has just succeeded).
  double seconds_since_answer() const;
  // The Prometheus lines for /metrics (emporium_store_*), with `reconnections` from the store.
  std::string render(std::uint64_t reconnections) const;

 private:
  void ended(std::uint64_t id);
  void went_down(const std::string& reason);  // with mutex_ held
  void came_back();                           // with mutex_ held

  const std::chrono::milliseconds stall_after_;
  std::atomic<bool> up_{true};
  std::atomic<std::int64_t> last_answer_ns_;  // Clock's time since its epoch
  std::array<std::atomic<long>, 4> errors_{};  // by StoreError::Kind
  std::atomic<long> outages_{0};
  mutable std::mutex mutex_;
  std::map<std::uint64_t, Clock::time_point> in_flight_;  // calls not yet ended, by id, with their start
  std::uint64_t next_id_ = 0;
  Clock::time_point down_since_{};
  std::string reason_;
};

}  // namespace emporium::server
