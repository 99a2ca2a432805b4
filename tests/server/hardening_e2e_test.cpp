// End-to-end: what the attacker of issue 17 tried — per-address caps (also behind a trusted proxy), connections
// that never say hello, abandoned tables, lobby traffic, the tables-per-connection cap, and the protocol's
// documented answers to invalid UTF-8, huge frames and floods.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "game_driver.hpp"
#include "test_client.hpp"

namespace emporium::testing {
namespace {

const std::string kUpgrade =
    "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";

ws_options forwarded_for(const std::string& address) {
  ws_options o;
  o.headers = {{"X-Forwarded-For", address}};
  return o;
}

// True if a WebSocket connection with these options is accepted (the caps close or refuse the others).
bool connects(std::uint16_t port, const ws_options& options = {}) {
  try {
    ws_client c(port, options);
    c.wait_type("welcome", 2s);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

std::string create_public(ws_client& c, int players = 3) {
  const Json seated = c.request({{"type", "create_table"}, {"game", "medici"}, {"players", players}});
  if (seated["type"] != "seated") throw std::runtime_error("create_table refused: " + seated.dump());
  return seated["table"]["id"];
}

std::vector<std::string> ids(const Json& tables) {
  std::vector<std::string> out;
  for (const auto& t : tables) out.push_back(t["id"]);
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& id) { return std::find(v.begin(), v.end(), id) != v.end(); }

// ---- 1. per-address caps, trusted proxies, hello ------------------------------------------------------------------

TEST(PerAddress, OpenConnectionsAreCappedAndFreedWhenOneCloses) {
  server_process server("", {"--max-connections-per-ip", "3"});
  std::vector<std::unique_ptr<ws_client>> open;
  for (int i = 0; i < 3; ++i) {
    open.push_back(std::make_unique<ws_client>(server.port()));
    open.back()->wait_type("welcome");
  }
  EXPECT_FALSE(connects(server.port()));
  EXPECT_EQ(http_get(server.port(), "/healthz").status, 0);  // plain HTTP counts too: closed at once
  // The X-Forwarded-For of a client that is not a trusted proxy changes nothing.
  EXPECT_FALSE(connects(server.port(), forwarded_for("198.51.100.1")));
  open.pop_back();
  bool again = false;
  for (int i = 0; i < 100 && !again; ++i) {
    again = connects(server.port());
    if (!again) std::this_thread::sleep_for(20ms);
  }
  EXPECT_TRUE(again);
  EXPECT_EQ(open[0]->request({{"type", "ping"}})["type"], "pong");  // the others were never touched
}

TEST(PerAddress, BehindATrustedProxyTheLastForwardedHopIsTheAddress) {
  server_process server("", {"--max-connections-per-ip", "2", "--trusted-proxies", "127.0.0.1"});
  ws_client a1(server.port(), forwarded_for("198.51.100.1"));
  ws_client a2(server.port(), forwarded_for("203.0.113.50, 198.51.100.1"));  // the first entry is the client's say-so
  a1.wait_type("welcome");
  a2.wait_type("welcome");
  const auto refused = http_get(server.port(), "/ws", kUpgrade + "X-Forwarded-For: 198.51.100.1\r\n");
  EXPECT_EQ(refused.status, 429);
  EXPECT_NE(refused.body.find("Too many connections"), std::string::npos);
  EXPECT_FALSE(connects(server.port(), forwarded_for("10.9.9.9, 198.51.100.1")));
  // Other clients behind the same proxy are not affected, nor is its plain HTTP.
  ws_client b1(server.port(), forwarded_for("198.51.100.2"));
  ws_client b2(server.port(), forwarded_for("198.51.100.2"));
  b1.wait_type("welcome");
  b2.wait_type("welcome");
  for (int i = 0; i < 5; ++i) EXPECT_EQ(http_get(server.port(), "/healthz").status, 200);
}

TEST(PerAddress, TablesCreatedPerMinuteAreCappedAcrossReconnections) {
  server_process server("", {"--max-tables-per-ip-per-minute", "3"});
  {
    ws_client first(server.port());
    first.wait_type("welcome");
    create_public(first);
    create_public(first);
  }
  ws_client second(server.port());
  second.wait_type("welcome");
  const std::string third = create_public(second);
  const Json refused = second.request({{"type", "create_table"}, {"game", "medici"}, {"players", 3}});
  EXPECT_EQ(refused["type"], "error");
  EXPECT_EQ(refused["code"], "too_many_tables");
  EXPECT_NE(refused.value("message", "").find("address"), std::string::npos);
  // Joining and watching are not creating.
  ws_client other(server.port());
  EXPECT_EQ(other.request({{"type", "join"}, {"table", third}})["type"], "seated");
  EXPECT_EQ(second.request({{"type", "watch"}, {"table", third}})["type"], "watching");
}

TEST(Hello, AConnectionThatSaysNoHelloIsClosedAfterTenSeconds) {
  server_process server;
  ws_options silent;
  silent.hello = false;
  ws_client quiet(server.port(), silent);     // says nothing
  ws_client busy(server.port(), silent);      // talks, but never says hello
  ws_client named(server.port(), silent);     // set_name counts as hello
  ws_client polite(server.port());            // hello at once, as the web client does
  for (auto* c : {&quiet, &busy, &named, &polite}) c->wait_type("welcome");
  EXPECT_EQ(named.request({{"type", "set_name"}, {"name", "Ann"}})["type"], "hello");
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 9; ++i) {
    EXPECT_EQ(busy.request({{"type", "ping"}})["type"], "pong");
    std::this_thread::sleep_for(1s);
  }
  while (!quiet.closed() && std::chrono::steady_clock::now() - start < 14s) std::this_thread::sleep_for(50ms);
  const double after = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(quiet.closed());
  EXPECT_GT(after, 8.5);
  EXPECT_EQ(quiet.close_code().value_or(-1), 1008);
  for (int i = 0; i < 40 && !busy.closed(); ++i) std::this_thread::sleep_for(50ms);
  EXPECT_TRUE(busy.closed());
  EXPECT_EQ(busy.close_code().value_or(-1), 1008);
  EXPECT_EQ(named.request({{"type", "ping"}})["type"], "pong");
  EXPECT_EQ(polite.request({{"type", "ping"}})["type"], "pong");
}

// ---- 2. abandoned tables and the lobby --------------------------------------------------------------------------

TEST(Lobby, WatchersGetTheListOnceThenOnlyChanges) {
  server_process server;
  ws_client ann(server.port()), bo(server.port()), watcher(server.port());
  const std::string before = create_public(ann);
  const Json list = watcher.request({{"type", "watch_lobby"}});
  ASSERT_EQ(list["type"], "lobby");
  EXPECT_EQ(ids(list["tables"]), std::vector<std::string>{before});

  const std::string id = create_public(bo, 2);
  // (The last change from the first table's creation may arrive after the list: it is about that table, and the
  // list already holds it.)
  const Json added = watcher.wait_for([&](const Json& f) {
    return f.value("type", "") != "hello" && !(f["type"] == "lobby_changed" && f["table"]["id"] == before);
  });
  ASSERT_EQ(added["type"], "lobby_changed") << added;
  EXPECT_EQ(added["table"]["id"], id);
  EXPECT_TRUE(added["table"]["seats"][0]["name"].is_string());  // with its creator seated
  ASSERT_EQ(ann.request({{"type", "join"}, {"table", id}})["type"], "seated");
  // (A change from the creation may still be on its way: wait for the one with the second seat taken.)
  const Json joined = watcher.wait_for([&](const Json& f) {
    return f["type"] == "lobby_changed" && f["table"]["seats"][1]["name"].is_string();
  });
  EXPECT_EQ(joined["table"]["id"], id);
  ASSERT_EQ(bo.request({{"type", "start"}, {"table", id}})["type"], "ack");
  EXPECT_EQ(watcher.wait_for([&](const Json& f) {
    return f["type"] == "lobby_changed" && f["table"]["state"] == "playing";
  })["table"]["id"], id);
  ASSERT_EQ(ann.request({{"type", "leave"}, {"table", before}})["type"], "left");  // its last person: it closes
  const Json removed = watcher.wait_type("lobby_removed");
  EXPECT_EQ(removed["table"], before);
  // Not one whole list after the first.
  for (const auto& frame : watcher.log()) EXPECT_EQ(Json::parse(frame).contains("tables"), Json::parse(frame).contains("re")) << frame;
  // Private tables never show.
  ASSERT_EQ(bo.request({{"type", "create_table"}, {"game", "medici"}, {"players", 2}, {"private", true}})["type"], "seated");
  EXPECT_TRUE(watcher.quiet_for(300ms));
  // Switched off: nothing more.
  EXPECT_EQ(watcher.request({{"type", "watch_lobby"}, {"on", false}})["tables"], Json::array());
  create_public(bo);
  EXPECT_TRUE(watcher.quiet_for(300ms));
}

TEST(Lobby, WithMoreTablesThanListedTheNewestAreListed) {
  server_process server;
  constexpr int kTables = 205;  // the list holds 200
  std::vector<std::unique_ptr<ws_client>> makers;
  std::vector<std::string> made;
  for (int i = 0; i < kTables; ++i) {
    if (i % 16 == 0) makers.push_back(std::make_unique<ws_client>(server.port()));  // 16 open tables a connection
    made.push_back(create_public(*makers.back()));
  }
  ws_client watcher(server.port());
  const auto listed = ids(watcher.request({{"type", "watch_lobby"}})["tables"]);
  ASSERT_EQ(listed.size(), 200u);
  for (int i = 0; i < 5; ++i) EXPECT_FALSE(has(listed, made[i])) << "old table " << i << " is listed";
  EXPECT_EQ(listed.front(), made.back());  // newest first
  // A new table is listed at once; the oldest listed one goes.
  ws_client late(server.port());
  const std::string newest = create_public(late);
  std::set<std::string> changed, removed;
  while (!changed.count(newest) || removed.empty()) {
    const Json f = watcher.wait_for([](const Json& j) { return j["type"] == "lobby_changed" || j["type"] == "lobby_removed"; });
    (f["type"] == "lobby_changed" ? changed : removed).insert(f["type"] == "lobby_changed" ? f["table"]["id"] : f["table"]);
  }
  EXPECT_EQ(removed, std::set<std::string>{made[5]});
}

TEST(Abandoned, AWaitingTableWhosePeopleAllLeftClosesAfterTheTime) {
  server_process server("", {"--abandoned-after-s", "2"});
  ws_client watcher(server.port()), stays(server.port());
  ASSERT_EQ(watcher.request({{"type", "watch_lobby"}})["type"], "lobby");
  const std::string kept = create_public(stays);
  auto ann = std::make_unique<ws_client>(server.port());
  auto bo = std::make_unique<ws_client>(server.port());
  const std::string id = create_public(*ann);
  ASSERT_EQ(bo->request({{"type", "join"}, {"table", id}})["type"], "seated");
  ws_client spectator(server.port());  // spectators do not keep it open
  ASSERT_EQ(spectator.request({{"type", "watch"}, {"table", id}})["type"], "watching");
  ann.reset();
  std::this_thread::sleep_for(2500ms);  // one of its people is still there
  ASSERT_EQ(spectator.request({{"type", "snapshot"}, {"table", id}})["type"], "table");
  const auto gone = std::chrono::steady_clock::now();
  bo.reset();
  const Json removed = watcher.wait_for([&](const Json& f) { return f["type"] == "lobby_removed" && f["table"] == id; }, 5s);
  EXPECT_GT(std::chrono::steady_clock::now() - gone, 1500ms);
  EXPECT_EQ(spectator.wait_type("left")["table"], id);
  EXPECT_EQ(spectator.request({{"type", "snapshot"}, {"table", id}})["code"], "no_such_table");  // no longer its table
  ws_client someone(server.port());
  EXPECT_EQ(someone.request({{"type", "join"}, {"table", id}})["code"], "no_such_table");
  // The table whose creator stayed connected is still there.
  EXPECT_EQ(someone.request({{"type", "watch"}, {"table", kept}})["type"], "watching");
}

TEST(Abandoned, WaitingTablesRestoredAtStartCloseWhenNobodyComesBack) {
  std::string data = make_temp_dir("emporium-abandoned");
  std::string idle, resumed, token;
  {
    server_process first(data);
    ws_client a(first.port()), b(first.port());
    idle = create_public(a);
    const Json seated = b.request({{"type", "create_table"}, {"game", "medici"}, {"players", 2}});
    resumed = seated["table"]["id"];
    token = seated["token"];
    first.kill_hard();
  }
  server_process second(data, {"--abandoned-after-s", "2"});
  ws_client watcher(second.port()), back(second.port());
  const auto listed = ids(watcher.request({{"type", "watch_lobby"}})["tables"]);
  EXPECT_TRUE(has(listed, idle));
  ASSERT_EQ(back.request({{"type", "resume"}, {"token", token}})["type"], "seated");
  watcher.wait_for([&](const Json& f) { return f["type"] == "lobby_removed" && f["table"] == idle; }, 5s);
  ws_client someone(second.port());
  EXPECT_EQ(someone.request({{"type", "watch"}, {"table", idle}})["code"], "no_such_table");
  EXPECT_EQ(someone.request({{"type", "watch"}, {"table", resumed}})["type"], "watching");
  std::filesystem::remove_all(data);
}

// ---- 3. the tables-per-connection cap ---------------------------------------------------------------------------

TEST(TableCap, BackToBackWatchesCannotPassIt) {
  server_process server;
  std::vector<std::unique_ptr<ws_client>> makers;
  std::vector<std::string> tables;
  for (int i = 0; i < 40; ++i) {
    if (i % 16 == 0) makers.push_back(std::make_unique<ws_client>(server.port()));
    tables.push_back(create_public(*makers.back()));
  }
  ws_client greedy(server.port());
  greedy.wait_type("welcome");
  for (int i = 0; i < 40; ++i) greedy.send({{"type", "watch"}, {"table", tables[i]}, {"id", i}});
  int watching = 0, refused = 0;
  while (watching + refused < 40) {
    const Json f = greedy.wait_for([](const Json& j) { return j.contains("re"); });
    if (f["type"] == "watching") ++watching;
    if (f["type"] == "error" && f["code"] == "too_many_tables") ++refused;
  }
  EXPECT_EQ(watching, 16);
  EXPECT_EQ(refused, 24);
  // Leaving one frees one; a table refused by its room frees its slot too.
  ASSERT_EQ(greedy.request({{"type", "leave"}, {"table", tables[0]}})["type"], "left");
  EXPECT_EQ(greedy.request({{"type", "join"}, {"table", tables[39]}, {"seat", 0}})["code"], "seat_taken");
  EXPECT_EQ(greedy.request({{"type", "watch"}, {"table", tables[39]}})["type"], "watching");
  EXPECT_EQ(greedy.request({{"type", "watch"}, {"table", tables[38]}})["code"], "too_many_tables");
}

// ---- 4. the protocol's documented answers -----------------------------------------------------------------------

TEST(Protocol, InvalidUtf8InATextFrameFailsTheConnectionWith1007) {
  server_process server;
  ws_client c(server.port());
  c.wait_type("welcome");
  c.send_raw("{\"type\":\"set_name\",\"name\":\"\xff\xfe\"}");
  for (int i = 0; i < 100 && !c.closed(); ++i) std::this_thread::sleep_for(20ms);
  EXPECT_TRUE(c.closed());
  EXPECT_EQ(c.close_code().value_or(-1), 1007);
}

TEST(Protocol, AFrameOverOneMebibyteIsClosedWith1009) {
  server_process server;
  for (const std::size_t size : {std::size_t{1024 * 1024 + 1}, std::size_t{4 * 1024 * 1024}}) {
    ws_client c(server.port());
    c.wait_type("welcome");
    c.send_raw_async(std::string(size, 'x'));
    for (int i = 0; i < 250 && !c.closed(); ++i) std::this_thread::sleep_for(20ms);
    EXPECT_TRUE(c.closed()) << size;
    EXPECT_EQ(c.close_code().value_or(-1), 1009) << size;
  }
}

// The server writes its frames itself, several at a time (WebSocketSession); Beast answers pings into the same
// queue. Pongs and frames sent back to back all arrive whole, in order, and the connection stays open.
TEST(Protocol, WebSocketPingsAreAnsweredBetweenFramesWithNothingInterleaved) {
  server_process server;
  ws_client c(server.port());
  c.wait_type("welcome");
  constexpr int kRounds = 40;
  for (int i = 0; i < kRounds; ++i) {
    c.send({{"type", "ping"}, {"id", "p" + std::to_string(i)}});
    c.ping("k" + std::to_string(i));
  }
  for (int i = 0; i < kRounds; ++i) {
    const std::string id = "p" + std::to_string(i);
    const Json pong = c.wait_for([&](const Json& j) { return j.value("re", Json()) == id; });
    EXPECT_EQ(pong["type"], "pong") << id;
  }
  for (int i = 0; i < 100 && c.pongs() < kRounds; ++i) std::this_thread::sleep_for(20ms);
  EXPECT_EQ(c.pongs(), kRounds);
  EXPECT_FALSE(c.closed());
}

TEST(Protocol, AClientThatPingsAndNeverReadsIsDroppedLikeAnySlowReader) {
  // Beast answers every WebSocket ping with a pong, and the pongs join the session's queue. A client that pings
  // and reads nothing must meet the same cap as one that reads none of its frames (1,024 queued), not grow the
  // queue without end; everybody else goes on.
  namespace net = boost::asio;
  namespace beast = boost::beast;
  server_process server;
  ws_client other(server.port());
  other.wait_type("welcome");
  net::io_context ioc;
  // The client's receive buffer is kept small, so that the server's queue fills after a few thousand pongs.
  auto pinger = connect_raw(ioc, server.port(), 64 * 1024);
  // 125-byte pongs: the sockets' buffers hold a few thousand; the queue 1,024 more. The kernel may take megabytes of
  // pings before the server has read any (its buffers grow on loopback), so no fixed count of pings proves
  // anything: ping until the server drops the connection, for at most 60 s.
  // On loopback, a client whose receive buffer is full while it keeps writing can stall both ends' TCP (seen under
  // ASan: the client's pings stop reaching the server, which has read all it was sent, and both retransmit with a
  // growing timeout for minutes). When a ping is not taken for 2 s, the test discards what the client's socket
  // holds (a few hundred pongs at most, far fewer than it pinged), which lets the connection move again: the
  // client still reads much less than the server sends, and the server must drop it all the same.
  const beast::websocket::ping_data payload(std::string(125, 'p').c_str());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  auto& socket = beast::get_lowest_layer(pinger).socket();
  const auto discard_what_arrived = [&socket] {
    std::array<char, 64 * 1024> buffer;
    beast::error_code ignored;
    socket.non_blocking(true, ignored);
    while (socket.available(ignored) > 0 && socket.read_some(net::buffer(buffer), ignored) > 0) {
    }
  };
  int sent = 0, stalls = 0;
  beast::error_code ec;
  bool done = true;
  for (; done && !ec && std::chrono::steady_clock::now() < deadline; ++sent) {
    done = false;
    pinger.async_ping(payload, [&](beast::error_code e) { ec = e, done = true; });
    ioc.restart();
    while (!done && std::chrono::steady_clock::now() < deadline) {
      ioc.run_for(std::chrono::seconds(2));
      if (!done) ++stalls, discard_what_arrived();
    }
  }
  const bool dropped = done && ec;
  if (!done) {  // the deadline, with a ping still being written: end it
    beast::error_code ignored;
    socket.close(ignored);
    ioc.restart();
    ioc.run();
  }
  EXPECT_TRUE(dropped) << "still connected after " << sent << " pings (" << stalls << " stalls)";
  EXPECT_GT(sent, 2000);
  const auto m = http_get(server.port(), "/metrics");
  EXPECT_NE(m.body.find("emporium_messages_refused_total{code=\"slow_reader_disconnect\"} 1"), std::string::npos)
      << m.body;
  other.send({{"type", "ping"}, {"id", "still-here"}});
  EXPECT_EQ(other.wait_for([](const Json& j) { return j.value("re", Json()) == "still-here"; })["type"], "pong");
}

TEST(Protocol, RateLimitedRepliesCarryTheRequestsId) {
  server_process server;
  ws_client c(server.port());
  c.wait_type("welcome");
  // The bucket's 60 messages, then 40 more pings each followed by one whose id cannot be read (a number that is
  // not an integer). Which of those are refused depends on how fast this machine is (the bucket refills 20 a
  // second), so the test asks only that each request is answered once, by its id when it has one, and that some
  // of both kinds were refused. 80 refusals at most: under the 100 that end the connection.
  constexpr int kPings = 100, kBurst = 60;
  for (int i = 0; i < kPings; ++i) {
    c.send({{"type", "ping"}, {"id", "p" + std::to_string(i)}});
    if (i >= kBurst) c.send_raw("{\"type\":\"ping\",\"id\":1.5}");
  }
  std::map<std::string, int> answers;  // by re
  int without_re = 0, limited_with_re = 0, limited_without_re = 0;
  while (answers.size() + without_re < 2 * kPings - kBurst) {
    const auto f = c.next(5s);
    ASSERT_TRUE(f) << answers.size() << " answers with an id and " << without_re << " without";
    const std::string type = f->value("type", ""), code = f->value("code", "");
    if (type != "pong" && type != "error") continue;  // e.g. the answer to the client's own hello
    const bool limited = type == "error" && code == "rate_limited";
    if (f->contains("re")) {
      EXPECT_TRUE(type == "pong" || limited) << f->dump();
      ++answers[(*f)["re"].get<std::string>()];
      limited_with_re += limited;
    } else {
      // Read, the unreadable id is refused as a bad message; its id is never guessed.
      EXPECT_TRUE(limited || (type == "error" && code == "bad_message")) << f->dump();
      ++without_re;
      limited_without_re += limited;
    }
  }
  for (int i = 0; i < kPings; ++i) EXPECT_EQ(answers["p" + std::to_string(i)], 1) << "p" << i;
  EXPECT_EQ(answers.size(), static_cast<std::size_t>(kPings));
  EXPECT_GE(limited_with_re, 1);
  EXPECT_GE(limited_without_re, 1);
  const auto more = c.next(300ms);
  EXPECT_FALSE(more && (more->value("type", "") == "pong" || more->value("type", "") == "error")) << more->dump();
}

}  // namespace
}  // namespace emporium::testing
