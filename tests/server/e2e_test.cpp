// End-to-end: a real server process, real sockets, real frames.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <numeric>
#include <sstream>
#include <thread>

#include <emporium/engine/record.hpp>
#include <emporium/engine/rng.hpp>

#include "frame_check.hpp"
#include "game_driver.hpp"
#include "gunzip.hpp"
#include "common/secrets.hpp"
#include "store/store.hpp"
#include "postgres_local.hpp"
#include "test_client.hpp"

namespace emporium::testing {
namespace {

class E2E : public ::testing::Test {
 protected:
  server_process server_;
};

TEST_F(E2E, ThreePlayersAndASpectatorPlayACompleteMediciGame) {
  auto t = seat_players(server_.port(), 3, false);
  ws_client watcher(server_.port());
  watcher.wait_type("welcome");
  Json watching = watcher.request({{"type", "watch"}, {"table", t.id}});
  ASSERT_EQ(watching["type"], "watching");
  start(t);
  auto seats = trackers(t);
  seat_tracker spectator(&watcher, t.id);
  const auto result = play(pointers(seats), {&spectator}, 42);
  for (auto& s : seats) EXPECT_TRUE(s.over);
  EXPECT_GT(result.actions, 30);
  // The spectator never had an action to take.
  for (const auto& frame : watcher.log()) {
    const Json j = Json::parse(frame);
    if (j.contains("legal")) {
      EXPECT_TRUE(j["legal"].empty());
    }
  }
  expect_frames_match_engine(server_.data_dir(), t.id, players_and_spectator(seats, &spectator));
  // The table is finished for everyone, with the result in the last events.
  const Json snap = t.players[1]->request({{"type", "snapshot"}, {"table", t.id}});
  EXPECT_EQ(snap["view"]["phase"], "over");
  EXPECT_FALSE(snap["view"]["result"]["winners"].empty());
  std::printf("[ figures  ] %d actions; action -> last viewer: median %.3f ms, p99 %.3f ms\n", result.actions,
              percentile(result.latencies_ms, 0.5), percentile(result.latencies_ms, 0.99));
}

// Walks every frame one connection received and checks that, until the game is over, nothing in it
// tells `me` (a seat, or -1 for a spectator) another seat's coins, income or cards. Returns how many
// pieces of `me`'s own private information it saw, so the check cannot pass by seeing nothing.
int expect_no_silkroad_secrets(const ws_client& client, int me) {
  int own_secrets = 0;
  bool over = false;
  for (const auto& frame : client.log()) {
    const Json j = Json::parse(frame);
    const std::string type = j.value("type", "");
    if (type == "snapshot") {
      const Json& view = j["view"];
      over = view["phase"] == "over";
      EXPECT_FALSE(view.contains("deck")) << frame;
      for (std::size_t q = 0; q < view["seats"].size(); ++q) {
        const Json& seat = view["seats"][q];
        if (static_cast<int>(q) == me) {
          EXPECT_FALSE(seat["coins"].is_null());
          EXPECT_FALSE(seat["hand"].is_null());
          ++own_secrets;
        } else if (!over) {
          EXPECT_TRUE(seat["coins"].is_null()) << "seat " << q << " coins shown to " << me << ": " << frame;
          EXPECT_TRUE(seat["hand"].is_null()) << "seat " << q << " hand shown to " << me << ": " << frame;
        }
      }
    }
    if (type != "events") continue;
    // A step taken back is told again inside its undo event (docs/undo.md): checked the same way.
    std::vector<Json> events;
    for (const auto& e : j["events"]) {
      events.push_back(e);
      if (e.value("type", "") == "undo") events.insert(events.end(), e["undone"].begin(), e["undone"].end());
    }
    for (const auto& e : events) {
      const std::string kind = e.value("type", "");
      if (kind == "game_over") over = true;
      if (over || !e.contains("player")) continue;
      const bool mine = e["player"] == me;
      if (kind == "income") {
        EXPECT_TRUE(mine) << "another seat's income shown to " << me << ": " << e.dump();
        own_secrets += mine;
      }
      if (kind == "buy" && !mine) {
        EXPECT_FALSE(e.contains("coins")) << e.dump();
      }
      if (kind == "draw") {
        EXPECT_EQ(e.contains("cards"), mine) << e.dump();
        own_secrets += mine;
      }
      if (kind == "extra_draw") {
        EXPECT_EQ(e.contains("good"), mine) << e.dump();
      }
    }
  }
  EXPECT_TRUE(over) << "the game did not end for " << me;
  return own_secrets;
}

TEST_F(E2E, SilkRoadFramesNeverCarryAnotherSeatsCoinsIncomeOrCardsUntilTheEnd) {
  auto t = seat_players(server_.port(), 3, false, "silkroad");
  ws_client watcher(server_.port());
  watcher.wait_type("welcome");
  ASSERT_EQ(watcher.request({{"type", "watch"}, {"table", t.id}})["type"], "watching");
  start(t);
  auto seats = trackers(t);
  seat_tracker spectator(&watcher, t.id);
  // Half-way, everyone asks for a full snapshot and a late spectator arrives: snapshots are filtered too.
  play(pointers(seats), {&spectator}, 7, 80);
  for (auto& p : t.players) EXPECT_EQ(p->request({{"type", "snapshot"}, {"table", t.id}})["type"], "snapshot");
  ws_client late(server_.port());
  late.wait_type("welcome");
  ASSERT_EQ(late.request({{"type", "watch"}, {"table", t.id}})["type"], "watching");
  late.wait_type("snapshot");
  play(pointers(seats), {&spectator}, 8);
  for (auto& s : seats) ASSERT_TRUE(s.over);

  for (int p = 0; p < 3; ++p) EXPECT_GT(expect_no_silkroad_secrets(*t.players[p], p), 3) << "seat " << p;
  expect_no_silkroad_secrets(watcher, -1);
  expect_no_silkroad_secrets(late, -1);
  expect_frames_match_engine(server_.data_dir(), t.id, players_and_spectator(seats, &spectator));

  // At the end every seat's coins are revealed, to players and spectators alike, and match the result.
  const Json over = watcher.request({{"type", "snapshot"}, {"table", t.id}});
  ASSERT_EQ(over["view"]["phase"], "over");
  for (const auto& r : over["view"]["result"]["ranking"]) {
    const int player = r["player"];
    EXPECT_EQ(over["view"]["seats"][player]["coins"], r["coins"]);
    EXPECT_TRUE(over["view"]["seats"][player]["hand"].is_null());
  }
  EXPECT_EQ(over["view"]["result"]["ranking"].size(), 3u);
}

// The leak probe with undos: players take back a step one time in two when they may, and still no frame tells
// anyone another seat's coins, income or cards, and each viewer's frames are what the engine filters for them.
TEST_F(E2E, SilkRoadUndosTellNobodyMoreThanTheStepsTheyTakeBack) {
  auto game = start_watched(server_.port(), 3, "silkroad");
  const auto played = play(game.people(), {game.spectator.get()}, 11, 1 << 30, nullptr, 2);
  for (auto& s : game.seats) ASSERT_TRUE(s.over);
  EXPECT_GT(played.undos, 10);
  for (int p = 0; p < 3; ++p) EXPECT_GT(expect_no_silkroad_secrets(*game.table.players[p], p), 3) << "seat " << p;
  expect_no_silkroad_secrets(*game.watcher, -1);
  expect_frames_match_engine(server_.data_dir(), game.table.id, players_and_spectator(game.seats, game.spectator.get()));
}

TEST_F(E2E, APlayerDisconnectsMidAuctionAndResumesWithTheToken) {
  auto t = seat_players(server_.port(), 3, false);
  start(t);
  auto seats = trackers(t);
  // Play until player 1 has to bid in an auction.
  play(pointers(seats), {}, 7, 1 << 30, [](const seat_tracker& mover) {
    return mover.client != nullptr && !mover.legal.empty() && mover.legal[0]["type"] == "pass" && mover.legal.size() > 1;
  });
  int bidder = -1;
  for (int i = 0; i < 3; ++i) {
    if (!seats[i].legal.empty() && seats[i].legal[0]["type"] == "pass") bidder = i;
  }
  ASSERT_GE(bidder, 0);
  const auto version = seats[bidder].version;
  t.players[bidder]->close();
  // The others see the seat go away, and the game waits.
  const int other = (bidder + 1) % 3;
  t.players[other]->wait_for([&](const Json& j) {
    return j["type"] == "table" && j["table"]["seats"][bidder]["connected"] == false;
  });
  // A new connection resumes the seat with the token and gets a snapshot of the auction.
  auto again = std::make_unique<ws_client>(server_.port());
  again->wait_type("welcome");
  const Json seated = again->request({{"type", "resume"}, {"token", t.tokens[bidder]}});
  ASSERT_EQ(seated["type"], "seated") << seated;
  EXPECT_EQ(seated["seat"], bidder);
  const Json snap = again->wait_type("snapshot");
  EXPECT_EQ(snap["version"], version);
  EXPECT_EQ(snap["view"]["phase"], "auction");
  EXPECT_FALSE(snap["legal"].empty());
  t.players[other]->wait_for([&](const Json& j) {
    return j["type"] == "table" && j["table"]["seats"][bidder]["connected"] == true;
  });
  t.players[bidder] = std::move(again);
  auto resumed = trackers(t);
  for (std::size_t i = 0; i < resumed.size(); ++i) {
    if (static_cast<int>(i) != bidder) resumed[i].cursor = seats[i].cursor;
    resumed[i].version = seats[i].version;
    resumed[i].legal = static_cast<int>(i) == bidder ? Json(Json::array()) : seats[i].legal;
  }
  resumed[bidder].catch_up();
  play(pointers(resumed), {}, 8);
  for (auto& s : resumed) EXPECT_TRUE(s.over);
}

TEST_F(E2E, BadInputGetsItsErrorAndChangesNothingForAnyone) {
  auto t = seat_players(server_.port(), 3, false);
  start(t);
  auto seats = trackers(t);
  for (auto& s : seats) s.client->wait_type("snapshot");
  for (auto& s : seats) s.catch_up();
  int mover = -1;
  for (int i = 0; i < 3; ++i) {
    if (!seats[i].legal.empty()) mover = i;
  }
  ASSERT_GE(mover, 0);
  const int idle = (mover + 1) % 3;
  auto& bad = *t.players[idle];
  const auto before = seats[mover].version;

  auto expect_error = [&](const Json& reply, const std::string& code) {
    EXPECT_EQ(reply["type"], "error") << reply;
    EXPECT_EQ(reply["code"], code) << reply;
    EXPECT_FALSE(reply.value("message", "").empty());
  };
  // Out of turn.
  expect_error(bad.request({{"type", "act"}, {"table", t.id}, {"version", before}, {"action", {{"type", "draw"}}}}),
               "not_your_turn");
  // Stale version, from the player whose turn it is.
  expect_error(t.players[mover]->request(
                   {{"type", "act"}, {"table", t.id}, {"version", before + 5}, {"action", seats[mover].legal[0]}}),
               "stale_version");
  // Illegal for the rules.
  expect_error(t.players[mover]->request(
                   {{"type", "act"}, {"table", t.id}, {"version", before}, {"action", {{"type", "bid"}, {"amount", 5}}}}),
               "illegal_action");
  // Malformed JSON, unknown type, binary frame, a frame over the limit.
  bad.send_raw("{not json");
  expect_error(bad.wait_type("error"), "bad_json");
  expect_error(bad.request({{"type", "teleport"}}), "unknown_type");
  bad.send_raw(std::string("{\"type\":\"ping\"}"), true);
  expect_error(bad.wait_type("error"), "bad_message");
  bad.send_raw(Json{{"type", "chat"}, {"table", t.id}, {"text", std::string(20000, 'x')}}.dump());
  expect_error(bad.wait_type("error"), "frame_too_large");
  // A short flood: some messages are refused with rate_limited, the connection stays.
  for (int i = 0; i < 90; ++i) bad.send({{"type", "ping"}, {"id", 1000 + i}});
  int pongs = 0, limited = 0;
  for (int i = 0; i < 90; ++i) {
    auto f = bad.next(2s);
    ASSERT_TRUE(f);
    if ((*f)["type"] == "pong") ++pongs;
    if ((*f)["type"] == "error" && (*f)["code"] == "rate_limited") ++limited;
  }
  EXPECT_GT(pongs, 0);
  EXPECT_GT(limited, 0);
  std::this_thread::sleep_for(1500ms);  // the bucket refills
  EXPECT_EQ(bad.request({{"type", "ping"}})["type"], "pong");
  EXPECT_FALSE(bad.closed());

  // Nothing happened at the table: the others received no events, and the version is unchanged.
  for (int i = 0; i < 3; ++i) {
    seats[i].catch_up();
    EXPECT_EQ(seats[i].version, before);
    EXPECT_TRUE(seats[i].events.empty());
  }
  // And the game goes on.
  const auto result = play(pointers(seats), {}, 3, 5);
  EXPECT_EQ(result.actions, 5);
}

TEST_F(E2E, ASustainedFloodDisconnectsOnlyTheFlooder) {
  auto t = seat_players(server_.port(), 2, false);
  start(t);
  ws_client flooder(server_.port());
  flooder.wait_type("welcome");
  for (int i = 0; i < 400 && !flooder.closed(); ++i) flooder.send({{"type", "ping"}});
  for (int i = 0; i < 200 && !flooder.closed(); ++i) std::this_thread::sleep_for(10ms);
  EXPECT_TRUE(flooder.closed());
  // The server says why before it closes (1008, policy violation). The flooder is still writing
  // when the close frame arrives, so its side may see a reset instead of the close handshake.
  const auto log = flooder.log();
  EXPECT_TRUE(std::any_of(log.begin(), log.end(), [](const std::string& f) {
    return f.find("rate_limited") != std::string::npos && f.find("disconnecting") != std::string::npos;
  }));
  if (flooder.close_code()) {
    EXPECT_EQ(*flooder.close_code(), 1008);
  }
  auto seats = trackers(t);
  EXPECT_EQ(play(pointers(seats), {}, 5, 5).actions, 5);
}

TEST_F(E2E, ASlowReaderIsDisconnectedAndNobodyElseWaits) {
  // A connection that watches 16 busy tables and never reads: its TCP window fills, then its
  // outbound queue (1024 frames); the server drops it while every game goes on.
  namespace net = boost::asio;
  namespace beast = boost::beast;
  net::io_context ioc;
  auto slow = connect_raw(ioc, server_.port());

  std::vector<table_setup> tables;
  for (int i = 0; i < 16; ++i) {
    tables.push_back(seat_players(server_.port(), 4, false));
    slow.write(net::buffer(Json{{"type", "watch"}, {"table", tables.back().id}}.dump()));
  }
  for (auto& t : tables) start(t);
  std::vector<std::thread> games;
  std::atomic<int> finished{0};
  for (std::size_t i = 0; i < tables.size(); ++i) {
    games.emplace_back([&, i] {
      try {
        auto seats = trackers(tables[i]);
        play(pointers(seats), {}, 77 + i);
        if (std::all_of(seats.begin(), seats.end(), [](auto& s) { return s.over; })) ++finished;
      } catch (const std::exception& e) {
        ADD_FAILURE() << "table " << i << ": " << e.what();
      }
    });
  }
  for (auto& g : games) g.join();
  EXPECT_EQ(finished, 16);
  const auto m = http_get(server_.port(), "/metrics");
  EXPECT_NE(m.body.find("emporium_messages_refused_total{code=\"slow_reader_disconnect\"} 1"), std::string::npos)
      << m.body;
  // Only the 64 players are still connected.
  EXPECT_NE(m.body.find("\nemporium_connections 64\n"), std::string::npos) << m.body;
}

TEST_F(E2E, AReaderThatFallsBehindGetsEveryFrameWholeAndInOrder) {
  // A watcher that reads nothing while seven games are played, then everything: its socket's buffers fill, and the
  // session writes only part of what is queued, the rest when the socket takes it. Every frame must still arrive
  // whole and in order: each table's versions follow one another up to the game's last.
  namespace net = boost::asio;
  namespace beast = boost::beast;
  net::io_context ioc;
  auto late = connect_raw(ioc, server_.port());

  std::vector<table_setup> tables;
  for (int i = 0; i < 7; ++i) {
    tables.push_back(seat_players(server_.port(), 4, false));
    late.write(net::buffer(Json{{"type", "watch"}, {"table", tables.back().id}}.dump()));
  }
  for (auto& t : tables) start(t);
  std::map<std::string, std::uint64_t> last_version;  // each table's, once its game is over
  std::mutex last_mutex;
  std::vector<std::thread> games;
  for (std::size_t i = 0; i < tables.size(); ++i) {
    games.emplace_back([&, i] {
      auto seats = trackers(tables[i]);
      play(pointers(seats), {}, 91 + i);
      std::lock_guard lock(last_mutex);
      last_version[tables[i].id] = seats[0].version;
    });
  }
  for (auto& g : games) g.join();
  ASSERT_EQ(last_version.size(), tables.size());

  std::map<std::string, std::uint64_t> seen;  // table -> the version of its latest frame
  std::size_t bytes = 0, frames = 0;
  while (std::any_of(last_version.begin(), last_version.end(), [&](const auto& t) { return seen[t.first] < t.second; })) {
    beast::flat_buffer buffer;
    beast::get_lowest_layer(late).expires_after(std::chrono::seconds(10));
    late.read(buffer);
    bytes += buffer.size();
    ++frames;
    const Json frame = Json::parse(beast::buffers_to_string(buffer.data()));  // throws if not whole JSON
    const auto type = frame.value("type", "");
    if (type != "snapshot" && type != "events") continue;
    const std::string table = frame["table"];
    const std::uint64_t version = frame["version"];
    if (type == "events") {
      EXPECT_EQ(version, seen[table] + 1) << "table " << table;
    }
    seen[table] = version;
  }
  EXPECT_EQ(seen, last_version);
  // More than the socket's buffers hold (64 KiB send buffer, doubled by Linux, and 4 KiB to receive): some
  // frames waited for the socket, so the partial writes were exercised. (About 1,100 frames and 255 KB; about
  // half of them wait in the session's queue, well under its cap of 1,024 frames.)
  EXPECT_GT(bytes, std::size_t{200} << 10) << frames << " frames";
}

TEST_F(E2E, PrivateTablesAreUnlistedAndNeedTheInvite) {
  auto t = seat_players(server_.port(), 2, true);
  EXPECT_GE(t.invite.size(), 16u);  // 96 bits in URL-safe base64
  ws_client stranger(server_.port());
  stranger.wait_type("welcome");
  const Json lobby = stranger.request({{"type", "watch_lobby"}, {"on", true}});
  ASSERT_EQ(lobby["type"], "lobby");
  for (const auto& table : lobby["tables"]) EXPECT_NE(table["id"], t.id);
  EXPECT_EQ(stranger.request({{"type", "watch"}, {"table", t.id}})["code"], "no_such_table");
  EXPECT_EQ(stranger.request({{"type", "join"}, {"table", t.id}})["code"], "no_such_table");
  EXPECT_EQ(stranger.request({{"type", "watch"}, {"invite", t.invite}})["type"], "watching");
  EXPECT_EQ(stranger.request({{"type", "resume"}, {"token", "AAAAAAAAAAAAAAAAAAAAAAAA"}})["code"], "bad_token");
  // Seat tokens are long and distinct.
  EXPECT_GE(t.tokens[0].size(), 22u);
  EXPECT_NE(t.tokens[0], t.tokens[1]);
}

TEST_F(E2E, LobbyListsPublicTablesLiveAndOnlyTheCreatorStarts) {
  ws_client looker(server_.port());
  looker.wait_type("welcome");
  ASSERT_EQ(looker.request({{"type", "watch_lobby"}, {"on", true}})["tables"].size(), 0u);
  auto t = seat_players(server_.port(), 3, false);
  // After the first list, the lobby sends only what changed (hardening_e2e_test.cpp has the rest).
  const Json listed = looker.wait_for([&](const Json& j) {
    return j["type"] == "lobby_changed" && j["table"]["id"] == t.id && j["table"]["seats"][2]["name"] == "P2";
  });
  EXPECT_EQ(listed["table"]["state"], "waiting");
  EXPECT_EQ(t.players[1]->request({{"type", "start"}, {"table", t.id}})["code"], "not_creator");
  start(t);
  looker.wait_for([&](const Json& j) { return j["type"] == "lobby_changed" && j["table"]["state"] == "playing"; });
  EXPECT_EQ(looker.request({{"type", "join"}, {"table", t.id}})["code"], "already_started");
}

TEST_F(E2E, PlayersLeaveBeforeTheStartAndTheCreatorStartsWithFewerSeats) {
  // A 4-seat table with three players; one leaves, the creator starts with the two that remain
  // (Medici allows 2), and the players are renumbered in seat order.
  std::vector<std::unique_ptr<ws_client>> c;
  for (int i = 0; i < 3; ++i) {
    c.push_back(std::make_unique<ws_client>(server_.port()));
    c.back()->wait_type("welcome");
    c.back()->request({{"type", "set_name"}, {"name", "N" + std::to_string(i)}});
  }
  const Json created = c[0]->request({{"type", "create_table"}, {"game", "medici"}, {"players", 4}});
  const std::string id = created["table"]["id"];
  EXPECT_EQ(c[1]->request({{"type", "join"}, {"table", id}, {"seat", 2}})["seat"], 2);
  EXPECT_EQ(c[2]->request({{"type", "join"}, {"table", id}, {"seat", 2}})["code"], "seat_taken");
  EXPECT_EQ(c[2]->request({{"type", "join"}, {"table", id}})["seat"], 1);
  EXPECT_EQ(c[2]->request({{"type", "join"}, {"table", id}})["code"], "already_seated");
  EXPECT_EQ(c[2]->request({{"type", "leave"}, {"table", id}})["type"], "left");
  const Json table = c[0]->wait_for([](const Json& j) {
    return j["type"] == "table" && j["table"]["seats"][1]["name"].is_null() && !j["table"]["seats"][2]["name"].is_null();
  });
  EXPECT_EQ(table["table"]["state"], "waiting");
  EXPECT_EQ(c[1]->request({{"type", "start"}, {"table", id}})["code"], "not_creator");
  EXPECT_EQ(c[0]->request({{"type", "start"}, {"table", id}})["type"], "ack");
  const Json snap = c[1]->wait_type("snapshot");
  EXPECT_EQ(snap["seat"], 1);  // seat 2 of 4 became player 1 of 2
  EXPECT_EQ(snap["view"]["players"], 2);
  // Leaving the running game hands the seat to a bot (tests/server/leave_e2e_test.cpp has the rest).
  EXPECT_EQ(c[1]->request({{"type", "leave"}, {"table", id}})["type"], "left");
  // The last player leaving a table that never started closes it.
  const Json lone = c[2]->request({{"type", "create_table"}, {"game", "medici"}, {"players", 3}});
  const std::string lone_id = lone["table"]["id"];
  EXPECT_EQ(c[2]->request({{"type", "leave"}, {"table", lone_id}})["type"], "left");
  EXPECT_EQ(c[1]->request({{"type", "watch"}, {"table", lone_id}})["code"], "no_such_table");
}

TEST_F(E2E, ResumingFromASecondConnectionReplacesTheFirst) {
  auto t = seat_players(server_.port(), 2, false);
  start(t);
  ws_client second(server_.port());
  second.wait_type("welcome");
  EXPECT_EQ(second.request({{"type", "resume"}, {"token", t.tokens[1]}})["seat"], 1);
  const Json told = t.players[1]->wait_type("error");
  EXPECT_EQ(told["code"], "replaced");
  // The old connection is no longer at the table; the new one plays.
  EXPECT_EQ(t.players[1]->request({{"type", "snapshot"}, {"table", t.id}})["code"], "no_such_table");
  EXPECT_EQ(second.request({{"type", "snapshot"}, {"table", t.id}})["seat"], 1);
}

TEST_F(E2E, SpectatorsAreCountedAndCannotAct) {
  auto t = seat_players(server_.port(), 2, false);
  ws_client w1(server_.port()), w2(server_.port());
  w1.wait_type("welcome");
  w2.wait_type("welcome");
  w1.request({{"type", "watch"}, {"table", t.id}});
  w2.request({{"type", "watch"}, {"table", t.id}});
  t.players[0]->wait_for([](const Json& j) { return j["type"] == "table" && j["table"]["spectators"] == 2; });
  start(t);
  const Json snap = w1.wait_type("snapshot");
  EXPECT_TRUE(snap["seat"].is_null());
  EXPECT_TRUE(snap["legal"].empty());
  EXPECT_EQ(w1.request({{"type", "act"}, {"table", t.id}, {"version", 0}, {"action", {{"type", "draw"}}}})["code"],
            "not_seated");
  w2.close();
  t.players[0]->wait_for([](const Json& j) { return j["type"] == "table" && j["table"]["spectators"] == 1; });
}

TEST_F(E2E, ChatIsRelayedAsTextToPlayersAndSpectators) {
  auto t = seat_players(server_.port(), 2, false);
  ws_client watcher(server_.port());
  watcher.wait_type("welcome");
  watcher.request({{"type", "watch"}, {"table", t.id}});
  const std::string html = "<img src=x onerror=alert(1)><b>hi</b> & \"bye\"";
  EXPECT_EQ(t.players[0]->request({{"type", "chat"}, {"table", t.id}, {"text", html}})["type"], "ack");
  const Json seen = watcher.wait_type("chat");
  EXPECT_EQ(seen["text"], html);
  EXPECT_EQ(seen["from"], "P0");
  EXPECT_EQ(seen["seat"], 0);
  EXPECT_EQ(t.players[1]->wait_type("chat")["text"], html);
  EXPECT_EQ(watcher.request({{"type", "chat"}, {"table", t.id}, {"text", std::string(501, 'a')}})["code"],
            "chat_too_long");
}

TEST_F(E2E, HttpServesTheClientHealthAndMetricsAndRefusesTraversal) {
  auto index = http_get(server_.port(), "/");
  EXPECT_EQ(index.status, 200);
  EXPECT_EQ(index.content_type, "text/html; charset=utf-8");
  EXPECT_NE(index.body.find("<html"), std::string::npos);
  EXPECT_EQ(http_get(server_.port(), "/healthz").body, "ok\n");
  EXPECT_EQ(http_get(server_.port(), "/some/client/route").status, 200);  // index fallback
  EXPECT_EQ(http_get(server_.port(), "/missing.js").status, 404);
  for (const char* target : {"/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc%2fpasswd",
                             "//etc/passwd", "/%2Fetc%2Fpasswd", "/static/..%5c..%5cetc%5cpasswd"}) {
    const auto r = http_get(server_.port(), target);
    EXPECT_TRUE(r.status == 400 || r.status == 404) << target << " -> " << r.status;
    EXPECT_EQ(r.body.find("root:"), std::string::npos) << target;
  }
  // One game action, then the metrics show it.
  auto t = seat_players(server_.port(), 2, false);
  start(t);
  auto seats = trackers(t);
  play(pointers(seats), {}, 1, 3);
  t.players[0]->request({{"type", "act"}, {"table", t.id}, {"version", 999}, {"action", {{"type", "pass"}}}});
  const auto m = http_get(server_.port(), "/metrics");
  EXPECT_EQ(m.status, 200);
  EXPECT_NE(m.body.find("emporium_connections 2"), std::string::npos) << m.body;
  EXPECT_NE(m.body.find("emporium_rooms{game=\"medici\",state=\"playing\"} 1"), std::string::npos) << m.body;
  EXPECT_NE(m.body.find("emporium_actions_accepted_total 3"), std::string::npos) << m.body;
  EXPECT_NE(m.body.find("emporium_actions_rejected_total{code=\"stale_version\"} 1"), std::string::npos) << m.body;
  EXPECT_NE(m.body.find("emporium_action_latency_seconds_count 3"), std::string::npos) << m.body;
}

TEST_F(E2E, HttpServesTheLoadedGameDataFileAsIs) {
  std::ifstream in(EMPORIUM_MERKATOR_DATA);
  std::stringstream file;
  file << in.rdbuf();
  const auto data = http_get(server_.port(), "/games/merkator/data.json");
  EXPECT_EQ(data.status, 200);
  EXPECT_EQ(data.content_type, "application/json; charset=utf-8");
  EXPECT_EQ(data.cache_control, "no-cache");
  EXPECT_EQ(data.body, file.str());  // the very file the server checked at start-up
  ASSERT_FALSE(data.etag.empty());
  const auto again = http_get(server_.port(), "/games/merkator/data.json?v=1", "If-None-Match: " + data.etag + "\r\n");
  EXPECT_EQ(again.status, 304);
  EXPECT_EQ(again.body, "");
  EXPECT_EQ(http_get(server_.port(), "/games/medici/data.json").status, 404);
  EXPECT_EQ(http_get(server_.port(), "/games/nothing/data.json").status, 404);
}

TEST_F(E2E, HttpServesClientFilesCompressedWithValidators) {
  std::ifstream in(std::string(EMPORIUM_WEB_ROOT) + "/js/pages/table.js", std::ios::binary);
  std::stringstream file;
  file << in.rdbuf();
  ASSERT_GT(file.str().size(), 1000u);
  // A browser: gzip, and the bytes unpack to the file.
  const auto packed = http_get(server_.port(), "/js/pages/table.js", "Accept-Encoding: gzip, deflate, br\r\n");
  EXPECT_EQ(packed.status, 200);
  EXPECT_EQ(packed.content_encoding, "gzip");
  EXPECT_EQ(packed.vary, "Accept-Encoding");
  EXPECT_EQ(packed.cache_control, "no-cache");
  EXPECT_LT(packed.body.size(), file.str().size() / 2);
  EXPECT_EQ(testing::gunzip(packed.body), file.str());
  // A client that takes no gzip gets the file as it is, under another validator.
  const auto plain = http_get(server_.port(), "/js/pages/table.js");
  EXPECT_EQ(plain.status, 200);
  EXPECT_EQ(plain.content_encoding, "");
  EXPECT_EQ(plain.body, file.str());
  ASSERT_FALSE(plain.etag.empty());
  EXPECT_NE(plain.etag, packed.etag);
  // Revalidation: 304 and no body while the validator holds; a validator of the other form does not.
  const auto again = http_get(server_.port(), "/js/pages/table.js", "Accept-Encoding: gzip\r\nIf-None-Match: " + packed.etag + "\r\n");
  EXPECT_EQ(again.status, 304);
  EXPECT_EQ(again.body, "");
  EXPECT_EQ(again.etag, packed.etag);
  EXPECT_EQ(http_get(server_.port(), "/js/pages/table.js", "If-None-Match: " + packed.etag + "\r\n").status, 200);
  EXPECT_EQ(http_get(server_.port(), "/js/pages/table.js", "If-None-Match: " + plain.etag + "\r\n").status, 304);
  // The app's page for client routes, compressed too.
  const auto route = http_get(server_.port(), "/t/some-table", "Accept-Encoding: gzip\r\n");
  EXPECT_EQ(route.status, 200);
  EXPECT_NE(testing::gunzip(route.body).find("<html"), std::string::npos);
}

// The restart tests run on both stores: SQLite in the data directory, and PostgreSQL (a database of their own on a
// server the test process starts, postgres_local.hpp), where the data directory holds nothing.
class E2ERestartOn : public ::testing::TestWithParam<std::string> {
 protected:
  // The flags that put a server on this test's store (the same store for every server the test starts).
  std::vector<std::string> store_args() {
    if (GetParam() == "sqlite") return {};
    if (uri_.empty()) {
      auto* pg = emporium::test::postgres_local::instance();
      if (!pg) return {};
      uri_ = pg->new_database();
    }
    return {"--store", uri_};
  }
  void SetUp() override {
    if (GetParam() == "postgresql") {
      EMPORIUM_NEED_POSTGRES(pg);
    }
  }
  // `args` on this test's store.
  std::vector<std::string> on_store(std::vector<std::string> args = {}) {
    const auto more = store_args();
    args.insert(args.end(), more.begin(), more.end());
    return args;
  }

