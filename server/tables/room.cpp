#include "tables/room.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include <emporium/records/records.hpp>

#include "common/wall_clock.hpp"
#include "common/worker_pool.hpp"
#include "ratings/bot_ratings.hpp"
#include "store/people_store.hpp"
#include "store/store.hpp"
#include "tables/game_ends.hpp"
#include "tables/lobby.hpp"
#include "tables/table_directory.hpp"

namespace emporium::server {

namespace perr = protocol::errc;

engine::Replayed replay_stored(const StoredTable& stored) {
  engine::Record record{stored.game, stored.players, stored.options, stored.seed, {}};
  for (const auto& [player, action] : stored.actions) record.actions.push_back({player, action});
  auto replayed = engine::replay(record);
  if (replayed.state) {
    // What was played before the table was read back stays: the steps that could be taken back were this
    // node's memory, and whether a bot made them is not stored.
    replayed.state->allow_undo(stored.undo);
    replayed.state->seal_undo();
  }
  return replayed;
}

Room::Room(net::any_io_executor executor, const TablesContext& context, const StoredTable& stored)
    : strand_(net::make_strand(executor)),
      context_(context),
      id_(stored.id),
      game_(stored.game),
      invite_(stored.invite),
      is_private_(stored.is_private),
      friends_only_(stored.friends_only),
      seed_(stored.seed),
      salt_(stored.salt),
      commitment_(stored.salt.empty() ? "" : records::commitment_of(stored.salt, stored.seed)),
      options_(stored.options),
      rematch_of_(stored.rematch_of),
      epoch_(stored.epoch),
      rated_(stored.rated),
      undo_(stored.undo),
      creator_seat_(stored.creator_seat),
      // After a restart nobody is connected yet: absence counts from now.
      seats_(Seats::from_stored(stored.players, stored.seats, std::chrono::steady_clock::now())),
      bot_pause_(strand_),
      clock_config_(stored.clock),
      clock_timer_(strand_),
      vacation_timer_(strand_),
      abandoned_timer_(strand_),
      forsaken_timer_(strand_),
      unwatched_timer_(strand_),
      reload_timer_(strand_),
      updated_(stored.updated_at != 0 ? stored.updated_at : unix_now()),
      rematch_(protocol::rematch_from_json(stored.rematch)),
      low_clock_timer_(strand_) {
  if (stored.state == TableState::waiting) return;
  auto replayed = replay_stored(stored);
  if (replayed.error) {
    load_error_ = replayed.error->code + ": " + replayed.error->message + " at action " +
                  std::to_string(replayed.failed_at);
    return;
  }
  game_state_ = std::move(replayed.state);
  state_ = game_state_->is_over() ? TableState::finished : TableState::playing;
  if (clock_config_) {
    clock_ = TurnClock::from_stored(*clock_config_, stored.players, stored.clock_state, context_.last_alive_ms,
                                     std::chrono::steady_clock::now());
  }
}

bool Room::is_spectator(const Member* s) const {
  return std::any_of(spectators_.begin(), spectators_.end(), [s](const auto& w) { return w.lock().get() == s; });
}

void Room::reply(const MemberPtr& s, std::string frame) const { s->send(std::move(frame)); }

void Room::broadcast(const std::string& frame) const {
  auto shared = std::make_shared<const std::string>(frame);
  each_member([&](const MemberPtr& c) { c->send(shared); });
}

protocol::TableInfo Room::info() const {
  protocol::TableInfo t;
  t.id = id_;
  t.game = game_;
  t.players = static_cast<int>(seats_.size());
  t.options = options_;
  t.is_private = is_private_;
  t.friends_only = friends_only_;
  t.state = name_of(state_);
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    protocol::SeatInfo si;
    si.seat = static_cast<int>(i);
    if (seats_[i].taken()) si.name = seats_[i].name;
    si.reserved = seats_[i].reserved();
    si.connected = seats_[i].bot || seats_[i].connected();
    if (seats_[i].bot) si.bot = engine::bot::level_name(*seats_[i].bot);
    if (seats_[i].bot && seats_[i].stand_in != StandIn::none) si.stand_in = name_of(seats_[i].stand_in);
    si.away_s = away_seconds(static_cast<int>(i));
    if (on_vacation(static_cast<int>(i))) si.vacation_until = seats_[i].vacation_until;
    if (rated_ && seats_[i].bot && seats_[i].stand_in == StandIn::none) {
      if (const auto fixed = ratings::bot_rating(game_, engine::bot::level_name(*seats_[i].bot))) {
        si.rating = seat_rating(*fixed, true);
      }
    } else if (rated_ && seats_[i].occupied()) {
      si.rating = seats_[i].rating;
    }
    t.seats.push_back(si);
  }
  t.spectators_may_chat = spectators_may_chat_;
  t.spectators = static_cast<int>(
      std::count_if(spectators_.begin(), spectators_.end(), [](const auto& w) { return !w.expired(); }));
  t.creator_seat = creator_seat_;
  t.rated = rated_;
  t.undo = undo_;
  t.rating_changes = rating_changes_;
  t.clock = clock_config_;
  t.rematch = rematch_;
  if (!rematch_of_.empty()) t.rematch_of = rematch_of_;
  if (!commitment_.empty()) t.commitment = commitment_;
  if (state_ == TableState::finished) {
    t.seed = seed_.to_hex();
    if (!salt_.empty()) t.salt = salt_;
  }
  return t;
}

