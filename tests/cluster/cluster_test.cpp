// Several nodes on one PostgreSQL behind HAProxy (docs/scaling.md), as local processes: the test starts PostgreSQL
// (tests/tools/postgres-local.sh), three emporium-server nodes and HAProxy with the routing of deploy/haproxy.cfg
// (a table's WebSocket URL carries the table's id; the proxy hashes on it). Tables of Silk Road and Medici are made
// and played through the proxy only; one node is SIGKILLed mid-play. Every game must finish, every player who was
// on the dead node must resume on another, and no action anyone was told of may be missing from the records. Then
// a rematch asked for on two nodes at once, and a node killed at a rated game's last move.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "cluster_support.hpp"
#include "people_client.hpp"
#include "emporium/engine/rng.hpp"
#include "postgres_local.hpp"
#include "ratings/ratings.hpp"

namespace {

using namespace emporium::testing;
using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;
namespace rt = emporium::server::ratings;

constexpr int kTables = 300;
constexpr int kNodes = 3;

struct table_run {
  std::string id;
  std::string game;
  seat seats[2];
  std::atomic<std::uint64_t> progress{0};
  std::atomic<bool> done{false};
  std::string failure;
  bool on_dead_node = false;       // a seat's connection was on the killed node when it died
  int resumed_after_kill = 0;      // seats that resumed on another node after the kill
  clock_type::time_point back_at;  // when the last of them resumed
  std::uint64_t told = 0;          // the highest version any of its clients heard of
};

void play_table(std::uint16_t proxy, table_run& t, std::uint64_t seed, const std::atomic<bool>& killed,
                const std::string& dead_node) {
  emporium::engine::Rng rng(seed);
  const auto give_up = clock_type::now() + 240s;
  bool was_killed = false;
  while (!(t.seats[0].over && t.seats[1].over)) {
    if (clock_type::now() > give_up) throw std::runtime_error("the game did not finish in time");
    if (killed && !was_killed) {
      was_killed = true;
      for (auto& s : t.seats) t.on_dead_node |= s.node == dead_node;
    }
    for (auto& s : t.seats) {
      if (s.client->closed()) {
        connect_seat(proxy, t.id, s, give_up);
        if (killed) {
          ++t.resumed_after_kill;
          t.back_at = clock_type::now();
        }
      }
      s.catch_up();
    }
    t.progress = std::max(t.seats[0].version, t.seats[1].version);
    seat* mover = nullptr;
    for (auto& s : t.seats) {
      if (!s.legal.empty() && !s.over) mover = &s;
    }
    if (!mover) {
      t.seats[0].client->wait_log_beyond(t.seats[0].cursor, 10ms);
      continue;
    }
    const auto at = mover->version;
    try {
      mover->client->send({{"type", "act"}, {"table", t.id}, {"version", at},
                           {"action", mover->legal[rng.below(mover->legal.size())]}});
    } catch (const std::exception&) {
      continue;  // the connection closed meanwhile (its node died, or the table moved): connect again above
    }
    for (int waited = 0; mover->version == at && !mover->client->closed() && waited < 100; ++waited) {
      mover->client->wait_log_beyond(mover->cursor, 20ms);
      mover->catch_up();
    }
  }
}

TEST(Cluster, ThreeNodesBehindHAProxyLoseNothingWhenOneIsKilled) {
  EMPORIUM_NEED_POSTGRES(pg);
  raise_open_files_limit(20000);  // 600 players' connections; the nodes and the proxy inherit the limit
  const std::string uri = pg->new_database();
  const std::string dir = make_temp_dir("emporium-cluster");
  std::vector<std::unique_ptr<server_process>> nodes;
  std::vector<std::uint16_t> ports;
  for (int n = 1; n <= kNodes; ++n) {
    nodes.push_back(
        start_node(dir, uri, "n" + std::to_string(n), {"--lease-ms", "3000", "--trusted-proxies", "127.0.0.1"}));
    ports.push_back(nodes.back()->port());
  }
  haproxy_process proxy(dir, free_port(), ports);

  // The tables: made through the proxy from a lobby connection (any node), then each player connects with the
  // table's URL, which may take the table over from the node that made it.
  std::vector<std::unique_ptr<table_run>> runs(kTables);
  auto make_table = [&](int i) {
    auto t = std::make_unique<table_run>();
    t->game = i % 2 ? "medici" : "silkroad";
    ws_client lobby(proxy.port());
    lobby.wait_type("welcome");
    const Json created = lobby.request({{"type", "create_table"}, {"game", t->game}, {"players", 2}}, 20s);
    if (created.value("type", "") != "seated") throw std::runtime_error("create_table: " + created.dump());
    t->id = created["table"]["id"];
    t->seats[0].token = created["token"];
    ws_client joiner(proxy.port(), "/ws?table=" + t->id);
    joiner.wait_type("welcome");
    const Json joined = joiner.request({{"type", "join"}, {"table", t->id}}, 20s);
    if (joined.value("type", "") != "seated") throw std::runtime_error("join: " + joined.dump());
    t->seats[1].token = joined["token"];
    const auto deadline = clock_type::now() + 60s;
    for (auto& s : t->seats) connect_seat(proxy.port(), t->id, s, deadline);
    const Json started = t->seats[0].client->request({{"type", "start"}, {"table", t->id}}, 20s);
    if (started.value("type", "") != "ack") throw std::runtime_error("start: " + started.dump());
    runs[i] = std::move(t);
  };
  {
    std::vector<std::thread> makers;
    std::mutex failures_mutex;
    std::vector<std::string> failures;
    for (int m = 0; m < 12; ++m) {
      makers.emplace_back([&, m] {
        for (int i = m; i < kTables; i += 12) {
          try {
            make_table(i);
          } catch (const std::exception& e) {
            std::lock_guard lock(failures_mutex);
            failures.push_back(e.what());
          }
        }
      });
    }
    for (auto& m : makers) m.join();
    ASSERT_TRUE(failures.empty()) << failures.front();
  }
  std::map<std::string, int> per_node;
  for (auto& t : runs) ++per_node[t->seats[0].node];
  std::printf("[ cluster  ] tables per node: n1 %d, n2 %d, n3 %d\n", per_node["n1"], per_node["n2"], per_node["n3"]);
  for (int n = 1; n <= kNodes; ++n) EXPECT_GT(per_node["n" + std::to_string(n)], kTables / 10) << "node n" << n;

  // The lobby across nodes: a watcher on any node lists the public tables of every node (the newest 200), and never
  // a private table, whichever node holds it.
  std::map<std::string, std::string> holder;
  for (auto& t : runs) holder[t->id] = t->seats[0].node;
  std::vector<std::string> private_tables;
  std::vector<std::unique_ptr<ws_client>> private_hosts;
  for (int i = 0; i < 6; ++i) {  // through the proxy's round robin: on every node
    private_hosts.push_back(std::make_unique<ws_client>(proxy.port()));
    private_hosts.back()->wait_type("welcome");
    const Json made = private_hosts.back()->request(
        {{"type", "create_table"}, {"game", "medici"}, {"players", 2}, {"private", true}});
    ASSERT_EQ(made.value("type", ""), "seated") << made;
    private_tables.push_back(made["table"]["id"]);
  }
  for (std::size_t n = 0; n < ports.size(); ++n) {
    ws_client watcher(ports[n]);
    watcher.wait_type("welcome");
    std::map<std::string, int> listed_from;
    for (int tries = 0; tries < 50; ++tries) {
      const Json lobby = watcher.request({{"type", "watch_lobby"}, {"on", true}});
      listed_from.clear();
      for (const auto& table : lobby["tables"]) {
        ++listed_from[holder[table["id"]]];
        EXPECT_EQ(std::count(private_tables.begin(), private_tables.end(), table["id"].get<std::string>()), 0)
            << "a private table listed";
      }
      if (lobby["tables"].size() == 200u && listed_from.size() == ports.size()) break;
      std::this_thread::sleep_for(100ms);
    }
    for (std::size_t m = 0; m < ports.size(); ++m) {
      EXPECT_GT(listed_from["n" + std::to_string(m + 1)], 0) << "node n" << n + 1 << " lists none of n" << m + 1;
    }
  }

  // Play; kill n2 once the tables have made some progress.
  std::atomic<bool> killed{false};
  const std::string dead = "n2";
  const auto began = clock_type::now();
  std::vector<std::thread> drivers;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    drivers.emplace_back([&, i] {
      try {
        play_table(proxy.port(), *runs[i], 1000 + i, killed, dead);
      } catch (const std::exception& e) {
        runs[i]->failure = e.what();
        std::fprintf(stderr, "table %s: %s\n", runs[i]->id.c_str(), e.what());
      }
      runs[i]->done = true;
    });
  }
  while (clock_type::now() - began < 60s) {
    std::uint64_t moves = 0;
    for (auto& t : runs) moves += t->progress;
    if (moves >= 8u * kTables) break;
    std::this_thread::sleep_for(20ms);
  }
  // Told first: each driver notes whether its table was on the node before its connections see it die.
  const auto killed_at = clock_type::now();
  killed = true;
  nodes[1]->kill_hard();
  for (auto& d : drivers) d.join();
  const double seconds = std::chrono::duration<double>(clock_type::now() - began).count();

