#include "people/account_push.hpp"

#include "common/wall_clock.hpp"
#include "push/web_push.hpp"
#include "store/people_store.hpp"

namespace emporium::server {
namespace {

using Json = nlohmann::json;

constexpr std::size_t kMaxEndpoint = 2000;  // the push services' are a few hundred characters

std::string string_at(const Json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

}  // namespace

AccountPush::AccountPush(PeopleStore& store, const VapidKey* key, AccountPushSettings settings)
    : store_(store), key_(key), settings_(settings) {}

AccountReply AccountPush::key() const {
  AccountReply r;
  r.body = {{"key", key_ ? Json(key_->public_base64url()) : Json(nullptr)}, {"available", available()}};
  return r;
}

Json AccountPush::view(const std::string& account) {
  return {{"available", available()}, {"devices", available() ? store_.push_subscriptions(account).size() : std::size_t{0}}};
}

bool AccountPush::endpoint_allowed(const std::string& endpoint) const {
  const auto origin = url_origin(endpoint);
  if (!origin || endpoint.size() > kMaxEndpoint) return false;
  if (origin->starts_with("https://")) return true;
  // Loopback, for tests: the host exactly, any port.
  return settings_.allow_loopback &&
         (*origin == "http://127.0.0.1" || origin->starts_with("http://127.0.0.1:") || *origin == "http://localhost" ||
          origin->starts_with("http://localhost:"));
}

AccountReply AccountPush::subscribe(const std::string& body, const SignedIn& who) {
  if (!available()) return account_error(503, "push_off", "this server sends no push notifications");
  const Json j = Json::parse(body, nullptr, false);
  const std::string endpoint = string_at(j, "endpoint");
  const Json keys = j.is_object() ? j.value("keys", Json()) : Json();
  const std::string p256dh = string_at(keys, "p256dh"), auth = string_at(keys, "auth");
  if (endpoint.empty() || p256dh.empty() || auth.empty()) {
    return account_error(400, "bad_request",
                         "send the browser's subscription: {\"endpoint\",\"keys\":{\"p256dh\",\"auth\"}}");
  }
  if (!endpoint_allowed(endpoint)) {
    return account_error(400, "bad_endpoint", "a push endpoint is an https:// URL of at most 2000 characters");
  }
  try {
    subscription_keys(p256dh, auth);
  } catch (const PushKeyError& e) {
    return account_error(400, "bad_keys", e.what());
  }
  store_.add_push_subscription({who.account, endpoint, p256dh, auth, unix_now()}, settings_.per_account);
  AccountReply r;
  r.body = {{"push", view(who.account)}};
  return r;
}

AccountReply AccountPush::unsubscribe(const std::string& body, const SignedIn& who) {
  const std::string endpoint = string_at(Json::parse(body, nullptr, false), "endpoint");
  if (endpoint.empty()) return account_error(400, "bad_request", "send {\"endpoint\": the subscription's endpoint}");
  if (!store_.remove_push_subscription(endpoint, who.account)) {
    return account_error(404, "not_found", "this account has no such subscription");
  }
  AccountReply r;
  r.body = {{"push", view(who.account)}};
  return r;
}

}  // namespace emporium::server
