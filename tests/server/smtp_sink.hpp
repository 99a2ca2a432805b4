#pragma once
// A real SMTP server for the end-to-end tests: tests/tools/smtp_sink.py (Debian's python3-aiosmtpd) on a loopback
// port of its own, each mail it takes a JSON file the test reads ({"from","to","subject","headers","text","html"}).
// It can be stopped and started again on the same port (the SMTP server down for a while).
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_client.hpp"

namespace emporium::testing {

class smtp_sink {
 public:
  smtp_sink() : folder_(make_temp_dir("emporium-mail")), port_(free_port()) { start(); }
  ~smtp_sink() {
    stop();
    std::filesystem::remove_all(folder_);
  }
  smtp_sink(const smtp_sink&) = delete;
  smtp_sink& operator=(const smtp_sink&) = delete;

  std::string url() const { return "smtp://127.0.0.1:" + std::to_string(port_); }

  void start() {
    if (pid_ > 0) return;
    const std::string script = std::string(EMPORIUM_SOURCE_DIR) + "/tests/tools/smtp_sink.py";
    const std::string port = std::to_string(port_);
    pid_ = fork();
    if (pid_ == 0) {
      // Debian's python3: python3-aiosmtpd is installed for it (scripts/setup.sh), whatever else PATH holds.
      execl("/usr/bin/python3", "python3", script.c_str(), port.c_str(), folder_.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    for (int i = 0; i < 300; ++i) {
      if (accepts()) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    stop();
    throw std::runtime_error("the SMTP sink did not start (is python3-aiosmtpd installed?)");
  }
  void stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

  // Every mail taken so far, in order.
  std::vector<nlohmann::json> mails() const {
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(folder_)) {
      if (e.path().extension() == ".json") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    std::vector<nlohmann::json> out;
    for (const auto& f : files) out.push_back(nlohmann::json::parse(std::ifstream(f)));
    return out;
  }
  // Those that `match`, once there are at least `count` of them (or the time is up: then those there are).
  std::vector<nlohmann::json> wait_for(std::size_t count, const std::function<bool(const nlohmann::json&)>& match,
                                       std::chrono::milliseconds timeout = std::chrono::seconds(10)) const {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
      std::vector<nlohmann::json> found;
      for (auto& m : mails()) {
        if (match(m)) found.push_back(std::move(m));
      }
      if (found.size() >= count || std::chrono::steady_clock::now() > deadline) return found;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

 private:
  bool accepts() const {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(port_);
    const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    ::close(fd);
    return ok;
  }

  std::string folder_;
  std::uint16_t port_;
  int pid_ = -1;
};

}  // namespace emporium::testing