  // Every game finished; every table of the dead node came back on another.
  int dead_tables = 0;
  double slowest_back_s = 0;
  std::uint64_t moves = 0;
  for (auto& t : runs) {
    EXPECT_EQ(t->failure, "") << "table " << t->id;
    EXPECT_TRUE(t->seats[0].over && t->seats[1].over) << "table " << t->id;
    moves += t->seats[0].version;
    if (t->on_dead_node) {
      ++dead_tables;
      EXPECT_GE(t->resumed_after_kill, 1) << "table " << t->id;
      for (auto& s : t->seats) EXPECT_NE(s.node, dead) << "table " << t->id << " still on the dead node";
      slowest_back_s = std::max(slowest_back_s, std::chrono::duration<double>(t->back_at - killed_at).count());
    }
  }
  EXPECT_GT(dead_tables, kTables / 10);
  EXPECT_LT(slowest_back_s, 10.0) << "a dead node's table came back late";

  // Nothing anyone was told of is missing: each table's stored record holds every version its clients heard of.
  std::uint64_t lost = 0;
  for (auto& t : runs) {
    for (auto& s : t->seats) {
      auto told_by = [&](ws_client& c) {
        for (const auto& frame : c.log()) {
          const Json j = Json::parse(frame);
          const std::string type = j.value("type", "");
          if (type == "ack" || (type == "events" && j.value("table", "") == t->id)) {
            t->told = std::max<std::uint64_t>(t->told, j["version"]);
          }
        }
      };
      told_by(*s.client);
      for (auto& c : s.earlier) told_by(*c);
    }
    const auto record = http_get(proxy.port(), "/tables/" + t->id + "/record.json");
    ASSERT_EQ(record.status, 200) << t->id << " " << record.body;
    const Json r = Json::parse(record.body);
    const auto stored = r["actions"].size();
    if (stored < t->told) lost += t->told - stored;
    EXPECT_GE(stored, t->told) << "table " << t->id;
    EXPECT_FALSE(r["result"].is_null()) << "table " << t->id;
  }
  EXPECT_EQ(lost, 0u);
  std::printf("[ cluster  ] %d tables on %d nodes through HAProxy: %llu moves in %.1f s (%.0f moves/s); node %s killed "
              "with %d tables: all back within %.2f s; actions lost: %llu\n",
              kTables, kNodes, static_cast<unsigned long long>(moves), seconds, moves / seconds, dead.c_str(),
              dead_tables, slowest_back_s, static_cast<unsigned long long>(lost));
  for (auto& n : nodes) {
    if (n->running()) {
      EXPECT_EQ(n->terminate(), 0);
    }
  }
  std::filesystem::remove_all(dir);
}

