#include "tables/room.hpp"

#include <algorithm>

#include "tables/game_ends.hpp"
#include "tables/table_notices.hpp"

namespace emporium::server {

void Room::watch_turns(std::optional<int> moved) {
  auto* notices = context_.notices;
  if (!notices) return;
  const bool playing = state_ == TableState::playing && game_state_;
  const auto movers = playing ? game_state_->to_move() : std::vector<int>{};
  const auto version = playing ? game_state_->version() : 0;
  turn_since_.resize(seats_.size());
  told_waiting_.resize(seats_.size());
  if (moved && seats_.has(*moved)) turn_since_[*moved].reset();
  for (std::size_t p = 0; p < seats_.size(); ++p) {
    const auto& seat = seats_[p];
    const bool decides = std::find(movers.begin(), movers.end(), static_cast<int>(p)) != movers.end();
    if (!decides) {
      turn_since_[p].reset();
    } else if (!turn_since_[p]) {
      turn_since_[p] = version;
    }
    // A person on vacation is not waited for: their clock stands still, and nobody mails them.
    const bool waiting =
        decides && seat.is_person() && !seat.account.empty() && !seat.connected() && !on_vacation(static_cast<int>(p));
    if (waiting && told_waiting_[p] != turn_since_[p]) {
      told_waiting_[p] = turn_since_[p];
      notices->waiting(waiting_of(static_cast<int>(p)));
    } else if (!waiting && told_waiting_[p]) {
      told_waiting_[p].reset();
      notices->not_waiting(id_, seat.account);
    }
  }
}

TurnWaiting Room::waiting_of(int p) const {
  const auto& seat = seats_[p];
  TurnWaiting wait{id_, game_, seat.account, turn_since_.at(p).value_or(0), seat.name};
  for (std::size_t o = 0; o < seats_.size(); ++o) {
    if (static_cast<int>(o) != p) wait.others.push_back(seats_[o].name);
  }
  if (clock_ && clock_->running_seat() == p) {
    if (const auto deadline = clock_->deadline()) {
      wait.clock_left_s =
          std::chrono::duration_cast<std::chrono::seconds>(*deadline - std::chrono::steady_clock::now()).count();
    }
  }
  return wait;
}

void Room::watch_low_clock() {
  low_clock_timer_.cancel();
  if (!context_.notices || !clock_ || !clock_config_ || clock_config_->turn_s < context_.correspondence_turn.count()) {
    return;
  }
  const auto running = clock_->running_seat();
  const auto deadline = clock_->deadline();
  if (!running || !deadline || seats_[*running].account.empty()) return;
  // Told once the decision is down to a fifth of the turn time (at once if it starts below).
  low_clock_timer_.expires_at(*deadline - std::chrono::seconds(clock_config_->turn_s / 5));
  low_clock_timer_.async_wait([self = shared_from_this(), seat = *running, generation = clock_generation_](
                                  boost::system::error_code ec) {
    auto& r = *self;
    if (ec || generation != r.clock_generation_ || r.state_ != TableState::playing) return;
    const auto& st = r.seats_[seat];
    if (!st.is_person() || st.connected() || st.account.empty() || r.turn_since_.size() <= static_cast<std::size_t>(seat)) {
      return;
    }
    r.context_.notices->low_clock(r.waiting_of(seat));
  });
}

void Room::tell_game_over() const {
  if (!context_.notices || !game_state_ || !game_state_->is_over()) return;
  // The ranking as the accounts' results keep it (a person who left ranks last); none when no seat is an account's.
  const auto end = game_end_of(id_, game_, seats_, game_state_->result(), rated_, is_private_);
  if (!end) return;
  GameOverNotice over{id_, game_};
  for (const auto& s : end->seats) over.places.push_back({seats_[s.seat].name, s.account, s.rank});
  std::stable_sort(over.places.begin(), over.places.end(), [](const auto& a, const auto& b) { return a.rank < b.rank; });
  context_.notices->game_over(std::move(over));
}

}  // namespace emporium::server
