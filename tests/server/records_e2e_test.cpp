// End-to-end: the commitment to a table's randomness from its first frame, the seed and salt only with the end,
// and the published record and replay (GET /tables/<id>/record.json, replay.json): refused while the game runs,
// a private table's only with its invite, kept across a restart, and verified by the same check as emporium-verify.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>

#include <emporium/records/records.hpp>

#include "frame_check.hpp"
#include "game_driver.hpp"
#include "store/sqlite_store.hpp"
#include "test_client.hpp"

namespace emporium::testing {
namespace {

bool is_hex(const Json& j, std::size_t digits) {
  return j.is_string() && j.get<std::string>().size() == digits &&
         j.get<std::string>().find_first_not_of("0123456789abcdef") == std::string::npos;
}

// emporium-verify's exit status on `file` (its verdict line goes to the test's output).
int run_verify(const std::string& file) {
  const int status = std::system((std::string(EMPORIUM_VERIFY_BINARY) + " " + file).c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The first frame in `c`'s log carrying a commitment (a table object's or a snapshot's).
std::string first_commitment(const ws_client& c) {
  for (const auto& text : c.log()) {
    const auto f = Json::parse(text);
    if (f.contains("commitment")) return f["commitment"];
    if (f.contains("table") && f["table"].is_object() && f["table"].contains("commitment")) return f["table"]["commitment"];
  }
  return {};
}

TEST(PublishedRecords, APrivateGamesCommitmentRevealAndRecord) {
  // Logging everything, into a file the test reads: no log line may carry the seed or salt.
  const std::string data = make_temp_dir("emporium-records");
  const std::string log = data + "-server.log";
  server_process server(data, {"--log-level", "debug"}, log);
  auto t = seat_with_bots(server.port(), "medici", {"easy", "easy"}, false);
  ws_client spectator_client(server.port());
  spectator_client.wait_type("welcome");
  const Json watching = spectator_client.request({{"type", "watch"}, {"invite", t.invite}});
  ASSERT_EQ(watching["type"], "watching");
  // Committed before the first move: in the creator's seated reply and in what a spectator is shown.
  const std::string commitment = first_commitment(*t.players[0]);
  ASSERT_TRUE(is_hex(commitment, 64)) << commitment;
  EXPECT_EQ(watching["table"]["commitment"], commitment);
  EXPECT_FALSE(watching["table"].contains("seed"));
  start(t);
  const Json snapshot = t.players[0]->wait_type("snapshot");
  EXPECT_EQ(snapshot["commitment"], commitment);
  EXPECT_FALSE(snapshot.contains("seed"));
  EXPECT_FALSE(snapshot.contains("salt"));

  // While it runs, neither route answers, with the invite or without, and no answer carries the seed.
  const std::string base = "/tables/" + t.id;
  const std::string with_invite = "?invite=" + t.invite;
  server::SqliteStore peek(server.data_dir());
  const std::string seed_hex = peek.load(t.id)->seed.to_hex();
  for (const char* file : {"/record.json", "/replay.json"}) {
    const auto running = http_get(server.port(), base + file + with_invite);
    EXPECT_EQ(running.status, 409) << file;
    EXPECT_EQ(running.body.find(seed_hex), std::string::npos);
    EXPECT_EQ(http_get(server.port(), base + file).status, 403) << file;
  }

  auto seats = trackers(t);
  seat_tracker spectator(&spectator_client, t.id);
  play(pointers(seats), {&spectator}, 3);
  for (auto* s : {&seats[0], &spectator}) {
    for (int i = 0; i < 300 && !s->over; ++i) {
      s->client->wait_log_beyond(s->cursor, 100ms);
      s->catch_up();
    }
    ASSERT_TRUE(s->over);
  }
  // The frames before the end never carried the seed or salt; the frames of the end carry them.
  expect_frames_match_engine(server.data_dir(), t.id,
                             {{&seats[0], engine::Viewer::of_player(0)}, {&spectator, engine::Viewer::spectator()}});
  const Json finished = spectator_client.wait_for([](const Json& f) {
    return f["type"] == "table" && f["table"]["state"] == "finished";
  })["table"];
  ASSERT_TRUE(is_hex(finished["seed"], 32) && is_hex(finished["salt"], 32)) << finished;
  const auto seed = engine::Seed::parse(finished["seed"].get<std::string>());
  EXPECT_EQ(records::commitment_of(finished["salt"].get<std::string>(), *seed), commitment);
  bool final_events_reveal = false;
  for (const auto& text : spectator_client.log()) {
    const auto f = Json::parse(text);
    if (f["type"] == "events" && f.contains("seed")) final_events_reveal = f["seed"] == finished["seed"] && f["salt"] == finished["salt"];
  }
  EXPECT_TRUE(final_events_reveal);

  // The record: only with the invite; verified; the same after a restart.
  EXPECT_EQ(http_get(server.port(), base + "/record.json").status, 403);
  EXPECT_EQ(http_get(server.port(), base + "/record.json?invite=wrong").status, 403);
  const auto reply = http_get(server.port(), base + "/record.json" + with_invite);
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_EQ(reply.content_type, "application/json; charset=utf-8");
  const Json record = Json::parse(reply.body);
  EXPECT_EQ(record["commitment"], commitment);
  EXPECT_EQ(record["seed"], finished["seed"]);
  EXPECT_EQ(record["seats"][1]["bot"], "easy");
  EXPECT_EQ(record["actions"].size(), seats[0].events.size());
  EXPECT_FALSE(record["result"].is_null());
  EXPECT_GT(record["finished_at"].get<long long>(), 1700000000);
  const auto verdict = records::verify(record);
  EXPECT_TRUE(verdict.ok) << verdict.message;
  // The offline check says the same, and refuses the record with one move changed.
  const std::string file = server.data_dir() + "/record.json";
  std::ofstream(file) << reply.body;
  EXPECT_EQ(run_verify(file), 0);
  Json tampered = record;
  tampered["actions"].erase(tampered["actions"].size() - 1);
  std::ofstream(file) << tampered.dump();
  EXPECT_EQ(run_verify(file), 1);

  const auto replay_reply = http_get(server.port(), base + "/replay.json" + with_invite);
  ASSERT_EQ(replay_reply.status, 200);
  const Json replay = Json::parse(replay_reply.body);
  ASSERT_EQ(replay["steps"].size(), record["actions"].size() + 1);
  std::string error;
  EXPECT_EQ(replay["steps"].back()["view"], *records::full_view_at(record, record["actions"].size(), &error));
  EXPECT_EQ(replay["steps"][1]["action"], record["actions"][0]["action"]);

  ASSERT_EQ(server.terminate(), 0);
  {
    server_process again(data);
    EXPECT_EQ(http_get(again.port(), base + "/record.json" + with_invite).body, reply.body);
    EXPECT_EQ(http_get(again.port(), base + "/replay.json").status, 403);
  }
  std::ifstream in(log);
  const std::string logged((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(logged.find(t.id), std::string::npos);  // the debug log did see this table
  EXPECT_EQ(logged.find(finished["seed"].get<std::string>()), std::string::npos);
  EXPECT_EQ(logged.find(finished["salt"].get<std::string>()), std::string::npos);
  std::filesystem::remove_all(data);
  std::filesystem::remove(log);
}

TEST(PublishedRecords, APublicTablesRecordIsForAnyoneAndUnknownOnesAreNotFound) {
  server_process server;
  auto t = seat_players(server.port(), 2, false, "silkroad");
  start(t);
  auto seats = trackers(t);
  finish(pointers(seats), 9);
  const auto reply = http_get(server.port(), "/tables/" + t.id + "/record.json");
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_TRUE(records::verify(Json::parse(reply.body)).ok);
  // A second request is answered from memory with the same document and validator; a revalidation gets 304.
  const auto again = http_get(server.port(), "/tables/" + t.id + "/record.json");
  EXPECT_EQ(again.body, reply.body);
  EXPECT_FALSE(reply.etag.empty());
  EXPECT_EQ(http_get(server.port(), "/tables/" + t.id + "/record.json", "If-None-Match: " + reply.etag + "\r\n").status, 304);
  const auto packed = http_get(server.port(), "/tables/" + t.id + "/replay.json", "Accept-Encoding: gzip\r\n");
  EXPECT_EQ(packed.status, 200);
  EXPECT_EQ(packed.content_encoding, "gzip");

  EXPECT_EQ(http_get(server.port(), "/tables/nosuchtable/record.json").status, 404);
  EXPECT_EQ(http_get(server.port(), "/tables/../record.json").status, 404);
  EXPECT_EQ(http_get(server.port(), "/tables/" + t.id + "/other.json").status, 404);
  // The server goes on serving games.
  auto next = seat_players(server.port(), 2, false, "medici");
  start(next);
}

}  // namespace
}  // namespace emporium::testing