// A rematch across nodes (docs/scaling.md): three people at a finished table, their connections on two nodes that
// both have the table in memory. Whoever asks on whichever node, all three sit at the one rematch: a node that had
// not seen the offer learns it from the store instead of making a second rematch, and a node whose offered table
// has moved to another node takes it back for the seat.
TEST(Cluster, EveryoneAtAFinishedTableSitsAtOneRematchWhicheverNodeTheyAsk) {
  EMPORIUM_NEED_POSTGRES(pg);
  const std::string uri = pg->new_database();
  const std::string dir = make_temp_dir("emporium-cluster-rematch");
  std::vector<std::unique_ptr<server_process>> nodes;
  for (const std::string name : {"n1", "n2"}) nodes.push_back(start_node(dir, uri, name, {"--lease-ms", "3000"}));
  auto t = seat_players(nodes[0]->port(), 3, false, "medici");  // on n1, which made it
  start(t);
  {
    auto seats = trackers(t);
    finish(pointers(seats), 17);
  }
  // P1 has the finished table open on n2 as well, from before anyone offers a rematch.
  ws_client p1_on_n2(nodes[1]->port());
  p1_on_n2.wait_type("welcome");
  ASSERT_EQ(p1_on_n2.request({{"type", "resume"}, {"token", t.tokens[1]}})["type"], "seated");

  const Json offered = t.players[0]->request({{"type", "rematch"}, {"table", t.id}});  // on n1
  ASSERT_EQ(offered["type"], "seated") << offered;
  const std::string next = offered["table"]["id"];
  // On n2, whose copy of the finished table has no offer: P1 joins P0's rematch, taken over from n1.
  const Json p1 = p1_on_n2.request({{"type", "rematch"}, {"table", t.id}}, 20s);
  ASSERT_EQ(p1["type"], "seated") << p1;
  EXPECT_EQ(p1["table"]["id"], next);
  EXPECT_EQ(p1["seat"], 1);
  // On n1, whose offered table is now on n2: n1 takes it back, and P2 sits there too.
  const Json p2 = t.players[2]->request({{"type", "rematch"}, {"table", t.id}}, 20s);
  ASSERT_EQ(p2["type"], "seated") << p2;
  EXPECT_EQ(p2["table"]["id"], next);
  EXPECT_EQ(p2["seat"], 2);
  for (int seat = 0; seat < 3; ++seat) {
    const Json& taken = p2["table"]["seats"][seat];
    EXPECT_EQ(taken["name"], "P" + std::to_string(seat)) << p2;
    EXPECT_FALSE(taken.contains("reserved")) << "seat " << seat << " still kept: " << p2;
  }
  // Both nodes show the finished table with that one offer.
  for (auto& node : nodes) {
    ws_client viewer(node->port());
    viewer.wait_type("welcome");
    const Json watched = viewer.request({{"type", "watch"}, {"table", t.id}});
    ASSERT_EQ(watched["type"], "watching") << watched;
    EXPECT_EQ(watched["table"]["rematch"]["table"], next) << watched;
  }
  for (auto& n : nodes) EXPECT_EQ(n->terminate(), 0);
  std::filesystem::remove_all(dir);
}

