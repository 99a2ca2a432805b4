#include "server_process.hpp"

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>

#include <csignal>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace emporium::load {

namespace http = boost::beast::http;

std::optional<process_sample> sample_process(int pid) {
  if (pid <= 0) return std::nullopt;
  const auto dir = "/proc/" + std::to_string(pid);
  std::ifstream status(dir + "/status");
  std::ifstream stat(dir + "/stat");
  if (!status || !stat) return std::nullopt;
  process_sample s;
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmHWM:", 0) == 0) s.peak_rss_kib = std::atof(line.c_str() + 6);
    if (line.rfind("VmRSS:", 0) == 0) s.rss_kib = std::atof(line.c_str() + 6);
  }
  // utime and stime are the 14th and 15th fields; the 2nd, the command's name in parentheses, may hold spaces.
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  std::istringstream fields(text.substr(text.rfind(')') + 2));
  std::vector<std::string> field{std::istream_iterator<std::string>(fields), std::istream_iterator<std::string>()};
  if (field.size() < 13) return std::nullopt;
  s.cpu_s = (std::atof(field[11].c_str()) + std::atof(field[12].c_str())) / static_cast<double>(sysconf(_SC_CLK_TCK));
  return s;
}

double own_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

server_counters parse_metrics(std::string_view text) {
  server_counters counters;
  // `name{code="x"} 12`: the code and the count.
  const auto labelled = [](std::string_view line, std::string_view name, std::map<std::string, long>& into) {
    const std::string head = std::string(name) + "{code=\"";
    if (line.substr(0, head.size()) != head) return;
    const auto quote = line.find('"', head.size());
    const auto space = line.find(' ', quote);
    if (quote == std::string_view::npos || space == std::string_view::npos) return;
    into[std::string(line.substr(head.size(), quote - head.size()))] = std::atol(line.data() + space + 1);
  };
  while (!text.empty()) {
    const auto end = std::min(text.find('\n'), text.size());
    const auto line = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    constexpr std::string_view accepted = "emporium_actions_accepted_total ";
    if (line.substr(0, accepted.size()) == accepted) counters.accepted = std::atol(line.data() + accepted.size());
    labelled(line, "emporium_actions_rejected_total", counters.rejected);
    labelled(line, "emporium_messages_refused_total", counters.refused);
  }
  return counters;
}

net::awaitable<std::optional<std::string>> http_get(net::ip::tcp::endpoint server, std::string target) {
  boost::beast::tcp_stream stream(co_await net::this_coro::executor);
  stream.expires_after(std::chrono::seconds(5));
  boost::system::error_code error;
  co_await stream.async_connect(server, net::redirect_error(net::use_awaitable, error));
  if (error) co_return std::nullopt;
  http::request<http::empty_body> request{http::verb::get, target, 11};
  request.set(http::field::host, server.address().to_string());
  co_await http::async_write(stream, request, net::redirect_error(net::use_awaitable, error));
  if (error) co_return std::nullopt;
  boost::beast::flat_buffer buffer;
  http::response<http::string_body> response;
  co_await http::async_read(stream, buffer, response, net::redirect_error(net::use_awaitable, error));
  if (error || response.result() != http::status::ok) co_return std::nullopt;
  co_return std::move(response.body());
}

spawned_server::spawned_server(const options& o) {
  if (o.data_dir.empty()) {
    std::string pattern = (std::filesystem::temp_directory_path() / "emp-load-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot make a data directory in /tmp");
    data_dir_ = pattern;
    remove_data_ = !o.keep_data;
  } else {
    data_dir_ = o.data_dir;
  }
  const std::filesystem::path root(o.project);
  // Every generated client connects from 127.0.0.1: the per-address caps are off.
  std::vector<std::string> args = {o.server_bin,
                                   "--bind", "127.0.0.1",
                                   "--port", std::to_string(o.port),
                                   "--port-file", data_dir_ + "/port",
                                   "--web-root", (root / "web-client").string(),
                                   "--data-dir", data_dir_,
                                   "--merkator-data", (root / "engine/games/merkator/merkator-data.json").string(),
                                   "--log-level", "warn",
                                   "--max-connections-per-ip", "0",
                                   "--max-tables-per-ip-per-minute", "0"};
  if (o.threads > 0) args.insert(args.end(), {"--threads", std::to_string(o.threads)});
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&files, STDERR_FILENO, STDOUT_FILENO);  // our standard output is the report's
  const int failed = posix_spawn(&pid_, o.server_bin.c_str(), &files, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&files);
  if (failed) throw std::runtime_error("cannot start " + o.server_bin + ": " + std::strerror(failed));
}

std::optional<std::uint16_t> spawned_server::port() const {
  std::ifstream file(data_dir_ + "/port");
  unsigned port = 0;
  if (!(file >> port) || port == 0 || port > 65535) return std::nullopt;
  return static_cast<std::uint16_t>(port);
}

std::optional<std::string> spawned_server::exited() {
  if (pid_ <= 0) return "server not running";
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) != pid_) return std::nullopt;
  pid_ = -1;
  return WIFEXITED(status) ? "server exited (" + std::to_string(WEXITSTATUS(status)) + ")"
                           : "server exited (signal " + std::to_string(WTERMSIG(status)) + ")";
}

spawned_server::~spawned_server() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    // It closes every connection and stops; a server that hangs is killed after 10 s.
    for (int i = 0; i < 1000 && !exited(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  if (remove_data_) {
    std::error_code ignored;
    std::filesystem::remove_all(data_dir_, ignored);
  }
}

}  // namespace emporium::load
