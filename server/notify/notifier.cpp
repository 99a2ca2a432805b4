#include "notify/notifier.hpp"

#include <spdlog/spdlog.h>

#include <memory>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/wall_clock.hpp"
#include "common/worker_pool.hpp"
#include "mail/mail_links.hpp"
#include "mail/mail_text.hpp"
#include "mail/mailer.hpp"
#include "push/push_sender.hpp"
#include "store/people_store.hpp"

namespace emporium::server {
namespace {

// A push says what its mail says first: the subject, and the paragraph after the greeting (mail_text's words, so
// only what the mail may say: docs/mail.md "What a mail may say").
std::string push_message(const RenderedMail& mail, const std::string& link) {
  const auto begin = mail.text.find("\n\n");
  const std::string first =
      begin == std::string::npos ? "" : mail.text.substr(begin + 2, mail.text.find("\n\n", begin + 2) - begin - 2);
  return nlohmann::json{{"title", mail.subject}, {"body", first}, {"url", link}}.dump();
}

}  // namespace

void Notifier::queue(const Recipient& r, const std::string& account, const char* kind, const std::string& link,
                     const std::function<RenderedMail(const MailFooter&)>& render) {
  const auto& m = r.settings;
  const auto unsubscribe = links_.unsubscribe_url(account, kind);
  auto mail = render({m.address, kind, unsubscribe, links_.account_url()});
  if (push_ && !r.devices.empty()) push_->send(r.devices, push_message(mail, link));
  if (m.address.empty()) return;
  // The headers of RFC 8058: a mail program offers "unsubscribe" and POSTs to the link itself, with no sign-in.
  mailer_.send({m.address, std::move(mail.subject), std::move(mail.text), std::move(mail.html),
                {{"List-Unsubscribe", "<" + unsubscribe + ">"}, {"List-Unsubscribe-Post", "List-Unsubscribe=One-Click"}}});
}

Notifier::Notifier(PeopleStore& store, Mailer& mailer, const MailLinks& links, NotifierSettings settings,
                   PushSender* push)
    : store_(store),
      mailer_(mailer),
      links_(links),
      settings_(settings),
      push_(push),
      next_digest_(Clock::now() + settings.first_digest),
      thread_([this] { run(); }) {}

Notifier::~Notifier() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void Notifier::post(std::function<void()> job) {
  {
    std::lock_guard lock(mutex_);
    jobs_.push_back(std::move(job));
  }
  wake_.notify_one();
}

void Notifier::waiting(TurnWaiting wait) {
  post([this, wait = std::move(wait), since = Clock::now()]() mutable {
    waiting_now_[wait.account][wait.table] = {wait, since};
    Key key{wait.table, wait.account};
    waits_[std::move(key)] = Due{std::move(wait), since, since};
  });
}

void Notifier::not_waiting(const std::string& table, const std::string& account) {
  post([this, key = Key{table, account}] {
    waits_.erase(key);
    if (const auto it = waiting_now_.find(key.second); it != waiting_now_.end()) {
      it->second.erase(key.first);
      if (it->second.empty()) waiting_now_.erase(it);
    }
  });
}

void Notifier::game_over(GameOverNotice over) {
  post([this, over = std::make_shared<const GameOverNotice>(std::move(over))] {
    for (std::size_t place = 0; place < over->places.size(); ++place) {
      if (!over->places[place].account.empty()) with_retry([this, over, place] { send_game_over(*over, place); });
    }
  });
}

void Notifier::low_clock(TurnWaiting wait) {
  post([this, wait = std::move(wait)] { with_retry([this, wait] { send_turn_notice(wait, "low_clock"); }); });
}

void Notifier::invited(InvitationNotice invitation) {
  post([this, invitation = std::move(invitation)] { with_retry([this, invitation] { send_invitation(invitation); }); });
}

void Notifier::with_retry(std::function<void()> send) {
  try {
    send();
  } catch (const StoreError& e) {
    if (!e.unavailable()) {
      spdlog::error("notify: a store call failed: {}", e.what());
      return;
    }
    retries_.emplace(Clock::now() + settings_.retry, [this, send = std::move(send)] { with_retry(send); });
  }
}

void Notifier::run() {
  lower_thread_priority(10);  // as the mailer's: the tables come first
  std::unique_lock lock(mutex_);
  while (true) {
    // Asleep until the tables say something or the next notice is due.
    auto next = Clock::time_point::max();
    for (const auto& [key, due] : waits_) next = std::min(next, due.at);
    if (!retries_.empty()) next = std::min(next, retries_.begin()->first);
    next = std::min(next, next_digest_);
    wake_.wait_until(lock, next, [&] { return stopping_ || !jobs_.empty() || Clock::now() >= next; });
    if (stopping_) return;
    auto jobs = std::move(jobs_);
    jobs_.clear();
    lock.unlock();
    for (auto& job : jobs) job();
    const auto now = Clock::now();
    for (auto it = waits_.begin(); it != waits_.end();) {
      it = it->second.at <= now ? handle_due(it, now) : std::next(it);
    }
    if (next_digest_ <= now) {
      next_digest_ = now + 24 * 60 * settings_.minute;
      send_digests();
    }
    while (!retries_.empty() && retries_.begin()->first <= now) {
      auto retry = std::move(retries_.begin()->second);
      retries_.erase(retries_.begin());
      retry();
    }
    lock.lock();
  }
}

std::map<Notifier::Key, Notifier::Due>::iterator Notifier::handle_due(std::map<Key, Due>::iterator it,
                                                                      Clock::time_point now) {
  auto& due = it->second;
  try {
    std::optional<Recipient> read;
    if (!due.delay_known) {
      // The delay is the account's as it is when the wait begins; the mail's wish is read again when it is due
      // (not when it is due at once: then what was just read stands).
      read = wanted(due.wait.account, "your_turn");
      if (!read) return waits_.erase(it);
      due.delay_known = true;
      due.at = due.since + read->settings.turn_delay_minutes * settings_.minute;
      if (due.at > now) return std::next(it);
    }
    send_turn_notice(due.wait, "your_turn", std::move(read));
  } catch (const StoreError& e) {
    if (e.unavailable()) {
      due.at = now + settings_.retry;
      return std::next(it);
    }
    spdlog::error("notify: a store call failed: {}", e.what());
  }
  return waits_.erase(it);
}

std::optional<Notifier::Recipient> Notifier::wanted(const std::string& account, const char* kind) {
  Recipient r{store_.mail_settings(account).value_or(MailSettingsRow{account}), {}};
  const auto& m = r.settings;
  const std::string k = kind;
  const bool on = k == "your_turn" ? m.your_turn : k == "game_over" ? m.game_over : k == "invited" ? m.invited
                  : k == "low_clock" ? m.low_clock : m.digest;
  if (!on) return std::nullopt;
  if (push_ && k != "digest") r.devices = store_.push_subscriptions(account);
  if (m.address.empty() && r.devices.empty()) return std::nullopt;
  return r;
}

void Notifier::send_turn_notice(const TurnWaiting& wait, const char* kind, std::optional<Recipient> read) {
  const auto m = read ? std::move(read) : wanted(wait.account, kind);
  // One per wait, whichever node or run of the server gets here first.
  if (!m || !store_.mark_mail_sent(wait.account, wait.table, kind, static_cast<long long>(wait.since), unix_now())) {
    return;
  }
  TurnMail turn{wait.name, wait.game, wait.others, wait.clock_left_s, links_.table_url(wait.table)};
  const auto render = std::string_view(kind) == "low_clock" ? low_clock_mail : your_turn_mail;
  queue(*m, wait.account, kind, turn.link,
        [&](const MailFooter& footer) { return render(m->settings.language, turn, footer); });
}

void Notifier::send_game_over(const GameOverNotice& over, std::size_t place) {
  const auto& me = over.places[place];
  const auto m = wanted(me.account, "game_over");
  if (!m || !store_.mark_mail_sent(me.account, over.table, "game_over", 0, unix_now())) return;
  GameOverMail mail{me.name, over.game, {}, me.rank, links_.replay_url(over.table)};
  for (const auto& p : over.places) mail.ranking.push_back({p.name, p.rank});
  queue(*m, me.account, "game_over", mail.link,
        [&](const MailFooter& footer) { return game_over_mail(m->settings.language, mail, footer); });
}

void Notifier::send_digests() {
  const auto now = Clock::now();
  for (const auto& entry : waiting_now_) {  // not a structured binding: the lambda below captures the account
    std::vector<TurnWaiting> waits;
    std::vector<long long> waited_s;
    for (const auto& [table, wait] : entry.second) {
      waits.push_back(wait.first);
      waited_s.push_back(std::chrono::duration_cast<std::chrono::seconds>(now - wait.second).count());
    }
    with_retry([this, account = entry.first, waits, waited_s] { send_digest(account, waits, waited_s); });
  }
}

void Notifier::send_digest(const std::string& account, const std::vector<TurnWaiting>& waits,
                           const std::vector<long long>& waited_s) {
  const auto m = wanted(account, "digest");
  const auto row = m ? store_.account(account) : std::nullopt;
  // One a day, whichever node or run comes first (each lists the games it serves).
  const long long day = unix_now() / 86400;
  if (!m || !row || !store_.mark_mail_sent(account, "", "digest", day, unix_now())) return;
  std::vector<DigestItem> items;
  for (std::size_t i = 0; i < waits.size(); ++i) {
    items.push_back({waits[i].game, waits[i].others, waited_s[i], links_.table_url(waits[i].table)});
  }
  queue(*m, account, "digest", links_.account_url(),
        [&](const MailFooter& footer) { return digest_mail(m->settings.language, row->name, items, footer); });
}

void Notifier::send_invitation(const InvitationNotice& invitation) {
  const auto m = wanted(invitation.account, "invited");
  const auto account = m ? store_.account(invitation.account) : std::nullopt;
  if (!m || !account || !store_.mark_mail_sent(invitation.account, invitation.table, "invited", 0, unix_now())) return;
  const InvitationMail mail{account->name, invitation.from, invitation.game, invitation.players,
                            invitation.invite.empty() ? links_.table_url(invitation.table)
                                                      : links_.invite_url(invitation.invite)};
  queue(*m, invitation.account, "invited", mail.link,
        [&](const MailFooter& footer) { return invitation_mail(m->settings.language, mail, footer); });
}

}  // namespace emporium::server
