#include "cluster_support.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <thread>

namespace emporium::testing {

namespace asio = boost::asio;
namespace beast = boost::beast;
using clock_type = std::chrono::steady_clock;

void raise_open_files_limit(unsigned long limit) {
  rlimit files{};
  ::getrlimit(RLIMIT_NOFILE, &files);
  files.rlim_cur = std::min<rlim_t>(files.rlim_max, limit);
  ::setrlimit(RLIMIT_NOFILE, &files);
}

std::string node_log(const std::string& dir, const std::string& name) { return dir + "/" + name + ".log"; }

std::unique_ptr<server_process> start_node(const std::string& dir, const std::string& store_uri,
                                           const std::string& name, std::vector<std::string> extra_args) {
  std::filesystem::create_directories(dir + "/" + name);  // its port file (the store is PostgreSQL)
  std::vector<std::string> args{"--store", store_uri, "--node", name};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  return std::make_unique<server_process>(dir + "/" + name, args, node_log(dir, name));
}

haproxy_process::haproxy_process(const std::string& dir, std::uint16_t port, const std::vector<std::uint16_t>& nodes)
    : port_(port) {
  // The routing part is deploy/haproxy.cfg's; here without TLS and with short health checks.
  const std::string cfg = dir + "/haproxy.cfg";
  std::ofstream out(cfg);
  out << "global\n  maxconn 4000\n"
         "defaults\n  mode http\n  timeout connect 2s\n  timeout client 120s\n  timeout server 120s\n"
         "  timeout tunnel 1h\n  option redispatch\n  retries 3\n  option forwardfor\n"
         "frontend web\n  bind 127.0.0.1:" << port << "\n  default_backend nodes\n"
         "backend nodes\n  balance url_param table\n  hash-type consistent\n  option httpchk GET /healthz\n";
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    out << "  server n" << i + 1 << " 127.0.0.1:" << nodes[i] << " check inter 300ms fall 2 rise 2\n";
  }
  out.close();
  pid_ = fork();
  if (pid_ == 0) {
    const int fd = ::open((dir + "/haproxy.log").c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
      ::dup2(fd, STDOUT_FILENO);
      ::dup2(fd, STDERR_FILENO);
    }
    execlp("haproxy", "haproxy", "-db", "-f", cfg.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  for (int i = 0; i < 300; ++i) {
    try {
      if (http_get(port_, "/healthz").status == 200) return;
    } catch (const std::exception&) {
    }
    std::this_thread::sleep_for(20ms);
  }
  // No destructor runs for an object whose constructor throws: the child must not outlive the test.
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, nullptr, 0);
  throw std::runtime_error("haproxy did not start: see " + dir + "/haproxy.log");
}

haproxy_process::~haproxy_process() {
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, nullptr, 0);
}

void connect_seat(std::uint16_t proxy, const std::string& table, seat& s, clock_type::time_point give_up,
                  seat_waits waits) {
  for (;;) {
    try {
      if (s.connection) s.earlier.push_back(std::move(s.connection));
      s.connection = std::make_unique<ws_client>(proxy, ws_options{"/ws?table=" + table, "", s.headers, true});
      s.client = s.connection.get();
      s.table = table;
      s.cursor = 0;
      const Json welcome = s.client->wait_type("welcome", waits.welcome);
      s.node = welcome.value("node", "");
      const Json seated = s.client->request({{"type", "resume"}, {"token", s.token}}, waits.resume);
      if (seated.value("type", "") == "seated") return;
      if (clock_type::now() > give_up) throw std::runtime_error("resume refused: " + seated.dump());
    } catch (const std::exception&) {
      if (clock_type::now() > give_up) throw;
    }
    std::this_thread::sleep_for(100ms);
  }
}

std::optional<http_reply> http_get_within(std::uint16_t port, const std::string& target,
                                          std::chrono::milliseconds timeout) {
  asio::io_context io;
  beast::tcp_stream stream(io);
  beast::http::request<beast::http::empty_body> req{beast::http::verb::get, target, 11};
  req.set(beast::http::field::host, "127.0.0.1");
  req.set(beast::http::field::connection, "close");
  beast::flat_buffer buffer;
  beast::http::response<beast::http::string_body> res;
  bool answered = false;
  stream.expires_after(timeout);  // for the connect, the write and the read together
  stream.async_connect({asio::ip::make_address("127.0.0.1"), port}, [&](beast::error_code ec) {
    if (ec) return;
    beast::http::async_write(stream, req, [&](beast::error_code ec, std::size_t) {
      if (ec) return;
      beast::http::async_read(stream, buffer, res, [&](beast::error_code ec, std::size_t) { answered = !ec; });
    });
  });
  io.run();
  if (!answered) return std::nullopt;
  http_reply reply;
  reply.status = static_cast<int>(res.result_int());
  reply.content_type = std::string(res[beast::http::field::content_type]);
  reply.body = res.body();
  return reply;
}

}  // namespace emporium::testing
