#include "tables/room.hpp"

#include <spdlog/spdlog.h>

#include "common/wall_clock.hpp"
#include "common/worker_pool.hpp"
#include "store/store.hpp"

namespace emporium::server {

namespace perr = protocol::errc;

namespace {
constexpr auto kLongestRetry = std::chrono::seconds(2);  // refused at once by the guard meanwhile: cheap
}  // namespace

void Room::store_then(std::function<void()> write, std::function<void(const StoreError*)> done) {
  ++storing_;
  context_.store_jobs->post([self = shared_from_this(), write = std::move(write), done = std::move(done)]() mutable {
    std::optional<StoreError> failed;
    try {
      write();
    } catch (const StoreError& e) {
      failed = e;
    } catch (const std::exception& e) {
      failed = StoreError(e.what());
    }
    net::post(self->strand_, [self, done = std::move(done), failed = std::move(failed)] {
      --self->storing_;
      done(failed ? &*failed : nullptr);
      self->run_deferred();
    });
  });
}

void Room::run_deferred() {
  while (storing_ == 0 && !deferred_.empty()) {
    auto next = std::move(deferred_.front());
    deferred_.pop_front();
    next();
  }
}

void Room::save_seats_then(MemberPtr member, Json re, const char* failure, std::function<void()> undo,
                           std::function<void()> saved) {
  store_then(
      [store = context_.store, id = id_, seats = seats_.stored(), players = static_cast<int>(seats_.size()),
       creator = creator_seat_, epoch = epoch_] { store->save_seats(id, seats, players, creator, epoch); },
      [this, member = std::move(member), re = std::move(re), failure, undo = std::move(undo),
       saved = std::move(saved)](const StoreError* error) {
        if (!error) {
          updated_ = unix_now();
          return saved();
        }
        if (!error->unavailable()) spdlog::error("room {}: saving seats: {}", id_, error->what());
        undo();
        if (member) reply(member, refusal(re, *error, failure));
      });
}

std::string Room::refusal(const Json& re, const StoreError& error, const char* failure) const {
  if (error.unavailable()) return protocol::render_error(re, perr::store_unavailable, protocol::kStoreUnavailableMessage);
  return protocol::render_error(re, perr::internal_error, failure);
}

bool Room::refused_while_reloading(const MemberPtr& member, const Json& re) const {
  if (!reloading_) return false;
  reply(member, protocol::render_error(re, perr::store_unavailable, protocol::kStoreUnavailableMessage));
  return true;
}

void Room::reload(std::chrono::milliseconds after) {
  reloading_ = true;
  bot_pause_.cancel();
  ++clock_generation_;  // a clock's timer set before is stale: the clock is read back too
  clock_timer_.cancel();
  reload_timer_.expires_after(after);
  reload_timer_.async_wait([self = shared_from_this(), after](boost::system::error_code ec) {
    if (ec || self->moved_away_) return;
    self->context_.store_jobs->post([self, after] {
      std::optional<StoredTable> stored;
      std::string failed;
      try {
        stored = self->context_.store->load(self->id_);
        if (!stored) failed = "the table is not in the store";
      } catch (const StoreError& e) {
        if (!e.unavailable()) failed = e.what();
      }
      net::post(self->strand_, [self, after, stored = std::move(stored), failed = std::move(failed)] {
        if (stored && failed.empty()) return self->reloaded(*stored);
        // The store does not answer yet (or failed otherwise: said once): again, a little later each time.
        if (!failed.empty() && after.count() == 0) spdlog::error("room {}: reading it back: {}", self->id_, failed);
        self->reload(std::min<std::chrono::milliseconds>(std::max(after * 2, std::chrono::milliseconds(250)),
                                                          kLongestRetry));
      });
    });
  });
}

void Room::reloaded(const StoredTable& stored) {
  auto replayed = replay_stored(stored);
  if (replayed.error) {
    spdlog::error("room {}: its stored record does not replay: {}", id_, replayed.error->message);
    return reload(kLongestRetry);
  }
  reloading_ = false;
  game_state_ = std::move(replayed.state);
  clock_before_steps_.clear();  // as the engine's steps: sealed
  state_ = game_state_->is_over() ? TableState::finished : TableState::playing;
  if (clock_config_) {
    // As stored with the last move the store has: the decision running since then is charged until now.
    clock_ = TurnClock::from_stored(*clock_config_, static_cast<int>(seats_.size()), stored.clock_state, unix_ms_now(),
                                    std::chrono::steady_clock::now());
  }
  spdlog::info("room {}: read back from the store at version {}", id_, game_state_->version());
  update_clock();
  // Everyone sees the table as the store has it (the move that failed, or that was stored after all).
  each_member([this](const MemberPtr& m) { send_snapshot(m, nullptr); });
  table_changed();
  if (state_ == TableState::finished) read_ratings();  // the end may have been stored after all
  run_bot_if_its_turn();
  read_vacations();
}

}  // namespace emporium::server
