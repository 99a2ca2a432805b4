#include "tables/room.hpp"

#include <spdlog/spdlog.h>

#include "common/wall_clock.hpp"
#include "store/store.hpp"

namespace emporium::server {

namespace perr = protocol::errc;

void Room::update_clock() {
  if (!clock_) return;
  const auto now = std::chrono::steady_clock::now();
  std::optional<int> person;
  if (state_ == TableState::playing) {
    const auto movers = game_state_->to_move();
    if (!movers.empty() && seats_[movers.front()].is_person()) person = movers.front();
  }
  if (clock_->running_seat() != person) {
    clock_->stop(now);
    if (person) clock_->start(*person, now);
  }
  ++clock_generation_;
  clock_timer_.cancel();
  watch_low_clock();
  const auto deadline = clock_->deadline();
  if (!deadline) return;
  clock_timer_.expires_at(*deadline);
  clock_timer_.async_wait([self = shared_from_this(), generation = clock_generation_](boost::system::error_code ec) {
    if (!ec && generation == self->clock_generation_) self->run_bot_if_its_turn();
  });
}

void Room::save_clock() {
  if (!clock_) return;
  store_then([store = context_.store, id = id_, epoch = epoch_,
              clock = clock_->to_stored(std::chrono::steady_clock::now(), unix_ms_now())] {
               store->save_clock(id, clock, epoch);
             },
             [this](const StoreError* error) {
               // The clock in memory goes on; after a restart the last stored one (a move's) is used.
               if (error && !error->unavailable()) spdlog::error("room {}: saving the clock: {}", id_, error->what());
             });
}

Json Room::live_clock() const {
  return clock_ ? clock_->live(std::chrono::steady_clock::now()) : Json();
}

void Room::hand_to_bot_after_timeouts(int seat) {
  const auto before = seats_[seat];
  seats_[seat].bot = engine::bot::Level::normal;
  seats_[seat].stand_in = StandIn::timeout;  // the token stays theirs: resuming takes the seat back
  save_seats_then(
      nullptr, nullptr, "", [this, seat, before] { seats_[seat] = before; },
      [this] {
        update_clock();
        save_clock();
        table_changed();
      });
}

}  // namespace emporium::server
