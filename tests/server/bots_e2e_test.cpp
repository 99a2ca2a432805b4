// End-to-end with computer players: bot seats through the protocol, complete games of one client and bots
// in every game, a SIGKILL in the middle of a bot game, the pause between bot moves. (People's latency while
// fifty tables of bots think is bot_load_test.cpp, run alone.)
#include <gtest/gtest.h>

#include <functional>
#include <iostream>

#include <emporium/engine/record.hpp>
#include <emporium/engine/rng.hpp>

#include "frame_check.hpp"
#include "game_driver.hpp"
#include "store/store.hpp"
#include "test_client.hpp"

namespace emporium::testing {
namespace {

TEST(BotSeats, TheCreatorSeatsAndRemovesBotsAndEveryoneSeesThem) {
  server_process server;
  ws_client ann(server.port()), bo(server.port());
  ann.wait_type("welcome");
  bo.wait_type("welcome");
  const Json created = ann.request({{"type", "create_table"}, {"game", "medici"}, {"players", 4}, {"private", false}});
  ASSERT_EQ(created["type"], "seated");
  const std::string id = created["table"]["id"];
  ASSERT_EQ(bo.request({{"type", "join"}, {"table", id}, {"seat", 3}})["type"], "seated");

  Json reply = ann.request({{"type", "add_bot"}, {"table", id}, {"seat", 1}});
  ASSERT_EQ(reply["type"], "ack") << reply;
  Json seen = table_where(bo, id, 1, [](const Json& s) { return s.contains("bot"); });
  EXPECT_EQ(seen["seats"][1], Json::parse(R"({"seat":1,"name":"Bot 1","connected":true,"bot":"normal"})"));
  EXPECT_FALSE(seen["seats"][0].contains("bot"));
  ASSERT_EQ(ann.request({{"type", "add_bot"}, {"table", id}, {"seat", 2}, {"level", "easy"}})["type"], "ack");
  seen = table_where(bo, id, 2, [](const Json& s) { return s.contains("bot"); });
  EXPECT_EQ(seen["seats"][2]["name"], "Bot 2");
  EXPECT_EQ(seen["seats"][2]["bot"], "easy");

  // Refusals, each changing nothing.
  auto code = [](const Json& r) { return r.value("code", r.value("type", "")); };
  EXPECT_EQ(code(bo.request({{"type", "add_bot"}, {"table", id}, {"seat", 0}})), "not_creator");
  EXPECT_EQ(code(ann.request({{"type", "add_bot"}, {"table", id}, {"seat", 3}})), "seat_taken");
  EXPECT_EQ(code(ann.request({{"type", "add_bot"}, {"table", id}, {"seat", 0}})), "seat_taken");
  EXPECT_EQ(code(ann.request({{"type", "add_bot"}, {"table", id}, {"seat", 9}})), "bad_message");
  EXPECT_EQ(code(ann.request({{"type", "add_bot"}, {"table", id}, {"seat", 1}, {"level", "grandmaster"}})),
            "bad_message");
  EXPECT_EQ(code(ann.request({{"type", "remove_bot"}, {"table", id}, {"seat", 3}})), "bad_message");
  EXPECT_EQ(code(bo.request({{"type", "remove_bot"}, {"table", id}, {"seat", 1}})), "not_creator");
  ws_client stranger(server.port());
  stranger.wait_type("welcome");
  EXPECT_EQ(code(stranger.request({{"type", "add_bot"}, {"table", id}, {"seat", 1}})), "no_such_table");

  // A bot cannot be taken over by a person, and removing it frees the seat.
  EXPECT_EQ(code(stranger.request({{"type", "join"}, {"table", id}, {"seat", 2}})), "seat_taken");
  ASSERT_EQ(ann.request({{"type", "remove_bot"}, {"table", id}, {"seat", 2}})["type"], "ack");
  seen = table_where(bo, id, 2, [](const Json& s) { return !s.contains("bot"); });
  EXPECT_TRUE(seen["seats"][2]["name"].is_null());
  EXPECT_FALSE(seen["seats"][2].contains("bot"));

  // The lobby lists bot seats too.
  const Json lobby = stranger.request({{"type", "watch_lobby"}});
  bool listed = false;
  for (const auto& table : lobby["tables"]) {
    if (table["id"] == id) listed = table["seats"][1]["bot"] == "normal";
  }
  EXPECT_TRUE(listed) << lobby;

  ASSERT_EQ(ann.request({{"type", "start"}, {"table", id}})["type"], "ack");
  EXPECT_EQ(code(ann.request({{"type", "add_bot"}, {"table", id}, {"seat", 2}})), "already_started");
  EXPECT_EQ(code(ann.request({{"type", "remove_bot"}, {"table", id}, {"seat", 1}})), "already_started");
}

TEST(BotSeats, AWaitingTableClosesWhenItsLastPersonLeavesItsBots) {
  server_process server;
  auto t = seat_with_bots(server.port(), "silkroad", {"normal", "easy"}, false);
  auto& ann = *t.players[0];
  ws_client watcher(server.port());
  watcher.wait_type("welcome");
  ASSERT_EQ(watcher.request({{"type", "watch"}, {"invite", t.invite}})["type"], "watching");
  ASSERT_EQ(ann.request({{"type", "leave"}, {"table", t.id}})["type"], "left");
  watcher.wait_for([&](const Json& f) { return f["type"] == "left" && f["table"] == t.id; });
  EXPECT_EQ(watcher.request({{"type", "watch"}, {"invite", t.invite}})["code"], "no_such_table");
}

class OneClientAndBots : public ::testing::TestWithParam<std::string> {};

TEST_P(OneClientAndBots, PlayACompleteGameWhileASpectatorWatches) {
  server_process server;
  auto t = seat_with_bots(server.port(), GetParam(), {"normal", "easy"}, false);
  ws_client spectator_client(server.port());
  spectator_client.wait_type("welcome");
  ASSERT_EQ(spectator_client.request({{"type", "watch"}, {"invite", t.invite}})["type"], "watching");
  start(t);
  auto seats = trackers(t);
  seat_tracker spectator(&spectator_client, t.id);
  const auto played = play(pointers(seats), {&spectator}, 17);
  for (auto* s : {&seats[0], &spectator}) {
    for (int i = 0; i < 200 && !s->over; ++i) {
      s->client->wait_log_beyond(s->cursor, 100ms);
      s->catch_up();
    }
    ASSERT_TRUE(s->over);
  }
  // The bots made most of the moves, and every frame is what the engine filters for its viewer.
  EXPECT_GT(seats[0].events.size(), static_cast<std::size_t>(played.actions) + 10);
  std::unique_ptr<engine::State> replayed;
  expect_frames_match_engine(server.data_dir(), t.id,
                             {{&seats[0], engine::Viewer::of_player(0)}, {&spectator, engine::Viewer::spectator()}},
                             &replayed);
  ASSERT_TRUE(replayed);
  for (const auto* s : {&seats[0], &spectator}) ASSERT_EQ(s->events.size(), replayed->version());
  EXPECT_TRUE(replayed->is_over());
  const auto metrics = http_get(server.port(), "/metrics").body;
  EXPECT_NE(metrics.find("\nemporium_bot_moves_total "), std::string::npos);
  EXPECT_EQ(metrics.find("\nemporium_bot_moves_total 0\n"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(EveryGame, OneClientAndBots, ::testing::Values("medici", "silkroad", "medina", "merkator"),
                         [](const auto& info) { return std::string(info.param); });

TEST(BotRestart, ATableOfBotsAndOneClientSurvivesASigkillAndFinishes) {
  const std::string data = make_temp_dir("emporium-bot-restart");
  std::string id, token;
  std::uint64_t seen = 0;
  {
    server_process first(data);
    auto t = seat_with_bots(first.port(), "medici", {"normal", "normal"});
    id = t.id;
    token = t.tokens[0];
    auto seats = trackers(t);
    play(pointers(seats), {}, 5, 12);
    seats[0].catch_up();
    seen = seats[0].version;
    first.kill_hard();  // bots may be thinking, or a move half-way to the disk
  }
  server_process second(data);
  table_setup t;
  t.id = id;
  t.players.push_back(std::make_unique<ws_client>(second.port()));
  t.players[0]->wait_type("welcome");
  const Json seated = t.players[0]->request({{"type", "resume"}, {"token", token}});
  ASSERT_EQ(seated["type"], "seated") << seated;
  EXPECT_EQ(seated["table"]["seats"][1]["bot"], "normal");
  EXPECT_EQ(seated["table"]["seats"][2]["bot"], "normal");
  auto seats = trackers(t);
  seats[0].client->wait_type("snapshot");
  seats[0].catch_up();
  EXPECT_GE(seats[0].version, seen);  // nothing acknowledged was lost (the bots may have moved on since)
  play(pointers(seats), {}, 6);
  for (int i = 0; i < 200 && !seats[0].over; ++i) {
    seats[0].client->wait_log_beyond(seats[0].cursor, 100ms);
    seats[0].catch_up();
  }
  EXPECT_TRUE(seats[0].over);
  EXPECT_EQ(second.terminate(), 0);
  std::filesystem::remove_all(data);
}

TEST(BotPacing, BotMovesWaitThePauseAfterThePreviousMove) {
  server_process server("", {"--bot-delay-ms", "300"});
  auto t = seat_with_bots(server.port(), "medici", {"easy", "easy"}, false);
  auto seats = trackers(t);
  start(t);
  // The time from each move (ours or a bot's) to the next bot move: never shorter than the pause.
  std::vector<std::chrono::steady_clock::duration> gaps;
  auto last = std::chrono::steady_clock::now();
  const auto deadline = last + 30s;
  while (gaps.size() < 6 && std::chrono::steady_clock::now() < deadline) {
    seats[0].catch_up();
    if (!seats[0].legal.empty()) {  // our move: at once, then past our own events
      const Json reply = t.players[0]->request(
          {{"type", "act"}, {"table", t.id}, {"version", seats[0].version}, {"action", seats[0].legal[0]}});
      ASSERT_EQ(reply["type"], "ack") << reply;
      last = std::chrono::steady_clock::now();
      while (seats[0].version < reply["version"].get<std::uint64_t>()) {
        seats[0].client->wait_log_beyond(seats[0].cursor, 50ms);
        seats[0].catch_up();
      }
      continue;
    }
    const auto before = seats[0].events.size();
    seats[0].client->wait_log_beyond(seats[0].cursor, 20ms);
    seats[0].catch_up();
    if (seats[0].events.size() > before) {
      const auto now = std::chrono::steady_clock::now();
      gaps.push_back(now - last);
      last = now;
    }
  }
  ASSERT_GE(gaps.size(), 6u);
  for (std::size_t i = 0; i < gaps.size(); ++i) EXPECT_GE(gaps[i], 250ms) << "bot move " << i;  // 300 ms less what delivery jitter may take
}

}  // namespace
}  // namespace emporium::testing
