// E-mail against the real server and a real SMTP server (docs/mail.md): an address confirmed by its signed link,
// "your turn" after the player's delay and once, a game's end, one-click unsubscribe (RFC 8058), mail in each
// language, an SMTP server that is down for a while, and every mail of complete Silk Road and Medina games
// compared with what its reader may see.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <regex>
#include <string>
#include <thread>

#include <emporium/engine/rng.hpp>
#include <nlohmann/json.hpp>

#include "mail/mail_text.hpp"
#include "people_client.hpp"
#include "smtp_sink.hpp"
#include "store/sqlite_store.hpp"
#include "test_client.hpp"

namespace emporium::testing {
namespace {

using Json = nlohmann::json;
using namespace std::chrono_literals;

Json email_of(browser& web) { return body_of(web.get("/api/account"))["email"]; }

// The path and query of the first link in `text` to `route` ("/api/email/confirm"), e.g. "/api/email/confirm?t=...".
std::string link_in(const std::string& text, const std::string& route) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex("http://localhost:[0-9]+(" + route + "\\?t=[A-Za-z0-9_.-]+)"))) {
    throw std::runtime_error("no " + route + " link in: " + text);
  }
  return m[1];
}
// A mail link's request as a mail program or a browser without our cookies makes it.
http_reply open_link(std::uint16_t port, const std::string& method, const std::string& target) {
  return http_request(port, method, target, method == "POST" ? "Content-Type: application/x-www-form-urlencoded\r\n" : "",
                      method == "POST" ? "List-Unsubscribe=One-Click" : "");
}
std::string forged(std::string link) {
  link.back() = link.back() == 'A' ? 'B' : 'A';
  return link;
}

auto to(const std::string& address) {
  return [address](const Json& m) { return m["to"] == Json::array({address}); };
}
auto to_about(const std::string& address, const std::string& subject) {
  return [address, subject](const Json& m) { return m["to"] == Json::array({address}) && m["subject"] == subject; };
}

// Reads `t`'s frames until its seat has a decision to make (or 5 s have passed); whether it has.
bool wait_for_turn(seat_tracker& t) {
  for (int i = 0; i < 100 && t.legal.empty(); ++i) {
    t.client->wait_log_beyond(t.cursor, 50ms);
    t.catch_up();
  }
  return !t.legal.empty();
}

// Gives `p` a confirmed address, mails in `language`, through the confirmation mail's link.
void confirm_address(person& p, std::uint16_t port, const smtp_sink& sink, const std::string& address,
                     const std::string& language = "en") {
  const auto before = sink.mails().size();
  const auto set = p.web.post("/api/account/email", {{"address", address}, {"language", language}});
  ASSERT_EQ(set.status, 200) << set.body;
  const auto mails = sink.wait_for(1, [&](const Json& m) { return m["to"] == Json::array({address}); });
  ASSERT_FALSE(mails.empty()) << "no confirmation mail (" << before << " mails before)";
  const auto confirmed = open_link(port, "POST", link_in(mails.back()["text"], "/api/email/confirm"));
  ASSERT_EQ(confirmed.status, 200) << confirmed.body;
  ASSERT_EQ(email_of(p.web)["address"], address);
}

