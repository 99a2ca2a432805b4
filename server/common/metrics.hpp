#pragma once
// Counters for GET /metrics (Prometheus text format 0.0.4). Lock-free on the hot path.
#include <array>
#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace emporium::server {

class Metrics {
 public:
  static constexpr std::array<double, 10> kLatencyBuckets = {0.0001, 0.00025, 0.0005, 0.001, 0.0025,
                                                             0.005,  0.01,    0.025,  0.05,  0.1};

  void connection_opened() { ++connections_; ++connections_total_; }
  void connection_closed() { --connections_; }
  // An accepted action, with the time from receipt to its events being queued for every viewer.
  void action_accepted(double seconds);
  void action_rejected(const std::string& code);
  void bot_move() { ++bot_moves_; }  // a move made by a computer player (through the same path as an act)
  void message_refused(const std::string& code);  // protocol-level refusals (bad_json, rate_limited, ...)
  // One group commit of `actions` actions (CommitQueue): their mean tells how well commits are shared.
  void commit_written(std::size_t actions) { ++commits_; committed_actions_ += static_cast<long>(actions); }

  // rooms: (game, state) -> count, supplied by the lobby at scrape time.
  std::string render(const std::map<std::pair<std::string, std::string>, int>& rooms) const;

 private:
  std::atomic<long> connections_{0};
  std::atomic<long> connections_total_{0};
  std::atomic<long> accepted_{0};
  std::atomic<long> bot_moves_{0};
  std::atomic<long> commits_{0};
  std::atomic<long> committed_actions_{0};
  std::array<std::atomic<long>, kLatencyBuckets.size()> buckets_{};
  std::atomic<long> latency_micros_sum_{0};
  mutable std::mutex codes_mutex_;  // rejections are rare; a map under a lock is plenty
  std::map<std::string, long> rejected_;
  std::map<std::string, long> refused_;
};

}  // namespace emporium::server
