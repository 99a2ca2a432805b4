#include "people/account_mail.hpp"

#include <algorithm>
#include <array>

#include <spdlog/spdlog.h>

#include "common/url.hpp"
#include "common/wall_clock.hpp"
#include "mail/mail_format.hpp"
#include "mail/mail_links.hpp"
#include "mail/mail_text.hpp"
#include "mail/mailer.hpp"
#include "store/people_store.hpp"

namespace emporium::server {
namespace {

using Json = nlohmann::json;

constexpr std::array<int, 7> kTurnDelays{0, 5, 10, 30, 60, 180, 720};  // minutes
constexpr std::array<const char*, 5> kKinds{"your_turn", "game_over", "invited", "low_clock", "digest"};

bool is_kind(const std::string& kind) {
  return std::find(kKinds.begin(), kKinds.end(), kind) != kKinds.end();
}

bool* flag_of(MailSettingsRow& m, const std::string& kind) {
  if (kind == "your_turn") return &m.your_turn;
  if (kind == "game_over") return &m.game_over;
  if (kind == "invited") return &m.invited;
  if (kind == "low_clock") return &m.low_clock;
  if (kind == "digest") return &m.digest;
  return nullptr;
}

Json or_null(const std::string& s) { return s.empty() ? Json(nullptr) : Json(s); }

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

AccountReply page(int status, const std::string& html) {
  AccountReply r;
  r.status = status;
  r.html = html;
  return r;
}

AccountReply bad_request(const std::string& message) { return account_error(400, "bad_request", message); }

}  // namespace

AccountMail::AccountMail(PeopleStore& store, Mailer* mailer, const MailLinks* links, AccountMailSettings settings)
    : store_(store),
      mailer_(mailer),
      links_(links),
      settings_(settings),
      confirmations_(settings.confirmations_per_hour, std::chrono::hours(1)) {}

bool AccountMail::available() const { return mailer_ && links_ && mailer_->enabled(); }

Json AccountMail::view(const std::string& account) {
  auto m = store_.mail_settings(account).value_or(MailSettingsRow{account});
  Json notify = Json::object();
  for (const char* kind : kKinds) notify[kind] = *flag_of(m, kind);
  notify["turn_delay_minutes"] = m.turn_delay_minutes;
  return {{"available", available()}, {"address", or_null(m.address)}, {"pending", or_null(m.pending)},
          {"language", m.language}, {"notify", std::move(notify)}};
}

AccountReply AccountMail::saved(const std::string& account) {
  AccountReply r;
  r.body = {{"email", view(account)}};
  return r;
}

AccountReply AccountMail::set_address(const std::string& body, const SignedIn& who) {
  if (!available()) return account_error(503, "mail_off", "this server sends no e-mail");
  const Json j = Json::parse(body, nullptr, false);
  if (!j.is_object() || !j.contains("address") || !j["address"].is_string()) {
    return bad_request("send {\"address\":\"you@example.org\"}");
  }
  const std::string address = trimmed(j["address"].get<std::string>());
  if (!valid_address(address)) {
    return account_error(400, "bad_address", "that is not an e-mail address this server can write to (name@domain.example)");
  }
  if (const auto wait = confirmations_.wait(who.account); wait.count() > 0) {
    return too_many(std::chrono::duration_cast<std::chrono::seconds>(wait) + std::chrono::seconds(1),
                    "too_many_mails", "too many confirmation mails in an hour: try again later");
  }
  auto m = store_.mail_settings(who.account).value_or(MailSettingsRow{who.account});
  if (j.contains("language") && j["language"].is_string()) m.language = mail_language(j["language"].get<std::string>());
  if (address == m.address) return saved(who.account);  // confirmed already
  const long long now = unix_now();
  m.pending = address;
  m.updated_at = now;
  store_.put_mail_settings(m);
  confirmations_.count(who.account);
  const auto link = links_->confirm_url(who.account, address, now + settings_.confirm_lifetime.count());
  auto mail = confirmation_mail(m.language, who.name, link);
  if (!mailer_->send({address, std::move(mail.subject), std::move(mail.text), std::move(mail.html)})) {
    return account_error(503, "mail_queue_full", "the server cannot send mail now: try again later");
  }
  return saved(who.account);
}

AccountReply AccountMail::remove(const SignedIn& who) {
  if (auto m = store_.mail_settings(who.account)) {
    m->address.clear();
    m->pending.clear();
    m->updated_at = unix_now();
    store_.put_mail_settings(*m);
  }
  return saved(who.account);
}

AccountReply AccountMail::set_preferences(const std::string& body, const SignedIn& who) {
  const Json j = Json::parse(body, nullptr, false);
  if (!j.is_object()) return bad_request("send the settings as a JSON object");
  auto m = store_.mail_settings(who.account).value_or(MailSettingsRow{who.account});
  // Every field is checked before anything is kept: a request with one bad field changes nothing.
  for (const auto& [key, value] : j.items()) {
    if (bool* flag = flag_of(m, key)) {
      if (!value.is_boolean()) return bad_request(key + " is true or false");
      *flag = value.get<bool>();
    } else if (key == "turn_delay_minutes") {
      if (!value.is_number_integer() ||
          std::find(kTurnDelays.begin(), kTurnDelays.end(), value.get<long long>()) == kTurnDelays.end()) {
        return bad_request("turn_delay_minutes is one of 0, 5, 10, 30, 60, 180, 720");
      }
      m.turn_delay_minutes = value.get<int>();
    } else if (key == "language") {
      if (!value.is_string() || mail_language(value.get<std::string>()) != value.get<std::string>()) {
        return bad_request("language is one of en, ja, zh-Hans, zh-Hant");
      }
      m.language = value.get<std::string>();
    } else {
      return bad_request("no such setting: " + key);
    }
  }
  m.updated_at = unix_now();
  store_.put_mail_settings(m);
  return saved(who.account);
}

AccountReply AccountMail::confirm(const AccountClient& client, bool post) {
  const std::string token = query_value(client.query, "t").value_or("");
  const auto c = links_ ? links_->confirmation(token) : std::nullopt;
  if (!c) return page(400, link_page("en", LinkPage::bad_link, {}));
  const auto m = store_.mail_settings(c->account);
  const std::string language = m ? m->language : "en";
  const bool done_before = m && m->address == c->address;
  if (!done_before && (c->expires_at < unix_now() || !m || m->pending != c->address)) {
    return page(410, link_page(language, LinkPage::expired_link, {}));
  }
  if (!post && !done_before) {
    return page(200, link_page(language, LinkPage::confirm_ask, {c->address, "", "?t=" + token}));
  }
  if (!done_before && !store_.confirm_mail_address(c->account, c->address, unix_now())) {
    return page(410, link_page(language, LinkPage::expired_link, {}));
  }
  if (!done_before) spdlog::info("mail: account {} confirmed its address", c->account);
  return page(200, link_page(language, LinkPage::confirm_done, {c->address}));
}

AccountReply AccountMail::unsubscribe(const AccountClient& client, bool post) {
  const std::string token = query_value(client.query, "t").value_or("");
  const auto u = links_ ? links_->unsubscription(token) : std::nullopt;
  if (!u || (u->kind != "all" && !is_kind(u->kind))) return page(400, link_page("en", LinkPage::bad_link, {}));
  auto m = store_.mail_settings(u->account);
  const std::string language = m ? m->language : "en";
  const std::string address = m ? m->address : std::string();
  if (!post) {
    return page(200, link_page(language, LinkPage::unsubscribe_ask, {address, u->kind, "?t=" + token}));
  }
  if (m) {
    for (const char* kind : kKinds) {
      if (u->kind == "all" || u->kind == kind) *flag_of(*m, kind) = false;
    }
    m->updated_at = unix_now();
    store_.put_mail_settings(*m);
  }
  return page(200, link_page(language, LinkPage::unsubscribe_done, {address, u->kind}));
}

}  // namespace emporium::server