 private:
  std::string uri_;
};
INSTANTIATE_TEST_SUITE_P(Stores, E2ERestartOn, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& info) { return info.param; });

TEST_P(E2ERestartOn, SigkillMidGameAndEveryTableComesBackAtItsLastAcknowledgedAction) {
  const std::string data = make_temp_dir("emporium-restart");
  struct game {
    std::string id;
    std::vector<std::string> tokens;
    std::uint64_t acked = 0;
  };
  std::vector<game> games;
  {
    server_process first(data, on_store());
    std::vector<table_setup> tables;
    for (int g = 0; g < 4; ++g) {
      tables.push_back(seat_players(first.port(), 2 + g % 3, g % 2 == 1));
      if (g < 3) start(tables.back());  // the fourth stays waiting
    }
    for (int g = 0; g < 4; ++g) {
      auto seats = trackers(tables[g]);
      std::uint64_t acked = 0;
      if (g < 3) {
        const auto r = play(pointers(seats), {}, 100 + g, 10 + 7 * g);
        for (auto& s : seats) s.catch_up();
        acked = seats[0].version;
        EXPECT_EQ(static_cast<int>(acked), r.actions);
      }
      games.push_back({tables[g].id, tables[g].tokens, acked});
    }
    first.kill_hard();
  }
  server_process second(data, on_store());
  for (std::size_t g = 0; g < games.size(); ++g) {
    table_setup t;
    t.id = games[g].id;
    for (const auto& token : games[g].tokens) {
      t.players.push_back(std::make_unique<ws_client>(second.port()));
      t.players.back()->wait_type("welcome");
      const Json seated = t.players.back()->request({{"type", "resume"}, {"token", token}});
      ASSERT_EQ(seated["type"], "seated") << seated;
      EXPECT_EQ(seated["table"]["id"], t.id);
    }
    if (g == 3) {
      EXPECT_EQ(Json::parse(t.players[0]->log().back())["table"]["state"], "waiting");
      start(t);
    }
    auto seats = trackers(t);
    for (auto& s : seats) {
      s.client->wait_type("snapshot");
      s.catch_up();
      EXPECT_EQ(s.version, games[g].acked) << "table " << g;
    }
    play(pointers(seats), {}, 200 + g);
    for (auto& s : seats) EXPECT_TRUE(s.over);
  }
  EXPECT_EQ(second.terminate(), 0);
  std::filesystem::remove_all(data);
}

// Group commit (server/commit_queue.hpp): many tables move at once, so moves are stored many to a transaction, and
// the server is killed while such batches are on their way to the disk. Whatever any client was told (an ack or
// the events of a version) must be back after the restart: nobody hears of a move before it is stored.
TEST_P(E2ERestartOn, SigkillWhileGroupCommitsAreInFlightLosesNothingAnyoneWasToldOf) {
  const std::string data = make_temp_dir("emporium-commit");
  constexpr int kTables = 24;
  struct table_run {
    table_setup setup;
    std::vector<seat_tracker> seats;
    std::uint64_t told = 0;  // the highest version any of its clients heard of
    std::atomic<std::uint64_t> progress{0};  // the version its driver last saw
  };
  std::vector<table_run> runs(kTables);
  long committed_actions = 0, commits = 0;
  std::ptrdiff_t unfinished = 0;  // tables still playing at the kill
  // Every client is on 127.0.0.1: the per-address caps would refuse the 21st table and the 33rd connection.
  const std::vector<std::string> uncapped = on_store({"--max-connections-per-ip", "0", "--max-tables-per-ip-per-minute", "0"});
  {
    // A slow disk (each commit 40 ms late): dozens of moves are applied in memory and waiting for the disk at any
    // moment, so the kill always finds some, and a server that told anyone of them first would be caught.
    auto slow_disk = uncapped;
    slow_disk.insert(slow_disk.end(), {"--commit-delay-ms", "40"});
    server_process first(data, slow_disk);
    for (int t = 0; t < kTables; ++t) {
      runs[t].setup = seat_players(first.port(), 2, true, t % 2 ? "silkroad" : "medici");
      start(runs[t].setup);
      runs[t].seats = trackers(runs[t].setup);
    }
    std::atomic<bool> stop{false};
    std::vector<std::thread> drivers;
    for (int t = 0; t < kTables; ++t) {
      drivers.emplace_back([&run = runs[t], &stop, seed = 700 + t] {
        engine::Rng rng(seed);
        // Random legal moves as fast as the server answers (a refusal, say rate_limited, is simply tried again).
        while (!stop) {
          for (auto& s : run.seats) s.catch_up();
          run.progress = run.seats[0].version;
          auto mover = std::find_if(run.seats.begin(), run.seats.end(), [](const seat_tracker& s) { return !s.legal.empty(); });
          if (run.seats[0].over || mover == run.seats.end()) {
            run.seats[0].client->wait_log_beyond(run.seats[0].cursor, 5ms);
            continue;
          }
          const std::uint64_t at = mover->version;
          mover->client->send({{"type", "act"}, {"table", mover->table}, {"version", at},
                               {"action", mover->legal[rng.below(mover->legal.size())]}});
          for (int waited = 0; !stop && mover->version == at && waited < 25; ++waited) {
            mover->client->wait_log_beyond(mover->cursor, 20ms);
            mover->catch_up();
          }
        }
      });
    }
    // The kill comes mid-game, once some table has made 40 moves (a game has well over 60).
    const auto give_up = std::chrono::steady_clock::now() + 30s;
    while (std::none_of(runs.begin(), runs.end(), [](const table_run& r) { return r.progress >= 40; }) &&
           std::chrono::steady_clock::now() < give_up) {
      std::this_thread::sleep_for(2ms);
    }
    const auto scraped = http_get(first.port(), "/metrics").body;
    auto counter = [&](const std::string& name) {
      const auto at = scraped.find("\n" + name + " ");
      return at == std::string::npos ? -1L : std::stol(scraped.substr(at + name.size() + 2));
    };
    committed_actions = counter("emporium_store_committed_actions_total");
    commits = counter("emporium_store_commits_total");
    first.kill_hard();  // moves applied in memory and queued, a transaction half-written, acks on their way
    stop = true;
    for (auto& d : drivers) d.join();  // before reading what they wrote (TSan: a data race on `over` otherwise)
    unfinished = std::count_if(runs.begin(), runs.end(), [](const table_run& r) { return !r.seats[0].over; });
    for (auto& run : runs) {
      for (auto& player : run.setup.players) {
        for (const auto& frame : player->log()) {
          const Json j = Json::parse(frame);
          if (j.value("type", "") == "ack" || (j.value("type", "") == "events" && j.value("table", "") == run.setup.id)) {
            run.told = std::max<std::uint64_t>(run.told, j["version"]);
          }
        }
      }
    }
  }
  // The moves were being stored many to a transaction when the kill came.
  EXPECT_GT(commits, 0);
  EXPECT_GT(committed_actions, commits) << "no transaction carried more than one action";
  EXPECT_EQ(unfinished, kTables) << "a game ended before the kill: the test must kill mid-play";
  server_process second(data, uncapped);
  std::uint64_t total_told = 0;
  for (auto& run : runs) {
    ws_client player(second.port());
    player.wait_type("welcome");
    const Json seated = player.request({{"type", "resume"}, {"token", run.setup.tokens[0]}});
    ASSERT_EQ(seated["type"], "seated") << seated;
    const Json snapshot = player.wait_type("snapshot");
    EXPECT_GE(snapshot["version"].get<std::uint64_t>(), run.told) << "table " << run.setup.id << " lost a move its players were told of";
    total_told += run.told;
  }
  EXPECT_GT(total_told, static_cast<std::uint64_t>(kTables) * 5) << "the tables hardly played";
  EXPECT_EQ(second.terminate(), 0);
  std::filesystem::remove_all(data);
}

TEST(E2ERestart, FinishedTablesCanBeResumedAndWatchedAfterARestart) {
  const std::string data = make_temp_dir("emporium-finished");
  std::vector<std::string> ids, invites, tokens;
  {
    server_process first(data);
    for (bool is_private : {true, false}) {
      auto t = seat_players(first.port(), 2, is_private);
      start(t);
      auto seats = trackers(t);
      play(pointers(seats), {}, is_private ? 31 : 32);
      ids.push_back(t.id);
      invites.push_back(t.invite);
      tokens.push_back(t.tokens[1]);
    }
    EXPECT_EQ(first.terminate(), 0);
  }
  server_process second(data);
  auto expect_final_snapshot = [](ws_client& c) {
    const Json snap = c.wait_type("snapshot");
    EXPECT_EQ(snap["view"]["phase"], "over");
    EXPECT_FALSE(snap["view"]["result"].is_null());
    EXPECT_EQ(snap["legal"], Json::array());
  };
  for (std::size_t g = 0; g < ids.size(); ++g) {
    ws_client player(second.port());
    player.wait_type("welcome");
    const Json seated = player.request({{"type", "resume"}, {"token", tokens[g]}});
    ASSERT_EQ(seated["type"], "seated") << seated;
    EXPECT_EQ(seated["table"]["id"], ids[g]);
    EXPECT_EQ(seated["table"]["state"], "finished");
    EXPECT_EQ(seated["seat"], 1);
    expect_final_snapshot(player);
  }
  ws_client watcher(second.port());
  watcher.wait_type("welcome");
  ASSERT_EQ(watcher.request({{"type", "watch"}, {"invite", invites[0]}})["type"], "watching");  // private
  expect_final_snapshot(watcher);
  EXPECT_EQ(watcher.request({{"type", "watch"}, {"table", ids[0]}})["code"], "no_such_table");  // not by its id
  ASSERT_EQ(watcher.request({{"type", "watch"}, {"table", ids[1]}})["type"], "watching");       // public
  expect_final_snapshot(watcher);
  EXPECT_EQ(watcher.request({{"type", "resume"}, {"token", "not-a-token"}})["code"], "bad_token");
  EXPECT_EQ(watcher.request({{"type", "watch"}, {"table", "nosuchtable"}})["code"], "no_such_table");
  EXPECT_EQ(second.terminate(), 0);
  std::filesystem::remove_all(data);
}

// How many rooms of `game` in `state` the server holds in memory, from /metrics (-1 when not listed).
int rooms_in_memory(std::uint16_t port, const std::string& game, const std::string& state) {
  const auto body = http_get(port, "/metrics").body;
  const auto key = "emporium_rooms{game=\"" + game + "\",state=\"" + state + "\"} ";
  const auto at = body.find(key);
  return at == std::string::npos ? -1 : std::stoi(body.substr(at + key.size()));
}

// Polls `ok` every 50 ms for up to `limit`; whether it came true.
template <class F>
bool comes_true(F ok, std::chrono::milliseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (!ok()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return true;
}

TEST(E2EMemory, FinishedTablesLeaveMemoryOnceUnwatchedAndComeBackWhenAskedFor) {
  server_process server("", {"--finished-unwatched-s", "1"});
  const auto finished = [&] { return rooms_in_memory(server.port(), "medici", "finished"); };
  std::string id, token, invite;
  {
    auto t = seat_players(server.port(), 2, true);
    start(t);
    auto seats = trackers(t);
    play(pointers(seats), {}, 41);
    id = t.id;
    token = t.tokens[0];
    invite = t.invite;
    ASSERT_TRUE(comes_true([&] { return finished() == 1; }, 2s));
    // While its players are still connected it stays, however long.
    std::this_thread::sleep_for(1500ms);
    EXPECT_EQ(finished(), 1);
  }  // the players' connections close
  EXPECT_TRUE(comes_true([&] { return finished() == 0; }, 5s)) << finished();

  // A player's resume brings it back, whole; so does a spectator's invite.
  ws_client player(server.port());
  player.wait_type("welcome");
  const Json seated = player.request({{"type", "resume"}, {"token", token}});
  ASSERT_EQ(seated["type"], "seated") << seated;
  EXPECT_EQ(seated["table"]["id"], id);
  EXPECT_EQ(seated["table"]["state"], "finished");
  const Json snap = player.wait_type("snapshot");
  EXPECT_EQ(snap["view"]["phase"], "over");
  EXPECT_FALSE(snap["view"]["result"].is_null());
  EXPECT_EQ(finished(), 1);
  ws_client watcher(server.port());
  watcher.wait_type("welcome");
  ASSERT_EQ(watcher.request({{"type", "watch"}, {"invite", invite}})["type"], "watching");
  EXPECT_EQ(watcher.wait_type("snapshot")["view"], snap["view"]);
  EXPECT_EQ(finished(), 1);  // the same room, not a second copy

  // The player goes; the spectator still watches, so it stays; when the spectator leaves too, it goes again.
  player.close();
  std::this_thread::sleep_for(1500ms);
  EXPECT_EQ(finished(), 1);
  EXPECT_EQ(watcher.request({{"type", "leave"}, {"table", id}})["type"], "left");
  EXPECT_TRUE(comes_true([&] { return finished() == 0; }, 5s)) << finished();
  // My games still describes it from the store.
  const Json mine = watcher.request({{"type", "my_games"}, {"tokens", Json::array({token})}});
  ASSERT_EQ(mine["games"].size(), 1u) << mine;
  EXPECT_EQ(mine["games"][0]["table"], id);
  EXPECT_EQ(mine["games"][0]["state"], "finished");
  EXPECT_EQ(server.terminate(), 0);
}

// CPU seconds (user + system) a process has used, from /proc/<pid>/stat.
double cpu_seconds(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::istringstream fields(text.substr(text.rfind(')') + 2));  // after "pid (name) "
  std::vector<std::string> f((std::istream_iterator<std::string>(fields)), std::istream_iterator<std::string>());
  return (std::stod(f[11]) + std::stod(f[12])) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

TEST(E2ELimits, OutOfDescriptorsTheServerPausesAcceptsInsteadOfSpinningAndRecovers) {
  // A server with few descriptors (the limit is inherited by the child, then restored here).
  rlimit old{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &old), 0);
  rlimit low = old;
  low.rlim_cur = 48;
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &low), 0);
  std::unique_ptr<server_process> server;
  try {
    server = std::make_unique<server_process>();
  } catch (...) {
    setrlimit(RLIMIT_NOFILE, &old);
    throw;
  }
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &old), 0);

  // Plain TCP connections that never send a byte: past ~35 of them, accept() fails with EMFILE.
  boost::asio::io_context ioc;
  std::vector<boost::asio::ip::tcp::socket> idle;
  for (int i = 0; i < 80; ++i) {
    idle.emplace_back(ioc);
    idle.back().connect({boost::asio::ip::make_address("127.0.0.1"), server->port()});
  }
  std::this_thread::sleep_for(500ms);
  const double before = cpu_seconds(server->pid());
  std::this_thread::sleep_for(2s);
  const double spent = cpu_seconds(server->pid()) - before;
  EXPECT_LT(spent, 0.5) << "the server spun for " << spent << " CPU seconds in 2 s while out of descriptors";

  // Once connections go away, it accepts again.
  idle.clear();
  http_reply health;
  for (int i = 0; i < 100 && health.status != 200; ++i) {
    std::this_thread::sleep_for(100ms);
    try {
      health = http_get(server->port(), "/healthz");
    } catch (const std::exception&) {
    }
  }
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(server->terminate(), 0);
}

