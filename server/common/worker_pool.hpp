#pragma once
// A fixed pool of worker threads beside the network threads, at a lower CPU priority, for work too long for a
// network thread. The server has two: where computer players think (rooms post one decision at a time, at most
// one pending per table, so the queue is bounded by the number of tables) and where finished games' records
// and replays are built (records/game_records.hpp), so a busy table of bots never delays a replay nor a replay a bot.
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace emporium::server {

// Gives the calling thread nice `niceness` (Linux: per thread), so that it yields to the network threads.
void lower_thread_priority(int niceness);

class WorkerPool {
 public:
  // `threads` workers (at least 1), each at nice `niceness` (0: as the server).
  explicit WorkerPool(int threads, int niceness = 10);
  ~WorkerPool();  // stops: the job under way finishes, queued ones are dropped
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

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
