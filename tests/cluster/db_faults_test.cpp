// The cluster under its database's faults (issue 39). Each DbFaults test starts its own PostgreSQL, three nodes
// (--lease-ms 2000) behind HAProxy and tables of Silk Road whose three players play random legal moves through the
// proxy, every frame kept; then it does to the database (or to a node) what an operator or a failing machine
// would, and checks the contract of docs/scaling.md: no node exits, a write the store cannot take now is refused
// with `store_unavailable`, every acknowledged move is stored at its index and none twice, every table moves again
// within kMovesAgainWithin of the database's return, and /healthz says 503 meanwhile on the nodes that tried to
// write. SqliteFaults does the same to one server on its SQLite file. Each test prints one `figures:` line.
// The node logs stay in the test's temporary directory when a test fails (its path is printed).
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "cluster_support.hpp"
#include "emporium/engine/rng.hpp"
#include "postgres_server.hpp"

namespace {

using namespace emporium::testing;
using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;

// The bounds of the contract (issue 39).
constexpr auto kMovesAgainWithin = 10s;   // every table moves again this soon after the database is back
constexpr auto kSeatedAfterFreeze = 6s;   // players of a frozen node's tables are seated elsewhere this soon
constexpr auto kHealthzAnswersWithin = 1s;

constexpr int kTables = 30;
constexpr int kPlayers = 3;
const std::string kGame = "silkroad";
const std::string kLeaseMs = "2000";
// A table's players wait this long between its moves, so that a game (about 150 moves) outlasts a scenario.
constexpr auto kPace = 120ms;
// After a refusal, before trying again (as a client told to retry would).
constexpr auto kRetryPause = 150ms;
constexpr auto kReplyWait = 4s;
constexpr auto kWarmUp = 2s;
constexpr auto kPlayOnAfter = 1500ms;  // play after the tables moved again, before the checks

double in_ms(std::chrono::milliseconds d) { return static_cast<double>(d.count()); }

double ms_between(clock_type::time_point from, clock_type::time_point to) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Lines of `text` that contain every one of `needles`.
int count_lines(const std::string& text, std::initializer_list<std::string> needles) {
  std::istringstream in(text);
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    n += std::all_of(needles.begin(), needles.end(), [&](const auto& w) { return line.find(w) != std::string::npos; });
  }
  return n;
}

// ---- What the test does to the players ------------------------------------------------------------------------

enum class mode { play, hold, stop };

// Set by the test, read by every table's driver.
struct play_control {
  std::atomic<mode> now{mode::play};
  std::atomic<bool> outage{false};  // the database is down (or slow): moves sent now count as tries to write
  std::mutex mutex;
  std::set<std::string> wrote_in_outage;  // nodes a move was sent to during the outage

  void wrote(const std::string& node) {
    if (!outage) return;
    std::lock_guard lock(mutex);
    wrote_in_outage.insert(node);
  }
};

// One table and its three players, each on a connection of its own through `entry` (the proxy, or a lone node).
struct table_run {
  std::string id;
  std::array<seat, kPlayers> seats;
  // Written by the table's driver, read once it has stopped.
  std::map<std::string, Json> sent;            // an act's request id -> its action
  std::vector<clock_type::time_point> acks;    // when each ack arrived
  std::map<std::string, int> refused;          // refusals of moves by error code (stale_version not counted)
  std::vector<std::pair<int, clock_type::time_point>> seated;  // a seat seated again, and when
  std::string failure;
  // Read while it plays.
  std::atomic<clock_type::rep> last_ack{0};
  std::atomic<bool> idle{false};  // holding, with nothing in flight
  std::atomic<bool> done{false};  // the game is over or the driver stopped

  bool over() const {
    return std::all_of(seats.begin(), seats.end(), [](const seat& s) { return s.over; });
  }
};

// Waits until a request for `table` through `entry` reaches a node that answers (a frozen node takes the
// connection and never answers: a WebSocket upgrade sent there would wait until it wakes).
void wait_for_route(std::uint16_t entry, const std::string& table, clock_type::time_point give_up) {
  while (!http_get_within(entry, "/healthz?table=" + table, 500ms)) {
    if (clock_type::now() > give_up) throw std::runtime_error("no node answers for table " + table);
  }
}

void reconnect(std::uint16_t entry, table_run& t, int index) {
  const auto give_up = clock_type::now() + kMovesAgainWithin + 10s;
  wait_for_route(entry, t.id, give_up);
  connect_seat(entry, t.id, t.seats[index], give_up, {2s, 6s});
  t.seated.emplace_back(index, clock_type::now());
}

