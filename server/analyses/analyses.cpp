#include "analyses/analyses.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <ctime>

#include <emporium/analysis/analysis.hpp>
#include <emporium/records/records.hpp>

#include "common/worker_pool.hpp"
#include "records/game_records.hpp"
#include "store/store.hpp"

namespace emporium::server {
namespace {

constexpr std::string_view kJson = "application/json; charset=utf-8";

Analyses::Answer error(unsigned status, std::string_view code, std::string_view message) {
  return {status, nullptr, {{"error", code}, {"message", message}}, 0};
}

// The CPU time of the calling thread, in microseconds: what an analysis cost, however long the tables made it wait.
long long thread_cpu_micros() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<long long>(t.tv_sec) * 1000000 + t.tv_nsec / 1000;
}

}  // namespace

Analyses::Analyses(Store& store, Settings settings)
    : store_(store),
      settings_(settings),
      asks_(settings.asks_per_minute, std::chrono::minutes(1)),
      kept_(32u << 20) {
  if (settings_.threads > 0) {
    pool_ = std::make_unique<WorkerPool>(settings_.threads, 19);
    routes_ = std::make_unique<WorkerPool>(1);
  }
}

Analyses::~Analyses() {
  stopping_ = true;  // the progress callbacks answer false: an analysis under way stops within a few play-outs
  routes_.reset();
  pool_.reset();
}

std::optional<Analyses::Request> Analyses::parse(std::string_view target) {
  auto request = parse_table_file(target);
  if (!request || (request->file != "analysis" && request->file != "analysis.json")) return std::nullopt;
  return Request{request->file == "analysis" ? Kind::ask : Kind::read, std::move(request->table),
                 std::move(request->invite)};
}

void Analyses::serve(Request r, std::string address, std::function<void(Answer)> done) {
  if (!pool_) {
    return done(error(503, "analysis_off", "this server runs no analyses"));
  }
  routes_->post([this, r = std::move(r), address = std::move(address), done = std::move(done)] {
    Answer a;
    try {
      a = answer(r, address);
    } catch (const StoreError& e) {
      if (!e.unavailable()) spdlog::error("table {}: its analysis: {}", r.table, e.what());
      a = error(503, "unavailable", "the store does not answer now; try again in a few seconds");
    } catch (const std::exception& e) {
      spdlog::error("table {}: its analysis: {}", r.table, e.what());
      a = error(500, "internal", "the analysis could not be read; try again");
    }
    done(std::move(a));
  });
}

Analyses::Answer Analyses::answer(const Request& r, const std::string& address) {
  static constexpr std::string_view kPrivate = "this table is private: its analysis needs its invite code (?invite=...)";
  const bool ask = r.kind == Kind::ask;
  const auto done = [&](std::shared_ptr<const WebFiles::File> file) {
    return ask ? Answer{200, nullptr, {{"status", "done"}}, 0} : Answer{200, std::move(file), nullptr, 0};
  };
  // Kept in memory only once finished and analysed.
  if (auto hit = kept_.find(r.table)) {
    if (!invite_allows(hit->is_private, hit->invite, r.invite)) return error(403, "private", kPrivate);
    return done(hit->file);
  }
  if (!valid_table_id(r.table)) return error(404, "no_table", "no table has this id");
  const auto described = store_.load(r.table, /*with_actions=*/false);
  if (!described) return error(404, "no_table", "no table has this id");
  // A private table first, as its record: nothing about it, not even whether it is running, without its invite.
  if (!invite_allows(described->is_private, described->invite, r.invite)) return error(403, "private", kPrivate);
  // Then nothing about a running game, not even whether its analysis was asked for.
  if (described->state != TableState::finished) {
    return error(409, "not_finished", "analysis exists only for finished games");
  }
  if (auto body = store_.load_analysis(r.table, analysis::engine_version())) {
    auto file = std::make_shared<const WebFiles::File>(WebFiles::make(std::move(*body), kJson));
    kept_.keep(r.table, {file, described->is_private, described->invite});
    return done(file);
  }
  {
    std::lock_guard lock(mutex_);
    if (auto status = status_locked(r.table)) {
      if (!ask) return {202, nullptr, std::move(*status), 0};
      // A request for one the node analyses on its own moves it ahead of the automatic ones.
      if (const auto it = std::find(automatic_.begin(), automatic_.end(), r.table); it != automatic_.end()) {
        automatic_.erase(it);
        requested_.push_back(r.table);
        ++requested_total_;
      }
      return {202, nullptr, std::move(*status_locked(r.table)), 0};
    }
  }
  if (!ask) return error(404, "not_analysed", "nobody asked for this game's analysis yet: POST to ask");
  if (const auto wait = settings_.asks_per_minute ? asks_.wait(address) : Throttle::Clock::duration::zero();
      wait > Throttle::Clock::duration::zero()) {
    const auto seconds = std::chrono::ceil<std::chrono::seconds>(wait).count();
    return {429, nullptr, {{"error", "busy"}, {"message", "too many analyses asked from this address; try again later"}},
            static_cast<int>(std::max<long long>(1, seconds))};
  }
  auto status = enqueue(r.table, true);
  if (!status) {
    return {429, nullptr, {{"error", "busy"}, {"message", "this server's analysis queue is full; try again later"}}, 60};
  }
  asks_.count(address);
  ++requested_total_;
  return {202, nullptr, std::move(*status), 0};
}

