#include "tables/room.hpp"

#include <spdlog/spdlog.h>

#include "common/metrics.hpp"
#include "common/secrets.hpp"
#include "common/worker_pool.hpp"

namespace emporium::server {

namespace perr = protocol::errc;

namespace {
constexpr auto kRetryWhileUnavailable = std::chrono::seconds(1);
}  // namespace

void Room::run_bot_if_its_turn() {
  if (state_ != TableState::playing || bot_thinking_ || !context_.bots || moved_away_ || reloading_) return;
  // Most tables have no bot and no clock: they skip the engine's to_move() on every move.
  const bool out_of_time = clock_ && clock_->deadline() && std::chrono::steady_clock::now() >= *clock_->deadline();
  if (!out_of_time && !seats_.any_bot()) return;
  const auto movers = game_state_->to_move();
  if (movers.empty()) return;
  const int seat = movers.front();
  // A bot's own turn, or the one decision of a person whose time ran out (the normal bot makes it).
  const bool timed_out = out_of_time && clock_->running_seat() == seat && seats_[seat].is_person();
  if (!seats_[seat].bot && !timed_out) return;
  const auto level = timed_out ? engine::bot::Level::normal : *seats_[seat].bot;
  bot_thinking_ = true;
  // The bot is given what its seat is shown, nothing more: the same view and legal list a person gets.
  const auto viewer = engine::Viewer::of_player(seat);
  context_.bots->post([self = shared_from_this(), game = game_, view = game_state_->view(viewer), seat,
                       legal = game_state_->legal_actions(seat), level, seed = random_u64(),
                       version = game_state_->version(), timed_out] {
    auto decision = engine::bot::decide(game, view, seat, legal, level, seed);
    net::post(self->strand_, [self, seat, version, action = std::move(decision.action), timed_out]() mutable {
      self->bot_decided(seat, version, std::move(action), timed_out);
    });
  });
}

void Room::bot_decided(int seat, std::uint64_t version, Json action, bool timed_out) {
  if (storing_ > 0) {
    // `this`, not a shared pointer: deferred_ is the room's own, so a shared pointer in it would keep the room alive
    // by itself if the write it waits for never answered (a store stopped at shutdown).
    deferred_.emplace_back([this, seat, version, action = std::move(action), timed_out]() mutable {
      bot_decided(seat, version, std::move(action), timed_out);
    });
    return;
  }
  // Paced for people: the move lands no sooner than bot_delay after the table's previous move.
  const auto due = last_move_ + context_.bot_delay;
  if (std::chrono::steady_clock::now() < due) {
    bot_pause_.expires_at(due);
    bot_pause_.async_wait([self = shared_from_this(), seat, version, action = std::move(action), timed_out](
                              boost::system::error_code ec) mutable {
      if (!ec) self->bot_decided(seat, version, std::move(action), timed_out);
    });
    return;
  }
  bot_thinking_ = false;
  // The table moved on (the person moved in time after all), or the seat changed hands while the bot was
  // thinking: the decision is dropped.
  const bool still_due = timed_out ? seats_[seat].is_person() : seats_[seat].bot.has_value();
  if (state_ != TableState::playing || game_state_->version() != version || !still_due) return run_bot_if_its_turn();
  if (auto error = play(seat, action, nullptr, nullptr, timed_out)) {
    if (error->code == protocol::errc::store_unavailable) {
      // The store does not answer: the bot decides again once it might.
      bot_pause_.expires_after(kRetryWhileUnavailable);
      bot_pause_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
        if (!ec) self->run_bot_if_its_turn();
      });
      return;
    }
    // Not expected (a bot answers from the legal list); the table must not stall on it.
    spdlog::error("room {}: the bot in seat {} chose a refused move {}: {}", id_, seat, action.dump(), error->message);
    const auto legal = game_state_->legal_actions(seat);
    if (legal.empty() || play(seat, legal.front(), nullptr, nullptr, timed_out)) return;
  }
  context_.metrics->bot_move();
}

}  // namespace emporium::server