// Plays random legal moves at `t` until the game ends or the test says stop. A refused move is retried after a
// pause, the seat's view read again with `snapshot` (a move refused as its store failed may be stored after all).
void drive(table_run& t, std::uint16_t entry, play_control& control, std::uint64_t seed) {
  emporium::engine::Rng rng(seed);
  int next_id = 0;
  auto ask = [&](seat& s, Json message) -> std::optional<Json> {
    const std::string id = "d" + std::to_string(next_id++);
    message["id"] = id;
    if (message["type"] == "act") t.sent[id] = message["action"];
    s.client->send(message);
    try {
      return s.client->wait_for([&](const Json& j) { return j.contains("re") && j["re"] == id; }, kReplyWait);
    } catch (const std::exception&) {
      return std::nullopt;  // no answer in time: whatever comes later stays in the connection's log
    }
  };
  while (control.now != mode::stop && !t.over()) {
    for (int i = 0; i < kPlayers; ++i) {
      if (t.seats[i].client->closed()) reconnect(entry, t, i);
      t.seats[i].catch_up();
    }
    if (control.now == mode::hold) {
      t.idle = true;
      std::this_thread::sleep_for(20ms);
      continue;
    }
    t.idle = false;
    seat* mover = nullptr;
    for (auto& s : t.seats) {
      if (!s.legal.empty() && !s.over) mover = &s;
    }
    if (!mover) {
      t.seats[0].client->wait_log_beyond(t.seats[0].cursor, 20ms);
      continue;
    }
    control.wrote(mover->node);
    const Json action = mover->legal[rng.below(mover->legal.size())];
    const auto reply = ask(*mover, {{"type", "act"}, {"table", t.id}, {"version", mover->version}, {"action", action}});
    if (reply && reply->value("type", "") == "ack") {
      const auto now = clock_type::now();
      t.acks.push_back(now);
      t.last_ack = now.time_since_epoch().count();
      const std::uint64_t v = (*reply)["version"];
      for (int i = 0; i < 50 && mover->version < v && !mover->client->closed(); ++i) {
        mover->client->wait_log_beyond(mover->cursor, 20ms);
        mover->catch_up();
      }
      std::this_thread::sleep_for(kPace);
      continue;
    }
    const std::string code = reply ? reply->value("code", "") : "no answer";
    if (code == "rate_limited") {
      std::this_thread::sleep_for(100ms);
      continue;
    }
    if (code != "stale_version") {
      ++t.refused[code];
      std::this_thread::sleep_for(kRetryPause);
    }
    if (!mover->client->closed()) ask(*mover, {{"type", "snapshot"}, {"table", t.id}});
  }
}

// A table of kGame with kPlayers people seated and started through `entry`, as the web client does it: made from a
// lobby connection, then each player on a connection whose URL names the table.
std::unique_ptr<table_run> make_table(std::uint16_t entry, const Json& clock = nullptr) {
  auto t = std::make_unique<table_run>();
  const auto give_up = clock_type::now() + 60s;
  auto expect = [](const Json& reply, const std::string& type, const char* what) {
    if (reply.value("type", "") != type) throw std::runtime_error(std::string(what) + ": " + reply.dump());
  };
  ws_client lobby(entry);
  lobby.wait_type("welcome");
  Json create = {{"type", "create_table"}, {"game", kGame}, {"players", kPlayers}};
  if (!clock.is_null()) create["clock"] = clock;
  const Json created = lobby.request(create, 20s);
  expect(created, "seated", "create_table");
  t->id = created["table"]["id"];
  t->seats[0].token = created["token"];
  for (int p = 1; p < kPlayers; ++p) {
    ws_client joiner(entry, "/ws?table=" + t->id);
    joiner.wait_type("welcome");
    const Json joined = joiner.request({{"type", "join"}, {"table", t->id}}, 20s);
    expect(joined, "seated", "join");
    t->seats[p].token = joined["token"];
  }
  for (auto& s : t->seats) connect_seat(entry, t->id, s, give_up);
  expect(t->seats[0].client->request({{"type", "start"}, {"table", t->id}}, 20s), "ack", "start");
  return t;
}

// The tables of a scenario and their drivers' threads.
class table_players {
 public:
  explicit table_players(std::uint16_t entry) : entry_(entry) {}
  ~table_players() { stop(); }

  // `n` tables made by `makers` threads at once (as many as tables: a burst of creates, joins and starts).
  void make(int n, int makers) {
    runs.resize(static_cast<std::size_t>(n));
    std::vector<std::thread> threads;
    std::mutex mutex;
    std::vector<std::string> failures;
    for (int m = 0; m < makers; ++m) {
      threads.emplace_back([&, m] {
        for (int i = m; i < n; i += makers) {
          try {
            runs[static_cast<std::size_t>(i)] = make_table(entry_);
          } catch (const std::exception& e) {
            std::lock_guard lock(mutex);
            failures.push_back(e.what());
          }
        }
      });
    }
    for (auto& t : threads) t.join();
    if (!failures.empty()) throw std::runtime_error("making the tables: " + failures.front());
  }

