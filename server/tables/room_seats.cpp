#include "tables/room.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "common/secrets.hpp"
#include "common/wall_clock.hpp"
#include "common/worker_pool.hpp"
#include "store/people_store.hpp"
#include "store/store.hpp"
#include "tables/game_ends.hpp"
#include "tables/game_limit.hpp"
#include "tables/table_directory.hpp"

namespace emporium::server {

namespace perr = protocol::errc;

std::optional<long long> Room::away_seconds(int seat) const {
  const auto& st = seats_[static_cast<std::size_t>(seat)];
  if (state_ != TableState::playing || !st.is_person() || st.connected()) return std::nullopt;
  const auto since = st.away_since.value_or(std::chrono::steady_clock::now());
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - since).count();
}

bool Room::is_correspondence() const {
  return server::is_correspondence(clock_config_, context_.correspondence_turn);
}

void Room::within_game_limit(const MemberPtr& s, const Json& re, std::function<void()> then) {
  if (!is_correspondence() || !s->account() || !context_.people) return then();
  context_.store_jobs->post([self = shared_from_this(), s, re, then = std::move(then), account = s->account()->account] {
    auto& r = *self;
    std::string code = perr::too_many_games, message;
    try {
      const auto over = over_game_limit(*r.context_.people, account, r.context_.correspondence_turn);
      if (!over) return then();
      message = *over;
    } catch (const StoreError&) {
      code = perr::store_unavailable;
      message = protocol::kStoreUnavailableMessage;
    }
    r.on_strand([self, s, re, code, message] { self->reply(s, protocol::render_error(re, code, message)); });
  });
}

void Room::join(MemberPtr s, std::string name, std::optional<int> wanted, Json re, bool by_invite) {
  within_game_limit(s, re, [self = shared_from_this(), s, name, wanted, re, by_invite]() mutable {
    self->join_now(std::move(s), std::move(name), wanted, std::move(re), by_invite);
  });
}

void Room::join_now(MemberPtr s, std::string name, std::optional<int> wanted, Json re, bool by_invite) {
  on_strand([self = shared_from_this(), s = std::move(s), name = std::move(name), wanted, re = std::move(re), by_invite] {
    auto& r = *self;
    if (r.state_ != TableState::waiting) {
      return r.reply(s, protocol::render_error(re, perr::already_started, "the game at this table has started"));
    }
    if (r.seats_.of(s.get()) >= 0) {
      return r.reply(s, protocol::render_error(re, perr::already_seated, "you already have a seat at this table"));
    }
    if (r.refused_as_guest(s, re) || r.refused_as_stranger(s, re, by_invite) || r.refused_by_blocks(s, re)) return;
    int chosen = -1;
    if (wanted) {
      if (*wanted < 0 || *wanted >= static_cast<int>(r.seats_.size())) {
        return r.reply(s, protocol::render_error(re, protocol::errc::bad_message,
                                                 "this table has seats 0 to " + std::to_string(r.seats_.size() - 1)));
      }
      if (const auto& st = r.seats_[*wanted]; st.taken()) {
        return r.reply(s, protocol::render_error(re, perr::seat_taken,
                                                 "seat " + std::to_string(*wanted) +
                                                     (st.reserved() ? " is kept for " + st.name : " is taken")));
      }
      chosen = *wanted;
    } else {
      chosen = r.seats_.first_free();
      if (chosen < 0) return r.reply(s, protocol::render_error(re, perr::table_full, "every seat is taken"));
    }
    const bool first = r.seats_.seated() == 0;
    const auto token = new_seat_token();
    const int creator_before = r.creator_seat_;
    r.seats_[chosen] = Seat{.name = r.seats_.unique_name(name), .token_hash = hash_token(token), .member = s,
                            .account = s->account() ? s->account()->account : std::string()};
    if (first) r.creator_seat_ = chosen;
    r.save_seats_then(
        s, re, "the seat could not be saved; try again",
        [&r, chosen, creator_before] {
          r.seats_[chosen] = {};
          r.creator_seat_ = creator_before;
        },
        [&r, chosen, s, re, token] { r.welcome_seated(chosen, s, re, token); });
  });
}

