// End-to-end: the commitment to a table's randomness from its first frame, the seed and salt only with the end,
// and the published record and replay (GET /tables/<id>/record.json, replay.json): refused while the game runs,
// a private table's only with its invite, kept across a restart, and verified by the same check as emporium-verify;
// and the analysis of a finished game (POST /tables/<id>/analysis, GET /tables/<id>/analysis.json): refused while
// the game runs and without a private table's invite, computed on request, the same as emporium-analyse's, stored.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

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

// The analysis routes' answer to `method` on `target` (POST /analysis or GET /analysis.json), its body parsed.
struct analysis_reply {
  int status = 0;
  Json body;
  std::string text;
  std::string retry_after;
};
// A POST comes from the site's own page, as a browser's (its Origin), unless `origin` says otherwise.
analysis_reply analysis_call(std::uint16_t port, const std::string& method, const std::string& target,
                             const std::string& origin = "http://127.0.0.1") {
  const auto r = method == "GET" ? http_get(port, target)
                                 : http_request(port, method, target, origin.empty() ? "" : "Origin: " + origin + "\r\n");
  analysis_reply a{r.status, Json::parse(r.body, nullptr, false), r.body, r.retry_after};
  EXPECT_EQ(r.content_type, "application/json; charset=utf-8") << target;
  return a;
}