  void start() {
    for (std::size_t i = 0; i < runs.size(); ++i) {
      threads_.emplace_back([this, i] {
        auto& t = *runs[i];
        try {
          drive(t, entry_, control, 4000 + i);
        } catch (const std::exception& e) {
          t.failure = e.what();
        }
        t.idle = true;
        t.done = true;
      });
    }
  }

  // Players stop sending; returns once none has a move in flight.
  void hold() {
    control.now = mode::hold;
    const auto give_up = clock_type::now() + 2 * kReplyWait;
    while (clock_type::now() < give_up &&
           !std::all_of(runs.begin(), runs.end(), [](const auto& t) { return t->idle.load(); })) {
      std::this_thread::sleep_for(10ms);
    }
  }
  void go_on() { control.now = mode::play; }

  void stop() {
    control.now = mode::stop;
    for (auto& t : threads_) t.join();
    threads_.clear();
  }

  // Waits until every table still playing has had a move acknowledged after `since`, or the bound (and a little
  // more, to tell late from never) has passed.
  void wait_for_moves_after(clock_type::time_point since) const {
    const auto limit = since + kMovesAgainWithin + 2s;
    auto moved = [&](const auto& t) { return t->done || t->last_ack.load() >= since.time_since_epoch().count(); };
    while (clock_type::now() < limit && !std::all_of(runs.begin(), runs.end(), moved)) {
      std::this_thread::sleep_for(20ms);
    }
  }

  std::vector<std::unique_ptr<table_run>> runs;
  play_control control;

 private:
  std::uint16_t entry_;
  std::vector<std::thread> threads_;
};

// ---- What the nodes say -----------------------------------------------------------------------------------------

// Every node's /healthz, asked directly on its port every 100 ms from a thread per node, with how long it took.
class health_monitor {
 public:
  struct poll {
    std::string node;
    clock_type::time_point at;
    std::optional<int> status;  // none: no answer within 3 s
    double ms = 0;
  };

  explicit health_monitor(const std::vector<std::pair<std::string, std::uint16_t>>& nodes) {
    for (const auto& [name, port] : nodes) {
      threads_.emplace_back([this, name, port] {
        while (!stopping_) {
          const auto at = clock_type::now();
          const auto reply = http_get_within(port, "/healthz", 3s);
          poll p{name, at, reply ? std::optional<int>(reply->status) : std::nullopt, ms_between(at, clock_type::now())};
          {
            std::lock_guard lock(mutex_);
            polls_.push_back(p);
          }
          std::this_thread::sleep_for(100ms);
        }
      });
    }
  }
  ~health_monitor() {
    stopping_ = true;
    for (auto& t : threads_) t.join();
  }

  std::vector<poll> between(clock_type::time_point from, clock_type::time_point to) const {
    std::lock_guard lock(mutex_);
    std::vector<poll> out;
    for (const auto& p : polls_) {
      if (p.at >= from && p.at <= to) out.push_back(p);
    }
    return out;
  }

 private:
  std::atomic<bool> stopping_{false};
  mutable std::mutex mutex_;
  std::vector<poll> polls_;
  std::vector<std::thread> threads_;
};

struct node_ref {
  std::string name;
  server_process* process;
  std::string log;
};

// (table, index) -> the stored action's JSON text.
using stored_actions = std::map<std::pair<std::string, std::uint64_t>, std::string>;

stored_actions read_postgres_actions(const std::string& uri) {
  stored_actions out;
  postgres_session db(uri);
  for (const auto& row : db.query("SELECT table_id, idx, action FROM actions")) {
    out[{row[0], std::stoull(row[1])}] = row[2];
  }
  return out;
}

stored_actions read_sqlite_actions(const std::string& path) {
  stored_actions out;
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    ADD_FAILURE() << "cannot open " << path << ": " << sqlite3_errmsg(db);
    sqlite3_close(db);
    return out;
  }
  sqlite3_busy_timeout(db, 5000);
  sqlite3_stmt* rows = nullptr;
  sqlite3_prepare_v2(db, "SELECT table_id, idx, action FROM actions", -1, &rows, nullptr);
  while (sqlite3_step(rows) == SQLITE_ROW) {
    out[{reinterpret_cast<const char*>(sqlite3_column_text(rows, 0)),
         static_cast<std::uint64_t>(sqlite3_column_int64(rows, 1))}] =
        reinterpret_cast<const char*>(sqlite3_column_text(rows, 2));
  }
  sqlite3_finalize(rows);
  sqlite3_close(db);
  return out;
}

// When the database failed and when it was back; `writers` are the nodes a move was sent to meanwhile.
struct outage_window {
  clock_type::time_point began;
  clock_type::time_point back;
  std::set<std::string> writers;
};

// Runs `fault` (which returns once the database is back) with the players told it is an outage.
outage_window outage(play_control& control, const std::function<void()>& fault) {
  outage_window w;
  control.outage = true;
  w.began = clock_type::now();
  fault();
  w.back = clock_type::now();
  control.outage = false;
  std::lock_guard lock(control.mutex);
  w.writers = std::exchange(control.wrote_in_outage, {});
  return w;
}