// Someone signed up over HTTP through the proxy (any node; the anti-CSRF token is a double-submit cookie, the session
// is in the database): the Cookie header their browser then sends.
std::string sign_up(std::uint16_t proxy, const std::string& name) {
  browser web(proxy);
  const auto up = web.post("/api/sign-up", {{"name", name}, {"password", "correct horse " + name}});
  if (up.status != 200) throw std::runtime_error("sign-up of " + name + ": " + up.body);
  return "emporium_session=" + web.cookie("emporium_session");
}

// Whether `action`, by the player to move in Medici's public `view`, ends the game (engine/games/medici/medici.cpp):
// on the last day it closes an auction (a draw or a stop opens one that may close at once, every bidder forced to
// pass), after which at most one ship has room or the bag is empty.
bool ends_medici(const Json& view, const Json& action) {
  if (view["day"] != view["days"]) return false;
  const int n = view["players"];
  std::vector<int> room(n), money(n);
  for (int p = 0; p < n; ++p) {
    room[p] = view["seats"][p]["free"];
    money[p] = view["seats"][p]["money"];
  }
  int lot = static_cast<int>(view["lot"].size()), bag = view["bag_count"], high = 0, winner = -1;
  const std::string type = action["type"];
  std::vector<int> order;
  std::size_t next = 0;  // the first bidder after the move
  if (view["phase"] == "draw") {
    if (type == "draw") {
      ++lot;
      --bag;
      if (lot < view["lot_limit"].get<int>() && bag > 0) return false;  // drawing goes on
    }
    const int active = view["active"];
    for (int k = 1; k <= n; ++k) {
      if (room[(active + k) % n] > 0) order.push_back((active + k) % n);
    }
  } else if (view["phase"] == "auction") {
    const Json& auction = view["auction"];
    order = auction["order"].get<std::vector<int>>();
    next = auction["bids"].size() + 1;
    high = auction["high_bid"];
    winner = auction["high_bidder"].is_null() ? -1 : auction["high_bidder"].get<int>();
    if (type == "bid") {
      high = action["amount"];
      winner = auction["bidder"];
    }
  } else {
    return false;
  }
  for (; next < order.size(); ++next) {
    if (room[order[next]] >= lot && money[order[next]] > high) return false;  // a bidder with a choice
  }
  if (winner >= 0) room[winner] -= lot;
  return std::count_if(room.begin(), room.end(), [](int f) { return f > 0; }) <= 1 || bag == 0;
}

