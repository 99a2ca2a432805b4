// End-to-end: turn clocks. Time runs out and the normal bot decides; three timeouts in a row hand the seat to
// the bot until its player resumes; a crash and a restart neither lose a deadline nor charge the downtime; a
// vacation stops a correspondence clock, across a restart, and it goes on with the time it had.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <thread>

#include "game_driver.hpp"
#include "people_client.hpp"
#include "test_client.hpp"

namespace emporium::testing {
namespace {

// Turns as short as 1 s are allowed here, so clocks run out within a test.
std::vector<std::string> quick_clocks() { return {"--min-turn-s", "1"}; }

// The seat whose decision it is, from the trackers' legal lists; -1 when nobody's.
int mover_of(std::vector<seat_tracker>& seats) {
  for (std::size_t i = 0; i < seats.size(); ++i) {
    if (!seats[i].legal.empty()) return static_cast<int>(i);
  }
  return -1;
}

// Waits for the next events frame that starts with a timeout, and returns the frame.
Json next_timeout(ws_client& c, std::chrono::milliseconds within) {
  return c.wait_for(
      [](const Json& f) {
        return f["type"] == "events" && !f["events"].empty() && f["events"][0]["type"] == "timeout";
      },
      within);
}

TEST(Clocks, TimeRunsOutTheBotDecidesAndTheNextDecisionsClockStarts) {
  server_process server("", quick_clocks());
  auto t = seat_players(server.port(), 3, false, "medici", {{"turn", 2}, {"reserve", 0}});
  EXPECT_EQ(code(t.players[0]->request({{"type", "replace_absent"}, {"table", t.id}, {"seat", 1}})), "not_started");
  start(t);
  const auto started = std::chrono::steady_clock::now();
  auto seats = trackers(t);
  for (auto& s : seats) {
    s.client->wait_type("snapshot");
    s.catch_up();
  }
  const int first = mover_of(seats);
  ASSERT_GE(first, 0);
  // Every seat is shown the same clock: the mover's 2 s running, nobody's reserve.
  for (auto& s : seats) {
    ASSERT_TRUE(s.clock.is_object()) << "the snapshot carries the clock";
    EXPECT_EQ(s.clock["running"]["seat"], first);
    EXPECT_GT(s.clock["running"]["turn_ms"].get<int>(), 1000);
    EXPECT_LE(s.clock["running"]["turn_ms"].get<int>(), 2000);
    EXPECT_EQ(s.clock["running"]["reserve_ms"], 0);
    EXPECT_EQ(s.clock["timeouts"], Json::parse("[0,0,0]"));
  }
  // A timed table: the clock, not replace_absent, deals with a player who is gone.
  const Json refused = t.players[first == 0 ? 1 : 0]->request({{"type", "replace_absent"}, {"table", t.id}, {"seat", first}});
  EXPECT_EQ(code(refused), "bad_message");
  EXPECT_NE(refused["message"].get<std::string>().find("clock"), std::string::npos) << refused;

  // Nobody moves: after 2 s the bot moves for the first seat, and everyone is told so first.
  const Json out = next_timeout(*t.players[0], 6s);
  const auto waited = std::chrono::steady_clock::now() - started;
  EXPECT_GE(waited, 1900ms);
  EXPECT_EQ(out["events"][0], Json({{"type", "timeout"}, {"player", first}}));
  EXPECT_GT(out["events"].size(), 1u) << "the move's own events follow";
  EXPECT_EQ(out["clock"]["timeouts"][first], 1);
  for (auto& s : seats) {
    s.client->wait_log_beyond(s.cursor, 1s);
    s.catch_up();
  }
  const int second = mover_of(seats);
  ASSERT_GE(second, 0);
  EXPECT_EQ(out["clock"]["running"]["seat"], second);
  EXPECT_GT(out["clock"]["running"]["turn_ms"].get<int>(), 1500) << "the next decision starts with the whole turn";

  // That decision runs out too, about 2 s later: its clock did start.
  const auto second_started = std::chrono::steady_clock::now();
  const Json again = next_timeout(*t.players[0], 6s);
  EXPECT_GE(std::chrono::steady_clock::now() - second_started, 1000ms);
  EXPECT_EQ(again["events"][0]["player"], second);
}

TEST(Clocks, ThreeTimeoutsHandTheSeatToTheBotAndResumeTakesItBack) {
  server_process server("", quick_clocks());
  auto t = seat_players(server.port(), 3, false, "medici", {{"turn", 2}, {"reserve", 0}});
  start(t);
  auto seats = trackers(t);
  // P0 and P1 move as soon as it is their decision; P2 never does. Returns the timeouts of P2 seen so far.
  auto play_on = [&](const std::function<bool()>& done) {
    const auto deadline = std::chrono::steady_clock::now() + 90s;
    while (!done() && std::chrono::steady_clock::now() < deadline) {
      for (auto& s : seats) s.catch_up();
      if (seats[0].over) return;
      const bool settled = seats[0].version == seats[1].version && seats[1].version == seats[2].version;
      const int mover = settled ? mover_of(seats) : -1;
      if (mover == 0 || mover == 1) {
        // A refusal (the table moved on meanwhile) is fine: the next round sees the new version.
        seats[mover].client->request({{"type", "act"}, {"table", t.id}, {"version", seats[mover].version},
                                      {"action", seats[mover].legal[0]}});
      } else {
        seats[0].client->wait_log_beyond(seats[0].cursor, 50ms);
      }
    }
  };
  auto timeouts_from = [&](std::size_t first_event, int player) {
    int n = 0;
    for (std::size_t i = first_event; i < seats[0].events.size(); ++i) {
      n += !seats[0].events[i].empty() && seats[0].events[i][0] == Json({{"type", "timeout"}, {"player", player}});
    }
    return n;
  };
  play_on([&] { return timeouts_from(0, 2) >= 3; });
  ASSERT_FALSE(seats[0].over) << "the game ended before P2 timed out three times";
  ASSERT_EQ(timeouts_from(0, 2), 3);
  // The seat is now the bot's, and the player's token still works. (From the log: the requests above took the
  // table frames out of the inbox.)
  Json seat2;
  for (int i = 0; i < 50 && !seat2.contains("bot"); ++i) {
    seats[0].client->wait_log_beyond(seats[0].client->log().size(), 100ms);
    for (const auto& frame : seats[0].client->log()) {
      const Json f = Json::parse(frame);
      if (f["type"] == "table") seat2 = f["table"]["seats"][2];
    }
  }
  EXPECT_EQ(seat2, Json::parse(R"({"seat":2,"name":"P2","connected":true,"bot":"normal","stand_in":"timeout"})"));

  // The bot now plays seat 2 off the clock: P2's decisions are made with no further timeouts.
  const std::size_t seen = seats[0].events.size();
  auto p2_moves = [&] {
    int n = 0;
    for (std::size_t i = seen; i < seats[0].events.size(); ++i) {
      for (const auto& e : seats[0].events[i]) n += e.value("type", "") != "timeout" && e.value("player", -1) == 2;
    }
    return n;
  };
  play_on([&] { return p2_moves() >= 3; });
  EXPECT_GE(p2_moves(), 3) << "the bot made P2's decisions";
  EXPECT_EQ(timeouts_from(seen, 2), 0);

  // P2, still connected, takes the seat back with its token: a notice, a clean slate of timeouts.
  const Json back = t.players[2]->request({{"type", "resume"}, {"token", t.tokens[2]}});
  ASSERT_EQ(back["type"], "seated") << back;
  EXPECT_EQ(back["reclaimed"], true);
  EXPECT_EQ(back["table"]["seats"][2], Json::parse(R"({"seat":2,"name":"P2","connected":true})"));
  EXPECT_EQ(back["clock"]["timeouts"][2], 0);
  table_where(*t.players[0], t.id, 2, [](const Json& s) { return !s.contains("bot"); });
}

TEST(Clocks, ASigkillAndARestartTenSecondsLaterLoseNoTimeAndChargeNone) {
  const std::string data = make_temp_dir("emporium-clock-restart");
  std::string token;
  int mover = -1;
  {
    server_process first(data);
    auto t = seat_players(first.port(), 3, false, "medici", {{"turn", 30}, {"reserve", 60}});
    start(t);
    const Json snap = t.players[0]->wait_type("snapshot");
    ASSERT_TRUE(snap.contains("clock")) << snap;
    mover = snap["clock"]["running"]["seat"];
    token = t.tokens[0];
    // Three seconds of the first decision go by, then the server dies.
    std::this_thread::sleep_for(3s);
    first.kill_hard();
  }
  std::this_thread::sleep_for(10s);
  server_process second(data);
  ws_client ann(second.port());
  ann.wait_type("welcome");
  const Json seated = ann.request({{"type", "resume"}, {"token", token}});
  ASSERT_EQ(seated["type"], "seated") << seated;
  EXPECT_EQ(seated["table"]["clock"], Json::parse(R"({"turn":30,"reserve":60})"));
  const Json& running = seated["clock"]["running"];
  ASSERT_TRUE(running.is_object()) << seated;
  EXPECT_EQ(running["seat"], mover);
  // About 27 s were left at the kill (the sign of life is written every second, so up to 1 s more).
  const int left = running["turn_ms"];
  EXPECT_GE(left, 25500) << "the 10 s the server was down were charged";
  EXPECT_LE(left, 28100) << "the time before the crash was given back";
  EXPECT_EQ(running["reserve_ms"], 60000);
  const Json snap = ann.wait_type("snapshot");
  EXPECT_EQ(snap["clock"]["running"]["seat"], mover);
  EXPECT_LE(snap["clock"]["running"]["turn_ms"].get<int>(), left);
  EXPECT_EQ(second.terminate(), 0);
  std::filesystem::remove_all(data);
}

TEST(Clocks, UntimedTablesCarryNoClock) {
  server_process server;
  auto t = seat_players(server.port(), 3, false);
  start(t);
  const Json snap = t.players[0]->wait_type("snapshot");
  EXPECT_FALSE(snap.contains("clock"));
  const Json table = t.players[0]->request({{"type", "snapshot"}, {"table", t.id}});
  EXPECT_FALSE(table.contains("clock"));
  ws_client bad(server.port());
  bad.wait_type("welcome");
  // The shortest turn is 5 s unless the server says otherwise.
  const Json refused = bad.request({{"type", "create_table"}, {"game", "medici"}, {"players", 3},
                                    {"clock", {{"turn", 2}, {"reserve", 0}}}});
  EXPECT_EQ(code(refused), "bad_message");
  EXPECT_NE(refused["message"].get<std::string>().find("from 5 to 86400"), std::string::npos) << refused;
}

TEST(Clocks, AVacationStopsACorrespondenceClockUntilItEndsAndTheTimeLeftIsKept) {
  // Three seconds a move count as correspondence here.
  const std::vector<std::string> args{"--min-turn-s", "1", "--correspondence-turn-s", "3"};
  auto server = std::make_unique<server_process>("", args);
  person ann(server->port(), "Ann");
  // Two games against a bot, Ann to move in both: one table allows vacations, one forbids them.
  auto game_against_a_bot = [&](const Json& clock) {
    const Json seated = ann.ws->request({{"type", "create_table"}, {"game", "medici"}, {"players", 2}, {"clock", clock}});
    expect_type(seated, "seated");
    const std::string id = seated["table"]["id"];
    EXPECT_EQ(seated["table"]["clock"], clock);
    expect_type(ann.ws->request({{"type", "add_bot"}, {"table", id}, {"seat", 1}, {"level", "easy"}}), "ack");
    expect_type(ann.ws->request({{"type", "start"}, {"table", id}}), "ack");
    return id;
  };
  const std::string id = game_against_a_bot({{"turn", 3}, {"reserve", 0}});
  const std::string strict = game_against_a_bot({{"turn", 3}, {"reserve", 0}, {"vacations", false}});
  auto paused_frame = [&](ws_client& c) {
    return c.wait_for([&](const Json& f) {
      return f["type"] == "table" && f["table"]["id"] == id && f.contains("clock") && f["clock"].contains("paused");
    });
  };
  // Her decision (the bot may have moved first), then her vacation: a day of the year's 21.
  seat_tracker mine(ann.ws.get(), id);
  for (int i = 0; i < 100 && mine.legal.empty(); ++i) {
    ann.ws->wait_log_beyond(mine.cursor, 50ms);
    mine.catch_up();
  }
  ASSERT_FALSE(mine.legal.empty()) << "Ann's decision never came";
  const long long asked_at = std::chrono::duration_cast<std::chrono::seconds>(
                                 std::chrono::system_clock::now().time_since_epoch()).count();
  const auto started = ann.web.post("/api/account/vacation", {{"days", 1}});
  ASSERT_EQ(started.status, 200) << started.body;
  const Json vacation = body_of(started)["vacation"];
  EXPECT_NEAR(vacation["until"].get<double>(), static_cast<double>(asked_at + 86400), 5) << vacation;
  EXPECT_EQ(vacation["days_left"], 20);
  EXPECT_EQ(vacation["days_per_year"], 21);
  EXPECT_EQ(body_of(ann.web.get("/api/account"))["vacation"], vacation);

  // Everyone sees until when; her decision's clock stands still, with the turn time it had left.
  const Json paused = paused_frame(*ann.ws);
  EXPECT_EQ(paused["table"]["seats"][0]["vacation_until"], vacation["until"]);
  EXPECT_EQ(paused["clock"]["running"], nullptr);
  EXPECT_EQ(paused["clock"]["paused"]["seat"], 0);
  long long left = paused["clock"]["paused"]["turn_ms"];
  EXPECT_GT(left, 0);
  EXPECT_LE(left, 3000);
  // Longer than a turn later nothing was decided for her, and her games list says the clock is paused.
  std::this_thread::sleep_for(4s);
  const Json later = ann.ws->request({{"type", "snapshot"}, {"table", id}});
  EXPECT_EQ(later["version"], mine.version);
  EXPECT_EQ(later["clock"]["paused"]["turn_ms"], left);
  const Json games = ann.ws->request({{"type", "my_games"}, {"tokens", Json::array()}});
  const auto entry = std::find_if(games["games"].begin(), games["games"].end(), [&](const Json& g) { return g["table"] == id; });
  ASSERT_NE(entry, games["games"].end()) << games;
  EXPECT_EQ((*entry)["clock"], Json({{"seat", 0}, {"left_ms", left}, {"paused", true}}));
  // The table that forbids vacations ran on: its clock is not paused, and nobody is shown on vacation there.
  const Json other = ann.ws->request({{"type", "snapshot"}, {"table", strict}});
  EXPECT_FALSE(other["clock"].contains("paused")) << other["clock"];
  EXPECT_FALSE(ann.ws->request({{"type", "resume"}, {"table", strict}})["table"]["seats"][0].contains("vacation_until"));

  // A restart keeps the vacation and the paused decision.
  const std::string data = server->data_dir();
  EXPECT_EQ(server->terminate(), 0);
  auto again = std::make_unique<server_process>(data, args);
  ann.web.reconnect(again->port());
  ann.connect(again->port());
  expect_type(ann.ws->request({{"type", "resume"}, {"table", id}}), "seated");
  Json restored;
  for (int i = 0; i < 50 && !restored["clock"].contains("paused"); ++i) {  // the vacation is read after the load
    if (i > 0) std::this_thread::sleep_for(100ms);
    restored = ann.ws->request({{"type", "snapshot"}, {"table", id}});
  }
  EXPECT_EQ(restored["version"], mine.version);
  ASSERT_TRUE(restored["clock"].contains("paused")) << restored["clock"];
  EXPECT_LE(restored["clock"]["paused"]["turn_ms"].get<long long>(), left);
  EXPECT_GE(restored["clock"]["paused"]["turn_ms"].get<long long>(), left - 1000) << "the restart was charged to her";
  left = restored["clock"]["paused"]["turn_ms"];

  // She ends it: the clock runs again from where it stopped, and when that runs out the bot decides for her.
  const auto ended = ann.web.post("/api/account/vacation/end", Json::object());
  ASSERT_EQ(ended.status, 200) << ended.body;
  EXPECT_EQ(body_of(ended)["vacation"]["until"], nullptr);
  EXPECT_EQ(body_of(ended)["vacation"]["days_left"], 20) << "the day it began is used";
  const Json running = ann.ws->wait_for([&](const Json& f) {
    return f["type"] == "table" && f["table"]["id"] == id && f.contains("clock") && !f["clock"]["running"].is_null();
  });
  EXPECT_FALSE(running["table"]["seats"][0].contains("vacation_until"));
  EXPECT_LE(running["clock"]["running"]["turn_ms"].get<long long>(), left);
  const Json timeout = next_timeout(*ann.ws, std::chrono::milliseconds(left + 3000));
  EXPECT_EQ(timeout["table"], id);
  EXPECT_EQ(timeout["events"][0]["player"], 0);
  EXPECT_EQ(again->terminate(), 0);
}

}  // namespace
}  // namespace emporium::testing