// Every acknowledged move is stored at its index with the action that was sent, no index was acknowledged twice,
// and every version announced in an events frame is stored. Returns the number of acks.
std::uint64_t expect_acks_stored(const std::vector<std::unique_ptr<table_run>>& runs, const stored_actions& stored) {
  std::uint64_t acked = 0;
  std::vector<std::string> problems;
  for (const auto& t : runs) {
    std::set<std::uint64_t> versions;
    std::uint64_t told = 0;
    auto read = [&](const ws_client& c) {
      for (const auto& frame : c.log()) {
        const Json j = Json::parse(frame);
        const std::string type = j.value("type", "");
        if (type == "events" && j.value("table", "") == t->id) told = std::max<std::uint64_t>(told, j["version"]);
        if (type != "ack" || !j.contains("re") || !j["re"].is_string()) continue;
        const auto sent = t->sent.find(j["re"]);
        if (sent == t->sent.end()) continue;
        const std::uint64_t v = j["version"];
        ++acked;
        const std::string where = "table " + t->id + " version " + std::to_string(v);
        if (!versions.insert(v).second) problems.push_back(where + " acknowledged twice");
        const auto row = stored.find({t->id, v - 1});
        if (row == stored.end()) {
          problems.push_back(where + " acknowledged, not stored");
        } else if (Json::parse(row->second) != sent->second) {
          problems.push_back(where + " acknowledged " + sent->second.dump() + ", stored " + row->second);
        }
      }
    };
    for (const auto& s : t->seats) {
      for (const auto& c : s.earlier) read(*c);
      if (s.connection) read(*s.connection);
    }
    const auto first = stored.lower_bound({t->id, 0});
    const auto end = stored.lower_bound({t->id + '\x01', 0});
    const auto count = static_cast<std::uint64_t>(std::distance(first, end));
    if (count < told) problems.push_back("table " + t->id + ": version " + std::to_string(told) + " announced, " +
                                         std::to_string(count) + " actions stored");
  }
  EXPECT_TRUE(problems.empty()) << problems.size() << " problems, the first: " << problems.front();
  return acked;
}

// What a scenario measured and what every scenario checks. `expected_outages`: how many times the store went away
// (each node logs one warning for each, and one line when it is back); none where nothing is said of the store.
struct scenario_checks {
  std::string name;
  std::vector<node_ref> nodes;
  std::optional<outage_window> window;
  clock_type::time_point moves_again_since;  // the database's return (or the fault's start)
  std::optional<int> expected_outages;
  std::string extra_figures;
};

void expect_scenario(const scenario_checks& c, const std::vector<std::unique_ptr<table_run>>& runs,
                     const stored_actions& stored, const health_monitor& health) {
  // No node exited, none aborted.
  for (const auto& n : c.nodes) {
    EXPECT_TRUE(n.process->running()) << "node " << n.name << " exited; its log: " << n.log;
    const std::string log = read_text(n.log);
    EXPECT_EQ(log.find("terminate called"), std::string::npos) << "node " << n.name << " aborted; its log: " << n.log;
  }
  // Every driver played to the end without giving up.
  std::vector<std::string> gave_up;
  for (const auto& t : runs) {
    if (!t->failure.empty()) gave_up.push_back("table " + t->id + ": " + t->failure);
  }
  EXPECT_TRUE(gave_up.empty()) << gave_up.size() << " tables' players gave up, the first: " << gave_up.front();
  const auto acked = expect_acks_stored(runs, stored);

  // Every table moved again within the bound: its first ack after the database's return.
  std::vector<double> waits;
  int finished_before = 0;
  std::vector<std::string> stuck;
  for (const auto& t : runs) {
    const auto first = std::lower_bound(t->acks.begin(), t->acks.end(), c.moves_again_since);
    if (first != t->acks.end()) {
      waits.push_back(ms_between(c.moves_again_since, *first));
      EXPECT_LE(waits.back(), in_ms(kMovesAgainWithin)) << "table " << t->id << " moved again late";
    } else if (t->over() && !t->acks.empty()) {
      ++finished_before;  // its game ended before
    } else {
      stuck.push_back("table " + t->id + " (refusals: " + Json(t->refused).dump() + ")");
    }
  }
  EXPECT_TRUE(stuck.empty()) << stuck.size() << " of " << runs.size()
                             << " tables never moved again after the database was back, the first: " << stuck.front();
  std::sort(waits.begin(), waits.end());

  // /healthz said 503 during the outage on the nodes that tried to write; one log line each way per outage.
  if (c.window) {
    const auto polls = health.between(c.window->began, c.window->back);
    for (const auto& node : c.window->writers) {
      const bool said_503 =
          std::any_of(polls.begin(), polls.end(), [&](const auto& p) { return p.node == node && p.status == 503; });
      EXPECT_TRUE(said_503) << "node " << node << " took moves during the outage and never said 503 on /healthz";
    }
  }
  for (const auto& n : c.nodes) {
    const std::string log = read_text(n.log);
    const int down = count_lines(log, {"[warning]", "store unavailable"});
    const int up = count_lines(log, {"store available again"});
    if (c.expected_outages) {
      EXPECT_LE(down, *c.expected_outages) << "node " << n.name << ": more 'store unavailable' warnings than outages";
      EXPECT_EQ(up, down) << "node " << n.name << ": an outage without its 'store available again' line";
      if (c.window && c.window->writers.count(n.name)) {
        EXPECT_GE(down, 1) << "node " << n.name << " logged no outage";
      }
    }
    if (!n.process->running()) continue;
    const auto metrics = http_get_within(n.process->port(), "/metrics", 2s);
    ASSERT_TRUE(metrics) << "node " << n.name << ": no /metrics";
    std::string missing;
    for (const char* name : {"emporium_store_up ", "emporium_store_seconds_since_answer ",
                             "emporium_store_errors_total{kind=", "emporium_store_reconnections_total ",
                             "emporium_store_outages_total "}) {
      if (metrics->body.find(name) == std::string::npos) missing += std::string(" ") + name;
    }
    EXPECT_EQ(missing, "") << "node " << n.name << ": /metrics lacks these";
  }

  int refused = 0;
  int refused_other = 0;
  for (const auto& t : runs) {
    for (const auto& [code, n] : t->refused) (code == "store_unavailable" ? refused : refused_other) += n;
  }
  std::printf("figures: scenario=%s acked=%llu refused=%d refused_other=%d recover_max_ms=%.0f recover_median_ms=%.0f "
              "tables=%zu stuck=%d%s\n",
              c.name.c_str(), static_cast<unsigned long long>(acked), refused, refused_other,
              waits.empty() ? -1.0 : waits.back(), waits.empty() ? -1.0 : waits[waits.size() / 2], runs.size(),
              static_cast<int>(stuck.size()),
              c.extra_figures.c_str());
  std::fflush(stdout);
}