// Issue 33 in a cluster: three signed-in people play rated games of Medici through the proxy to their last move, and
// the node that holds the table is SIGKILLed right after that move is sent (in practice before it is stored), then,
// in a second game, right after its acknowledgement (stored). Another node takes the table over; the people connect
// again and, if the move died with the node (nobody was told of it), play it again. Either way each person's rating
// moves exactly once per game, by what ratings::rate gives, as every live node tells.
TEST(Cluster, ANodeKilledAtARatedGamesLastMoveRatesItExactlyOnce) {
  EMPORIUM_NEED_POSTGRES(pg);
  const std::string uri = pg->new_database();
  const std::string dir = make_temp_dir("emporium-cluster-rated");
  std::vector<std::unique_ptr<server_process>> nodes;
  std::vector<std::uint16_t> ports;
  for (int n = 1; n <= kNodes; ++n) {
    nodes.push_back(
        start_node(dir, uri, "n" + std::to_string(n), {"--lease-ms", "1500", "--trusted-proxies", "127.0.0.1"}));
    ports.push_back(nodes.back()->port());
  }
  haproxy_process proxy(dir, free_port(), ports);
  const std::vector<std::string> names{"Ann", "Bo", "Cy"};
  std::vector<std::pair<std::string, std::string>> cookies;
  for (const auto& name : names) cookies.emplace_back("Cookie", sign_up(proxy.port(), name));

  // One rated game to its end, its node killed at the last move: its table's id.
  auto rated_game = [&](bool after_ack, std::uint64_t seed) {
    std::vector<seat> seats(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) seats[i].headers = {cookies[i]};
    // Ann makes the table from a lobby connection; the others join it at its URL (which takes it to its node).
    ws_client lobby(proxy.port(), ws_options{"/ws", "", seats[0].headers, true});
    lobby.wait_type("welcome");
    const Json created =
        lobby.request({{"type", "create_table"}, {"game", "medici"}, {"players", 3}, {"rated", true}}, 20s);
    if (created.value("type", "") != "seated") throw std::runtime_error("create_table: " + created.dump());
    const std::string id = created["table"]["id"];
    seats[0].token = created["token"];
    for (std::size_t i = 1; i < seats.size(); ++i) {
      ws_client joiner(proxy.port(), ws_options{"/ws?table=" + id, "", seats[i].headers, true});
      joiner.wait_type("welcome");
      const Json joined = joiner.request({{"type", "join"}, {"table", id}}, 20s);
      if (joined.value("type", "") != "seated") throw std::runtime_error("join: " + joined.dump());
      seats[i].token = joined["token"];
    }
    for (auto& s : seats) connect_seat(proxy.port(), id, s, clock_type::now() + 30s);
    EXPECT_EQ(seats[0].client->request({{"type", "start"}, {"table", id}}, 20s).value("type", ""), "ack");
    const auto began = clock_type::now();

    // Played at random until the mover has a move that ends the game (looked for on the last day only, in a
    // snapshot, within the server's 20 messages a second).
    std::vector<seat_tracker*> trackers;
    for (auto& s : seats) trackers.push_back(&s);
    Json last;
    std::size_t mover = seats.size();
    play(trackers, {}, seed, 1 << 30, [&](const seat_tracker& m) {
      const bool last_day = std::any_of(m.events.begin(), m.events.end(), [](const Json& events) {
        return std::any_of(events.begin(), events.end(),
                           [](const Json& e) { return e.value("type", "") == "day_start" && e.value("day", 0) == 3; });
      });
      if (!last_day) return false;
      Json reply;
      do {
        std::this_thread::sleep_for(60ms);
        reply = m.client->request({{"type", "snapshot"}, {"table", id}});
      } while (reply.value("code", "") == "rate_limited");
      if (!reply.contains("view")) throw std::runtime_error("no snapshot: " + reply.dump());
      for (const auto& action : m.legal) {
        if (ends_medici(reply["view"], action)) {
          last = action;
          for (mover = 0; static_cast<const seat_tracker*>(&seats[mover]) != &m;) ++mover;
          return true;
        }
      }
      return false;
    });
    if (mover == seats.size()) throw std::runtime_error("the game ended on a move not foreseen");
    auto& m = seats[mover];
    m.catch_up();
    const std::string node_a = m.node;
    for (auto& s : seats) EXPECT_EQ(s.node, node_a) << "the table's people are not all on its node";
    const Json act{{"type", "act"}, {"table", id}, {"version", m.version}, {"action", last}};
    if (after_ack) {
      EXPECT_EQ(m.client->request(act).value("type", ""), "ack");
    } else {
      m.client->send(act);
    }
    nodes[std::stoi(node_a.substr(1)) - 1]->kill_hard();
    const auto killed_at = clock_type::now();

    // Told of the end before the node died: then it is stored. Then everyone connects again, on another node.
    bool announced = false;
    for (auto& s : seats) {
      s.catch_up();
      announced |= s.over;
    }
    for (auto& s : seats) {
      connect_seat(proxy.port(), id, s, clock_type::now() + 20s);
      EXPECT_NE(s.node, node_a);
      EXPECT_TRUE(s.client->request({{"type", "snapshot"}, {"table", id}}).contains("view"));
      s.catch_up();
    }
    const double back_s = std::chrono::duration<double>(clock_type::now() - killed_at).count();
    const bool stored = seats[0].over;
    if (announced || after_ack) {
      EXPECT_TRUE(stored) << "a game's end was announced and then lost";
    }
    if (!stored) {  // the move died with its node: nobody was told of it, and its mover plays it again
      EXPECT_FALSE(seats[mover].legal.empty());
      const Json again{{"type", "act"}, {"table", id}, {"version", seats[mover].version}, {"action", last}};
      EXPECT_EQ(seats[mover].client->request(again, 10s).value("type", ""), "ack");
    }
    for (auto& s : seats) {
      for (int i = 0; i < 100 && !s.over; ++i) {
        s.client->wait_log_beyond(s.cursor, 100ms);
        s.catch_up();
      }
      EXPECT_TRUE(s.over);
    }
    EXPECT_EQ(pg->run("SELECT count(*) FROM rating_updates WHERE table_id = '" + id + "'", uri), "3");
    std::printf("[ cluster  ] rated game of 3 played in %.1f s; node %s killed at its last move%s, which it had %s; "
                "back on another node within %.2f s\n",
                std::chrono::duration<double>(killed_at - began).count(), node_a.c_str(),
                after_ack ? " once acknowledged" : " as sent", stored ? "stored" : "not stored (played again)", back_s);
    return id;
  };
  std::vector<std::string> tables;
  ASSERT_NO_THROW(tables.push_back(rated_game(false, 33)));
  ASSERT_NO_THROW(tables.push_back(rated_game(true, 34)));

  // Exactly one update per person and game, and every node (the killed ones started again) tells the same: the
  // model's, from new players.
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    if (nodes[n]->running()) continue;
    nodes[n] = start_node(dir, uri, "n" + std::to_string(n + 1), {"--lease-ms", "1500"});
    ports[n] = nodes[n]->port();
  }
  std::vector<rt::Rating> expected(names.size(), rt::initial_rating());
  std::optional<Json> first_seen;
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    std::vector<Json> profiles;
    for (const auto& name : names) {
      const auto r = http_get(ports[n], "/api/players/" + name);
      ASSERT_EQ(r.status, 200) << r.body;
      profiles.push_back(Json::parse(r.body));
      ASSERT_EQ(profiles.back()["recent"].size(), tables.size()) << profiles.back();
    }
    if (!first_seen) {
      for (const auto& table : tables) {
        std::vector<int> ranks;
        for (const auto& profile : profiles) {
          for (const auto& game : profile["recent"]) {
            if (game["table"] == table) ranks.push_back(game["rank"]);
          }
        }
        ASSERT_EQ(ranks.size(), names.size());
        expected = rt::rate(expected, ranks);
      }
    }
    Json medici = Json::array();
    for (std::size_t i = 0; i < names.size(); ++i) {
      for (const auto& g : profiles[i]["games"]) {
        if (g["game"] == "medici") medici.push_back(g);
      }
      ASSERT_EQ(medici.size(), i + 1) << profiles[i];
      EXPECT_EQ(medici[i]["played"], tables.size()) << names[i];
      EXPECT_EQ(medici[i]["history"].size(), tables.size()) << names[i] << ": " << medici[i];
      EXPECT_EQ(medici[i]["rating"]["value"], rt::displayed_rating(expected[i])) << names[i];
    }
    if (!first_seen) first_seen = medici;
    EXPECT_EQ(medici, *first_seen) << "node n" << n + 1;
  }
  for (auto& n : nodes) EXPECT_EQ(n->terminate(), 0);
  std::filesystem::remove_all(dir);
}


