#include "mail/mail_text.hpp"

#include <array>
#include <map>
#include <stdexcept>

#include "mail/mail_format.hpp"

namespace emporium::server {
namespace {

constexpr std::array<std::string_view, 4> kLanguages{"en", "ja", "zh-Hans", "zh-Hant"};

std::size_t index_of(const std::string& language) {
  for (std::size_t i = 0; i < kLanguages.size(); ++i) {
    if (kLanguages[i] == language) return i;
  }
  return 0;
}

using Texts = std::array<std::string_view, 4>;  // en, ja, zh-Hans, zh-Hant

// The game names as each language's rulebooks have them (issue 36's list; ../shared/seeds).
const std::map<std::string_view, Texts>& catalog() {
  static const std::map<std::string_view, Texts> k{
      {"game.medici", {"Medici", "メディチ", "美第奇", "麥迪奇"}},
      {"game.merkator", {"Merkator", "メルカトル", "墨卡托", "墨卡托"}},
      {"game.medina", {"Medina", "メディナ", "麦地那", "麥迪那"}},
      {"game.silkroad", {"Maritime Silk Road", "海のシルクロード", "海上丝绸之路", "海上絲綢之路"}},
      {"hello", {"Hello {name},", "{name}さん、こんにちは。", "{name}，你好！", "{name}，你好！"}},
      {"confirm.subject",
       {"Confirm your e-mail address for Emporium", "Emporiumのメールアドレスを確認してください",
        "请确认你在 Emporium 的电子邮件地址", "請確認你在 Emporium 的電子郵件地址"}},
      {"confirm.body",
       {"Someone, most likely you, asked Emporium to send mail about your games to this address. Open the link "
        "below to confirm it; it works for 24 hours.",
        "このアドレスにEmporiumのゲームのお知らせを送るよう依頼がありました。24時間以内に下のリンクを開いて確認してください。",
        "有人（多半是你）请 Emporium 把对局的通知发到这个地址。请在 24 小时内打开下面的链接确认。",
        "有人（多半是你）請 Emporium 把對局的通知寄到這個地址。請在 24 小時內打開下面的連結確認。"}},
      {"confirm.button", {"Confirm this address", "このアドレスを確認する", "确认这个地址", "確認這個地址"}},
      {"confirm.ignore",
       {"If it was not you, ignore this mail: nothing more will be sent.",
        "お心当たりがない場合は、このメールを無視してください。これ以上メールは届きません。",
        "如果不是你，请忽略这封邮件：不会再有邮件发来。", "如果不是你，請忽略這封郵件：不會再有郵件寄來。"}},
      {"turn.subject", {"Your turn in {game}", "{game}：あなたの番です", "{game}：轮到你了", "{game}：輪到你了"}},
      {"turn.body",
       {"It is your turn in {game} with {others}.", "{others}との{game}で、あなたの番です。",
        "你和{others}的{game}对局轮到你了。", "你和{others}的{game}對局輪到你了。"}},
      {"turn.clock",
       {"Your clock shows {time} left.", "持ち時間は残り{time}です。", "你的计时器还剩{time}。", "你的計時器還剩{time}。"}},
      {"turn.once",
       {"This is the only mail about this game until you move.",
        "あなたが手を指すまで、このゲームについてのメールはこれだけです。",
        "在你行动之前，这局游戏只会发这一封邮件。", "在你行動之前，這局遊戲只會寄這一封郵件。"}},
      {"turn.button", {"Play your turn", "手番をプレイする", "去走这一步", "去走這一步"}},
      {"invite.subject",
       {"{from} invited you to {game}", "{from}さんから{game}への招待", "{from}邀请你玩{game}", "{from}邀請你玩{game}"}},
      {"invite.body",
       {"{from} invited you to a game of {game} for {players} players.",
        "{from}さんが{players}人用の{game}に招待しています。", "{from}邀请你加入一局{players}人的{game}。",
        "{from}邀請你加入一局{players}人的{game}。"}},
      {"invite.button", {"Join the table", "テーブルに参加する", "加入牌桌", "加入牌桌"}},
      {"low.subject",
       {"Your clock is running low in {game}", "{game}：持ち時間が残りわずかです", "{game}：你的时间快用完了",
        "{game}：你的時間快用完了"}},
      {"low.body",
       {"Your turn in {game} with {others} is still waiting, and your clock shows {time} left. When it runs out, a "
        "bot decides for you.",
        "{others}との{game}で、あなたの番が続いています。持ち時間は残り{time}です。時間切れになるとボットが代わりに指します。",
        "你和{others}的{game}对局仍在等你行动，计时器还剩{time}。时间用完后，将由机器人替你决定。",
        "你和{others}的{game}對局仍在等你行動，計時器還剩{time}。時間用完後，將由機器人替你決定。"}},
      {"digest.subject",
       {"{n} games are waiting for you", "{n}件のゲームがあなたの番を待っています", "有{n}局游戏在等你", "有{n}局遊戲在等你"}},
      {"digest.subject.one",
       {"A game is waiting for you", "1件のゲームがあなたの番を待っています", "有一局游戏在等你", "有一局遊戲在等你"}},
      {"digest.body",
       {"Your move is awaited in these games:", "次のゲームであなたの手番です：", "以下对局正在等你行动：",
        "以下對局正在等你行動："}},
      {"digest.item",
       {"{game} with {others}, for {time}", "{others}との{game}（{time}前から）", "和{others}的{game}（已等{time}）",
        "和{others}的{game}（已等{time}）"}},
      {"over.subject", {"{game} is over", "{game}が終わりました", "{game}结束了", "{game}結束了"}},
      {"over.body",
       {"Your game of {game} is over. You placed {rank} of {players}.",
        "{game}が終わりました。{players}人中{rank}位でした。",
        "你的{game}对局结束了。你在{players}人中获得第{rank}名。",
        "你的{game}對局結束了。你在{players}人中獲得第{rank}名。"}},
      {"over.ranking", {"Final ranking:", "最終順位：", "最终排名：", "最終排名："}},
      {"over.button", {"Watch the replay", "リプレイを見る", "观看回放", "觀看重播"}},
      {"footer.why",
       {"You get this mail because you turned on “{what}” for {address} in your Emporium account.",
        "Emporiumのアカウントで{address}宛ての「{what}」をオンにしているため、このメールが届きました。",
        "你收到这封邮件，是因为你在 Emporium 账户中为 {address} 开启了“{what}”。",
        "你收到這封郵件，是因為你在 Emporium 帳戶中為 {address} 開啟了「{what}」。"}},
      {"footer.unsubscribe",
       {"Stop these mails with one click:", "ワンクリックでこのお知らせを停止：", "一键停止这类邮件：", "一鍵停止這類郵件："}},
      {"footer.settings", {"All mail settings:", "メールの設定：", "所有邮件设置：", "所有郵件設定："}},
      {"kind.your_turn", {"Your turn", "あなたの番", "轮到你", "輪到你"}},
      {"kind.game_over", {"A game of mine finished", "ゲームの終了", "对局结束", "對局結束"}},
      {"kind.invited", {"A friend invited me", "フレンドからの招待", "好友邀请", "好友邀請"}},
      {"kind.low_clock", {"My clock is running low", "持ち時間の残りわずか", "计时快用完", "計時快用完"}},
      {"kind.digest", {"Daily digest", "毎日のまとめ", "每日摘要", "每日摘要"}},
      {"kind.all", {"All mail", "すべてのメール", "所有邮件", "所有郵件"}},
      {"page.confirm_ask.title", {"Confirm your address", "アドレスの確認", "确认地址", "確認地址"}},
      {"page.confirm_ask",
       {"Send mail about your Emporium games to {address}?", "Emporiumのゲームのお知らせを{address}に送りますか？",
        "把 Emporium 对局的通知发到 {address} 吗？", "把 Emporium 對局的通知寄到 {address} 嗎？"}},
      {"page.confirm_ask.button", {"Confirm", "確認する", "确认", "確認"}},
      {"page.confirm_done.title", {"Address confirmed", "確認しました", "地址已确认", "地址已確認"}},
      {"page.confirm_done",
       {"Confirmed: mail about your games goes to {address}.", "確認しました。ゲームのお知らせは{address}に届きます。",
        "已确认：对局的通知将发到 {address}。", "已確認：對局的通知將寄到 {address}。"}},
      {"page.unsubscribe_ask.title", {"Unsubscribe", "配信停止", "退订", "取消訂閱"}},
      {"page.unsubscribe_ask",
       {"Stop “{what}” mails to {address}?", "{address}への「{what}」のメールを停止しますか？",
        "停止向 {address} 发送“{what}”邮件吗？", "停止寄送「{what}」郵件到 {address} 嗎？"}},
      {"page.unsubscribe_ask.button", {"Stop them", "停止する", "停止", "停止"}},
      {"page.unsubscribe_done.title", {"Unsubscribed", "配信を停止しました", "已退订", "已取消訂閱"}},
      {"page.unsubscribe_done",
       {"Done: no more “{what}” mails to {address}. You can turn them on again on your account page.",
        "{address}への「{what}」のメールを停止しました。アカウントページでいつでも再開できます。",
        "好了：不会再向 {address} 发送“{what}”邮件。你可以在账户页面重新开启。",
        "好了：不會再寄「{what}」郵件到 {address}。你可以在帳戶頁面重新開啟。"}},
      {"page.bad_link.title", {"Link not valid", "無効なリンク", "链接无效", "連結無效"}},
      {"page.bad_link",
       {"This link is not valid: it was changed, or it is not from this server. Nothing was changed.",
        "このリンクは無効です（変更されたか、このサーバーのものではありません）。何も変更されていません。",
        "这个链接无效：它被改动过，或者不是这个服务器的。什么也没有改变。",
        "這個連結無效：它被改動過，或者不是這個伺服器的。什麼也沒有改變。"}},
      {"page.expired_link.title", {"Link expired", "リンクの期限切れ", "链接已过期", "連結已過期"}},
      {"page.expired_link",
       {"This link has expired, or the address was changed since. Enter your address again on your account page "
        "to get a new one. Nothing was changed.",
        "このリンクは期限切れか、その後アドレスが変更されました。アカウントページでアドレスを入力し直すと新しいリンクが届きます。何も変更されていません。",
        "这个链接已过期，或之后地址已更改。请在账户页面重新输入地址以获取新链接。什么也没有改变。",
        "這個連結已過期，或之後地址已更改。請在帳戶頁面重新輸入地址以取得新連結。什麼也沒有改變。"}},
      {"page.account", {"Your account", "アカウント", "我的账户", "我的帳戶"}},
      {"and", {" and ", "、", "和", "和"}},
      {"list", {", ", "、", "、", "、"}},
      {"day", {"{n} day", "{n}日", "{n}天", "{n}天"}},
      {"days", {"{n} days", "{n}日", "{n}天", "{n}天"}},
      {"hour", {"{n} hour", "{n}時間", "{n}小时", "{n}小時"}},
      {"hours", {"{n} hours", "{n}時間", "{n}小时", "{n}小時"}},
      {"minute", {"{n} minute", "{n}分", "{n}分钟", "{n}分鐘"}},
      {"minutes", {"{n} minutes", "{n}分", "{n}分钟", "{n}分鐘"}},
      {"unit.gap", {" ", "", "", ""}},
  };
  return k;
}

std::string text(const std::string& language, std::string_view key) {
  const auto it = catalog().find(key);
  if (it == catalog().end()) throw std::logic_error("mail text without a string: " + std::string(key));
  return std::string(it->second[index_of(language)]);
}

// `text` with each {name} replaced.
std::string fill(std::string text, const std::map<std::string, std::string>& values) {
  for (const auto& [name, value] : values) {
    const std::string mark = "{" + name + "}";
    for (auto at = text.find(mark); at != std::string::npos; at = text.find(mark, at + value.size())) {
      text.replace(at, mark.size(), value);
    }
  }
  return text;
}

std::string game_name(const std::string& language, const std::string& game) {
  return catalog().contains("game." + game) ? text(language, "game." + game) : game;
}

// "Ann, Bo and Cy"; "Ann、Bo、Cy".
std::string names_list(const std::string& language, const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += text(language, i + 1 == names.size() ? "and" : "list");
    out += names[i];
  }
  return out;
}

// A mail's two bodies, made in step: paragraphs, then a button (a link), then more paragraphs, then the footer.
class Body {
 public:
  explicit Body(std::string language) : language_(std::move(language)) {}
  void paragraph(const std::string& p) {
    text_ += p + "\n\n";
    html_ += "<p>" + html_escape(p) + "</p>\n";
  }
  void lines(const std::string& heading, const std::vector<std::string>& items) {
    text_ += heading + "\n";
    html_ += "<p>" + html_escape(heading) + "</p>\n<ul style=\"list-style:none;padding-left:1em\">\n";
    for (const auto& item : items) {
      text_ += "  " + item + "\n";
      html_ += "<li>" + html_escape(item) + "</li>\n";
    }
    text_ += "\n";
    html_ += "</ul>\n";
  }
  void links(const std::string& heading, const std::vector<std::pair<std::string, std::string>>& items) {
    text_ += heading + "\n";
    html_ += "<p>" + html_escape(heading) + "</p>\n<ul>\n";
    for (const auto& [label, link] : items) {
      text_ += "- " + label + "\n  " + link + "\n";
      html_ += "<li><a href=\"" + html_escape(link) + "\">" + html_escape(label) + "</a></li>\n";
    }
    text_ += "\n";
    html_ += "</ul>\n";
  }
  void button(const std::string& label, const std::string& link) {
    text_ += label + ":\n" + link + "\n\n";
    html_ += "<p><a href=\"" + html_escape(link) +
             "\" style=\"display:inline-block;padding:0.6em 1.2em;background:#7a4b1e;color:#fff;"
             "text-decoration:none;border-radius:4px\">" +
             html_escape(label) + "</a></p>\n";
  }
  void footer(const MailFooter& f) {
    const std::string why = fill(text(language_, "footer.why"),
                                 {{"what", text(language_, "kind." + f.kind)}, {"address", f.address}});
    text_ += "-- \n" + why + "\n" + text(language_, "footer.unsubscribe") + " " + f.unsubscribe + "\n" +
             text(language_, "footer.settings") + " " + f.settings + "\n";
    html_ += "<hr><p style=\"font-size:small;color:#555\">" + html_escape(why) + "<br><a href=\"" +
             html_escape(f.unsubscribe) + "\">" + html_escape(text(language_, "footer.unsubscribe")) +
             "</a> · <a href=\"" + html_escape(f.settings) + "\">" + html_escape(text(language_, "footer.settings")) +
             "</a></p>\n";
  }
  RenderedMail done(std::string subject) const {
    return {std::move(subject), text_,
            "<!doctype html>\n<html lang=\"" + language_ +
                "\"><head><meta charset=\"utf-8\"></head>\n<body style=\"font-family:sans-serif;line-height:1.4\">\n" +
                html_ + "</body></html>\n"};
  }