void Room::table_changed() {
  const auto table = info();
  broadcast(protocol::render_table(nullptr, table, live_clock()));
  context_.lobby->update(table);
  watch_abandoned();
  watch_forsaken();
  watch_unwatched();
  watch_turns();
}

bool Room::anyone_connected() const {
  return seats_.any_connected() ||
         std::any_of(spectators_.begin(), spectators_.end(), [](const auto& w) { return !w.expired(); });
}

void Room::watch_abandoned() {
  const bool abandoned = state_ == TableState::waiting && !seats_.any_person_connected();
  abandoned_timer_.update(abandoned, context_.abandoned_after, [self = shared_from_this()] {
    spdlog::info("room {}: closing, nobody has been connected for {} s", self->id_, self->context_.abandoned_after.count());
    self->close_before_start();
  });
}

void Room::watch_forsaken() {
  int person = -1, people = 0;
  for (std::size_t p = 0; p < seats_.size(); ++p) {
    if (seats_[p].is_person()) person = static_cast<int>(p), ++people;
  }
  const bool others_bots = std::all_of(seats_.begin(), seats_.end(), [](const auto& st) { return st.bot || st.is_person(); });
  const bool forsaken = state_ == TableState::playing && !rated_ && context_.forsaken_after.count() > 0 && people == 1 &&
                        others_bots && !seats_[person].connected();
  forsaken_timer_.update(forsaken, context_.forsaken_after, [self = shared_from_this(), person] {
    spdlog::info("room {}: its one person has been away {} s: the bots play it to its end", self->id_,
                 self->context_.forsaken_after.count());
    self->seat_to_bot(person, nullptr, nullptr);
  });
}

void Room::watch_unwatched() {
  const bool unwatched = state_ == TableState::finished && context_.finished_unwatched_after.count() > 0 && !anyone_connected();
  unwatched_timer_.update(unwatched, context_.finished_unwatched_after, [self = shared_from_this(), seen = lookups()] {
    if (self->anyone_connected()) return;
    if (!self->context_.directory->release_unwatched(self->id_, self.get(), seen)) {
      self->watch_unwatched();  // looked up meanwhile: count again from now
      return;
    }
    self->forget_tokens();
    spdlog::debug("room {}: finished and unwatched, out of memory (kept in the store)", self->id_);
  });
}

void Room::forget_tokens() {
  // Every seat's: a person's, and one a bot holds for its person (away or out of time); a bot's own is never
  // registered, so forgetting it does nothing.
  for (const auto& st : seats_) {
    if (st.occupied()) context_.directory->unregister_token(st.token_hash);
  }
}

void Room::close_before_start() {
  store_then([store = context_.store, id = id_, epoch = epoch_] { store->delete_table(id, epoch); },
             [this](const StoreError* error) {
               // Still stored as waiting: after a restart it is closed again, once nobody comes back to it.
               if (error) spdlog::warn("room {}: deleting: {}", id_, error->what());
             });
  forget_tokens();
  const auto frame = protocol::render_left(nullptr, id_);
  each_member([&](const MemberPtr& c) {
    c->left(id_);
    c->send(frame);
  });
  spectators_.clear();
  abandoned_timer_.cancel();
  context_.directory->remove_room(id_);
}

// What the game reveals at its end (all coins, say) is the engine's decision, made in these views.
engine::Viewer Room::viewer_for(int seat) const {
  return seat >= 0 ? engine::Viewer::of_player(seat) : engine::Viewer::spectator();
}

Json Room::legal_for(int seat) const {
  Json out = Json::array();
  if (seat < 0 || !game_state_) return out;
  for (auto& a : game_state_->legal_actions(seat)) out.push_back(std::move(a));
  return out;
}

void Room::send_snapshot(const MemberPtr& s, const Json& re) const {
  if (!game_state_) return;
  const int seat = seats_.of(s.get());
  reply(s, protocol::render_snapshot(re, id_, game_state_->version(), seat >= 0 ? Json(seat) : Json(nullptr),
                                     game_state_->view(viewer_for(seat)), legal_for(seat), live_clock(),
                                     shuffle_fields(true)));
}

