#pragma once
// What the account requests take and give (accounts.hpp, account_mail.hpp): who asks, the reply, who is signed in.
#include <chrono>
#include <string>

#include <nlohmann/json.hpp>

namespace emporium::server {

// Who asks, as the network layer saw them.
struct AccountClient {
  std::string address;     // the client's address (a trusted proxy's X-Forwarded-For)
  std::string device;      // a short description of the browser, from its User-Agent
  std::string origin;      // the page's origin that passkeys must have been made on (e.g. "https://play.example")
  std::string rp_id;       // the relying party id passkeys are scoped to (that origin's host)
  std::string session_id;  // from the session cookie; empty when there is none
  std::string subject{};   // RouteMatch::subject
  std::string query{};     // the request's query string, without its '?'
};

struct AccountReply {
  int status = 200;
  nlohmann::json body = nlohmann::json::object();
  std::string new_session;     // set the session cookie to this (a sign-in or sign-up)
  bool end_session = false;    // clear the session cookie
  std::chrono::seconds retry_after{0};  // 429: when to try again
  std::string html{};  // a page for a browser (a mail link's) instead of the JSON body
};

// A refusal: {"error":{"code","message"}}.
AccountReply account_error(int status, std::string code, std::string message);
// 429 with Retry-After (at least a second), also in the body.
AccountReply too_many(std::chrono::seconds wait, std::string code, std::string message);

// Who a session belongs to.
struct SignedIn {
  std::string account;
  std::string name;
  std::string session_public_id;
};

}  // namespace emporium::server
