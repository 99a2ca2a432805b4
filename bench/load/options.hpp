#pragma once
// The load generator's command line.
#include <cstdint>
#include <string>
#include <vector>

namespace emporium::load {

enum class on_end { new_table, stop };

struct options {
  std::uint16_t port = 8000;
  int tables = 10;
  int players = 3;     // 2..4, Maritime Silk Road's counts
  int spectators = 0;  // per table
  double seconds = 20;  // the measurement window
  double rate = 0;      // moves a second per table; 0: as soon as the previous move's events are in
  double grace = 10;    // after the window, for moves still in flight
  double setup_timeout = 120;
  int setup_concurrency = 16;  // tables being set up at once
  std::uint32_t seed = 1;
  int server_pid = 0;  // for the server's CPU and memory figures
  on_end game_over = on_end::new_table;
  // The pace of each connection: under the server's limit (about 20 messages a second, bursts of 60).
  double msg_rate = 19;
  double msg_burst = 55;
  // --spawn: start server_bin on a fresh data directory, measure it, stop it.
  bool spawn = false;
  std::string server_bin;
  std::string project = ".";  // the checkout: the web root and Merkator's data file
  int threads = 0;             // the spawned server's network threads (0: its default)
  std::string data_dir;        // instead of a fresh one (kept)
  bool keep_data = false;
  // Exit with status 1 unless the run was clean: moves accepted, none refused, no error, disconnect or view
  // violation (the smoke test's verdict).
  bool check = false;
};

// Throws std::invalid_argument naming the bad option.
options parse_options(const std::vector<std::string>& args);
extern const char* const usage;

}  // namespace emporium::load
