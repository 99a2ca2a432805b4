#pragma once
// Group commit: the accepted actions of every table are written by one thread, as many per transaction as
// arrived while the previous transaction was being written. A room hands over its action and tells nobody of it
// until `done` reports it stored; meanwhile the room holds back everything else it is asked (tables/room.hpp). Under
// load one transaction carries the moves of many tables; alone, a move waits for no one. After each batch, and
// after each idle quarter second, the writer runs the store's housekeeping (Store::after_batch).
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "store/store.hpp"

namespace emporium::server {

class Metrics;

class CommitQueue {
 public:
  // Called on the writer thread once the action is stored (nothing) or could not be (why not); must not block.
  using Done = std::function<void(std::optional<StoreError::Kind> failed)>;

  // `delay`: for tests, a wait before each transaction, as a slow disk would make (moves pile up meanwhile).
  explicit CommitQueue(Store& db, Metrics* counters = nullptr, std::chrono::milliseconds delay = {});
  ~CommitQueue();  // stop()
  CommitQueue(const CommitQueue&) = delete;
  CommitQueue& operator=(const CommitQueue&) = delete;

  // Thread-safe. After stop() the action is written at once on the caller's thread.
  void append(ActionWrite action, Done done);
  // Writes what is queued, then ends the writer thread. Idempotent.
  void stop();

 private:
  struct Entry {
    ActionWrite action;
    Done done;
  };
  void run();
  void write(std::vector<Entry>& batch);

  Store& db_;
  Metrics* metrics_;
  std::chrono::milliseconds delay_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Entry> queue_;
  bool stopping_ = false;
  std::thread writer_;
};

}  // namespace emporium::server
