// End-to-end: a rematch of a finished table (the offer, reserved seats, the same bot, a restart in between),
// and my_games, which describes the tables of seat tokens without seating the connection anywhere.
#include <gtest/gtest.h>

#include <set>

#include "game_driver.hpp"
#include "store/sqlite_store.hpp"
#include "test_client.hpp"

namespace emporium::testing {
namespace {

const std::vector<std::string> kFast{"--bot-delay-ms", "0"};

ws_client& connect(std::unique_ptr<ws_client>& c, std::uint16_t port) {
  c = std::make_unique<ws_client>(port);
  c->wait_type("welcome");
  return *c;
}

// Three people (P0 created it) and a normal bot in seat 3 of a Medici table, played to the end.
table_setup finished_with_a_bot(std::uint16_t port, bool is_private, std::uint64_t rng_seed) {
  auto t = seat_players(port, 3, is_private, "medici", nullptr, 4);
  const Json bot = t.players[0]->request({{"type", "add_bot"}, {"table", t.id}, {"seat", 3}});
  if (bot["type"] != "ack") throw std::runtime_error("add_bot: " + bot.dump());
  start(t);
  auto seats = trackers(t);
  finish(pointers(seats), rng_seed);
  return t;
}

Json rematch(ws_client& c, const std::string& table) { return c.request({{"type", "rematch"}, {"table", table}}); }

// The rematch's seats while only `offerer` has taken theirs: the other people's are kept, the bot is back.
void expect_offered_seats(const Json& table, int offerer) {
  for (int seat = 0; seat < 3; ++seat) {
    const Json name = "P" + std::to_string(seat);
    if (seat == offerer) {
      EXPECT_EQ(table["seats"][seat], Json({{"seat", seat}, {"name", name}, {"connected", true}})) << table;
    } else {
      EXPECT_EQ(table["seats"][seat], Json({{"seat", seat}, {"name", name}, {"connected", false}, {"reserved", true}}))
          << table;
    }
  }
  EXPECT_EQ(table["seats"][3], Json::parse(R"({"seat":3,"name":"Bot 1","connected":true,"bot":"normal"})"));
}

TEST(Rematch, ThreePeopleAndTheirBotPlayAgain) {
  server_process server("", kFast);
  auto t = finished_with_a_bot(server.port(), true, 31);
  const std::string old_id = t.id;

  // P1 offers: a new private table of the same game and seats, with P1 at their seat as its creator.
  const Json seated = rematch(*t.players[1], old_id);
  ASSERT_EQ(seated["type"], "seated") << seated;
  const Json next = seated["table"];
  const std::string id = next["id"];
  EXPECT_NE(id, old_id);
  EXPECT_EQ(next["rematch_of"], old_id);
  EXPECT_EQ(next["state"], "waiting");
  EXPECT_EQ(next["game"], "medici");
  EXPECT_EQ(next["players"], 4);
  EXPECT_EQ(next["private"], true);
  EXPECT_EQ(next["creator_seat"], 1);
  EXPECT_EQ(seated["seat"], 1);
  ASSERT_TRUE(seated.contains("invite"));
  EXPECT_NE(seated["invite"], t.invite);
  expect_offered_seats(next, 1);

  // The others hear of it in a table frame of the finished table.
  for (int p : {0, 2}) {
    const Json offer = t.players[p]->wait_for(
        [&](const Json& f) { return f["type"] == "table" && f["table"]["id"] == old_id && f["table"].contains("rematch"); });
    EXPECT_EQ(offer["table"]["state"], "finished");
    EXPECT_EQ(offer["table"]["rematch"], Json({{"table", id}, {"by", 1}, {"invite", seated["invite"]}}));
  }

  // A stranger with the invite cannot have a kept seat, and the bot's and P1's are taken: no seat is free.
  std::unique_ptr<ws_client> stranger_client;
  auto& stranger = connect(stranger_client, server.port());
  const Json refused = stranger.request({{"type", "join"}, {"invite", seated["invite"]}, {"seat", 0}});
  EXPECT_EQ(code(refused), "seat_taken") << refused;
  EXPECT_EQ(refused["message"], "seat 0 is kept for P0");
  EXPECT_EQ(code(stranger.request({{"type", "join"}, {"invite", seated["invite"]}})), "table_full");
  // Nor can the stranger accept for P0: they were never at the finished table.
  ASSERT_EQ(stranger.request({{"type", "watch"}, {"table", old_id}})["code"], "no_such_table");  // private
  ASSERT_EQ(stranger.request({{"type", "watch"}, {"invite", t.invite}})["type"], "watching");
  EXPECT_EQ(code(rematch(stranger, old_id)), "not_seated");

  // The others accept, each into their own seat. Asking twice gives the same seat with a fresh token (the
  // server keeps only tokens' hashes, so it cannot send the first again); the first one stops working.
  for (int p : {0, 2}) {
    const Json accepted = rematch(*t.players[p], old_id);
    ASSERT_EQ(accepted["type"], "seated") << accepted;
    EXPECT_EQ(accepted["table"]["id"], id);
    EXPECT_EQ(accepted["seat"], p);
    EXPECT_EQ(accepted["invite"], seated["invite"]);
    EXPECT_FALSE(accepted["table"]["seats"][p].contains("reserved"));
    const Json again = rematch(*t.players[p], old_id);
    EXPECT_EQ(again["seat"], p);
    EXPECT_NE(again["token"], accepted["token"]);
    ws_client other(server.port());
    other.wait_type("welcome");
    EXPECT_EQ(code(other.request({{"type", "resume"}, {"token", accepted["token"]}})), "bad_token");
  }
  EXPECT_EQ(code(t.players[0]->request({{"type", "start"}, {"table", id}})), "not_creator");
  ASSERT_EQ(t.players[1]->request({{"type", "start"}, {"table", id}})["type"], "ack");

  // The same three people and the bot play the new game.
  const Json playing = t.players[0]->wait_for(
      [&](const Json& f) { return f["type"] == "table" && f["table"]["id"] == id && f["table"]["state"] == "playing"; });
  for (int seat = 0; seat < 3; ++seat) {
    EXPECT_EQ(playing["table"]["seats"][seat], Json({{"seat", seat}, {"name", "P" + std::to_string(seat)}, {"connected", true}}));
  }
  EXPECT_EQ(playing["table"]["seats"][3]["bot"], "normal");
  table_setup again;
  again.id = id;
  again.players = std::move(t.players);
  auto seats = trackers(again);
  play(pointers(seats), {}, 32, 10);
  EXPECT_GE(seats[0].version, 10u);

  // Too late to accept now, and the running rematch cannot be rematched.
  EXPECT_EQ(code(rematch(*again.players[1], old_id)), "already_started");
  EXPECT_EQ(code(rematch(*again.players[0], id)), "not_finished");
}

// Issue 36: a rematch with nobody but bots besides its offerer starts at once (no second "Start the game").
TEST(Rematch, AgainstBotsAloneItStartsAtOnce) {
  server_process server("", kFast);
  auto t = seat_with_bots(server.port(), "medici", {"easy", "easy"});
  auto seats = trackers(t);
  finish(pointers(seats), 5);
  const Json seated = rematch(*t.players[0], t.id);
  ASSERT_EQ(seated["type"], "seated") << seated;
  const std::string id = seated["table"]["id"];
  const Json playing = t.players[0]->wait_for(
      [&](const Json& f) { return f["type"] == "table" && f["table"]["id"] == id && f["table"]["state"] == "playing"; });
  EXPECT_EQ(playing["table"]["seats"][1]["bot"], "easy");
  const Json snapshot = t.players[0]->wait_for([&](const Json& f) { return f["type"] == "snapshot" && f["table"] == id; });
  EXPECT_EQ(snapshot["view"]["day"], 1);
}

TEST(Rematch, RefusedUntilTheGameHasEndedThenTheClockCarriesOver) {
  server_process server;
  const Json clock{{"turn", 60}, {"reserve", 30}};
  // Three players: one client playing most of a fast game would run into the message rate limit.
  auto t = seat_players(server.port(), 3, false, "medici", clock);
  EXPECT_EQ(code(rematch(*t.players[0], t.id)), "not_finished");  // waiting
  start(t);
  EXPECT_EQ(code(rematch(*t.players[1], t.id)), "not_finished");  // playing
  std::unique_ptr<ws_client> stranger;
  EXPECT_EQ(code(rematch(connect(stranger, server.port()), t.id)), "no_such_table");
  auto seats = trackers(t);
  finish(pointers(seats), 21);
  const Json seated = rematch(*t.players[1], t.id);
  ASSERT_EQ(seated["type"], "seated") << seated;
  EXPECT_EQ(seated["table"]["clock"], clock);
  EXPECT_EQ(seated["table"]["seats"][0]["reserved"], true);
}

TEST(Rematch, TheOfferAndTheKeptSeatsSurviveARestart) {
  const std::string data = make_temp_dir("emporium-rematch-restart");
  std::string old_id, id;
  std::vector<std::string> old_tokens;
  std::string p0_token;
  {
    server_process first(data, kFast);
    auto t = finished_with_a_bot(first.port(), false, 41);
    old_id = t.id;
    old_tokens = t.tokens;
    const Json seated = rematch(*t.players[0], old_id);
    ASSERT_EQ(seated["type"], "seated") << seated;
    id = seated["table"]["id"];
    p0_token = seated["token"];
    EXPECT_FALSE(seated.contains("invite"));  // public, like the table it replays
    t.players[1]->wait_for([&](const Json& f) { return f["type"] == "table" && f["table"].contains("rematch"); });
    first.kill_hard();
  }
  server_process second(data, kFast);

  // The finished table, described from the store (nobody has brought it back), and the waiting rematch.
  std::unique_ptr<ws_client> asker_client;
  auto& asker = connect(asker_client, second.port());
  const Json mine = asker.request({{"type", "my_games"}, {"tokens", {old_tokens[1], p0_token}}});
  ASSERT_EQ(mine["games"].size(), 2u) << mine;
  EXPECT_EQ(mine["games"][0]["state"], "finished");
  EXPECT_EQ(mine["games"][0]["seats"][3], Json::parse(R"({"seat":3,"name":"Bot 1","bot":"normal"})"));
  EXPECT_TRUE(mine["games"][0]["result"].contains("ranking")) << mine;
  EXPECT_EQ(mine["games"][1]["table"], id);
  EXPECT_EQ(mine["games"][1]["state"], "waiting");
  EXPECT_EQ(mine["games"][1]["seat"], 0);

  // A stranger still finds P1's seat kept; P1 resumes the finished table and sees the offer.
  std::unique_ptr<ws_client> stranger;
  EXPECT_EQ(code(connect(stranger, second.port()).request({{"type", "join"}, {"table", id}, {"seat", 1}})), "seat_taken");
  table_setup t;
  t.id = id;
  for (int p = 0; p < 3; ++p) connect(t.players.emplace_back(), second.port());
  const Json back = t.players[1]->request({{"type", "resume"}, {"token", old_tokens[1]}});
  ASSERT_EQ(back["type"], "seated") << back;
  EXPECT_EQ(back["table"]["rematch"], Json({{"table", id}, {"by", 0}}));
  const Json p0 = t.players[0]->request({{"type", "resume"}, {"token", p0_token}});
  ASSERT_EQ(p0["type"], "seated") << p0;
  EXPECT_EQ(p0["table"]["rematch_of"], old_id);
  expect_offered_seats(p0["table"], 0);

  for (int p : {1, 2}) {
    ASSERT_EQ(t.players[p]->request({{"type", "resume"}, {"token", old_tokens[p]}})["type"], "seated");
    const Json accepted = rematch(*t.players[p], old_id);
    ASSERT_EQ(accepted["type"], "seated") << accepted;
    EXPECT_EQ(accepted["table"]["id"], id);
    EXPECT_EQ(accepted["seat"], p);
  }
  ASSERT_EQ(t.players[0]->request({{"type", "start"}, {"table", id}})["type"], "ack");
  auto seats = trackers(t);
  finish(pointers(seats), 42);
  EXPECT_EQ(second.terminate(), 0);
  std::filesystem::remove_all(data);
}

// The fields a my_games entry may have: nothing of a view, the seed, or a connection.
void expect_only_listed_fields(const Json& reply) {
  const std::set<std::string> entry{"token", "table", "game", "state", "seat", "seats", "your_turn",
                                    "result", "updated", "invite", "to_move", "rated", "clock"};
  const std::set<std::string> seat{"seat", "name", "bot"};
  for (const auto& g : reply["games"]) {
    for (const auto& [key, value] : g.items()) EXPECT_TRUE(entry.count(key)) << key << " in " << g;
    for (const auto& s : g["seats"]) {
      for (const auto& [key, value] : s.items()) EXPECT_TRUE(seat.count(key)) << key << " in " << s;
    }
  }
  for (const char* hidden : {"\"view\"", "\"seed\"", "\"legal\"", "\"events\"", "\"hand\"", "\"connected\""}) {
    EXPECT_EQ(reply.dump().find(hidden), std::string::npos) << hidden << " in " << reply;
  }
}

TEST(MyGames, FinishedRunningAndWaitingTablesWithoutJoiningAnything) {
  server_process server("", kFast);
  // A finished public table, a running private one, one whose seat 1 was left, and a waiting one.
  auto done = seat_players(server.port(), 3, false);
  start(done);
  auto done_seats = trackers(done);
  finish(pointers(done_seats), 51);
  auto running = seat_players(server.port(), 3, true);
  start(running);
  auto running_seats = trackers(running);
  play(pointers(running_seats), {}, 52, 5);
  auto left = seat_players(server.port(), 2, false);
  start(left);
  ASSERT_EQ(left.players[1]->request({{"type", "leave"}, {"table", left.id}})["type"], "left");
  auto waiting = seat_players(server.port(), 1, false, "medici", nullptr, 3);

  std::unique_ptr<ws_client> asker_client;
  auto& asker = connect(asker_client, server.port());
  for (auto& s : running_seats) s.catch_up();
  const Json reply = asker.request({{"type", "my_games"},
                                    {"tokens",
                                     {done.tokens[0], running.tokens[0], running.tokens[1], running.tokens[2],
                                      left.tokens[1], "no-such-token", waiting.tokens[0], done.tokens[2]}}});
  ASSERT_EQ(reply["type"], "my_games") << reply;
  expect_only_listed_fields(reply);
  EXPECT_EQ(reply["unknown"], Json({left.tokens[1], "no-such-token"}));
  const Json& games = reply["games"];
  ASSERT_EQ(games.size(), 6u) << reply;

  // Finished: the engine's result as stored, and nobody's turn.
  const auto stored = emporium::server::SqliteStore(server.data_dir()).load(done.id, false);
  ASSERT_TRUE(stored);
  for (int i : {0, 5}) {
    EXPECT_EQ(games[i]["table"], done.id);
    EXPECT_EQ(games[i]["state"], "finished");
    EXPECT_EQ(games[i]["result"], stored->result);
    EXPECT_EQ(games[i]["your_turn"], false);
    EXPECT_FALSE(games[i].contains("invite"));
    EXPECT_EQ(games[i]["seats"], Json::parse(R"([{"seat":0,"name":"P0"},{"seat":1,"name":"P1"},{"seat":2,"name":"P2"}])"));
  }
  EXPECT_EQ(games[0]["seat"], 0);
  EXPECT_EQ(games[5]["seat"], 2);
  EXPECT_EQ(games[5]["token"], done.tokens[2]);
  EXPECT_TRUE(games[0]["result"]["ranking"].is_array());
  EXPECT_GT(games[0]["updated"].get<long long>(), 1600000000);

  // Running: exactly the seat whose decision it is has its turn.
  int movers = 0;
  for (int seat = 0; seat < 3; ++seat) {
    const Json& g = games[1 + seat];
    EXPECT_EQ(g["table"], running.id);
    EXPECT_EQ(g["state"], "playing");
    EXPECT_EQ(g["seat"], seat);
    EXPECT_TRUE(g["result"].is_null());
    EXPECT_EQ(g["invite"], running.invite);
    EXPECT_EQ(g["your_turn"], !running_seats[seat].legal.empty()) << "seat " << seat;
    movers += g["your_turn"].get<bool>() ? 1 : 0;
  }
  EXPECT_EQ(movers, 1);
  EXPECT_EQ(games[4]["table"], waiting.id);
  EXPECT_EQ(games[4]["state"], "waiting");
  EXPECT_EQ(games[4]["seats"][1], Json::parse(R"({"seat":1,"name":null})"));

  // Non-binding: the asker holds no seat. Not even a watcher who asks about the mover's token may act for it.
  int mover = 0;
  while (running_seats[mover].legal.empty()) ++mover;
  const Json act{{"type", "act"}, {"table", running.id}, {"version", running_seats[mover].version},
                 {"action", running_seats[mover].legal[0]}};
  EXPECT_EQ(code(asker.request(act)), "no_such_table");
  std::unique_ptr<ws_client> watcher_client;
  auto& watcher = connect(watcher_client, server.port());
  ASSERT_EQ(watcher.request({{"type", "watch"}, {"invite", running.invite}})["type"], "watching");
  const Json asked = watcher.request({{"type", "my_games"}, {"tokens", {running.tokens[mover]}}});
  ASSERT_EQ(asked["games"].size(), 1u) << asked;
  EXPECT_EQ(asked["games"][0]["your_turn"], true);
  EXPECT_EQ(code(watcher.request(act)), "not_seated");
  // The seat is still its player's, on their own connection.
  EXPECT_EQ(code(running.players[mover]->request(act)), "ack");
}

}  // namespace
}  // namespace emporium::testing
