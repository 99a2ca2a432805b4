// Web Push against the real server (docs/push.md): a push service played by tests/tools/push_receiver.py, which
// decrypts each push with its own code (RFC 8291) and checks its VAPID JWT (RFC 8292). An account with no e-mail
// address subscribes a browser, goes away on its turn, and gets the "your turn" push; a 410 deletes a subscription.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "people_client.hpp"
#include "smtp_sink.hpp"
#include "test_client.hpp"

namespace emporium::testing {
namespace {

using Json = nlohmann::json;
using namespace std::chrono_literals;

// The push service, and the browser whose subscription's keys it made.
class push_receiver : public python_sink {
 public:
  push_receiver() : python_sink("push_receiver.py", "python3-cryptography") {}
  std::string endpoint(const std::string& name) const {
    return "http://127.0.0.1:" + std::to_string(port()) + "/push/" + name;
  }
  Json subscription(const std::string& name) const {
    return {{"endpoint", endpoint(name)}, {"keys", Json::parse(std::ifstream(folder() + "/subscription.txt"))}};
  }
};

auto to_path(const std::string& path) {
  return [path](const Json& p) { return p["path"] == path; };
}

Json push_of(browser& web) { return body_of(web.get("/api/account"))["push"]; }

TEST(Push, ABrowserGetsYourTurnEncryptedAndSignedWithoutAnAddressAndA410DeletesIt) {
  push_receiver service;
  server_process server("", {"--push-contact", "mailto:ops@play.example", "--push-allow-loopback", "1",
                             "--mail-minute-ms", "50"});
  const auto port = server.port();
  const Json key = body_of(http_request(port, "GET", "/api/push/key", ""));
  ASSERT_EQ(key["available"], true) << key;
  ASSERT_EQ(key["key"].get<std::string>().size(), 87u) << "a 65-byte point in base64url";

  person ann(port, "Ann");
  EXPECT_EQ(push_of(ann.web), (Json{{"available", true}, {"devices", 0}}));
  // Bad subscriptions are refused and change nothing.
  auto bad = service.subscription("ann");
  bad["endpoint"] = "http://push.example/x";
  EXPECT_EQ(ann.web.post("/api/account/push", bad).status, 400) << "plain http beyond loopback";
  bad = service.subscription("ann");
  bad["keys"]["p256dh"] = "BAAA";
  const auto refused = ann.web.post("/api/account/push", bad);
  EXPECT_EQ(refused.status, 400);
  EXPECT_NE(refused.body.find("p256dh"), std::string::npos) << refused.body;
  EXPECT_EQ(ann.web.post("/api/account/push", {{"endpoint", service.endpoint("ann")}}).status, 400);
  EXPECT_EQ(push_of(ann.web)["devices"], 0);

  // Two browsers: one the push service will say is gone.
  ASSERT_EQ(ann.web.post("/api/account/push", service.subscription("ann")).status, 200);
  const auto second = ann.web.post("/api/account/push", service.subscription("gone"));
  ASSERT_EQ(second.status, 200);
  EXPECT_EQ(body_of(second)["push"]["devices"], 2);
  const Json exported = body_of(ann.web.get("/api/account/export"))["push_subscriptions"];
  ASSERT_EQ(exported.size(), 2u) << exported;
  EXPECT_EQ(exported[0]["endpoint"], service.endpoint("ann"));
  EXPECT_FALSE(exported[0].contains("auth")) << "the browser's keys are not the account's data";
  ASSERT_EQ(ann.web.post("/api/account/notifications", {{"turn_delay_minutes", 0}}).status, 200);

  const std::string id = at_my_turn_against_a_bot(ann);
  ann.ws.reset();  // away on her turn

  const auto pushes = service.wait_for(1, to_path("/push/ann"));
  ASSERT_EQ(pushes.size(), 1u);
  const auto& push = pushes[0];
  EXPECT_EQ(push["headers"]["TTL"], "86400");
  EXPECT_EQ(push["headers"]["Content-Encoding"], "aes128gcm");
  EXPECT_EQ(push["headers"]["Urgency"], "normal");
  EXPECT_TRUE(push["jwt_verified"].get<bool>()) << push;
  EXPECT_EQ(push["k"], key["key"]);
  EXPECT_EQ(push["jwt"]["header"]["alg"], "ES256");
  const auto& claims = push["jwt"]["claims"];
  EXPECT_EQ(claims["aud"], "http://127.0.0.1:" + std::to_string(service.port()));
  EXPECT_EQ(claims["sub"], "mailto:ops@play.example");
  const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                       std::chrono::system_clock::now().time_since_epoch()).count();
  EXPECT_NEAR(claims["exp"].get<double>(), static_cast<double>(now + 12 * 3600), 60);
  ASSERT_TRUE(push["message"].is_string()) << "it did not decrypt: " << push;
  EXPECT_EQ(Json::parse(push["message"].get<std::string>()),
            (Json{{"title", "Your turn in Medici"},
                  {"body", "It is your turn in Medici with Bot 1."},
                  {"url", "http://localhost:" + std::to_string(port) + "/t/" + id}}));

  // The push service said 410 to the other: it is deleted, and nothing more goes there.
  ASSERT_EQ(service.wait_for(1, to_path("/push/gone")).size(), 1u);
  for (int i = 0; i < 100 && push_of(ann.web)["devices"] != 1; ++i) std::this_thread::sleep_for(20ms);
  EXPECT_EQ(push_of(ann.web)["devices"], 1);
  // Once per wait, as the mail.
  std::this_thread::sleep_for(500ms);
  EXPECT_EQ(service.wait_for(2, to_path("/push/ann"), 0ms).size(), 1u);
  // The operator sees them on /metrics: two sent (the 410 is the push service's refusal), nothing waiting.
  const auto metrics = http_get(port, "/metrics").body;
  EXPECT_NE(metrics.find("\nemporium_pushes_queued_total 2\n"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("\nemporium_push_queue 0\n"), std::string::npos) << metrics;

  // The browser turned notifications off: its subscription goes; a second time there is none.
  EXPECT_EQ(ann.web.post("/api/account/push/remove", {{"endpoint", service.endpoint("ann")}}).status, 200);
  EXPECT_EQ(push_of(ann.web)["devices"], 0);
  EXPECT_EQ(ann.web.post("/api/account/push/remove", {{"endpoint", service.endpoint("ann")}}).status, 404);
}

TEST(Push, AServerWithoutAContactSendsNoPushAndSaysSo) {
  server_process server;
  const auto port = server.port();
  EXPECT_EQ(body_of(http_request(port, "GET", "/api/push/key", "")),
            (Json{{"key", nullptr}, {"available", false}}));
  person ann(port, "Ann");
  EXPECT_EQ(push_of(ann.web)["available"], false);
  const auto off = ann.web.post("/api/account/push", {{"endpoint", "https://push.example/x"},
                                                      {"keys", {{"p256dh", "x"}, {"auth", "y"}}}});
  EXPECT_EQ(off.status, 503);
}

}  // namespace
}  // namespace emporium::testing