 private:
  std::string language_, text_, html_;
};

}  // namespace

std::string mail_language(std::string_view requested) {
  for (const auto l : kLanguages) {
    if (l == requested) return std::string(l);
  }
  return "en";
}

std::string duration_words(const std::string& language, long long seconds) {
  // Rounded up, and never "0 minutes": a clock about to run out still has a moment.
  const long long minutes = std::max(1LL, (seconds + 59) / 60);
  const long long days = minutes / (24 * 60), hours = minutes / 60 % 24, mins = minutes % 60;
  auto unit = [&](long long n, const char* one, const char* many) {
    return fill(text(language, n == 1 ? one : many), {{"n", std::to_string(n)}});
  };
  const std::string gap = text(language, "unit.gap");
  if (days > 0) return unit(days, "day", "days") + (hours ? gap + unit(hours, "hour", "hours") : "");
  if (hours > 0) return unit(hours, "hour", "hours") + (mins ? gap + unit(mins, "minute", "minutes") : "");
  return unit(mins, "minute", "minutes");
}

std::string link_page(const std::string& language, LinkPage page, const LinkPageValues& v) {
  static constexpr std::array<std::string_view, 6> kNames{"confirm_ask",      "confirm_done", "unsubscribe_ask",
                                                          "unsubscribe_done", "bad_link",     "expired_link"};
  const std::string name(kNames[static_cast<std::size_t>(page)]);
  const std::string what = v.kind.empty() ? std::string() : text(language, "kind." + v.kind);
  const std::string said = fill(text(language, "page." + name), {{"address", v.address}, {"what", what}});
  std::string action;
  if (page == LinkPage::confirm_ask || page == LinkPage::unsubscribe_ask) {
    // A form, not a change on GET: mail scanners that follow links must not confirm or unsubscribe anything.
    action = "<form method=\"post\" action=\"" + html_escape(v.action) + "\"><button type=\"submit\">" +
             html_escape(text(language, "page." + name + ".button")) + "</button></form>\n";
  }
  return "<!doctype html>\n<html lang=\"" + language + "\"><head><meta charset=\"utf-8\">"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
         // The site's icon, inline as the client has it: a browser asks for /favicon.ico otherwise.
         "<link rel=\"icon\" href=\"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E"
         "%3Crect width='16' height='16' rx='3' fill='%231f3a5f'/%3E%3Crect x='4' y='4' width='8' height='8' rx='1' "
         "fill='%23e0b43a'/%3E%3C/svg%3E\"><title>" +
         html_escape(text(language, "page." + name + ".title")) + " · Emporium</title></head>\n"
         "<body style=\"font-family:sans-serif;max-width:36em;margin:2em auto;padding:0 1em;line-height:1.4\">\n<h1>" +
         html_escape(text(language, "page." + name + ".title")) + "</h1>\n<p>" + html_escape(said) + "</p>\n" + action +
         "<p><a href=\"/account\">" + html_escape(text(language, "page.account")) + "</a></p>\n</body></html>\n";
}