void Room::welcome_seated(int seat, const MemberPtr& s, const Json& re, const std::string& token, bool reclaimed) {
  auto self = shared_from_this();
  context_.directory->register_token(seats_[seat].token_hash, self);
  // A seat named by its token (created, joined, a rematch's, or resumed with the token) may be new to the account;
  // one resumed by the table's id was found among its claims, so there is nothing to write.
  if (!token.empty()) claim_for_account(s, seats_[seat].token_hash);
  // A spectator who sits down stops being a spectator.
  std::erase_if(spectators_, [&](const auto& w) { return w.lock() == s || w.expired(); });
  s->joined(self);
  tell_seated(s, seat);
  const auto invite = is_private_ ? std::optional<std::string>(invite_) : std::nullopt;
  reply(s, protocol::render_seated(re, info(), seat, token, invite, reclaimed, live_clock()));
  send_snapshot(s, nullptr);  // once the game has started
  send_chat_history(s);
  table_changed();
  read_ratings();
}

bool Room::refused_as_stranger(const MemberPtr& s, const Json& re, bool by_invite) const {
  if (!friends_only_ || by_invite || seats_.seated() == 0) return false;  // the creator's own first seat
  const std::string& creator = seats_[creator_seat_].account;
  if (s->account() && !creator.empty()) {
    if (s->account()->account == creator) return false;
    if (const auto relations = s->relations(); relations && relations->friends.count(creator)) return false;
  }
  reply(s, protocol::render_error(re, perr::friends_only,
                                  "this table is for its creator's friends: ask them for an invitation"));
  return true;
}

bool Room::refused_by_blocks(const MemberPtr& s, const Json& re) const {
  if (!s->account() || !context_.friends) return false;
  const auto relations = s->relations();
  if (!relations) {  // not read: the store did not answer (they are read again for the next try)
    context_.friends->reread(s->account()->account);
    reply(s, protocol::render_error(re, perr::store_unavailable, protocol::kStoreUnavailableMessage));
    return true;
  }
  for (const auto& st : seats_) {
    if (st.account.empty()) continue;
    if (relations->blocked.count(st.account)) {
      reply(s, protocol::render_error(re, perr::blocked_player,
                                      "you blocked a player seated at this table: unblock them to join"));
      return true;
    }
    if (relations->blocked_by.count(st.account)) {  // silent: not who, nor why
      reply(s, protocol::render_error(re, perr::cannot_join, "you cannot join this table"));
      return true;
    }
  }
  return false;
}

void Room::tell_seated(const MemberPtr& s, int seat) const {
  if (state_ == TableState::finished) return;
  s->seated(id_, SeatPresence{id_, game_, !is_private_ || (friends_only_ && seat == creator_seat_)});
}

void Room::tell_unseated_all() const {
  for (const auto& st : seats_) {
    if (auto m = st.member.lock()) m->unseated(id_);
  }
}

void Room::invite(MemberPtr s, std::string name, Json re) {
  on_strand([self = shared_from_this(), s = std::move(s), name = std::move(name), re = std::move(re)] {
    auto& r = *self;
    if (r.seats_.of(s.get()) < 0) {
      return r.reply(s, protocol::render_error(re, perr::not_seated, "take a seat at this table to invite someone"));
    }
    if (r.state_ != TableState::waiting) {
      return r.reply(s, protocol::render_error(re, perr::already_started, "the game at this table has started"));
    }
    if (!r.context_.friends) {
      return r.reply(s, protocol::render_error(re, perr::not_signed_in, "this server has no accounts"));
    }
    InvitingTable table{r.id_, r.game_, r.is_private_ ? r.invite_ : std::string(), static_cast<int>(r.seats_.size()), {}};
    for (const auto& st : r.seats_) {
      if (!st.account.empty()) table.seated.push_back(st.account);
    }
    r.context_.friends->invite(s, std::move(table), std::move(name), std::move(re));
  });
}

bool Room::refused_as_guest(const MemberPtr& s, const Json& re) const {
  if (!rated_ || s->account()) return false;
  reply(s, protocol::render_error(re, perr::rated_needs_account,
                                  "this table is rated: sign in to play at it (guests play casual tables)"));
  return true;
}

