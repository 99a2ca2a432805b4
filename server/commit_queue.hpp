#pragma once
// Group commit: the accepted actions of every table are written by one thread, as many per transaction as
// arrived while the previous transaction was being written. A room hands over its action and tells nobody of it
// until `done` reports it stored; meanwhile the room holds back everything else it is asked (room.hpp). Under
// load one transaction carries the moves of many tables; alone, a move waits for no one. After each batch, and
// after each idle quarter second, the writer runs the store's housekeeping (store::after_batch).
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "store.hpp"

namespace emporium::server {

class metrics;

class commit_queue {
 public:
  // Called on the writer thread once the action is stored (true) or could not be (false); must not block.
  using done_fn = std::function<void(bool stored)>;

  // `delay`: for tests, a wait before each transaction, as a slow disk would make (moves pile up meanwhile).
  explicit commit_queue(store& db, metrics* counters = nullptr, std::chrono::milliseconds delay = {});
  ~commit_queue();  // stop()
  commit_queue(const commit_queue&) = delete;
  commit_queue& operator=(const commit_queue&) = delete;

  // Thread-safe. After stop() the action is written at once on the caller's thread.
  void append(ActionWrite action, done_fn done);
  // Writes what is queued, then ends the writer thread. Idempotent.
  void stop();

 private:
  struct entry {
    ActionWrite action;
    done_fn done;
  };
  void run();
  void write(std::vector<entry>& batch);

  store& db_;
  metrics* metrics_;
  std::chrono::milliseconds delay_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<entry> queue_;
  bool stopping_ = false;
  std::thread writer_;
};

}  // namespace emporium::server
