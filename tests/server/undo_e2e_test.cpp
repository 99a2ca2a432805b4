// End-to-end: taking back a step (docs/undo.md) over real connections. Within a Medina turn every viewer is told
// what was taken back as they saw it; a Medici draw and another player's move are never taken back; a table may
// turn undo off; an undo is stored like a move (a SIGKILL right after it loses nothing) and the record with it
// verifies; and a preview ("confirm my turn") shows the mover their next steps while nobody else hears a thing.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <thread>

#include "game_driver.hpp"
#include "test_client.hpp"

namespace emporium::testing {
namespace {

const Json kUndoAction = {{"type", "undo"}};

// The legal list of the last game frame `c` got for `table`, undo included (the trackers leave it out).
Json last_legal(const ws_client& c, const std::string& table) {
  Json legal = Json::array();
  for (const auto& text : c.log()) {
    const auto f = Json::parse(text);
    if ((f.value("type", "") == "snapshot" || f.value("type", "") == "events") && f.value("table", "") == table) {
      legal = f["legal"];
    }
  }
  return legal;
}

bool offers_undo(const Json& legal) { return !legal.empty() && legal.back() == kUndoAction; }

void wait_version(const std::vector<seat_tracker*>& all, std::uint64_t v) {
  for (auto* s : all) {
    for (int i = 0; i < 200 && s->version < v; ++i) {
      s->client->wait_log_beyond(s->cursor, 25ms);
      s->catch_up();
    }
    ASSERT_GE(s->version, v) << "a viewer did not see version " << v;
  }
}

// Every viewer has its first snapshot of the started game.
void wait_started(const std::vector<seat_tracker*>& all) {
  for (auto* s : all) {
    s->client->wait_for([&](const Json& f) { return f.value("type", "") == "snapshot" && f.value("table", "") == s->table; });
    s->catch_up();
  }
}

// A started Medina table of three people and a spectator, everyone's first snapshot read.
watched_game started_medina(std::uint16_t port) {
  auto game = start_watched(port, 3, "medina");
  wait_started(game.everyone());
  return game;
}

seat_tracker* mover_of(const std::vector<seat_tracker*>& seats) {
  for (auto* s : seats) {
    if (!s->legal.empty()) return s;
  }
  return nullptr;
}

Json act(seat_tracker& s, const Json& action) {
  return request_within_rate(*s.client, {{"type", "act"}, {"table", s.table}, {"version", s.version}, {"action", action}});
}

Json undo(seat_tracker& s, std::uint64_t version) {
  return request_within_rate(*s.client, {{"type", "undo"}, {"table", s.table}, {"version", version}});
}

Json view_without_version(ws_client& c, const std::string& table) {
  Json snapshot = c.request({{"type", "snapshot"}, {"table", table}});
  Json view = snapshot.at("view");
  view.erase("version");
  return view;
}

TEST(Undo, AMedinaStepIsTakenBackForEveryoneAsTheySawItButNeverAnotherPlayersMove) {
  server_process server;
  auto game = started_medina(server.port());
  const auto& t = game.table;
  auto& watcher = *game.watcher;
  auto people = game.people();
  auto all = game.everyone();
  // The starting resident begins the start player's turn: that is never taken back.
  seat_tracker* mover = mover_of(people);
  ASSERT_NE(mover, nullptr);
  act_first(*mover, all);
  EXPECT_FALSE(offers_undo(last_legal(*mover->client, t.id)));
  const Json before = view_without_version(watcher, t.id);

  // The turn's first piece: the mover alone may take it back, and every viewer hears of it as they saw the step.
  ASSERT_EQ(code(act(*mover, mover->legal[0])), "ack");
  wait_version(all, 2);
  ASSERT_TRUE(offers_undo(last_legal(*mover->client, t.id)));
  std::vector<Json> seen;
  for (auto* s : all) {
    if (s != mover) {
      EXPECT_FALSE(offers_undo(last_legal(*s->client, t.id)));
    }
    seen.push_back(s->events.back());
  }
  const int mover_seat = static_cast<int>(std::find(people.begin(), people.end(), mover) - people.begin());
  EXPECT_EQ(code(undo(*mover, 1)), "stale_version");
  for (auto* s : people) {
    if (s != mover) {
      EXPECT_EQ(code(undo(*s, 2)), "not_your_turn");
    }
  }
  const Json taken = undo(*mover, 2);
  ASSERT_EQ(code(taken), "ack");
  EXPECT_EQ(taken["version"], 3);  // an action of its own: versions only grow
  wait_version(all, 3);
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i]->events.back(),
              Json::array({{{"type", "undo"}, {"player", mover_seat}, {"undone", seen[i]}}}));
  }
  EXPECT_EQ(view_without_version(watcher, t.id), before);
  EXPECT_FALSE(offers_undo(last_legal(*mover->client, t.id)));
  EXPECT_EQ(code(undo(*mover, 3)), "undo_not_allowed");

  // Placed elsewhere, then the second piece ends the turn: nobody takes back what the next player has to answer.
  const Json first = mover->legal.size() > 1 ? mover->legal[1] : mover->legal[0];
  ASSERT_EQ(code(act(*mover, first)), "ack");
  wait_version(all, 4);
  ASSERT_EQ(code(act(*mover, mover->legal[0])), "ack");
  wait_version(all, 5);
  seat_tracker* next = mover_of(people);
  ASSERT_NE(next, nullptr);
  ASSERT_NE(next, mover);
  EXPECT_EQ(code(undo(*mover, 5)), "not_your_turn");
  EXPECT_EQ(code(undo(*next, 5)), "undo_not_allowed");
}

