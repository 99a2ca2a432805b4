#include "store/commit_queue.hpp"

#include <spdlog/spdlog.h>

#include "common/metrics.hpp"

namespace emporium::server {

CommitQueue::CommitQueue(Store& db, Metrics* counters, std::chrono::milliseconds delay)
    : db_(db), metrics_(counters), delay_(delay), writer_([this] { run(); }) {}

CommitQueue::~CommitQueue() { stop(); }

void CommitQueue::append(ActionWrite action, Done done) {
  {
    std::lock_guard lock(mutex_);
    if (!stopping_) {
      queue_.push_back({std::move(action), std::move(done)});
      if (queue_.size() == 1) wake_.notify_one();
      return;
    }
  }
  std::vector<Entry> alone;
  alone.push_back({std::move(action), std::move(done)});
  write(alone);
}

void CommitQueue::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  wake_.notify_one();
  if (writer_.joinable()) writer_.join();
}

void CommitQueue::run() {
  std::vector<Entry> batch;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      // Idle for a quarter of a second: the store's housekeeping runs anyway (the log also grows by the rooms' own writes).
      if (!wake_.wait_for(lock, std::chrono::milliseconds(250), [&] { return stopping_ || !queue_.empty(); })) {
        lock.unlock();
        db_.after_batch();
        continue;
      }
      if (queue_.empty()) return;  // stopping, and everything queued is written
    }
    if (delay_.count() > 0) std::this_thread::sleep_for(delay_);
    {
      std::lock_guard lock(mutex_);
      batch.swap(queue_);
    }
    write(batch);
    batch.clear();
    db_.after_batch();  // what arrives meanwhile waits, as it would for a slow commit
  }
}

void CommitQueue::write(std::vector<Entry>& batch) {
  std::vector<ActionWrite> actions;
  actions.reserve(batch.size());
  for (auto& e : batch) actions.push_back(std::move(e.action));
  try {
    db_.append_actions(actions);
    if (metrics_) metrics_->commit_written(actions.size());
    for (auto& e : batch) e.done(std::nullopt);
    return;
  } catch (const StoreError& e) {
    if (e.unavailable()) {
      // No action can be stored now (the store's health logs the outage once, not each move): all are refused.
      for (auto& entry : batch) entry.done(StoreError::Kind::unavailable);
      return;
    }
    spdlog::error("storing {} actions: {}; trying them one by one", actions.size(), e.what());
  } catch (const std::exception& e) {
    spdlog::error("storing {} actions: {}; trying them one by one", actions.size(), e.what());
  }
  // One bad action must not cost the other tables theirs: each on its own.
  for (std::size_t i = 0; i < batch.size(); ++i) {
    std::optional<StoreError::Kind> failed;
    try {
      db_.append_actions({actions[i]});
    } catch (const StoreError& e) {
      if (!e.unavailable()) spdlog::error("table {}: storing action {}: {}", actions[i].table, actions[i].index, e.what());
      failed = e.kind();
    } catch (const std::exception& e) {
      spdlog::error("table {}: storing action {}: {}", actions[i].table, actions[i].index, e.what());
      failed = StoreError::Kind::other;
    }
    batch[i].done(failed);
  }
}

}  // namespace emporium::server