// Friends on two nodes (docs/friends.md): what one node's person does reaches the other's at once, through the
// database's notifications — a request, an acceptance, presence, an invitation, a block.
TEST(Cluster, FriendsOnTwoNodesSeeEachOthersPresenceInvitationsAndBlocks) {
  EMPORIUM_NEED_POSTGRES(pg);
  const std::string uri = pg->new_database();
  const std::string dir = make_temp_dir("emporium-cluster-friends");
  const auto n1 = start_node(dir, uri, "n1");
  const auto n2 = start_node(dir, uri, "n2");
  person ann(n1->port(), "Ann"), bo(n2->port(), "Bo");
  const auto about = [](person& p, const std::string& name, const std::function<bool(const Json&)>& also) {
    return p.ws->wait_for([&](const Json& f) { return f["type"] == "friend" && f["name"] == name && also(f); }, 10s);
  };
  const auto any = [](const Json&) { return true; };

  expect_type(ann.ws->request({{"type", "friend_request"}, {"name", "Bo"}}), "friend");
  EXPECT_EQ(about(bo, "Ann", any)["relation"], "incoming");
  EXPECT_EQ(bo.ws->request({{"type", "friend_accept"}, {"name", "Ann"}})["presence"], (Json{{"status", "online"}}));
  EXPECT_EQ(about(ann, "Bo", any)["presence"], (Json{{"status", "online"}}));

  // Ann sits down on her node: Bo, on the other, sees where; she invites him and he is told there.
  const auto seated = ann.ws->request({{"type", "create_table"}, {"game", "medici"}, {"players", 3}, {"rated", false}}, 20s);
  expect_type(seated, "seated");
  const std::string table = seated["table"]["id"];
  const auto playing = about(bo, "Ann", [](const Json& f) { return f["presence"]["status"] == "playing"; });
  EXPECT_EQ(playing["presence"]["table"], table);
  expect_type(ann.ws->request({{"type", "invite"}, {"table", table}, {"name", "Bo"}}), "invited");
  EXPECT_EQ(bo.ws->wait_type("invitation", 10s)["table"], table);
  EXPECT_EQ(bo.ws->request({{"type", "friends"}})["invitations"].size(), 1u);

  // Ann blocks Bo: on his node he loses her; at her table's node (where the proxy sends a table's people) he may
  // not sit down.
  expect_type(ann.ws->request({{"type", "block"}, {"name", "Bo"}}), "friend");
  EXPECT_EQ(about(bo, "Ann", any)["relation"], "none");
  EXPECT_TRUE(bo.ws->request({{"type", "friends"}})["friends"].empty());
  ws_client bo_at_table(n1->port(), signed_in(bo.web));
  bo_at_table.wait_type("welcome");
  EXPECT_EQ(bo_at_table.request({{"type", "join"}, {"table", table}}, 20s).value("code", ""), "cannot_join");

  // Unblocked and friends again, Bo leaves (both his connections, one on each node): Ann sees him offline.
  expect_type(ann.ws->request({{"type", "unblock"}, {"name", "Bo"}}), "friend");
  expect_type(ann.ws->request({{"type", "friend_request"}, {"name", "Bo"}}), "friend");
  expect_type(bo.ws->request({{"type", "friend_accept"}, {"name", "Ann"}}), "friend");
  bo.ws->close();
  bo_at_table.close();
  about(ann, "Bo", [](const Json& f) { return f.contains("presence") && f["presence"]["status"] == "offline"; });
  EXPECT_EQ(n1->terminate(), 0);
  EXPECT_EQ(n2->terminate(), 0);
  std::filesystem::remove_all(dir);
}