TEST(E2ENames, TwoPeopleWithOneNameAtATableAreToldApart) {
  server_process server;
  std::vector<std::unique_ptr<ws_client>> people;
  for (const char* name : {"Ann", "ann", "Ann"}) {
    people.push_back(std::make_unique<ws_client>(server.port()));
    people.back()->wait_type("welcome");
    ASSERT_EQ(people.back()->request({{"type", "set_name"}, {"name", name}})["type"], "hello");
  }
  const Json created = people[0]->request({{"type", "create_table"}, {"game", "medici"}, {"players", 3}});
  ASSERT_EQ(created["type"], "seated") << created;
  const std::string id = created["table"]["id"];
  const Json second = people[1]->request({{"type", "join"}, {"table", id}});
  EXPECT_EQ(second["table"]["seats"][1]["name"], "ann (2)") << "names differing only in case look the same";
  const Json third = people[2]->request({{"type", "join"}, {"table", id}});
  EXPECT_EQ(third["table"]["seats"][2]["name"], "Ann (3)");
  EXPECT_EQ(third["table"]["seats"][0]["name"], "Ann");
  // Chat carries the seat's name, so the table can tell who spoke.
  ASSERT_EQ(people[2]->request({{"type", "chat"}, {"table", id}, {"text", "hi"}})["type"], "ack");
  const Json line = people[0]->wait_type("chat");
  EXPECT_EQ(line["from"], "Ann (3)");
  // An invisible name is refused and changes nothing.
  const Json refused = people[0]->request({{"type", "set_name"}, {"name", "\u200B\u200B"}});
  EXPECT_EQ(refused["code"], "bad_name") << refused;
}

