#pragma once
// An account's browsers that take Web Push notifications (docs/push.md): the VAPID public key they subscribe with,
// their subscriptions added and removed. Requests come through Accounts (accounts.hpp), on its workers.
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "people/account_reply.hpp"

namespace emporium::server {

class PeopleStore;
class VapidKey;

struct AccountPushSettings {
  std::size_t per_account = 10;  // subscriptions an account keeps: a new one beyond replaces the oldest
  // For tests: endpoints on this machine (http://127.0.0.1:…, http://localhost:…) are taken, not only https://.
  bool allow_loopback = false;
};

class AccountPush {
 public:
  // `key` null: the server sends no push, and says so.
  AccountPush(PeopleStore& store, const VapidKey* key, AccountPushSettings settings = {});

  bool available() const { return key_ != nullptr; }
  AccountReply key() const;  // GET /api/push/key (anyone): {"key": base64url | null, "available"}
  // The account page's "push": {"available", "devices": how many subscriptions}.
  nlohmann::json view(const std::string& account);
  // POST /api/account/push {"endpoint","keys":{"p256dh","auth"}} (PushSubscription.toJSON()).
  AccountReply subscribe(const std::string& body, const SignedIn& who);
  AccountReply unsubscribe(const std::string& body, const SignedIn& who);  // POST /api/account/push/remove {"endpoint"}

 private:
  bool endpoint_allowed(const std::string& endpoint) const;

  PeopleStore& store_;
  const VapidKey* key_;
  const AccountPushSettings settings_;
};

}  // namespace emporium::server