// What emporium-analyse prints for `record` (a record.json) with `budget`.
std::string run_analyse(const std::string& record, long long budget) {
  const std::string out = record + ".analysis";
  const std::string line = std::string(EMPORIUM_ANALYSE_BINARY) + " --budget " + std::to_string(budget) + " " +
                           record + " > " + out;
  EXPECT_EQ(std::system(line.c_str()), 0) << line;
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(Analyses, AFinishedPrivateGameIsAnalysedOnRequestAsTheToolDoesAndKept) {
  const std::string data = make_temp_dir("emporium-analyses");
  const std::vector<std::string> flags{"--analysis-budget", "200"};
  server_process server(data, flags);
  auto t = seat_players(server.port(), 3, true, "medici");
  start(t);
  const std::string base = "/tables/" + t.id, invite = "?invite=" + t.invite;
  // Nothing about a running game, by any route; nothing is queued. Without its invite a private table says only
  // that it is private, as its record does.
  for (const std::string& query : {invite, std::string(), std::string("?invite=wrong")}) {
    for (const auto& [method, file] : {std::pair{"POST", "/analysis"}, std::pair{"GET", "/analysis.json"}}) {
      const auto r = analysis_call(server.port(), method, base + file + query);
      if (query != invite) {
        EXPECT_EQ(r.status, 403) << method << file << query;
        EXPECT_EQ(r.body["error"], "private") << r.text;
        continue;
      }
      EXPECT_EQ(r.status, 409) << method << file << query;
      EXPECT_EQ(r.body["error"], "not_finished") << r.text;
      EXPECT_EQ(r.body["message"], "analysis exists only for finished games");
    }
  }
  // Another site's page cannot ask for one, nor a request without an Origin.
  for (const std::string origin : {"http://evil.example", ""}) {
    const auto r = analysis_call(server.port(), "POST", base + "/analysis" + invite, origin);
    EXPECT_EQ(r.status, 403) << origin;
    EXPECT_EQ(r.body["error"], "forbidden_origin") << r.text;
  }
  EXPECT_NE(http_get(server.port(), "/metrics").body.find("emporium_analyses_requested_total 0\n"), std::string::npos);
  auto seats = trackers(t);
  finish(pointers(seats), 5);

  // Over: a private table's analysis only with its invite; nobody asked yet.
  for (const auto& [method, file] : {std::pair{"POST", "/analysis"}, std::pair{"GET", "/analysis.json"}}) {
    EXPECT_EQ(analysis_call(server.port(), method, base + file).body["error"], "private");
    const auto wrong = analysis_call(server.port(), method, base + file + "?invite=wrong");
    EXPECT_EQ(wrong.status, 403);
    EXPECT_EQ(wrong.body["error"], "private");
  }
  const auto before = analysis_call(server.port(), "GET", base + "/analysis.json" + invite);
  EXPECT_EQ(before.status, 404);
  EXPECT_EQ(before.body["error"], "not_analysed");
  const auto unknown = analysis_call(server.port(), "GET", "/tables/nosuchtable/analysis.json");
  EXPECT_EQ(unknown.status, 404);
  EXPECT_EQ(unknown.body["error"], "no_table");
  EXPECT_EQ(analysis_call(server.port(), "POST", "/tables/nosuchtable/analysis").body["error"], "no_table");
  EXPECT_EQ(http_get(server.port(), base + "/analysis").status, 405);

  // Asked for: queued or running, then done.
  const auto asked = analysis_call(server.port(), "POST", base + "/analysis" + invite);
  ASSERT_EQ(asked.status, 202) << asked.text;
  EXPECT_TRUE(asked.body["status"] == "queued" || asked.body["status"] == "running") << asked.text;
  analysis_reply got;
  for (int i = 0; i < 600; ++i) {
    got = analysis_call(server.port(), "GET", base + "/analysis.json" + invite);
    if (got.status != 202) break;
    EXPECT_TRUE(got.body["status"] == "queued" || got.body["status"] == "running") << got.text;
    std::this_thread::sleep_for(100ms);
  }
  ASSERT_EQ(got.status, 200) << got.text;
  const auto again = analysis_call(server.port(), "POST", base + "/analysis" + invite);
  EXPECT_EQ(again.status, 200);
  EXPECT_EQ(again.body, (Json{{"status", "done"}}));
  EXPECT_EQ(got.body["table"], t.id);

  // The analysis part is the tool's for the published record, byte for byte.
  const auto record = http_get(server.port(), base + "/record.json" + invite);
  ASSERT_EQ(record.status, 200);
  const std::string record_file = server.data_dir() + "/analysed-record.json";
  std::ofstream(record_file) << record.body;
  Json analysis = got.body;
  analysis.erase("table");
  int marked = 0;
  const auto game = engine::Record::from_json(Json::parse(record.body));
  for (auto& d : analysis["decisions"]) {
    if (d["mark"].is_null()) {
      EXPECT_FALSE(d.contains("preferred_step")) << d;
      continue;
    }
    // The position after the move preferred, as the replay shows a step.
    ++marked;
    const Json step = d["preferred_step"];
    EXPECT_EQ(step["action"], d["preferred"]);
    EXPECT_EQ(step, records::step_after(game, d["version"].get<std::uint64_t>(), d["seat"].get<int>(), d["preferred"]));
    EXPECT_TRUE(step["view"].is_object() && step["events"].is_array()) << step;
    d.erase("preferred_step");
  }
  EXPECT_GT(marked, 0) << "no decision was marked: the preferred steps went untested";
  EXPECT_EQ(analysis.dump() + "\n", run_analyse(record_file, 200));

  const std::string metrics = http_get(server.port(), "/metrics").body;
  EXPECT_NE(metrics.find("emporium_analyses_requested_total 1\n"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("emporium_analyses_done_total 1\n"), std::string::npos);
  EXPECT_NE(metrics.find("emporium_analysis_queue 0\n"), std::string::npos);
  EXPECT_EQ(metrics.find("emporium_analysis_seconds_total 0.000000\n"), std::string::npos);

  // Stored: the same after a restart, still only with the invite.
  ASSERT_EQ(server.terminate(), 0);
  server_process restarted(data, flags);
  const auto kept = analysis_call(restarted.port(), "GET", base + "/analysis.json" + invite);
  EXPECT_EQ(kept.status, 200);
  EXPECT_EQ(kept.text, got.text);
  EXPECT_EQ(analysis_call(restarted.port(), "GET", base + "/analysis.json").status, 403);
  EXPECT_EQ(analysis_call(restarted.port(), "POST", base + "/analysis" + invite).body, (Json{{"status", "done"}}));
  ASSERT_EQ(restarted.terminate(), 0);
  std::filesystem::remove_all(data);
}

TEST(Analyses, OffWithoutThreadsAndBusyWhenTheQueueIsFull) {
  {
    server_process off({}, {"--analysis-threads", "0"});
    for (const auto& [method, file] : {std::pair{"POST", "/analysis"}, std::pair{"GET", "/analysis.json"}}) {
      const auto r = analysis_call(off.port(), method, std::string("/tables/any") + file);
      EXPECT_EQ(r.status, 503);
      EXPECT_EQ(r.body["error"], "analysis_off");
    }
  }
  // One thread and no room to wait: a second game is refused while the first one's analysis runs (the default
  // budget: seconds of work), and a shutdown stops that one at once.
  server_process server({}, {"--analysis-queue", "0"});
  std::vector<std::string> ids;
  for (int g = 0; g < 2; ++g) {
    auto t = seat_players(server.port(), 3, false, "medici");
    start(t);
    auto seats = trackers(t);
    finish(pointers(seats), 7 + g);
    ids.push_back(t.id);
  }
  const auto first = analysis_call(server.port(), "POST", "/tables/" + ids[0] + "/analysis");
  ASSERT_EQ(first.status, 202) << first.text;
  const auto second = analysis_call(server.port(), "POST", "/tables/" + ids[1] + "/analysis");
  EXPECT_EQ(second.status, 429) << second.text;
  EXPECT_EQ(second.body["error"], "busy");
  EXPECT_FALSE(second.retry_after.empty());
  // Asking again for the one under way changes nothing.
  EXPECT_EQ(analysis_call(server.port(), "POST", "/tables/" + ids[0] + "/analysis").status, 202);
  EXPECT_EQ(analysis_call(server.port(), "GET", "/tables/" + ids[1] + "/analysis.json").body["error"], "not_analysed");
  const auto stopping = std::chrono::steady_clock::now();
  EXPECT_EQ(server.terminate(), 0);
  EXPECT_LT(std::chrono::steady_clock::now() - stopping, 3s);
}

}  // namespace
}  // namespace emporium::testing