void Room::read_ratings() {
  if (!rated_ || !context_.people) return;
  ratings_read_ = true;
  std::vector<std::string> accounts;
  for (const auto& st : seats_) {
    if (!st.account.empty()) accounts.push_back(st.account);
  }
  context_.store_jobs->post([self = shared_from_this(), accounts = std::move(accounts),
                             finished = state_ == TableState::finished] {
    std::vector<RatingRow> rows;
    std::vector<RatingUpdateRow> updates;
    try {
      rows = self->context_.people->ratings_of(accounts, self->game_);
      if (finished) updates = self->context_.people->rating_updates_of_table(self->id_);
    } catch (const StoreError& e) {
      spdlog::warn("room {}: its players' ratings could not be read: {}", self->id_, e.what());
      return;
    }
    // After any write on its way: the table shown with the ratings is one the store has.
    self->on_strand([self, rows = std::move(rows), updates = std::move(updates)] {
      auto& r = *self;
      for (auto& st : r.seats_) {
        if (st.account.empty()) continue;
        const auto it = std::find_if(rows.begin(), rows.end(), [&](const RatingRow& row) { return row.account == st.account; });
        st.rating = seat_rating(it == rows.end() ? ratings::initial_rating() : ratings::Rating{it->mu, it->sigma});
      }
      r.rating_changes_.clear();
      for (const auto& u : updates) {
        r.rating_changes_.push_back({u.seat, u.displayed_before, u.displayed_after,
                                     ratings::is_provisional({u.mu_after, u.sigma_after})});
      }
      r.table_changed();
    });
  });
}

void Room::claim_for_account(const MemberPtr& s, const std::string& token_hash) {
  const auto& account = s->account();
  if (!account || !context_.people) return;
  // After the seat is stored (a claim names a stored seat), and never on this strand: the store's thread. A claim
  // that fails leaves the seat a guest's, resumed with its token as before.
  context_.store_jobs->post([people = context_.people, account = account->account, token_hash] {
    try {
      people->claim_seats(account, {token_hash}, unix_now());
    } catch (const StoreError& e) {
      spdlog::warn("a seat could not be claimed for its account: {}", e.what());
    }
  });
}

void Room::leave(MemberPtr s, Json re) {
  on_strand([self = shared_from_this(), s = std::move(s), re = std::move(re)] {
    auto& r = *self;
    if (r.refused_while_reloading(s, re)) return;
    const int seat = r.seats_.of(s.get());
    if (seat >= 0) {
      if (r.state_ == TableState::playing) return r.seat_to_bot(seat, s, re);
      if (r.state_ == TableState::waiting) {
        const auto before = r.seats_[seat];
        const int creator_before = r.creator_seat_;
        r.seats_[seat] = {};
        if (r.seats_.first_person() < 0) {
          // A table that never started is closed when its last person leaves (bots do not keep it); closed
          // before the reply, so whoever hears of it finds it gone.
          r.context_.directory->unregister_token(before.token_hash);
          s->left(r.id_);
          r.close_before_start();
          return r.reply(s, protocol::render_left(re, r.id_));
        }
        if (seat == r.creator_seat_) r.creator_seat_ = r.seats_.first_person();
        return r.save_seats_then(
            s, re, "your seat could not be given up; try again",
            [&r, seat, before, creator_before] {
              r.seats_[seat] = before;
              r.creator_seat_ = creator_before;
            },
            [&r, s, re, before] {
              r.context_.directory->unregister_token(before.token_hash);
              s->left(r.id_);
              r.reply(s, protocol::render_left(re, r.id_));
              r.table_changed();
            });
      } else {
        r.seats_[seat].member.reset();  // finished: just go
      }
    } else if (r.is_spectator(s.get())) {
      std::erase_if(r.spectators_, [&](const auto& w) { return w.lock() == s || w.expired(); });
    } else {
      return r.reply(s, protocol::render_error(re, perr::not_seated, "you are not at this table"));
    }
    s->left(r.id_);
    r.reply(s, protocol::render_left(re, r.id_));
    r.table_changed();
  });
}

