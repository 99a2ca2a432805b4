#pragma once
// The server seen from outside: its process's figures in /proc, its counters at /metrics, and (--spawn) a
// server started for the run on a fresh data directory.
#include "run_state.hpp"

#include <boost/asio/ip/tcp.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace emporium::load {

struct process_sample {
  double peak_rss_kib = 0;  // VmHWM
  double rss_kib = 0;       // VmRSS
  double cpu_s = 0;         // user + system
};
std::optional<process_sample> sample_process(int pid);
double own_cpu_seconds();

// The server's counts of accepted actions, rejected ones by code and refused messages by code.
struct server_counters {
  long accepted = 0;
  std::map<std::string, long> rejected;
  std::map<std::string, long> refused;
};
server_counters parse_metrics(std::string_view text);

// GET over HTTP/1.1: the body of a 200 answer, or nothing (no answer within 5 s, another status).
net::awaitable<std::optional<std::string>> http_get(net::ip::tcp::endpoint server, std::string target);

class spawned_server {
 public:
  // Starts the server (its output goes to this process's standard error). Throws when it cannot.
  explicit spawned_server(const options& o);
  ~spawned_server();  // SIGTERM and wait; a fresh data directory is removed (unless --keep-data)
  spawned_server(const spawned_server&) = delete;
  spawned_server& operator=(const spawned_server&) = delete;

  int pid() const { return pid_; }
  // The port it listens on, once it has written it (--port 0 picks a free one).
  std::optional<std::uint16_t> port() const;
  // Why the server is gone, if it is.
  std::optional<std::string> exited();

 private:
  int pid_ = -1;
  std::string data_dir_;
  bool remove_data_ = false;
};

}  // namespace emporium::load