RenderedMail confirmation_mail(const std::string& language, const std::string& name, const std::string& link) {
  Body body(language);
  body.paragraph(fill(text(language, "hello"), {{"name", name}}));
  body.paragraph(text(language, "confirm.body"));
  body.button(text(language, "confirm.button"), link);
  body.paragraph(text(language, "confirm.ignore"));
  return body.done(text(language, "confirm.subject"));
}

RenderedMail your_turn_mail(const std::string& language, const TurnMail& mail, const MailFooter& footer) {
  const std::string game = game_name(language, mail.game);
  Body body(language);
  body.paragraph(fill(text(language, "hello"), {{"name", mail.name}}));
  body.paragraph(fill(text(language, "turn.body"), {{"game", game}, {"others", names_list(language, mail.others)}}));
  if (mail.clock_left_s) {
    body.paragraph(fill(text(language, "turn.clock"), {{"time", duration_words(language, *mail.clock_left_s)}}));
  }
  body.button(text(language, "turn.button"), mail.link);
  body.paragraph(text(language, "turn.once"));
  body.footer(footer);
  return body.done(fill(text(language, "turn.subject"), {{"game", game}}));
}

RenderedMail invitation_mail(const std::string& language, const InvitationMail& mail, const MailFooter& footer) {
  const std::string game = game_name(language, mail.game);
  Body body(language);
  body.paragraph(fill(text(language, "hello"), {{"name", mail.name}}));
  body.paragraph(fill(text(language, "invite.body"),
                      {{"from", mail.from}, {"game", game}, {"players", std::to_string(mail.players)}}));
  body.button(text(language, "invite.button"), mail.link);
  body.footer(footer);
  return body.done(fill(text(language, "invite.subject"), {{"from", mail.from}, {"game", game}}));
}

