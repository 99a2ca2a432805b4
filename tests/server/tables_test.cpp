// The tables layer without sockets: rooms, the table directory, the lobby and each client's requests (Member),
// driven through fake connections that record the frames they are sent, over a real SQLite store in a temporary
// directory, the real commit queue and bot workers, and an io_context this test runs. Beside the end-to-end tests
// (e2e_tests), which drive whole server processes: these take milliseconds.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <emporium/engine/registry.hpp>

#include "analyses/analyses.hpp"
#include "common/address_limits.hpp"
#include "common/metrics.hpp"
#include "common/net.hpp"
#include "common/secrets.hpp"
#include "common/worker_pool.hpp"
#include "store/commit_queue.hpp"
#include "store/guarded_store.hpp"
#include "store/sql_people_store.hpp"
#include "store/sqlite_connection.hpp"
#include "store/sqlite_store.hpp"
#include "store/store_health.hpp"
#include "ratings/bot_ratings.hpp"
#include "ratings/ratings.hpp"
#include "tables/connection.hpp"
#include "tables/game_ends.hpp"
#include "tables/lobby.hpp"
#include "tables/member.hpp"
#include "tables/table_directory.hpp"
#include "tables/tables_context.hpp"

namespace emporium::server {
namespace {

using Json = nlohmann::json;
using namespace std::chrono_literals;

class Tables;

// The real store, which can be made to fail as an unreachable database does (every call throws an unavailable
// StoreError) until it is told to answer again.
class FaultyStore final : public Store {
 public:
  explicit FaultyStore(Store& real) : real_(real) {}
  void fail(bool on) { failing_ = on; }
  std::atomic<int> loads{0};  // tables read whole or described

  void create_table(const StoredTable& table) override { check(), real_.create_table(table); }
  std::optional<Json> create_rematch(const StoredTable& table, const Json& offer, const Json& replaces) override {
    return check(), real_.create_rematch(table, offer, replaces);
  }
  void save_seats(const std::string& table, const std::vector<StoredSeat>& seats, int players, int creator_seat,
                  std::uint64_t epoch = 0) override {
    check(), real_.save_seats(table, seats, players, creator_seat, epoch);
  }
  void set_state(const std::string& table, TableState state, const Json& result = nullptr,
                 std::uint64_t epoch = 0) override {
    check(), real_.set_state(table, state, result, epoch);
  }
  void append_actions(const std::vector<ActionWrite>& batch) override { check(), real_.append_actions(batch); }
  void save_clock(const std::string& table, const Json& clock_state, std::uint64_t epoch = 0) override {
    check(), real_.save_clock(table, clock_state, epoch);
  }
  void mark_alive(std::int64_t unix_ms) override { check(), real_.mark_alive(unix_ms); }
  std::optional<std::int64_t> last_alive() override { return check(), real_.last_alive(); }
  void delete_table(const std::string& table, std::uint64_t epoch = 0) override {
    check(), real_.delete_table(table, epoch);
  }
  std::size_t load_unfinished(const std::function<void(std::size_t, StoredTable&&)>& take) override {
    return check(), real_.load_unfinished(take);
  }
  std::optional<StoredTable> load(const std::string& table, bool with_actions = true) override {
    ++loads;
    return check(), real_.load(table, with_actions);
  }
  std::optional<std::string> table_of_token(const std::string& token_hash) override {
    return check(), real_.table_of_token(token_hash);
  }
  std::optional<std::string> table_of_invite(const std::string& invite) override {
    return check(), real_.table_of_invite(invite);
  }
  void save_analysis(const std::string& table, const std::string& version, const std::string& body) override {
    check(), real_.save_analysis(table, version, body);
  }
  std::optional<std::string> load_analysis(const std::string& table, const std::string& version) override {
    return check(), real_.load_analysis(table, version);
  }

 private:
  void check() const {
    if (failing_) throw StoreError("the database is down (test)", StoreError::Kind::unavailable);
  }
  Store& real_;
  std::atomic<bool> failing_{false};
};

// The people store on the tables' SQLite database, counting the writes of seat claims.
class CountingPeopleStore final : public SqlPeopleStore {
 public:
  explicit CountingPeopleStore(const std::string& data_dir) : db_(open_database(database_file(data_dir))) {}
  ~CountingPeopleStore() override { sqlite3_close(db_); }
  CountingPeopleStore(const CountingPeopleStore&) = delete;
  CountingPeopleStore& operator=(const CountingPeopleStore&) = delete;

  std::vector<ClaimRow> claim_seats(const std::string& account, const std::vector<std::string>& token_hashes,
                                    long long now) override {
    ++claim_writes;
    return SqlPeopleStore::claim_seats(account, token_hashes, now);
  }
  std::atomic<int> claim_writes{0};

 protected:
  SqlConnection& sql() override { return connection_; }

 private:
  sqlite3* db_;
  SqliteConnection connection_{db_};
};

// A client as the tables see it: the Connection its Member answers through, recording every frame in order. Like
// the WebSocket session, what other threads send is queued through the connection's strand.
class FakeClient final : public Connection, public std::enable_shared_from_this<FakeClient> {
 public:
  // `account`: signed in, as a session cookie at the upgrade makes it.
  FakeClient(Tables& tables, net::io_context& ioc, const TablesContext& context,
             std::optional<SignedInAs> account = std::nullopt);

  void start() { member_.start(std::shared_ptr<Member>(shared_from_this(), &member_)); }

  // Connection
  void send(std::shared_ptr<const std::string> frame) override {
    net::post(strand_, [self = shared_from_this(), frame] { self->record(*frame); });
  }
  void send(std::string first, std::shared_ptr<const std::string> second) override {
    net::post(strand_, [self = shared_from_this(), first = std::move(first), second] {
      self->record(first);
      self->record(*second);
    });
  }
  void close(Close why) override {
    net::post(strand_, [self = shared_from_this(), why] { self->closes.push_back(why); });
  }
  void reply(std::string frame) override { record(frame); }
  void read_on() override { ++read_ons; }
  bool closing() const override { return gone_; }

  // Sends one request (as the session would hand a frame over) and returns the next frame of type `type` that
  // answers it (its "re"), refusing to wait forever.
  Json request(Json message, const std::string& type);
  // The next frame of `type` not yet taken (in order), whatever answers it.
  Json next(const std::string& type, std::function<bool(const Json&)> also = nullptr);
  // Whether a frame of `type` satisfying `also` arrives (waiting a little).
  bool gets(const std::string& type, std::function<bool(const Json&)> also = nullptr);
  // Sends without waiting for an answer.
  void post(Json message);
  // The connection is gone (as when its socket closes).
  void disconnect();

  std::vector<Json> frames;  // every frame, in order
  std::vector<Close> closes;
  int read_ons = 0;
  std::size_t taken = 0;  // frames before this one were handed out by next()/request()

 private:
  void record(const std::string& frame) { frames.push_back(Json::parse(frame)); }

