// Accounts over HTTP against the real server (docs/accounts.md): the password path end to end, the anti-CSRF and
// same-origin rules, sessions, limits on guessing, export and deletion.
#include <gtest/gtest.h>

#include <sqlite3.h>

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "game_driver.hpp"
#include "postgres_local.hpp"
#include "ratings/ratings.hpp"
#include "test_authenticator.hpp"
#include "people_client.hpp"
#include "test_client.hpp"

namespace emporium::testing {
namespace {

using Json = nlohmann::json;

std::string code_of(const http_reply& r) {
  const Json j = Json::parse(r.body, nullptr, false);
  return j.is_object() && j.contains("error") ? j["error"].value("code", "") : "";
}



TEST(Accounts, APasswordAccountSignsUpInAndOut) {
  server_process server;
  browser ann(server.port());
  EXPECT_FALSE(ann.csrf().empty());
  EXPECT_FALSE(body_of(ann.get("/api/session"))["signed_in"].get<bool>());

  const auto up = ann.post("/api/sign-up", {{"name", "Ann Lee"}, {"password", "correct horse"}});
  ASSERT_EQ(up.status, 200) << up.body;
  EXPECT_EQ(body_of(up)["account"]["name"], "Ann Lee");
  ASSERT_EQ(up.set_cookies.size(), 1u);
  const std::string& cookie = up.set_cookies.front();
  EXPECT_NE(cookie.find("HttpOnly"), std::string::npos) << cookie;
  EXPECT_NE(cookie.find("SameSite=Lax"), std::string::npos) << cookie;
  EXPECT_EQ(cookie.find("Secure"), std::string::npos) << "plain HTTP: " << cookie;
  const std::string first_session = ann.cookie("emporium_session");
  EXPECT_GE(first_session.size(), 22u);  // at least 128 bits in base64url
  const auto me = body_of(ann.get("/api/session"));
  EXPECT_TRUE(me["signed_in"].get<bool>());
  EXPECT_EQ(me["account"]["name"], "Ann Lee");

  // The same name in other letters is the same name.
  browser other(server.port());
  const auto taken = other.post("/api/sign-up", {{"name", "ANN  lee"}, {"password", "something else"}});
  EXPECT_EQ(taken.status, 409);
  EXPECT_EQ(code_of(taken), "name_taken");

  // A new session at each sign-in; signing out ends only this one.
  const auto in = other.post("/api/sign-in", {{"name", "ann lee"}, {"password", "correct horse"}});
  ASSERT_EQ(in.status, 200) << in.body;
  EXPECT_NE(other.cookie("emporium_session"), first_session);
  const auto page = body_of(other.get("/api/account"));
  EXPECT_EQ(page["sessions"].size(), 2u);
  EXPECT_TRUE(page["account"]["has_password"].get<bool>());
  EXPECT_EQ(other.post("/api/sign-out", Json::object()).status, 200);
  EXPECT_FALSE(body_of(other.get("/api/session"))["signed_in"].get<bool>());
  EXPECT_TRUE(body_of(ann.get("/api/session"))["signed_in"].get<bool>());

  // Sign out everywhere: every session of the account ends, this browser's too.
  browser third(server.port());
  ASSERT_EQ(third.post("/api/sign-in", {{"name", "Ann Lee"}, {"password", "correct horse"}}).status, 200);
  EXPECT_EQ(ann.post("/api/sign-out-everywhere", Json::object()).status, 200);
  EXPECT_FALSE(body_of(ann.get("/api/session"))["signed_in"].get<bool>());
  EXPECT_FALSE(body_of(third.get("/api/session"))["signed_in"].get<bool>());
  // An old session id sent again signs nobody in.
  browser replay(server.port());
  replay.set_cookie("emporium_session", first_session);
  EXPECT_FALSE(body_of(replay.get("/api/session"))["signed_in"].get<bool>());
  EXPECT_EQ(replay.get("/api/account").status, 401);
}

TEST(Accounts, AStateChangingRequestComesFromThisSitesPagesWithItsToken) {
  server_process server;
  browser b(server.port());
  const Json sign_up = {{"name", "Bo"}, {"password", "12345678"}};
  // Another site's page: its Origin is not ours.
  auto r = b.post("/api/sign-up", sign_up, "http://evil.example");
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(code_of(r), "forbidden_origin");
  r = b.post("/api/sign-up", sign_up, "");  // no Origin at all
  EXPECT_EQ(code_of(r), "forbidden_origin");
  // Our origin without the token.
  r = http_request(server.port(), "POST", "/api/sign-up",
                   "Origin: http://127.0.0.1\r\nContent-Type: application/json\r\nCookie: emporium_csrf=" +
                       b.cookie("emporium_csrf") + "\r\n",
                   sign_up.dump());
  EXPECT_EQ(code_of(r), "bad_csrf_token");
  // A token that is not the cookie's.
  r = http_request(server.port(), "POST", "/api/sign-up",
                   "Origin: http://127.0.0.1\r\nContent-Type: application/json\r\nX-CSRF-Token: guess\r\n"
                   "Cookie: emporium_csrf=" + b.cookie("emporium_csrf") + "\r\n",
                   sign_up.dump());
  EXPECT_EQ(code_of(r), "bad_csrf_token");
  // A form's content type (what a cross-site form could send).
  r = http_request(server.port(), "POST", "/api/sign-up",
                   "Origin: http://127.0.0.1\r\nContent-Type: text/plain\r\nX-CSRF-Token: " + b.csrf() +
                       "\r\nCookie: emporium_csrf=" + b.cookie("emporium_csrf") + "\r\n",
                   sign_up.dump());
  EXPECT_EQ(r.status, 415);
  // None of them made an account.
  browser c(server.port());
  EXPECT_EQ(c.post("/api/sign-in", sign_up).status, 401);
  EXPECT_EQ(b.post("/api/sign-up", sign_up).status, 200);
  // Unknown routes and methods under /api/.
  EXPECT_EQ(http_request(server.port(), "GET", "/api/sign-up").status, 404);
  EXPECT_EQ(http_request(server.port(), "GET", "/api/nothing").status, 404);
}

TEST(Accounts, BadSignUpsStoreNothingAndSayWhy) {
  server_process server;
  browser b(server.port());
  auto r = b.post("/api/sign-up", {{"name", "Cy"}, {"password", std::string(257, 'p')}});
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(code_of(r), "bad_password");
  r = b.post("/api/sign-up", {{"name", "Cy"}, {"password", "short"}});
  EXPECT_EQ(code_of(r), "bad_password");
  r = b.post("/api/sign-up", {{"name", "C\u200By"}, {"password", "long enough"}});
  EXPECT_EQ(code_of(r), "bad_name");
  r = b.post("/api/sign-up", {{"name", "Cy"}, {"password", "long enough"}, {"admin", true}});
  EXPECT_EQ(code_of(r), "bad_message");
  EXPECT_EQ(b.post("/api/sign-in", {{"name", "Cy"}, {"password", std::string(257, 'p')}}).status, 400);
  EXPECT_EQ(b.post("/api/sign-in", {{"name", "Cy"}, {"password", "long enough"}}).status, 401);
  EXPECT_FALSE(body_of(b.get("/api/session"))["signed_in"].get<bool>());
}

TEST(Accounts, AWrongPasswordAndAnUnknownNameGetTheSameAnswerAndTheSameLimit) {
  server_process server;
  browser owner(server.port());
  ASSERT_EQ(owner.post("/api/sign-up", {{"name", "Dee"}, {"password", "the right one"}}).status, 200);
  browser guesser(server.port());
  const auto wrong = guesser.post("/api/sign-in", {{"name", "Dee"}, {"password", "a wrong one"}});
  const auto unknown = guesser.post("/api/sign-in", {{"name", "Nobody"}, {"password", "a wrong one"}});
  EXPECT_EQ(wrong.status, 401);
  EXPECT_EQ(wrong.status, unknown.status);
  EXPECT_EQ(wrong.body, unknown.body);
  // Ten failures per name within the window; the eleventh try waits, known name or not, right password or not.
  for (int i = 1; i < 10; ++i) {
    EXPECT_EQ(guesser.post("/api/sign-in", {{"name", "Dee"}, {"password", "guess " + std::to_string(i)}}).status, 401);
    EXPECT_EQ(guesser.post("/api/sign-in", {{"name", "Nobody"}, {"password", "guess " + std::to_string(i)}}).status,
              401);
  }
  const auto locked = guesser.post("/api/sign-in", {{"name", "Dee"}, {"password", "the right one"}});
  const auto locked_unknown = guesser.post("/api/sign-in", {{"name", "Nobody"}, {"password", "x"}});
  EXPECT_EQ(locked.status, 429);
  EXPECT_EQ(locked_unknown.status, 429);
  EXPECT_EQ(code_of(locked), "too_many_attempts");
  EXPECT_GT(std::stoi(locked.retry_after), 0);
  EXPECT_EQ(body_of(locked)["error"]["retry_after"].get<int>(), std::stoi(locked.retry_after));
  // The failed sign-ins are on the account's page.
  const auto page = body_of(owner.get("/api/account"));
  int failures = 0;
  for (const auto& s : page["sign_ins"]) failures += s["ok"].get<bool>() ? 0 : 1;
  EXPECT_GE(failures, 10);
}

TEST(Accounts, ExportHoldsTheAccountAndDeletionLeavesNothingToSignInTo) {
  server_process server;
  auto t = seat_players(server.port(), 3, false);
  start(t);
  browser b(server.port());
  ASSERT_EQ(b.post("/api/sign-up", {{"name", "Eve"}, {"password", "eve's password"}, {"seats", {t.tokens[2]}}}).status,
            200);
  // A line Eve writes at the table, signed in, is hers to export.
  ws_client eve(server.port(), signed_in(b));
  eve.wait_type("welcome");
  ASSERT_EQ(eve.request({{"type", "resume"}, {"table", t.id}})["type"], "seated");
  ASSERT_EQ(eve.request({{"type", "chat"}, {"table", t.id}, {"text", "good luck, all"}})["type"], "ack");
  Json data;
  http_reply exported;
  for (int i = 0; i < 50; ++i) {  // the line is kept on the store's thread, just after it was sent
    exported = b.get("/api/account/export");
    ASSERT_EQ(exported.status, 200);
    data = body_of(exported);
    if (!data["chat"].empty()) break;
    std::this_thread::sleep_for(20ms);
  }
  EXPECT_NE(exported.content_disposition.find("attachment"), std::string::npos);
  EXPECT_EQ(data["account"]["name"], "Eve");
  ASSERT_EQ(data["games"].size(), 1u) << data;
  EXPECT_EQ(data["games"][0]["table"], t.id);
  EXPECT_EQ(data["games"][0]["game"], "medici");
  EXPECT_EQ(data["games"][0]["state"], "playing");
  EXPECT_EQ(data["games"][0]["seat"], 2);
  ASSERT_EQ(data["chat"].size(), 1u) << data;
  EXPECT_EQ(data["chat"][0]["text"], "good luck, all");
  EXPECT_EQ(data["chat"][0]["table"], t.id);
  EXPECT_EQ(exported.body.find("argon2"), std::string::npos) << "no password hash leaves the server";
  EXPECT_EQ(exported.body.find(t.tokens[2]), std::string::npos) << "nor a seat token";
  EXPECT_EQ(exported.body.find("\"hand\""), std::string::npos) << "nor anything of a game's view";

  EXPECT_EQ(code_of(b.post("/api/account/delete", {{"name", "Someone"}})), "confirm_with_name");
  EXPECT_EQ(b.post("/api/account/delete", {{"name", "eve"}}).status, 200);
  EXPECT_FALSE(body_of(b.get("/api/session"))["signed_in"].get<bool>());
  browser again(server.port());
  EXPECT_EQ(again.post("/api/sign-in", {{"name", "Eve"}, {"password", "eve's password"}}).status, 401);
  // The name is free again.
  EXPECT_EQ(again.post("/api/sign-up", {{"name", "Eve"}, {"password", "another one"}}).status, 200);
}

constexpr const char* kOrigin = "http://127.0.0.1";

// Waits until the connection is closed; its close code.
std::optional<int> closed_with(ws_client& c) {
  for (int i = 0; i < 200 && !c.closed(); ++i) std::this_thread::sleep_for(10ms);
  return c.close_code();
}

// A browser where Ann signed up or in (`path`) with her password.
browser ann_by(std::uint16_t port, const std::string& path) {
  browser b(port);
  EXPECT_EQ(b.post(path, {{"name", "Ann"}, {"password", "ann's password"}}).status, 200);
  return b;
}

// Ann, signed up on a laptop and signed in on a phone, with a signed-in WebSocket open on each.
struct ann_on_two_devices {
  explicit ann_on_two_devices(std::uint16_t port)
      : laptop(ann_by(port, "/api/sign-up")), phone(ann_by(port, "/api/sign-in")),
        on_laptop(port, signed_in(laptop)), on_phone(port, signed_in(phone)) {
    EXPECT_EQ(on_laptop.wait_type("hello")["account"]["name"], "Ann");
    EXPECT_EQ(on_phone.wait_type("hello")["account"]["name"], "Ann");
  }
  browser laptop, phone;
  ws_client on_laptop, on_phone;
};

TEST(Accounts, AnEndedSessionClosesTheConnectionsItSignedIn) {
  server_process server;
  ann_on_two_devices ann(server.port());
  auto &laptop = ann.laptop, &phone = ann.phone;
  auto &on_laptop = ann.on_laptop, &on_phone = ann.on_phone;

  // The laptop signs the phone's session out: the phone's connection closes, the laptop's stays.
  const auto sessions = body_of(laptop.get("/api/account"))["sessions"];
  std::string phone_session;
  for (const auto& s : sessions) {
    if (!s["current"].get<bool>()) phone_session = s["id"];
  }
  ASSERT_FALSE(phone_session.empty()) << sessions;
  ASSERT_EQ(laptop.post("/api/account/sessions/sign-out", {{"id", phone_session}}).status, 200);
  EXPECT_EQ(closed_with(on_phone), 1008);
  EXPECT_EQ(on_laptop.request({{"type", "ping"}})["type"], "pong");
  // Connecting again with the ended session's cookie: a guest.
  ws_client again(server.port(), signed_in(phone));
  EXPECT_EQ(again.wait_type("hello")["account"], nullptr);

  // Signing in again makes a new session and ends the one the browser had, with its connections.
  ASSERT_EQ(laptop.post("/api/sign-in", {{"name", "Ann"}, {"password", "ann's password"}}).status, 200);
  EXPECT_EQ(closed_with(on_laptop), 1008);
  ws_client second(server.port(), signed_in(laptop));
  EXPECT_EQ(second.wait_type("hello")["account"]["name"], "Ann");
  // Everywhere: every device's connections close, the laptop's own too.
  ASSERT_EQ(phone.post("/api/sign-in", {{"name", "Ann"}, {"password", "ann's password"}}).status, 200);
  ws_client phone_again(server.port(), signed_in(phone));
  EXPECT_EQ(phone_again.wait_type("hello")["account"]["name"], "Ann");
  ASSERT_EQ(laptop.post("/api/sign-out-everywhere", Json::object()).status, 200);
  EXPECT_EQ(closed_with(second), 1008);
  EXPECT_EQ(closed_with(phone_again), 1008);
  EXPECT_FALSE(again.closed()) << "a guest's connection is nobody's session";
}

TEST(Accounts, ChangingThePasswordSignsTheOtherSessionsOut) {
  server_process server;
  ann_on_two_devices ann(server.port());
  auto &laptop = ann.laptop, &phone = ann.phone;
  auto &on_laptop = ann.on_laptop, &on_phone = ann.on_phone;

  // The laptop changes the password: the phone's session ends with its connection; the laptop's stay.
  ASSERT_EQ(laptop.post("/api/account/password", {{"current", "ann's password"}, {"password", "a new password"}}).status,
            200);
  EXPECT_EQ(closed_with(on_phone), 1008);
  EXPECT_EQ(phone.get("/api/account").status, 401);
  ws_client again(server.port(), signed_in(phone));
  EXPECT_EQ(again.wait_type("hello")["account"], nullptr);
  EXPECT_EQ(on_laptop.request({{"type", "ping"}})["type"], "pong");
  const auto page = laptop.get("/api/account");
  ASSERT_EQ(page.status, 200);
  EXPECT_EQ(body_of(page)["sessions"].size(), 1u);
  // The new password signs in, the old one no more.
  EXPECT_EQ(code_of(phone.post("/api/sign-in", {{"name", "Ann"}, {"password", "ann's password"}})), "bad_credentials");
  EXPECT_EQ(phone.post("/api/sign-in", {{"name", "Ann"}, {"password", "a new password"}}).status, 200);
}

TEST(Accounts, GuestsFillingTheirAddressDoNotLockOutItsSignedInPeople) {
  // Behind a trusted proxy, as a classroom or a mobile network reaches the server: one address for everyone.
  server_process server("", {"--trusted-proxies", "127.0.0.1", "--max-connections-per-ip", "2",
                             "--max-connections-per-account", "2"});
  const std::vector<std::pair<std::string, std::string>> classroom = {{"X-Forwarded-For", "203.0.113.9"}};
  ws_client guest1(server.port(), ws_options{"/ws", "", classroom, true});
  ws_client guest2(server.port(), ws_options{"/ws", "", classroom, true});
  guest1.wait_type("welcome");
  guest2.wait_type("welcome");
  EXPECT_THROW(ws_client(server.port(), ws_options{"/ws", "", classroom, true}), std::exception) << "a third guest";

  browser ann(server.port());
  ASSERT_EQ(ann.post("/api/sign-up", {{"name", "Ann"}, {"password", "ann's password"}}).status, 200);
  auto as_ann = signed_in(ann);
  as_ann.headers.push_back(classroom.front());
  ws_client tab1(server.port(), as_ann);
  ws_client tab2(server.port(), as_ann);
  EXPECT_EQ(tab1.wait_type("hello")["account"]["name"], "Ann");
  EXPECT_EQ(tab2.wait_type("hello")["account"]["name"], "Ann");
  EXPECT_THROW(ws_client(server.port(), as_ann), std::exception) << "the account's own cap";
}

TEST(Accounts, ADeletedAccountsRunningGamesGoOnWithABotInItsSeat) {
  server_process server;
  auto t = seat_players(server.port(), 3, false);
  start(t);
  browser ann(server.port());
  ASSERT_EQ(ann.post("/api/sign-up", {{"name", "Ann"}, {"password", "ann's password"}, {"seats", {t.tokens[0]}}}).status, 200);
  ASSERT_EQ(ann.post("/api/account/delete", {{"name", "Ann"}}).status, 200);

  // The others see a bot in the seat, under a neutral name; the game goes on.
  const Json seat = table_where(*t.players[1], t.id, 0, [](const Json& s) { return s.contains("bot"); });
  EXPECT_EQ(seat["seats"][0]["name"], "deleted player") << seat;
  EXPECT_EQ(seat["seats"][0]["bot"], "normal") << seat;
  EXPECT_EQ(seat["state"], "playing");
  // The connection that held the seat is told it left, and its token takes nothing back.
  EXPECT_EQ(t.players[0]->wait_type("left")["table"], t.id);
  ws_client again(server.port());
  again.wait_type("welcome");
  EXPECT_EQ(again.request({{"type", "resume"}, {"token", t.tokens[0]}})["code"], "bad_token");
}

TEST(Accounts, AGuestsSeatFollowsItsAccountToAnotherDeviceWithoutTheToken) {
  server_process server;
  auto t = seat_players(server.port(), 3, /*is_private=*/true);
  start(t);
  const std::string guest_token = t.tokens[0];

  // The guest signs up from the browser that holds the seat's token: the account claims the seat.
  browser first(server.port());
  const auto up = first.post("/api/sign-up", {{"name", "Ann"}, {"password", "ann's password"}, {"seats", {guest_token}}});
  ASSERT_EQ(up.status, 200) << up.body;

  // Another device signs in: hello says who it is, and my_games holds the game with no token to show.
  browser second(server.port());
  ASSERT_EQ(second.post("/api/sign-in", {{"name", "ann"}, {"password", "ann's password"}}).status, 200);
  ws_client phone(server.port(), signed_in(second));
  phone.wait_type("welcome");
  const Json hello = phone.wait_type("hello");
  EXPECT_EQ(hello["account"]["name"], "Ann");
  EXPECT_EQ(hello["name"], "Ann");
  EXPECT_EQ(phone.request({{"type", "set_name"}, {"name", "Someone"}})["code"], "signed_in");
  const Json games = phone.request({{"type", "my_games"}, {"tokens", Json::array()}});
  ASSERT_EQ(games["type"], "my_games") << games;
  ASSERT_EQ(games["games"].size(), 1u) << games;
  EXPECT_EQ(games["games"][0]["table"], t.id);
  EXPECT_EQ(games["games"][0]["seat"], 0);
  EXPECT_EQ(games["games"][0]["token"], nullptr);
  EXPECT_EQ(games["games"][0]["state"], "playing");
  EXPECT_TRUE(games["unknown"].empty());
  // Asked by its token as well, the seat is listed once, with the token that was asked.
  const Json both = phone.request({{"type", "my_games"}, {"tokens", {guest_token}}});
  ASSERT_EQ(both["games"].size(), 1u) << both;
  EXPECT_EQ(both["games"][0]["token"], guest_token);

  // It takes the seat back by the table's id: the seat, and no token, for the server keeps only its hash.
  const Json seated = phone.request({{"type", "resume"}, {"table", t.id}});
  ASSERT_EQ(seated["type"], "seated") << seated;
  EXPECT_EQ(seated["seat"], 0);
  EXPECT_FALSE(seated.contains("token"));
  phone.wait_type("snapshot");
  const Json replaced = t.players[0]->wait_type("error");
  EXPECT_EQ(replaced["code"], "replaced");

  // A guest cannot ask for a seat by table, and another account has none there.
  ws_client guest(server.port());
  guest.wait_type("welcome");
  EXPECT_EQ(guest.request({{"type", "resume"}, {"table", t.id}})["code"], "not_signed_in");
  browser bo(server.port());
  ASSERT_EQ(bo.post("/api/sign-up", {{"name", "Bo"}, {"password", "bo's password"}}).status, 200);
  ws_client bos(server.port(), signed_in(bo));
  bos.wait_type("welcome");
  EXPECT_EQ(bos.request({{"type", "resume"}, {"table", t.id}})["code"], "not_seated");
  EXPECT_TRUE(bos.request({{"type", "my_games"}, {"tokens", Json::array()}})["games"].empty());

  // The seat a signed-in player takes is the account's at once: the first device finds it too.
  auto u = seat_players(server.port(), 2, false, "medici", nullptr, 3);
  ASSERT_EQ(phone.request({{"type", "join"}, {"table", u.id}})["type"], "seated");
  ws_client laptop(server.port(), signed_in(first));
  laptop.wait_type("welcome");
  Json listed;
  for (int i = 0; i < 50; ++i) {  // the claim is written on the store's thread, right after the seat
    listed = laptop.request({{"type", "my_games"}, {"tokens", Json::array()}});
    if (listed["games"].size() == 2) break;
    std::this_thread::sleep_for(20ms);
  }
  EXPECT_EQ(listed["games"].size(), 2u) << listed;
}

// The options a passkey request starts from, as the page would ask for them.
Json options(browser& b, const Json& request) {
  const auto r = b.post("/api/passkeys/options", request);
  EXPECT_EQ(r.status, 200) << r.body;
  return body_of(r)["publicKey"];
}

TEST(Accounts, APasskeySignsUpHereAndSignsInOnAnotherBrowser) {
  server_process server;
  test_authenticator key;  // ES256
  browser laptop(server.port());
  const Json made = options(laptop, {{"purpose", "sign_up"}, {"name", "Ann"}});
  EXPECT_EQ(made["rp"]["id"], "127.0.0.1");
  EXPECT_EQ(made["attestation"], "none");
  EXPECT_GE(made["challenge"].get<std::string>().size(), 43u);  // 256 bits
  const auto up = laptop.post("/api/passkeys/sign-up",
                              {{"name", "Ann"}, {"label", "Laptop"}, {"passkey", key.create(made, kOrigin)}});
  ASSERT_EQ(up.status, 200) << up.body;
  EXPECT_EQ(body_of(laptop.get("/api/session"))["account"]["name"], "Ann");

  browser phone(server.port());
  const Json ask = options(phone, {{"purpose", "sign_in"}});
  EXPECT_TRUE(ask["allowCredentials"].empty());  // the browser offers its own passkeys: no name is asked first
  const Json answer = key.get(ask, kOrigin);
  const auto in = phone.post("/api/passkeys/sign-in", {{"passkey", answer}});
  ASSERT_EQ(in.status, 200) << in.body;
  EXPECT_EQ(body_of(phone.get("/api/session"))["account"]["name"], "Ann");
  const auto page = body_of(phone.get("/api/account"));
  ASSERT_EQ(page["passkeys"].size(), 1u);
  EXPECT_EQ(page["passkeys"][0]["label"], "Laptop");
  EXPECT_EQ(page["sessions"].size(), 2u);
  EXPECT_FALSE(page["account"]["has_password"].get<bool>());

  // The same assertion again: its challenge was used.
  browser thief(server.port());
  const auto replayed = thief.post("/api/passkeys/sign-in", {{"passkey", answer}});
  EXPECT_EQ(replayed.status, 400);
  EXPECT_EQ(code_of(replayed), "stale_challenge");
  EXPECT_FALSE(body_of(thief.get("/api/session"))["signed_in"].get<bool>());
}

TEST(Accounts, PasskeyAnswersThatAreNotRightAreRefusedAndChangeNothing) {
  server_process server;
  test_authenticator key(-8);  // Ed25519
  browser b(server.port());
  ASSERT_EQ(b.post("/api/passkeys/sign-up", {{"name", "Bo"}, {"passkey", key.create(options(b, {{"purpose", "sign_up"}, {"name", "Bo"}}), kOrigin)}})
                .status,
            200);
  browser other(server.port());
  const auto refused_with = [&](const Json& passkey) {
    const auto r = other.post("/api/passkeys/sign-in", {{"passkey", passkey}});
    if (r.status == 200) return std::string("accepted");
    EXPECT_FALSE(body_of(other.get("/api/session"))["signed_in"].get<bool>()) << "refused, yet signed in";
    return code_of(r);
  };
  // Another site's page asked for it.
  EXPECT_EQ(refused_with(key.get(options(other, {{"purpose", "sign_in"}}), "http://evil.example")), "bad_passkey");
  // The authenticator served another relying party.
  key.rp_id = "evil.example";
  EXPECT_EQ(refused_with(key.get(options(other, {{"purpose", "sign_in"}}), kOrigin)), "bad_passkey");
  key.rp_id = "127.0.0.1";
  // A signature over other data.
  key.sign_other_data = true;
  EXPECT_EQ(refused_with(key.get(options(other, {{"purpose", "sign_in"}}), kOrigin)), "bad_passkey");
  key.sign_other_data = false;
  // A counter that goes backwards (a cloned authenticator): it was 0 at sign-up, 5 now, then 3.
  EXPECT_EQ(refused_with(key.get(options(other, {{"purpose", "sign_in"}}), kOrigin, 5)), "accepted");
  ASSERT_EQ(other.post("/api/sign-out", Json::object()).status, 200);
  EXPECT_EQ(refused_with(key.get(options(other, {{"purpose", "sign_in"}}), kOrigin, 3)), "bad_passkey");
  // A challenge made for another purpose.
  const Json made_for_sign_up = options(other, {{"purpose", "sign_up"}, {"name", "Cy"}});
  EXPECT_EQ(refused_with(key.get(made_for_sign_up, kOrigin, 9)), "stale_challenge");
  // No user presence.
  key.user_present = false;
  EXPECT_EQ(refused_with(key.get(options(other, {{"purpose", "sign_in"}}), kOrigin, 10)), "bad_passkey");
  key.user_present = true;
  // A replayed assertion: the same answer twice. Its challenge answers once.
  const Json once = key.get(options(other, {{"purpose", "sign_in"}}), kOrigin, 11);
  EXPECT_EQ(refused_with(once), "accepted");
  ASSERT_EQ(other.post("/api/sign-out", Json::object()).status, 200);
  EXPECT_EQ(refused_with(once), "stale_challenge");

  // An oversized credential at sign-up: refused before anything is decoded or stored. Just over the 16 KiB a body
  // may have (one far larger is answered the same: E2EHttp.ARequestFarOverALimitIsReadToItsEndAndAnswered).
  Json huge = test_authenticator().create(options(other, {{"purpose", "sign_up"}, {"name", "Cy"}}), kOrigin);
  huge["id"] = base64url(std::string(4096, 'i'));
  huge["attestationObject"] = base64url(std::string(10 * 1024, 'a'));
  const auto oversized = other.post("/api/passkeys/sign-up", {{"name", "Cy"}, {"passkey", huge}});
  EXPECT_EQ(oversized.status, 413) << oversized.body;
  EXPECT_EQ(code_of(oversized), "too_large") << oversized.body;  // (A credential id over 1023 bytes inside a body of allowed size: WebAuthn.AnOversizedCredentialIdIsRefused.)

  // Malformed CBOR at sign-up: no account is made, so the name is still free.
  const Json made = options(other, {{"purpose", "sign_up"}, {"name", "Cy"}});
  Json bad = test_authenticator().create(made, kOrigin);
  bad["attestationObject"] = base64url("\xA3not cbor at all");
  auto r = other.post("/api/passkeys/sign-up", {{"name", "Cy"}, {"passkey", bad}});
  EXPECT_EQ(code_of(r), "bad_passkey");
  // A wrong challenge (one the server never made).
  Json wrong = test_authenticator().create({{"challenge", base64url(std::string(32, 'x'))}, {"user", made["user"]}}, kOrigin);
  r = other.post("/api/passkeys/sign-up", {{"name", "Cy"}, {"passkey", wrong}});
  EXPECT_EQ(code_of(r), "stale_challenge");
  EXPECT_EQ(other.post("/api/passkeys/options", {{"purpose", "sign_up"}, {"name", "Cy"}}).status, 200);
  // A name taken after case folding.
  r = other.post("/api/passkeys/options", {{"purpose", "sign_up"}, {"name", "BO"}});
  EXPECT_EQ(code_of(r), "name_taken");
}

TEST(Accounts, AnAccountHoldsSeveralPasskeysAndKeepsOneWayToSignIn) {
  server_process server;
  test_authenticator first, second(-8);
  browser b(server.port());
  ASSERT_EQ(b.post("/api/passkeys/sign-up",
                   {{"name", "Di"}, {"passkey", first.create(options(b, {{"purpose", "sign_up"}, {"name", "Di"}}), kOrigin)}})
                .status,
            200);
  auto r = b.post("/api/passkeys/remove", {{"id", first.credential_id()}});
  EXPECT_EQ(code_of(r), "last_sign_in_method");
  const Json add = options(b, {{"purpose", "add"}});
  EXPECT_EQ(add["excludeCredentials"].size(), 1u);  // the authenticator is told not to make a second one
  r = b.post("/api/passkeys/add", {{"label", "Phone"}, {"passkey", second.create(add, kOrigin)}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(b.post("/api/passkeys/rename", {{"id", first.credential_id()}, {"label", "Old laptop"}}).status, 200);
  EXPECT_EQ(b.post("/api/passkeys/remove", {{"id", first.credential_id()}}).status, 200);
  const auto page = body_of(b.get("/api/account"));
  ASSERT_EQ(page["passkeys"].size(), 1u);
  EXPECT_EQ(page["passkeys"][0]["label"], "Phone");
  // The removed passkey signs nobody in any more; the other does.
  browser other(server.port());
  EXPECT_EQ(code_of(other.post("/api/passkeys/sign-in", {{"passkey", first.get(options(other, {{"purpose", "sign_in"}}), kOrigin)}})),
            "unknown_passkey");
  EXPECT_EQ(other.post("/api/passkeys/sign-in", {{"passkey", second.get(options(other, {{"purpose", "sign_in"}}), kOrigin)}}).status,
            200);
  // A password added, then the last passkey may go.
  EXPECT_EQ(b.post("/api/account/password", {{"password", "now a password"}}).status, 200);
  EXPECT_EQ(code_of(b.post("/api/account/password", {{"password", "another one"}})), "bad_credentials");  // no current
  EXPECT_EQ(b.post("/api/account/password", {{"current", "now a password"}, {"password", "another one"}}).status, 200);
  EXPECT_EQ(b.post("/api/passkeys/remove", {{"id", second.credential_id()}}).status, 200);
}

// ---- ratings (docs/ratings.md) -----------------------------------------------------------------------------------

namespace rt = emporium::server::ratings;


// A table `creator` makes with `request`'s fields, the others joining it in order; started (after `before_start`).
// Its id.
std::string started_table(const std::vector<person*>& people, Json request,
                          const std::function<void(const std::string&)>& before_start = nullptr) {
  request["type"] = "create_table";
  const Json seated = people[0]->ws->request(request);
  expect_type(seated, "seated");
  const std::string id = seated["table"]["id"];
  for (std::size_t i = 1; i < people.size(); ++i) {
    Json join{{"type", "join"}, {"table", id}};
    if (seated.contains("invite")) join = {{"type", "join"}, {"invite", seated["invite"]}};
    expect_type(people[i]->ws->request(join), "seated");
  }
  if (before_start) before_start(id);
  expect_type(people[0]->ws->request({{"type", "start"}, {"table", id}}), "ack");
  return id;
}

Json profile(browser& viewer, const std::string& name) {
  const auto r = viewer.get("/api/players/" + name);
  EXPECT_EQ(r.status, 200) << r.body;
  return body_of(r);
}
const Json& medici_of(const Json& profile) {
  for (const auto& g : profile["games"]) {
    if (g["game"] == "medici") return g;
  }
  throw std::runtime_error("no medici in the profile");
}

TEST(RatedGames, ThreeSignedInPlayersFinishARatedGameALeaverLastAndACasualOneChangesNothing) {
  server_process server;
  const auto port = server.port();
  person ann(port, "Ann"), bo(port, "Bo"), cy(port, "Cy");
  ws_client guest(port);
  guest.wait_type("welcome");
  const std::string id = started_table({&ann, &bo, &cy}, {{"game", "medici"}, {"players", 4}}, [&](const std::string& table) {
    // A guest may not take the free seat: the table is rated.
    const auto refused = guest.request({{"type", "join"}, {"table", table}});
    EXPECT_EQ(refused.value("code", ""), "rated_needs_account") << refused;
  });

  seat_tracker a(ann.ws.get(), id), b(bo.ws.get(), id), c(cy.ws.get(), id);
  play({&a, &b, &c}, {}, 11, 6);  // a few moves, then Cy leaves: a bot plays his seat to the end
  expect_type(cy.ws->request({{"type", "leave"}, {"table", id}}), "left");
  finish({&a, &b}, 12);
  const auto shown = ann.ws->wait_for(
      [&](const Json& f) { return f["type"] == "table" && f["table"]["id"] == id && f["table"].contains("rating_changes"); },
      10s)["table"];
  EXPECT_TRUE(shown["rated"].get<bool>());

  // Each profile's rank and rating: exactly the model's, from three new players.
  std::vector<int> ranks;
  std::vector<Json> profiles;
  for (person* p : {&ann, &bo, &cy}) {
    profiles.push_back(profile(ann.web, p == &ann ? "Ann" : p == &bo ? "Bo" : "cy"));  // names match case-folded
    ASSERT_EQ(profiles.back()["recent"].size(), 1u) << profiles.back();
    ranks.push_back(profiles.back()["recent"][0]["rank"]);
  }
  EXPECT_GT(ranks[2], ranks[0]);  // Cy left: last
  EXPECT_GT(ranks[2], ranks[1]);
  EXPECT_TRUE(profiles[2]["recent"][0]["left"].get<bool>());
  EXPECT_EQ(profiles[2]["reputation"], (Json{{"finished", 0}, {"left", 1}, {"timed_out", 0}}));
  const auto expected = rt::rate(std::vector<rt::Rating>(3, rt::initial_rating()), ranks);
  ASSERT_EQ(shown["rating_changes"].size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    const int value = rt::displayed_rating(expected[i]);
    const auto& medici = medici_of(profiles[i]);
    EXPECT_EQ(medici["rating"], (Json{{"value", value}, {"provisional", rt::is_provisional(expected[i])}}));
    EXPECT_EQ(medici["played"], 1);
    ASSERT_EQ(medici["history"].size(), 1u);
    EXPECT_EQ(medici["history"][0]["value"], value);
    EXPECT_EQ(medici["history"][0]["table"], id);
    EXPECT_EQ(profiles[i]["recent"][0]["delta"], value - 1000);
    EXPECT_EQ(shown["rating_changes"][i], (Json{{"seat", i}, {"before", 1000}, {"after", value}, {"delta", value - 1000},
                                                {"provisional", rt::is_provisional(expected[i])}}));
  }
  EXPECT_EQ(profiles[0]["games"].size(), 4u);  // every game, played or not
  // The leaderboard: nobody has ten rated games yet.
  const auto board = ann.web.get("/api/leaderboard/medici?limit=5");
  ASSERT_EQ(board.status, 200) << board.body;
  EXPECT_EQ(body_of(board), (Json{{"game", "medici"}, {"min_games", 10}, {"rows", Json::array()}, {"you", nullptr}}));
  EXPECT_EQ(ann.web.get("/api/leaderboard/chess").status, 404);
  EXPECT_EQ(ann.web.get("/api/leaderboard/medici?limit=0").status, 400);
  EXPECT_EQ(ann.web.get("/api/players/Nobody%20Here").status, 404);
  EXPECT_EQ(http_get(port, "/u/Ann").status, 200);  // the client's page
  EXPECT_EQ(http_get(port, "/leaderboard/medici").status, 200);

  // A private casual game: no rating moves; only Ann and Bo themselves see it in their profiles.
  const std::string casual =
      started_table({&ann, &bo}, {{"game", "medici"}, {"players", 2}, {"rated", false}, {"private", true}});
  seat_tracker a2(ann.ws.get(), casual), b2(bo.ws.get(), casual);
  finish({&a2, &b2}, 13);
  ann.ws->wait_for([&](const Json& f) { return f["type"] == "table" && f["table"]["id"] == casual &&
                                               f["table"]["state"] == "finished"; }, 10s);
  const auto own = profile(ann.web, "Ann");
  EXPECT_EQ(medici_of(own)["rating"], medici_of(profiles[0])["rating"]);
  EXPECT_EQ(medici_of(own)["history"].size(), 1u);
  EXPECT_EQ(medici_of(own)["played"], 2);
  ASSERT_EQ(own["recent"].size(), 2u);
  const auto& mine = own["recent"][0]["table"] == casual ? own["recent"][0] : own["recent"][1];  // same second: either
  EXPECT_EQ(mine["table"], casual);
  EXPECT_EQ(mine["rated"], false);
  EXPECT_EQ(mine["private"], true);
  EXPECT_EQ(mine["delta"], nullptr);
  const auto seen_by_cy = profile(cy.web, "Ann");
  EXPECT_EQ(medici_of(seen_by_cy)["played"], 1);
  ASSERT_EQ(seen_by_cy["recent"].size(), 1u);
  EXPECT_EQ(seen_by_cy["recent"][0]["table"], id);
  browser stranger(port);
  EXPECT_EQ(profile(stranger, "Ann")["recent"].size(), 1u);
}

// The kill test runs on both stores: SQLite in the data directory, and PostgreSQL (a database of its own on a server
// the test process starts, postgres_local.hpp).
class RatedGamesOn : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "postgresql") {
      EMPORIUM_NEED_POSTGRES(pg);
      pg_ = pg;
      uri_ = pg->new_database();
    }
  }
  // The flags that put a server on this test's store.
  std::vector<std::string> store_args() const {
    return uri_.empty() ? std::vector<std::string>{} : std::vector<std::string>{"--store", uri_};
  }
  // The store's count of rating updates of a table, read beside the server.
  long long updates_stored(const std::string& data, const std::string& table) const {
    if (pg_) {
      const auto n = pg_->run("SELECT count(*) FROM rating_updates WHERE table_id = '" + table + "'", uri_);
      return n.empty() ? -1 : std::stoll(n);
    }
    sqlite3* db = nullptr;
    if (sqlite3_open_v2((data + "/emporium.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) return -1;
    sqlite3_busy_timeout(db, 2000);
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(db, "SELECT count(*) FROM rating_updates WHERE table_id = ?", -1, &s, nullptr);
    sqlite3_bind_text(s, 1, table.c_str(), -1, SQLITE_TRANSIENT);
    const long long n = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int64(s, 0) : -1;
    sqlite3_finalize(s);
    sqlite3_close(db);
    return n;
  }

 private:
  emporium::test::postgres_local* pg_ = nullptr;
  std::string uri_;
};
INSTANTIATE_TEST_SUITE_P(Stores, RatedGamesOn, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& info) { return info.param; });

TEST_P(RatedGamesOn, AServerKilledAtTheLastMovesNeitherLosesNorDoublesTheUpdate) {
  const std::string data = make_temp_dir("emporium-rated-kill");
  auto server = std::make_unique<server_process>(data, store_args());
  person ann(server->port(), "Ann"), bo(server->port(), "Bo");
  // Two games that end while the server is being killed (one that ends before, as a game may, does not count).
  int ended_under_kills = 0;
  for (int game = 0; ended_under_kills < 2; ++game) {
    ASSERT_LT(game, 6) << "the games kept ending before the killing started";
    const std::string id = started_table({&ann, &bo}, {{"game", "medici"}, {"players", 2}});
    // Played normally until the last day's ships are nearly full; from then on, the server is killed after each move
    // is sent (at once or a little later, or once it is acknowledged), and started again, until the game has ended.
    auto nearly_over = [&](const seat_tracker& mover) {
      // Medici's third day has started (its events say so), then its ships nearly full: asked with a snapshot, no
      // more than the server's 20 messages a second.
      const bool last_day = std::any_of(mover.events.begin(), mover.events.end(), [](const Json& events) {
        return std::any_of(events.begin(), events.end(),
                           [](const Json& e) { return e.value("type", "") == "day_start" && e.value("day", 0) == 3; });
      });
      if (!last_day) return false;
      std::this_thread::sleep_for(120ms);
      const auto reply = mover.client->request({{"type", "snapshot"}, {"table", id}});
      if (!reply.contains("view")) throw std::runtime_error("no snapshot: " + reply.dump());
      const auto& view = reply["view"];
      int free = 0;
      for (const auto& s : view["seats"]) free += s["free"].get<int>();
      return view["day"] == view["days"] && (free <= 6 || view["bag_count"].get<int>() <= 8);
    };
    {
      seat_tracker a(ann.ws.get(), id), b(bo.ws.get(), id);
      play({&a, &b}, {}, 21 + game, 1 << 30, nearly_over);
    }
    bool finished = false;
    int kills = 0;
    for (int kill = 0; kill < 40 && !finished; ++kill) {
      seat_tracker a(ann.ws.get(), id), b(bo.ws.get(), id);
      expect_type(ann.ws->request({{"type", "snapshot"}, {"table", id}}), "snapshot");
      expect_type(bo.ws->request({{"type", "snapshot"}, {"table", id}}), "snapshot");
      a.catch_up();
      b.catch_up();
      if (a.over || b.over) {  // it ended before the killing started
        finished = true;
        EXPECT_EQ(updates_stored(data, id), 2);
        break;
      }
      auto& mover = a.legal.empty() ? b : a;
      ASSERT_FALSE(mover.legal.empty());
      const Json act{{"type", "act"}, {"table", id}, {"version", mover.version}, {"action", mover.legal[0]}};
      if (kill % 2 == 0) {
        // At once, or a millisecond or two later: before, during or after the move's transaction.
        mover.client->send(act);
        std::this_thread::sleep_for(std::chrono::milliseconds(kill % 3));
      } else {
        mover.client->request(act);  // once the move is stored and announced: the game goes on
      }
      server->kill_hard();
      ++kills;
      // Announced before it died (the move's events reached a player): it must be stored, and its update with it.
      a.catch_up();
      b.catch_up();
      const bool announced = a.over || b.over;
      server = std::make_unique<server_process>(data, store_args());
      const long long updates = updates_stored(data, id);
      for (auto* p : {&ann, &bo}) {
        p->web.reconnect(server->port());
        p->connect(server->port());
        expect_type(p->ws->request({{"type", "resume"}, {"table", id}}), "seated");
      }
      const auto view = ann.ws->request({{"type", "snapshot"}, {"table", id}})["view"];
      finished = view["phase"] == "over";
      EXPECT_EQ(updates, finished ? 2 : 0) << "kill " << kill << " of game " << game;
      if (announced) {
        EXPECT_TRUE(finished);
      }
    }
    EXPECT_TRUE(finished);
    if (kills > 0) ++ended_under_kills;
    // Once: its two players' ratings moved by one game each.
    for (const char* name : {"Ann", "Bo"}) {
      EXPECT_EQ(medici_of(profile(ann.web, name))["history"].size(), game + 1u);
    }
  }
  EXPECT_EQ(server->terminate(), 0);
  std::filesystem::remove_all(data);
}

}  // namespace
}  // namespace emporium::testing
