#pragma once
// What the cluster tests share (cluster_test.cpp, db_faults_test.cpp): nodes on one PostgreSQL as local processes,
// HAProxy in front of them with the routing of deploy/haproxy.cfg, players' seats connected through it, and an HTTP
// GET that gives up (a frozen node never answers).
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "game_driver.hpp"
#include "test_client.hpp"

namespace emporium::testing {

// Up to `limit` open files for this process and the nodes and proxy it starts (each player is a connection).
void raise_open_files_limit(unsigned long limit);

// A node `name` (--node) on the store `store_uri`: its port file in <dir>/<name>/, its output in <dir>/<name>.log.
std::unique_ptr<server_process> start_node(const std::string& dir, const std::string& store_uri,
                                           const std::string& name, std::vector<std::string> extra_args = {});
std::string node_log(const std::string& dir, const std::string& name);

// HAProxy as a child process, in the foreground (-db), killed at the end.
class haproxy_process {
 public:
  haproxy_process(const std::string& dir, std::uint16_t port, const std::vector<std::uint16_t>& nodes);
  ~haproxy_process();
  haproxy_process(const haproxy_process&) = delete;
  haproxy_process& operator=(const haproxy_process&) = delete;
  std::uint16_t port() const { return port_; }

 private:
  std::uint16_t port_;
  int pid_ = -1;
};

// One seat of one table, on its own connection through the proxy: what it has seen of the table (game_driver's
// seat_tracker, reading `connection`'s log) and the connections it had before.
struct seat : seat_tracker {
  seat() : seat_tracker(nullptr, "") {}
  std::unique_ptr<ws_client> connection;
  std::vector<std::unique_ptr<ws_client>> earlier;  // connections that closed (their logs are read at the end)
  std::string token;
  std::string node;  // the node its current connection reached
  std::vector<std::pair<std::string, std::string>> headers;  // sent at each upgrade (a signed-in person's cookie)
};

// How long connect_seat waits for a node's welcome and for the answer to `resume`.
struct seat_waits {
  std::chrono::milliseconds welcome = 10s;
  std::chrono::milliseconds resume = 20s;
};

// Connects `s` to the table through the proxy (the URL names the table, as the web client's does) and takes the
// seat back; retries while the table's node is changing hands, and throws once `give_up` has passed.
void connect_seat(std::uint16_t proxy, const std::string& table, seat& s,
                  std::chrono::steady_clock::time_point give_up, seat_waits waits = {});

// A GET with a deadline for the whole exchange: nothing when there is no complete answer by then.
std::optional<http_reply> http_get_within(std::uint16_t port, const std::string& target,
                                          std::chrono::milliseconds timeout);

}  // namespace emporium::testing