RenderedMail low_clock_mail(const std::string& language, const TurnMail& mail, const MailFooter& footer) {
  const std::string game = game_name(language, mail.game);
  Body body(language);
  body.paragraph(fill(text(language, "hello"), {{"name", mail.name}}));
  body.paragraph(fill(text(language, "low.body"), {{"game", game},
                                                   {"others", names_list(language, mail.others)},
                                                   {"time", duration_words(language, mail.clock_left_s.value_or(0))}}));
  body.button(text(language, "turn.button"), mail.link);
  body.footer(footer);
  return body.done(fill(text(language, "low.subject"), {{"game", game}}));
}

RenderedMail digest_mail(const std::string& language, const std::string& name, const std::vector<DigestItem>& items,
                         const MailFooter& footer) {
  Body body(language);
  body.paragraph(fill(text(language, "hello"), {{"name", name}}));
  std::vector<std::pair<std::string, std::string>> links;
  for (const auto& item : items) {
    links.push_back({fill(text(language, "digest.item"), {{"game", game_name(language, item.game)},
                                                          {"others", names_list(language, item.others)},
                                                          {"time", duration_words(language, item.waiting_s)}}),
                     item.link});
  }
  body.links(text(language, "digest.body"), links);
  body.footer(footer);
  return body.done(items.size() == 1 ? text(language, "digest.subject.one")
                                     : fill(text(language, "digest.subject"), {{"n", std::to_string(items.size())}}));
}

RenderedMail game_over_mail(const std::string& language, const GameOverMail& mail, const MailFooter& footer) {
  const std::string game = game_name(language, mail.game);
  Body body(language);
  body.paragraph(fill(text(language, "hello"), {{"name", mail.name}}));
  body.paragraph(fill(text(language, "over.body"), {{"game", game},
                                                    {"rank", std::to_string(mail.rank)},
                                                    {"players", std::to_string(mail.ranking.size())}}));
  std::vector<std::string> places;
  for (const auto& p : mail.ranking) places.push_back(std::to_string(p.rank) + ". " + p.name);
  body.lines(text(language, "over.ranking"), places);
  body.button(text(language, "over.button"), mail.link);
  body.footer(footer);
  return body.done(fill(text(language, "over.subject"), {{"game", game}}));
}

}  // namespace emporium::server
