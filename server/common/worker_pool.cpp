#include "common/worker_pool.hpp"

#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace emporium::server {

WorkerPool::WorkerPool(int threads, int niceness) {
  for (int i = 0; i < std::max(1, threads); ++i) threads_.emplace_back([this, niceness] { run(niceness); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    jobs_.clear();
  }
  wake_.notify_all();
  for (auto& t : threads_) t.join();
}

void WorkerPool::post(std::function<void()> job) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    jobs_.push_back(std::move(job));
  }
  wake_.notify_one();
}

void lower_thread_priority(int niceness) {
  // Linux gives each thread its own nice value: the network threads keep theirs.
  if (niceness != 0 && setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), niceness) != 0) {
    spdlog::debug("a worker thread could not lower its priority");
  }
}

void WorkerPool::run(int niceness) {
  lower_thread_priority(niceness);
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (stopping_) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    try {
      job();
    } catch (const std::exception& e) {
      spdlog::error("bot worker: {}", e.what());
    }
  }
}

}  // namespace emporium::server