  Tables& tables_;
  net::strand<net::io_context::executor_type> strand_;
  Member member_;
  bool gone_ = false;
  int next_id_ = 0;
};

// The tables of one node, as main() wires them, over a store in a fresh temporary directory.
class Tables {
 public:
  // `dir`: an existing data directory (a restart); none: a new one, removed at the end.
  explicit Tables(std::function<void(TablesContext&)> adjust = nullptr, std::optional<std::filesystem::path> dir = {})
      : own_dir_(!dir),
        dir_(dir ? *dir : std::filesystem::temp_directory_path() / ("emporium-tables-" + random_token(6))),
        sqlite_(dir_.string()),
        faulty_(sqlite_),
        health_(2s, 0ms, 0ms),  // here the store is back as soon as a call gets through
        store_(faulty_, health_),
        commits_(store_, &metrics_),
        addresses_({0, 0, {}}),
        lobby_(context_),
        directory_(ioc_.get_executor(), context_),
        bots_(1, 0),
        store_jobs_(1, 0) {
    context_.directory = &directory_;
    context_.lobby = &lobby_;
    context_.metrics = &metrics_;
    context_.store = &store_;
    context_.health = &health_;
    context_.store_jobs = &store_jobs_;
    context_.commits = &commits_;
    context_.bots = &bots_;
    context_.addresses = &addresses_;
    context_.bot_delay = 0ms;
    context_.min_turn_s = 0;
    if (adjust) adjust(context_);
  }
  ~Tables() {
    commits_.stop();
    std::error_code ignored;
    if (own_dir_) std::filesystem::remove_all(dir_, ignored);
  }

  std::shared_ptr<FakeClient> client(std::optional<SignedInAs> account = std::nullopt) {
    auto c = std::make_shared<FakeClient>(*this, ioc_, context_, std::move(account));
    c->start();
    run_until([] { return true; });
    return c;
  }
  // Runs the handlers that are ready until `done` holds (the commit queue and the bots answer from their own
  // threads, so it polls); false after a few seconds.
  bool run_until(const std::function<bool()>& done, std::chrono::milliseconds limit = 5000ms) {
    const auto give_up = std::chrono::steady_clock::now() + limit;
    for (;;) {
      ioc_.poll();
      if (done()) return true;
      if (std::chrono::steady_clock::now() > give_up) return false;
      std::this_thread::sleep_for(100us);
    }
  }
  void settle() {  // what is already under way
    run_until([] { return false; }, 20ms);
  }
  Store& store() { return store_; }
  // Accounts' seat claims in the same database (the server's people store, counting its claim writes); made on
  // first use, and the tables use it from then on.
  CountingPeopleStore& people() {
    if (!people_) {
      people_ = std::make_unique<CountingPeopleStore>(dir_.string());
      context_.people = people_.get();
    }
    return *people_;
  }
  int loads() const { return faulty_.loads; }
  // The database goes away (every call fails as unavailable) or comes back; while it is away, the store is seen
  // to answer again only once something tries it (the heartbeat's sign of life, in the server): probe().
  void database(bool up) { faulty_.fail(!up); }
  void probe() {
    try {
      store_.mark_alive(1);
    } catch (const StoreError&) {
    }
  }
  StoreHealth& health() { return health_; }
  const std::filesystem::path& directory_path() const { return dir_; }
  TableDirectory& directory() { return directory_; }

