#pragma once
// Accounts: signing up and in with a password or a passkey, sessions, the account page's requests, seat claims.
// Knows no HTTP: the network layer (net/account_routes) reads a request's route, body, cookie and client, and
// writes back the Reply. Every request runs on the accounts' own workers (store calls and password hashing are
// slow by design), never on a network thread; `done` is called there.
#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/worker_pool.hpp"
#include "common/throttle.hpp"
#include "people/account_mail.hpp"
#include "people/account_push.hpp"
#include "people/account_vacation.hpp"
#include "people/account_reply.hpp"
#include "store/people_store.hpp"

namespace emporium::server {

enum class AccountRoute {
  session,              // GET  /api/session
  password_sign_up,     // POST /api/sign-up
  password_sign_in,     // POST /api/sign-in
  passkey_options,      // POST /api/passkeys/options
  passkey_sign_up,      // POST /api/passkeys/sign-up
  passkey_sign_in,      // POST /api/passkeys/sign-in
  passkey_add,          // POST /api/passkeys/add
  passkey_rename,       // POST /api/passkeys/rename
  passkey_remove,       // POST /api/passkeys/remove
  set_password,         // POST /api/account/password
  sign_out,             // POST /api/sign-out
  sign_out_everywhere,  // POST /api/sign-out-everywhere
  session_sign_out,     // POST /api/account/sessions/sign-out
  account,              // GET  /api/account
  claim_seats,          // POST /api/account/claim
  export_data,          // GET  /api/account/export
  delete_account,       // POST /api/account/delete
  player,               // GET  /api/players/<name>      (anyone; docs/ratings.md)
  leaderboard,          // GET  /api/leaderboard/<game>  (anyone)
  moderation_reports,   // GET  /api/moderation/reports  (moderators; docs/friends.md "Moderation")
  moderation_act,       // POST /api/moderation/act
  email_address,        // POST /api/account/email         (docs/mail.md)
  email_remove,         // POST /api/account/email/remove
  email_preferences,    // POST /api/account/notifications
  email_confirm_page,   // GET  /api/email/confirm?t=      (anyone with the link: a page)
  email_confirm,        // POST /api/email/confirm?t=
  unsubscribe_page,     // GET  /api/email/unsubscribe?t=
  unsubscribe,          // POST /api/email/unsubscribe?t=  (RFC 8058's one-click POST too)
  vacation_start,       // POST /api/account/vacation      (docs/mail.md "Vacation")
  vacation_end,         // POST /api/account/vacation/end
  push_key,             // GET  /api/push/key              (anyone; docs/push.md)
  push_subscribe,       // POST /api/account/push
  push_unsubscribe,     // POST /api/account/push/remove
};
// The route a method and path name; none for anything else under /api/. `changes_state`: a POST made by this
// site's pages with the session cookie (checked for its origin and anti-CSRF token). A mail link's POST is not one:
// its signed token is all it carries, and a mail provider's server makes RFC 8058's.
struct RouteMatch {
  AccountRoute route;
  bool changes_state;
  std::string subject{};  // player and leaderboard: the name or game the path ends in, URL-decoded
};
std::optional<RouteMatch> account_route(std::string_view method, std::string_view path);

struct AccountsSettings {
  std::chrono::seconds session_lifetime = std::chrono::hours(24 * 30);  // renewed by use
  std::chrono::seconds challenge_lifetime = std::chrono::minutes(5);
  std::size_t failures_per_name = 10;       // failed sign-ins per name in the window
  std::size_t failures_per_address = 100;   // per address: a classroom shares one (docs/accounts.md)
  std::chrono::seconds failure_window = std::chrono::minutes(15);
  std::size_t sign_ups_per_address = 30;    // an hour
  std::size_t challenges_per_address = 300; // an hour: each is a stored row until it expires
  std::size_t profiles_per_address = 600;   // GET /api/players/<name> in 15 minutes: names are not to be guessed
  // Workers for hashes and store calls (0: one fewer than the cores, at least 1), at nice 19: a core stays the
  // network threads', and each hash holds 64 MiB while it runs (docs/benchmarks.md, "Sign-ins beside play").
  int hashing_threads = 0;
  std::string deleted_name = "deleted player";
  std::vector<std::string> games;  // the games' ids, in the registry's order: profiles list each, leaderboards exist for them
  AccountPushSettings push{};
};

class Accounts {
 public:
  // `mailer` and `links`: the e-mail of accounts (null, or a mailer that is off: no mail). `push_key`: the
  // server's VAPID key (null: no push notifications).
  Accounts(PeopleStore& store, AccountsSettings settings = {}, Mailer* mailer = nullptr,
           const MailLinks* links = nullptr, const VapidKey* push_key = nullptr);

