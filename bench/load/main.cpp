// emporium-load: the project's load generator. Plays Maritime Silk Road on an Emporium server over loopback,
// the way real clients do (every player and spectator on a connection of its own), and prints one JSON line:
// moves a second, act -> last viewer latency, the server's CPU and memory, its own CPU. On one thread, so that
// it leaves the server as much of the machine as it can. docs/benchmarks.md says how the figures are taken.
#include "server_process.hpp"
#include "table.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <numeric>

namespace emporium::load {
namespace {

using ordered = nlohmann::ordered_json;

double rounded(double value, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(value * scale) / scale;
}

// The nearest-rank percentile of sorted values.
Json percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return nullptr;
  const auto rank = static_cast<std::size_t>(std::ceil(p / 100 * static_cast<double>(sorted.size())));
  return rounded(sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1], 3);
}

Json code_deltas(const std::map<std::string, long>& before, const std::map<std::string, long>& after) {
  Json out = Json::object();
  for (const auto& [code, n] : after) {
    const auto was = before.find(code);
    if (const long d = n - (was == before.end() ? 0 : was->second)) out[code] = d;
  }
  return out;
}

class load_run {
 public:
  load_run(net::io_context& io, const options& o) : io_(io), opt_(o), run_(o), hard_limit_(io), setup_limit_(io),
                                                    sampler_(io), lag_timer_(io) {}

  // Returns the exit status.
  int go() {
    if (opt_.spawn) server_.emplace(opt_);
    server_pid_ = server_ ? server_->pid() : opt_.server_pid;
    hard_limit_.expires_after(seconds(opt_.setup_timeout + opt_.seconds + opt_.grace + 15));
    hard_limit_.async_wait([this](auto error) {
      if (!error) finish("hard time limit reached");
    });
    net::co_spawn(io_, run(), [this](std::exception_ptr failure) {
      if (!failure) return;
      try {
        std::rethrow_exception(failure);
      } catch (const std::exception& e) {
        finish(std::string("failed: ") + e.what());
      }
    });
    io_.run();
    return status_;
  }

