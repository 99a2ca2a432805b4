#pragma once
// What every table and connection of one run shares: the options, the counters, the phase, the random draws.
// One thread runs the whole generator, so none of it is locked.
#include <utility>  // before Asio: its awaitable.hpp needs std::exchange

#include "options.hpp"

#include <boost/asio.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace emporium::load {

namespace net = boost::asio;
using Json = nlohmann::json;
using clock = std::chrono::steady_clock;

inline double ms_between(clock::time_point from, clock::time_point to) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

struct counters {
  long moves_sent = 0;
  long moves_accepted = 0;
  long moves_rejected = 0;
  long events_frames_in = 0;
  long bytes_in = 0;
  long frames_out = 0;
  long games_started = 0;
  long games_finished = 0;
  long view_violations = 0;
  long disconnects = 0;
  long errors = 0;
  long no_legal_move = 0;  // a table whose players were all up to date and none had a legal action
  long tables_retired = 0;
  long paced_acts = 0;  // acts the connection's pace held back
  double pacing_delay_ms = 0;
  std::map<std::string, long> reject_codes;  // refused acts, by code
  std::map<std::string, long> error_codes;   // other error frames, by code
  struct disconnect_reason {
    long n = 0;
    std::string first;  // when the first one happened
  };
  std::map<std::string, disconnect_reason> disconnect_reasons;
  std::vector<std::string> first_errors;  // the first few, for the report
  std::vector<double> latency_ms;        // act sent -> the last viewer has the events of its version
};

struct run_state {
  explicit run_state(const options& o) : opt(o), rng(o.seed) {}

  const options& opt;
  counters count;
  bool measuring = false;  // inside the window: moves are made
  bool stopping = false;   // the run is over: closing connections is no disconnect
  clock::time_point window_start{};
  std::int64_t next_request_id = 1;
  std::mt19937 rng;

  void note_error(const std::string& what) {
    ++count.errors;
    if (count.first_errors.size() < 5) count.first_errors.push_back(what);
  }
};

// Runs the tasks at once and returns when every one has ended; then rethrows the first failure.
net::awaitable<void> all(std::vector<net::awaitable<void>> tasks);

// Waits, without blocking the thread.
net::awaitable<void> sleep_for(clock::duration how_long);

}  // namespace emporium::load
