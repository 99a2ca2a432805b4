#include "people/accounts.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <thread>
#include <utility>
#include <variant>

#include <emporium/protocol/accounts.hpp>
#include <spdlog/spdlog.h>

#include "common/base64url.hpp"
#include "common/secrets.hpp"
#include "common/url.hpp"
#include "common/wall_clock.hpp"
#include "people/passwords.hpp"
#include "ratings/ratings.hpp"
#include "people/webauthn.hpp"

namespace emporium::server {

AccountReply account_error(int status, std::string code, std::string message) {
  AccountReply r;
  r.status = status;
  r.body = {{"error", {{"code", std::move(code)}, {"message", std::move(message)}}}};
  return r;
}

AccountReply too_many(std::chrono::seconds wait, std::string code, std::string message) {
  auto r = account_error(429, std::move(code), std::move(message));
  r.retry_after = std::max(wait, std::chrono::seconds(1));
  r.body["error"]["retry_after"] = r.retry_after.count();
  return r;
}

namespace {

// A passkey the person did not name is called what the account page calls it.
std::string label_or_default(const std::string& label) { return label.empty() ? "Passkey" : label; }

namespace pa = protocol::accounts;
using Json = nlohmann::json;

constexpr const char* kRelyingPartyName = "Emporium";
constexpr long long kTouchEvery = 3600;  // a session's last use is written at most once an hour

AccountReply error(int status, std::string code, std::string message) {
  return account_error(status, std::move(code), std::move(message));
}

AccountReply refused(const protocol::ParseError& e) {
  return error(e.code == protocol::errc::internal_error ? 500 : 400, e.code, e.message);
}

// The answer to a failed sign-in, the same for an unknown name as for a wrong password.
AccountReply bad_credentials() {
  return error(401, "bad_credentials", "wrong name or password");
}

AccountReply too_many(std::chrono::seconds wait, std::string message) {
  return server::too_many(wait, "too_many_attempts", std::move(message));
}

Json account_json(const AccountRow& a) { return {{"id", a.id}, {"name", a.name}}; }

std::vector<std::string> hashes_of(const std::vector<std::string>& tokens) {
  std::vector<std::string> out;
  out.reserve(tokens.size());
  for (const auto& t : tokens) out.push_back(hash_token(t));
  return out;
}

// A passkey's user handle: the account's id, as bytes (WebAuthn's user.id), in base64url.
std::string user_handle(const std::string& account) { return base64url_encode(account); }

Json credential_parameters() {
  // Ed25519 first (smaller and faster), then ES256, which every authenticator has.
  return Json::array({{{"type", "public-key"}, {"alg", -8}}, {{"type", "public-key"}, {"alg", -7}}});
}

std::chrono::seconds seconds_of(Throttle::Clock::duration d) {
  return std::chrono::ceil<std::chrono::seconds>(d);
}

// The passkey a registration answer made, checked against its challenge; or the refusal to send back.
std::variant<webauthn::NewCredential, AccountReply> new_passkey(const pa::PasskeyAnswer& answer,
                                                                const ChallengeRow& challenge,
                                                                const AccountClient& client) {
  auto made = webauthn::verify_registration(answer.client_data_json, answer.attestation_object,
                                            {challenge.challenge, {client.origin}, client.rp_id, false});
  if (const auto* f = std::get_if<webauthn::Failure>(&made)) return error(400, "bad_passkey", f->message);
  auto& credential = std::get<webauthn::NewCredential>(made);
  if (credential.id != answer.id) return error(400, "bad_passkey", "the passkey's id is not the one it made");
  return std::move(credential);
}

// A path segment's %XX escapes decoded; none when one is malformed, or the segment holds a '/'.
std::optional<std::string> url_decoded(std::string_view segment) {
  if (segment.find('/') != std::string_view::npos) return std::nullopt;
  return percent_decode(segment);
}

// The leaderboards' rule: a player shows once they have played this many rated games of it, and are not provisional.
constexpr long long kLeaderboardMinGames = 10;
constexpr std::size_t kLeaderboardLimit = 100, kLeaderboardMaxLimit = 200;
constexpr std::size_t kRecentGames = 20;

Json shown_rating(double mu, double sigma) {
  const ratings::Rating r{mu, sigma};
  return {{"value", ratings::displayed_rating(r)}, {"provisional", ratings::is_provisional(r)}};
}

Json board_row_json(const LeaderboardRow& r) {
  return {{"place", r.place}, {"name", r.name}, {"value", r.displayed}, {"games", r.games}};
}

}  // namespace

std::optional<RouteMatch> account_route(std::string_view method, std::string_view path) {
  struct Entry {
    std::string_view method, path;
    AccountRoute route;
  };
  static constexpr std::array<Entry, 31> kRoutes{{
      {"GET", "/api/session", AccountRoute::session},
      {"POST", "/api/sign-up", AccountRoute::password_sign_up},
      {"POST", "/api/sign-in", AccountRoute::password_sign_in},
      {"POST", "/api/passkeys/options", AccountRoute::passkey_options},
      {"POST", "/api/passkeys/sign-up", AccountRoute::passkey_sign_up},
      {"POST", "/api/passkeys/sign-in", AccountRoute::passkey_sign_in},
      {"POST", "/api/passkeys/add", AccountRoute::passkey_add},
      {"POST", "/api/passkeys/rename", AccountRoute::passkey_rename},
      {"POST", "/api/passkeys/remove", AccountRoute::passkey_remove},
      {"POST", "/api/account/password", AccountRoute::set_password},
      {"POST", "/api/sign-out", AccountRoute::sign_out},
      {"POST", "/api/sign-out-everywhere", AccountRoute::sign_out_everywhere},
      {"POST", "/api/account/sessions/sign-out", AccountRoute::session_sign_out},
      {"GET", "/api/account", AccountRoute::account},
      {"POST", "/api/account/claim", AccountRoute::claim_seats},
      {"GET", "/api/account/export", AccountRoute::export_data},
      {"POST", "/api/account/delete", AccountRoute::delete_account},
      {"GET", "/api/moderation/reports", AccountRoute::moderation_reports},
      {"POST", "/api/moderation/act", AccountRoute::moderation_act},
      {"POST", "/api/account/email", AccountRoute::email_address},
      {"POST", "/api/account/email/remove", AccountRoute::email_remove},
      {"POST", "/api/account/notifications", AccountRoute::email_preferences},
      {"GET", "/api/email/confirm", AccountRoute::email_confirm_page},
      {"POST", "/api/email/confirm", AccountRoute::email_confirm},
      {"GET", "/api/email/unsubscribe", AccountRoute::unsubscribe_page},
      {"POST", "/api/email/unsubscribe", AccountRoute::unsubscribe},
      {"POST", "/api/account/vacation", AccountRoute::vacation_start},
      {"POST", "/api/account/vacation/end", AccountRoute::vacation_end},
      {"GET", "/api/push/key", AccountRoute::push_key},
      {"POST", "/api/account/push", AccountRoute::push_subscribe},
      {"POST", "/api/account/push/remove", AccountRoute::push_unsubscribe},
  }};
  for (const auto& e : kRoutes) {
    if (e.path == path && e.method == method) {
      return RouteMatch{e.route, e.method == "POST" && !e.path.starts_with("/api/email/")};
    }
  }
  static constexpr std::array<Entry, 2> kNamed{{
      {"GET", "/api/players/", AccountRoute::player},
      {"GET", "/api/leaderboard/", AccountRoute::leaderboard},
  }};
  for (const auto& e : kNamed) {
    if (method != e.method || !path.starts_with(e.path)) continue;
    auto subject = url_decoded(path.substr(e.path.size()));
    if (!subject || subject->empty()) return std::nullopt;
    return RouteMatch{e.route, false, std::move(*subject)};
  }
  return std::nullopt;
}

Accounts::Accounts(PeopleStore& store, AccountsSettings settings, Mailer* mailer, const MailLinks* links,
                   const VapidKey* push_key)
    : store_(store),
      settings_(std::move(settings)),
      mail_(store, mailer, links),
      vacation_(store),
      push_(store, push_key, settings_.push),
      failures_by_name_(settings_.failures_per_name, settings_.failure_window),
      failures_by_address_(settings_.failures_per_address, settings_.failure_window),
      sign_ups_(settings_.sign_ups_per_address, std::chrono::hours(1)),
      challenges_(settings_.challenges_per_address, std::chrono::hours(1)),
      profile_lookups_(settings_.profiles_per_address, std::chrono::minutes(15)),
      workers_(settings_.hashing_threads > 0
                   ? settings_.hashing_threads
                   : std::max(1, static_cast<int>(std::thread::hardware_concurrency()) - 1),
               19),
      sessions_(1, 0) {}

void Accounts::handle(AccountRoute route, std::string body, AccountClient client,
                      std::function<void(AccountReply)> done) {
  // Reads that hash nothing go to the sessions' worker, never behind a crowd's password hashes.
  const bool reads =
      route == AccountRoute::session || route == AccountRoute::player || route == AccountRoute::leaderboard ||
      route == AccountRoute::push_key;
  auto& pool = reads ? sessions_ : workers_;
  pool.post([this, route, body = std::move(body), client = std::move(client), done = std::move(done)] {
    sweep_if_due();
    done(handle_now(route, body, client));
  });
}

void Accounts::sweep_if_due() {
  const long long now = unix_now();
  long long last = last_sweep_.load();
  // One worker sweeps, the others go on (compare_exchange: the first to see it due takes it).
  if (now - last < kSweepEvery || !last_sweep_.compare_exchange_strong(last, now)) return;
  try {
    const auto gone = store_.delete_expired(now);
    if (gone > 0) spdlog::info("accounts: {} expired sessions, challenges and old failed sign-ins deleted", gone);
  } catch (const StoreError& e) {
    spdlog::warn("accounts: expired rows could not be deleted (next time): {}", e.what());
  }
}

void Accounts::session(std::string session_id, std::function<void(std::optional<SignedIn>)> done) {
  sessions_.post([this, id = std::move(session_id), done = std::move(done)] {
    std::optional<SignedIn> who;
    try {
      who = session_now(id);
    } catch (const StoreError& e) {
      spdlog::warn("accounts: a session could not be read: {}", e.what());  // the connection goes on as a guest
    }
    done(std::move(who));
  });
}

std::optional<SignedIn> Accounts::session_now(const std::string& session_id) {
  if (session_id.empty() || session_id.size() > 64) return std::nullopt;
  const auto id_hash = hash_token(session_id);
  const auto row = store_.session(id_hash);
  const long long now = unix_now();
  if (!row || row->expires_at <= now) return std::nullopt;
  const auto account = store_.account(row->account);
  if (!account || account->suspended_until > now) return std::nullopt;  // a suspension ends every session
  if (now - row->last_seen_at >= kTouchEvery) {
    store_.touch_session(id_hash, now, now + settings_.session_lifetime.count());
  }
  return SignedIn{account->id, account->name, row->public_id};
}

AccountReply Accounts::handle_now(AccountRoute route, const std::string& body, const AccountClient& client) {
  try {
    switch (route) {
      case AccountRoute::session: {
        const auto who = session_now(client.session_id);
        AccountReply r;
        r.body = {{"signed_in", who.has_value()},
                  {"account", who ? Json{{"id", who->account}, {"name", who->name}} : Json(nullptr)}};
        // A cookie that names no live session is cleared, so the browser stops sending it.
        r.end_session = !who && !client.session_id.empty();
        return r;
      }
      case AccountRoute::password_sign_up:
        return password_sign_up(body, client);
      case AccountRoute::password_sign_in:
        return password_sign_in(body, client);
      case AccountRoute::passkey_options:
        return passkey_options(body, client);
      case AccountRoute::passkey_sign_up:
        return passkey_sign_up(body, client);
      case AccountRoute::passkey_sign_in:
        return passkey_sign_in(body, client);
      case AccountRoute::sign_out:
        return sign_out(client);
      case AccountRoute::player:
        return player(client);
      case AccountRoute::leaderboard:
        return leaderboard(client);
      case AccountRoute::email_confirm_page:
      case AccountRoute::email_confirm:
        return mail_.confirm(client, route == AccountRoute::email_confirm);
      case AccountRoute::unsubscribe_page:
      case AccountRoute::unsubscribe:
        return mail_.unsubscribe(client, route == AccountRoute::unsubscribe);
      case AccountRoute::push_key:
        return push_.key();
      default:
        break;
    }
    // The rest are the signed-in account's own.
    const auto who = session_now(client.session_id);
    if (!who) {
      auto r = error(401, "not_signed_in", "sign in first (your session may have ended)");
      r.end_session = !client.session_id.empty();
      return r;
    }
    switch (route) {
      case AccountRoute::passkey_add:
        return passkey_add(body, client, *who);
      case AccountRoute::passkey_rename:
        return passkey_rename(body, *who);
      case AccountRoute::passkey_remove:
        return passkey_remove(body, *who);
      case AccountRoute::set_password:
        return set_password(body, *who);
      case AccountRoute::sign_out_everywhere:
        return sign_out_everywhere(*who);
      case AccountRoute::session_sign_out:
        return session_sign_out(body, *who);
      case AccountRoute::account:
        return account_page(*who);
      case AccountRoute::claim_seats:
        return claim_seats(body, *who);
      case AccountRoute::export_data:
        return export_data(*who);
      case AccountRoute::delete_account:
        return delete_account(body, client, *who);
      case AccountRoute::moderation_reports:
        return moderation_reports(*who);
      case AccountRoute::moderation_act:
        return moderation_act(body, *who);
      case AccountRoute::email_address:
        return mail_.set_address(body, *who);
      case AccountRoute::email_remove:
        return mail_.remove(*who);
      case AccountRoute::email_preferences:
        return mail_.set_preferences(body, *who);
      case AccountRoute::vacation_start:
        return vacation_.start(body, *who);
      case AccountRoute::vacation_end:
        return vacation_.end(*who);
      case AccountRoute::push_subscribe:
        return push_.subscribe(body, *who);
      case AccountRoute::push_unsubscribe:
        return push_.unsubscribe(body, *who);
      default:
        return error(404, "not_found", "no such account request");
    }
  } catch (const StoreError& e) {
    if (e.unavailable()) {
      spdlog::warn("accounts: the store is unavailable: {}", e.what());
      return error(503, protocol::errc::store_unavailable, protocol::kStoreUnavailableMessage);
    }
    spdlog::error("accounts: a store call failed: {}", e.what());
    return error(500, protocol::errc::internal_error, "the request could not be carried out");
  } catch (const std::exception& e) {
    spdlog::error("accounts: {}", e.what());
    return error(500, protocol::errc::internal_error, "the request could not be carried out");
  }
}

std::optional<AccountReply> Accounts::throttled(const std::string& name_key, const AccountClient& client) {
  if (const auto wait = failures_by_address_.wait(client.address); wait.count() > 0) {
    return too_many(seconds_of(wait), "too many failed sign-ins from your address: try again later");
  }
  if (const auto wait = failures_by_name_.wait(name_key); wait.count() > 0) {
    return too_many(seconds_of(wait), "too many failed sign-ins with this name: try again later");
  }
  return std::nullopt;
}

AccountReply Accounts::failed_sign_in(const std::string& name_key, const std::optional<AccountRow>& account,
                                      const std::string& method, const AccountClient& client) {
  failures_by_name_.count(name_key);
  failures_by_address_.count(client.address);
  store_.record_sign_in(SignInRow{account ? account->id : std::string(), method, client.device, client.address,
                                  false, unix_now()});
  return bad_credentials();
}

AccountReply Accounts::signed_in(const AccountRow& account, const std::string& method, const AccountClient& client,
                                 const std::vector<std::string>& seat_tokens) {
  const long long now = unix_now();
  if (account.suspended_until > now) {  // the right password or passkey: it may be told why, and until when
    const auto actions = store_.moderation_of(account.id);
    const auto why = std::find_if(actions.begin(), actions.end(), [](const auto& a) { return a.action == "suspend"; });
    auto r = error(403, protocol::errc::suspended,
                   "this account is suspended" + (why != actions.end() ? ": " + why->reason : std::string()));
    r.body["error"]["until"] = account.suspended_until;
    return r;
  }
  // A new id at every sign-in: an id someone planted in the browser before is never the signed-in one.
  const std::string id = random_token(18);
  store_.create_session(SessionRow{hash_token(id), random_token(9), account.id, client.device, now, now,
                                   now + settings_.session_lifetime.count()});
  store_.record_sign_in(SignInRow{account.id, method, client.device, client.address, true, now});
  const auto claims = seat_tokens.empty() ? std::vector<ClaimRow>() : store_.claim_seats(account.id, hashes_of(seat_tokens), now);
  if (!client.session_id.empty()) end_session(client.session_id);  // the one it replaces
  AccountReply r;
  r.body = {{"account", account_json(account)}, {"claimed", claims.size()}};
  r.new_session = id;
  return r;
}

AccountReply Accounts::password_sign_up(const std::string& body, const AccountClient& client) {
  auto parsed = pa::parse_password_sign_up(body);
  if (auto* e = std::get_if<protocol::ParseError>(&parsed)) return refused(*e);
  auto& req = std::get<pa::PasswordSignUp>(parsed);
  if (const auto wait = sign_ups_.wait(client.address); wait.count() > 0) {
    return too_many(seconds_of(wait), "too many new accounts from your address: try again later");
  }
  const std::string key = pa::name_key(req.name);
  if (store_.account_by_name_key(key)) return error(409, "name_taken", "that name is taken; choose another");
  AccountRow account{random_token(12), req.name, key, passwords::hash(req.password), unix_now()};
  if (!store_.create_account(account, std::nullopt)) {
    return error(409, "name_taken", "that name is taken; choose another");
  }
  sign_ups_.count(client.address);
  return signed_in(account, "password", client, req.seats);
}

AccountReply Accounts::password_sign_in(const std::string& body, const AccountClient& client) {
  auto parsed = pa::parse_password_sign_in(body);
  if (auto* e = std::get_if<protocol::ParseError>(&parsed)) return refused(*e);
  auto& req = std::get<pa::PasswordSignIn>(parsed);
  // A name that could never be an account's is looked up all the same: nothing in the answer tells them apart.
  const std::string key = pa::name_key(req.name);
  if (auto r = throttled(key, client)) return std::move(*r);
  const auto account = key.empty() ? std::nullopt : store_.account_by_name_key(key);
  const bool match = account && !account->password_hash.empty()
                         ? passwords::verify(account->password_hash, req.password)
                         : (passwords::verify_nothing(req.password), false);
  if (!match) return failed_sign_in(key, account, "password", client);
  failures_by_name_.forget(key);
  if (passwords::needs_rehash(account->password_hash)) store_.set_password(account->id, passwords::hash(req.password));
  return signed_in(*account, "password", client, req.seats);
}

AccountReply Accounts::passkey_options(const std::string& body, const AccountClient& client) {
  auto parsed = pa::parse_passkey_options(body);
  if (auto* e = std::get_if<protocol::ParseError>(&parsed)) return refused(*e);
  auto& req = std::get<pa::PasskeyOptions>(parsed);
  if (const auto wait = challenges_.wait(client.address); wait.count() > 0) {
    return too_many(seconds_of(wait), "too many passkey requests from your address: try again later");
  }
  const long long now = unix_now();
  const std::string challenge = random_token(32);
  const long long timeout_ms = std::chrono::milliseconds(settings_.challenge_lifetime).count();
  AccountReply r;
  if (req.purpose == "sign_in") {
    store_.put_challenge(ChallengeRow{challenge, "sign_in", "", now + settings_.challenge_lifetime.count()});
    // No list of credentials: the browser offers the passkeys it has for this site, so no name is asked first.
    r.body = {{"publicKey", {{"challenge", challenge}, {"rpId", client.rp_id}, {"timeout", timeout_ms},
                             {"userVerification", "preferred"}, {"allowCredentials", Json::array()}}}};
  } else {
    std::string account, name;
    Json exclude = Json::array();
    if (req.purpose == "sign_up") {
      if (store_.account_by_name_key(pa::name_key(*req.name))) {
        return error(409, "name_taken", "that name is taken; choose another");
      }
      account = random_token(12);  // the account's id to be, which the passkey keeps as its user handle
      name = *req.name;
    } else {
      const auto who = session_now(client.session_id);
      if (!who) return error(401, "not_signed_in", "sign in first to add a passkey");
      account = who->account;
      name = who->name;
      for (const auto& p : store_.passkeys_of(account)) exclude.push_back({{"type", "public-key"}, {"id", p.id}});
    }
    store_.put_challenge(ChallengeRow{challenge, req.purpose, account, now + settings_.challenge_lifetime.count()});
    r.body = {{"publicKey",
               {{"challenge", challenge},
                {"rp", {{"id", client.rp_id}, {"name", kRelyingPartyName}}},
                {"user", {{"id", user_handle(account)}, {"name", name}, {"displayName", name}}},
                {"pubKeyCredParams", credential_parameters()},
                {"timeout", timeout_ms},
                {"attestation", "none"},
                {"authenticatorSelection",
                 {{"residentKey", "required"}, {"requireResidentKey", true}, {"userVerification", "preferred"}}},
                {"excludeCredentials", std::move(exclude)}}}};
  }
  challenges_.count(client.address);
  return r;
}

std::optional<ChallengeRow> Accounts::take_challenge(const std::string& client_data_json, const std::string& purpose) {
  const auto text = base64url_decode(client_data_json);
  if (!text) return std::nullopt;
  const Json data = Json::parse(*text, nullptr, false);
  if (!data.is_object() || !data.contains("challenge") || !data["challenge"].is_string()) return std::nullopt;
  const std::string challenge = data["challenge"].get<std::string>();
  if (challenge.empty() || challenge.size() > 128) return std::nullopt;
  auto row = store_.take_challenge(challenge, unix_now());
  if (!row || row->purpose != purpose) return std::nullopt;
  return row;
}

AccountReply Accounts::passkey_sign_up(const std::string& body, const AccountClient& client) {
  auto parsed = pa::parse_passkey_sign_up(body);
  if (auto* e = std::get_if<protocol::ParseError>(&parsed)) return refused(*e);
  auto& req = std::get<pa::PasskeySignUp>(parsed);
  const auto challenge = take_challenge(req.passkey.client_data_json, "sign_up");
  if (!challenge) {
    return error(400, "stale_challenge", "this passkey answers no request of ours (it expired or was used): try again");
  }
  auto made = new_passkey(req.passkey, *challenge, client);
  if (auto* refusal = std::get_if<AccountReply>(&made)) return std::move(*refusal);
  const auto& credential = std::get<webauthn::NewCredential>(made);
  const long long now = unix_now();
  AccountRow account{challenge->account, req.name, pa::name_key(req.name), "", now};
  PasskeyRow passkey{credential.id, account.id, credential.public_key, label_or_default(req.label), credential.alg,
                     credential.sign_count, now, now};
  if (!store_.create_account(account, passkey)) {
    if (store_.account_by_name_key(account.name_key)) return error(409, "name_taken", "that name is taken; choose another");
    return error(409, "passkey_exists", "this passkey already belongs to an account: sign in with it");
  }
  return signed_in(account, "passkey", client, req.seats);
}

AccountReply Accounts::passkey_sign_in(const std::string& body, const AccountClient& client) {
  auto parsed = pa::parse_passkey_sign_in(body);
  if (auto* e = std::get_if<protocol::ParseError>(&parsed)) return refused(*e);
  auto& req = std::get<pa::PasskeySignIn>(parsed);
  if (const auto wait = failures_by_address_.wait(client.address); wait.count() > 0) {
    return too_many(seconds_of(wait), "too many failed sign-ins from your address: try again later");
  }
  const auto challenge = take_challenge(req.passkey.client_data_json, "sign_in");
  if (!challenge) {
    return error(400, "stale_challenge", "this sign-in answers no request of ours (it expired or was used): try again");
  }
  const auto stored = store_.passkey(req.passkey.id);
  if (!stored) {
    failures_by_address_.count(client.address);
    return error(401, "unknown_passkey", "this passkey belongs to no account here");
  }
  const auto account = store_.account(stored->account);
  if (!account) return error(401, "unknown_passkey", "this passkey belongs to no account here");
  if (!req.passkey.user_handle.empty() && req.passkey.user_handle != user_handle(account->id)) {
    return failed_sign_in(account->name_key, account, "passkey", client);
  }
  const auto checked = webauthn::verify_assertion({stored->public_key, stored->alg, stored->sign_count},
                                                  req.passkey.client_data_json, req.passkey.authenticator_data,
                                                  req.passkey.signature, {challenge->challenge, {client.origin},
                                                                          client.rp_id, false});
  if (const auto* f = std::get_if<webauthn::Failure>(&checked)) {
    failures_by_address_.count(client.address);
    store_.record_sign_in(SignInRow{account->id, "passkey", client.device, client.address, false, unix_now()});
    return error(401, "bad_passkey", f->message);
  }
  // Compare-and-set: of two sign-ins racing with one counter value, only one passes.
  if (!store_.use_passkey(stored->id, stored->sign_count, std::get<std::uint32_t>(checked), unix_now())) {
    return error(401, "bad_passkey", "this passkey was used again meanwhile: try again");
  }
  return signed_in(*account, "passkey", client, req.seats);
}

AccountReply Accounts::passkey_add(const std::string& body, const AccountClient& client, const SignedIn& who) {
  auto parsed = pa::parse_passkey_add(body);
  if (auto* e = std::get_if<protocol::ParseError>(&parsed)) return refused(*e);
  auto& req = std::get<pa::PasskeyAdd>(parsed);
  const auto challenge = take_challenge(req.passkey.client_data_json, "add");
  if (!challenge || challenge->account != who.account) {
    return error(400, "stale_challenge", "this passkey answers no request of ours (it expired or was used): try again");
  }
  auto made = new_passkey(req.passkey, *challenge, client);
  if (auto* refusal = std::get_if<AccountReply>(&made)) return std::move(*refusal);
  const auto& credential = std::get<webauthn::NewCredential>(made);
  const long long now = unix_now();
  const PasskeyRow passkey{credential.id, who.account, credential.public_key, label_or_default(req.label),
                           credential.alg, credential.sign_count, now, 0};
  if (!store_.add_passkey(passkey)) return error(409, "passkey_exists", "this passkey is stored already");
  AccountReply r;
  r.body = {{"passkey", {{"id", passkey.id}, {"label", passkey.label}, {"created_at", now}}}};
  return r;
}

AccountReply Accounts::passkey_rename(const std::string& body, const SignedIn& who) {
  auto parsed = pa::parse_passkey_rename(body);
  if (auto* e = std::get_if<protocol::ParseError>(&parsed)) return refused(*e);
  const auto& req = std::get<pa::PasskeyRename>(parsed);
  if (!store_.rename_passkey(who.account, req.id, req.label)) return error(404, "no_such_passkey", "no such passkey");
  return AccountReply{};
}

AccountReply Accounts::passkey_remove(const std::string& body, const SignedIn& who) {
  auto parsed = pa::parse_passkey_remove(body);
  if (auto* e = std::get_if<protocol::ParseError>(&parsed)) return refused(*e);
  const auto& req = std::get<pa::PasskeyRemove>(parsed);
  switch (store_.remove_passkey(who.account, req.id)) {
    case PeopleStore::Removal::removed:
      return AccountReply{};
    case PeopleStore::Removal::last_sign_in_method:
      return error(409, "last_sign_in_method", "this is your only way to sign in: set a password or add a passkey first");
    case PeopleStore::Removal::no_such_passkey:
      break;
  }
  return error(404, "no_such_passkey", "no such passkey");
}

AccountReply Accounts::set_password(const std::string& body, const SignedIn& who) {
  auto parsed = pa::parse_set_password(body);
  if (auto* e = std::get_if<protocol::ParseError>(&parsed)) return refused(*e);
  const auto& req = std::get<pa::SetPassword>(parsed);
  const auto account = store_.account(who.account);
  if (!account) return error(401, "not_signed_in", "sign in first");
  if (!account->password_hash.empty() &&
      !(req.current && passwords::verify(account->password_hash, *req.current))) {
    return error(403, "bad_credentials", "the current password is wrong");
  }
  store_.set_password(who.account, passwords::hash(req.password));
  // Whoever else is signed in (perhaps with the old password) is signed out, their connections closed; this
  // session stays.
  for (const auto& ended : store_.delete_sessions_but(who.account, who.session_public_id)) {
    signed_out(who.account, ended);
  }
  return AccountReply{};
}

void Accounts::end_session(const std::string& session_id) {
  const auto id_hash = hash_token(session_id);
  const auto session = store_.session(id_hash);
  store_.delete_session(id_hash);
  if (session) signed_out(session->account, session->public_id);
}

AccountReply Accounts::sign_out(const AccountClient& client) {
  if (!client.session_id.empty()) end_session(client.session_id);
  AccountReply r;
  r.end_session = true;
  return r;
}

AccountReply Accounts::sign_out_everywhere(const SignedIn& who) {
  AccountReply r;
  r.body = {{"signed_out", store_.delete_sessions_of(who.account)}};
  signed_out(who.account, "");
  r.end_session = true;
  return r;
}

AccountReply Accounts::session_sign_out(const std::string& body, const SignedIn& who) {
  auto parsed = pa::parse_session_sign_out(body);
  if (auto* e = std::get_if<protocol::ParseError>(&parsed)) return refused(*e);
  const auto& req = std::get<pa::SessionSignOut>(parsed);
  if (!store_.delete_session_by_public_id(who.account, req.id)) return error(404, "no_such_session", "no such session");
  signed_out(who.account, req.id);
  AccountReply r;
  r.end_session = req.id == who.session_public_id;
  return r;
}

AccountReply Accounts::account_page(const SignedIn& who) {
  const auto account = store_.account(who.account);
  if (!account) return error(401, "not_signed_in", "sign in first");
  const long long now = unix_now();
  Json passkeys = Json::array(), sessions = Json::array(), sign_ins = Json::array();
  for (const auto& p : store_.passkeys_of(who.account)) {
    passkeys.push_back({{"id", p.id}, {"label", p.label}, {"created_at", p.created_at}, {"last_used_at", p.last_used_at}});
  }
  for (const auto& s : store_.sessions_of(who.account, now)) {
    sessions.push_back({{"id", s.public_id}, {"device", s.device}, {"created_at", s.created_at},
                        {"last_seen_at", s.last_seen_at}, {"current", s.public_id == who.session_public_id}});
  }
  for (const auto& s : store_.sign_ins_of(who.account, 20)) {
    sign_ins.push_back({{"at", s.at}, {"method", s.method}, {"ok", s.ok}, {"device", s.device}, {"address", s.address}});
  }
  // What moderators did about the account, and why: it is told (docs/friends.md "Moderation").
  Json moderation = Json::array();
  for (const auto& m : store_.moderation_of(who.account)) {
    if (m.action == "dismiss") continue;
    moderation.push_back({{"action", m.action}, {"reason", m.reason}, {"until", m.until > 0 ? Json(m.until) : Json(nullptr)},
                          {"at", m.at}});
  }
  AccountReply r;
  r.body = {{"account", {{"id", account->id}, {"name", account->name}, {"created_at", account->created_at},
                         {"has_password", !account->password_hash.empty()},
                         {"moderator", account->role == "moderator"}}},
            {"passkeys", std::move(passkeys)},
            {"sessions", std::move(sessions)},
            {"sign_ins", std::move(sign_ins)},
            {"moderation", std::move(moderation)},
            {"email", mail_.view(who.account)},
            {"vacation", vacation_.view(who.account)},
            {"push", push_.view(who.account)}};
  return r;
}

bool Accounts::is_moderator(const SignedIn& who) {
  const auto account = store_.account(who.account);
  return account && account->role == "moderator";
}

AccountReply Accounts::moderation_reports(const SignedIn& who) {
  if (!is_moderator(who)) return error(403, protocol::errc::not_moderator, "only moderators see reports");
  Json reports = Json::array();
  for (const auto& r : store_.open_reports(200)) {
    reports.push_back({{"id", r.id}, {"reporter", r.reporter_name}, {"account", r.account_name}, {"table", r.table_id},
                       {"reason", r.reason}, {"note", r.note}, {"at", r.created_at},
                       {"context", Json::parse(r.context, nullptr, false)}});
  }
  AccountReply reply;
  reply.body = {{"reports", std::move(reports)}};
  return reply;
}

AccountReply Accounts::moderation_act(const std::string& body, const SignedIn& who) {
  if (!is_moderator(who)) return error(403, protocol::errc::not_moderator, "only moderators act on reports");
  auto parsed = pa::parse_moderation_act(body);
  if (auto* e = std::get_if<protocol::ParseError>(&parsed)) return refused(*e);
  const auto& act = std::get<pa::ModerationAct>(parsed);
  std::string account;
  if (!act.report.empty()) {
    const auto report = store_.open_report(act.report);
    if (!report) return error(404, "no_such_report", "no open report of that id (another moderator may have acted)");
    account = report->account;
  } else {
    const auto named = store_.account_by_name_key(pa::name_key(act.name));
    if (!named) return error(404, protocol::errc::no_such_player, "no account of that name");
    account = named->id;
  }
  if (account == who.account) return error(400, protocol::errc::self, "a moderator does not act on their own account");
  const long long now = unix_now();
  const ModerationRow row{random_token(9), act.report, who.account, account, act.action, act.reason,
                          act.hours > 0 ? now + 3600LL * act.hours : 0, now};
  if (!store_.moderate(row)) return error(409, "no_such_report", "that report was resolved meanwhile");
  spdlog::info("moderation {}: {} on a report {}", row.id, row.action, row.report.empty() ? "(none)" : row.report);
  if (act.action != "dismiss") {
    if (act.action == "suspend") signed_out(account, "");  // its connections close; sign-ins are refused until then
    const Json told{{"type", "moderation"}, {"action", row.action}, {"reason", row.reason},
                    {"until", row.until > 0 ? Json(row.until) : Json(nullptr)}};
    if (on_moderated_) on_moderated_(account, told, act.action == "suspend" ? store_.claims_of(account) : std::vector<ClaimRow>());
  }
  AccountReply reply;
  reply.body = {{"action", row.id}, {"until", row.until > 0 ? Json(row.until) : Json(nullptr)}};
  return reply;
}

AccountReply Accounts::claim_seats(const std::string& body, const SignedIn& who) {
  auto parsed = pa::parse_claim_seats(body);
  if (auto* e = std::get_if<protocol::ParseError>(&parsed)) return refused(*e);
  const auto& req = std::get<pa::ClaimSeats>(parsed);
  const auto claims = store_.claim_seats(who.account, hashes_of(req.seats), unix_now());
  AccountReply r;
  r.body = {{"claimed", claims.size()}};
  return r;
}

AccountReply Accounts::export_data(const SignedIn& who) {
  auto r = account_page(who);
  if (r.status != 200) return r;
  Json games = Json::array(), chat = Json::array();
  for (const auto& c : store_.claims_of(who.account)) {
    games.push_back({{"table", c.table_id}, {"game", c.game}, {"state", c.state}, {"seat", c.seat}, {"name", c.name},
                     {"claimed_at", c.claimed_at}});
  }
  for (const auto& c : store_.chat_of(who.account)) chat.push_back({{"table", c.table_id}, {"at", c.at}, {"text", c.text}});
  Json ratings = Json::array(), updates = Json::array(), results = Json::array();
  for (const auto& g : store_.ratings_of_account(who.account)) {
    ratings.push_back({{"game", g.game}, {"mu", g.mu}, {"sigma", g.sigma}, {"value", g.displayed},
                       {"provisional", g.provisional}, {"games", g.games}});
  }
  for (const auto& u : store_.rating_updates_of(who.account, true)) {
    updates.push_back({{"table", u.table_id}, {"game", u.game}, {"seat", u.seat}, {"rank", u.rank},
                       {"mu_before", u.mu_before}, {"sigma_before", u.sigma_before}, {"mu_after", u.mu_after},
                       {"sigma_after", u.sigma_after}, {"before", u.displayed_before}, {"after", u.displayed_after},
                       {"at", u.at}});
  }
  for (const auto& g : store_.results_of(who.account, true, std::numeric_limits<std::size_t>::max() / 2)) {
    results.push_back({{"table", g.table_id}, {"game", g.game}, {"seat", g.seat}, {"rank", g.rank},
                       {"players", g.players}, {"rated", g.rated}, {"private", g.is_private},
                       {"left", g.left_by.empty() ? Json(nullptr) : Json(g.left_by)}, {"finished_at", g.finished_at}});
  }
  r.body["exported_at"] = unix_now();
  r.body["ratings"] = std::move(ratings);
  r.body["rating_updates"] = std::move(updates);
  r.body["results"] = std::move(results);
  r.body["games"] = std::move(games);
  r.body["chat"] = std::move(chat);
  // The browsers that take its pushes: where, and since when (their keys are the browsers', not the account's).
  r.body["push_subscriptions"] = Json::array();
  for (const auto& s : store_.push_subscriptions(who.account)) {
    r.body["push_subscriptions"].push_back({{"endpoint", s.endpoint}, {"created_at", s.created_at}});
  }
  r.body["vacations"] = Json::array();
  for (const auto& v : store_.vacations_of(who.account, 0)) {
    r.body["vacations"].push_back({{"starts_at", v.starts_at}, {"ends_at", v.ends_at}});
  }
  r.body["sign_ins"] = Json::array();
  for (const auto& s : store_.sign_ins_of(who.account, 100)) {
    r.body["sign_ins"].push_back({{"at", s.at}, {"method", s.method}, {"ok", s.ok}, {"device", s.device},
                                  {"address", s.address}});
  }
  return r;
}

AccountReply Accounts::delete_account(const std::string& body, const AccountClient& client, const SignedIn& who) {
  auto parsed = pa::parse_delete_account(body);
  if (auto* e = std::get_if<protocol::ParseError>(&parsed)) return refused(*e);
  const auto& req = std::get<pa::DeleteAccount>(parsed);
  if (pa::name_key(req.name) != pa::name_key(who.name)) {
    return error(400, "confirm_with_name", "type your account's name to confirm");
  }
  const auto claims = store_.claims_of(who.account);  // gone with the account
  store_.delete_account(who.account, settings_.deleted_name);
  if (on_deleted_) on_deleted_(claims, settings_.deleted_name);
  signed_out(who.account, "");
  spdlog::info("accounts: an account was deleted (from {})", client.address);
  AccountReply r;
  r.end_session = true;
  return r;
}

AccountReply Accounts::player(const AccountClient& client) {
  // Guessed names are limited per address, and an account is shown only once it has played a public game (or to
  // itself): no answer tells which names merely exist.
  if (const auto wait = profile_lookups_.wait(client.address); wait.count() > 0) {
    return too_many(seconds_of(wait), "too many profiles looked up from your address: try again later");
  }
  profile_lookups_.count(client.address);
  const auto no_such_player = [] { return error(404, "not_found", "no player of that name has played a public game"); };
  const auto account = store_.account_by_name_key(pa::name_key(client.subject));
  if (!account) return no_such_player();
  const auto viewer = session_now(client.session_id);
  const bool own = viewer && viewer->account == account->id;  // a private table's game is told to its player only
  const auto counts = store_.result_counts(account->id, own);
  if (!own && counts.empty()) return no_such_player();
  const auto ratings = store_.ratings_of_account(account->id);
  const auto updates = store_.rating_updates_of(account->id, own);
  long long played = 0, left = 0, timed_out = 0;
  Json games = Json::array();
  for (const auto& game : settings_.games) {
    Json entry{{"game", game}, {"rating", nullptr}, {"played", 0}, {"won", 0}, {"finished", 0}, {"left", 0},
               {"history", Json::array()}};
    for (const auto& r : ratings) {
      if (r.game == game && r.games > 0) entry["rating"] = shown_rating(r.mu, r.sigma);
    }
    for (const auto& c : counts) {
      if (c.game != game) continue;
      entry["played"] = c.played;
      entry["won"] = c.won;
      entry["finished"] = c.played - c.left - c.timed_out;
      entry["left"] = c.left + c.timed_out;
      played += c.played;
      left += c.left;
      timed_out += c.timed_out;
    }
    for (const auto& u : updates) {
      if (u.game != game) continue;
      entry["history"].push_back({{"at", u.at}, {"value", u.displayed_after},
                                  {"delta", u.displayed_after - u.displayed_before}, {"table", u.table_id}});
    }
    games.push_back(std::move(entry));
  }
  Json recent = Json::array();
  for (const auto& g : store_.results_of(account->id, own, kRecentGames)) {
    recent.push_back({{"table", g.table_id}, {"game", g.game}, {"finished_at", g.finished_at}, {"players", g.players},
                      {"rank", g.rank}, {"rated", g.rated}, {"delta", g.delta ? Json(*g.delta) : Json(nullptr)},
                      {"private", g.is_private}, {"left", !g.left_by.empty()}});
  }
  AccountReply r;
  r.body = {{"name", account->name},
            {"since", account->created_at},
            {"reputation", {{"finished", played - left - timed_out}, {"left", left}, {"timed_out", timed_out}}},
            {"games", std::move(games)},
            {"recent", std::move(recent)}};
  return r;
}

AccountReply Accounts::leaderboard(const AccountClient& client) {
  const auto& game = client.subject;
  if (std::find(settings_.games.begin(), settings_.games.end(), game) == settings_.games.end()) {
    return error(404, "not_found", "no such game");
  }
  std::size_t limit = kLeaderboardLimit;
  if (const auto digits = query_value(client.query, "limit")) {
    std::size_t n = 0;
    const bool number = !digits->empty() && digits->size() <= 3 &&
                        std::all_of(digits->begin(), digits->end(), [](char c) { return c >= '0' && c <= '9'; });
    if (number) n = std::stoul(*digits);
    if (!number || n < 1 || n > kLeaderboardMaxLimit) {
      return error(400, "bad_limit", "limit must be a whole number from 1 to " + std::to_string(kLeaderboardMaxLimit));
    }
    limit = n;
  }
  Json rows = Json::array();
  for (const auto& row : store_.leaderboard(game, kLeaderboardMinGames, limit)) rows.push_back(board_row_json(row));
  Json you = nullptr;
  if (const auto viewer = session_now(client.session_id)) {
    if (const auto place = store_.leaderboard_place(game, kLeaderboardMinGames, viewer->account)) {
      you = board_row_json(*place);
    }
  }
  AccountReply r;
  r.body = {{"game", game}, {"min_games", kLeaderboardMinGames}, {"rows", std::move(rows)}, {"you", std::move(you)}};
  return r;
}

}  // namespace emporium::server
