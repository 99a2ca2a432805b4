#pragma once
// What each mail says, in the four languages the client speaks (en, ja, zh-Hans, zh-Hant), as text and as HTML.
// A mail is made only of what its recipient may see (docs/mail.md "What a mail may say"): names, the game, their
// own clock, and at the end the ranking everyone sees. Nothing of a game's state goes into one.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace emporium::server {

struct RenderedMail {
  std::string subject, text, html;
};

// One of the four languages; English for anything else.
std::string mail_language(std::string_view requested);

// What every notification's mail ends with: why it came, and how to stop it.
struct MailFooter {
  std::string address;      // where it went
  std::string kind;         // "your_turn", "game_over", "invited", "low_clock" or "digest": what it is about
  std::string unsubscribe;  // the signed one-click link that turns `kind` off
  std::string settings;     // the account page
};

RenderedMail confirmation_mail(const std::string& language, const std::string& name, const std::string& link);

struct TurnMail {
  std::string name;                 // the recipient's name at the table
  std::string game;                 // the game's id
  std::vector<std::string> others;  // the other seats' names
  std::optional<long long> clock_left_s;  // a timed table: the recipient's time left (turn and reserve)
  std::string link;                 // the table
};
RenderedMail your_turn_mail(const std::string& language, const TurnMail& mail, const MailFooter& footer);

// Low on time: the TurnMail of the decision still waiting, its clock_left_s the time left.
RenderedMail low_clock_mail(const std::string& language, const TurnMail& mail, const MailFooter& footer);

struct InvitationMail {
  std::string name;  // the recipient's account name
  std::string from, game;
  int players = 0;
  std::string link;  // where to join: the table's invite link, or the table
};
RenderedMail invitation_mail(const std::string& language, const InvitationMail& mail, const MailFooter& footer);

// The daily digest: every game waiting for the recipient.
struct DigestItem {
  std::string game;
  std::vector<std::string> others;
  long long waiting_s = 0;  // how long it has waited
  std::string link;
};
RenderedMail digest_mail(const std::string& language, const std::string& name, const std::vector<DigestItem>& items,
                         const MailFooter& footer);

struct GameOverMail {
  std::string name, game;
  struct Place {
    std::string name;
    int rank = 0;
  };
  std::vector<Place> ranking;  // every seat, best first
  int rank = 0;                // the recipient's
  std::string link;            // the replay
};
RenderedMail game_over_mail(const std::string& language, const GameOverMail& mail, const MailFooter& footer);

// The page a mail's signed link opens: on GET one asking to confirm (a button that POSTs, so that a mail scanner
// following links changes nothing), on POST one saying it is done; or one for a forged or expired link.
enum class LinkPage { confirm_ask, confirm_done, unsubscribe_ask, unsubscribe_done, bad_link, expired_link };
struct LinkPageValues {
  std::string address;
  std::string kind{};    // unsubscribe: the notification's kind, or "all"
  std::string action{};  // the *_ask pages: where the button posts (the link itself)
};
std::string link_page(const std::string& language, LinkPage page, const LinkPageValues& values);

// A duration as a person reads it: "2 days 3 hours", "45 minutes".
std::string duration_words(const std::string& language, long long seconds);

}  // namespace emporium::server
