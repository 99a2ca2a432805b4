#pragma once
// Who is told what by e-mail and Web Push (docs/mail.md "Notifications", docs/push.md): the tables say whose
// decision waits on someone away and when a game ends (tables/table_notices.hpp); the notifier, on a thread of its
// own, reads each account's mail settings, waits the delay it chose, makes sure a notice goes once (the store's
// mails_sent), writes the mail in the account's language and queues it (mail/mailer), and a push of its subject and
// first line to each of the account's browsers (push/push_sender). A room never waits for any of it.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include "mail/mail_text.hpp"
#include "store/people_store.hpp"
#include "tables/table_notices.hpp"

namespace emporium::server {

class MailLinks;
class Mailer;
class PeopleStore;
class PushSender;

struct NotifierSettings {
  // How long a minute of an account's "your turn" delay lasts (tests shorten it).
  std::chrono::milliseconds minute{60'000};
  // The store did not answer: the notice is tried again after this.
  std::chrono::milliseconds retry{30'000};
  // The daily digest goes this long after the server starts, then every 24 × 60 of `minute` (a day).
  std::chrono::milliseconds first_digest{std::chrono::hours(1)};
};

class Notifier final : public TableNotices {
 public:
  // `push`: null when the server sends no push notifications.
  Notifier(PeopleStore& store, Mailer& mailer, const MailLinks& links, NotifierSettings settings = {},
           PushSender* push = nullptr);
  ~Notifier() override;  // stops: notices not yet due are dropped
  Notifier(const Notifier&) = delete;
  Notifier& operator=(const Notifier&) = delete;

  void waiting(TurnWaiting wait) override;
  void not_waiting(const std::string& table, const std::string& account) override;
  void game_over(GameOverNotice over) override;
  void low_clock(TurnWaiting wait) override;
  void invited(InvitationNotice invitation) override;

 private:
  using Clock = std::chrono::steady_clock;
  using Key = std::pair<std::string, std::string>;  // table, account
  struct Due {
    TurnWaiting wait;
    Clock::time_point since;   // when the tables said so
    Clock::time_point at;      // when to look at it next
    bool delay_known = false;  // the account's delay was read (and `at` set from it)
  };
  void run();
  void post(std::function<void()> job);
  // The rest run on the notifier's thread. A wait that is due: its delay read (first), or its mail sent; the
  // next wait. When the store does not answer, it is tried again after `retry`.
  std::map<Key, Due>::iterator handle_due(std::map<Key, Due>::iterator it, Clock::time_point now);
  void send_game_over(const GameOverNotice& over, std::size_t place);
  void send_invitation(const InvitationNotice& invitation);
  // Who hears of a notice: the account's mail settings (its defaults when it never set any), and its browsers.
  struct Recipient {
    MailSettingsRow settings;
    std::vector<PushSubscriptionRow> devices;
  };
  // Queues the mail of `kind` that `render` writes (given its footer) to `r`'s address if it has one, with the
  // one-click unsubscribe headers, and a push of it, opening `link`, to each of `r`'s devices.
  void queue(const Recipient& r, const std::string& account, const char* kind, const std::string& link,
             const std::function<RenderedMail(const MailFooter&)>& render);
  // Every account with games waiting for it gets one mail listing them (if it wants the digest), once a day.
  void send_digests();
  void send_digest(const std::string& account, const std::vector<TurnWaiting>& waits,
                   const std::vector<long long>& waited_s);
  // Runs `send` now; when the store does not answer, again after `retry` (a mail is never dropped for that).
  void with_retry(std::function<void()> send);
  // An account that wants `kind` and can hear of it: by a confirmed address, or (except the digest) a browser
  // subscribed to pushes; none otherwise. Throws StoreError.
  std::optional<Recipient> wanted(const std::string& account, const char* kind);
  // A wait's "your_turn" or "low_clock" notice, if still wanted (`read`: the recipient as read just now) and not
  // sent for this wait.
  void send_turn_notice(const TurnWaiting& wait, const char* kind, std::optional<Recipient> read = std::nullopt);

  PeopleStore& store_;
  Mailer& mailer_;
  const MailLinks& links_;
  const NotifierSettings settings_;
  PushSender* const push_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;  // what the tables said, in order
  bool stopping_ = false;
  // Only the notifier's thread touches these.
  std::map<Key, Due> waits_;  // "your turn" mails not sent yet
  // Every decision waiting on someone away, by account and table (what the digest lists), and since when.
  std::map<std::string, std::map<std::string, std::pair<TurnWaiting, Clock::time_point>>> waiting_now_;
  Clock::time_point next_digest_;
  std::multimap<Clock::time_point, std::function<void()>> retries_;  // mails the store held up
  std::thread thread_;  // last: started once everything above is
};

}  // namespace emporium::server