 private:
  net::io_context ioc_;
  net::executor_work_guard<net::io_context::executor_type> work_{ioc_.get_executor()};
  bool own_dir_;
  std::filesystem::path dir_;
  SqliteStore sqlite_;
  FaultyStore faulty_;
  StoreHealth health_;
  GuardedStore store_;
  Metrics metrics_;
  CommitQueue commits_;
  AddressLimits addresses_;
  std::unique_ptr<CountingPeopleStore> people_;  // before the workers that use it, so it outlives them
  TablesContext context_;
  Lobby lobby_;
  TableDirectory directory_;
  WorkerPool bots_;
  WorkerPool store_jobs_;
};

FakeClient::FakeClient(Tables& tables, net::io_context& ioc, const TablesContext& context,
                       std::optional<SignedInAs> account)
    : tables_(tables), strand_(net::make_strand(ioc)),
      member_(*this, strand_, context, "127.0.0.1", std::move(account)) {}

void FakeClient::post(Json message) {
  net::post(strand_, [self = shared_from_this(), frame = message.dump()] {
    self->member_.receive(frame, std::chrono::steady_clock::now());
  });
}

Json FakeClient::request(Json message, const std::string& type) {
  const auto id = "r" + std::to_string(++next_id_);
  message["id"] = id;
  post(message);
  return next(type, [&](const Json& f) { return f.value("re", "") == id; });
}

Json FakeClient::next(const std::string& type, std::function<bool(const Json&)> also) {
  std::optional<Json> found;
  // Long enough for a few of the normal bot's searches under ASan on a busy machine (a frame that comes is taken at
  // once; only a missing one waits this long).
  tables_.run_until(
      [&] {
        for (std::size_t i = taken; i < frames.size(); ++i) {
          if (frames[i].value("type", "") == type && (!also || also(frames[i]))) {
            found = frames[i];
            taken = i + 1;
            return true;
          }
        }
        return false;
      },
      20000ms);
  if (!found) {
    ADD_FAILURE() << "no \"" << type << "\" frame came; the frames were:\n" << Json(frames).dump(1);
    return Json::object();
  }
  return *found;
}

bool FakeClient::gets(const std::string& type, std::function<bool(const Json&)> also) {
  return tables_.run_until(
      [&] {
        for (std::size_t i = taken; i < frames.size(); ++i) {
          if (frames[i].value("type", "") == type && (!also || also(frames[i]))) return true;
        }
        return false;
      },
      50ms);
}

void FakeClient::disconnect() {
  net::post(strand_, [self = shared_from_this()] {
    self->gone_ = true;
    self->member_.closed();
  });
  tables_.settle();
}

// ---- helpers --------------------------------------------------------------------------------------------------

Json create(FakeClient& c, const std::string& game, int players, Json extra = Json::object()) {
  Json m{{"type", "create_table"}, {"game", game}, {"players", players}};
  m.update(extra);
  return c.request(m, "seated");
}

std::string table_of(const Json& seated) { return seated["table"]["id"]; }

// A frame that refuses the request with `code`.
bool refused_with(const Json& frame, const std::string& code) {
  return frame.value("type", "") == "error" && frame.value("code", "") == code;
}

// Two people seated at a started Medici table of two; returns the snapshots each was sent at the start.
struct Started {
  std::shared_ptr<FakeClient> first, second;
  std::string table;
  Json snapshot0, snapshot1;
};
Started started_medici(Tables& t, Json extra = Json::object()) {
  Started s{t.client(), t.client(), {}, {}, {}};
  s.table = table_of(create(*s.first, "medici", 2, extra));
  s.second->request({{"type", "join"}, {"table", s.table}}, "seated");
  EXPECT_EQ(s.first->request({{"type", "start"}, {"table", s.table}}, "ack")["version"], 0);
  s.snapshot0 = s.first->next("snapshot");
  s.snapshot1 = s.second->next("snapshot");
  return s;
}

// Who decides in `snapshot` (its own seat, if its legal list is not empty).
bool decides(const Json& snapshot) { return !snapshot["legal"].empty(); }

// ---- joining and the lobby ------------------------------------------------------------------------------------

TEST(Tables, CreatingSeatsTheCreatorAndJoiningTellsEveryone) {
  Tables t;
  auto ann = t.client();
  ann->request({{"type", "hello"}, {"protocol", 1}, {"name", "Ann"}}, "hello");
  const auto seated = create(*ann, "medici", 3);
  EXPECT_EQ(seated["seat"], 0);
  EXPECT_FALSE(seated["token"].get<std::string>().empty());
  EXPECT_EQ(seated["table"]["seats"][0]["name"], "Ann");
  EXPECT_EQ(seated["table"]["state"], "waiting");

  auto bob = t.client();
  bob->request({{"type", "hello"}, {"protocol", 1}, {"name", "ann"}}, "hello");
  const auto joined = bob->request({{"type", "join"}, {"table", table_of(seated)}}, "seated");
  EXPECT_EQ(joined["seat"], 1);
  EXPECT_EQ(joined["table"]["seats"][1]["name"], "ann (2)");  // names are unique at a table, whatever their case
  const auto seen = ann->next("table", [](const Json& f) { return !f["table"]["seats"][1]["name"].is_null(); });
  EXPECT_EQ(seen["table"]["seats"][1]["name"], "ann (2)");
}

TEST(Tables, JoinRefusals) {
  Tables t;
  auto ann = t.client(), bob = t.client(), cy = t.client();
  const auto table = table_of(create(*ann, "medici", 2));
  EXPECT_TRUE(refused_with(ann->request({{"type", "join"}, {"table", table}}, "error"), "already_seated"));
  EXPECT_TRUE(refused_with(bob->request({{"type", "join"}, {"table", table}, {"seat", 0}}, "error"), "seat_taken"));
  bob->request({{"type", "join"}, {"table", table}}, "seated");
  EXPECT_TRUE(refused_with(cy->request({{"type", "join"}, {"table", table}}, "error"), "table_full"));
  EXPECT_TRUE(refused_with(cy->request({{"type", "join"}, {"table", "nope"}}, "error"), "no_such_table"));
  ann->request({{"type", "start"}, {"table", table}}, "ack");
  auto dee = t.client();
  // Nobody joins a started game.
  EXPECT_TRUE(refused_with(dee->request({{"type", "join"}, {"table", table}}, "error"), "already_started"));
}

TEST(Tables, OnlyTheCreatorStartsAndOnlyWithEnoughPlayers) {
  Tables t;
  auto ann = t.client(), bob = t.client();
  const auto table = table_of(create(*ann, "medici", 3));
  EXPECT_TRUE(refused_with(ann->request({{"type", "start"}, {"table", table}}, "error"), "not_enough_players"));
  bob->request({{"type", "join"}, {"table", table}}, "seated");
  EXPECT_TRUE(refused_with(bob->request({{"type", "start"}, {"table", table}}, "error"), "not_creator"));
  EXPECT_EQ(ann->request({{"type", "start"}, {"table", table}}, "ack")["version"], 0);
  // The empty third seat is dropped: two players.
  EXPECT_EQ(ann->next("table", [](const Json& f) { return f["table"]["state"] == "playing"; })["table"]["players"], 2);
}

TEST(Tables, LobbyWatchersGetTheListThenItsChanges) {
  Tables t;
  auto watcher = t.client(), ann = t.client();
  EXPECT_EQ(watcher->request({{"type", "watch_lobby"}, {"on", true}}, "lobby")["tables"], Json::array());
  const auto table = table_of(create(*ann, "medici", 2));
  const auto changed = watcher->next("lobby_changed");
  EXPECT_EQ(changed["table"]["id"], table);
  EXPECT_EQ(changed["table"]["seats"][0]["name"].get<std::string>().rfind("Guest-", 0), 0u);
  // Private tables are never listed.
  create(*ann, "medici", 2, {{"private", true}});
  // A new watcher gets the list as it is.
  auto late = t.client();
  const auto list = late->request({{"type", "watch_lobby"}, {"on", true}}, "lobby")["tables"];
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0]["id"], table);
  // The table closes when its last person leaves: out of the list.
  ann->request({{"type", "leave"}, {"table", table}}, "left");
  EXPECT_EQ(watcher->next("lobby_removed")["table"], table);
  EXPECT_EQ(late->next("lobby_removed")["table"], table);
  EXPECT_FALSE(watcher->gets("lobby_changed", [&](const Json& f) { return f["table"]["private"] == true; }));
}

// ---- playing ----------------------------------------------------------------------------------------------------

TEST(Tables, AMoveIsAckedThenAnnouncedToEveryone) {
  Tables t;
  auto s = started_medici(t);
  auto watcher = t.client();
  watcher->request({{"type", "watch"}, {"table", s.table}}, "watching");
  auto& mover = decides(s.snapshot0) ? *s.first : *s.second;
  auto& other = decides(s.snapshot0) ? *s.second : *s.first;
  const auto& legal = (decides(s.snapshot0) ? s.snapshot0 : s.snapshot1)["legal"];
  ASSERT_FALSE(legal.empty());
  const auto id = "move-1";
  mover.post({{"type", "act"}, {"id", id}, {"table", s.table}, {"version", 0}, {"action", legal[0]}});
  const auto ack = mover.next("ack", [&](const Json& f) { return f.value("re", "") == id; });
  EXPECT_EQ(ack["version"], 1);
  // The mover's ack comes before the move's events.
  const auto events = mover.next("events");
  EXPECT_EQ(events["version"], 1);
  EXPECT_EQ(other.next("events")["version"], 1);
  EXPECT_EQ(watcher->next("events")["version"], 1);
  // The move is stored.
  const auto stored = t.store().load(s.table);
  ASSERT_TRUE(stored);
  ASSERT_EQ(stored->actions.size(), 1u);
  EXPECT_EQ(stored->actions[0].second, legal[0]);
}

TEST(Tables, ActRefusals) {
  Tables t;
  auto s = started_medici(t);
  const bool first_moves = decides(s.snapshot0);
  auto& mover = first_moves ? *s.first : *s.second;
  auto& other = first_moves ? *s.second : *s.first;
  const auto legal = (first_moves ? s.snapshot0 : s.snapshot1)["legal"];
  auto act = [&](FakeClient& c, int version, const Json& action) {
    return c.request({{"type", "act"}, {"table", s.table}, {"version", version}, {"action", action}}, "error");
  };
  EXPECT_TRUE(refused_with(act(other, 0, legal[0]), "not_your_turn"));
  EXPECT_TRUE(refused_with(act(mover, 7, legal[0]), "stale_version"));
  const auto bad = act(mover, 0, {{"type", "no such move"}});
  EXPECT_TRUE(refused_with(bad, "malformed_action") || refused_with(bad, "illegal_action")) << bad;
  auto watcher = t.client();
  watcher->request({{"type", "watch"}, {"table", s.table}}, "watching");
  EXPECT_TRUE(refused_with(act(*watcher, 0, legal[0]), "not_seated"));
  auto stranger = t.client();
  EXPECT_TRUE(refused_with(act(*stranger, 0, legal[0]), "no_such_table"));
  // Nothing was stored.
  EXPECT_TRUE(t.store().load(s.table)->actions.empty());
}

