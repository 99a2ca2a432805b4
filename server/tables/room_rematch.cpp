#include "tables/room.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "common/secrets.hpp"
#include "common/wall_clock.hpp"
#include "store/store.hpp"
#include "tables/my_games.hpp"
#include "tables/table_directory.hpp"

namespace emporium::server {

namespace perr = protocol::errc;

StoredTable Room::rematch_table(int offerer, const std::string& offerer_token,
                                const std::string& offerer_account) const {
  // Everything the table was set up with carries over; the seed (so the start player), its salt and the invite are new.
  StoredTable next = stored();
  next.id = new_table_id();
  next.seed = new_game_seed();
  next.salt = new_salt();
  next.invite = is_private_ ? new_invite_code() : "";
  next.state = TableState::waiting;
  next.creator_seat = offerer;
  next.rematch = nullptr;
  next.rematch_of = id_;
  next.result = nullptr;
  next.seats.clear();
  for (const auto& seat : seats_.stored()) {
    if (seat.seat == offerer) {
      next.seats.push_back({.seat = seat.seat, .name = seat.name, .token_hash = hash_token(offerer_token),
                            .account = offerer_account});
    } else if (!seat.bot.empty() && seat.stand_in == StandIn::none) {  // the same bot again
      next.seats.push_back(
          {.seat = seat.seat, .name = seat.name, .token_hash = hash_token(new_seat_token()), .bot = seat.bot});
    } else if (seat.resumable()) {  // kept for its person
      next.seats.push_back({.seat = seat.seat, .name = seat.name, .reserved_for = seat.token_hash});
    }
    // A seat its person left during the game stays empty.
  }
  return next;
}

void Room::rematch(MemberPtr s, Json re, std::function<void()> answered) {
  on_strand([self = shared_from_this(), s = std::move(s), re = std::move(re), answered = std::move(answered)]() mutable {
    auto& r = *self;
    if (r.refused_while_reloading(s, re)) return answered();
    const int seat = r.seats_.of(s.get());
    if (seat < 0) {
      r.reply(s, protocol::render_error(re, perr::not_seated, "only a player of this table can ask for a rematch"));
      return answered();
    }
    if (r.state_ != TableState::finished) {
      r.reply(s, protocol::render_error(re, perr::not_finished, "the game at this table has not ended"));
      return answered();
    }
    if (r.refused_as_guest(s, re)) return answered();  // a rematch of a rated table is rated
    if (r.rematch_) return r.join_rematch(std::move(s), seat, std::move(re), std::move(answered));
    r.offer_rematch(std::move(s), seat, std::move(re), std::move(answered));
  });
}

// On the strand, so that two first calls cannot both create a rematch on this node; with several, the store's
// compare-and-set lets only one node's offer in (create_rematch's `replaces`), and the others join that one.
void Room::offer_rematch(MemberPtr s, int seat, Json re, std::function<void()> answered) {
  const auto token = new_seat_token();
  auto table = rematch_table(seat, token, s->account() ? s->account()->account : std::string());
  const protocol::RematchOffer offer{table.id, seat, is_private_ ? std::optional<std::string>(table.invite) : std::nullopt};
  // Against bots alone there is nobody to wait for: the rematch starts as soon as its offerer sits down.
  const bool only_bots_besides = static_cast<int>(table.seats.size()) == table.players &&
                                 std::all_of(table.seats.begin(), table.seats.end(),
                                             [seat](const StoredSeat& st) { return st.seat == seat || !st.bot.empty(); });
  // Made on the store's thread, this room holding back what it is asked meanwhile.
  auto made = std::make_shared<TableDirectory::RematchMade>();
  store_then(
      [directory = context_.directory, made, table = std::move(table), offer, replaces = rematch_]() mutable {
        *made = directory->create_rematch(std::move(table), offer, replaces);
      },
      [this, s, seat, re, answered, offer, token, made, only_bots_besides](const StoreError* error) mutable {
        if (made->instead) {
          rematch_ = std::move(made->instead);  // offered on another node meanwhile: the caller joins that one
          updated_ = unix_now();
          table_changed();
          return join_rematch(std::move(s), seat, std::move(re), std::move(answered));
        }
        if (error || !made->table) {
          reply(s, error ? refusal(re, *error, "the rematch could not be saved")
                         : protocol::render_error(re, perr::internal_error, "the rematch could not be saved"));
          return answered();
        }
        rematch_ = offer;
        updated_ = unix_now();
        made->table->resume(s, hash_token(token), token, re);  // the offerer takes the seat made for them: the reply is `seated`
        if (only_bots_besides) made->table->start(s, nullptr);
        made->table->after_requests(std::move(answered));
        table_changed();  // the offer, to everyone at this table
      });
}

// The caller's kept seat at the offered rematch, wherever that table is: here, or (several nodes) on another node,
// which hands it over. If it closed before its start (everyone left it), a new rematch is offered.
void Room::join_rematch(MemberPtr s, int seat, Json re, std::function<void()> answered) {
  const std::string offered = rematch_->table;
  context_.directory->find_id(offered, [self = shared_from_this(), s = std::move(s), seat, re = std::move(re),
                                    answered = std::move(answered), offered](TableDirectory::Found found) mutable {
    self->on_strand([self, s = std::move(s), seat, re = std::move(re), answered = std::move(answered), offered,
                     found = std::move(found)]() mutable {
      auto& r = *self;
      if (found.unavailable) {
        r.reply(s, r.refusal(re, StoreError("", StoreError::Kind::unavailable), ""));
        return answered();
      }
      if (const auto& next = found.table) {
        next->claim_reserved(s, seat, r.seats_[seat].token_hash, re);
        return next->after_requests(std::move(answered));
      }
      if (r.rematch_ && r.rematch_->table != offered) {  // another call offered a new one meanwhile
        return r.join_rematch(std::move(s), seat, std::move(re), std::move(answered));
      }
      // Whether the store still has it (there, but its node did not hand it over in time), or it closed.
      auto exists = std::make_shared<bool>(true);
      r.store_then([store = r.context_.store, offered, exists] { *exists = store->load(offered, false).has_value(); },
                   [&r, s, seat, re, answered, exists](const StoreError* error) mutable {
                     if (error || *exists) {
                       r.reply(s, error && error->unavailable()
                                      ? r.refusal(re, *error, "")
                                      : protocol::render_error(re, perr::internal_error,
                                                               "the rematch cannot be reached now; try again"));
                       return answered();
                     }
                     r.offer_rematch(std::move(s), seat, std::move(re), std::move(answered));
                   });
    });
  });
}

void Room::claim_reserved(MemberPtr s, int seat, std::string claim, Json re, bool limit_checked) {
  on_strand([self = shared_from_this(), s = std::move(s), seat, claim = std::move(claim), re = std::move(re),
             limit_checked]() mutable {
    auto& r = *self;
    if (r.state_ != TableState::waiting) {
      return r.reply(s, protocol::render_error(re, perr::already_started, "the rematch has started"));
    }
    // A seat kept for this person is theirs whoever else may join: only blocks may refuse it.
    if (r.refused_as_guest(s, re) || r.refused_by_blocks(s, re)) return;
    auto& st = r.seats_[seat];  // a rematch has the seats of the table it replays
    // Asked twice: the seat again, with a fresh token (only its hash is kept, so the first cannot be resent).
    const bool again = st.occupied() && st.member.lock() == s;
    if (!again && !same_hash(st.reserved_for, claim)) {
      return r.reply(s, protocol::render_error(re, perr::seat_taken, "your seat at the rematch is no longer kept for you"));
    }
    if (!again && !limit_checked && r.is_correspondence()) {
      // A kept seat counts toward the account's correspondence games once taken: the limit first, then all again.
      return r.within_game_limit(s, re, [self, s, seat, claim, re]() mutable {
        self->claim_reserved(std::move(s), seat, std::move(claim), std::move(re), true);
      });
    }
    const auto before = st;
    const auto token = new_seat_token();
    st.token_hash = hash_token(token);
    st.reserved_for.clear();
    st.member = s;
    st.account = s->account() ? s->account()->account : std::string();
    r.save_seats_then(
        s, re, "the seat could not be saved; try again", [&r, seat, before] { r.seats_[seat] = before; },
        [&r, seat, s, re, token, again, before] {
          if (again) r.context_.directory->unregister_token(before.token_hash);
          r.welcome_seated(seat, s, re, token);
        });
  });
}

void Room::describe(std::string token_hash, std::function<void(std::optional<protocol::MyGame>)> done) {
  on_strand([self = shared_from_this(), token_hash = std::move(token_hash), done = std::move(done)] {
    auto& r = *self;
    // While it reads itself back, whose turn it is in memory may be a move the store does not have: not told.
    const bool known = r.state_ == TableState::playing && !r.reloading_;
    std::optional<protocol::MyGame::Clock> clock;
    if (known && r.clock_ && r.clock_->running_seat()) {
      if (const auto deadline = r.clock_->deadline()) {
        clock = protocol::MyGame::Clock{*r.clock_->running_seat(),
                                        std::chrono::duration_cast<std::chrono::milliseconds>(
                                            *deadline - std::chrono::steady_clock::now()).count()};
      }
    } else if (known && r.clock_ && r.clock_->paused_seat()) {
      clock = protocol::MyGame::Clock{*r.clock_->paused_seat(), r.clock_->paused_left()->count(), true};
    }
    done(describe_seat(r.stored(), token_hash, known ? r.game_state_->to_move() : std::vector<int>{}, clock));
  });
}

}  // namespace emporium::server
