// emporium-server: serves the web client and (from the server issue on) the game over WebSocket.
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <iostream>
#include <thread>
#include <vector>

#include "config.hpp"
#include "listener.hpp"

using namespace emporium::server;

int main(int argc, char** argv) {
  const auto parsed = parse_config(std::vector<std::string>(argv + 1, argv + argc), [](const char* n) { return std::getenv(n); });
  if (parsed.help) {
    std::cout << usage();
    return 0;
  }
  if (parsed.error) {
    std::cerr << "emporium-server: " << *parsed.error << "\n" << usage();
    return 2;
  }
  const Config& config = parsed.config;
  spdlog::set_level(spdlog::level::from_str(config.log_level));

  try {
    net::io_context ioc;
    auto context = std::make_shared<server_context>(server_context{config.web_root});
    auto server = std::make_shared<listener>(ioc, tcp::endpoint{net::ip::make_address(config.bind), config.port}, context);
    server->run();
    spdlog::info("emporium listening on http://{}:{}/ (web root {})", config.bind, server->local_endpoint().port(),
                 config.web_root);

    net::signal_set signals(ioc, SIGINT, SIGTERM);
    signals.async_wait([&](beast::error_code, int signal) {
      spdlog::info("signal {}: shutting down", signal);
      server->stop();
      ioc.stop();
    });

    const int threads = config.threads > 0 ? config.threads : std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> pool;
    for (int i = 1; i < threads; ++i) pool.emplace_back([&ioc] { ioc.run(); });
    ioc.run();
    for (auto& t : pool) t.join();
  } catch (const std::exception& e) {
    spdlog::critical("{}", e.what());
    return 1;
  }
  return 0;
}