TEST(Tables, ASnapshotAndAChatNeedASeatOrAWatch) {
  Tables t;
  auto s = started_medici(t);
  auto watcher = t.client();
  watcher->request({{"type", "watch"}, {"table", s.table}}, "watching");
  EXPECT_EQ(watcher->request({{"type", "snapshot"}, {"table", s.table}}, "snapshot")["seat"], nullptr);
  // A spectator's line reaches the players who read the spectators (docs/friends.md "Chat at a table").
  s.first->request({{"type", "chat_settings"}, {"table", s.table}, {"see_spectators", true}}, "ack");
  watcher->request({{"type", "chat"}, {"table", s.table}, {"text", "hi"}}, "ack");
  const auto line = s.first->next("chat");
  EXPECT_EQ(line["text"], "hi");
  EXPECT_EQ(line["channel"], "spectators");
  watcher->request({{"type", "leave"}, {"table", s.table}}, "left");
  EXPECT_TRUE(refused_with(watcher->request({{"type", "snapshot"}, {"table", s.table}}, "error"), "no_such_table"));
}

// ---- leaving ----------------------------------------------------------------------------------------------------

TEST(Tables, LeavingBeforeTheStartFreesTheSeatAndTheLastOneClosesTheTable) {
  Tables t;
  auto ann = t.client(), bob = t.client();
  const auto table = table_of(create(*ann, "medici", 3));
  bob->request({{"type", "join"}, {"table", table}}, "seated");
  ann->request({{"type", "leave"}, {"table", table}}, "left");
  // The creator left: the next person is the creator now.
  const auto after = bob->next("table", [](const Json& f) { return f["table"]["seats"][0]["name"].is_null(); });
  EXPECT_EQ(after["table"]["creator_seat"], 1);
  bob->request({{"type", "leave"}, {"table", table}}, "left");
  // Closed: out of the store (deleted on the store's own thread, after the "left").
  EXPECT_TRUE(t.run_until([&] { return !t.store().load(table); }));
  EXPECT_TRUE(refused_with(ann->request({{"type", "join"}, {"table", table}}, "error"), "no_such_table"));
}

TEST(Tables, LeavingARunningGameHandsTheSeatToABotForGood) {
  Tables t;
  auto s = started_medici(t);
  s.second->request({{"type", "leave"}, {"table", s.table}}, "left");
  const auto seen = s.first->next("table", [](const Json& f) { return f["table"]["seats"][1].contains("stand_in"); });
  EXPECT_EQ(seen["table"]["seats"][1]["stand_in"], "left");
  EXPECT_EQ(seen["table"]["seats"][1]["bot"], "normal");
  EXPECT_EQ(t.store().load(s.table)->seats[1].stand_in, StandIn::left);
}

TEST(Tables, AnAbsentPlayersSeatGoesToABotAndTheirTokenTakesItBack) {
  Tables t([](TablesContext& c) { c.absent_after = 0s; });
  auto ann = t.client(), bob = t.client();
  const auto table = table_of(create(*ann, "medici", 2));
  const auto bobs_token = bob->request({{"type", "join"}, {"table", table}}, "seated")["token"].get<std::string>();
  ann->request({{"type", "start"}, {"table", table}}, "ack");
  EXPECT_TRUE(refused_with(ann->request({{"type", "replace_absent"}, {"table", table}, {"seat", 1}}, "error"),
                           "not_absent"));  // Bob is connected
  bob->disconnect();
  ann->request({{"type", "replace_absent"}, {"table", table}, {"seat", 1}}, "ack");
  const auto seen = ann->next("table", [](const Json& f) { return f["table"]["seats"][1].contains("stand_in"); });
  EXPECT_EQ(seen["table"]["seats"][1]["stand_in"], "absent");
  EXPECT_EQ(t.store().load(table)->seats[1].stand_in, StandIn::absent);
  // Bob comes back: the seat is his again.
  auto back = t.client();
  const auto resumed = back->request({{"type", "resume"}, {"token", bobs_token}}, "seated");
  EXPECT_EQ(resumed["seat"], 1);
  EXPECT_EQ(resumed["reclaimed"], true);
  EXPECT_FALSE(resumed["table"]["seats"][1].contains("stand_in"));
  EXPECT_EQ(t.store().load(table)->seats[1].stand_in, StandIn::none);
}

// ---- bots and clocks --------------------------------------------------------------------------------------------

TEST(Tables, ABotPlaysItsTurns) {
  Tables t;
  auto ann = t.client();
  const auto table = table_of(create(*ann, "medici", 2));
  const Json add_bot{{"type", "add_bot"}, {"table", table}, {"seat", 1}, {"level", "easy"}};
  ann->request(add_bot, "ack");
  EXPECT_TRUE(refused_with(ann->request(add_bot, "error"), "seat_taken"));
  ann->request({{"type", "remove_bot"}, {"table", table}, {"seat", 1}}, "ack");
  EXPECT_TRUE(refused_with(ann->request({{"type", "remove_bot"}, {"table", table}, {"seat", 1}}, "error"), "bad_message"));
  EXPECT_EQ(ann->request(add_bot, "ack")["version"], 0);
  EXPECT_EQ(t.store().load(table)->seats.at(1).bot, "easy");
  ann->request({{"type", "start"}, {"table", table}}, "ack");
  auto snapshot = ann->next("snapshot");
  // Ann moves whenever it is hers; the bot answers each time, until five moves are in.
  std::uint64_t version = snapshot["version"];
  Json legal = snapshot["legal"];
  while (version < 5) {
    if (!legal.empty()) {
      ann->request({{"type", "act"}, {"table", table}, {"version", version}, {"action", legal[0]}}, "ack");
    }
    const auto events = ann->next("events");
    ASSERT_FALSE(events.empty());
    version = events["version"];
    legal = events["legal"];
  }
  const auto stored = t.store().load(table);
  const auto bot_moves = std::count_if(stored->actions.begin(), stored->actions.end(),
                                       [](const auto& a) { return a.first == 1; });
  EXPECT_GT(bot_moves, 0);
}

TEST(Tables, WhenAPlayersTimeRunsOutTheBotDecidesForThem) {
  Tables t;
  auto s = started_medici(t, {{"clock", {{"turn", 0}, {"reserve", 0}}}});
  // Whoever is to move has no time at all: the normal bot moves for them, and everyone sees the timeout first.
  const auto events = s.first->next("events");
  ASSERT_FALSE(events["events"].empty());
  EXPECT_EQ(events["events"][0]["type"], "timeout");
  EXPECT_EQ(events["clock"]["timeouts"][events["events"][0]["player"].get<int>()], 1);
  EXPECT_EQ(s.second->next("events")["version"], events["version"]);
}