// Taking back gives no time back: the decision the step ended goes on with what it had, not with a new turn time.
TEST(Undo, TakingBackGivesNoTimeBack) {
  server_process server("", {"--min-turn-s", "1"});
  auto t = seat_players(server.port(), 3, false, "medina", Json{{"turn", 10}, {"reserve", 0}});
  start(t);
  auto seats = trackers(t);
  auto people = pointers(seats);
  wait_started(people);
  seat_tracker* mover = mover_of(people);
  ASSERT_NE(mover, nullptr);
  act_first(*mover, people);  // the starting resident: the turn's decision starts with its whole turn time
  std::this_thread::sleep_for(1500ms);
  ASSERT_EQ(code(act(*mover, mover->legal[0])), "ack");
  wait_version(people, 2);
  EXPECT_GT(mover->clock["running"]["turn_ms"].get<int>(), 9000) << "a step is a decision: a new turn time";
  ASSERT_EQ(code(undo(*mover, 2)), "ack");
  wait_version(people, 3);
  EXPECT_LT(mover->clock["running"]["turn_ms"].get<int>(), 8700) << "the 1.5 s before the step were given back";
}

TEST(Undo, AMediciDrawIsNeverTakenBackAndATableMayTurnUndoOff) {
  server_process server;
  {
    auto t = seat_players(server.port(), 2, false, "medici");
    start(t);
    auto seats = trackers(t);
    auto people = pointers(seats);
    wait_started(people);
    seat_tracker* mover = mover_of(people);
    ASSERT_NE(mover, nullptr);
    ASSERT_EQ(code(act(*mover, {{"type", "draw"}})), "ack");
    wait_version(people, 1);
    EXPECT_FALSE(offers_undo(last_legal(*mover->client, t.id)));
    const Json refused = undo(*mover, 1);
    EXPECT_EQ(code(refused), "undo_not_allowed");
    EXPECT_FALSE(refused.value("message", "").empty());
  }
  // A Medina table created with undo off: said on the table, never offered, refused.
  ws_client c(server.port());
  c.wait_type("welcome");
  const Json created =
      c.request({{"type", "create_table"}, {"game", "medina"}, {"players", 3}, {"private", true}, {"undo", false}});
  ASSERT_EQ(created["type"], "seated");
  EXPECT_EQ(created["table"]["undo"], false);
  const std::string id = created["table"]["id"];
  for (int seat : {1, 2}) {
    ASSERT_EQ(code(c.request({{"type", "add_bot"}, {"table", id}, {"seat", seat}, {"level", "easy"}})), "ack");
  }
  ASSERT_EQ(code(c.request({{"type", "start"}, {"table", id}})), "ack");
  seat_tracker me(&c, id);
  // Play the person's moves until one would have been a step to take back (the turn's first piece).
  for (int moves = 0; moves < 40; ++moves) {
    for (int i = 0; i < 200 && me.legal.empty(); ++i) {
      c.wait_log_beyond(me.cursor, 25ms);
      me.catch_up();
    }
    ASSERT_FALSE(me.legal.empty());
    const auto version = me.version;
    ASSERT_EQ(code(act(me, me.legal[0])), "ack");
    for (int i = 0; i < 200 && me.version <= version; ++i) {
      c.wait_log_beyond(me.cursor, 25ms);
      me.catch_up();
    }
    EXPECT_FALSE(offers_undo(last_legal(c, id)));
    if (!me.legal.empty()) {  // still this turn: the step could have been taken back at a table that allows it
      EXPECT_EQ(code(undo(me, me.version)), "undo_not_allowed");
      return;
    }
  }
  FAIL() << "the person never had a second piece to place";
}