TEST(Cluster, AVacationTakenOnOneNodeStopsTheClockAtATableOfAnother) {
  EMPORIUM_NEED_POSTGRES(pg);
  const std::string uri = pg->new_database();
  const std::string dir = make_temp_dir("emporium-cluster-vacation");
  // Three seconds a move count as correspondence here.
  const std::vector<std::string> args{"--min-turn-s", "1", "--correspondence-turn-s", "3"};
  const auto n1 = start_node(dir, uri, "n1", args);
  const auto n2 = start_node(dir, uri, "n2", args);
  person ann(n1->port(), "Ann");
  const Json seated = ann.ws->request(
      {{"type", "create_table"}, {"game", "medici"}, {"players", 2}, {"clock", {{"turn", 3}, {"reserve", 0}}}}, 20s);
  expect_type(seated, "seated");
  const std::string id = seated["table"]["id"];
  expect_type(ann.ws->request({{"type", "add_bot"}, {"table", id}, {"seat", 1}, {"level", "easy"}}), "ack");
  expect_type(ann.ws->request({{"type", "start"}, {"table", id}}), "ack");
  seat_tracker mine(ann.ws.get(), id);
  for (int i = 0; i < 100 && mine.legal.empty(); ++i) {
    ann.ws->wait_log_beyond(mine.cursor, 50ms);
    mine.catch_up();
  }
  ASSERT_FALSE(mine.legal.empty()) << "Ann's decision never came";
  auto clock_frame = [&](const std::function<bool(const Json&)>& match) {
    return ann.ws->wait_for(
        [&](const Json& f) { return f["type"] == "table" && f["table"]["id"] == id && f.contains("clock") && match(f); },
        10s);
  };
  // Her browser asks the other node, which does not hold the table: the table's node is told, and her clock stops.
  ann.web.reconnect(n2->port());
  const auto started = ann.web.post("/api/account/vacation", {{"days", 2}});
  ASSERT_EQ(started.status, 200) << started.body;
  const Json paused = clock_frame([](const Json& f) { return f["clock"].contains("paused"); });
  EXPECT_EQ(paused["table"]["seats"][0]["vacation_until"], body_of(started)["vacation"]["until"]);
  // Ended there too: it runs again.
  ASSERT_EQ(ann.web.post("/api/account/vacation/end", Json::object()).status, 200);
  const Json running = clock_frame([](const Json& f) { return !f["clock"]["running"].is_null(); });
  EXPECT_FALSE(running["table"]["seats"][0].contains("vacation_until"));
  EXPECT_EQ(n1->terminate(), 0);
  EXPECT_EQ(n2->terminate(), 0);
  std::filesystem::remove_all(dir);
}

}  // namespace