TEST(E2EOrigin, PagesFromOtherSitesCannotOpenWebSockets) {
  server_process server("", {"--allowed-origins", "https://play.example.org"});
  const std::string own = "http://127.0.0.1:" + std::to_string(server.port());
  EXPECT_THROW(ws_client(server.port(), "/ws", "http://evil.example"), std::exception);
  // The server's own pages, listed sites and clients that send no Origin (not browsers) are let in.
  for (const std::string& origin : {own, std::string("https://play.example.org"), std::string()}) {
    SCOPED_TRACE(origin);
    ws_client ok(server.port(), "/ws", origin);
    EXPECT_EQ(ok.wait_type("welcome")["type"], "welcome");
  }
  // What a browser shows for the refused upgrade: 403 with the reason.
  const auto refused = http_get(server.port(), "/ws",
                                "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
                                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: http://evil.example\r\n");
  EXPECT_EQ(refused.status, 403) << refused.body;
  EXPECT_NE(refused.body.find("http://evil.example"), std::string::npos) << refused.body;
}

TEST(E2EHttp, HeadersOverTheLimitGet431) {
  server_process server;
  const auto reply = http_get(server.port(), "/", "X-Padding: " + std::string(9000, 'a') + "\r\n");
  EXPECT_EQ(reply.status, 431) << reply.body;
  EXPECT_EQ(http_get(server.port(), "/healthz").status, 200) << "everyone else goes on";
}

// A client that writes its whole request before reading gets its answer, however far the request is over a limit:
// the server answers, then reads and discards what is still coming before it closes (a socket closed with unread
// data sends a reset: the client's write breaks, and the answer is lost).
TEST(E2EHttp, ARequestFarOverALimitIsReadToItsEndAndAnswered) {
  server_process server;
  const auto body = http_request(server.port(), "POST", "/api/sign-in", "Content-Type: application/json\r\n",
                                 std::string(1024 * 1024, 'x'));
  EXPECT_EQ(body.status, 413) << body.body;
  const auto headers = http_get(server.port(), "/", "X-Padding: " + std::string(512 * 1024, 'a') + "\r\n");
  EXPECT_EQ(headers.status, 431) << headers.body;
  EXPECT_EQ(http_get(server.port(), "/healthz").status, 200) << "everyone else goes on";
}

// Everything the server wrote to its data directory, as one string.
std::string data_files(const std::string& dir) {
  std::string all;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path(), std::ios::binary);
    all += std::string(std::istreambuf_iterator<char>(in), {});
  }
  return all;
}