// The refusals of moves, by code, over every table.
std::map<std::string, int> refusals(const std::vector<std::unique_ptr<table_run>>& runs) {
  std::map<std::string, int> out;
  for (const auto& t : runs) {
    for (const auto& [code, n] : t->refused) out[code] += n;
  }
  return out;
}

// Every /healthz answer in the window came within the bound.
void expect_healthz_answered(const health_monitor& health, const outage_window& w) {
  const auto polls = health.between(w.began, w.back);
  EXPECT_FALSE(polls.empty());
  for (const auto& p : polls) {
    EXPECT_TRUE(p.status.has_value() && p.ms <= in_ms(kHealthzAnswersWithin))
        << "node " << p.node << ": /healthz "
        << (p.status ? "answered in " + std::to_string(p.ms) + " ms" : "unanswered")
        << ", " << ms_between(w.began, p.at) << " ms into the fault";
  }
}

// ---- Three nodes on one PostgreSQL ------------------------------------------------------------------------------

class DbFaults : public ::testing::Test {
 protected:
  void SetUp() override {
    try {
      pg_ = std::make_unique<postgres_server>();
    } catch (const postgres_not_installed& e) {
      GTEST_SKIP() << "PostgreSQL is not installed: " << e.what();
    }
    raise_open_files_limit(20000);
    uri_ = pg_->new_database("emporium");
    dir_ = make_temp_dir("emporium-db-faults");
    // Who waited on whose lock, in PostgreSQL's log (kept with the nodes' when the test fails).
    postgres_session(uri_).query("ALTER SYSTEM SET log_lock_waits = on");
    postgres_session(uri_).query("SELECT pg_reload_conf()");
  }

  void TearDown() override {
    players_.reset();
    health_.reset();
    proxy_.reset();
    processes_.clear();
    if (dir_.empty()) return;
    if (HasFailure()) {
      std::filesystem::copy_file(pg_->log_path(), dir_ + "/postgres.log");
      std::printf("node logs kept in %s\n", dir_.c_str());
    } else {
      std::filesystem::remove_all(dir_);
    }
  }

  // Three nodes behind HAProxy, the tables made and played through it, every node's /healthz watched.
  void start_cluster(std::vector<std::string> extra = {}, int makers = 10) {
    std::vector<std::pair<std::string, std::uint16_t>> ports;
    extra.insert(extra.end(), {"--lease-ms", kLeaseMs, "--trusted-proxies", "127.0.0.1", "--log-level", "info"});
    for (const std::string name : {"n1", "n2", "n3"}) {
      processes_.push_back(start_node(dir_, uri_, name, extra));
      nodes_.push_back({name, processes_.back().get(), node_log(dir_, name)});
      ports.emplace_back(name, processes_.back()->port());
    }
    std::vector<std::uint16_t> node_ports;
    for (const auto& [name, port] : ports) node_ports.push_back(port);
    proxy_ = std::make_unique<haproxy_process>(dir_, free_port(), node_ports);
    health_ = std::make_unique<health_monitor>(ports);
    players_ = std::make_unique<table_players>(proxy_->port());
    players_->make(kTables, makers);
  }

