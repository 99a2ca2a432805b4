#include "tables/room.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include <emporium/engine/registry.hpp>

#include "common/metrics.hpp"
#include "common/wall_clock.hpp"
#include "store/commit_queue.hpp"
#include "store/store.hpp"
#include "tables/game_ends.hpp"

namespace emporium::server {

namespace perr = protocol::errc;

void Room::start(MemberPtr s, Json re) {
  on_strand([self = shared_from_this(), s = std::move(s), re = std::move(re)] {
    auto& r = *self;
    const int seat = r.seats_.of(s.get());
    if (seat < 0) return r.reply(s, protocol::render_error(re, perr::not_seated, "you are not seated at this table"));
    if (seat != r.creator_seat_) {
      return r.reply(s, protocol::render_error(re, perr::not_creator, "only the table's creator can start the game"));
    }
    if (r.state_ != TableState::waiting) return r.reply(s, protocol::render_error(re, perr::already_started, "the game has started"));
    const auto* info = engine::find_game(r.game_);
    const int seated = r.seats_.seated();
    if (seated < info->min_players) {
      return r.reply(s, protocol::render_error(re, perr::not_enough_players,
                                               info->display_name + " needs at least " +
                                                   std::to_string(info->min_players) + " players"));
    }
    // Empty seats are dropped: the players are renumbered in seat order.
    auto players = r.seats_.without_empty(r.creator_seat_);
    auto created = engine::create_game(r.game_, seated, r.options_, r.seed_);
    if (created.error) {
      return r.reply(s, protocol::render_error(re, created.error->code, created.error->message));
    }
    const auto old_seats = r.seats_;
    const int old_creator = r.creator_seat_;
    r.seats_ = std::move(players.seats);
    r.creator_seat_ = players.creator;
    std::optional<Json> clock_state;
    if (r.clock_config_) {
      // The clock starts with the game; it is stored before the game is, so a started timed game has one.
      r.clock_.emplace(*r.clock_config_, seated);
      clock_state = r.clock_->to_stored(std::chrono::steady_clock::now(), unix_ms_now());
    }
    r.game_state_ = std::move(created.state);  // while the table is still waiting, and nobody may ask (storing_)
    r.game_state_->allow_undo(r.undo_);
    r.store_then(
        [store = r.context_.store, id = r.id_, seats = r.seats_.stored(), players = seated, creator = r.creator_seat_,
         epoch = r.epoch_, clock_state] {
          store->save_seats(id, seats, players, creator, epoch);
          if (clock_state) store->save_clock(id, *clock_state, epoch);
          store->set_state(id, TableState::playing, nullptr, epoch);
        },
        [self, s, re, old_seats, old_creator](const StoreError* error) {
          auto& r = *self;
          if (error) {
            if (!error->unavailable()) spdlog::error("room {}: starting: {}", r.id_, error->what());
            r.seats_ = old_seats;
            r.creator_seat_ = old_creator;
            r.clock_.reset();
            r.game_state_.reset();
            return r.reply(s, r.refusal(re, *error, "the game could not be started; try again"));
          }
          r.updated_ = unix_now();
          r.started(s, re);
        });
  });
}

void Room::started(const MemberPtr& s, const Json& re) {
  state_ = TableState::playing;
  update_clock();
  save_clock();
  reply(s, protocol::render_ack(re, 0));
  table_changed();
  for (const auto& st : seats_) {
    if (auto c = st.member.lock()) send_snapshot(c, nullptr);
  }
  for (const auto& w : spectators_) {
    if (auto c = w.lock()) send_snapshot(c, nullptr);
  }
  last_move_ = std::chrono::steady_clock::now();
  run_bot_if_its_turn();
  read_vacations();
}


void Room::act(MemberPtr s, std::uint64_t version, Json action, Json re,
               std::chrono::steady_clock::time_point received) {
  on_strand([self = shared_from_this(), s = std::move(s), version, action = std::move(action), re = std::move(re),
             received] {
    auto& r = *self;
    auto refuse = [&](const std::string& code, const std::string& message) {
      r.context_.metrics->action_rejected(code);
      r.reply(s, protocol::render_error(re, code, message));
    };
    if (r.refused_while_reloading(s, re)) return;
    const int seat = r.seats_.of(s.get());
    if (seat < 0) return refuse(perr::not_seated, "only a seated player can act");
    if (r.state_ == TableState::waiting) return refuse(perr::not_started, "the game has not started");
    if (version != r.game_state_->version()) {
      return refuse(perr::stale_version, "the table is at version " + std::to_string(r.game_state_->version()) +
                                             ", your action was made at version " + std::to_string(version));
    }
    if (auto error = r.play(seat, action, s, re, false, received)) return refuse(error->code, error->message);
  });
}

void Room::preview(MemberPtr s, protocol::Preview preview, Json re) {
  on_strand([self = shared_from_this(), s = std::move(s), preview = std::move(preview), re = std::move(re)] {
    auto& r = *self;
    auto refuse = [&](const std::string& code, const std::string& message) {
      r.reply(s, protocol::render_error(re, code, message));
    };
    if (r.refused_while_reloading(s, re)) return;
    const int seat = r.seats_.of(s.get());
    if (seat < 0) return refuse(perr::not_seated, "only a seated player can preview their steps");
    if (r.state_ == TableState::waiting) return refuse(perr::not_started, "the game has not started");
    const auto version = r.game_state_->version();
    if (preview.version != version) {
      return refuse(perr::stale_version, "the table is at version " + std::to_string(version) +
                                             ", your preview was made at version " + std::to_string(preview.version));
    }
    if (!r.game_state_->is_to_move(seat)) return refuse(engine::errc::not_your_turn, "it is not your turn");
    // A copy that knows which steps could be taken back: only those are shown, as they show nothing hidden.
    auto copy = r.game_state_->clone();
    copy->allow_undo(true);
    const auto viewer = r.viewer_for(seat);
    Json events = Json::array();
    for (std::size_t i = 0; i < preview.actions.size(); ++i) {
      const auto& action = preview.actions[i];
      if (engine::is_undo(action)) {
        return r.reply(s, protocol::render_step_error(re, perr::bad_message, "a preview holds steps, not an undo", i));
      }
      const auto result = copy->apply(seat, action);
      if (!result.ok()) return r.reply(s, protocol::render_step_error(re, result.error->code, result.error->message, i));
      const bool last = i + 1 == preview.actions.size();
      if (!copy->can_undo(seat)) {
        if (!last) {
          return r.reply(s, protocol::render_step_error(re, perr::preview_not_allowed,
                                                        "this step draws, shows something or ends your turn: only "
                                                        "the last step of a preview may",
                                                        i));
        }
        // What it would show is not shown before it is made.
        return r.reply(s, protocol::render_preview(re, r.id_, version, true, events));
      }
      for (auto& e : engine::events_for(result.events, viewer)) events.push_back(std::move(e));
    }
    auto legal = copy->legal_actions(seat);
    std::erase_if(legal, engine::is_undo);
    auto view = copy->view(viewer);
    view["version"] = version;  // the table's: nothing was applied to it
    r.reply(s, protocol::render_preview(re, r.id_, version, false, events, view, legal));
  });
}

std::optional<engine::Error> Room::play(int seat, const Json& action, const MemberPtr& actor, const Json& re,
                                        bool timed_out, std::optional<std::chrono::steady_clock::time_point> received) {
  if (moved_away_) return engine::Error{protocol::errc::internal_error, "this table moved to another node: connect again"};
  // Refused at once rather than applied and then undone: the store would not take it now.
  if (!context_.health->up()) {
    return engine::Error{perr::store_unavailable, protocol::kStoreUnavailableMessage};
  }
  auto& game = *game_state_;
  auto result = game.apply(seat, action);
  if (!result.ok()) return result.error;
  // A bot's move (its own seat's, or a person's whose time ran out) is never taken back.
  if (!actor) game.seal_undo();
  if (game.is_over()) state_ = TableState::finished;
  PendingMove move{seat, actor, re, timed_out, 0, clock_, std::move(result.events), received};
  if (clock_ && engine::is_undo(action)) {
    // Taking back gives no time back: the decision the step ended goes on as if it had never stopped (its turn time
    // and the reserve ran meanwhile), not with a new turn time.
    if (!clock_before_steps_.empty()) {
      clock_ = std::move(clock_before_steps_.back());
      clock_before_steps_.pop_back();
    }
    update_clock();
  } else if (clock_) {
    // Kept beside the engine's steps that may be taken back, one for one: the clock before this one's decision ends.
    if (game.can_undo(seat)) {
      clock_before_steps_.push_back(*clock_);
    } else {
      clock_before_steps_.clear();
    }
    // The decision is made: the next one's clock starts now, and is stored with the move.
    clock_->stop(std::chrono::steady_clock::now());
    if (seats_[seat].is_person()) move.timeouts = clock_->count_decision(seat, timed_out);
    update_clock();
  }
  ActionWrite write{id_, game.version() - 1, seat, action.dump(),
                    clock_ ? clock_->to_stored(std::chrono::steady_clock::now(), unix_ms_now()).dump() : std::string(),
                    game.is_over() ? game.result().dump() : std::string(), epoch_};
  // The end, for the accounts at the table, is stored in the same transaction as the move that ends the game.
  if (game.is_over()) write.end = game_end_of(id_, game_, seats_, game.result(), rated_, is_private_);
  // Written before anyone is told: until the commit queue says so, the room holds back whatever it is asked.
  ++storing_;
  // The queue calls back once: the move (its events, the actor, the clock) is handed on, not copied.
  context_.commits->append(std::move(write), [self = shared_from_this(), move = std::move(move)](
                                                 std::optional<StoreError::Kind> failed) mutable {
    net::post(self->strand_,
              [self, move = std::move(move), failed]() mutable { self->move_stored(std::move(move), failed); });
  });
  return std::nullopt;
}

void Room::move_stored(PendingMove move, std::optional<StoreError::Kind> failed) {
  --storing_;
  last_move_ = std::chrono::steady_clock::now();  // after a failure too: a bot tries again no sooner than bot_delay
  if (!failed) {
    updated_ = unix_now();
    announce(std::move(move));
  } else {
    context_.metrics->action_rejected(*failed == StoreError::Kind::unavailable ? perr::store_unavailable
                                                                               : perr::internal_error);
    if (move.actor) {
      reply(move.actor, refusal(move.re, StoreError("", *failed), "the action could not be saved; try again"));
    }
    // Memory is ahead of the store (or, had the connection broken as the move was committed, behind it): the room
    // reads the table back before it answers anyone again.
    reload();
  }
  run_deferred();
}

void Room::announce(PendingMove move) {
  auto& events = move.events;
  // Everybody sees that the clock, not the player, made this move.
  if (move.timed_out) events.insert(events.begin(), engine::Event::public_event({{"type", "timeout"}, {"player", move.seat}}));
  const auto v = game_state_->version();
  const auto clock = live_clock();
  const auto reveal = shuffle_fields(false);  // the seed and salt, on the frames of the move that ends the game
  // The mover's ack goes with its events, in one write; first, as before.
  std::string ack = move.actor ? protocol::render_ack(move.re, v) : std::string();
  auto send = [&](const MemberPtr& c, std::shared_ptr<const std::string> frame) {
    if (c == move.actor && !ack.empty()) return c->send(std::exchange(ack, {}), std::move(frame));
    c->send(std::move(frame));
  };
  // A mover that is not at the table any more (it left as its move was being stored) still gets its ack.
  auto ack_if_unsent = [&] {
    if (move.actor && !ack.empty()) reply(move.actor, std::exchange(ack, {}));
  };
  // What a spectator sees of the move is also what every player sees who has no private event in it, and what a
  // spectator is sent is what every such player gets who has no decision to make (the usual case): both are
  // written once. Only the others get frames of their own.
  std::string public_events;
  auto events_public = [&]() -> const std::string& {
    if (public_events.empty()) public_events = engine::events_json_for(events, viewer_for(-1));
    return public_events;
  };
  std::shared_ptr<const std::string> common;
  auto common_frame = [&] {
    if (!common) common = std::make_shared<const std::string>(protocol::render_events(id_, v, events_public(), "[]", clock, reveal));
    return common;
  };
  const auto movers = game_state_->to_move();
  for (std::size_t p = 0; p < seats_.size(); ++p) {
    auto c = seats_[p].member.lock();
    if (!c) continue;
    const int seat = static_cast<int>(p);
    const bool decides = std::find(movers.begin(), movers.end(), seat) != movers.end();
    const bool told_privately =
        std::any_of(events.begin(), events.end(), [&](const engine::Event& e) { return e.only_player == seat; });
    if (!decides && !told_privately) {
      send(c, common_frame());
    } else {
      send(c, std::make_shared<const std::string>(protocol::render_events(
                  id_, v, told_privately ? engine::events_json_for(events, viewer_for(seat)) : events_public(),
                  decides ? game_state_->legal_actions_json(seat) : "[]", clock, reveal)));
    }
  }
  for (const auto& w : spectators_) {
    if (auto c = w.lock()) send(c, common_frame());
  }
  ack_if_unsent();
  if (move.received) {
    context_.metrics->action_accepted(std::chrono::duration<double>(std::chrono::steady_clock::now() - *move.received).count());
  }
  if (move.timeouts >= 3) hand_to_bot_after_timeouts(move.seat);
  watch_turns(move.seat, &movers);
  if (state_ == TableState::finished) {
    spdlog::info("room {}: {} is over after {} moves", id_, game_, v);
    tell_game_over();
    tell_unseated_all();  // their presence: no longer playing
    table_changed();
    read_ratings();  // with the update its end stored
    if (rated_ && context_.rated_game_ended) context_.rated_game_ended(id_);
  }
  run_bot_if_its_turn();
}

}  // namespace emporium::server
