#pragma once
// End-to-end test helpers: a real emporium-server process on port 0 with its own data directory,
// and WebSocket/HTTP clients that talk to it over loopback.
#include <utility>  // before Asio: its awaitable.hpp needs std::exchange

#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace emporium::testing {

using Json = nlohmann::json;
using namespace std::chrono_literals;

// What a reply says: an error's code, or else the reply's type.
inline std::string code(const Json& reply) { return reply.value("code", reply.value("type", "")); }

// Runs build/server/emporium-server as a child process.
class server_process {
 public:
  // A fresh data directory unless one is given (to restart on the same data). With `log_file`, the server's
  // output goes there instead of the test's.
  explicit server_process(std::string data_dir = "", std::vector<std::string> extra_args = {},
                          const std::string& log_file = "");
  ~server_process();
  std::uint16_t port() const { return port_; }
  const std::string& data_dir() const { return data_dir_; }
  void kill_hard();                        // SIGKILL, as a crash would
  int terminate(std::chrono::seconds wait = 10s);  // SIGTERM; returns the exit status
  bool running() const;
  int pid() const { return pid_; }

 private:
  std::string data_dir_;
  bool owns_dir_ = false;
  int pid_ = -1;
  std::uint16_t port_ = 0;
};

std::string make_temp_dir(const std::string& prefix);
// A loopback port nobody listens on now, for a process a test starts (an SMTP server, a proxy, a node).
std::uint16_t free_port();

// How a ws_client connects.
struct ws_options {
  std::string target = "/ws";
  std::string origin;  // sent as the Origin header, as a browser would (none when empty)
  std::vector<std::pair<std::string, std::string>> headers;  // more request headers (X-Forwarded-For, say)
  // Says hello at once, as the web client does (the server closes connections that have not within 10 s); its
  // reply (without "re") arrives right after the welcome.
  bool hello = true;
};

// One WebSocket connection. A background thread reads every frame into an inbox; the test pops
// frames with a timeout. Every frame received is also kept in `log` for leak assertions.
class ws_client {
 public:
  // Throws when the upgrade is refused.
  ws_client(std::uint16_t port, const ws_options& options);
  explicit ws_client(std::uint16_t port, std::string target = "/ws", const std::string& origin = "")
      : ws_client(port, ws_options{std::move(target), origin, {}, true}) {}
  ~ws_client();

  void send(const Json& message);
  void send_raw(const std::string& text, bool binary = false);
  // Sends without waiting for the write to finish (for frames the server may refuse half-way).
  void send_raw_async(std::string text);
  // The next frame, or nothing within the timeout.
  std::optional<Json> next(std::chrono::milliseconds timeout = 5s);
  // Frames until one matches (those before it are dropped from the inbox but stay in the log).
  Json wait_for(const std::function<bool(const Json&)>& match, std::chrono::milliseconds timeout = 5s);
  Json wait_type(const std::string& type, std::chrono::milliseconds timeout = 5s);
  // Sends with a fresh id and waits for the reply carrying it ("re"), an error included.
  Json request(Json message, std::chrono::milliseconds timeout = 5s);
  // Nothing arrives within the time (for "others see nothing" checks).
  bool quiet_for(std::chrono::milliseconds time);
  bool closed() const;
  std::optional<int> close_code() const;
  void close();
  // A WebSocket ping (a control frame, not the protocol's "ping"); pongs() counts the pongs received.
  void ping(const std::string& payload);
  int pongs() const;
  std::vector<std::string> log() const;
  // Frames received from position `from` of the log on (cheaper than copying the whole log).
  std::vector<std::string> log_from(std::size_t from) const;
  // Blocks until the log holds more than `count` frames (or the timeout); true if it does.
  bool wait_log_beyond(std::size_t count, std::chrono::milliseconds timeout);
  std::size_t inbox_size() const;

 private:
  void do_read();
  boost::asio::io_context ioc_;
  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  boost::beast::flat_buffer buffer_;
  std::thread thread_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<Json> inbox_;
  std::vector<std::string> log_;
  bool closed_ = false;
  std::optional<int> close_code_;
  int pongs_ = 0;
  int next_id_ = 1;
};

struct http_reply {
  int status = 0;
  std::string content_type;
  std::string body;
  std::string cache_control;
  std::string etag;
  std::string content_encoding;
  std::string vary;
  std::vector<std::string> set_cookies;  // every Set-Cookie header
  std::string retry_after;
  std::string content_disposition;
};
// A bare WebSocket to the server (no reader thread: nothing is read unless the test reads), handshaken and past
// hello, with a small receive buffer: for clients that read slowly or not at all.
using raw_websocket = boost::beast::websocket::stream<boost::beast::tcp_stream>;
raw_websocket connect_raw(boost::asio::io_context& ioc, std::uint16_t port, int receive_buffer = 4096);

// A raw HTTP/1.1 GET, the target sent exactly as given; `headers` ("Name: value\r\n" lines) are added
// (with "Connection: close" unless they have a Connection header).
http_reply http_get(std::uint16_t port, const std::string& target, const std::string& headers = "");
// The same with any method and a body (its Content-Length is added).
http_reply http_request(std::uint16_t port, const std::string& method, const std::string& target,
                        const std::string& headers = "", const std::string& body = "");

}  // namespace emporium::testing