std::optional<nlohmann::json> Analyses::status_locked(const std::string& table) const {
  if (const auto it = running_.find(table); it != running_.end()) {
    return nlohmann::json{{"status", "running"}, {"done", it->second.done}, {"planned", it->second.planned}};
  }
  if (const auto it = std::find(requested_.begin(), requested_.end(), table); it != requested_.end()) {
    return nlohmann::json{{"status", "queued"}, {"ahead", it - requested_.begin()}};
  }
  if (const auto it = std::find(automatic_.begin(), automatic_.end(), table); it != automatic_.end()) {
    return nlohmann::json{{"status", "queued"},
                          {"ahead", static_cast<long>(requested_.size()) + (it - automatic_.begin())}};
  }
  return std::nullopt;
}

std::optional<nlohmann::json> Analyses::enqueue(const std::string& table, bool requested) {
  {
    std::lock_guard lock(mutex_);
    if (auto status = status_locked(table)) return status;
    // Counted with the running ones, so that whether a request fits does not depend on when a thread took the last.
    const auto held = requested_.size() + automatic_.size() + running_.size();
    if (held >= settings_.queue + static_cast<std::size_t>(settings_.threads)) return std::nullopt;
    (requested ? requested_ : automatic_).push_back(table);
  }
  // One job per analysis queued: each takes the first waiting when it runs, requests first.
  pool_->post([this] { run_next(); });
  std::lock_guard lock(mutex_);
  return status_locked(table);
}

void Analyses::rated_game_ended(const std::string& table) {
  if (!pool_) return;
  {
    std::lock_guard lock(mutex_);
    if (!requested_.empty() || !automatic_.empty()) return;  // busy enough: only when the node is idle
  }
  enqueue(table, false);
}

void Analyses::run_next() {
  std::string table;
  {
    std::lock_guard lock(mutex_);
    auto& from = requested_.empty() ? automatic_ : requested_;
    if (from.empty() || stopping_) return;
    table = std::move(from.front());
    from.pop_front();
    running_[table] = {};
  }
  const long long started = thread_cpu_micros();
  try {
    analyse(table);
  } catch (const std::exception& e) {
    ++failed_total_;
    spdlog::error("table {}: its analysis failed: {}", table, e.what());
  }
  cpu_micros_ += thread_cpu_micros() - started;
  std::lock_guard lock(mutex_);
  running_.erase(table);
}

void Analyses::analyse(const std::string& table) {
  const auto stored = store_.load(table);
  if (!stored || stored->state != TableState::finished) throw std::runtime_error("not a finished table");
  const records::Published published = published_record(*stored);
  analysis::Settings settings;
  settings.budget = settings_.budget;
  const auto progress = [&](long long done, long long planned) {
    if (stopping_) return false;
    std::lock_guard lock(mutex_);
    running_[table] = {done, planned};
    return true;
  };
  auto result = analysis::analyse(records::to_json(published), settings, progress);
  if (const auto* refused = std::get_if<analysis::Refusal>(&result)) {
    if (refused->message == analysis::kCancelled) return;  // the server stops
    throw std::runtime_error(refused->message);
  }
  auto& document = std::get<nlohmann::json>(result);
  document["table"] = table;
  // The position after the move preferred, for the replay viewer to draw beside the one played.
  for (auto& d : document["decisions"]) {
    if (d["mark"].is_null()) continue;
    d["preferred_step"] = records::step_after(published.game, d["version"].get<std::uint64_t>(), d["seat"].get<int>(),
                                              d["preferred"]);
  }
  auto file = std::make_shared<const WebFiles::File>(WebFiles::make(document.dump(), kJson));
  // Kept even when the store cannot take it now: served from memory, stored by the next node or restart that asks.
  kept_.keep(table, {file, stored->is_private, stored->invite});
  ++done_total_;
  store_.save_analysis(table, analysis::engine_version(), file->body);
}

std::string Analyses::metrics() const {
  std::size_t waiting = 0;
  {
    std::lock_guard lock(mutex_);
    waiting = requested_.size() + automatic_.size();
  }
  std::string out;
  out += "# HELP emporium_analyses_requested_total Analyses asked for (POST /tables/<id>/analysis that queued one).\n"
         "# TYPE emporium_analyses_requested_total counter\n"
         "emporium_analyses_requested_total " + std::to_string(requested_total_.load()) + "\n";
  out += "# HELP emporium_analyses_done_total Analyses computed on this node.\n"
         "# TYPE emporium_analyses_done_total counter\n"
         "emporium_analyses_done_total " + std::to_string(done_total_.load()) + "\n";
  out += "# HELP emporium_analyses_failed_total Analyses that failed (logged).\n"
         "# TYPE emporium_analyses_failed_total counter\n"
         "emporium_analyses_failed_total " + std::to_string(failed_total_.load()) + "\n";
  out += "# HELP emporium_analysis_queue Analyses waiting on this node.\n"
         "# TYPE emporium_analysis_queue gauge\n"
         "emporium_analysis_queue " + std::to_string(waiting) + "\n";
  out += "# HELP emporium_analysis_seconds_total CPU time the analyses took.\n"
         "# TYPE emporium_analysis_seconds_total counter\n"
         "emporium_analysis_seconds_total " + std::to_string(static_cast<double>(cpu_micros_.load()) / 1e6) + "\n";
  return out;
}

}  // namespace emporium::server
