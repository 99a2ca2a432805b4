// How fast the mail queue empties into a real SMTP server (docs/benchmarks.md "Mail"): queues N mails of the
// size of a "your turn" mail at once, and measures the time until the SMTP server has taken them all.
// Usage: mail_throughput SMTP_URL [N]   (bench/mail.sh starts tests/tools/smtp_sink.py and runs it)
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "mail/mail_text.hpp"
#include "mail/mailer.hpp"

using namespace emporium::server;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: mail_throughput SMTP_URL [N]\n");
    return 2;
  }
  const int n = argc > 2 ? std::stoi(argv[2]) : 1000;
  Mailer mailer(MailerSettings{argv[1], "noreply@bench.example"});
  const MailFooter footer{"p@example.org", "your_turn", "https://bench.example/api/email/unsubscribe?t=x",
                          "https://bench.example/account"};
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) {
    auto m = your_turn_mail("en", {"P" + std::to_string(i), "medina", {"Ann", "Bo"}, 3600, "https://bench.example/t/x"},
                            footer);
    mailer.send({"p" + std::to_string(i) + "@example.org", m.subject, m.text, m.html});
  }
  const double queued_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  while (mailer.counts().sent + mailer.counts().refused < n) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const double all_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto c = mailer.counts();
  std::printf("%d mails: queued in %.1f ms (%.0f/s), sent in %.2f s (%.0f/s); sent %lld, refused %lld, retries %lld\n", n,
              queued_s * 1000, n / queued_s, all_s, n / all_s, c.sent, c.refused, c.retries);
  return c.sent == n ? 0 : 1;
}