  // The players play for a while, then `fault` happens (with the players holding their moves meanwhile if
  // `between_moves`, and for `think` after it); returns once every table moved again after it (or the bound passed).
  outage_window play_through(const std::function<void()>& fault, bool between_moves = false,
                             std::chrono::milliseconds think = 0ms) {
    players_->start();
    std::this_thread::sleep_for(kWarmUp);
    if (between_moves) players_->hold();
    const auto w = outage(players_->control, fault);
    std::this_thread::sleep_for(think);
    if (between_moves) players_->go_on();
    players_->wait_for_moves_after(w.back);
    std::this_thread::sleep_for(kPlayOnAfter);
    return w;
  }

  // The checks every scenario makes, once its players have stopped.
  void finish(const std::string& name, const std::optional<outage_window>& w, clock_type::time_point since,
              std::optional<int> expected_outages = 1, const std::string& extra_figures = "") {
    players_->stop();
    expect_scenario({name, nodes_, w, since, expected_outages, extra_figures}, players_->runs,
                    read_postgres_actions(uri_), *health_);
  }

  std::unique_ptr<postgres_server> pg_;
  std::string uri_;
  std::string dir_;
  std::vector<std::unique_ptr<server_process>> processes_;
  std::vector<node_ref> nodes_;
  std::unique_ptr<haproxy_process> proxy_;
  std::unique_ptr<health_monitor> health_;
  std::unique_ptr<table_players> players_;
};

// Finding 1: PostgreSQL stopped as an operator would while moves are being saved, started again 3 s later.
TEST_F(DbFaults, PostgresStoppedWhileMovesAreSaved) {
  start_cluster();
  const auto w = play_through([&] {
    pg_->halt();
    std::this_thread::sleep_for(3s);
    pg_->restart();
  });
  auto refused = refusals(players_->runs);
  EXPECT_GT(refused["store_unavailable"], 0) << "no move was refused with store_unavailable during the outage";
  EXPECT_EQ(refused["internal_error"], 0) << "moves refused with internal_error while the store was down";
  finish("pg_stopped", w, w.back);
}

// Finding 2: PostgreSQL restarted while nobody sends a move; the players go on a little later, once the node has
// used the store again for something else (its heartbeat writes every second).
TEST_F(DbFaults, PostgresRestartedBetweenMoves) {
  start_cluster();
  constexpr auto think = 2s;
  const auto w = play_through([&] { pg_->restart(); }, /*between_moves=*/true, think);
  // Measured from the database's return: the players' pause is part of the figure.
  finish("pg_restarted", w, w.back, 1,
         " players_paused_ms=" + std::to_string(std::chrono::milliseconds(think).count()));
}

// PostgreSQL slow: a test connection holds an exclusive lock on the actions table for 4 s.
TEST_F(DbFaults, PostgresActionsTableLockedForFourSeconds) {
  start_cluster();
  const auto w = play_through([&] {
    postgres_session locker(uri_);
    locker.query("BEGIN");
    locker.query("LOCK TABLE actions IN ACCESS EXCLUSIVE MODE");
    std::this_thread::sleep_for(4s);
    locker.query("COMMIT");
  });
  expect_healthz_answered(*health_, w);
  finish("pg_locked", w, w.back);
}

// PostgreSQL slow: its postmaster and every backend stopped with SIGSTOP for 3 s, as on a machine that hangs.
TEST_F(DbFaults, PostgresPausedForThreeSeconds) {
  start_cluster();
  const auto w = play_through([&] {
    pg_->pause();
    std::this_thread::sleep_for(3s);
    pg_->resume();
  });
  expect_healthz_answered(*health_, w);
  finish("pg_paused", w, w.back);
}

