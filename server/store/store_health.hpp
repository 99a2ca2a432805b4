#pragma once
// Whether the store answers, as every caller of it sees (GuardedStore counts each call here). The store is down
// from a call that failed because it was unavailable (unreachable, shutting down, timed out, locked, out of disk),
// or that has waited longer than `stall_after` (check(), run every fraction of a second). Meanwhile writes are
// refused at once instead of waiting (GuardedStore), but one call every `trial_every` is let through to try it;
// /healthz answers 503, and one log line says so. It is up again when a call succeeds after `quiet` without
// trouble (no failure, no call hanging): so a sign of life that gets through while moves still time out on a lock
// does not end the outage, and an outage is one outage, not one a second. Thread-safe; up() is one atomic load.
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "store/store.hpp"

namespace emporium::server {

class StoreHealth {
 public:
  using Clock = std::chrono::steady_clock;

  explicit StoreHealth(std::chrono::milliseconds stall_after = std::chrono::seconds(2),
                       std::chrono::milliseconds quiet = std::chrono::seconds(1),
                       std::chrono::milliseconds trial_every = std::chrono::seconds(1));

  bool up() const { return up_.load(std::memory_order_relaxed); }
  class Call;
  // A call to make now: always while the store is up, and the sign of life (`probe`) always; while it is down,
  // one other call every `trial_every` (a trial: the outage does not end while one is under way). None otherwise.
  std::optional<Call> admit(bool probe = false);
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
  Call begin(bool trial = false);

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
  bool stalled(Clock::time_point now) const;  // a call has waited longer than stall_after_ (with mutex_ held)
  bool trying() const;                        // a trial is under way (with mutex_ held)

  const std::chrono::milliseconds stall_after_;
  const std::chrono::milliseconds quiet_;
  const std::chrono::milliseconds trial_every_;
  std::atomic<bool> up_{true};
  std::atomic<std::int64_t> last_answer_ns_;  // Clock's time since its epoch
  std::array<std::atomic<long>, 4> errors_{};  // by StoreError::Kind
  std::atomic<long> outages_{0};
  mutable std::mutex mutex_;
  struct InFlight {
    Clock::time_point since;
    bool trial;
  };
  std::map<std::uint64_t, InFlight> in_flight_;  // calls not yet ended, by id
  std::uint64_t next_id_ = 0;
  Clock::time_point down_since_{};
  Clock::time_point last_trouble_{};  // the last failure of an unavailable store, or sight of a call hanging
  Clock::time_point next_trial_{};
  std::string reason_;
};

}  // namespace emporium::server