TEST(Tables, ThreeTimeoutsInARowHandTheSeatToABot) {
  Tables t;
  auto s = started_medici(t, {{"clock", {{"turn", 0}, {"reserve", 0}}}});
  const auto seen = s.first->next("table", [](const Json& f) {
    for (const auto& seat : f["table"]["seats"]) {
      if (seat.value("stand_in", "") == "timeout") return true;
    }
    return false;
  });
  EXPECT_FALSE(seen.empty());
}

// ---- rematch and my games ---------------------------------------------------------------------------------------

// A finished two-player Medici game in the store, its seats held by `tokens` (random legal moves to the end).
std::string stored_finished_game(Store& store, const std::vector<std::string>& tokens, bool rated = false) {
  StoredTable table;
  table.rated = rated;
  table.id = new_table_id();
  table.game = "medici";
  table.players = 2;
  table.seed = new_game_seed();
  table.salt = new_salt();
  for (int i = 0; i < 2; ++i) {
    table.seats.push_back({.seat = i, .name = "P" + std::to_string(i), .token_hash = hash_token(tokens[i])});
  }
  auto created = engine::create_game(table.game, table.players, table.options, table.seed);
  EXPECT_FALSE(created.error);
  table.options = created.options;
  store.create_table(table);
  store.set_state(table.id, TableState::playing);
  auto& state = *created.state;
  std::mt19937 pick(7);
  for (std::uint64_t v = 0; !state.is_over(); ++v) {
    const int p = state.to_move().at(0);
    const auto legal = state.legal_actions(p);
    const auto action = legal.at(pick() % legal.size());
    EXPECT_TRUE(state.apply(p, action).ok());
    store.append_action(table.id, v, p, action);
  }
  store.set_state(table.id, TableState::finished, state.result());
  return table.id;
}

TEST(Tables, ARematchSeatsTheOffererAndKeepsTheOtherSeat) {
  Tables t;
  const std::vector<std::string> tokens{new_seat_token(), new_seat_token()};
  const auto old_table = stored_finished_game(t.store(), tokens);
  auto ann = t.client(), bob = t.client();
  EXPECT_EQ(ann->request({{"type", "resume"}, {"token", tokens[0]}}, "seated")["table"]["state"], "finished");
  bob->request({{"type", "resume"}, {"token", tokens[1]}}, "seated");
  const auto offered = ann->request({{"type", "rematch"}, {"table", old_table}}, "seated");
  const auto rematch = table_of(offered);
  EXPECT_NE(rematch, old_table);
  EXPECT_EQ(offered["seat"], 0);
  EXPECT_EQ(offered["table"]["rematch_of"], old_table);
  EXPECT_EQ(offered["table"]["seats"][1]["reserved"], true);
  // Bob hears of the offer, and his rematch takes the seat kept for him.
  const auto offer = bob->next("table", [](const Json& f) { return f["table"].contains("rematch"); });
  EXPECT_EQ(offer["table"]["rematch"]["table"], rematch);
  const auto claimed = bob->request({{"type", "rematch"}, {"table", old_table}}, "seated");
  EXPECT_EQ(table_of(claimed), rematch);
  EXPECT_EQ(claimed["seat"], 1);
  // Nobody else may take a kept seat, nor ask for a rematch of a game they did not play.
  auto cy = t.client();
  cy->request({{"type", "watch"}, {"table", old_table}}, "watching");
  EXPECT_TRUE(refused_with(cy->request({{"type", "rematch"}, {"table", old_table}}, "error"), "not_seated"));
}

TEST(Tables, MyGamesDescribesTheSeatsOfKnownTokens) {
  Tables t;
  auto ann = t.client();
  const auto seated = create(*ann, "medici", 2);
  const std::string token = seated["token"];
  const auto finished_tokens = std::vector<std::string>{new_seat_token(), new_seat_token()};
  const auto finished = stored_finished_game(t.store(), finished_tokens, /*rated=*/true);
  auto asker = t.client();
  const auto reply = asker->request(
      {{"type", "my_games"}, {"tokens", {token, finished_tokens[1], "unknown-token"}}}, "my_games");
  ASSERT_EQ(reply["games"].size(), 2u);
  EXPECT_EQ(reply["games"][0]["table"], table_of(seated));
  EXPECT_EQ(reply["games"][0]["token"], token);
  EXPECT_EQ(reply["games"][0]["state"], "waiting");
  EXPECT_EQ(reply["games"][1]["table"], finished);
  EXPECT_EQ(reply["games"][1]["state"], "finished");
  EXPECT_EQ(reply["games"][1]["seat"], 1);
  // Whether each is rated: the client's My games says so only of casual games against bots that they end by themselves.
  EXPECT_EQ(reply["games"][0]["rated"], false);
  EXPECT_EQ(reply["games"][1]["rated"], true);
  EXPECT_EQ(reply["unknown"], Json::array({"unknown-token"}));
  // Joining nothing: the asker is at no table.
  EXPECT_TRUE(refused_with(asker->request({{"type", "snapshot"}, {"table", finished}}, "error"), "no_such_table"));
}

// ---- accounts' seats ------------------------------------------------------------------------------------------

const SignedInAs kAnn{"A1", "Ann", "session-1"};

Tables& with_ann(Tables& t) {
  EXPECT_TRUE(t.people().create_account({kAnn.account, kAnn.name, "ann", "", 1}, std::nullopt));
  return t;
}

TEST(Tables, AnAccountsMyGamesDescribesItsClaimedTablesWithoutLoadingThem) {
  Tables t;
  with_ann(t);
  const std::vector<std::string> older{new_seat_token(), new_seat_token()}, newer{new_seat_token(), new_seat_token()};
  stored_finished_game(t.store(), older);
  stored_finished_game(t.store(), newer);
  t.people().claim_seats(kAnn.account, {hash_token(older[1])}, 100);
  t.people().claim_seats(kAnn.account, {hash_token(newer[0])}, 200);
  // Asked by their tokens, each table is described from the store.
  auto guest = t.client();
  const auto by_token = guest->request({{"type", "my_games"}, {"tokens", {newer[0], older[1]}}}, "my_games");
  ASSERT_EQ(by_token["games"].size(), 2u) << by_token;
  // Signed in, with no token: the same entries, newest claim first and tokenless, read with the claims: no table is
  // loaded for them.
  const int loads = t.loads();
  auto ann = t.client(kAnn);
  const auto by_account = ann->request({{"type", "my_games"}, {"tokens", Json::array()}}, "my_games");
  EXPECT_EQ(t.loads(), loads);
  ASSERT_EQ(by_account["games"].size(), 2u) << by_account;
  for (std::size_t i = 0; i < 2; ++i) {
    auto expected = by_token["games"][i];
    expected["token"] = nullptr;
    EXPECT_EQ(by_account["games"][i], expected);
  }
  // Asked by a token as well, that seat is listed once, with its token.
  const auto both = ann->request({{"type", "my_games"}, {"tokens", {older[1]}}}, "my_games");
  ASSERT_EQ(both["games"].size(), 2u) << both;
  EXPECT_EQ(both["games"][0], by_token["games"][1]);
  EXPECT_EQ(both["games"][1]["token"], nullptr);
}