// Finding 3: a node frozen (SIGSTOP) for 6 s right after a burst of creates, joins and starts, each a seat write.
// The players of its tables connect again through the proxy and must be seated on another node within the bound,
// without waiting for the frozen node to wake.
TEST_F(DbFaults, NodeFrozenDuringSeatWritesDoesNotHoldItsTables) {
  start_cluster({}, kTables);  // every table made at once
  std::map<std::string, int> per_node;
  for (const auto& t : players_->runs) ++per_node[t->seats[0].node];
  const auto most = std::max_element(per_node.begin(), per_node.end(),
                                     [](const auto& a, const auto& b) { return a.second < b.second; });
  const auto frozen = std::find_if(nodes_.begin(), nodes_.end(), [&](const auto& n) { return n.name == most->first; });
  ASSERT_NE(frozen, nodes_.end()) << most->first;
  const int pid = frozen->process->pid();
  struct thaw_at_exit {
    int pid;
    ~thaw_at_exit() { ::kill(pid, SIGCONT); }
  } thaw{pid};
  ::kill(pid, SIGSTOP);
  const auto frozen_at = clock_type::now();
  // The players of its tables notice (as a client's heartbeat would) and connect again.
  std::vector<std::pair<table_run*, int>> moved;
  for (auto& t : players_->runs) {
    for (int i = 0; i < kPlayers; ++i) {
      if (t->seats[i].node != frozen->name) continue;
      moved.emplace_back(t.get(), i);
      t->seats[i].connection->close();
    }
  }
  players_->start();
  std::this_thread::sleep_until(frozen_at + 6s);
  ::kill(pid, SIGCONT);
  players_->wait_for_moves_after(frozen_at);
  std::this_thread::sleep_for(kPlayOnAfter);
  players_->stop();

  double seated_max_ms = 0;
  for (const auto& [t, i] : moved) {
    const auto again =
        std::find_if(t->seated.begin(), t->seated.end(), [i = i](const auto& s) { return s.first == i; });
    if (again == t->seated.end()) {
      ADD_FAILURE() << "table " << t->id << " seat " << i << " was never seated again";
      continue;
    }
    const double ms = ms_between(frozen_at, again->second);
    seated_max_ms = std::max(seated_max_ms, ms);
    EXPECT_LE(ms, in_ms(kSeatedAfterFreeze))
        << "table " << t->id << " seat " << i << " seated again " << ms << " ms after its node froze";
    EXPECT_NE(t->seats[i].node, frozen->name) << "table " << t->id << " seat " << i;
  }
  EXPECT_GT(moved.size(), 0u);
  char figures[160];
  std::snprintf(figures, sizeof figures, " frozen_tables=%d seated_max_ms=%.0f", most->second, seated_max_ms);
  expect_scenario({"node_frozen", nodes_, std::nullopt, frozen_at, std::nullopt, figures}, players_->runs,
                  read_postgres_actions(uri_), *health_);
}

// Watches tables through the proxy (a spectator, not a player) and keeps when each timeout event arrived.
class timeout_watch {
 public:
  timeout_watch(std::uint16_t proxy, std::vector<std::string> tables) {
    for (auto& id : tables) {
      threads_.emplace_back([this, proxy, id] {
        while (!stopping_) {
          try {
            ws_client c(proxy, "/ws?table=" + id);
            c.wait_type("welcome");
            if (c.request({{"type", "watch"}, {"table", id}}).value("type", "") != "watching") continue;
            for (std::size_t cursor = 0; !stopping_ && !c.closed();) {
              c.wait_log_beyond(cursor, 50ms);
              for (const auto& frame : c.log_from(cursor)) {
                ++cursor;
                const Json j = Json::parse(frame);
                if (j.value("type", "") != "events") continue;
                for (const auto& e : j["events"]) {
                  if (e.value("type", "") != "timeout") continue;
                  std::lock_guard lock(mutex_);
                  timeouts_[id].push_back(clock_type::now());
                }
              }
            }
          } catch (const std::exception&) {
            std::this_thread::sleep_for(200ms);  // no node takes the connection now: again
          }
        }
      });
    }
  }
  ~timeout_watch() {
    stopping_ = true;
    for (auto& t : threads_) t.join();
  }
  std::map<std::string, std::vector<clock_type::time_point>> timeouts() const {
    std::lock_guard lock(mutex_);
    return timeouts_;
  }

 private:
  std::atomic<bool> stopping_{false};
  mutable std::mutex mutex_;
  std::map<std::string, std::vector<clock_type::time_point>> timeouts_;
  std::vector<std::thread> threads_;
};

