#include "tables/room.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>

#include "common/wall_clock.hpp"
#include "common/worker_pool.hpp"
#include "store/people_store.hpp"
#include "store/store.hpp"

namespace emporium::server {

namespace perr = protocol::errc;

void Room::update_clock() {
  if (!clock_) return;
  const auto now = std::chrono::steady_clock::now();
  std::optional<int> person, away;  // the person on the clock; one whose decision waits for their vacation's end
  if (state_ == TableState::playing) {
    const auto movers = game_state_->to_move();
    if (!movers.empty() && seats_[movers.front()].is_person()) {
      (on_vacation(movers.front()) ? away : person) = movers.front();
    }
  }
  if (clock_->running_seat() != person) {
    if (away && clock_->running_seat() == away) {
      clock_->pause(now);
    } else if (clock_->running_seat()) {
      clock_->stop(now);
    }
    if (person) clock_->start(*person, now);  // a decision paused for them goes on where it stopped
  }
  ++clock_generation_;
  clock_timer_.cancel();
  watch_vacations();
  watch_low_clock();
  const auto deadline = clock_->deadline();
  if (!deadline) return;
  clock_timer_.expires_at(*deadline);
  clock_timer_.async_wait([self = shared_from_this(), generation = clock_generation_](boost::system::error_code ec) {
    if (!ec && generation == self->clock_generation_) self->run_bot_if_its_turn();
  });
}

bool Room::vacations_apply() const { return is_correspondence() && clock_config_->vacations; }

bool Room::on_vacation(int seat) const {
  const auto& until = seats_[static_cast<std::size_t>(seat)].vacation_until;
  return vacations_apply() && until && *until > unix_now();
}

void Room::watch_vacations() {
  if (!vacations_apply()) return;  // most timed tables: their timer is never set, and a move need not touch it
  vacation_timer_.cancel();
  std::optional<long long> first_end;
  for (std::size_t p = 0; p < seats_.size(); ++p) {
    if (on_vacation(static_cast<int>(p))) first_end = std::min(first_end.value_or(*seats_[p].vacation_until), *seats_[p].vacation_until);
  }
  if (!first_end || state_ != TableState::playing) return;
  vacation_timer_.expires_after(std::chrono::seconds(*first_end - unix_now()));
  vacation_timer_.async_wait([self = shared_from_this(), generation = clock_generation_](boost::system::error_code ec) {
    if (!ec && generation == self->clock_generation_) self->vacations_changed();
  });
}

void Room::vacations_changed() {
  update_clock();
  save_clock();
  table_changed();
}

void Room::read_vacations() {
  if (!vacations_apply() || !context_.people || state_ != TableState::playing) return;
  std::vector<std::string> accounts;
  for (const auto& st : seats_) {
    if (!st.account.empty()) accounts.push_back(st.account);
  }
  if (accounts.empty()) return;
  context_.store_jobs->post([self = shared_from_this(), accounts = std::move(accounts)] {
    std::map<std::string, long long> until;
    try {
      until = self->context_.people->vacations_until(accounts, unix_now());
    } catch (const StoreError& e) {
      // Told again when one starts or ends (vacation()); until then the clocks run as they did.
      spdlog::warn("room {}: its players' vacations could not be read: {}", self->id_, e.what());
      return;
    }
    if (until.empty()) return;
    self->on_strand([self, until = std::move(until)] {
      for (auto& st : self->seats_) {
        if (const auto it = until.find(st.account); it != until.end()) st.vacation_until = it->second;
      }
      self->vacations_changed();
    });
  });
}

void Room::vacation(std::string account, std::optional<long long> until) {
  on_strand([self = shared_from_this(), account = std::move(account), until] {
    bool seated = false;
    for (auto& st : self->seats_) {
      if (st.account != account) continue;
      st.vacation_until = until;
      seated = true;
    }
    if (seated && self->vacations_apply() && self->state_ == TableState::playing) self->vacations_changed();
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
