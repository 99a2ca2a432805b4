#pragma once
// Servers for the end-to-end tests written in Python (tests/tools/), each on a loopback port of its own, each thing
// it takes a JSON file the test reads: a real SMTP server, tests/tools/smtp_sink.py (Debian's python3-aiosmtpd),
// each mail {"from","to","subject","headers","text","html"}; a push service, push_receiver.hpp. They can be stopped
// and started again on the same port (the server down for a while).
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

class python_sink {
 public:
  // `script`: in tests/tools/, run as `script PORT FOLDER`; `needs`: what it needs installed, for the error.
  python_sink(std::string script, std::string needs)
      : script_(std::move(script)), needs_(std::move(needs)), folder_(make_temp_dir("emporium-sink")),
        port_(free_port()) {
    start();
  }
  ~python_sink() {
    stop();
    std::filesystem::remove_all(folder_);
  }
  python_sink(const python_sink&) = delete;
  python_sink& operator=(const python_sink&) = delete;

  std::uint16_t port() const { return port_; }
  const std::string& folder() const { return folder_; }

  void start() {
    if (pid_ > 0) return;
    const std::string script = std::string(EMPORIUM_SOURCE_DIR) + "/tests/tools/" + script_;
    const std::string port = std::to_string(port_);
    pid_ = fork();
    if (pid_ == 0) {
      // Debian's python3: what the scripts need is installed for it (scripts/setup.sh), whatever else PATH holds.
      execl("/usr/bin/python3", "python3", script.c_str(), port.c_str(), folder_.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    for (int i = 0; i < 300; ++i) {
      if (accepts()) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    stop();
    throw std::runtime_error(script_ + " did not start (is " + needs_ + " installed?)");
  }
  void stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

  // Everything taken so far, in order.
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

  std::string script_, needs_, folder_;
  std::uint16_t port_;
  int pid_ = -1;
};

class smtp_sink : public python_sink {
 public:
  smtp_sink() : python_sink("smtp_sink.py", "python3-aiosmtpd") {}
  std::string url() const { return "smtp://127.0.0.1:" + std::to_string(port()); }
};

}  // namespace emporium::testing
