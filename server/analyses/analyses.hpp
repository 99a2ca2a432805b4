#pragma once
// Finished games' analyses (docs/analysis.md "Serving it"): asked for with POST /tables/<id>/analysis, read with
// GET /tables/<id>/analysis.json. Each node queues its own: requests first, then the automatic ones (rated games
// as they end, only while nothing waits), on a pool of its own at nice 19, so that they only take the CPU the
// tables leave, one analysis per thread. A finished one is stored (shared by every node, keyed on the engine's
// version: recomputed only when the engine changes) and kept in memory, like records.
//
// Nothing about a running game is ever computed or served: both routes answer 409 for a table that has not
// finished before anything else is read or queued. A private table's analysis needs its invite, as its record
// (checked first: without it nobody learns whether the table is running).
#include <atomic>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/throttle.hpp"
#include "common/web_files.hpp"
#include "records/kept_files.hpp"

namespace emporium::server {

class Store;
class WorkerPool;

class Analyses {
 public:
  struct Settings {
    int threads = 1;          // analyses at once, each on a thread of its own (0: none, the routes answer 503)
    std::size_t queue = 50;   // analyses waiting beyond those running; a request beyond is refused (429)
    long long budget = 40000;  // play-outs per analysis at most (analysis::Settings::budget)
    std::size_t asks_per_minute = 6;  // POSTs that queue an analysis, per client address (0: no cap)
  };
  enum class Kind { ask, read };  // POST /tables/<id>/analysis, GET /tables/<id>/analysis.json
  struct Request {
    Kind kind = Kind::read;
    std::string table;
    std::string invite;  // ?invite=
  };
  // The route's answer: the analysis (`file`) or a JSON status or error, and for a 429 its Retry-After.
  struct Answer {
    unsigned status = 200;
    std::shared_ptr<const WebFiles::File> file;
    nlohmann::json body;
    int retry_after_s = 0;
  };

  Analyses(Store& store, Settings settings);
  ~Analyses();  // the analyses under way stop at their next progress call
  Analyses(const Analyses&) = delete;
  Analyses& operator=(const Analyses&) = delete;

  // The request `target` makes, if it is one of these routes (the method is the caller's to check).
  static std::optional<Request> parse(std::string_view target);
  // Answers on a worker. `address`: the client's, whose asks are counted.
  void serve(Request r, std::string address, std::function<void(Answer)> done);
  // A rated game ended: analysed when the node has nothing waiting.
  void rated_game_ended(const std::string& table);

  std::string metrics() const;  // for /metrics

 private:
  struct Running {
    long long done = 0, planned = 0;
  };
  Answer answer(const Request& r, const std::string& address);
  // Its 202 status while it waits or runs on this node; with the mutex held.
  std::optional<nlohmann::json> status_locked(const std::string& table) const;
  // Queues `table` (a request ahead of every automatic one): its status, or none when the node is full.
  std::optional<nlohmann::json> enqueue(const std::string& table, bool requested);
  void run_next();  // on the analysis pool
  void analyse(const std::string& table);

  Store& store_;
  const Settings settings_;
  Throttle asks_;
  KeptFiles kept_;
  mutable std::mutex mutex_;
  std::deque<std::string> requested_, automatic_;  // waiting, in order
  std::map<std::string, Running> running_;
  std::atomic<bool> stopping_{false};
  std::atomic<long> requested_total_{0}, done_total_{0}, failed_total_{0};
  std::atomic<long long> cpu_micros_{0};
  std::unique_ptr<WorkerPool> pool_;    // the analyses (none when off)
  std::unique_ptr<WorkerPool> routes_;  // the routes' store calls: never on a network thread
};

}  // namespace emporium::server
