#include "common/metrics.hpp"

#include <sstream>

namespace emporium::server {

void Metrics::action_accepted(double seconds) {
  ++accepted_;
  latency_micros_sum_ += static_cast<long>(seconds * 1e6);
  for (std::size_t i = 0; i < kLatencyBuckets.size(); ++i) {
    if (seconds <= kLatencyBuckets[i]) {
      ++buckets_[i];
      break;
    }
  }
}

void Metrics::action_rejected(const std::string& code) {
  std::lock_guard lock(codes_mutex_);
  ++rejected_[code];
}

void Metrics::message_refused(const std::string& code) {
  std::lock_guard lock(codes_mutex_);
  ++refused_[code];
}

std::string Metrics::render(const std::map<std::pair<std::string, std::string>, int>& rooms) const {
  std::ostringstream out;
  out << "# HELP emporium_connections Open WebSocket connections.\n"
      << "# TYPE emporium_connections gauge\n"
      << "emporium_connections " << connections_.load() << "\n"
      << "# HELP emporium_connections_total WebSocket connections accepted since start.\n"
      << "# TYPE emporium_connections_total counter\n"
      << "emporium_connections_total " << connections_total_.load() << "\n"
      << "# HELP emporium_rooms Tables by game and state.\n"
      << "# TYPE emporium_rooms gauge\n";
  for (const auto& [key, count] : rooms) {
    out << "emporium_rooms{game=\"" << key.first << "\",state=\"" << key.second << "\"} " << count << "\n";
  }
  out << "# HELP emporium_bot_moves_total Moves made by computer players.\n"
      << "# TYPE emporium_bot_moves_total counter\n"
      << "emporium_bot_moves_total " << bot_moves_.load() << "\n";
  out << "# HELP emporium_store_commits_total Transactions the commit queue wrote (each with one or more actions).\n"
      << "# TYPE emporium_store_commits_total counter\n"
      << "emporium_store_commits_total " << commits_.load() << "\n"
      << "# HELP emporium_store_committed_actions_total Actions written by the commit queue.\n"
      << "# TYPE emporium_store_committed_actions_total counter\n"
      << "emporium_store_committed_actions_total " << committed_actions_.load() << "\n";
  out << "# HELP emporium_actions_accepted_total Game actions accepted.\n"
      << "# TYPE emporium_actions_accepted_total counter\n"
      << "emporium_actions_accepted_total " << accepted_.load() << "\n"
      << "# HELP emporium_actions_rejected_total Game actions rejected, by error code.\n"
      << "# TYPE emporium_actions_rejected_total counter\n";
  {
    std::lock_guard lock(codes_mutex_);
    for (const auto& [code, n] : rejected_) out << "emporium_actions_rejected_total{code=\"" << code << "\"} " << n << "\n";
    out << "# HELP emporium_messages_refused_total Client messages refused before reaching a table, by error code.\n"
        << "# TYPE emporium_messages_refused_total counter\n";
    for (const auto& [code, n] : refused_) out << "emporium_messages_refused_total{code=\"" << code << "\"} " << n << "\n";
  }
  out << "# HELP emporium_action_latency_seconds From receiving an action to its events queued for every viewer.\n"
      << "# TYPE emporium_action_latency_seconds histogram\n";
  long cumulative = 0;
  for (std::size_t i = 0; i < kLatencyBuckets.size(); ++i) {
    cumulative += buckets_[i].load();
    out << "emporium_action_latency_seconds_bucket{le=\"" << kLatencyBuckets[i] << "\"} " << cumulative << "\n";
  }
  out << "emporium_action_latency_seconds_bucket{le=\"+Inf\"} " << accepted_.load() << "\n"
      << "emporium_action_latency_seconds_sum " << static_cast<double>(latency_micros_sum_.load()) / 1e6 << "\n"
      << "emporium_action_latency_seconds_count " << accepted_.load() << "\n";
  return out.str();
}

}  // namespace emporium::server