Json Room::shuffle_fields(bool with_commitment) const {
  Json out;  // null when there is nothing to add
  if (with_commitment && !commitment_.empty()) out["commitment"] = commitment_;
  // Never before the end: the seed would tell every hidden card and draw still to come.
  if (state_ == TableState::finished) {
    out["seed"] = seed_.to_hex();
    if (!salt_.empty()) out["salt"] = salt_;
  }
  return out;
}

StoredTable Room::stored() const {
  StoredTable t;
  t.id = id_;
  t.game = game_;
  t.players = static_cast<int>(seats_.size());
  t.options = options_;
  t.seed = seed_;
  t.salt = salt_;
  t.is_private = is_private_;
  t.friends_only = friends_only_;
  t.rated = rated_;
  t.undo = undo_;
  t.invite = invite_;
  t.creator_seat = creator_seat_;
  t.state = state_;
  t.clock = clock_config_;  // the configuration only: a rematch's clock starts afresh
  t.seats = seats_.stored();
  if (rematch_) t.rematch = protocol::rematch_json(*rematch_);
  t.rematch_of = rematch_of_;
  if (state_ == TableState::finished) t.result = game_state_->result();
  t.updated_at = updated_;
  return t;
}

void Room::watch(MemberPtr s, Json re, bool by_invite) {
  on_strand([self = shared_from_this(), s = std::move(s), re = std::move(re), by_invite] {
    auto& r = *self;
    if (r.refused_while_reloading(s, re)) return;
    if (r.seats_.of(s.get()) < 0 && r.refused_as_stranger(s, re, by_invite)) return;
    if (r.seats_.of(s.get()) < 0 && !r.is_spectator(s.get())) {
      std::erase_if(r.spectators_, [](const auto& w) { return w.expired(); });
      r.spectators_.push_back(s);
    }
    s->joined(self);
    r.reply(s, protocol::render_watching(re, r.info(), r.live_clock()));
    r.send_snapshot(s, nullptr);
    r.send_chat_history(s);
    r.table_changed();
    if (!r.ratings_read_) r.read_ratings();
  });
}

void Room::snapshot(MemberPtr s, Json re) {
  on_strand([self = shared_from_this(), s = std::move(s), re = std::move(re)] {
    auto& r = *self;
    if (r.refused_while_reloading(s, re)) return;
    if (r.seats_.of(s.get()) < 0 && !r.is_spectator(s.get())) {
      return r.reply(s, protocol::render_error(re, perr::not_seated, "join or watch the table first"));
    }
    if (!r.game_state_) {
      return r.reply(s, protocol::render_table(re, r.info()));  // before the start, the table is all there is
    }
    r.send_snapshot(s, re);
  });
}

void Room::disconnected(Member* member) {
  on_strand([self = shared_from_this(), member] {
    auto& r = *self;
    auto gone = [member](const std::weak_ptr<Member>& w) {
      auto c = w.lock();
      return !c || c.get() == member;
    };
    for (auto& st : r.seats_) {
      if (!gone(st.member)) continue;
      st.member.reset();
      if (st.is_person() && !st.away_since) st.away_since = std::chrono::steady_clock::now();
    }
    std::erase_if(r.spectators_, gone);
    r.forget_chat_settings(member);
    r.table_changed();
  });
}

void Room::carry_on() {
  on_strand([self = shared_from_this()] {
    self->watch_abandoned();  // restored before anyone can connect: a waiting table's time runs from the restart
    self->watch_forsaken();
    self->update_clock();
    self->save_clock();  // the decision's start moved by the downtime: a second restart must not charge it
    self->run_bot_if_its_turn();
    self->watch_turns();
    self->read_vacations();
  });
}

void Room::expire_when_unwatched() {
  on_strand([self = shared_from_this()] { self->watch_unwatched(); });
}

void Room::move_away(std::function<void()> then) {
  on_strand([self = shared_from_this(), then = std::move(then)] {
    if (self->moved_away_) return;
    self->moved_away_ = true;
    self->bot_pause_.cancel();
    self->clock_timer_.cancel();
    self->low_clock_timer_.cancel();
    self->abandoned_timer_.cancel();
    self->forsaken_timer_.cancel();
    self->unwatched_timer_.cancel();
    self->forget_tokens();
    self->context_.directory->remove_room(self->id_);
    if (then) then();
    self->each_member([](const MemberPtr& c) { c->close(Connection::Close::table_moved); });
  });
}

void Room::after_requests(std::function<void()> f) { on_strand(std::move(f)); }

}  // namespace emporium::server
