// Friends, presence, invitations and blocks against the real server (docs/friends.md): signed-in people over
// their WebSockets, as the browser client speaks to it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "game_driver.hpp"
#include "people_client.hpp"
#include "test_client.hpp"

namespace emporium::testing {
namespace {

using Json = nlohmann::json;

Json relate(person& p, const std::string& type, const std::string& name) {
  return p.ws->request({{"type", type}, {"name", name}});
}
std::string code(const Json& reply) { return reply.value("type", "") == "error" ? reply.value("code", "") : ""; }

// The next `friend` frame about `name` pushed to `p`.
Json pushed_about(person& p, const std::string& name, std::chrono::milliseconds timeout = 5s) {
  return p.ws->wait_for([&](const Json& f) { return f["type"] == "friend" && f["name"] == name; }, timeout);
}
// Whether any frame `p` received from log position `from` on mentions `text`.
bool heard_of(person& p, std::size_t from, const std::string& text) {
  const auto log = p.ws->log_from(from);
  return std::any_of(log.begin(), log.end(), [&](const std::string& f) { return f.find(text) != std::string::npos; });
}
const Json* entry(const Json& list, const std::string& name) {
  for (const auto& e : list) {
    if (e["name"] == name) return &e;
  }
  return nullptr;
}
void befriend(person& a, const std::string& a_name, person& b, const std::string& b_name) {
  expect_type(relate(a, "friend_request", b_name), "friend");
  pushed_about(b, a_name);
  const auto accepted = relate(b, "friend_accept", a_name);
  ASSERT_EQ(accepted.value("relation", ""), "friend") << accepted;
  pushed_about(a, b_name);
}

TEST(Friends, ARequestAcceptedShowsPresenceAndAnInvitationSeatsTheFriend) {
  server_process server;
  const auto port = server.port();
  person ann(port, "Ann"), bo(port, "Bo"), cy(port, "Cy");

  // Ann asks Bo (by his name, any case): she sees it outgoing, he is told at once and finds it in his lists.
  const auto asked = relate(ann, "friend_request", "bo");
  EXPECT_EQ(asked, (Json{{"type", "friend"}, {"re", asked["re"]}, {"name", "Bo"}, {"relation", "outgoing"},
                         {"at", asked["at"]}}));
  EXPECT_EQ(pushed_about(bo, "Ann")["relation"], "incoming");
  const auto lists = bo.ws->request({{"type", "friends"}});
  ASSERT_EQ(lists["incoming"].size(), 1u) << lists;
  EXPECT_EQ(lists["incoming"][0]["name"], "Ann");
  EXPECT_TRUE(lists["friends"].empty());

  // Bo accepts: each is the other's friend, online (both are connected).
  const auto accepted = relate(bo, "friend_accept", "Ann");
  EXPECT_EQ(accepted["relation"], "friend") << accepted;
  EXPECT_EQ(accepted["presence"], (Json{{"status", "online"}}));
  EXPECT_EQ(pushed_about(ann, "Bo")["presence"], (Json{{"status", "online"}}));
  const auto ann_lists = ann.ws->request({{"type", "friends"}});
  ASSERT_EQ(ann_lists["friends"].size(), 1u) << ann_lists;
  EXPECT_TRUE(ann_lists["outgoing"].empty());

  // Ann makes a friends-only table: not in the lobby, and Bo sees her playing at it (she created it).
  const auto seated = ann.ws->request({{"type", "create_table"}, {"game", "medici"}, {"players", 3}, {"friends_only", true}});
  expect_type(seated, "seated");
  const std::string table = seated["table"]["id"];
  ASSERT_TRUE(seated.contains("invite")) << seated;
  EXPECT_TRUE(seated["table"]["private"].get<bool>());
  EXPECT_TRUE(seated["table"]["friends_only"].get<bool>());
  const auto playing = bo.ws->wait_for([&](const Json& f) {
    return f["type"] == "friend" && f["name"] == "Ann" && f["presence"]["status"] == "playing";
  });
  EXPECT_EQ(playing["presence"], (Json{{"status", "playing"}, {"table", table}, {"game", "medici"}}));
  const auto lobby = cy.ws->request({{"type", "watch_lobby"}, {"on", true}});
  EXPECT_EQ(lobby.dump().find(table), std::string::npos) << "a friends-only table is not listed";

  // Cy, no friend of Ann's, cannot join or watch it by its id.
  EXPECT_EQ(code(cy.ws->request({{"type", "join"}, {"table", table}})), "friends_only");
  EXPECT_EQ(code(cy.ws->request({{"type", "watch"}, {"table", table}})), "friends_only");

  // Ann invites Bo: he is told at once, with the table's invite, and finds it in his lists.
  const auto invited = ann.ws->request({{"type", "invite"}, {"table", table}, {"name", "Bo"}});
  EXPECT_EQ(invited, (Json{{"type", "invited"}, {"re", invited["re"]}, {"table", table}, {"name", "Bo"}}));
  const auto invitation = bo.ws->wait_type("invitation");
  EXPECT_EQ(invitation["from"], "Ann");
  EXPECT_EQ(invitation["table"], table);
  EXPECT_EQ(invitation["game"], "medici");
  EXPECT_EQ(invitation["players"], 3);
  EXPECT_EQ(invitation["invite"], seated["invite"]);
  EXPECT_EQ(bo.ws->request({{"type", "friends"}})["invitations"].size(), 1u);

  // He accepts by joining: seated, and the invitation is gone from his lists.
  expect_type(bo.ws->request({{"type", "join"}, {"table", table}}), "seated");
  EXPECT_TRUE(bo.ws->request({{"type", "friends"}})["invitations"].empty());
  // A friend of the creator's may join by the id; anyone with the invite may too.
  expect_type(cy.ws->request({{"type", "join"}, {"invite", seated["invite"]}}), "seated");

  // Bo goes: Ann sees him offline, with when he was last seen.
  bo.ws->close();
  const auto offline = ann.ws->wait_for([&](const Json& f) {
    return f["type"] == "friend" && f["name"] == "Bo" && f["presence"]["status"] == "offline";
  });
  EXPECT_GT(offline["presence"].value("last_seen", 0LL), 0LL) << offline;
}

TEST(Friends, APrivateTableIsNeverNamedInAFriendsPresence) {
  server_process server;
  const auto port = server.port();
  person ann(port, "Ann"), bo(port, "Bo");
  befriend(ann, "Ann", bo, "Bo");
  const auto from = bo.ws->log_from(0).size();
  // A private table (not friends-only): Bo sees Ann playing, never where.
  const auto seated = ann.ws->request({{"type", "create_table"}, {"game", "medici"}, {"players", 3}, {"private", true}});
  expect_type(seated, "seated");
  const std::string table = seated["table"]["id"];
  const auto playing = bo.ws->wait_for([&](const Json& f) {
    return f["type"] == "friend" && f["name"] == "Ann" && f["presence"]["status"] == "playing";
  });
  EXPECT_EQ(playing["presence"], (Json{{"status", "playing"}})) << playing;
  const auto lists = bo.ws->request({{"type", "friends"}});
  ASSERT_EQ(lists["friends"].size(), 1u) << lists;
  EXPECT_EQ(lists["friends"][0]["presence"], (Json{{"status", "playing"}}));
  EXPECT_FALSE(heard_of(bo, from, table)) << "the private table's id reached a friend";
}

TEST(Friends, ABlockStopsEveryWayToReachTheBlocker) {
  server_process server;
  const auto port = server.port();
  person ann(port, "Ann"), bo(port, "Bo"), cy(port, "Cy");
  befriend(ann, "Ann", cy, "Cy");
  befriend(ann, "Ann", bo, "Bo");

  // Ann blocks Cy: their friendship ends (Cy only sees it end, as by a removal).
  const auto blocked = relate(ann, "block", "Cy");
  EXPECT_EQ(blocked["relation"], "blocked") << blocked;
  EXPECT_EQ(pushed_about(cy, "Ann")["relation"], "none");
  const auto ann_lists = ann.ws->request({{"type", "friends"}});
  EXPECT_EQ(ann_lists["blocked"].size(), 1u) << ann_lists;
  EXPECT_EQ(entry(ann_lists["friends"], "Cy"), nullptr);

  // A friend request from Cy is answered as if it went, and never reaches Ann.
  std::size_t ann_heard = ann.ws->log().size();
  EXPECT_EQ(relate(cy, "friend_request", "Ann")["relation"], "outgoing");
  EXPECT_TRUE(ann.ws->request({{"type", "friends"}})["incoming"].empty());

  // Her presence: Cy is no friend any more, so he hears nothing of her new table.
  const std::size_t cy_heard = cy.ws->log().size();
  const auto seated = ann.ws->request({{"type", "create_table"}, {"game", "medici"}, {"players", 4}, {"rated", false}});
  expect_type(seated, "seated");
  const std::string table = seated["table"]["id"];
  pushed_about(bo, "Ann");  // Bo, her friend, hears she is playing

  // Cy cannot join her table; Bo can.
  EXPECT_EQ(code(cy.ws->request({{"type", "join"}, {"table", table}})), "cannot_join");
  expect_type(bo.ws->request({{"type", "join"}, {"table", table}}), "seated");
  // Cy cannot invite Ann (no friend of his), and Ann cannot sit at Cy's table (she blocked him).
  const auto cys = cy.ws->request({{"type", "create_table"}, {"game", "medici"}, {"players", 3}, {"private", true}, {"rated", false}});
  expect_type(cys, "seated");
  EXPECT_EQ(code(cy.ws->request({{"type", "invite"}, {"table", cys["table"]["id"]}, {"name", "Ann"}})), "not_friends");
  EXPECT_EQ(code(ann.ws->request({{"type", "join"}, {"invite", cys["invite"]}})), "blocked_player");

  // Cy watches Ann's table and chats: Bo reads it, Ann does not (both read the spectators).
  expect_type(cy.ws->request({{"type", "watch"}, {"table", table}}), "watching");
  for (person* p : {&ann, &bo}) {
    expect_type(p->ws->request({{"type", "chat_settings"}, {"table", table}, {"see_spectators", true}}), "ack");
  }
  ann_heard = ann.ws->log().size();
  expect_type(cy.ws->request({{"type", "chat"}, {"table", table}, {"text", "psst from Cy"}}), "ack");
  bo.ws->wait_for([](const Json& f) { return f["type"] == "chat" && f["text"] == "psst from Cy"; });
  expect_type(ann.ws->request({{"type", "ping"}}), "pong");  // whatever was sent to her before has arrived
  EXPECT_FALSE(heard_of(ann, ann_heard, "psst from Cy"));
  EXPECT_FALSE(heard_of(cy, cy_heard, "\"playing\"")) << "Cy heard of Ann's presence";

  // A rematch would seat them together again: Ann and Cy finish a game (unblocked), she blocks him, and his offer
  // of a rematch keeps her seat, which she may not take (nor he hers, had she offered).
  EXPECT_EQ(relate(ann, "unblock", "Cy")["relation"], "none");
  const auto duel = ann.ws->request({{"type", "create_table"}, {"game", "medici"}, {"players", 2}, {"rated", false}});
  const std::string duel_id = duel["table"]["id"];
  expect_type(cy.ws->request({{"type", "join"}, {"table", duel_id}}), "seated");
  expect_type(ann.ws->request({{"type", "start"}, {"table", duel_id}}), "ack");
  seat_tracker a(ann.ws.get(), duel_id), c(cy.ws.get(), duel_id);
  finish({&a, &c}, 7);
  // (Just after a game played at full speed, a request may come within the same second's twenty.)
  EXPECT_EQ(request_within_rate(*ann.ws, {{"type", "block"}, {"name", "Cy"}})["relation"], "blocked");
  expect_type(request_within_rate(*cy.ws, {{"type", "rematch"}, {"table", duel_id}}), "seated");
  EXPECT_EQ(code(request_within_rate(*ann.ws, {{"type", "rematch"}, {"table", duel_id}})), "blocked_player");

  // Unblocked, Cy may sit at her tables again (and she at his).
  EXPECT_EQ(relate(ann, "unblock", "Cy")["relation"], "none");
  expect_type(cy.ws->request({{"type", "leave"}, {"table", table}}), "left");
  expect_type(cy.ws->request({{"type", "join"}, {"table", table}}), "seated");
}

TEST(Friends, BadRequestsGetAClearErrorAndStoreNothing) {
  server_process server;
  const auto port = server.port();
  person ann(port, "Ann"), bo(port, "Bo");
  ws_client guest(port);
  guest.wait_type("welcome");

  // An account that has played no public game is not shown to others: its profile answers as an unknown name's.
  EXPECT_EQ(ann.web.get("/api/players/Bo").status, 404);
  EXPECT_EQ(ann.web.get("/api/players/Nobody").status, 404);
  EXPECT_EQ(bo.web.get("/api/players/Bo").status, 200);

  EXPECT_EQ(code(guest.request({{"type", "friends"}})), "not_signed_in");
  EXPECT_EQ(code(guest.request({{"type", "friend_request"}, {"name", "Ann"}})), "not_signed_in");
  EXPECT_EQ(code(relate(ann, "friend_request", "Nobody Here")), "no_such_player");
  EXPECT_EQ(code(relate(ann, "friend_request", "ann")), "self");
  EXPECT_EQ(code(relate(ann, "block", "ANN")), "self");
  EXPECT_EQ(code(relate(ann, "friend_accept", "Bo")), "no_such_request");
  EXPECT_EQ(code(relate(ann, "friend_remove", "Bo")), "not_friends");
  EXPECT_EQ(code(relate(ann, "unblock", "Bo")), "not_blocked");
  EXPECT_EQ(code(ann.ws->request({{"type", "friend_request"}, {"name", ""}})), "bad_name");
  EXPECT_EQ(code(ann.ws->request({{"type", "friend_request"}})), "bad_message");
  EXPECT_EQ(code(ann.ws->request({{"type", "decline_invitation"}, {"table", "t0nothing"}})), "no_such_invitation");
  const auto lists = ann.ws->request({{"type", "friends"}});
  EXPECT_EQ(lists, (Json{{"type", "friends"}, {"re", lists["re"]}, {"friends", Json::array()}, {"incoming", Json::array()},
                         {"outgoing", Json::array()}, {"blocked", Json::array()}, {"invitations", Json::array()}}));

  // A request twice: the second is refused; asked back, they are friends.
  expect_type(relate(ann, "friend_request", "Bo"), "friend");
  EXPECT_EQ(code(relate(ann, "friend_request", "Bo")), "already_requested");
  EXPECT_EQ(relate(bo, "friend_request", "Ann")["relation"], "friend");
  EXPECT_EQ(code(relate(ann, "friend_request", "Bo")), "already_friends");

  // Invitations: only to a table one sits at, and a flood is limited; an invitation sent already is not sent again.
  const auto seated = ann.ws->request({{"type", "create_table"}, {"game", "medici"}, {"players", 3}, {"rated", false}});
  const std::string table = seated["table"]["id"];
  EXPECT_EQ(code(bo.ws->request({{"type", "invite"}, {"table", table}, {"name", "Ann"}})), "no_such_table");
  const std::size_t bo_heard = bo.ws->log().size();
  std::string last;
  int sent = 0;
  for (; sent < 40 && last.empty(); ++sent) last = code(ann.ws->request({{"type", "invite"}, {"table", table}, {"name", "Bo"}}));
  EXPECT_EQ(last, "rate_limited");
  EXPECT_EQ(sent, 31);  // 30 in ten minutes
  expect_type(bo.ws->request({{"type", "ping"}}), "pong");
  const auto log = bo.ws->log_from(bo_heard);
  EXPECT_EQ(std::count_if(log.begin(), log.end(),
                          [](const std::string& f) { return f.find("\"type\":\"invitation\"") != std::string::npos; }),
            1);
  // Declined: Ann is told, and it is gone.
  expect_type(bo.ws->request({{"type", "decline_invitation"}, {"table", table}}), "invitation_declined");
  EXPECT_EQ(ann.ws->wait_type("invitation_declined")["name"], "Bo");
  EXPECT_EQ(code(bo.ws->request({{"type", "decline_invitation"}, {"table", table}})), "no_such_invitation");
}


// ---- Chat, reports and moderation --------------------------------------------------------------------------------

Json chat(ws_client& ws, const std::string& table, const std::string& text) {
  return ws.request({{"type", "chat"}, {"table", table}, {"text", text}});
}
// Whether `ws` has heard the chat line `text` (each test's lines differ): whatever was sent to it before its ping's
// pong has arrived, for frames are in order.
bool hears(ws_client& ws, const std::string& text) {
  expect_type(ws.request({{"type", "ping"}}), "pong");
  const auto log = ws.log();
  return std::any_of(log.begin(), log.end(), [&](const std::string& f) {
    const Json j = Json::parse(f);
    return j["type"] == "chat" && j["text"] == text;
  });
}

TEST(TableChat, PlayersAndSpectatorsApartMutesTheCreatorsSwitchAndHistory) {
  server_process server;
  const auto port = server.port();
  person ann(port, "Ann"), bo(port, "Bo"), cy(port, "Cy");
  ws_client di(port);
  di.wait_type("welcome");
  const auto seated = ann.ws->request({{"type", "create_table"}, {"game", "medici"}, {"players", 3}, {"rated", false}});
  const std::string table = seated["table"]["id"];
  const auto bo_seat = bo.ws->request({{"type", "join"}, {"table", table}});
  expect_type(bo_seat, "seated");
  expect_type(cy.ws->request({{"type", "watch"}, {"table", table}}), "watching");
  expect_type(di.request({{"type", "watch"}, {"table", table}}), "watching");

  // A player's line reaches everyone at the table; a spectator's only the spectators.
  expect_type(chat(*ann.ws, table, "good luck all"), "ack");
  EXPECT_TRUE(hears(*bo.ws, "good luck all"));
  EXPECT_TRUE(hears(*cy.ws, "good luck all"));
  expect_type(chat(*cy.ws, table, "from the stands"), "ack");
  EXPECT_TRUE(hears(di, "from the stands"));
  EXPECT_FALSE(hears(*ann.ws, "from the stands"));
  EXPECT_FALSE(hears(*bo.ws, "from the stands"));

  // Bo chooses to read the spectators: he is sent what they said so far, and their next lines.
  expect_type(bo.ws->request({{"type", "chat_settings"}, {"table", table}, {"see_spectators", true}}), "ack");
  const auto history = bo.ws->wait_type("chat_history");
  ASSERT_EQ(history["lines"].size(), 2u) << history;
  EXPECT_EQ(history["lines"][1]["text"], "from the stands");
  EXPECT_EQ(history["lines"][1]["channel"], "spectators");
  EXPECT_TRUE(history["lines"][1]["seat"].is_null());
  expect_type(chat(di, table, "go Bo"), "ack");
  const std::string di_name = bo.ws->wait_for([](const Json& f) { return f["type"] == "chat" && f["text"] == "go Bo"; })["from"];
  EXPECT_FALSE(hears(*ann.ws, "go Bo"));

  // Ann mutes Di (for herself): Bo still reads Di.
  expect_type(ann.ws->request({{"type", "chat_settings"}, {"table", table}, {"see_spectators", true}}), "ack");
  expect_type(ann.ws->request({{"type", "mute"}, {"table", table}, {"name", di_name}}), "ack");
  expect_type(chat(di, table, "can you read me"), "ack");
  EXPECT_FALSE(hears(*ann.ws, "can you read me"));
  EXPECT_TRUE(hears(*bo.ws, "can you read me"));

  // Only the creator may stop the spectators; then they may not chat, and everyone is shown the switch.
  EXPECT_EQ(code(bo.ws->request({{"type", "chat_settings"}, {"table", table}, {"spectators_may_chat", false}})), "not_creator");
  expect_type(ann.ws->request({{"type", "chat_settings"}, {"table", table}, {"spectators_may_chat", false}}), "ack");
  const auto shown = cy.ws->wait_for([&](const Json& f) { return f["type"] == "table" && f["table"].contains("spectators_may_chat"); });
  EXPECT_FALSE(shown["table"]["spectators_may_chat"].get<bool>());
  EXPECT_EQ(code(chat(*cy.ws, table, "let me speak")), "spectators_muted");

  // History after a reconnect: Bo's seat taken back on a new connection brings the lines he may read.
  bo.connect(port);
  expect_type(bo.ws->request({{"type", "resume"}, {"token", bo_seat["token"]}}), "seated");
  const auto again = bo.ws->wait_type("chat_history");
  ASSERT_EQ(again["lines"].size(), 1u) << again;  // a new connection reads no spectators until it asks again
  EXPECT_EQ(again["lines"][0]["text"], "good luck all");
}

// emporium-admin on the server's store.
int admin(const server_process& server, const std::string& command) {
  const std::string line = std::string(EMPORIUM_ADMIN_BINARY) + " --data-dir " + server.data_dir() + " " + command +
                           " >/dev/null 2>&1";
  return std::system(line.c_str());
}

TEST(Moderation, AReportKeepsItsContextAndAModeratorMutesThenSuspends) {
  server_process server;
  const auto port = server.port();
  person ann(port, "Ann"), bo(port, "Bo"), mo(port, "Mo");
  const auto seated = ann.ws->request({{"type", "create_table"}, {"game", "medici"}, {"players", 2}, {"rated", false}});
  const std::string table = seated["table"]["id"];
  expect_type(bo.ws->request({{"type", "join"}, {"table", table}}), "seated");
  expect_type(chat(*bo.ws, table, "hello"), "ack");
  expect_type(chat(*bo.ws, table, "you play like a potato"), "ack");
  const auto line = ann.ws->wait_for([](const Json& f) { return f["type"] == "chat" && f["text"] == "you play like a potato"; });

  // Reports without context, or of nobody here, are refused and store nothing.
  const auto report = [&](person& p, Json fields) {
    fields["type"] = "report";
    return p.ws->request(fields);
  };
  EXPECT_EQ(code(report(ann, {{"table", "t0nowhere"}, {"name", "Bo"}, {"reason", "abuse"}})), "no_such_table");
  EXPECT_EQ(code(report(ann, {{"table", table}, {"name", "Zed"}, {"reason", "abuse"}})), "no_such_player");
  EXPECT_EQ(code(report(ann, {{"table", table}, {"name", "Bo"}, {"reason", "rude"}})), "bad_message");
  EXPECT_EQ(code(report(ann, {{"table", table}, {"name", "Bo"}, {"reason", "abuse"}, {"line", 999}})), "no_such_line");
  EXPECT_EQ(code(report(ann, {{"table", table}, {"name", "Ann"}, {"reason", "abuse"}})), "self");
  const auto made = report(ann, {{"table", table}, {"name", "Bo"}, {"reason", "abuse"}, {"note", "again and again"},
                                 {"line", line["id"]}});
  expect_type(made, "reported");

  // Only a moderator sees reports; emporium-admin makes Mo one.
  EXPECT_EQ(mo.web.get("/api/moderation/reports").status, 403);
  ASSERT_EQ(admin(server, "grant-moderator mo"), 0);
  EXPECT_NE(admin(server, "grant-moderator Nobody"), 0);
  EXPECT_EQ(ann.web.get("/api/moderation/reports").status, 403);
  const auto listed = mo.web.get("/api/moderation/reports");
  ASSERT_EQ(listed.status, 200) << listed.body;
  const auto reports = Json::parse(listed.body)["reports"];
  ASSERT_EQ(reports.size(), 1u) << reports;
  const auto& r = reports[0];
  EXPECT_EQ(r["id"], made["report"]);
  EXPECT_EQ(r["reporter"], "Ann");
  EXPECT_EQ(r["account"], "Bo");
  EXPECT_EQ(r["reason"], "abuse");
  EXPECT_EQ(r["note"], "again and again");
  EXPECT_EQ(r["context"]["line"]["text"], "you play like a potato");
  EXPECT_EQ(r["context"]["table"]["id"], table);
  ASSERT_EQ(r["context"]["chat"].size(), 2u);
  EXPECT_EQ(r["context"]["chat"][0]["text"], "hello");

  // Mo mutes Bo's chat for an hour: Bo is told at once, and may not chat.
  const auto muted = mo.web.post("/api/moderation/act", {{"report", r["id"]}, {"action", "mute"}, {"reason", "insults"}, {"hours", 1}});
  ASSERT_EQ(muted.status, 200) << muted.body;
  const auto told = bo.ws->wait_type("moderation");
  EXPECT_EQ(told["action"], "mute");
  EXPECT_EQ(told["reason"], "insults");
  EXPECT_GT(told["until"].get<long long>(), 0);
  EXPECT_EQ(code(chat(*bo.ws, table, "still here")), "chat_muted");
  EXPECT_EQ(mo.web.post("/api/moderation/act", {{"report", r["id"]}, {"action", "dismiss"}, {"reason", "x"}}).status, 404)
      << "a report is acted on once";
  EXPECT_TRUE(Json::parse(mo.web.get("/api/moderation/reports").body)["reports"].empty());
  const auto bo_page = Json::parse(bo.web.get("/api/account").body);
  ASSERT_EQ(bo_page["moderation"].size(), 1u) << bo_page;
  EXPECT_EQ(bo_page["moderation"][0]["action"], "mute");

  // During the game a report keeps the game as a spectator sees it, and nothing more.
  expect_type(ann.ws->request({{"type", "start"}, {"table", table}}), "ack");
  ws_client cy(port);
  cy.wait_type("welcome");
  expect_type(cy.request({{"type", "watch"}, {"table", table}}), "watching");
  const auto spectator = cy.request({{"type", "snapshot"}, {"table", table}});
  expect_type(report(ann, {{"table", table}, {"name", "Bo"}, {"reason", "cheating"}}), "reported");
  const auto during = Json::parse(mo.web.get("/api/moderation/reports").body)["reports"];
  ASSERT_EQ(during.size(), 1u) << during;
  EXPECT_EQ(during[0]["context"]["version"], spectator["version"]);
  EXPECT_EQ(during[0]["context"]["view"], spectator["view"]);
  EXPECT_TRUE(during[0]["context"]["line"].is_null());
  EXPECT_FALSE(during[0]["context"]["table"].contains("seed"));

  // A suspension, by name, during the game: Bo's connection closes, a bot plays his seat, and he cannot sign in.
  const auto suspended = mo.web.post("/api/moderation/act", {{"name", "Bo"}, {"action", "suspend"}, {"reason", "repeated abuse"}, {"hours", 48}});
  ASSERT_EQ(suspended.status, 200) << suspended.body;
  for (int i = 0; i < 50 && !bo.ws->closed(); ++i) std::this_thread::sleep_for(100ms);
  EXPECT_TRUE(bo.ws->closed());
  const auto bot_seat = ann.ws->wait_for([&](const Json& f) {
    if (f["type"] != "table" && f["type"] != "events") return false;
    const auto& t = f.contains("table") && f["table"].is_object() ? f["table"] : Json();
    return t.is_object() && t["seats"][1].value("stand_in", "") == "left";
  }, 10s);
  EXPECT_EQ(bot_seat["table"]["seats"][1]["name"], "Bo");
  browser again(port);
  const auto refused = again.post("/api/sign-in", {{"name", "Bo"}, {"password", "correct horse Bo"}});
  EXPECT_EQ(refused.status, 403) << refused.body;
  EXPECT_NE(refused.body.find("repeated abuse"), std::string::npos);
  EXPECT_EQ(mo.web.post("/api/moderation/act", {{"name", "Mo"}, {"action", "warn"}, {"reason", "x"}}).status, 400);
  EXPECT_EQ(ann.web.post("/api/moderation/act", {{"name", "Bo"}, {"action", "warn"}, {"reason", "x"}}).status, 403);
}

}  // namespace
}  // namespace emporium::testing
