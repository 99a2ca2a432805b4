#include "mail/mail_links.hpp"

#include <vector>

#include "common/secrets.hpp"
#include "common/wall_clock.hpp"
#include "mail/signed_links.hpp"
#include "store/people_store.hpp"

namespace emporium::server {
namespace {

// A payload is its purpose and its fields, one per line: no field can hold a newline (an address cannot, an id
// and a kind are tokens).
std::string payload(const std::vector<std::string>& fields) {
  std::string out;
  for (const auto& f : fields) out += (out.empty() ? "" : "\n") + f;
  return out;
}

std::vector<std::string> fields_of(const std::string& payload) {
  std::vector<std::string> out(1);
  for (char c : payload) {
    if (c == '\n') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

}  // namespace

MailLinks::MailLinks(PeopleStore& store, std::string origin)
    : key_(store.server_key("mail_links", random_token(32), unix_now())), origin_(std::move(origin)) {}

std::string MailLinks::confirm_url(const std::string& account, const std::string& address, long long expires_at) const {
  return origin_ + "/api/email/confirm?t=" +
         sign_link(key_, payload({"confirm", account, address, std::to_string(expires_at)}));
}

std::string MailLinks::unsubscribe_url(const std::string& account, const std::string& kind) const {
  return origin_ + "/api/email/unsubscribe?t=" + sign_link(key_, payload({"unsubscribe", account, kind}));
}

std::string MailLinks::table_url(const std::string& table) const { return origin_ + "/t/" + table; }

std::string MailLinks::replay_url(const std::string& table) const { return origin_ + "/t/" + table + "/replay"; }

std::optional<MailLinks::Confirmation> MailLinks::confirmation(const std::string& token) const {
  const auto p = verified_link(key_, token);
  if (!p) return std::nullopt;
  const auto f = fields_of(*p);
  if (f.size() != 4 || f[0] != "confirm") return std::nullopt;
  try {
    return Confirmation{f[1], f[2], std::stoll(f[3])};
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<MailLinks::Unsubscription> MailLinks::unsubscription(const std::string& token) const {
  const auto p = verified_link(key_, token);
  if (!p) return std::nullopt;
  const auto f = fields_of(*p);
  if (f.size() != 3 || f[0] != "unsubscribe") return std::nullopt;
  return Unsubscription{f[1], f[2]};
}

}  // namespace emporium::server
