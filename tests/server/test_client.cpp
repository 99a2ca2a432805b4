#include "test_client.hpp"

#include <fcntl.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <future>
#include <stdexcept>

namespace emporium::testing {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace http = beast::http;
using tcp = net::ip::tcp;

std::string make_temp_dir(const std::string& prefix) {
  std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  return pattern;
}

std::uint16_t free_port() {
  net::io_context io;
  tcp::acceptor a(io, {net::ip::make_address("127.0.0.1"), 0});
  return a.local_endpoint().port();
}

server_process::server_process(std::string data_dir, std::vector<std::string> extra_args, const std::string& log_file)
    : data_dir_(std::move(data_dir)) {
  if (data_dir_.empty()) {
    data_dir_ = make_temp_dir("emporium-e2e");
    owns_dir_ = true;
  }
  const std::string port_file = data_dir_ + "/port";
  std::filesystem::remove(port_file);
  std::vector<std::string> args = {EMPORIUM_SERVER_BINARY, "--bind", "127.0.0.1", "--port", "0",
                                   "--data-dir", data_dir_, "--web-root", EMPORIUM_WEB_ROOT,
                                   "--merkator-data", EMPORIUM_MERKATOR_DATA,
                                   "--port-file", port_file, "--log-level", "warn", "--threads", "2",
                                   "--bot-delay-ms", "0",  // tests that want the pause pass their own
                                   // Every test connects from 127.0.0.1: the per-address caps are off unless a test
                                   // passes its own.
                                   "--max-connections-per-ip", "0", "--max-tables-per-ip-per-minute", "0"};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  pid_ = fork();
  if (pid_ == 0) {
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (!log_file.empty()) {
      const int fd = ::open(log_file.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      if (fd >= 0) {
        ::dup2(fd, STDOUT_FILENO);
        ::dup2(fd, STDERR_FILENO);
      }
    }
    execv(argv[0], argv.data());
    _exit(127);
  }
  for (int i = 0; i < 500 && port_ == 0; ++i) {
    std::ifstream in(port_file);
    int p = 0;
    if (in >> p && p > 0) port_ = static_cast<std::uint16_t>(p);
    if (port_ == 0) std::this_thread::sleep_for(10ms);
  }
  if (port_ == 0) {
    // No destructor runs for an object whose constructor throws: the child must not outlive the test.
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    throw std::runtime_error("the server did not start");
  }
}

server_process::~server_process() {
  if (running()) kill_hard();
  if (owns_dir_) std::filesystem::remove_all(data_dir_);
}

bool server_process::running() const { return pid_ > 0 && waitpid(pid_, nullptr, WNOHANG) == 0; }

void server_process::kill_hard() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

int server_process::terminate(std::chrono::seconds wait) {
  if (pid_ <= 0) return -1;
  ::kill(pid_, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + wait;
  int status = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    std::this_thread::sleep_for(10ms);
  }
  kill_hard();
  return -2;
}

ws_client::ws_client(std::uint16_t port, const ws_options& options) : ws_(ioc_) {
  beast::get_lowest_layer(ws_).connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true));
  ws_.read_message_max(4 * 1024 * 1024);
  ws_.set_option(websocket::stream_base::decorator([options](websocket::request_type& req) {
    if (!options.origin.empty()) req.set(http::field::origin, options.origin);
    for (const auto& [name, value] : options.headers) req.insert(name, value);
  }));
  ws_.control_callback([this](websocket::frame_type kind, beast::string_view) {
    if (kind != websocket::frame_type::pong) return;
    std::lock_guard lock(mutex_);
    ++pongs_;
  });
  ws_.handshake("127.0.0.1:" + std::to_string(port), options.target);
  if (options.hello) ws_.write(net::buffer(Json{{"type", "hello"}, {"protocol", 1}}.dump()));
  do_read();
  thread_ = std::thread([this] { ioc_.run(); });
}

ws_client::~ws_client() {
  net::post(ioc_, [this] {
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);
  });
  thread_.join();
}

void ws_client::do_read() {
  ws_.async_read(buffer_, [this](beast::error_code ec, std::size_t) {
    std::lock_guard lock(mutex_);
    if (ec) {
      closed_ = true;
      if (ec == websocket::error::closed) close_code_ = ws_.reason().code;
      if (std::getenv("E2E_DEBUG")) std::fprintf(stderr, "client read ended: %s\n", ec.message().c_str());
      cv_.notify_all();
      return;
    }
    std::string text = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    log_.push_back(text);
    inbox_.push_back(Json::parse(text));
    cv_.notify_all();
    do_read();
  });
}

void ws_client::send(const Json& message) { send_raw(message.dump()); }

void ws_client::ping(const std::string& payload) {
  auto done = std::make_shared<std::promise<void>>();
  auto result = done->get_future();
  net::post(ioc_, [this, payload, done] {
    beast::error_code ec;
    ws_.ping(websocket::ping_data(payload.c_str()), ec);
    done->set_value();
  });
  while (result.wait_for(50ms) != std::future_status::ready) {
    if (closed()) return;
  }
}

int ws_client::pongs() const {
  std::lock_guard lock(mutex_);
  return pongs_;
}