TEST(E2ETokens, OnlyHashesOfSeatTokensAreStoredAndOldDatabasesAreConverted) {
  const std::string data = make_temp_dir("emporium-token-hashes");
  std::string id, token;
  {
    server_process server(data);
    auto t = seat_players(server.port(), 3, false);
    id = t.id;
    token = t.tokens[1];
    EXPECT_EQ(server.terminate(), 0);
  }
  const std::string stored = data_files(data);
  EXPECT_EQ(stored.find(token), std::string::npos) << "a seat token is in the database";
  EXPECT_NE(stored.find(server::hash_token(token)), std::string::npos) << "its hash is what is kept";

  // A database from before hashing held the token itself (and had no schema versions, nor people): on start it is
  // hashed, and the seat resumes.
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open((data + "/emporium.db").c_str(), &db), SQLITE_OK);
    const std::string sql = "UPDATE seats SET token = '" + token + "' WHERE token = '" + server::hash_token(token) + "'";
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    EXPECT_EQ(sqlite3_changes(db), 1);
    ASSERT_EQ(sqlite3_exec(db,
                           "DROP TABLE schema_version; ALTER TABLE game_tables DROP COLUMN undo; DROP TABLE analyses; DROP TABLE push_subscriptions; DROP TABLE vacations; DROP TABLE server_keys; DROP TABLE mails_sent; "
                           "DROP TABLE mail_settings; DROP TABLE moderation_actions; DROP TABLE reports; "
                           "DROP TABLE presence; DROP TABLE invitations; DROP TABLE blocks; DROP TABLE friendships; "
                           "DROP TABLE friend_requests; ALTER TABLE game_tables DROP COLUMN friends_only; "
                           "DROP TABLE game_results; DROP TABLE rating_updates; "
                           "DROP TABLE ratings; ALTER TABLE game_tables DROP COLUMN rated; "
                           "ALTER TABLE seats DROP COLUMN account; DROP TABLE chat_lines; DROP TABLE seat_claims; "
                           "DROP TABLE challenges; DROP TABLE sign_ins; DROP TABLE sessions; DROP TABLE passkeys; "
                           "DROP TABLE accounts",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
  }
  server_process again(data);
  ws_client back(again.port());
  back.wait_type("welcome");
  const Json seated = back.request({{"type", "resume"}, {"token", token}});
  ASSERT_EQ(seated["type"], "seated") << seated;
  EXPECT_EQ(seated["table"]["id"], id);
  EXPECT_EQ(seated["seat"], 1);
  EXPECT_EQ(again.terminate(), 0);
  EXPECT_EQ(data_files(data).find(token), std::string::npos) << "the old token was left in the database";
  std::filesystem::remove_all(data);
}

TEST(E2EShutdown, SigtermClosesConnectionsWithGoingAway) {
  server_process server;
  ws_client c(server.port());
  c.wait_type("welcome");
  // With nothing left to write, the server is gone as soon as its connections are closed, not after a
  // fixed grace period (2 s, the most it waits for a slow reader).
  const auto asked = std::chrono::steady_clock::now();
  EXPECT_EQ(server.terminate(), 0);
  EXPECT_LT(std::chrono::steady_clock::now() - asked, 1500ms);
  for (int i = 0; i < 100 && !c.closed(); ++i) std::this_thread::sleep_for(10ms);
  EXPECT_TRUE(c.closed());
  EXPECT_EQ(c.close_code(), 1001);
}

}  // namespace
}  // namespace emporium::testing