TEST(Mail, AnAddressIsConfirmedByItsSignedLinkInEachLanguageAndBadInputChangesNothing) {
  smtp_sink sink;
  server_process server("", {"--smtp-url", sink.url()});
  const auto port = server.port();
  person ann(port, "Ann");
  const auto fresh = email_of(ann.web);
  EXPECT_EQ(fresh, (Json{{"available", true}, {"address", nullptr}, {"pending", nullptr}, {"language", "en"},
                         {"notify", {{"your_turn", true}, {"turn_delay_minutes", 10}, {"game_over", true},
                                     {"invited", true}, {"low_clock", true}, {"digest", false}}}}));

  // A malformed address: refused, nothing kept, nothing sent.
  for (const std::string bad : {"ann", "ann@localhost", "ann@@example.org", "ann example@example.org",
                                "ann@example.org\r\nBcc: eve@example.org", "<ann@example.org>"}) {
    const auto r = ann.web.post("/api/account/email", {{"address", bad}});
    EXPECT_EQ(r.status, 400) << bad;
    EXPECT_EQ(body_of(r)["error"]["code"], "bad_address") << bad;
  }
  EXPECT_EQ(email_of(ann.web), fresh);

  ASSERT_EQ(ann.web.post("/api/account/email", {{"address", "ann@example.org"}}).status, 200);
  EXPECT_EQ(email_of(ann.web)["pending"], "ann@example.org");
  const auto mail = sink.wait_for(1, to("ann@example.org")).at(0);
  EXPECT_EQ(mail["subject"], "Confirm your e-mail address for Emporium");
  EXPECT_NE(mail["text"].get<std::string>().find("Hello Ann,"), std::string::npos) << mail;
  const std::string link = link_in(mail["text"], "/api/email/confirm");
  EXPECT_NE(mail["html"].get<std::string>().find(link), std::string::npos) << "the HTML version has the link too";

  // A forged link: refused with a page that says so, nothing changed.
  for (const char* method : {"GET", "POST"}) {
    const auto r = open_link(port, method, forged(link));
    EXPECT_EQ(r.status, 400) << method;
    EXPECT_EQ(r.content_type, "text/html; charset=utf-8");
    EXPECT_NE(r.body.find("not valid"), std::string::npos) << r.body;
  }
  // GET only asks (a mail scanner that follows the link confirms nothing); POST confirms, once or twice alike.
  const auto asked = open_link(port, "GET", link);
  EXPECT_EQ(asked.status, 200);
  EXPECT_NE(asked.body.find("<form method=\"post\""), std::string::npos) << asked.body;
  EXPECT_EQ(email_of(ann.web)["address"], nullptr);
  for (int i = 0; i < 2; ++i) {
    const auto done = open_link(port, "POST", link);
    EXPECT_EQ(done.status, 200) << done.body;
    EXPECT_NE(done.body.find("Confirmed"), std::string::npos) << done.body;
  }
  EXPECT_EQ(email_of(ann.web)["address"], "ann@example.org");
  EXPECT_EQ(email_of(ann.web)["pending"], nullptr);

  // Settings: each field checked, a bad one refused with nothing kept.
  const auto settings = email_of(ann.web);
  for (const Json& bad : {Json{{"turn_delay_minutes", 7}}, Json{{"your_turn", "yes"}}, Json{{"language", "fr"}},
                         Json{{"digest", true}, {"postcards", true}}, Json::array()}) {
    EXPECT_EQ(ann.web.post("/api/account/notifications", bad).status, 400) << bad;
  }
  EXPECT_EQ(email_of(ann.web), settings);
  const auto changed = ann.web.post("/api/account/notifications", {{"turn_delay_minutes", 30}, {"digest", true}});
  ASSERT_EQ(changed.status, 200) << changed.body;
  EXPECT_EQ(body_of(changed)["email"]["notify"]["turn_delay_minutes"], 30);
  EXPECT_TRUE(body_of(changed)["email"]["notify"]["digest"].get<bool>());

  // At most five confirmation mails an hour: a stranger's mailbox is not ours to fill.
  for (int i = 2; i <= 5; ++i) {
    EXPECT_EQ(ann.web.post("/api/account/email", {{"address", "ann" + std::to_string(i) + "@example.org"}}).status, 200);
  }
  const auto sixth = ann.web.post("/api/account/email", {{"address", "ann6@example.org"}});
  EXPECT_EQ(sixth.status, 429) << sixth.body;
  EXPECT_EQ(body_of(sixth)["error"]["code"], "too_many_mails");

  // The confirmation in each language the client speaks.
  const std::vector<std::pair<std::string, std::string>> languages{
      {"ja", "Emporiumのメールアドレスを確認してください"},
      {"zh-Hans", "请确认你在 Emporium 的电子邮件地址"},
      {"zh-Hant", "請確認你在 Emporium 的電子郵件地址"}};
  for (const auto& [language, subject] : languages) {
    person p(port, "P" + language);
    ASSERT_EQ(p.web.post("/api/account/email", {{"address", language + "@example.org"}, {"language", language}}).status, 200);
    const auto m = sink.wait_for(1, to(language + "@example.org"));
    ASSERT_EQ(m.size(), 1u) << language;
    EXPECT_EQ(m[0]["subject"], subject);
    EXPECT_NE(m[0]["html"].get<std::string>().find("lang=\"" + language + "\""), std::string::npos);
  }
}