  void handle(AccountRoute route, std::string body, AccountClient client, std::function<void(AccountReply)> done);
  // Runs on a worker after an account is deleted, with the seats it had claimed and the name its seats now bear:
  // the tables hand the running ones to bots (main.cpp; this layer knows no tables). Set before serving.
  void on_deleted(std::function<void(const std::vector<ClaimRow>&, const std::string&)> then) {
    on_deleted_ = std::move(then);
  }
  // Runs on a worker when sessions end (sign-out, sign-out everywhere, one session signed out, the others when the
  // password changes, deletion): the account and the session's public id (empty: all of the account's). The
  // connections they signed in close (main.cpp). Set before serving.
  void on_signed_out(std::function<void(const std::string&, const std::string&)> then) {
    on_signed_out_ = std::move(then);
  }
  // Runs on a worker after a moderator acted on an account (warn, mute, suspend): the account and what it is told
  // ({"type":"moderation","action","reason","until"}). A suspended account's sessions have ended (on_signed_out) and
  // its claimed seats come with it, for the tables to hand running ones to bots (main.cpp). Set before serving.
  void on_moderated(std::function<void(const std::string&, const nlohmann::json&, const std::vector<ClaimRow>&)> then) {
    on_moderated_ = std::move(then);
  }
  // Runs on a worker when a vacation starts (with its end) or ends early (none), with the account's seats at
  // unfinished tables: their clocks stop or run again (main.cpp). Set before serving.
  void on_vacation(AccountVacation::Changed then) { vacation_.on_changed(std::move(then)); }
  // The session a cookie's id names, if it is live (renewing it); none otherwise or when the store is down.
  void session(std::string session_id, std::function<void(std::optional<SignedIn>)> done);

  // The same, synchronously, on the calling (worker) thread: what handle() and session() run.
  AccountReply handle_now(AccountRoute route, const std::string& body, const AccountClient& client);
  std::optional<SignedIn> session_now(const std::string& session_id);

 private:
  AccountReply password_sign_up(const std::string& body, const AccountClient& client);
  AccountReply password_sign_in(const std::string& body, const AccountClient& client);
  AccountReply passkey_options(const std::string& body, const AccountClient& client);
  AccountReply passkey_sign_up(const std::string& body, const AccountClient& client);
  AccountReply passkey_sign_in(const std::string& body, const AccountClient& client);
  AccountReply passkey_add(const std::string& body, const AccountClient& client, const SignedIn& who);
  AccountReply passkey_rename(const std::string& body, const SignedIn& who);
  AccountReply passkey_remove(const std::string& body, const SignedIn& who);
  AccountReply set_password(const std::string& body, const SignedIn& who);
  AccountReply sign_out(const AccountClient& client);
  AccountReply sign_out_everywhere(const SignedIn& who);
  AccountReply session_sign_out(const std::string& body, const SignedIn& who);
  AccountReply account_page(const SignedIn& who);
  AccountReply claim_seats(const std::string& body, const SignedIn& who);
  AccountReply export_data(const SignedIn& who);
  AccountReply delete_account(const std::string& body, const AccountClient& client, const SignedIn& who);
  // Anyone's (a guest's too): a player's profile, a game's leaderboard. A private table's game is only in its own
  // player's profile.
  AccountReply player(const AccountClient& client);
  AccountReply leaderboard(const AccountClient& client);
  // Moderators only: the open reports; an action on a report or an account.
  AccountReply moderation_reports(const SignedIn& who);
  AccountReply moderation_act(const std::string& body, const SignedIn& who);
  bool is_moderator(const SignedIn& who);

  // A new session for `account` (a sign-in or sign-up): its id goes in the reply's cookie; the seats whose tokens
  // the browser sent are claimed; the sign-in is recorded.
  AccountReply signed_in(const AccountRow& account, const std::string& method, const AccountClient& client,
                         const std::vector<std::string>& seat_tokens);
  // A failed sign-in: counted against the name and the address, recorded for the account (if there is one), and
  // answered the same whether the name exists or not.
  AccountReply failed_sign_in(const std::string& name_key, const std::optional<AccountRow>& account,
                              const std::string& method, const AccountClient& client);
  std::optional<AccountReply> throttled(const std::string& name_key, const AccountClient& client);
  // Takes the challenge a passkey's clientDataJSON answers (each is good once); none if it is unknown, used,
  // expired or for another purpose.
  std::optional<ChallengeRow> take_challenge(const std::string& client_data_json, const std::string& purpose);

  PeopleStore& store_;
  const AccountsSettings settings_;
  AccountMail mail_;
  AccountVacation vacation_;
  AccountPush push_;
  Throttle failures_by_name_, failures_by_address_, sign_ups_, challenges_, profile_lookups_;
  std::function<void(const std::vector<ClaimRow>&, const std::string&)> on_deleted_;
  std::function<void(const std::string&, const std::string&)> on_signed_out_;
  std::function<void(const std::string&, const nlohmann::json&, const std::vector<ClaimRow>&)> on_moderated_;
  void end_session(const std::string& session_id);  // the session this cookie's id names, and its connections
  void signed_out(const std::string& account, const std::string& session_public_id) const {
    if (on_signed_out_) on_signed_out_(account, session_public_id);
  }
  // Expired sessions and challenges are deleted at most once an hour, by the worker of the request that finds it
  // due: no timer of its own, and a server nobody uses has nothing to sweep.
  static constexpr long long kSweepEvery = 3600;
  std::atomic<long long> last_sweep_{0};
  void sweep_if_due();
  // Last: destroyed first, so that no worker runs on while the members above go.
  WorkerPool workers_;   // every request that may hash a password
  // Reading a session (the page's GET /api/session, a WebSocket upgrade's cookie): store calls only, never queued
  // behind a crowd's password hashes.
  WorkerPool sessions_;
};

}  // namespace emporium::server
