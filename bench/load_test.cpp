// Load generator: many tables playing Medici at once against a real server process over loopback.
// Each table has its players and spectators on their own connections; every action is timed from
// sending it to the moment the last viewer at that table has its events.
//   load_test [--tables N] [--players P] [--spectators S] [--games G]
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <mutex>
#include <thread>

#include "game_driver.hpp"
#include "test_client.hpp"

using namespace emporium::testing;

namespace {
long rss_kib(int pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string key;
  long value = 0;
  while (status >> key) {
    if (key == "VmRSS:") {
      status >> value;
      return value;
    }
    status.ignore(1 << 20, '\n');
  }
  return 0;
}
// User + system CPU seconds the process has used.
double cpu_seconds(int pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string field;
  for (int i = 1; i <= 13 && stat >> field; ++i) {}
  long utime = 0, stime = 0;
  stat >> utime >> stime;
  return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}
}  // namespace

int main(int argc, char** argv) {
  int tables = 100, players = 3, spectators = 1, games = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const int value = std::atoi(argv[i + 1]);
    if (flag == "--tables") tables = value;
    else if (flag == "--players") players = value;
    else if (flag == "--spectators") spectators = value;
    else if (flag == "--games") games = value;
    else {
      std::cerr << "usage: load_test [--tables N] [--players P] [--spectators S] [--games G]\n";
      return 2;
    }
  }
  server_process server;
  std::printf("server pid %d on port %u; idle RSS %ld KiB\n", server.pid(), server.port(), rss_kib(server.pid()));

  std::mutex mutex;
  std::vector<double> latencies;
  long actions = 0;
  int failures = 0;
  std::vector<std::thread> drivers;
  const auto started = std::chrono::steady_clock::now();
  for (int t = 0; t < tables; ++t) {
    drivers.emplace_back([&, t] {
      try {
        for (int g = 0; g < games; ++g) {
          auto table = seat_players(server.port(), players, t % 2 == 1);
          std::vector<std::unique_ptr<ws_client>> watchers;
          std::vector<seat_tracker> watching;
          for (int s = 0; s < spectators; ++s) {
            watchers.push_back(std::make_unique<ws_client>(server.port()));
            watchers.back()->wait_type("welcome");
            Json watch = {{"type", "watch"}};
            if (table.invite.empty()) watch["table"] = table.id; else watch["invite"] = table.invite;
            watchers.back()->request(watch);
          }
          for (auto& w : watchers) watching.emplace_back(w.get(), table.id);
          start(table);
          auto seats = trackers(table);
          const auto result = play(pointers(seats), pointers(watching), 1000 * t + g);
          std::lock_guard lock(mutex);
          latencies.insert(latencies.end(), result.latencies_ms.begin(), result.latencies_ms.end());
          actions += result.actions;
        }
      } catch (const std::exception& e) {
        std::lock_guard lock(mutex);
        ++failures;
        std::fprintf(stderr, "table %d: %s\n", t, e.what());
      }
    });
  }
  // Sample the server's memory while everything is connected and playing.
  long peak_rss = 0;
  for (int i = 0; i < 50; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    peak_rss = std::max(peak_rss, rss_kib(server.pid()));
  }
  for (auto& d : drivers) d.join();
  const double server_cpu = cpu_seconds(server.pid());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const auto metrics = http_get(server.port(), "/metrics");
  std::printf("%d tables x (%d players + %d spectators) = %d connections, %d game(s) each, %d failed\n", tables,
              players, spectators, tables * (players + spectators), games, failures);
  std::printf("%ld actions in %.1f s: %.0f actions/s (each waits for the previous one's events at its table)\n",
              actions, seconds, static_cast<double>(actions) / seconds);
  std::printf("action -> last viewer at the table: median %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms\n",
              percentile(latencies, 0.5), percentile(latencies, 0.9), percentile(latencies, 0.99),
              percentile(latencies, 1.0));
  std::printf("server RSS: peak sampled %ld KiB; server CPU %.2f s = %.0f actions per server CPU-second\n", peak_rss,
              server_cpu, static_cast<double>(actions) / server_cpu);
  for (const char* line : {"\nemporium_actions_accepted_total ", "\nemporium_action_latency_seconds_sum ",
                           "\nemporium_action_latency_seconds_bucket{le=\"0.001\"} ", "\nemporium_connections_total "}) {
    auto at = metrics.body.find(line);
    if (at != std::string::npos) {
      std::printf("  server metric: %s\n", metrics.body.substr(at + 1, metrics.body.find('\n', at + 1) - at - 1).c_str());
    }
  }
  return failures == 0 ? 0 : 1;
}
