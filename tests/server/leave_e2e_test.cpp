// End-to-end: leaving a running game (a bot plays the seat for the rest of it), and handing an absent
// player's seat to a bot (replace_absent) until that player comes back.
#include <gtest/gtest.h>

#include <functional>
#include <thread>

#include "game_driver.hpp"
#include "test_client.hpp"

namespace emporium::testing {
namespace {

TEST(LeaveRunning, TheLeaversSeatsGoToBotsAndTheGameFinishes) {
  server_process server;
  auto t = seat_players(server.port(), 3, false);
  start(t);
  auto seats = trackers(t);
  // Play until it is seat 1's decision, so that its bot has to take that very decision.
  play(pointers(seats), {}, 3, 1 << 30, [&](const seat_tracker& mover) { return &mover == &seats[1]; });
  ASSERT_FALSE(seats[1].legal.empty());

  const Json left = t.players[1]->request({{"type", "leave"}, {"table", t.id}});
  ASSERT_EQ(left["type"], "left") << left;
  EXPECT_EQ(left["table"], t.id);
  const Json seen = table_where(*t.players[0], t.id, 1, [](const Json& s) { return s.contains("bot"); });
  EXPECT_EQ(seen["state"], "playing");
  EXPECT_EQ(seen["seats"][1], Json::parse(R"({"seat":1,"name":"P1","connected":true,"bot":"normal","stand_in":"left"})"));
  EXPECT_FALSE(seen["seats"][0].contains("stand_in"));

  // The leaver's token is dead, from any connection; the leaver may watch like anyone.
  EXPECT_EQ(code(t.players[1]->request({{"type", "resume"}, {"token", t.tokens[1]}})), "bad_token");
  ws_client other(server.port());
  other.wait_type("welcome");
  EXPECT_EQ(code(other.request({{"type", "resume"}, {"token", t.tokens[1]}})), "bad_token");
  EXPECT_EQ(code(t.players[1]->request({{"type", "act"}, {"table", t.id}, {"version", 0}, {"action", Json::object()}})),
            "no_such_table");
  const Json watching = t.players[1]->request({{"type", "watch"}, {"table", t.id}});
  ASSERT_EQ(watching["type"], "watching") << watching;
  const Json snap = t.players[1]->wait_type("snapshot");
  EXPECT_TRUE(snap["seat"].is_null());
  EXPECT_EQ(snap["legal"], Json::array());

  // The third player leaves as well; the first plays the game out against two stand-in bots.
  ASSERT_EQ(t.players[2]->request({{"type", "leave"}, {"table", t.id}})["type"], "left");
  table_where(*t.players[0], t.id, 2, [](const Json& s) { return s.value("stand_in", "") == "left"; });
  std::vector<seat_tracker*> remaining{&seats[0]};
  finish(remaining, 4);
  t.players[0]->wait_for([&](const Json& f) { return f["type"] == "table" && f["table"]["state"] == "finished"; }, 10s);
  // Once finished, leave just goes.
  EXPECT_EQ(t.players[0]->request({{"type", "leave"}, {"table", t.id}})["type"], "left");
}

TEST(LeaveRunning, TheStandInKeepsPlayingAfterASigkill) {
  const std::string data = make_temp_dir("emporium-leave-restart");
  std::string id, token0, token1;
  {
    server_process first(data);
    auto t = seat_players(first.port(), 3, false);
    start(t);
    id = t.id;
    token0 = t.tokens[0];
    token1 = t.tokens[1];
    ASSERT_EQ(t.players[1]->request({{"type", "leave"}, {"table", t.id}})["type"], "left");
    ASSERT_EQ(t.players[2]->request({{"type", "leave"}, {"table", t.id}})["type"], "left");
    auto seats = trackers(t);
    std::vector<seat_tracker*> me{&seats[0]};
    play(me, {}, 8, 6);
    first.kill_hard();
  }
  server_process second(data);
  ws_client ann(second.port());
  ann.wait_type("welcome");
  const Json seated = ann.request({{"type", "resume"}, {"token", token0}});
  ASSERT_EQ(seated["type"], "seated") << seated;
  EXPECT_EQ(seated["table"]["seats"][1]["bot"], "normal");
  EXPECT_EQ(seated["table"]["seats"][1]["stand_in"], "left");
  EXPECT_EQ(seated["table"]["seats"][1]["name"], "P1");
  EXPECT_EQ(seated["table"]["seats"][2]["stand_in"], "left");
  ws_client bo(second.port());
  bo.wait_type("welcome");
  EXPECT_EQ(code(bo.request({{"type", "resume"}, {"token", token1}})), "bad_token");
  seat_tracker tracker(&ann, id);
  finish({&tracker}, 9);
  EXPECT_EQ(second.terminate(), 0);
  std::filesystem::remove_all(data);
}

TEST(ReplaceAbsent, RefusedBeforeTheThresholdThenABotPlaysUntilThePlayerComesBack) {
  // Bots wait 1.5 s after the previous move, so a bot decision is still pending when the player comes back.
  server_process server("", {"--absent-after-s", "2", "--bot-delay-ms", "1500"});
  auto t = seat_players(server.port(), 3, false);
  ws_client spectator(server.port());
  spectator.wait_type("welcome");
  ASSERT_EQ(spectator.request({{"type", "watch"}, {"table", t.id}})["type"], "watching");
  EXPECT_EQ(code(t.players[0]->request({{"type", "replace_absent"}, {"table", t.id}, {"seat", 2}})), "not_started");
  start(t);
  auto seats = trackers(t);

  // Nobody is away: refused. Then P2 goes.
  Json reply = t.players[0]->request({{"type", "replace_absent"}, {"table", t.id}, {"seat", 2}});
  EXPECT_EQ(code(reply), "not_absent") << reply;
  t.players[2]->close();
  const Json away = table_where(*t.players[1], t.id, 2, [](const Json& s) { return s.contains("away_s"); });
  EXPECT_EQ(away["seats"][2]["connected"], false);
  EXPECT_GE(away["seats"][2]["away_s"].get<int>(), 0);
  EXPECT_FALSE(away["seats"][0].contains("away_s"));

  reply = t.players[0]->request({{"type", "replace_absent"}, {"table", t.id}, {"seat", 2}});
  EXPECT_EQ(code(reply), "not_absent") << reply;
  EXPECT_NE(reply["message"].get<std::string>().find("P2 has been away for"), std::string::npos) << reply;
  EXPECT_NE(reply["message"].get<std::string>().find("after 2 seconds"), std::string::npos) << reply;
  // Refusals: a spectator, one's own seat, no such seat.
  EXPECT_EQ(code(spectator.request({{"type", "replace_absent"}, {"table", t.id}, {"seat", 2}})), "not_seated");
  EXPECT_EQ(code(t.players[0]->request({{"type", "replace_absent"}, {"table", t.id}, {"seat", 0}})), "bad_message");
  EXPECT_EQ(code(t.players[0]->request({{"type", "replace_absent"}, {"table", t.id}, {"seat", 7}})), "bad_message");
  ws_client stranger(server.port());
  stranger.wait_type("welcome");
  EXPECT_EQ(code(stranger.request({{"type", "replace_absent"}, {"table", t.id}, {"seat", 2}})), "no_such_table");

  std::this_thread::sleep_for(2100ms);
  reply = t.players[1]->request({{"type", "replace_absent"}, {"table", t.id}, {"seat", 2}});
  ASSERT_EQ(reply["type"], "ack") << reply;
  const Json replaced = table_where(*t.players[0], t.id, 2, [](const Json& s) { return s.contains("bot"); });
  EXPECT_EQ(replaced["seats"][2],
            Json::parse(R"({"seat":2,"name":"P2","connected":true,"bot":"normal","stand_in":"absent"})"));
  // Now a bot seat: refused.
  EXPECT_EQ(code(t.players[0]->request({{"type", "replace_absent"}, {"table", t.id}, {"seat", 2}})), "bad_message");

  // Play until, just after a move of ours, it is seat 2's decision: its bot is waiting out its pause.
  std::vector<seat_tracker*> people{&seats[0], &seats[1]};
  bool bot_pending = false;
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (!bot_pending && std::chrono::steady_clock::now() < deadline) {
    for (auto* s : people) s->catch_up();
    ASSERT_FALSE(seats[0].over) << "the game ended before seat 2 had a decision";
    seat_tracker* mover = !seats[0].legal.empty() ? &seats[0] : !seats[1].legal.empty() ? &seats[1] : nullptr;
    if (!mover) {
      seats[0].client->wait_log_beyond(seats[0].cursor, 20ms);
      continue;
    }
    act_first(*mover, people);
    for (auto* s : people) s->catch_up();
    bot_pending = seats[0].legal.empty() && seats[1].legal.empty() && !seats[0].over;
  }
  ASSERT_TRUE(bot_pending);
  const std::uint64_t pending_at = seats[0].version;

  // P2 comes back with their token: the seat is theirs at once, and the bot's pending move is dropped.
  auto back = std::make_unique<ws_client>(server.port());
  back->wait_type("welcome");
  const Json seated = back->request({{"type", "resume"}, {"token", t.tokens[2]}});
  ASSERT_EQ(seated["type"], "seated") << seated;
  EXPECT_EQ(seated["seat"], 2);
  EXPECT_EQ(seated["reclaimed"], true);
  EXPECT_EQ(seated["table"]["seats"][2], Json::parse(R"({"seat":2,"name":"P2","connected":true})"));
  const Json snap = back->wait_type("snapshot");
  EXPECT_EQ(snap["version"], pending_at);
  EXPECT_FALSE(snap["legal"].empty()) << "it is P2's decision";
  table_where(*t.players[0], t.id, 2, [](const Json& s) { return !s.contains("bot"); });
  // Well past the bot's pause: nobody moved for seat 2.
  std::this_thread::sleep_for(2500ms);
  seats[0].catch_up();
  EXPECT_EQ(seats[0].version, pending_at);

  // The three people play it out.
  t.players[2] = std::move(back);
  seats[2] = seat_tracker(t.players[2].get(), t.id);
  seats[2].catch_up();
  finish(pointers(seats), 12);
}

TEST(ReplaceAbsent, AfterARestartTheStandInIsBackAbsenceCountsFromTheRestartAndThePlayerCanComeBack) {
  const std::string data = make_temp_dir("emporium-absent-restart");
  const std::vector<std::string> args{"--absent-after-s", "2"};
  std::string id;
  std::vector<std::string> tokens;
  {
    server_process first(data, args);
    auto t = seat_players(first.port(), 3, false);
    start(t);
    id = t.id;
    tokens = t.tokens;
    t.players[2]->close();
    table_where(*t.players[0], t.id, 2, [](const Json& s) { return s.contains("away_s"); });
    std::this_thread::sleep_for(2100ms);
    ASSERT_EQ(t.players[0]->request({{"type", "replace_absent"}, {"table", t.id}, {"seat", 2}})["type"], "ack");
    table_where(*t.players[0], t.id, 2, [](const Json& s) { return s.contains("bot"); });
    first.kill_hard();
  }
  server_process second(data, args);
  auto ann = std::make_unique<ws_client>(second.port());
  ann->wait_type("welcome");
  const Json seated = ann->request({{"type", "resume"}, {"token", tokens[0]}});
  ASSERT_EQ(seated["type"], "seated") << seated;
  EXPECT_EQ(seated["table"]["seats"][2]["bot"], "normal");
  EXPECT_EQ(seated["table"]["seats"][2]["stand_in"], "absent");
  // P1 has not come back since the restart: away, but only since the restart.
  ASSERT_TRUE(seated["table"]["seats"][1].contains("away_s")) << seated;
  EXPECT_LT(seated["table"]["seats"][1]["away_s"].get<int>(), 2);
  EXPECT_EQ(code(ann->request({{"type", "replace_absent"}, {"table", id}, {"seat", 1}})), "not_absent");

  // P2's token still works after the restart: the seat is P2's again.
  auto cy = std::make_unique<ws_client>(second.port());
  cy->wait_type("welcome");
  const Json back = cy->request({{"type", "resume"}, {"token", tokens[2]}});
  ASSERT_EQ(back["type"], "seated") << back;
  EXPECT_EQ(back["reclaimed"], true);
  EXPECT_FALSE(back["table"]["seats"][2].contains("bot"));
  auto bo = std::make_unique<ws_client>(second.port());
  bo->wait_type("welcome");
  ASSERT_EQ(bo->request({{"type", "resume"}, {"token", tokens[1]}})["type"], "seated");
  table_setup t;
  t.id = id;
  t.players.push_back(std::move(ann));
  t.players.push_back(std::move(bo));
  t.players.push_back(std::move(cy));
  auto seats = trackers(t);
  finish(pointers(seats), 21);
  EXPECT_EQ(second.terminate(), 0);
  std::filesystem::remove_all(data);
}

// Issue 36 (6): a casual game of one person against bots does not wait forever for a person who went away: after
// --forsaken-after-s their seat passes to a bot, as if they had left, and the bots play it to its end.
TEST(Forsaken, AGameOfOnePersonAndBotsIsPlayedOutOnceThePersonHasBeenAway) {
  server_process server("", {"--forsaken-after-s", "1"});
  auto t = seat_with_bots(server.port(), "medici", {"easy", "easy"});
  ws_client watcher(server.port());
  watcher.wait_type("welcome");
  ASSERT_EQ(watcher.request({{"type", "watch"}, {"invite", t.invite}})["type"], "watching");
  // Connected, the person is waited for however long they think.
  std::this_thread::sleep_for(1500ms);
  const Json waiting = watcher.request({{"type", "snapshot"}, {"table", t.id}});
  ASSERT_EQ(waiting["type"], "snapshot");
  EXPECT_NE(waiting["view"]["phase"], "over");
  t.players[0]->close();
  const Json over = watcher.wait_for(
      [&](const Json& f) { return f["type"] == "table" && f["table"]["id"] == t.id && f["table"]["state"] == "finished"; },
      30s);
  EXPECT_EQ(over["table"]["seats"][0]["stand_in"], "left");
  EXPECT_EQ(over["table"]["seats"][0]["bot"], "normal");
}

}  // namespace
}  // namespace emporium::testing