TEST(Tables, ASeatTakenSignedInIsClaimedAndResumingItByTableWritesNoClaim) {
  Tables t;
  auto& people = with_ann(t).people();
  auto laptop = t.client(kAnn);
  const auto seated = create(*laptop, "medici", 2);
  const auto table = table_of(seated);
  // Another device lists it (my_games reads on the store's thread, after the claim written there).
  auto phone = t.client(kAnn);
  const auto listed = phone->request({{"type", "my_games"}, {"tokens", Json::array()}}, "my_games");
  ASSERT_EQ(listed["games"].size(), 1u) << listed;
  EXPECT_EQ(listed["games"][0]["table"], table);
  EXPECT_EQ(people.claim_writes.load(), 1);
  // The phone takes the seat back by the table's id: the account holds it already, so nothing is written.
  EXPECT_EQ(phone->request({{"type", "resume"}, {"table", table}}, "seated")["seat"], 0);
  phone->request({{"type", "my_games"}, {"tokens", Json::array()}}, "my_games");  // after a claim it would write
  EXPECT_EQ(people.claim_writes.load(), 1);
  // By its token (a browser that kept it, perhaps a guest's seat until now), the seat is claimed.
  EXPECT_EQ(laptop->request({{"type", "resume"}, {"token", seated["token"]}}, "seated")["seat"], 0);
  laptop->request({{"type", "my_games"}, {"tokens", Json::array()}}, "my_games");
  EXPECT_EQ(people.claim_writes.load(), 2);
}

// ---- when the database fails ----------------------------------------------------------------------------------

// The mover of a started table and the first move it may make.
struct Mover {
  FakeClient& client;
  Json action;
};
Mover mover_of(const Started& s) {
  const bool first = decides(s.snapshot0);
  return {first ? *s.first : *s.second, (first ? s.snapshot0 : s.snapshot1)["legal"][0]};
}

TEST(StoreFaults, AMoveTheStoreCannotTakeIsRefusedAndTheTableIsReadBackOnceItReturns) {
  Tables t;
  auto s = started_medici(t);
  auto [mover, action] = mover_of(s);
  t.database(false);
  const Json act{{"type", "act"}, {"table", s.table}, {"version", 0}, {"action", action}};
  EXPECT_TRUE(refused_with(mover.request(act, "error"), "store_unavailable"));
  EXPECT_FALSE(t.health().up());
  // While it is away, nothing is taken: no move is told to anyone, and a second try is refused at once.
  EXPECT_TRUE(refused_with(mover.request(act, "error"), "store_unavailable"));
  EXPECT_FALSE(s.first->gets("events"));
  EXPECT_FALSE(s.second->gets("events"));
  // It comes back: the room reads the table back by itself and shows everyone the table as stored.
  t.database(true);
  t.probe();
  EXPECT_TRUE(t.health().up());
  EXPECT_EQ(s.first->next("snapshot")["version"], 0);
  EXPECT_EQ(s.second->next("snapshot")["version"], 0);
  EXPECT_EQ(mover.request(act, "ack")["version"], 1);
  EXPECT_EQ(t.store().load(s.table)->actions.size(), 1u);
}

TEST(StoreFaults, SeatWritesAreRefusedAndUndoneWhileTheStoreIsDown) {
  Tables t;
  auto ann = t.client(), bob = t.client(), cid = t.client();
  const auto table = table_of(create(*ann, "medici", 3));
  bob->request({{"type", "join"}, {"table", table}}, "seated");
  t.database(false);
  EXPECT_TRUE(refused_with(cid->request({{"type", "join"}, {"table", table}}, "error"), "store_unavailable"));
  EXPECT_TRUE(refused_with(
      cid->request({{"type", "create_table"}, {"game", "medici"}, {"players", 2}}, "error"), "store_unavailable"));
  EXPECT_TRUE(refused_with(bob->request({{"type", "leave"}, {"table", table}}, "error"), "store_unavailable"));
  EXPECT_TRUE(refused_with(ann->request({{"type", "start"}, {"table", table}}, "error"), "store_unavailable"));
  t.database(true);
  t.probe();
  // None of it happened: Bob is still seated, Cid is not, the game has not started.
  const auto stored = t.store().load(table);
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->seats.size(), 2u);
  EXPECT_EQ(stored->state, TableState::waiting);
  // And it all works again.
  EXPECT_EQ(cid->request({{"type", "join"}, {"table", table}}, "seated")["seat"], 2);
  EXPECT_EQ(ann->request({{"type", "start"}, {"table", table}}, "ack")["version"], 0);
}

TEST(StoreFaults, ASeatOrGamesTheStoreMustFindAreRefusedNotDeniedWhileItIsDown) {
  Tables t;
  const auto tokens = std::vector<std::string>{new_seat_token(), new_seat_token()};
  const auto finished = stored_finished_game(t.store(), tokens);  // in the store only, as on another node
  auto ann = t.client();
  t.database(false);
  t.probe();  // the store is seen to be down
  // Not "bad_token" or an empty list: the server cannot tell now, and says so.
  EXPECT_TRUE(refused_with(ann->request({{"type", "resume"}, {"token", tokens[0]}}, "error"), "store_unavailable"));
  EXPECT_TRUE(refused_with(ann->request({{"type", "my_games"}, {"tokens", tokens}}, "error"), "store_unavailable"));
  t.database(true);
  t.probe();
  EXPECT_EQ(ann->request({{"type", "resume"}, {"token", tokens[0]}}, "seated")["table"]["id"], finished);
}

// ---- the directory ----------------------------------------------------------------------------------------------

TEST(Tables, ARestartRebuildsUnfinishedTablesFromTheStore) {
  Tables t;
  auto s = started_medici(t);
  const bool first_moves = decides(s.snapshot0);
  auto& mover = first_moves ? *s.first : *s.second;
  mover.request({{"type", "act"}, {"table", s.table}, {"version", 0},
                 {"action", (first_moves ? s.snapshot0 : s.snapshot1)["legal"][0]}},
                "ack");
  // A second set of tables over the same data directory, as a restarted server has.
  Tables restarted(nullptr, t.directory_path());
  EXPECT_EQ(restarted.directory().restore(), 1u);
  EXPECT_TRUE(restarted.directory().find_local(s.table));
  auto watcher = restarted.client();
  watcher->request({{"type", "watch"}, {"table", s.table}}, "watching");
  EXPECT_EQ(watcher->next("snapshot")["version"], 1);
}

// ---- ratings (docs/ratings.md) -------------------------------------------------------------------------------

const SignedInAs kBo{"B1", "Bo", "session-2"};

Tables& with_ann_and_bo(Tables& t) {
  with_ann(t);
  EXPECT_TRUE(t.people().create_account({kBo.account, kBo.name, "bo", "", 1}, std::nullopt));
  return t;
}

// The newest frame with legal actions `c` was sent (a snapshot or a move's events), if any.
const Json* newest_view(const FakeClient& c) {
  for (auto it = c.frames.rbegin(); it != c.frames.rend(); ++it) {
    const auto type = it->value("type", "");
    if (type == "events" || type == "snapshot") return &*it;
  }
  return nullptr;
}

