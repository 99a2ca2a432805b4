// The pieces of mail (docs/mail.md): which addresses are written to, headers in UTF-8, the signed links, what each
// mail says in each language, and the links' pages (an expired confirmation changes nothing).
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "common/wall_clock.hpp"
#include "mail/mail_format.hpp"
#include "mail/mail_links.hpp"
#include "mail/mail_text.hpp"
#include "mail/mailer.hpp"
#include "mail/signed_links.hpp"
#include "people/account_mail.hpp"
#include "store/sql_people_store.hpp"
#include "store/sqlite_store.hpp"

namespace emporium::server {
namespace {

TEST(MailFormat, OnlyPlainAddressesThatCannotBreakAHeaderAreAccepted) {
  for (const char* ok : {"ann@example.org", "a.b+games@mail.example.co.uk", "x_y-z@sub-domain.example"}) {
    EXPECT_TRUE(valid_address(ok)) << ok;
  }
  for (const char* bad : {"", "ann", "@example.org", "ann@", "ann@localhost", "ann@@example.org", "a@b@example.org",
                          ".ann@example.org", "ann.@example.org", "an..n@example.org", "ann@-example.org",
                          "ann@example-.org", "ann@exa_mple.org", "ann @example.org", "ann@example.org\r\nBcc: x@y.z",
                          "<ann@example.org>", "\"ann\"@example.org", "änn@example.org", "ann@bücher.example"}) {
    EXPECT_FALSE(valid_address(bad)) << bad;
  }
  EXPECT_FALSE(valid_address(std::string(65, 'a') + "@example.org")) << "a local part of more than 64";
  EXPECT_FALSE(valid_address("a@" + std::string(250, 'b') + ".org")) << "more than 254 in all";
}

TEST(MailFormat, HeadersInUtf8AreEncodedWordsOfWholeCharacters) {
  EXPECT_EQ(encoded_header("Your turn in Medici"), "Your turn in Medici");
  EXPECT_EQ(encoded_header("你好"), "=?UTF-8?B?5L2g5aW9?=");
  EXPECT_EQ(encoded_header("a\r\nBcc: x"), "a  Bcc: x") << "no header can be injected";
  // A long subject: several words, each at most 75 characters, each decoding to whole characters.
  const std::string long_subject = "海上絲綢之路：輪到你了，海上絲綢之路：輪到你了，海上絲綢之路：輪到你了";
  const auto encoded = encoded_header(long_subject);
  std::regex word("=\\?UTF-8\\?B\\?([A-Za-z0-9+/=]+)\\?=");
  int words = 0;
  for (auto it = std::sregex_iterator(encoded.begin(), encoded.end(), word); it != std::sregex_iterator(); ++it) {
    EXPECT_LE(it->str().size(), 75u);
    EXPECT_EQ((*it)[1].str().size() % 4, 0u);
    ++words;
  }
  EXPECT_GT(words, 1);
  EXPECT_EQ(html_escape("<a href=\"x\">Tom & 'Jerry'</a>"),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;");
}

TEST(SignedLinks, OnlyTheKeysOwnTokensAreRead) {
  const std::string token = sign_link("key one", "unsubscribe\nA1\nyour_turn");
  EXPECT_EQ(verified_link("key one", token), "unsubscribe\nA1\nyour_turn");
  EXPECT_FALSE(verified_link("key two", token)) << "another server's key";
  const auto dot = token.find('.');
  std::string changed = token;
  changed[1] = changed[1] == 'A' ? 'B' : 'A';  // the payload changed, the MAC kept
  EXPECT_FALSE(verified_link("key one", changed));
  EXPECT_FALSE(verified_link("key one", token.substr(0, dot)));
  EXPECT_FALSE(verified_link("key one", token.substr(0, dot + 5)));
  EXPECT_FALSE(verified_link("key one", "not a token"));
  EXPECT_FALSE(verified_link("key one", ""));
}

TEST(MailText, EveryMailIsWholeInEachLanguageAndEscapesNames) {
  const MailFooter footer{"ann@example.org", "your_turn", "https://x.example/api/email/unsubscribe?t=T",
                          "https://x.example/account"};
  for (const std::string language : {"en", "ja", "zh-Hans", "zh-Hant"}) {
    const std::vector<RenderedMail> mails{
        confirmation_mail(language, "<Ann>", "https://x.example/api/email/confirm?t=T"),
        your_turn_mail(language, {"<Ann>", "silkroad", {"Bo & Co", "Bot 2"}, 90061, "https://x.example/t/T1"}, footer),
        game_over_mail(language,
                       {"<Ann>", "medina", {{"Bo & Co", 1}, {"<Ann>", 2}, {"Bot 2", 3}}, 2, "https://x.example/t/T1/replay"},
                       {"ann@example.org", "game_over", "https://x.example/u", "https://x.example/account"}),
        low_clock_mail(language, {"<Ann>", "merkator", {"Bo & Co"}, 3000, "https://x.example/t/T1"}, footer),
        invitation_mail(language, {"<Ann>", "Bo & Co", "medici", 3, "https://x.example/i/CODE"}, footer),
        digest_mail(language, "<Ann>", {{"medina", {"Bo & Co"}, 7200, "https://x.example/t/T1"},
                                        {"silkroad", {"Cy", "Bot 2"}, 90000, "https://x.example/t/T2"}}, footer)};
    for (const auto& m : mails) {
      for (const auto* part : {&m.subject, &m.text, &m.html}) {
        EXPECT_EQ(part->find('{'), std::string::npos) << language << ": a placeholder left in " << *part;
      }
      EXPECT_EQ(m.html.find("<Ann>"), std::string::npos) << "a name is text, not markup";
      EXPECT_NE(m.html.find("lang=\"" + language + "\""), std::string::npos);
    }
    EXPECT_NE(mails[1].text.find("https://x.example/t/T1"), std::string::npos);
    EXPECT_NE(mails[1].text.find("https://x.example/api/email/unsubscribe?t=T"), std::string::npos);
  }
  EXPECT_EQ(your_turn_mail("en", {"Ann", "medici", {"Bo", "Cy"}, 3 * 3600 + 60, "L"}, footer).subject,
            "Your turn in Medici");
  EXPECT_NE(your_turn_mail("en", {"Ann", "medici", {"Bo", "Cy"}, 3 * 3600 + 60, "L"}, footer)
                .text.find("It is your turn in Medici with Bo and Cy.\n\nYour clock shows 3 hours 1 minute left."),
            std::string::npos);
  EXPECT_EQ(your_turn_mail("zh-Hant", {"Ann", "medina", {"Bo"}, std::nullopt, "L"}, footer).subject, "麥迪那：輪到你了");
  EXPECT_EQ(duration_words("en", 2 * 86400 + 3 * 3600), "2 days 3 hours");
  EXPECT_EQ(duration_words("ja", 45 * 60), "45分");
  EXPECT_EQ(duration_words("en", 1), "1 minute") << "never less than a minute";
  EXPECT_EQ(mail_language("fr"), "en");
}

// The links' pages through AccountMail, on a real store.
class AccountMailLinks : public ::testing::Test {
 protected:
  AccountMailLinks() : dir_(std::filesystem::temp_directory_path() / ("emporium-mail-" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(dir_);
    games_ = std::make_unique<SqliteStore>(dir_.string());  // brings the schema up to date
    people_ = std::make_unique<SqlitePeopleStore>(dir_.string());
    people_->create_account({"A1", "Ann", "ann", "", 1}, std::nullopt);
    links_ = std::make_unique<MailLinks>(*people_, "https://x.example");
    MailSettingsRow row{"A1"};
    row.pending = "ann@example.org";
    people_->put_mail_settings(row);
  }
  ~AccountMailLinks() override {
    links_.reset();
    people_.reset();
    games_.reset();
    std::filesystem::remove_all(dir_);
  }
  AccountClient with_link(const std::string& url) {
    AccountClient c;
    c.query = url.substr(url.find('?') + 1);
    return c;
  }
  std::filesystem::path dir_;
  std::unique_ptr<SqliteStore> games_;
  std::unique_ptr<SqlitePeopleStore> people_;
  std::unique_ptr<MailLinks> links_;
};

TEST_F(AccountMailLinks, AnExpiredOrOutdatedConfirmationChangesNothing) {
  AccountMail mail(*people_, nullptr, links_.get());
  const auto expired = with_link(links_->confirm_url("A1", "ann@example.org", unix_now() - 1));
  for (bool post : {false, true}) EXPECT_EQ(mail.confirm(expired, post).status, 410);
  // A link for an address that is no longer the one waiting (she entered another since).
  const auto outdated = with_link(links_->confirm_url("A1", "old@example.org", unix_now() + 3600));
  EXPECT_EQ(mail.confirm(outdated, true).status, 410);
  EXPECT_EQ(people_->mail_settings("A1")->address, "");
  EXPECT_EQ(people_->mail_settings("A1")->pending, "ann@example.org");
  // Another purpose's token does not confirm: an unsubscribe link is not a confirmation.
  EXPECT_EQ(mail.confirm(with_link(links_->unsubscribe_url("A1", "all")), true).status, 400);
  const auto good = with_link(links_->confirm_url("A1", "ann@example.org", unix_now() + 3600));
  EXPECT_EQ(mail.confirm(good, true).status, 200);
  EXPECT_EQ(people_->mail_settings("A1")->address, "ann@example.org");
  // The key is the store's: a second MailLinks (another node) reads the same links.
  MailLinks again(*people_, "https://y.example");
  const auto url = links_->unsubscribe_url("A1", "all");
  EXPECT_TRUE(again.unsubscription(url.substr(url.find("?t=") + 3)));
}

TEST_F(AccountMailLinks, UnsubscribingAllTurnsEveryKindOffAndAnUnknownKindIsRefused) {
  AccountMail mail(*people_, nullptr, links_.get());
  EXPECT_EQ(mail.unsubscribe(with_link(links_->unsubscribe_url("A1", "postcards")), true).status, 400);
  EXPECT_TRUE(people_->mail_settings("A1")->your_turn);
  EXPECT_EQ(mail.unsubscribe(with_link(links_->unsubscribe_url("A1", "all")), true).status, 200);
  const auto m = *people_->mail_settings("A1");
  EXPECT_FALSE(m.your_turn || m.game_over || m.invited || m.low_clock || m.digest);
  // Without an SMTP server, no address is taken: the server says it sends no mail.
  Mailer off(MailerSettings{});
  AccountMail none(*people_, &off, links_.get());
  EXPECT_EQ(none.set_address(R"({"address":"ann@example.org"})", {"A1", "Ann", ""}).status, 503);
  EXPECT_FALSE(none.view("A1")["available"].get<bool>());
}

}  // namespace
}  // namespace emporium::server
