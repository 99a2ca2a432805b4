#include "net/open_connections.hpp"

#include <algorithm>
#include <vector>

#include "net/websocket_session.hpp"

namespace emporium::server {

void OpenConnections::add(const std::shared_ptr<WebSocketSession>& session) {
  std::lock_guard lock(mutex_);
  // remove() takes closed sessions out; a sweep now and then (amortized O(1), not a scan per connection) catches
  // any that went without closing.
  if (sessions_.size() >= sweep_at_) {
    std::erase_if(sessions_, [](const auto& entry) { return entry.second.expired(); });
    sweep_at_ = std::max<std::size_t>(1024, 2 * sessions_.size());
  }
  sessions_[session.get()] = session;
}

void OpenConnections::remove(const WebSocketSession* session) {
  std::lock_guard lock(mutex_);
  sessions_.erase(session);
}

std::vector<std::shared_ptr<WebSocketSession>> OpenConnections::open() const {
  std::vector<std::shared_ptr<WebSocketSession>> open;
  std::lock_guard lock(mutex_);
  for (const auto& [key, w] : sessions_) {
    if (auto s = w.lock()) open.push_back(std::move(s));
  }
  return open;
}

void OpenConnections::close_all() {
  for (const auto& s : open()) s->close(Connection::Close::going_away);
}

void OpenConnections::sign_out(const std::string& account, const std::string& session) {
  for (const auto& s : open()) {
    const auto& who = s->account();
    if (who && who->account == account && (session.empty() || who->session == session)) {
      s->close(Connection::Close::signed_out);
    }
  }
}

std::size_t OpenConnections::count() const {
  std::lock_guard lock(mutex_);
  return static_cast<std::size_t>(
      std::count_if(sessions_.begin(), sessions_.end(), [](const auto& entry) { return !entry.second.expired(); }));
}

}  // namespace emporium::server