// Plays the first legal action of whoever decides until the table is finished (each move seen by everyone first).
void play_to_end(Tables& t, const std::vector<FakeClient*>& players, const std::string& table) {
  for (int moves = 0; moves < 5000; ++moves) {
    FakeClient* mover = nullptr;
    for (auto* c : players) {
      const auto* view = newest_view(*c);
      if (view && !(*view)["legal"].empty()) mover = c;
    }
    if (!mover) break;
    const auto version = (*newest_view(*mover))["version"].get<std::uint64_t>();
    mover->request({{"type", "act"}, {"table", table}, {"version", version}, {"action", (*newest_view(*mover))["legal"][0]}},
                   "ack");
    ASSERT_TRUE(t.run_until([&] {
      return std::all_of(players.begin(), players.end(), [&](FakeClient* c) {
        const auto* view = newest_view(*c);
        return view && (*view)["version"].get<std::uint64_t>() > version;
      });
    }));
  }
  ASSERT_TRUE(t.store().load(table, false)->state == TableState::finished);
}

TEST(Ratings, ATableIsRatedByDefaultWhenItsCreatorIsSignedInAndGuestsAreRefused) {
  Tables t;
  with_ann_and_bo(t);
  auto ann = t.client(kAnn), bo = t.client(kBo), guest = t.client();
  const auto rated = create(*ann, "medici", 3);
  EXPECT_EQ(rated["table"]["rated"], true);
  EXPECT_TRUE(t.store().load(table_of(rated), false)->rated);
  EXPECT_EQ(create(*guest, "medici", 2)["table"]["rated"], false);
  EXPECT_EQ(create(*ann, "medici", 2, {{"rated", false}})["table"]["rated"], false);
  // A guest may not ask for a rated table, nor join one.
  EXPECT_TRUE(refused_with(guest->request({{"type", "create_table"}, {"game", "medici"}, {"players", 2}, {"rated", true}}, "error"),
                           "rated_needs_account"));
  EXPECT_TRUE(refused_with(guest->request({{"type", "join"}, {"table", table_of(rated)}}, "error"), "rated_needs_account"));
  EXPECT_EQ(t.store().load(table_of(rated), false)->seats.size(), 1u);  // nothing changed
  // A signed-in person joins; each person's seat shows their rating once read, a bot's its fixed one.
  bo->request({{"type", "join"}, {"table", table_of(rated)}}, "seated");
  ann->request({{"type", "add_bot"}, {"table", table_of(rated)}, {"seat", 2}, {"level", "easy"}}, "ack");
  const auto shown = ann->next("table", [](const Json& f) {
    return f["table"]["seats"][1].contains("rating") && f["table"]["seats"][2].contains("rating");
  });
  EXPECT_EQ(shown["table"]["seats"][1]["rating"], (Json{{"value", 1000}, {"provisional", true}}));
  const auto easy = *ratings::bot_rating("medici", "easy");
  EXPECT_EQ(shown["table"]["seats"][2]["rating"],
            (Json{{"value", ratings::displayed_rating(easy)}, {"provisional", false}, {"bot", true}}));
  EXPECT_EQ(t.store().load(table_of(rated), false)->seats[1].account, kBo.account);
}

TEST(Ratings, ARatedGamesEndUpdatesItsPeopleAndShowsTheChanges) {
  Tables t;
  with_ann_and_bo(t);
  auto ann = t.client(kAnn), bo = t.client(kBo);
  const auto table = table_of(create(*ann, "medici", 2));
  bo->request({{"type", "join"}, {"table", table}}, "seated");
  ann->request({{"type", "start"}, {"table", table}}, "ack");
  play_to_end(t, {ann.get(), bo.get()}, table);
  const auto finished = ann->next("table", [](const Json& f) { return f["table"].contains("rating_changes"); });
  const auto& changes = finished["table"]["rating_changes"];
  ASSERT_EQ(changes.size(), 2u) << finished;
  const auto stored = t.people().ratings_of({kAnn.account, kBo.account}, "medici");
  ASSERT_EQ(stored.size(), 2u);
  for (const auto& c : changes) {
    EXPECT_EQ(c["before"], 1000);
    EXPECT_EQ(c["delta"], c["after"].get<int>() - 1000);
  }
  EXPECT_EQ(stored[0].games, 1);
  // The engine's ranking, by the model: whoever won gained.
  const auto result = t.store().load(table, false)->result;
  if (result["winners"].size() == 1) {
    const int winner = result["winners"][0];
    EXPECT_GT(changes[winner]["delta"].get<int>(), changes[1 - winner]["delta"].get<int>());
  }
  // Watched later (loaded again from the store), the table shows the same changes.
  Tables restarted([](TablesContext&) {}, t.directory_path());
  restarted.people();
  auto watcher = restarted.client();
  watcher->request({{"type", "watch"}, {"table", table}}, "watching");
  EXPECT_EQ(watcher->next("table", [](const Json& f) { return f["table"].contains("rating_changes"); })["table"]["rating_changes"],
            changes);
}

TEST(Ratings, ARatedGamesEndIsToldForItsAnalysisAndAnUnratedOnesIsNot) {
  std::mutex mutex;
  std::vector<std::string> told;
  Tables t([&](TablesContext& c) {
    c.rated_game_ended = [&](const std::string& table) {
      std::lock_guard lock(mutex);
      told.push_back(table);
    };
  });
  with_ann_and_bo(t);
  auto ann = t.client(kAnn), bo = t.client(kBo);
  std::vector<std::string> tables;
  for (const bool rated : {false, true}) {
    const auto table = table_of(create(*ann, "medici", 2, {{"rated", rated}}));
    bo->request({{"type", "join"}, {"table", table}}, "seated");
    ann->request({{"type", "start"}, {"table", table}}, "ack");
    play_to_end(t, {ann.get(), bo.get()}, table);
    tables.push_back(table);
  }
  ASSERT_TRUE(t.run_until([&] {
    std::lock_guard lock(mutex);
    return !told.empty();
  }));
  std::lock_guard lock(mutex);
  EXPECT_EQ(told, std::vector<std::string>{tables[1]});
}

TEST(Ratings, AGuestCannotRematchARatedTable) {
  Tables t;
  with_ann_and_bo(t);
  auto ann = t.client(kAnn), bo = t.client(kBo);
  const auto seated = create(*ann, "medici", 2);
  const auto table = table_of(seated);
  bo->request({{"type", "join"}, {"table", table}}, "seated");
  ann->request({{"type", "start"}, {"table", table}}, "ack");
  play_to_end(t, {ann.get(), bo.get()}, table);
  // Ann's seat taken back by its token on a guest's connection (she signed out): she may look, not rematch.
  auto guest = t.client();
  guest->request({{"type", "resume"}, {"token", seated["token"]}}, "seated");
  EXPECT_TRUE(refused_with(guest->request({{"type", "rematch"}, {"table", table}}, "error"), "rated_needs_account"));
  // Signed in, the rematch is rated too.
  const auto rematch = bo->request({{"type", "rematch"}, {"table", table}}, "seated");
  EXPECT_EQ(rematch["table"]["rated"], true);
}