 private:
  static clock::duration seconds(double s) {
    return std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(s));
  }

  net::awaitable<void> wait_for_server() {
    const auto deadline = clock::now() + std::chrono::seconds(15);
    for (;;) {
      if (auto gone = server_->exited()) throw std::runtime_error(*gone);
      if (clock::now() > deadline) throw std::runtime_error("server did not answer /healthz in 15 s");
      if (const auto port = server_->port()) {  // written once it listens
        port_ = *port;
        if (co_await http_get(endpoint(), "/healthz")) co_return;
      }
      co_await sleep_for(std::chrono::milliseconds(20));
    }
  }

  net::ip::tcp::endpoint endpoint() const { return {net::ip::make_address_v4("127.0.0.1"), port_}; }

  // A setup worker: connects one table after another (--setup-concurrency of them at once).
  net::awaitable<void> set_up_tables() {
    while (next_to_set_up_ < tables_.size()) co_await tables_[next_to_set_up_++]->connect();
  }

  net::awaitable<std::optional<server_counters>> server_counts() {
    auto text = co_await http_get(endpoint(), "/metrics");
    if (!text) co_return std::nullopt;
    co_return parse_metrics(*text);
  }

  net::awaitable<void> run() {
    if (server_) co_await wait_for_server();
    const auto setup_start = clock::now();
    for (int i = 0; i < opt_.tables; ++i) {
      tables_.push_back(std::make_unique<table>(io_.get_executor(), run_, endpoint()));
    }
    setup_limit_.expires_after(seconds(opt_.setup_timeout));
    setup_limit_.async_wait([this](auto error) {
      if (!error) finish("setup did not finish in " + std::to_string(static_cast<int>(opt_.setup_timeout)) + " s");
    });
    std::vector<net::awaitable<void>> workers;
    for (int i = 0; i < opt_.setup_concurrency; ++i) workers.push_back(set_up_tables());
    try {
      co_await all(std::move(workers));
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string("setup failed: ") + e.what());
    }
    while (std::any_of(tables_.begin(), tables_.end(), [](const auto& t) { return !t->ready(); })) {
      co_await sleep_for(std::chrono::milliseconds(20));
    }
    setup_limit_.cancel();
    setup_s_ = ms_between(setup_start, clock::now()) / 1000;
    co_await sleep_for(std::chrono::milliseconds(500));  // every connection's pace refills a little

    // The window.
    counts_before_ = co_await server_counts();
    server_before_ = sample_process(server_pid_);
    cpu_before_ = own_cpu_seconds();
    sample_peak_rss();
    measure_lag(clock::now());
    run_.count.games_started = opt_.tables;
    run_.count.events_frames_in = run_.count.bytes_in = run_.count.frames_out = 0;
    run_.measuring = true;
    run_.window_start = clock::now();
    for (auto& t : tables_) t->start_moving(run_.window_start);
    co_await sleep_for(seconds(opt_.seconds));
    run_.measuring = false;
    window_.emplace(window{ms_between(run_.window_start, clock::now()) / 1000, sample_process(server_pid_),
                           own_cpu_seconds() - cpu_before_, run_.count.events_frames_in, run_.count.bytes_in,
                           run_.count.frames_out});
    lag_timer_.cancel();
    for (auto& t : tables_) t->stop_moving();

    // Moves still on their way may arrive during the grace period.
    const auto grace_end = clock::now() + seconds(opt_.grace);
    while (clock::now() < grace_end &&
           std::any_of(tables_.begin(), tables_.end(), [](const auto& t) { return t->unfinished() > 0; })) {
      co_await sleep_for(std::chrono::milliseconds(20));
    }
    co_await sleep_for(std::chrono::milliseconds(100));
    counts_after_ = co_await server_counts();
    finish("");
  }

  void sample_peak_rss() {
    if (const auto s = sample_process(server_pid_)) window_peak_rss_kib_ = std::max(window_peak_rss_kib_, s->rss_kib);
    sampler_.expires_after(std::chrono::milliseconds(250));
    sampler_.async_wait([this](auto error) {
      if (!error && run_.measuring) sample_peak_rss();
    });
  }

  // How late a timer fires, every 10 ms: how long something that arrives waits before the generator's one thread
  // gets to it.
  void measure_lag(clock::time_point due) {
    lag_timer_.expires_at(due);
    lag_timer_.async_wait([this, due](auto error) {
      if (error) return;
      const auto now = clock::now();
      lag_ms_.push_back(ms_between(due, now));
      measure_lag(now + std::chrono::milliseconds(10));
    });
  }

  void finish(const std::string& aborted) {
    if (finished_) return;
    finished_ = true;
    run_.stopping = true;
    run_.measuring = false;
    std::cout << report(aborted).dump() << std::endl;
    if (!aborted.empty()) status_ = 1;
    if (opt_.check && !clean()) status_ = 1;
    for (auto& t : tables_) t->close();
    io_.stop();
  }

  bool clean() const {
    const auto& c = run_.count;
    return c.moves_accepted > 0 && c.moves_rejected == 0 && c.errors == 0 && c.disconnects == 0 &&
           c.view_violations == 0 && c.error_codes.empty();
  }

  ordered report(const std::string& aborted) {
    const auto& c = run_.count;
    const double window_s = window_ ? window_->seconds
                            : run_.window_start == clock::time_point{}
                                ? 0
                                : ms_between(run_.window_start, clock::now()) / 1000;
    const auto per_second = [&](double n, int decimals) { return window_s > 0 ? rounded(n / window_s, decimals) : 0; };
    auto latency = c.latency_ms;
    std::sort(latency.begin(), latency.end());
    const auto end = sample_process(server_pid_);
    ordered server = nullptr;
    if (end) {
      server = {{"pid", server_pid_}, {"peakRssMiB", rounded(end->peak_rss_kib / 1024, 1)}};
      if (window_ && window_->server_after && server_before_) {
        const auto& after = *window_->server_after;
        server["windowPeakRssMiB"] = rounded(std::max(window_peak_rss_kib_, after.rss_kib) / 1024, 1);
        server["cpuPct"] = rounded(100 * (after.cpu_s - server_before_->cpu_s) / window_s, 1);
      }
      server["rssEndMiB"] = rounded(end->rss_kib / 1024, 1);
    }
    std::sort(lag_ms_.begin(), lag_ms_.end());
    const long frames_in = window_ ? window_->events_frames_in : c.events_frames_in;
    ordered out = {
        {"generator", "emporium-load"},
        {"host", "127.0.0.1"},
        {"port", port_},
        {"tables", opt_.tables},
        {"players", opt_.players},
        {"spectators", opt_.spectators},
        {"clients", opt_.tables * (opt_.players + opt_.spectators)},
        {"seconds", opt_.seconds},
        {"windowS", rounded(window_s, 2)},
        {"ratePerTable", opt_.rate},
        {"setupS", rounded(setup_s_, 2)},
        {"movesSent", c.moves_sent},
        {"movesAccepted", c.moves_accepted},
        {"movesRejected", c.moves_rejected},
        {"movesPerSec", per_second(static_cast<double>(c.moves_accepted), 1)},
        {"updatesReceivedPerSec", per_second(static_cast<double>(frames_in), 1)},
        {"bytesReceivedPerSec",
         std::lround(per_second(static_cast<double>(window_ ? window_->bytes_in : c.bytes_in), 0))},
        {"framesSentPerSec", per_second(static_cast<double>(window_ ? window_->frames_out : c.frames_out), 1)},
        {"latencyMs",
         {{"n", latency.size()},
          {"p50", percentile(latency, 50)},
          {"p95", percentile(latency, 95)},
          {"p99", percentile(latency, 99)},
          {"max", latency.empty() ? Json(nullptr) : Json(rounded(latency.back(), 3))},
          {"mean", latency.empty() ? Json(nullptr)
                                   : Json(rounded(std::accumulate(latency.begin(), latency.end(), 0.0) /
                                                      static_cast<double>(latency.size()),
                                                  3))}}},
        {"unfinishedAtEnd",
         std::accumulate(tables_.begin(), tables_.end(), std::size_t{0},
                         [](std::size_t n, const auto& t) { return n + t->unfinished(); })},
        {"gamesStarted", c.games_started},
        {"gamesFinished", c.games_finished},
        {"viewViolations", c.view_violations},
        {"server", server},
        {"loadgen",
         {{"cpuPct", window_ && window_s > 0 ? Json(rounded(100 * window_->own_cpu_s / window_s, 1)) : Json(nullptr)},
          {"eventLoopLagP99Ms", lag_ms_.empty() ? Json(nullptr) : percentile(lag_ms_, 99)}}},
        {"disconnects", c.disconnects},
        {"disconnectReasons", Json::object()},
        {"errors", c.errors},
        {"noLegalMove", c.no_legal_move},
        {"rejectCodes", c.reject_codes},
        {"errorCodes", c.error_codes},
        {"tablesRetired", c.tables_retired},
        {"pacing",
         {{"msgRate", opt_.msg_rate},
          {"msgBurst", opt_.msg_burst},
          {"pacedActs", c.paced_acts},
          {"meanDelayMs", c.paced_acts ? rounded(c.pacing_delay_ms / static_cast<double>(c.paced_acts), 2) : 0}}},
        {"serverMetrics", nullptr},
    };
    for (const auto& [why, r] : c.disconnect_reasons) out["disconnectReasons"][why] = {{"n", r.n}, {"first", r.first}};
    if (counts_before_ && counts_after_) {
      out["serverMetrics"] = {{"acceptedDelta", counts_after_->accepted - counts_before_->accepted},
                              {"rejectedDelta", code_deltas(counts_before_->rejected, counts_after_->rejected)},
                              {"refusedDelta", code_deltas(counts_before_->refused, counts_after_->refused)}};
    }
    if (!aborted.empty()) out["aborted"] = aborted;
    if (!c.first_errors.empty()) out["firstErrors"] = c.first_errors;
    return out;
  }

  struct window {
    double seconds;
    std::optional<process_sample> server_after;
    double own_cpu_s;
    long events_frames_in;
    long bytes_in;
    long frames_out;
  };

  net::io_context& io_;
  const options& opt_;
  run_state run_;
  std::optional<spawned_server> server_;
  int server_pid_ = 0;
  std::uint16_t port_ = opt_.port;
  std::vector<std::unique_ptr<table>> tables_;
  std::size_t next_to_set_up_ = 0;
  net::steady_timer hard_limit_;
  net::steady_timer setup_limit_;
  net::steady_timer sampler_;
  net::steady_timer lag_timer_;
  double setup_s_ = 0;
  std::optional<server_counters> counts_before_;
  std::optional<server_counters> counts_after_;
  std::optional<process_sample> server_before_;
  double cpu_before_ = 0;
  double window_peak_rss_kib_ = 0;
  std::vector<double> lag_ms_;
  std::optional<window> window_;
  bool finished_ = false;
  int status_ = 0;
};

}  // namespace
}  // namespace emporium::load

int main(int argc, char** argv) {
  using namespace emporium::load;
  options o;
  try {
    o = parse_options(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const std::invalid_argument& e) {
    std::cerr << "emporium-load: " << e.what() << "\n" << usage;
    return 2;
  }
  try {
    net::io_context io(1);
    load_run run(io, o);
    return run.go();
  } catch (const std::exception& e) {
    std::cerr << "emporium-load: " << e.what() << "\n";
    return 1;
  }
}