// Finding 8: tables nobody plays at (bots only; a timed table whose players are away) through an outage of the
// first scenario's kind: the bots finish their games and the clocks still run out afterwards.
TEST_F(DbFaults, BotsAndClocksCarryOnAfterAnOutage) {
  start_cluster({"--bot-delay-ms", "60", "--min-turn-s", "1"});
  std::vector<std::string> unattended;
  for (int i = 0; i < 4; ++i) {  // bots only: the one person leaves, a bot plays the seat to the end
    auto t = seat_with_bots(proxy_->port(), kGame, {"easy", "easy"});
    ASSERT_EQ(t.players[0]->request({{"type", "leave"}, {"table", t.id}})["type"], "left");
    unattended.push_back(t.id);
  }
  std::vector<std::string> timed;
  for (int i = 0; i < 2; ++i) {  // three people on a 1 s clock, all gone: the clock plays for them
    timed.push_back(make_table(proxy_->port(), {{"turn", 1}, {"reserve", 0}})->id);
    unattended.push_back(timed.back());
  }
  timeout_watch watch(proxy_->port(), timed);
  std::string in;
  for (const auto& id : unattended) in += (in.empty() ? "'" : ",'") + id + "'";
  // A connection per query: the database goes away meanwhile.
  auto query = [&](const std::string& sql) { return postgres_session(uri_).query(sql); };
  auto stored_counts = [&] {
    std::map<std::string, int> counts;
    for (const auto& row : query("SELECT table_id, count(*) FROM actions WHERE table_id IN (" + in +
                                    ") GROUP BY table_id")) {
      counts[row[0]] = std::stoi(row[1]);
    }
    return counts;
  };

  std::map<std::string, int> at_back;
  const auto w = play_through([&] {
    pg_->halt();
    std::this_thread::sleep_for(3s);
    pg_->restart();
    at_back = stored_counts();
  });
  // Each unattended table stored a move again within the bound (read from the database every 100 ms)...
  std::map<std::string, double> moved_after;
  for (auto now = clock_type::now(); now < w.back + kMovesAgainWithin + 2s; now = clock_type::now()) {
    for (const auto& [id, n] : stored_counts()) {
      if (n > at_back[id] && !moved_after.count(id)) moved_after[id] = ms_between(w.back, now);
    }
    if (moved_after.size() == unattended.size()) break;
    std::this_thread::sleep_for(100ms);
  }
  // ...and finished its game.
  std::set<std::string> finished;
  for (auto now = clock_type::now(); now < w.back + 60s && finished.size() < unattended.size();
       now = clock_type::now()) {
    for (const auto& row : query("SELECT id FROM game_tables WHERE state = 'finished' AND id IN (" + in + ")")) {
      finished.insert(row[0]);
    }
    std::this_thread::sleep_for(200ms);
  }
  const auto timeouts = watch.timeouts();
  double unattended_max_ms = 0;
  for (const auto& id : unattended) {
    const auto moved = moved_after.find(id);
    if (moved == moved_after.end()) {
      ADD_FAILURE() << "unattended table " << id << " never moved again after the database was back";
    } else {
      unattended_max_ms = std::max(unattended_max_ms, moved->second);
      EXPECT_LE(moved->second, in_ms(kMovesAgainWithin)) << id;
    }
    EXPECT_TRUE(finished.count(id)) << "unattended table " << id << " did not finish";
  }
  for (const auto& id : timed) {
    const auto& seen = timeouts.count(id) ? timeouts.at(id) : std::vector<clock_type::time_point>{};
    const bool after_back = std::any_of(seen.begin(), seen.end(), [&](auto at) { return at > w.back; });
    EXPECT_TRUE(after_back)
        << "timed table " << id << ": no clock ran out after the database was back (" << seen.size() << " before)";
  }
  char figures[160];
  std::snprintf(figures, sizeof figures, " unattended=%zu unattended_recover_max_ms=%.0f unattended_finished=%zu",
                unattended.size(), unattended_max_ms, finished.size());
  finish("bots_and_clocks", w, w.back, 1, figures);
}

// ---- One server on its SQLite file --------------------------------------------------------------------------------

// Another process (a backup, say) holds the SQLite file's write lock for 4 s while games are played: moves are
// refused with store_unavailable (not internal_error), /healthz says 503 meanwhile, and the games go on after.
TEST(SqliteFaults, DatabaseLockedByAnotherProcess) {
  const std::string dir = make_temp_dir("emporium-sqlite-faults");
  const std::string log = dir + "/node.log";
  bool failed = false;
  {
    server_process server("", {"--log-level", "info"}, log);
    table_players players(server.port());
    players.make(4, 4);
    const std::string name = players.runs[0]->seats[0].node;
    health_monitor health({{name, server.port()}});
    players.start();
    std::this_thread::sleep_for(kWarmUp);
    const auto w = outage(players.control, [&] {
      sqlite3* db = nullptr;
      ASSERT_EQ(sqlite3_open((server.data_dir() + "/emporium.db").c_str(), &db), SQLITE_OK);
      sqlite3_busy_timeout(db, 5000);
      ASSERT_EQ(sqlite3_exec(db, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
      std::this_thread::sleep_for(4s);
      sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
      sqlite3_close(db);
    });
    players.wait_for_moves_after(w.back);
    std::this_thread::sleep_for(kPlayOnAfter);
    players.stop();
    auto refused = refusals(players.runs);
    EXPECT_GT(refused["store_unavailable"], 0)
        << "no move was refused with store_unavailable while the file was locked";
    EXPECT_EQ(refused["internal_error"], 0) << "moves refused with internal_error while the file was locked";
    expect_healthz_answered(health, w);
    expect_scenario({"sqlite_locked", {{name, &server, log}}, w, w.back, 1, ""}, players.runs,
                    read_sqlite_actions(server.data_dir() + "/emporium.db"), health);
    failed = ::testing::Test::HasFailure();
  }
  if (failed) {
    std::printf("node log kept in %s\n", log.c_str());
  } else {
    std::filesystem::remove_all(dir);
  }
}

}  // namespace
