#include "mail/mailer.hpp"

#include <ctime>
#include <memory>
#include <mutex>

#include <curl/curl.h>
#include <spdlog/spdlog.h>

#include "common/curl_delivery.hpp"
#include "common/secrets.hpp"
#include "mail/mail_format.hpp"

namespace emporium::server {
namespace {

// RFC 5322's date: "Sat, 28 Nov 2026 23:40:00 +0000".
std::string mail_date() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[64];
  std::strftime(text, sizeof text, "%a, %d %b %Y %H:%M:%S +0000", &utc);
  return text;
}

}  // namespace

Mailer::Mailer(MailerSettings settings) : settings_(std::move(settings)) {
  if (!enabled()) return;
  queue_ = std::make_unique<DeliveryQueue<Mail>>(
      "mail", DeliveryQueueSettings{settings_.capacity, settings_.first_retry, settings_.max_retry},
      over_one_curl_handle<Mail>(
          [this](CURL* c, const Mail& mail, std::string& error) { return deliver(c, mail, error); }));
}

Mailer::~Mailer() = default;

bool Mailer::send(Mail mail) { return queue_ && queue_->push(std::move(mail)); }

Mailer::Counts Mailer::counts() const { return queue_ ? queue_->counts() : Counts{}; }

std::string Mailer::metrics() const { return counts().metrics("mail", "mails"); }

Delivery Mailer::deliver(CURL* c, const Mail& mail, std::string& error) {
  curl_easy_reset(c);  // the options of the last mail go; its connection stays
  curl_easy_setopt(c, CURLOPT_URL, settings_.smtp_url.c_str());
  if (settings_.smtp_url.starts_with("smtp://")) curl_easy_setopt(c, CURLOPT_USE_SSL, static_cast<long>(CURLUSESSL_TRY));
  if (!settings_.user.empty()) {
    curl_easy_setopt(c, CURLOPT_USERNAME, settings_.user.c_str());
    curl_easy_setopt(c, CURLOPT_PASSWORD, settings_.password.c_str());
  }
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
  curl_easy_setopt(c, CURLOPT_TIMEOUT, static_cast<long>(settings_.timeout.count()));
  const std::string from = "<" + settings_.from + ">";
  curl_easy_setopt(c, CURLOPT_MAIL_FROM, from.c_str());
  CurlPtr<curl_slist> recipients(curl_append(nullptr, "<" + mail.to + ">"));
  curl_easy_setopt(c, CURLOPT_MAIL_RCPT, recipients.get());

  const std::string domain = settings_.from.substr(settings_.from.find('@') + 1);
  curl_slist* h = nullptr;
  for (const auto& line : {"Date: " + mail_date(), "From: Emporium <" + settings_.from + ">", "To: <" + mail.to + ">",
                           "Subject: " + encoded_header(mail.subject),
                           "Message-ID: <" + random_token(18) + "@" + domain + ">",
                           std::string("Auto-Submitted: auto-generated")}) {
    h = curl_append(h, line);
  }
  for (const auto& [name, value] : mail.headers) h = curl_append(h, name + ": " + value);
  CurlPtr<curl_slist> headers(h);
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());

  // multipart/alternative: the text, then the HTML (the last is the one preferred), each in base64 so that any
  // line length and any character goes through.
  CurlPtr<curl_mime> message(curl_mime_init(c));
  curl_mime* alternative = curl_mime_init(c);
  for (const auto& [body, type] : {std::pair{&mail.text, "text/plain; charset=UTF-8"},
                                   std::pair{&mail.html, "text/html; charset=UTF-8"}}) {
    curl_mimepart* part = curl_mime_addpart(alternative);
    curl_mime_data(part, body->data(), body->size());
    curl_mime_type(part, type);
    curl_mime_encoder(part, "base64");
  }
  curl_mimepart* whole = curl_mime_addpart(message.get());
  curl_mime_subparts(whole, alternative);  // owned by `message` from now on
  curl_mime_type(whole, "multipart/alternative");
  curl_easy_setopt(c, CURLOPT_MIMEPOST, message.get());

  const CURLcode result = curl_easy_perform(c);
  if (result == CURLE_OK) return Delivery::sent;
  long code = 0;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
  error = std::string(curl_easy_strerror(result)) + (code ? ", SMTP " + std::to_string(code) : std::string());
  // A 5xx to the mail itself (its recipient, its content) is final; a failed sign-in is the server's settings,
  // which its operator will fix: kept.
  return code >= 500 && code < 600 && result != CURLE_LOGIN_DENIED ? Delivery::refused : Delivery::try_again;
}

}  // namespace emporium::server
