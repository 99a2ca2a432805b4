#pragma once
// The WebSocket connections open on this server: counted, so that a shutdown can tell each one "going away" and
// wait until they are closed. Thread-safe: a plain mutex over one map (every session adds and removes itself).
#include <cstddef>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace emporium::server {

class WebSocketSession;

class OpenConnections {
 public:
  void add(const std::shared_ptr<WebSocketSession>& session);
  void remove(const WebSocketSession* session);
  // Closes every open connection with "going away" (once what each has queued is written).
  void close_all();
  // Closes the connections signed in with `session` of `account` (every session of it when empty): that session
  // ended. Their clients connect again, as guests or under a session they still have.
  void sign_out(const std::string& account, const std::string& session);
  std::size_t count() const;  // not yet closed

 private:
  std::vector<std::shared_ptr<WebSocketSession>> open() const;  // a copy, so that none is closed under the lock

  mutable std::mutex mutex_;
  std::unordered_map<const WebSocketSession*, std::weak_ptr<WebSocketSession>> sessions_;
  std::size_t sweep_at_ = 1024;  // add() sweeps out expired entries when sessions_ reaches this
};

}  // namespace emporium::server