void ws_client::send_raw(const std::string& text, bool binary) {
  // Writes happen on the client's own thread, one at a time. Once the connection is closed that thread may have
  // stopped (a killed server): the write is then given up rather than waited for.
  auto owned = std::make_shared<std::string>(text);
  auto done = std::make_shared<std::promise<beast::error_code>>();
  auto result = done->get_future();
  net::post(ioc_, [this, owned, done, binary] {
    ws_.binary(binary);
    beast::error_code ec;
    ws_.write(net::buffer(*owned), ec);
    done->set_value(ec);
  });
  while (result.wait_for(50ms) != std::future_status::ready) {
    if (closed()) return;
  }
}

void ws_client::send_raw_async(std::string text) {
  auto owned = std::make_shared<std::string>(std::move(text));
  net::post(ioc_, [this, owned] {
    ws_.text(true);
    ws_.async_write(net::buffer(*owned), [owned](beast::error_code, std::size_t) {});
  });
}

std::optional<Json> ws_client::next(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  if (!cv_.wait_for(lock, timeout, [&] { return !inbox_.empty() || closed_; })) return std::nullopt;
  if (inbox_.empty()) return std::nullopt;
  Json j = std::move(inbox_.front());
  inbox_.pop_front();
  return j;
}

Json ws_client::wait_for(const std::function<bool(const Json&)>& match, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) throw std::runtime_error("timed out waiting for a frame");
    auto frame = next(left);
    if (!frame) {
      if (closed()) throw std::runtime_error("connection closed while waiting for a frame");
      continue;
    }
    if (match(*frame)) return *frame;
  }
}

Json ws_client::wait_type(const std::string& type, std::chrono::milliseconds timeout) {
  return wait_for([&](const Json& j) { return j.value("type", "") == type; }, timeout);
}

Json ws_client::request(Json message, std::chrono::milliseconds timeout) {
  const int id = next_id_++;
  message["id"] = id;
  send(message);
  return wait_for([id](const Json& j) { return j.contains("re") && j["re"] == id; }, timeout);
}

bool ws_client::quiet_for(std::chrono::milliseconds time) {
  std::unique_lock lock(mutex_);
  return !cv_.wait_for(lock, time, [&] { return !inbox_.empty(); });
}

bool ws_client::closed() const {
  std::lock_guard lock(mutex_);
  return closed_;
}

std::optional<int> ws_client::close_code() const {
  std::lock_guard lock(mutex_);
  return close_code_;
}

void ws_client::close() {
  net::post(ioc_, [this] {
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().shutdown(tcp::socket::shutdown_both, ignored);
    beast::get_lowest_layer(ws_).socket().close(ignored);
  });
  std::unique_lock lock(mutex_);
  cv_.wait_for(lock, 2s, [&] { return closed_; });
}

std::vector<std::string> ws_client::log() const {
  std::lock_guard lock(mutex_);
  return log_;
}

std::vector<std::string> ws_client::log_from(std::size_t from) const {
  std::lock_guard lock(mutex_);
  if (from >= log_.size()) return {};
  return {log_.begin() + static_cast<std::ptrdiff_t>(from), log_.end()};
}

bool ws_client::wait_log_beyond(std::size_t count, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return cv_.wait_for(lock, timeout, [&] { return log_.size() > count || closed_; }) && log_.size() > count;
}

std::size_t ws_client::inbox_size() const {
  std::lock_guard lock(mutex_);
  return inbox_.size();
}

raw_websocket connect_raw(net::io_context& ioc, std::uint16_t port, int receive_buffer) {
  raw_websocket ws(ioc);
  auto& socket = boost::beast::get_lowest_layer(ws).socket();
  socket.open(net::ip::tcp::v4());
  socket.set_option(net::socket_base::receive_buffer_size(receive_buffer));
  socket.connect({net::ip::make_address("127.0.0.1"), port});
  ws.handshake("127.0.0.1", "/ws");
  ws.write(net::buffer(Json{{"type", "hello"}, {"protocol", 1}}.dump()));  // or it is closed after 10 s
  return ws;
}

http_reply http_get(std::uint16_t port, const std::string& target, const std::string& headers) {
  return http_request(port, "GET", target, headers);
}

http_reply http_request(std::uint16_t port, const std::string& method, const std::string& target,
                        const std::string& headers, const std::string& body) {
  net::io_context ioc;
  tcp::socket socket(ioc);
  socket.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  // "Connection: close" unless the caller says otherwise (an upgrade request, say).
  const bool own_connection = headers.find("Connection:") != std::string::npos;
  const std::string length = body.empty() && method == "GET" ? "" : "Content-Length: " + std::to_string(body.size()) + "\r\n";
  const std::string request = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
                              (own_connection ? "" : "Connection: close\r\n") + headers + length + "\r\n" + body;
  net::write(socket, net::buffer(request));
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  beast::error_code ec;
  http::read(socket, buffer, res, ec);
  http_reply reply;
  if (ec) {
    reply.body = ec.message();
    return reply;
  }
  reply.status = static_cast<int>(res.result_int());
  reply.content_type = res[http::field::content_type];
  reply.body = res.body();
  reply.cache_control = res[http::field::cache_control];
  reply.etag = res[http::field::etag];
  reply.content_encoding = res[http::field::content_encoding];
  reply.vary = res[http::field::vary];
  reply.retry_after = res[http::field::retry_after];
  reply.content_disposition = res[http::field::content_disposition];
  const auto [first, last] = res.equal_range(http::field::set_cookie);
  for (auto it = first; it != last; ++it) reply.set_cookies.emplace_back(it->value());
  return reply;
}

}  // namespace emporium::testing