// emporium-verify's exit status on `file`.
int verify_exit_status(const std::string& file) {
  const int status = std::system((std::string(EMPORIUM_VERIFY_BINARY) + " " + file).c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(Undo, AnUndoIsStoredBeforeAnyoneHearsOfItSurvivesASigkillAndItsRecordVerifies) {
  const std::string data = make_temp_dir("emporium-undo");
  std::string id, invite, token;
  std::uint64_t undone_at = 0;
  Json board_after_undo;
  {
    server_process server(data);
    auto t = seat_with_bots(server.port(), "medina", {"easy", "easy"});
    id = t.id;
    invite = t.invite;
    token = t.tokens[0];
    seat_tracker me(t.players[0].get(), t.id);
    // The person's turns until one has a first piece to take back.
    for (int moves = 0; moves < 40 && !undone_at; ++moves) {
      for (int i = 0; i < 200 && me.legal.empty(); ++i) {
        me.client->wait_log_beyond(me.cursor, 25ms);
        me.catch_up();
      }
      ASSERT_FALSE(me.legal.empty());
      const auto version = me.version;
      ASSERT_EQ(code(act(me, me.legal[0])), "ack");
      const Json ack_wait = me.client->wait_for([&](const Json& f) {
        return f.value("type", "") == "events" && f.value("version", 0ULL) == version + 1;
      });
      me.catch_up();
      if (offers_undo(ack_wait["legal"])) {
        const Json taken = undo(me, version + 1);
        ASSERT_EQ(code(taken), "ack");
        undone_at = taken["version"];
        server.kill_hard();  // at once: the ack came after the store had it
      }
    }
    ASSERT_NE(undone_at, 0u);
  }
  server_process again(data);
  ws_client c(again.port());
  c.wait_type("welcome");
  ASSERT_EQ(c.request({{"type", "resume"}, {"token", token}})["type"], "seated");
  const Json snapshot = c.wait_type("snapshot");
  EXPECT_EQ(snapshot["version"], undone_at);
  EXPECT_FALSE(offers_undo(snapshot["legal"]));
  // Played to the end from there, by the bots and the person.
  seat_tracker me(&c, id);
  auto seats = std::vector<seat_tracker*>{&me};
  finish(seats, 7);
  const auto record = http_get(again.port(), "/tables/" + id + "/record.json?invite=" + invite);
  ASSERT_EQ(record.status, 200);
  const Json doc = Json::parse(record.body);
  ASSERT_EQ(doc["actions"][undone_at - 1]["action"], kUndoAction);
  const std::string file = data + "-record.json";
  std::ofstream(file) << record.body;
  EXPECT_EQ(verify_exit_status(file), 0);
  // The replay shows the taken-back step and the undo as steps of their own.
  const auto replay = http_get(again.port(), "/tables/" + id + "/replay.json?invite=" + invite);
  ASSERT_EQ(replay.status, 200);
  const Json steps = Json::parse(replay.body)["steps"];
  ASSERT_GT(steps.size(), undone_at);
  EXPECT_EQ(steps[undone_at]["events"][0]["type"], "undo");
}

TEST(Undo, APreviewShowsTheMoverTheirNextStepsAndNobodyElseAnything) {
  server_process server;
  auto game = started_medina(server.port());
  const auto& t = game.table;
  auto& watcher = *game.watcher;
  auto people = game.people();
  auto all = game.everyone();
  seat_tracker* mover = mover_of(people);
  ASSERT_NE(mover, nullptr);
  auto preview = [&](seat_tracker& s, const Json& actions) {
    return s.client->request({{"type", "preview"}, {"table", t.id}, {"version", s.version}, {"actions", actions}});
  };
  // The starting resident begins the turn: previewed as final, with nothing of after it.
  const Json resident = preview(*mover, Json::array({mover->legal[0]}));
  ASSERT_EQ(resident["type"], "preview");
  EXPECT_EQ(resident["final"], true);
  EXPECT_FALSE(resident.contains("view"));
  act_first(*mover, all);

  const std::size_t heard = watcher.log().size();
  const Json one = preview(*mover, Json::array({mover->legal[0]}));
  ASSERT_EQ(one["type"], "preview") << one;
  EXPECT_EQ(one["final"], false);
  EXPECT_EQ(one["version"], 1);
  ASSERT_FALSE(one["legal"].empty());
  EXPECT_FALSE(offers_undo(one["legal"]));
  EXPECT_EQ(one["events"][0]["type"], "place");
  // The second piece ends the turn: final, and only the first step's events.
  const Json two = preview(*mover, Json::array({mover->legal[0], one["legal"][0]}));
  EXPECT_EQ(two["final"], true);
  EXPECT_EQ(two["events"], one["events"]);
  // Refusals name the step; a step that is not the last must be one that could be taken back.
  const Json bad = preview(*mover, Json::array({mover->legal[0], {{"type", "place"}, {"piece", "wall"}, {"x", 99}, {"y", 99}}}));
  EXPECT_EQ(bad["type"], "error");
  EXPECT_EQ(bad["step"], 1);
  const Json past_the_turn = preview(*mover, Json::array({mover->legal[0], one["legal"][0], one["legal"][0]}));
  EXPECT_EQ(code(past_the_turn), "preview_not_allowed");
  EXPECT_EQ(code(preview(*mover, Json::array({kUndoAction}))), "bad_message");
  for (auto* s : people) {
    if (s != mover) {
      EXPECT_EQ(code(preview(*s, Json::array({mover->legal[0]}))), "not_your_turn");
    }
  }
  EXPECT_EQ(code(watcher.request({{"type", "preview"}, {"table", t.id}, {"version", 1}, {"actions", Json::array({mover->legal[0]})}})),
            "not_seated");
  // Nothing was stored or told: the version is where it was, and the spectator heard only its own replies.
  const Json snapshot = mover->client->request({{"type", "snapshot"}, {"table", t.id}});
  EXPECT_EQ(snapshot["version"], 1);
  for (const auto& text : watcher.log_from(heard)) {
    const auto f = Json::parse(text);
    EXPECT_NE(f.value("type", ""), "events") << text;
  }
}

}  // namespace
}  // namespace emporium::testing
