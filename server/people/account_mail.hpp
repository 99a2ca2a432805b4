#pragma once
// An account's e-mail (docs/mail.md): its address and the confirmation of it, what it wants to be told, and the
// signed links in every mail (confirm, one-click unsubscribe, RFC 8058) that work without signing in. Requests
// come through Accounts (accounts.hpp), on its workers; the confirmation mail is only queued here (mail/mailer).
#include <chrono>
#include <string>

#include <nlohmann/json.hpp>

#include "common/throttle.hpp"
#include "people/account_reply.hpp"

namespace emporium::server {

class MailLinks;
class Mailer;
class PeopleStore;

struct AccountMailSettings {
  std::chrono::seconds confirm_lifetime = std::chrono::hours(24);
  // Confirmation mails an account may have sent in an hour: nobody fills a stranger's mailbox through us.
  std::size_t confirmations_per_hour = 5;
};

class AccountMail {
 public:
  // `mailer` and `links` null, or a mailer that is off: the server sends no mail, and says so.
  AccountMail(PeopleStore& store, Mailer* mailer, const MailLinks* links, AccountMailSettings settings = {});

  bool available() const;
  // The account page's "email" field.
  nlohmann::json view(const std::string& account);

  AccountReply set_address(const std::string& body, const SignedIn& who);  // POST /api/account/email
  AccountReply remove(const SignedIn& who);                                // POST /api/account/email/remove
  AccountReply set_preferences(const std::string& body, const SignedIn& who);  // POST /api/account/notifications
  // The signed links, anyone's: GET shows a page with a button, POST does it (`post`).
  AccountReply confirm(const AccountClient& client, bool post);      // /api/email/confirm?t=
  AccountReply unsubscribe(const AccountClient& client, bool post);  // /api/email/unsubscribe?t=

 private:
  AccountReply saved(const std::string& account);  // {"email": view}

  PeopleStore& store_;
  Mailer* mailer_;
  const MailLinks* links_;
  const AccountMailSettings settings_;
  Throttle confirmations_;
};

}  // namespace emporium::server
