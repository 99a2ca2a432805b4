#pragma once
// E-mail out through an SMTP server (--smtp-url), sent with libcurl from a bounded queue on a thread of its own
// (common/delivery_queue): send() only queues, so no network thread, room or worker ever waits for a mail server
// (docs/mail.md). A mail the server cannot take now (it is down, the connection breaks, it answers 4xx) waits at
// the head of the queue and is tried again after a pause that doubles up to `max_retry`; one it refuses for good
// (5xx) is dropped and logged. Mail is kept in memory only: a restart loses what was queued (docs/mail.md says why
// that is enough).
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/delivery_queue.hpp"

namespace emporium::server {

struct Mail {
  std::string to;       // one address, checked by mail_address.hpp's valid_address
  std::string subject;  // UTF-8: encoded for the header here
  std::string text, html;  // the two versions of the body (multipart/alternative)
  std::vector<std::pair<std::string, std::string>> headers{};  // more headers (List-Unsubscribe, ...)
};

struct MailerSettings {
  std::string smtp_url;  // smtp://host:port (STARTTLS when offered) or smtps://host:port; empty: no mail is sent
  std::string from;      // the sender's address, e.g. "noreply@play.example"
  std::string user{}, password{};  // SMTP authentication, when set (from the environment only)
  std::size_t capacity = 10000;  // mails waiting at most: beyond it a new one is dropped (and counted)
  std::chrono::milliseconds first_retry{1000};
  std::chrono::milliseconds max_retry{30000};
  std::chrono::seconds timeout{30};  // one SMTP conversation at most
};

class Mailer {
 public:
  explicit Mailer(MailerSettings settings);
  ~Mailer();  // stops: the mail being sent finishes (or times out), the queued ones are dropped
  Mailer(const Mailer&) = delete;
  Mailer& operator=(const Mailer&) = delete;

  bool enabled() const { return !settings_.smtp_url.empty(); }
  // Queues a mail; false when mail is off or the queue is full (then it is counted as dropped). Thread-safe.
  bool send(Mail mail);

  using Counts = DeliveryQueue<Mail>::Counts;
  Counts counts() const;
  // The counts for /metrics (Prometheus text): an operator sees mail waiting, retried or refused.
  std::string metrics() const;

 private:
  Delivery deliver(void* curl, const Mail& mail, std::string& error);  // curl: a CURL handle

  const MailerSettings settings_;
  std::unique_ptr<DeliveryQueue<Mail>> queue_;  // last: none when mail is off
};

}  // namespace emporium::server