void Room::resume(MemberPtr s, std::string token_hash, std::string token, Json re) {
  on_strand([self = shared_from_this(), s = std::move(s), token_hash = std::move(token_hash), token = std::move(token),
             re = std::move(re)] {
    auto& r = *self;
    if (r.refused_while_reloading(s, re)) return;
    const int seat = r.seats_.of_token(token_hash);
    if (seat < 0) return r.reply(s, protocol::render_error(re, perr::bad_token, "that seat token is not valid"));
    auto& st = r.seats_[seat];
    auto previous = st.member.lock();
    if (previous && previous != s) {
      // The newer connection wins; the older one is told and leaves the table.
      previous->send(protocol::render_error(nullptr, perr::replaced, "your seat at table " + r.id_ +
                                                                     " was resumed from another connection"));
      previous->left(r.id_);
    }
    // A bot standing in for this absent player stands down at once (a decision it has pending is dropped
    // when it lands: bot_decided checks that the seat still has a bot).
    if (!st.held_for_person()) {
      st.member = s;
      st.away_since.reset();
      return r.welcome_seated(seat, s, re, token);
    }
    const auto before = st;
    st.bot.reset();
    st.stand_in = StandIn::none;
    r.save_seats_then(
        s, re, "your seat could not be restored; try again", [&r, seat, before] { r.seats_[seat] = before; },
        [&r, seat, s, re, token] {
          if (r.clock_) r.clock_->clear_timeouts(seat);
          r.update_clock();  // their decision, if it is theirs now, starts with the whole turn time
          r.save_clock();
          r.seats_[seat].member = s;
          r.seats_[seat].away_since.reset();
          r.welcome_seated(seat, s, re, token, /*reclaimed=*/true);
        });
  });
}

void Room::seat_to_bot(int seat, const MemberPtr& s, const Json& re, std::optional<std::string> name) {
  // A bot plays the seat for the rest of the game; the seat keeps the person's name (unless given another), and
  // their token stops working (a new one, never handed out, marks the seat taken).
  const auto before = seats_[seat];
  auto& st = seats_[seat];
  if (name) {  // a deleted account's: the seat is no longer played for it
    st.name = std::move(*name);
    st.account.clear();
    st.rating.reset();
  }
  st.bot = engine::bot::Level::normal;
  st.stand_in = StandIn::left;
  st.token_hash = hash_token(new_seat_token());
  st.member.reset();
  st.away_since.reset();
  save_seats_then(
      s, re, "the seat could not be handed to a bot; try again", [this, seat, before] { seats_[seat] = before; },
      [this, s, re, before] {
        context_.directory->unregister_token(before.token_hash);
        update_clock();
        save_clock();
        if (s) {
          s->left(id_);
          reply(s, protocol::render_left(re, id_));
        }
        table_changed();
        run_bot_if_its_turn();
      });
}

void Room::hand_seat_to_bot(std::string token_hash, std::optional<std::string> new_name) {
  on_strand([self = shared_from_this(), token_hash = std::move(token_hash), new_name = std::move(new_name)] {
    auto& r = *self;
    const int seat = r.seats_.of_token(token_hash);
    if (seat < 0 || r.state_ != TableState::playing) return;
    // A connection of the account's that still holds the seat is told it left.
    r.seat_to_bot(seat, r.seats_[seat].member.lock(), nullptr, std::move(new_name));
  });
}

bool Room::creator_before_start(const MemberPtr& s, const Json& re) {
  const int seat = seats_.of(s.get());
  if (seat < 0) {
    reply(s, protocol::render_error(re, perr::not_seated, "you are not seated at this table"));
  } else if (seat != creator_seat_) {
    reply(s, protocol::render_error(re, perr::not_creator, "only the table's creator can seat or remove bots"));
  } else if (state_ != TableState::waiting) {
    reply(s, protocol::render_error(re, perr::already_started, "the game has started"));
  } else {
    return true;
  }
  return false;
}

void Room::add_bot(MemberPtr s, int seat, std::string level, Json re) {
  on_strand([self = shared_from_this(), s = std::move(s), seat, level = std::move(level), re = std::move(re)] {
    auto& r = *self;
    if (!r.creator_before_start(s, re)) return;
    const auto bot_level = engine::bot::level_from_name(level);
    if (!bot_level) {
      return r.reply(s, protocol::render_error(re, perr::bad_message, "unknown bot level '" + level.substr(0, 20) +
                                                                          "' (the levels are easy and normal)"));
    }
    if (seat >= static_cast<int>(r.seats_.size())) {
      return r.reply(s, protocol::render_error(re, perr::bad_message,
                                               "this table has seats 0 to " + std::to_string(r.seats_.size() - 1)));
    }
    if (r.seats_[seat].taken()) {
      return r.reply(s, protocol::render_error(re, perr::seat_taken, "seat " + std::to_string(seat) + " is taken"));
    }
    r.seats_[seat] = Seat{.name = r.seats_.next_bot_name(), .token_hash = hash_token(new_seat_token()), .bot = bot_level};
    r.save_seats_then(
        s, re, "the bot could not be seated; try again", [&r, seat] { r.seats_[seat] = {}; },
        [&r, s, re] {
          r.reply(s, protocol::render_ack(re, 0));
          r.table_changed();
        });
  });
}