TEST(Mail, YourTurnComesAfterTheDelayOnceThenTheGameOverAndOneClickUnsubscribe) {
  smtp_sink sink;
  // A minute of the delay lasts 200 ms: Ann's 5 minutes are a second.
  server_process server("", {"--smtp-url", sink.url(), "--mail-minute-ms", "200"});
  const auto port = server.port();
  person ann(port, "Ann");
  confirm_address(ann, port, sink, "ann@example.org");
  ASSERT_EQ(ann.web.post("/api/account/notifications", {{"turn_delay_minutes", 5}}).status, 200);

  const std::string id = at_my_turn_against_a_bot(ann);

  // Her turn, and she goes away: nothing at once, one mail after her delay.
  const auto turn_mail = to_about("ann@example.org", "Your turn in Medici");
  ann.ws.reset();
  const auto away = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(600ms);
  EXPECT_TRUE(sink.wait_for(1, turn_mail, 0ms).empty()) << "mailed before her delay";
  const auto mails = sink.wait_for(1, turn_mail);
  ASSERT_EQ(mails.size(), 1u);
  EXPECT_GE(std::chrono::steady_clock::now() - away, 1s);
  const auto& mail = mails[0];
  EXPECT_NE(mail["text"].get<std::string>().find("It is your turn in Medici with Bot 1."), std::string::npos) << mail;
  EXPECT_NE(mail["text"].get<std::string>().find("http://localhost:" + std::to_string(port) + "/t/" + id),
            std::string::npos);
  EXPECT_EQ(mail["headers"]["List-Unsubscribe-Post"], "List-Unsubscribe=One-Click");
  const std::string unsubscribe = link_in(mail["headers"]["List-Unsubscribe"], "/api/email/unsubscribe");
  // Once per wait: nothing more while she stays away.
  std::this_thread::sleep_for(1500ms);
  EXPECT_EQ(sink.wait_for(2, turn_mail, 0ms).size(), 1u);

  // She comes back by her account and plays to the end: no "your turn" while she is at the table; the end's mail.
  ann.connect(port);
  expect_type(ann.ws->request({{"type", "resume"}, {"table", id}}), "seated");
  seat_tracker back(ann.ws.get(), id);
  finish({&back}, 3);
  const auto over = sink.wait_for(1, to_about("ann@example.org", "Medici is over"));
  ASSERT_EQ(over.size(), 1u);
  EXPECT_NE(over[0]["text"].get<std::string>().find("Final ranking:"), std::string::npos) << over[0];
  EXPECT_NE(over[0]["text"].get<std::string>().find("/t/" + id + "/replay"), std::string::npos);
  EXPECT_EQ(sink.wait_for(2, turn_mail, 0ms).size(), 1u);

  // One click (RFC 8058: a POST with no cookie, no origin) stops "your turn" mails and nothing else; a forged one
  // changes nothing.
  EXPECT_EQ(open_link(port, "POST", forged(unsubscribe)).status, 400);
  EXPECT_TRUE(email_of(ann.web)["notify"]["your_turn"].get<bool>());
  const auto asked = open_link(port, "GET", unsubscribe);
  EXPECT_EQ(asked.status, 200);
  EXPECT_TRUE(email_of(ann.web)["notify"]["your_turn"].get<bool>()) << "a GET only asks";
  const auto done = open_link(port, "POST", unsubscribe);
  EXPECT_EQ(done.status, 200) << done.body;
  const auto notify = email_of(ann.web)["notify"];
  EXPECT_FALSE(notify["your_turn"].get<bool>());
  EXPECT_TRUE(notify["game_over"].get<bool>());
  // The operator sees the mail on /metrics: three sent (the confirmation, the turn, the end), none waiting.
  std::string metrics;
  for (int i = 0; i < 40 && metrics.find("\nemporium_mails_sent_total 3\n") == std::string::npos; ++i) {
    if (i > 0) std::this_thread::sleep_for(50ms);  // the SMTP server has it a moment before the mailer hears so
    metrics = http_get(port, "/metrics").body;
  }
  EXPECT_NE(metrics.find("\nemporium_mails_sent_total 3\n"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("\nemporium_mail_queue 0\n"), std::string::npos) << metrics;
}

TEST(Mail, AFriendsInvitationAndALowClockAreMailedToThoseAway) {
  smtp_sink sink;
  // Clocks of 5 s per move count as correspondence here: the low-clock mail comes a fifth before the end, 1 s.
  server_process server("", {"--smtp-url", sink.url(), "--min-turn-s", "1", "--correspondence-turn-s", "2"});
  const auto port = server.port();
  person ann(port, "Ann"), bo(port, "Bo");
  expect_type(ann.ws->request({{"type", "friend_request"}, {"name", "Bo"}}), "friend");
  ASSERT_EQ(bo.ws->request({{"type", "friend_accept"}, {"name", "Ann"}}).value("relation", ""), "friend");
  confirm_address(bo, port, sink, "bo@example.org");

  // Bo is away: Ann's invitation reaches him by mail, once however often she invites him.
  bo.ws.reset();
  const Json seated = ann.ws->request(
      {{"type", "create_table"}, {"game", "medici"}, {"players", 2}, {"clock", {{"turn", 5}, {"reserve", 0}}}});
  expect_type(seated, "seated");
  const std::string id = seated["table"]["id"];
  for (int i = 0; i < 2; ++i) expect_type(ann.ws->request({{"type", "invite"}, {"table", id}, {"name", "Bo"}}), "invited");
  const auto invited = sink.wait_for(1, to_about("bo@example.org", "Ann invited you to Medici"));
  ASSERT_EQ(invited.size(), 1u);
  EXPECT_NE(invited[0]["text"].get<std::string>().find("Ann invited you to a game of Medici for 2 players."),
            std::string::npos) << invited[0];
  EXPECT_NE(invited[0]["text"].get<std::string>().find("/t/" + id), std::string::npos);

  // He sits down, the game starts, and he goes away on his turn: a fifth of his 5 s before the end, a mail.
  bo.connect(port);
  expect_type(bo.ws->request({{"type", "join"}, {"table", id}}), "seated");
  expect_type(ann.ws->request({{"type", "start"}, {"table", id}}), "ack");
  // Ann plays (a Medici turn may take her several decisions) until the decision is Bo's; then he goes away.
  seat_tracker a(ann.ws.get(), id), b(bo.ws.get(), id);
  for (int i = 0; i < 200 && b.legal.empty(); ++i) {
    if (!a.legal.empty()) {
      act_first(a, {&a, &b});
    } else {
      ann.ws->wait_log_beyond(a.cursor, 50ms);
      a.catch_up();
      b.catch_up();
    }
  }
  ASSERT_FALSE(b.legal.empty()) << "Bo's decision never came";
  bo.ws.reset();
  const auto low = sink.wait_for(1, to_about("bo@example.org", "Your clock is running low in Medici"), 15s);
  ASSERT_EQ(low.size(), 1u);
  EXPECT_NE(low[0]["text"].get<std::string>().find("your clock shows 1 minute left"), std::string::npos) << low[0];
  EXPECT_EQ(sink.wait_for(1, to_about("bo@example.org", "Your turn in Medici"), 0ms).size(), 0u)
      << "his delay (10 minutes) is not over";
}

TEST(Mail, TheDailyDigestListsEveryGameWaitingForItsReader) {
  smtp_sink sink;
  // A "minute" of 100 ms: the first digest 6 s after the start (an "hour"), then every 144 s (a "day").
  server_process server("", {"--smtp-url", sink.url(), "--mail-minute-ms", "100"});
  const auto port = server.port();
  person ann(port, "Ann");
  confirm_address(ann, port, sink, "ann@example.org");
  ASSERT_EQ(ann.web.post("/api/account/notifications", {{"digest", true}, {"your_turn", false}}).status, 200);
  std::vector<std::string> ids;
  for (const std::string game : {"medici", "merkator"}) {
    const Json seated = ann.ws->request({{"type", "create_table"}, {"game", game}, {"players", 2}});
    ids.push_back(seated["table"]["id"]);
    expect_type(ann.ws->request({{"type", "add_bot"}, {"table", ids.back()}, {"seat", 1}, {"level", "easy"}}), "ack");
    expect_type(ann.ws->request({{"type", "start"}, {"table", ids.back()}}), "ack");
    seat_tracker t(ann.ws.get(), ids.back());
    ASSERT_TRUE(wait_for_turn(t)) << game;
  }
  ann.ws.reset();  // away, with both games waiting for her
  const auto digests = sink.wait_for(1, to_about("ann@example.org", "2 games are waiting for you"), 20s);
  ASSERT_EQ(digests.size(), 1u);
  const std::string text = digests[0]["text"];
  EXPECT_NE(text.find("Medici with Bot 1, for 1 minute"), std::string::npos) << text;
  EXPECT_NE(text.find("Merkator with Bot 1"), std::string::npos) << text;
  for (const auto& id : ids) EXPECT_NE(text.find("/t/" + id), std::string::npos) << text;
  EXPECT_EQ(sink.wait_for(1, to_about("ann@example.org", "Your turn in Medici"), 0ms).size(), 0u) << "turned off";
}

TEST(Mail, AnSmtpServerDownForAWhileLosesNoMailAndHoldsNothingUp) {
  smtp_sink sink;
  sink.stop();
  server_process server("", {"--smtp-url", sink.url()});
  const auto port = server.port();
  person ann(port, "Ann");
  const auto asked = std::chrono::steady_clock::now();
  ASSERT_EQ(ann.web.post("/api/account/email", {{"address", "ann@example.org"}}).status, 200);
  EXPECT_LT(std::chrono::steady_clock::now() - asked, 2s) << "the request waited for the mail";
  // Meanwhile the server goes on.
  expect_type(ann.ws->request({{"type", "create_table"}, {"game", "medina"}, {"players", 3}}), "seated");
  std::this_thread::sleep_for(4s);
  sink.start();
  const auto mails = sink.wait_for(1, to("ann@example.org"), 20s);
  ASSERT_EQ(mails.size(), 1u) << "the mail queued while the SMTP server was down was lost";
  EXPECT_EQ(mails[0]["subject"], "Confirm your e-mail address for Emporium");
}

TEST(Correspondence, ANewAccountPlaysAtMostFourCorrespondenceGamesAtOnce) {
  // A minute per move counts as correspondence here.
  server_process server("", {"--correspondence-turn-s", "60"});
  const auto port = server.port();
  person ann(port, "Ann"), bo(port, "Bo");
  const Json correspondence{{"turn", 60}, {"reserve", 0}};
  auto create = [&](person& p, const Json& clock) {
    return p.ws->request({{"type", "create_table"}, {"game", "medici"}, {"players", 2}, {"clock", clock}});
  };
  std::vector<std::string> tables;
  for (int i = 0; i < 4; ++i) {
    const auto seated = create(ann, correspondence);
    expect_type(seated, "seated");
    tables.push_back(seated["table"]["id"]);
  }
  // The fifth is refused, with why; nothing is made. A shorter clock is not limited.
  const auto refused = create(ann, correspondence);
  EXPECT_EQ(refused.value("code", ""), "too_many_games") << refused;
  EXPECT_NE(refused.value("message", "").find("4 correspondence games"), std::string::npos) << refused;
  expect_type(create(ann, {{"turn", 30}, {"reserve", 0}}), "seated");
  // Joining someone else's counts the same.
  const auto bos = create(bo, correspondence);
  expect_type(bos, "seated");
  const std::string id = bos["table"]["id"];
  EXPECT_EQ(ann.ws->request({{"type", "join"}, {"table", id}}).value("code", ""), "too_many_games");
  // Leaving one makes room.
  expect_type(ann.ws->request({{"type", "leave"}, {"table", tables[0]}}), "left");
  expect_type(ann.ws->request({{"type", "join"}, {"table", id}}), "seated");
}

TEST(Correspondence, TakingOnesSeatAtARematchCountsTowardTheLimitToo) {
  server_process server("", {"--correspondence-turn-s", "60"});
  const auto port = server.port();
  person ann(port, "Ann"), bo(port, "Bo");
  const Json correspondence{{"turn", 60}, {"reserve", 0}};
  // (Requests just after a game played at full speed may come within the same second's twenty: sent again.)
  auto create = [&] {
    return request_within_rate(
        *ann.ws, {{"type", "create_table"}, {"game", "medici"}, {"players", 2}, {"clock", correspondence}});
  };
  const Json seated = create();
  const std::string id = seated["table"]["id"];
  expect_type(bo.ws->request({{"type", "join"}, {"table", id}}), "seated");
  expect_type(ann.ws->request({{"type", "start"}, {"table", id}}), "ack");
  seat_tracker a(ann.ws.get(), id), b(bo.ws.get(), id);
  finish({&a, &b}, 7);
  // Bo offers a rematch, which keeps Ann a seat; meanwhile she sat down at four other correspondence tables, all
  // that one finished game allows: her seat at the rematch would be a fifth.
  expect_type(request_within_rate(*bo.ws, {{"type", "rematch"}, {"table", id}}), "seated");
  std::vector<std::string> others;
  for (int i = 0; i < 4; ++i) others.push_back(create()["table"]["id"]);
  const Json refused = request_within_rate(*ann.ws, {{"type", "rematch"}, {"table", id}});
  EXPECT_EQ(refused.value("code", ""), "too_many_games") << refused;
  // Leaving one makes room: the seat kept for her is still hers.
  expect_type(ann.ws->request({{"type", "leave"}, {"table", others[0]}}), "left");
  expect_type(ann.ws->request({{"type", "rematch"}, {"table", id}}), "seated");
}

// Plays a whole game for `people` (seats 0 and 1; a bot in seat 2), each coming to the table only to move: every
// decision of theirs that begins while they are away is mailed (their delay is 0).
void play_from_afar(std::vector<person*> people, std::uint16_t port, const std::string& id, std::uint64_t seed) {
  engine::Rng rng(seed);
  const auto deadline = std::chrono::steady_clock::now() + 180s;
  for (bool over = false; !over;) {
    if (std::chrono::steady_clock::now() > deadline) throw std::runtime_error("the game did not end");
    bool moved = false;
    for (auto* p : people) {
      p->connect(port);
      const Json seated = p->ws->request({{"type", "resume"}, {"table", id}});
      expect_type(seated, "seated");
      seat_tracker t(p->ws.get(), id);
      for (int i = 0; i < 20 && t.version == 0 && !t.over; ++i) {
        p->ws->wait_log_beyond(t.cursor, 20ms);
        t.catch_up();
      }
      over = t.over || seated["table"].value("state", "") == "finished";
      if (!over && !t.legal.empty()) {
        const auto& action = t.legal[rng.below(static_cast<std::uint32_t>(t.legal.size()))];
        const Json r = p->ws->request({{"type", "act"}, {"table", id}, {"version", t.version}, {"action", action}});
        if (r.value("type", "") == "ack") moved = true;
      }
      p->ws.reset();  // away again
      if (over) break;
    }
    if (!moved) std::this_thread::sleep_for(20ms);  // the bot's move
  }
}

TEST(Mail, EveryMailOfWholeSilkRoadAndMedinaGamesSaysOnlyWhatItsReaderMaySee) {
  smtp_sink sink;
  server_process server("", {"--smtp-url", sink.url()});
  const auto port = server.port();
  const std::string origin = "http://localhost:" + std::to_string(port);
  person ann(port, "Ann"), bo(port, "Bo");
  const std::map<std::string, std::pair<std::string, std::string>> reader{  // name -> address, language
      {"Ann", {"ann@example.org", "ja"}}, {"Bo", {"bo@example.org", "zh-Hant"}}};
  for (auto* p : {&ann, &bo}) {
    const auto& [address, language] = reader.at(p == &ann ? "Ann" : "Bo");
    confirm_address(*p, port, sink, address, language);
    ASSERT_EQ(p->web.post("/api/account/notifications", {{"turn_delay_minutes", 0}}).status, 200);
  }
  for (const std::string game : {"silkroad", "medina"}) {
    for (auto* p : {&ann, &bo}) {
      if (!p->ws) p->connect(port);  // back from the last game
    }
    const Json seated = ann.ws->request({{"type", "create_table"}, {"game", game}, {"players", 3}});
    expect_type(seated, "seated");
    const std::string id = seated["table"]["id"];
    expect_type(bo.ws->request({{"type", "join"}, {"table", id}}), "seated");
    expect_type(ann.ws->request({{"type", "add_bot"}, {"table", id}, {"seat", 2}, {"level", "easy"}}), "ack");
    expect_type(ann.ws->request({{"type", "start"}, {"table", id}}), "ack");
    play_from_afar({&ann, &bo}, port, id, game == "medina" ? 5 : 6);
    // A mail about this table links to it; its two game-over mails, to its replay.
    const std::string table_link = origin + "/t/" + id;
    const auto about_table = [&](const Json& m) { return m["text"].get<std::string>().find(table_link) != std::string::npos; };
    ASSERT_EQ(sink.wait_for(2, [&](const Json& m) { return m["text"].get<std::string>().find(table_link + "/replay") != std::string::npos; }).size(),
              2u);

    // What each reader may see: the seats' names, the game, their links. Each mail must be exactly the one made
    // of those alone.
    server::SqliteStore db(server.data_dir());
    const auto stored = db.load(id);
    ASSERT_TRUE(stored && stored->state == server::TableState::finished);
    std::vector<std::string> names;
    for (const auto& s : stored->seats) names.push_back(s.name);
    server::GameOverMail over{"", game, {}, 0, origin + "/t/" + id + "/replay"};
    std::vector<std::pair<int, int>> ranks;  // rank, seat
    for (const auto& r : stored->result["ranking"]) ranks.push_back({r["rank"].get<int>(), r["player"].get<int>()});
    std::stable_sort(ranks.begin(), ranks.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    for (const auto& [rank, seat] : ranks) over.ranking.push_back({names[static_cast<std::size_t>(seat)], rank});

    const auto all = sink.wait_for(0, about_table);
    std::map<std::string, int> turns;
    for (std::size_t i = 0; i < all.size(); ++i) {
      const auto& m = all[i];
      const int seat = m["to"] == Json::array({"ann@example.org"}) ? 0 : 1;
      const std::string name = names[static_cast<std::size_t>(seat)];
      const auto& [address, language] = reader.at(name);
      const std::string kind = m["text"].get<std::string>().find("/replay") != std::string::npos ? "game_over" : "your_turn";
      const std::string unsubscribe = origin + link_in(m["headers"]["List-Unsubscribe"], "/api/email/unsubscribe");
      const server::MailFooter footer{address, kind, unsubscribe, origin + "/account"};
      server::RenderedMail expected;
      if (kind == "your_turn") {
        ++turns[name];
        std::vector<std::string> others = names;
        others.erase(others.begin() + seat);
        expected = server::your_turn_mail(language, {name, game, others, std::nullopt, origin + "/t/" + id}, footer);
      } else {
        auto mine = over;
        mine.name = name;
        for (const auto& [rank, s] : ranks) {
          if (s == seat) mine.rank = rank;
        }
        expected = server::game_over_mail(language, mine, footer);
      }
      EXPECT_EQ(m["subject"], expected.subject) << game << " mail " << i;
      EXPECT_EQ(m["text"], expected.text) << game << " mail " << i;
      EXPECT_EQ(m["html"], expected.html) << game << " mail " << i;
    }
    // Enough mails to mean something: most of each person's turns began while they were away.
    EXPECT_GE(turns["Ann"], 5) << game;
    EXPECT_GE(turns["Bo"], 5) << game;
  }
}

}  // namespace
}  // namespace emporium::testing
