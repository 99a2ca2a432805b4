#pragma once
// Where computer players think: a fixed pool of worker threads beside the network threads, at a lower
// CPU priority, so a table of bots never delays a person's move. Rooms post one decision at a time
// (at most one pending per table), so the queue is bounded by the number of tables.
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace emporium::server {

class bot_workers {
 public:
  // `threads` workers (at least 1), each at nice `niceness` (0: as the server).
  explicit bot_workers(int threads, int niceness = 10);
  ~bot_workers();  // stops: the job under way finishes, queued ones are dropped
  bot_workers(const bot_workers&) = delete;
  bot_workers& operator=(const bot_workers&) = delete;

  // Runs `job` on a worker. Thread-safe.
  void post(std::function<void()> job);

 private:
  void run(int niceness);

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace emporium::server