TEST(Ratings, PeopleWhoLeftOrTimedOutAreRankedLastTiedAndBotsAtTheirFixedRatings) {
  Seats seats(4);
  seats[0] = Seat{.name = "Ann", .token_hash = "a", .account = "A1"};
  seats[1] = Seat{.name = "Bo", .token_hash = "b", .bot = engine::bot::Level::normal, .stand_in = StandIn::left, .account = "B1"};
  seats[2] = Seat{.name = "Bot 1", .token_hash = "c", .bot = engine::bot::Level::easy};
  seats[3] = Seat{.name = "Cy", .token_hash = "d", .bot = engine::bot::Level::normal, .stand_in = StandIn::timeout, .account = "C1"};
  // Bo's bot won after he left; Cy's came third.
  const Json result{{"ranking", {{{"player", 1}, {"rank", 1}}, {{"player", 0}, {"rank", 2}}, {{"player", 3}, {"rank", 3}},
                                 {{"player", 2}, {"rank", 4}}}}};
  const auto end = game_end_of("T", "medici", seats, result, true, false);
  ASSERT_TRUE(end);
  ASSERT_EQ(end->seats.size(), 4u);
  EXPECT_EQ(end->seats[0].rank, 2);
  EXPECT_EQ(end->seats[2].rank, 4);
  EXPECT_EQ(end->seats[1].rank, 5);  // last, tied with Cy
  EXPECT_EQ(end->seats[3].rank, 5);
  EXPECT_EQ(end->seats[1].left_by, "left");
  EXPECT_EQ(end->seats[3].left_by, "timeout");
  EXPECT_EQ(end->seats[1].account, "B1");  // still rated as Bo
  EXPECT_EQ(end->seats[2].bot, "easy");
  EXPECT_EQ(end->seats[2].bot_mu, ratings::bot_rating("medici", "easy")->mu);
  EXPECT_TRUE(end->rated);
  // No ranking of every seat, or no account at the table: nothing for the accounts.
  EXPECT_FALSE(game_end_of("T", "medici", seats, Json{{"winners", {0}}}, true, false));
  Seats guests(2);
  guests[0] = Seat{.name = "G1", .token_hash = "x"};
  guests[1] = Seat{.name = "G2", .token_hash = "y"};
  EXPECT_FALSE(game_end_of("T", "medici", guests, result, false, false));
}

// ---- analyses (server/analyses/) --------------------------------------------------------------------------------

// What Analyses::serve answers, waited for.
Analyses::Answer serve(Analyses& analyses, Analyses::Kind kind, const std::string& table,
                       const std::string& address = "192.0.2.1") {
  std::promise<Analyses::Answer> answered;
  analyses.serve({kind, table, ""}, address, [&](Analyses::Answer a) { answered.set_value(std::move(a)); });
  return answered.get_future().get();
}

TEST(Analyses, RequestsGoAheadOfTheAutomaticOnesWhichWaitForAnIdleNode) {
  Tables t;
  std::vector<std::string> ids;
  for (int i = 0; i < 4; ++i) ids.push_back(stored_finished_game(t.store(), {new_seat_token(), new_seat_token()}));
  Analyses::Settings settings;
  settings.budget = 0;  // no bound: the first analysis runs for seconds, long past these checks
  Analyses analyses(t.store(), settings);
  using Kind = Analyses::Kind;
  const auto queued = [](int ahead) { return Json{{"status", "queued"}, {"ahead", ahead}}; };
  EXPECT_EQ(serve(analyses, Kind::ask, ids[0]).status, 202);
  for (int i = 0; i < 500 && serve(analyses, Kind::read, ids[0]).body["status"] != "running"; ++i) {
    std::this_thread::sleep_for(10ms);
  }
  const auto running = serve(analyses, Kind::read, ids[0]);
  EXPECT_EQ(running.status, 202);
  EXPECT_EQ(running.body["status"], "running");
  // Nothing waits (the one thread is busy): a rated game's end queues its analysis.
  analyses.rated_game_ended(ids[1]);
  EXPECT_EQ(serve(analyses, Kind::read, ids[1]).body, queued(0));
  // A request goes ahead of it.
  const auto asked = serve(analyses, Kind::ask, ids[2]);
  EXPECT_EQ(asked.status, 202);
  EXPECT_EQ(asked.body, queued(0));
  EXPECT_EQ(serve(analyses, Kind::read, ids[1]).body, queued(1));
  // Something waits now: another rated game's end is not queued.
  analyses.rated_game_ended(ids[3]);
  EXPECT_EQ(serve(analyses, Kind::read, ids[3]).body["error"], "not_analysed");
  // Asked for, an automatic one joins the requests, after those asked before.
  EXPECT_EQ(serve(analyses, Kind::ask, ids[1]).body, queued(1));
  EXPECT_EQ(analyses.metrics().find("emporium_analysis_queue 2\n") != std::string::npos, true) << analyses.metrics();
  // A table still being played: refused, nothing queued.
  const auto playing = stored_finished_game(t.store(), {new_seat_token(), new_seat_token()});
  t.store().set_state(playing, TableState::playing);
  const auto refused = serve(analyses, Kind::ask, playing);
  EXPECT_EQ(refused.status, 409);
  EXPECT_EQ(refused.body["error"], "not_finished");
  EXPECT_EQ(analyses.metrics().find("emporium_analysis_queue 2\n") != std::string::npos, true);
}

// An address may ask for a few analyses a minute (asks that queue one count); others go on asking; 0: no cap.
TEST(Analyses, AnAddressAsksForAFewAMinuteUnlessTheCapIsOff) {
  Tables t;
  std::vector<std::string> ids;
  for (int i = 0; i < 5; ++i) ids.push_back(stored_finished_game(t.store(), {new_seat_token(), new_seat_token()}));
  Analyses::Settings settings;
  settings.budget = 0;  // the first runs for seconds: the others wait
  settings.asks_per_minute = 2;
  {
    Analyses analyses(t.store(), settings);
    using Kind = Analyses::Kind;
    EXPECT_EQ(serve(analyses, Kind::ask, ids[0]).status, 202);
    EXPECT_EQ(serve(analyses, Kind::ask, ids[1]).status, 202);
    EXPECT_EQ(serve(analyses, Kind::ask, ids[1]).status, 202);  // asked already: not counted again
    const auto third = serve(analyses, Kind::ask, ids[2]);
    EXPECT_EQ(third.status, 429);
    EXPECT_EQ(third.body["error"], "busy");
    EXPECT_GT(third.retry_after_s, 0);
    EXPECT_EQ(serve(analyses, Kind::read, ids[2]).body["error"], "not_analysed");  // nothing queued
    EXPECT_EQ(serve(analyses, Kind::ask, ids[2], "192.0.2.2").status, 202);
  }
  settings.asks_per_minute = 0;
  Analyses uncapped(t.store(), settings);
  for (const auto& id : ids) EXPECT_EQ(serve(uncapped, Analyses::Kind::ask, id).status, 202) << id;
}

}  // namespace
}  // namespace emporium::server
