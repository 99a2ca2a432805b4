#pragma once
// The links a mail carries (docs/mail.md "Links"): to a table, a replay, the account page, and the signed ones
// that work without signing in — an address's confirmation (it expires) and a one-click unsubscribe (RFC 8058).
// The signing key is the store's (server_keys), so that every node makes and reads the same links.
#include <optional>
#include <string>

namespace emporium::server {

class PeopleStore;

class MailLinks {
 public:
  // Reads the key (making it the first time): a store call, made once when the server starts.
  MailLinks(PeopleStore& store, std::string origin);
  // Where links point ("https://play.example"). Set before serving when the port is known only then.
  void set_origin(std::string origin) { origin_ = std::move(origin); }
  const std::string& origin() const { return origin_; }

  std::string confirm_url(const std::string& account, const std::string& address, long long expires_at) const;
  std::string unsubscribe_url(const std::string& account, const std::string& kind) const;
  // A table's page and its replay: its players reach a private one by their seat (the browser's token or the
  // account's claim), so no invite code is ever written into a mail.
  std::string table_url(const std::string& table) const;
  std::string replay_url(const std::string& table) const;
  std::string account_url() const { return origin_ + "/account"; }
  // A private table's invite link (its invitee's own mail may carry it: they were invited).
  std::string invite_url(const std::string& code) const { return origin_ + "/i/" + code; }

  struct Confirmation {
    std::string account, address;
    long long expires_at = 0;
  };
  // What a link's token says, if this server signed it for that purpose (expiry is the caller's to check).
  std::optional<Confirmation> confirmation(const std::string& token) const;
  struct Unsubscription {
    std::string account, kind;  // kind: a notification's, or "all"
  };
  std::optional<Unsubscription> unsubscription(const std::string& token) const;

 private:
  std::string key_;
  std::string origin_;
};

}  // namespace emporium::server