void Room::remove_bot(MemberPtr s, int seat, Json re) {
  on_strand([self = shared_from_this(), s = std::move(s), seat, re = std::move(re)] {
    auto& r = *self;
    if (!r.creator_before_start(s, re)) return;
    if (seat >= static_cast<int>(r.seats_.size()) || !r.seats_[seat].bot) {
      return r.reply(s, protocol::render_error(re, perr::bad_message, "seat " + std::to_string(seat) + " has no bot"));
    }
    const auto removed = r.seats_[seat];
    r.seats_[seat] = {};
    r.save_seats_then(
        s, re, "the bot could not be removed; try again", [&r, seat, removed] { r.seats_[seat] = removed; },
        [&r, s, re] {
          r.reply(s, protocol::render_ack(re, 0));
          r.table_changed();
        });
  });
}

namespace {
// "1 minute", "5 minutes", "40 seconds": how long, for a person to read (whole minutes, rounded down, from
// a minute on; `exact` keeps seconds for a duration under ten minutes that is not a whole number of minutes).
std::string how_long(long long seconds, bool exact = false) {
  if (seconds < 60 || (exact && seconds < 600 && seconds % 60 != 0)) {
    return std::to_string(seconds) + (seconds == 1 ? " second" : " seconds");
  }
  const long long minutes = seconds / 60;
  return std::to_string(minutes) + (minutes == 1 ? " minute" : " minutes");
}
}  // namespace

void Room::replace_absent(MemberPtr s, int seat, Json re) {
  on_strand([self = shared_from_this(), s = std::move(s), seat, re = std::move(re)] {
    auto& r = *self;
    if (r.refused_while_reloading(s, re)) return;
    const int own = r.seats_.of(s.get());
    if (own < 0) {
      return r.reply(s, protocol::render_error(re, perr::not_seated, "only a seated player can hand a seat to a bot"));
    }
    if (r.state_ == TableState::waiting) return r.reply(s, protocol::render_error(re, perr::not_started, "the game has not started"));
    if (r.state_ == TableState::finished) return r.reply(s, protocol::render_error(re, engine::errc::game_over, "the game has ended"));
    if (seat >= static_cast<int>(r.seats_.size())) {
      return r.reply(s, protocol::render_error(re, perr::bad_message,
                                               "this table has seats 0 to " + std::to_string(r.seats_.size() - 1)));
    }
    if (seat == own) return r.reply(s, protocol::render_error(re, perr::bad_message, "that is your own seat"));
    auto& st = r.seats_[seat];
    if (!st.taken()) return r.reply(s, protocol::render_error(re, perr::bad_message, "seat " + std::to_string(seat) + " is empty"));
    if (st.bot) {
      return r.reply(s, protocol::render_error(re, perr::bad_message, "a bot already plays seat " + std::to_string(seat)));
    }
    if (r.clock_) {
      return r.reply(s, protocol::render_error(re, perr::bad_message,
                                               "this table has a clock: a seat whose time runs out three times in a "
                                               "row goes to a bot by itself"));
    }
    const auto threshold = static_cast<long long>(r.context_.absent_after.count());
    const auto away = r.away_seconds(seat);
    if (!away) return r.reply(s, protocol::render_error(re, perr::not_absent, st.name + " is connected"));
    if (*away < threshold) {
      return r.reply(s, protocol::render_error(re, perr::not_absent,
                                               st.name + " has been away for " + how_long(*away) +
                                                   "; a bot may take the seat after " + how_long(threshold, true)));
    }
    const auto before = st;
    st.bot = engine::bot::Level::normal;
    st.stand_in = StandIn::absent;  // the token stays theirs: resuming takes the seat back
    r.save_seats_then(
        s, re, "the seat could not be handed to a bot; try again", [&r, seat, before] { r.seats_[seat] = before; },
        [&r, s, re] {
          r.reply(s, protocol::render_ack(re, r.game_state_->version()));
          r.table_changed();
          r.run_bot_if_its_turn();
        });
  });
}

}  // namespace emporium::server
