// A table's chat (docs/friends.md "Chat"): the lines it keeps, who reads each, mutes, the creator's switch for
// spectators, and reports.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "common/wall_clock.hpp"
#include "tables/friends.hpp"
#include "tables/room.hpp"

namespace emporium::server {

namespace perr = protocol::errc;

bool Room::reads(const MemberPtr& m, const KeptLine& kept) const {
  const auto& line = kept.line;
  if (line.channel == "spectators" && seats_.of(m.get()) >= 0 && !reading_spectators_.count(m.get())) return false;
  if (const auto muted = muted_.find(m.get()); muted != muted_.end() && muted->second.count(line.from)) return false;
  if (!kept.account.empty()) {
    if (const auto relations = m->relations(); relations && relations->blocked.count(kept.account)) return false;
  }
  return true;
}

void Room::send_chat_history(const MemberPtr& m) const {
  std::vector<protocol::ChatLine> lines;
  for (const auto& kept : chat_) {
    if (reads(m, kept)) lines.push_back(kept.line);
  }
  if (!lines.empty()) reply(m, protocol::render_chat_history(id_, lines));
}

void Room::forget_chat_settings(const Member* member) {
  muted_.erase(member);
  reading_spectators_.erase(member);
}

void Room::chat(MemberPtr s, std::string name, std::string text, Json re) {
  on_strand([self = shared_from_this(), s = std::move(s), name = std::move(name), text = std::move(text),
             re = std::move(re)] {
    auto& r = *self;
    if (r.refused_while_reloading(s, re)) return;
    const int seat = r.seats_.of(s.get());
    if (seat < 0 && !r.is_spectator(s.get())) {
      return r.reply(s, protocol::render_error(re, perr::not_seated, "join or watch the table to chat"));
    }
    if (seat < 0 && !r.spectators_may_chat_) {
      return r.reply(s, protocol::render_error(re, perr::spectators_muted,
                                               "the table's creator has turned spectators' chat off"));
    }
    const long long now = unix_now();
    if (const auto relations = s->relations(); relations && relations->chat_muted_until > now) {
      return r.reply(s, protocol::render_error(re, perr::chat_muted,
                                               "a moderator has muted your chat for " +
                                                   std::to_string((relations->chat_muted_until - now + 59) / 60) +
                                                   " more minutes"));
    }
    KeptLine kept{{++r.chat_written_, seat >= 0 ? r.seats_[seat].name : name, seat >= 0 ? Json(seat) : Json(nullptr),
                   seat >= 0 ? "players" : "spectators", text, now},
                  s->account() ? s->account()->account : std::string()};
    const auto frame = std::make_shared<const std::string>(protocol::render_chat(r.id_, kept.line));
    r.each_member([&](const MemberPtr& m) {
      if (r.reads(m, kept)) m->send(frame);
    });
    r.chat_.push_back(std::move(kept));
    if (r.chat_.size() > kChatKept) r.chat_.pop_front();
    r.reply(s, protocol::render_ack(re, r.game_state_ ? r.game_state_->version() : 0));
    r.keep_for_account(s, text);
  });
}

void Room::keep_for_account(const MemberPtr& s, const std::string& text) {
  const auto& account = s->account();
  if (!account || !context_.people) return;
  // The account's export holds the chat lines it wrote; kept on the store's thread, after the line was sent.
  context_.store_jobs->post([people = context_.people, line = ChatRow{account->account, id_, text, unix_now()}] {
    try {
      people->record_chat(line);
    } catch (const StoreError& e) {
      spdlog::warn("a chat line could not be kept for its account's export: {}", e.what());
    }
  });
}

void Room::mute(MemberPtr s, std::string name, bool on, Json re) {
  on_strand([self = shared_from_this(), s = std::move(s), name = std::move(name), on, re = std::move(re)] {
    auto& r = *self;
    if (r.seats_.of(s.get()) < 0 && !r.is_spectator(s.get())) {
      return r.reply(s, protocol::render_error(re, perr::not_seated, "join or watch the table first"));
    }
    if (on) {
      r.muted_[s.get()].insert(name);
    } else if (auto it = r.muted_.find(s.get()); it != r.muted_.end()) {
      it->second.erase(name);
    }
    r.reply(s, protocol::render_ack(re, r.game_state_ ? r.game_state_->version() : 0));
  });
}

void Room::chat_settings(MemberPtr s, protocol::ChatSettings settings, Json re) {
  on_strand([self = shared_from_this(), s = std::move(s), settings = std::move(settings), re = std::move(re)] {
    auto& r = *self;
    const int seat = r.seats_.of(s.get());
    if (seat < 0) return r.reply(s, protocol::render_error(re, perr::not_seated, "only the players choose this"));
    if (settings.spectators_may_chat && seat != r.creator_seat_) {
      return r.reply(s, protocol::render_error(re, perr::not_creator, "only the table's creator may do this"));
    }
    if (settings.see_spectators) {
      if (*settings.see_spectators) {
        r.reading_spectators_.insert(s.get());
      } else {
        r.reading_spectators_.erase(s.get());
      }
    }
    r.reply(s, protocol::render_ack(re, r.game_state_ ? r.game_state_->version() : 0));
    if (settings.see_spectators.value_or(false)) r.send_chat_history(s);  // the spectators' lines kept so far
    if (settings.spectators_may_chat && *settings.spectators_may_chat != r.spectators_may_chat_) {
      r.spectators_may_chat_ = *settings.spectators_may_chat;
      r.table_changed();
    }
  });
}

void Room::report(MemberPtr s, protocol::Report request, Json re) {
  on_strand([self = shared_from_this(), s = std::move(s), request = std::move(request), re = std::move(re)] {
    auto& r = *self;
    const int reporter_seat = r.seats_.of(s.get());
    if (reporter_seat < 0 && !r.is_spectator(s.get())) {
      return r.reply(s, protocol::render_error(re, perr::not_seated, "join or watch the table to report someone there"));
    }
    // Who: a seated person of that name, or a chat line's writer (a spectator's too).
    std::string account;
    for (const auto& st : r.seats_) {
      if (st.name == request.name && !st.account.empty()) account = st.account;
    }
    const KeptLine* reported_line = nullptr;
    if (request.line) {
      const auto it = std::find_if(r.chat_.begin(), r.chat_.end(), [&](const KeptLine& k) { return k.line.id == *request.line; });
      if (it == r.chat_.end() || !r.reads(s, *it)) {
        return r.reply(s, protocol::render_error(re, perr::no_such_line, "no such chat line at this table"));
      }
      if (it->line.from != request.name) {
        return r.reply(s, protocol::render_error(re, perr::bad_message, "that line was not written by " + request.name));
      }
      reported_line = &*it;
      account = it->account;
    }
    for (const auto& k : r.chat_) {
      if (account.empty() && k.line.from == request.name) account = k.account;
    }
    if (account.empty()) {
      return r.reply(s, protocol::render_error(re, perr::no_such_player,
                                               "nobody signed in called " + request.name +
                                                   " is at this table or wrote here: you may mute them"));
    }
    if (account == s->account()->account) return r.reply(s, protocol::render_error(re, perr::self, "that is you"));
    // The context: what the reporter could see — the table, the lines around (before the reported one, or the
    // newest) and the public view of the game now. Nothing hidden from spectators.
    Json chat = Json::array();
    const auto last = reported_line ? std::find_if(r.chat_.begin(), r.chat_.end(), [&](const KeptLine& k) {
                                        return &k == reported_line;
                                      }) + 1
                                    : r.chat_.end();
    constexpr std::ptrdiff_t kContextLines = 20;
    for (auto it = last - std::min(kContextLines, last - r.chat_.begin()); it != last; ++it) {
      if (r.reads(s, *it)) chat.push_back(protocol::chat_line_json(it->line));
    }
    Json context{{"table", protocol::table_json(r.info())},
                 {"version", r.game_state_ ? r.game_state_->version() : 0},
                 {"view", r.game_state_ ? r.game_state_->view(r.viewer_for(-1)) : Json(nullptr)},
                 {"chat", std::move(chat)},
                 {"line", reported_line ? protocol::chat_line_json(reported_line->line) : Json(nullptr)}};
    r.context_.friends->report(s, ReportRow{{}, {}, account, r.id_, request.reason, request.note, context.dump()}, re);
  });
}

}  // namespace emporium::server
