#pragma once
// People for the end-to-end tests: a browser's side of the account requests (cookies, the anti-CSRF token, the
// site's own origin), the WebSocket it signs in, and someone signed up with both.
#include <chrono>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "game_driver.hpp"
#include "test_client.hpp"

namespace emporium::testing {

// A browser's side of the account requests: it keeps its cookies and sends the anti-CSRF token it was given, from
// the server's own origin (the test client's Host is 127.0.0.1).
class browser {
 public:
  explicit browser(std::uint16_t port) : port_(port) {
    fetch_csrf();
  }
  // The same browser, its cookies kept, talking to a server started again (on another port).
  void reconnect(std::uint16_t port) {
    port_ = port;
    fetch_csrf();
  }
  void fetch_csrf() {
    const auto session = get("/api/session");
    csrf_ = nlohmann::json::parse(session.body).value("csrf", "");
  }

  http_reply get(const std::string& target) { return keep(http_request(port_, "GET", target, cookie_header())); }
  http_reply post(const std::string& target, const nlohmann::json& body, const std::string& origin = "http://127.0.0.1") {
    std::string headers = cookie_header() + "Content-Type: application/json\r\nX-CSRF-Token: " + csrf_ + "\r\n";
    if (!origin.empty()) headers += "Origin: " + origin + "\r\n";
    return keep(http_request(port_, "POST", target, headers, body.dump()));
  }
  std::string cookie(const std::string& name) const { return cookies_.count(name) ? cookies_.at(name) : ""; }
  void set_cookie(const std::string& name, const std::string& value) { cookies_[name] = value; }
  const std::string& csrf() const { return csrf_; }

 private:
  http_reply keep(http_reply r) {
    for (const auto& c : r.set_cookies) {
      const auto eq = c.find('='), end = c.find(';');
      const std::string name = c.substr(0, eq), value = c.substr(eq + 1, end - eq - 1);
      if (value.empty() || c.find("Max-Age=0") != std::string::npos) {
        cookies_.erase(name);
      } else {
        cookies_[name] = value;
      }
    }
    return r;
  }
  std::string cookie_header() const {
    if (cookies_.empty()) return "";
    std::string h = "Cookie: ";
    for (const auto& [name, value] : cookies_) h += name + "=" + value + "; ";
    return h + "\r\n";
  }

  std::uint16_t port_;
  std::map<std::string, std::string> cookies_;
  std::string csrf_;
};

// The browser's WebSocket: its session cookie signs the connection in at the upgrade.
inline ws_options signed_in(const browser& b) {
  return ws_options{"/ws", "", {{"Cookie", "emporium_session=" + b.cookie("emporium_session")}}, true};
}

// An account request's JSON answer.
inline nlohmann::json body_of(const http_reply& r) { return nlohmann::json::parse(r.body); }

// A reply of `type`, else the test cannot go on.
inline void expect_type(const nlohmann::json& reply, const std::string& type) {
  if (reply.value("type", "") != type) throw std::runtime_error("expected " + type + ", got " + reply.dump());
}

// Someone signed up, with their browser and a WebSocket it signed in.
struct person {
  person(std::uint16_t port, const std::string& name) : web(port) {
    const auto up = web.post("/api/sign-up", {{"name", name}, {"password", "correct horse " + name}});
    if (up.status != 200) throw std::runtime_error("sign-up: " + up.body);
    connect(port);
  }
  void connect(std::uint16_t port) {
    ws = std::make_unique<ws_client>(port, signed_in(web));
    ws->wait_type("welcome");
  }
  browser web;
  std::unique_ptr<ws_client> ws;
};

// `p` seated at a new 2-player Medici table with an easy bot, the game started, once `p` has a decision to make:
// the table's id. Throws when the turn has not come within 5 s.
inline std::string at_my_turn_against_a_bot(person& p) {
  const auto seated = p.ws->request({{"type", "create_table"}, {"game", "medici"}, {"players", 2}});
  expect_type(seated, "seated");
  const std::string id = seated["table"]["id"];
  expect_type(p.ws->request({{"type", "add_bot"}, {"table", id}, {"seat", 1}, {"level", "easy"}}), "ack");
  expect_type(p.ws->request({{"type", "start"}, {"table", id}}), "ack");
  seat_tracker t(p.ws.get(), id);
  for (int i = 0; i < 100 && t.legal.empty(); ++i) {
    t.client->wait_log_beyond(t.cursor, std::chrono::milliseconds(50));
    t.catch_up();
  }
  if (t.legal.empty()) throw std::runtime_error("the turn never came at table " + id);
  return id;
}

}  // namespace emporium::testing
