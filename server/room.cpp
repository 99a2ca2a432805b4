#include "room.hpp"

#include "commit_queue.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>

#include <emporium/records/records.hpp>

#include "worker_pool.hpp"
#include "lobby.hpp"
#include "metrics.hpp"
#include "secrets.hpp"
#include "websocket_session.hpp"

namespace emporium::server {

namespace perr = protocol::errc;

engine::Replayed replay_stored(const StoredTable& stored) {
  engine::Record record{stored.game, stored.players, stored.options, stored.seed, {}};
  for (const auto& [player, action] : stored.actions) record.actions.push_back({player, action});
  return engine::replay(record);
}

std::optional<protocol::MyGame> describe_seat(const StoredTable& table, const std::string& token_hash,
                                              const std::vector<int>& to_move) {
  const auto held = std::find_if(table.seats.begin(), table.seats.end(), [&](const StoredSeat& s) {
    return same_hash(s.token_hash, token_hash) && s.resumable();
  });
  if (held == table.seats.end()) return std::nullopt;
  protocol::MyGame g;
  g.token = token_hash;
  g.table = table.id;
  g.game = table.game;
  g.state = table.state;
  g.seat = held->seat;
  for (int i = 0; i < table.players; ++i) {
    protocol::SeatInfo seat;
    seat.seat = i;
    g.seats.push_back(seat);
  }
  for (const auto& s : table.seats) {
    g.seats[s.seat].name = s.name;
    if (!s.bot.empty()) g.seats[s.seat].bot = s.bot;
  }
  g.your_turn = std::find(to_move.begin(), to_move.end(), held->seat) != to_move.end();
  g.result = table.result;
  g.updated = table.updated_at;
  if (table.is_private) g.invite = table.invite;
  return g;
}

room::room(net::any_io_executor executor, const server_context& context, const StoredTable& stored)
    : strand_(net::make_strand(executor)),
      context_(context),
      id_(stored.id),
      game_(stored.game),
      invite_(stored.invite),
      is_private_(stored.is_private),
      seed_(stored.seed),
      salt_(stored.salt),
      commitment_(stored.salt.empty() ? "" : records::commitment_of(stored.salt, stored.seed)),
      options_(stored.options),
      rematch_of_(stored.rematch_of),
      epoch_(stored.epoch),
      creator_seat_(stored.creator_seat),
      bot_pause_(strand_),
      clock_config_(stored.clock),
      clock_timer_(strand_),
      abandoned_timer_(strand_),
      unwatched_timer_(strand_),
      updated_(stored.updated_at != 0 ? stored.updated_at : unix_now()),
      rematch_(protocol::rematch_from_json(stored.rematch)) {
  seats_.resize(static_cast<std::size_t>(stored.players));
  for (const auto& s : stored.seats) {
    if (s.seat >= 0 && s.seat < stored.players) {
      seats_[s.seat] = {s.name, s.token_hash, {}, engine::bot::level_from_name(s.bot), s.stand_in, std::nullopt,
                        s.reserved_for};
      // After a restart nobody is connected yet: absence counts from now.
      if (seats_[s.seat].is_person()) seats_[s.seat].away_since = std::chrono::steady_clock::now();
    }
  }
  if (stored.state == "waiting") return;
  auto replayed = replay_stored(stored);
  if (replayed.error) {
    load_error_ = replayed.error->code + ": " + replayed.error->message + " at action " +
                  std::to_string(replayed.failed_at);
    return;
  }
  game_state_ = std::move(replayed.state);
  phase_ = game_state_->is_over() ? phase::finished : phase::playing;
  if (clock_config_) {
    clock_ = turn_clock::from_stored(*clock_config_, stored.players, stored.clock_state, context_.last_alive_ms,
                                     std::chrono::steady_clock::now());
  }
}

// ---- helpers (on the strand) -----------------------------------------------------------------

int room::seat_of(const websocket_session* s) const {
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    if (seats_[i].connection.lock().get() == s) return static_cast<int>(i);
  }
  return -1;
}

bool room::is_spectator(const websocket_session* s) const {
  return std::any_of(spectators_.begin(), spectators_.end(), [s](const auto& w) { return w.lock().get() == s; });
}

int room::seated_count() const {
  return static_cast<int>(std::count_if(seats_.begin(), seats_.end(), [](const seat_slot& s) { return s.occupied(); }));
}

int room::first_person() const {
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    if (seats_[i].is_person()) return static_cast<int>(i);
  }
  return -1;
}

std::string room::unique_name(const std::string& name) const {
  auto folded = [](std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  auto taken = [&](const std::string& candidate) {
    return std::any_of(seats_.begin(), seats_.end(),
                       [&](const seat_slot& st) { return st.taken() && folded(st.name) == folded(candidate); });
  };
  std::string out = name;
  for (int n = 2; taken(out); ++n) out = name + " (" + std::to_string(n) + ")";
  return out;
}

void room::reply(const session_ptr& s, std::string frame) const { s->send(std::move(frame)); }

void room::broadcast(const std::string& frame) const {
  auto shared = std::make_shared<const std::string>(frame);
  each_member([&](const session_ptr& c) { c->send(shared); });
}

std::string room::state_name() const {
  switch (phase_) {
    case phase::waiting: return "waiting";
    case phase::playing: return "playing";
    case phase::finished: return "finished";
  }
  return "?";
}

protocol::TableInfo room::info() const {
  protocol::TableInfo t;
  t.id = id_;
  t.game = game_;
  t.players = static_cast<int>(seats_.size());
  t.options = options_;
  t.is_private = is_private_;
  t.state = state_name();
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    protocol::SeatInfo si;
    si.seat = static_cast<int>(i);
    if (seats_[i].taken()) si.name = seats_[i].name;
    si.reserved = seats_[i].reserved();
    si.connected = seats_[i].bot || !seats_[i].connection.expired();
    if (seats_[i].bot) si.bot = engine::bot::level_name(*seats_[i].bot);
    if (seats_[i].bot && !seats_[i].stand_in.empty()) si.stand_in = seats_[i].stand_in;
    si.away_s = away_seconds(static_cast<int>(i));
    t.seats.push_back(si);
  }
  t.spectators = static_cast<int>(
      std::count_if(spectators_.begin(), spectators_.end(), [](const auto& w) { return !w.expired(); }));
  t.creator_seat = creator_seat_;
  t.clock = clock_config_;
  t.rematch = rematch_;
  if (!rematch_of_.empty()) t.rematch_of = rematch_of_;
  if (!commitment_.empty()) t.commitment = commitment_;
  if (phase_ == phase::finished) {
    t.seed = seed_.to_hex();
    if (!salt_.empty()) t.salt = salt_;
  }
  return t;
}

std::optional<long long> room::away_seconds(int seat) const {
  const auto& st = seats_[static_cast<std::size_t>(seat)];
  if (phase_ != phase::playing || !st.is_person() || !st.connection.expired()) return std::nullopt;
  const auto since = st.away_since.value_or(std::chrono::steady_clock::now());
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - since).count();
}

void room::table_changed() {
  const auto table = info();
  broadcast(protocol::render_table(nullptr, table, live_clock()));
  context_.lobby->update(table);
  watch_abandoned();
  watch_unwatched();
}

bool room::anyone_connected() const {
  return std::any_of(seats_.begin(), seats_.end(), [](const seat_slot& st) { return !st.connection.expired(); }) ||
         std::any_of(spectators_.begin(), spectators_.end(), [](const auto& w) { return !w.expired(); });
}

void room::watch_abandoned() {
  const bool abandoned = phase_ == phase::waiting && std::none_of(seats_.begin(), seats_.end(), [](const seat_slot& st) {
    return st.is_person() && !st.connection.expired();
  });
  abandoned_timer_.update(abandoned, context_.abandoned_after, [self = shared_from_this()] {
    spdlog::info("room {}: closing, nobody has been connected for {} s", self->id_, self->context_.abandoned_after.count());
    self->close_before_start();
  });
}

void room::watch_unwatched() {
  const bool unwatched = phase_ == phase::finished && context_.finished_unwatched_after.count() > 0 && !anyone_connected();
  unwatched_timer_.update(unwatched, context_.finished_unwatched_after, [self = shared_from_this(), seen = lookups()] {
    if (self->anyone_connected()) return;
    if (!self->context_.lobby->release_unwatched(self->id_, self.get(), seen)) {
      self->watch_unwatched();  // looked up meanwhile: count again from now
      return;
    }
    self->forget_tokens();
    spdlog::debug("room {}: finished and unwatched, out of memory (kept in the store)", self->id_);
  });
}

void room::forget_tokens() {
  // Every seat's: a person's, and one a bot holds for its person (away or out of time); a bot's own is never
  // registered, so forgetting it does nothing.
  for (const auto& st : seats_) {
    if (st.occupied()) context_.lobby->unregister_token(st.token_hash);
  }
}

void room::close_before_start() {
  try {
    context_.store->delete_table(id_, epoch_);
  } catch (const std::exception& e) {
    spdlog::error("room {}: deleting: {}", id_, e.what());
  }
  forget_tokens();
  const auto frame = protocol::render_left(nullptr, id_);
  each_member([&](const session_ptr& c) {
    c->left(id_);
    c->send(frame);
  });
  spectators_.clear();
  abandoned_timer_.cancel();
  context_.lobby->remove_room(id_);
}

// What the game reveals at its end (all coins, say) is the engine's decision, made in these views.
engine::Viewer room::viewer_for(int seat) const {
  return seat >= 0 ? engine::Viewer::of_player(seat) : engine::Viewer::spectator();
}

Json room::legal_for(int seat) const {
  Json out = Json::array();
  if (seat < 0 || !game_state_) return out;
  for (auto& a : game_state_->legal_actions(seat)) out.push_back(std::move(a));
  return out;
}

void room::send_snapshot(const session_ptr& s, const Json& re) const {
  if (!game_state_) return;
  const int seat = seat_of(s.get());
  reply(s, protocol::render_snapshot(re, id_, game_state_->version(), seat >= 0 ? Json(seat) : Json(nullptr),
                                     game_state_->view(viewer_for(seat)), legal_for(seat), live_clock(),
                                     shuffle_fields(true)));
}

Json room::shuffle_fields(bool with_commitment) const {
  Json out;  // null when there is nothing to add
  if (with_commitment && !commitment_.empty()) out["commitment"] = commitment_;
  // Never before the end: the seed would tell every hidden card and draw still to come.
  if (phase_ == phase::finished) {
    out["seed"] = seed_.to_hex();
    if (!salt_.empty()) out["salt"] = salt_;
  }
  return out;
}

std::vector<StoredSeat> room::stored_seats() const {
  std::vector<StoredSeat> out;
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    if (!seats_[i].taken()) continue;
    out.push_back({static_cast<int>(i), seats_[i].name, seats_[i].token_hash,
                   seats_[i].bot ? engine::bot::level_name(*seats_[i].bot) : "", seats_[i].bot ? seats_[i].stand_in : "",
                   seats_[i].reserved_for});
  }
  return out;
}

StoredTable room::stored() const {
  StoredTable t;
  t.id = id_;
  t.game = game_;
  t.players = static_cast<int>(seats_.size());
  t.options = options_;
  t.seed = seed_;
  t.salt = salt_;
  t.is_private = is_private_;
  t.invite = invite_;
  t.creator_seat = creator_seat_;
  t.state = state_name();
  t.clock = clock_config_;  // the configuration only: a rematch's clock starts afresh
  t.seats = stored_seats();
  if (rematch_) t.rematch = protocol::rematch_json(*rematch_);
  t.rematch_of = rematch_of_;
  if (phase_ == phase::finished) t.result = game_state_->result();
  t.updated_at = updated_;
  return t;
}

void room::save_seats() {
  context_.store->save_seats(id_, stored_seats(), static_cast<int>(seats_.size()), creator_seat_, epoch_);
  updated_ = unix_now();
}

bool room::seats_saved(int seat, seat_slot before, const session_ptr& s, const Json& re, const char* failure) {
  try {
    save_seats();
    return true;
  } catch (const std::exception& e) {
    spdlog::error("room {}: saving seats: {}", id_, e.what());
    seats_[seat] = std::move(before);
    reply(s, protocol::render_error(re, perr::internal_error, failure));
    return false;
  }
}

// ---- requests --------------------------------------------------------------------------------

void room::join(session_ptr s, std::string name, std::optional<int> wanted, Json re) {
  on_strand([self = shared_from_this(), s = std::move(s), name = std::move(name), wanted, re = std::move(re)] {
    auto& r = *self;
    if (r.phase_ != phase::waiting) {
      return r.reply(s, protocol::render_error(re, perr::already_started, "the game at this table has started"));
    }
    if (r.seat_of(s.get()) >= 0) {
      return r.reply(s, protocol::render_error(re, perr::already_seated, "you already have a seat at this table"));
    }
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
      for (std::size_t i = 0; i < r.seats_.size() && chosen < 0; ++i) {
        if (!r.seats_[i].taken()) chosen = static_cast<int>(i);
      }
      if (chosen < 0) return r.reply(s, protocol::render_error(re, perr::table_full, "every seat is taken"));
    }
    const bool first = r.seated_count() == 0;
    const auto token = new_seat_token();
    r.seats_[chosen] = {r.unique_name(name), hash_token(token), s, std::nullopt, {}, std::nullopt, {}};
    if (first) r.creator_seat_ = chosen;
    if (!r.seats_saved(chosen, {}, s, re, "the seat could not be saved; try again")) return;
    r.welcome_seated(chosen, s, re, token);
  });
}

void room::welcome_seated(int seat, const session_ptr& s, const Json& re, const std::string& token, bool reclaimed) {
  auto self = shared_from_this();
  context_.lobby->register_token(seats_[seat].token_hash, self);
  // A spectator who sits down stops being a spectator.
  std::erase_if(spectators_, [&](const auto& w) { return w.lock() == s || w.expired(); });
  s->joined(self);
  const auto invite = is_private_ ? std::optional<std::string>(invite_) : std::nullopt;
  reply(s, protocol::render_seated(re, info(), seat, token, invite, reclaimed, live_clock()));
  send_snapshot(s, nullptr);  // once the game has started
  table_changed();
}

void room::watch(session_ptr s, Json re) {
  on_strand([self = shared_from_this(), s = std::move(s), re = std::move(re)] {
    auto& r = *self;
    if (r.seat_of(s.get()) < 0 && !r.is_spectator(s.get())) {
      std::erase_if(r.spectators_, [](const auto& w) { return w.expired(); });
      r.spectators_.push_back(s);
    }
    s->joined(self);
    r.reply(s, protocol::render_watching(re, r.info(), r.live_clock()));
    r.send_snapshot(s, nullptr);
    r.table_changed();
  });
}

void room::leave(session_ptr s, Json re) {
  on_strand([self = shared_from_this(), s = std::move(s), re = std::move(re)] {
    auto& r = *self;
    const int seat = r.seat_of(s.get());
    if (seat >= 0) {
      if (r.phase_ == phase::playing) {
        // A bot plays the seat for the rest of the game; the seat keeps the person's name, and their token
        // stops working (a new one, never handed out, marks the seat taken).
        const auto before = r.seats_[seat];
        auto& st = r.seats_[seat];
        st.bot = engine::bot::Level::normal;
        st.stand_in = "left";
        st.token_hash = hash_token(new_seat_token());
        st.connection.reset();
        st.away_since.reset();
        if (!r.seats_saved(seat, before, s, re, "the seat could not be handed to a bot; try again")) return;
        r.context_.lobby->unregister_token(before.token_hash);
        r.update_clock();
        r.save_clock();
        s->left(r.id_);
        r.reply(s, protocol::render_left(re, r.id_));
        r.table_changed();
        r.run_bot_if_its_turn();
        return;
      }
      if (r.phase_ == phase::waiting) {
        r.context_.lobby->unregister_token(r.seats_[seat].token_hash);
        r.seats_[seat] = {};
        if (r.first_person() < 0) {
          // A table that never started is closed when its last person leaves (bots do not keep it); closed
          // before the reply, so whoever hears of it finds it gone.
          s->left(r.id_);
          r.close_before_start();
          return r.reply(s, protocol::render_left(re, r.id_));
        }
        if (seat == r.creator_seat_) r.creator_seat_ = r.first_person();
        r.save_seats();
      } else {
        r.seats_[seat].connection.reset();  // finished: just go
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

void room::start(session_ptr s, Json re) {
  on_strand([self = shared_from_this(), s = std::move(s), re = std::move(re)] {
    auto& r = *self;
    const int seat = r.seat_of(s.get());
    if (seat < 0) return r.reply(s, protocol::render_error(re, perr::not_seated, "you are not seated at this table"));
    if (seat != r.creator_seat_) {
      return r.reply(s, protocol::render_error(re, perr::not_creator, "only the table's creator can start the game"));
    }
    if (r.phase_ != phase::waiting) return r.reply(s, protocol::render_error(re, perr::already_started, "the game has started"));
    const auto* info = engine::find_game(r.game_);
    const int seated = r.seated_count();
    if (seated < info->min_players) {
      return r.reply(s, protocol::render_error(re, perr::not_enough_players,
                                               info->display_name + " needs at least " +
                                                   std::to_string(info->min_players) + " players"));
    }
    // Empty seats are dropped: the players are renumbered in seat order.
    std::vector<seat_slot> players;
    int creator = 0;
    for (std::size_t i = 0; i < r.seats_.size(); ++i) {
      if (!r.seats_[i].occupied()) continue;  // reserved seats nobody took go like empty ones
      if (static_cast<int>(i) == r.creator_seat_) creator = static_cast<int>(players.size());
      players.push_back(r.seats_[i]);
    }
    auto created = engine::create_game(r.game_, seated, r.options_, r.seed_);
    if (created.error) {
      return r.reply(s, protocol::render_error(re, created.error->code, created.error->message));
    }
    const auto old_seats = r.seats_;
    const int old_creator = r.creator_seat_;
    r.seats_ = std::move(players);
    r.creator_seat_ = creator;
    try {
      r.save_seats();
      if (r.clock_config_) {
        // The clock starts with the game; it is stored before the game is, so a started timed game has one.
        r.clock_.emplace(*r.clock_config_, seated);
        r.context_.store->save_clock(r.id_, r.clock_->to_stored(std::chrono::steady_clock::now(), unix_ms_now()), r.epoch_);
      }
      r.context_.store->set_state(r.id_, "playing", nullptr, r.epoch_);
    } catch (const std::exception& e) {
      spdlog::error("room {}: starting: {}", r.id_, e.what());
      r.seats_ = old_seats;
      r.creator_seat_ = old_creator;
      r.clock_.reset();
      return r.reply(s, protocol::render_error(re, perr::internal_error, "the game could not be started; try again"));
    }
    r.game_state_ = std::move(created.state);
    r.phase_ = phase::playing;
    r.update_clock();
    r.save_clock();
    r.reply(s, protocol::render_ack(re, 0));
    r.table_changed();
    for (const auto& st : r.seats_) {
      if (auto c = st.connection.lock()) r.send_snapshot(c, nullptr);
    }
    for (const auto& w : r.spectators_) {
      if (auto c = w.lock()) r.send_snapshot(c, nullptr);
    }
    r.last_move_ = std::chrono::steady_clock::now();
    r.run_bot_if_its_turn();
  });
}

void room::resume(session_ptr s, std::string token, Json re) {
  on_strand([self = shared_from_this(), s = std::move(s), token = std::move(token), re = std::move(re)] {
    auto& r = *self;
    const auto hash = hash_token(token);
    auto it = std::find_if(r.seats_.begin(), r.seats_.end(),
                           [&](const seat_slot& st) { return same_hash(st.token_hash, hash); });
    if (it == r.seats_.end()) return r.reply(s, protocol::render_error(re, perr::bad_token, "that seat token is not valid"));
    const int seat = static_cast<int>(it - r.seats_.begin());
    auto previous = it->connection.lock();
    if (previous && previous != s) {
      // The newer connection wins; the older one is told and leaves the table.
      previous->send(protocol::render_error(nullptr, perr::replaced, "your seat at table " + r.id_ +
                                                                     " was resumed from another connection"));
      previous->left(r.id_);
    }
    // A bot standing in for this absent player stands down at once (a decision it has pending is dropped
    // when it lands: bot_decided checks that the seat still has a bot).
    bool reclaimed = false;
    if (it->held_for_person()) {
      const auto before = *it;
      it->bot.reset();
      it->stand_in.clear();
      if (!r.seats_saved(seat, before, s, re, "your seat could not be restored; try again")) return;
      reclaimed = true;
      if (r.clock_) r.clock_->clear_timeouts(seat);
      r.update_clock();  // their decision, if it is theirs now, starts with the whole turn time
      r.save_clock();
    }
    it->connection = s;
    it->away_since.reset();
    r.welcome_seated(seat, s, re, token, reclaimed);
  });
}

void room::act(session_ptr s, std::uint64_t version, Json action, Json re,
               std::chrono::steady_clock::time_point received) {
  on_strand([self = shared_from_this(), s = std::move(s), version, action = std::move(action), re = std::move(re),
             received] {
    auto& r = *self;
    auto refuse = [&](const std::string& code, const std::string& message) {
      r.context_.metrics->action_rejected(code);
      r.reply(s, protocol::render_error(re, code, message));
    };
    const int seat = r.seat_of(s.get());
    if (seat < 0) return refuse(perr::not_seated, "only a seated player can act");
    if (r.phase_ == phase::waiting) return refuse(perr::not_started, "the game has not started");
    if (version != r.game_state_->version()) {
      return refuse(perr::stale_version, "the table is at version " + std::to_string(r.game_state_->version()) +
                                             ", your action was made at version " + std::to_string(version));
    }
    if (auto error = r.play(seat, action, s, re, false, received)) return refuse(error->code, error->message);
  });
}

std::optional<engine::Error> room::play(int seat, const Json& action, const session_ptr& actor, const Json& re,
                                        bool timed_out, std::optional<std::chrono::steady_clock::time_point> received) {
  if (moved_away_) return engine::Error{protocol::errc::internal_error, "this table moved to another node: connect again"};
  auto& game = *game_state_;
  auto result = game.apply(seat, action);
  if (!result.ok()) return result.error;
  if (game.is_over()) phase_ = phase::finished;
  pending_move move{seat, actor, re, timed_out, 0, clock_, std::move(result.events), received};
  if (clock_) {
    // The decision is made: the next one's clock starts now, and is stored with the move.
    clock_->stop(std::chrono::steady_clock::now());
    if (seats_[seat].is_person()) move.timeouts = clock_->count_decision(seat, timed_out);
    update_clock();
  }
  ActionWrite write{id_, game.version() - 1, seat, action.dump(),
                    clock_ ? clock_->to_stored(std::chrono::steady_clock::now(), unix_ms_now()).dump() : std::string(),
                    game.is_over() ? game.result().dump() : std::string(), epoch_};
  // Written before anyone is told: until the commit queue says so, the room holds back whatever it is asked.
  committing_ = true;
  // The queue calls back once: the move (its events, the actor, the clock) is handed on, not copied.
  context_.commits->append(std::move(write), [self = shared_from_this(), move = std::move(move)](bool stored) mutable {
    net::post(self->strand_, [self, move = std::move(move), stored]() mutable { self->move_stored(std::move(move), stored); });
  });
  return std::nullopt;
}

void room::move_stored(pending_move move, bool stored) {
  committing_ = false;
  last_move_ = std::chrono::steady_clock::now();  // after a failure too: a bot tries again no sooner than bot_delay
  if (stored) {
    updated_ = unix_now();
    announce(std::move(move));
  } else {
    // Undo in memory by replaying the stored record, so memory never runs ahead of the disk.
    if (auto table = context_.store->load(id_)) {
      if (auto replayed = replay_stored(*table); !replayed.error) game_state_ = std::move(replayed.state);
    }
    phase_ = game_state_->is_over() ? phase::finished : phase::playing;
    clock_ = move.clock_before;
    update_clock();
    context_.metrics->action_rejected(perr::internal_error);
    if (move.actor) reply(move.actor, protocol::render_error(move.re, perr::internal_error, "the action could not be saved; try again"));
    run_bot_if_its_turn();
  }
  // What was asked meanwhile, in order, until one of those asks is a move being stored in its turn.
  while (!committing_ && !deferred_.empty()) {
    auto next = std::move(deferred_.front());
    deferred_.pop_front();
    next();
  }
}

void room::announce(pending_move move) {
  auto& events = move.events;
  // Everybody sees that the clock, not the player, made this move.
  if (move.timed_out) events.insert(events.begin(), engine::Event::public_event({{"type", "timeout"}, {"player", move.seat}}));
  const auto v = game_state_->version();
  const auto clock = live_clock();
  const auto reveal = shuffle_fields(false);  // the seed and salt, on the frames of the move that ends the game
  // The mover's ack goes with its events, in one write; first, as before.
  std::string ack = move.actor ? protocol::render_ack(move.re, v) : std::string();
  auto send = [&](const session_ptr& c, std::shared_ptr<const std::string> frame) {
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
    auto c = seats_[p].connection.lock();
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
  if (phase_ == phase::finished) {
    spdlog::info("room {}: {} is over after {} moves", id_, game_, v);
    table_changed();
  }
  run_bot_if_its_turn();
}

// ---- bots ------------------------------------------------------------------------------------

bool room::creator_before_start(const session_ptr& s, const Json& re) {
  const int seat = seat_of(s.get());
  if (seat < 0) {
    reply(s, protocol::render_error(re, perr::not_seated, "you are not seated at this table"));
  } else if (seat != creator_seat_) {
    reply(s, protocol::render_error(re, perr::not_creator, "only the table's creator can seat or remove bots"));
  } else if (phase_ != phase::waiting) {
    reply(s, protocol::render_error(re, perr::already_started, "the game has started"));
  } else {
    return true;
  }
  return false;
}

void room::add_bot(session_ptr s, int seat, std::string level, Json re) {
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
    // "Bot 1", "Bot 2", ...: the lowest number no bot at the table has.
    int number = 1;
    while (std::any_of(r.seats_.begin(), r.seats_.end(),
                       [&](const seat_slot& st) { return st.bot && st.name == "Bot " + std::to_string(number); })) {
      ++number;
    }
    r.seats_[seat] = {"Bot " + std::to_string(number), hash_token(new_seat_token()), {}, bot_level, {}, std::nullopt, {}};
    if (!r.seats_saved(seat, {}, s, re, "the bot could not be seated; try again")) return;
    r.reply(s, protocol::render_ack(re, 0));
    r.table_changed();
  });
}

void room::remove_bot(session_ptr s, int seat, Json re) {
  on_strand([self = shared_from_this(), s = std::move(s), seat, re = std::move(re)] {
    auto& r = *self;
    if (!r.creator_before_start(s, re)) return;
    if (seat >= static_cast<int>(r.seats_.size()) || !r.seats_[seat].bot) {
      return r.reply(s, protocol::render_error(re, perr::bad_message, "seat " + std::to_string(seat) + " has no bot"));
    }
    const auto removed = r.seats_[seat];
    r.seats_[seat] = {};
    if (!r.seats_saved(seat, removed, s, re, "the bot could not be removed; try again")) return;
    r.reply(s, protocol::render_ack(re, 0));
    r.table_changed();
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

void room::replace_absent(session_ptr s, int seat, Json re) {
  on_strand([self = shared_from_this(), s = std::move(s), seat, re = std::move(re)] {
    auto& r = *self;
    const int own = r.seat_of(s.get());
    if (own < 0) {
      return r.reply(s, protocol::render_error(re, perr::not_seated, "only a seated player can hand a seat to a bot"));
    }
    if (r.phase_ == phase::waiting) return r.reply(s, protocol::render_error(re, perr::not_started, "the game has not started"));
    if (r.phase_ == phase::finished) return r.reply(s, protocol::render_error(re, engine::errc::game_over, "the game has ended"));
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
    st.stand_in = "absent";  // the token stays theirs: resuming takes the seat back
    if (!r.seats_saved(seat, before, s, re, "the seat could not be handed to a bot; try again")) return;
    r.reply(s, protocol::render_ack(re, r.game_state_->version()));
    r.table_changed();
    r.run_bot_if_its_turn();
  });
}

void room::expire_when_unwatched() {
  on_strand([self = shared_from_this()] { self->watch_unwatched(); });
}

void room::move_away(std::function<void()> then) {
  on_strand([self = shared_from_this(), then = std::move(then)] {
    if (self->moved_away_) return;
    self->moved_away_ = true;
    self->bot_pause_.cancel();
    self->clock_timer_.cancel();
    self->abandoned_timer_.cancel();
    self->unwatched_timer_.cancel();
    self->forget_tokens();
    self->context_.lobby->remove_room(self->id_);
    if (then) then();
    self->each_member([](const session_ptr& c) { c->close_table_moved(); });
  });
}

void room::carry_on() {
  on_strand([self = shared_from_this()] {
    self->watch_abandoned();  // restored before anyone can connect: a waiting table's time runs from the restart
    self->update_clock();
    self->save_clock();  // the decision's start moved by the downtime: a second restart must not charge it
    self->run_bot_if_its_turn();
  });
}

void room::run_bot_if_its_turn() {
  if (phase_ != phase::playing || bot_thinking_ || !context_.bots || moved_away_) return;
  // Most tables have no bot and no clock: they skip the engine's to_move() on every move.
  const bool out_of_time = clock_ && clock_->deadline() && std::chrono::steady_clock::now() >= *clock_->deadline();
  if (!out_of_time &&
      std::none_of(seats_.begin(), seats_.end(), [](const seat_slot& st) { return st.bot.has_value(); })) {
    return;
  }
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

void room::bot_decided(int seat, std::uint64_t version, Json action, bool timed_out) {
  if (committing_) {
    deferred_.emplace_back([self = shared_from_this(), seat, version, action = std::move(action), timed_out]() mutable {
      self->bot_decided(seat, version, std::move(action), timed_out);
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
  if (phase_ != phase::playing || game_state_->version() != version || !still_due) return run_bot_if_its_turn();
  if (auto error = play(seat, action, nullptr, nullptr, timed_out)) {
    // Not expected (a bot answers from the legal list); the table must not stall on it.
    spdlog::error("room {}: the bot in seat {} chose a refused move {}: {}", id_, seat, action.dump(), error->message);
    const auto legal = game_state_->legal_actions(seat);
    if (legal.empty() || play(seat, legal.front(), nullptr, nullptr, timed_out)) return;
  }
  context_.metrics->bot_move();
}

// ---- turn clocks -----------------------------------------------------------------------------

void room::update_clock() {
  if (!clock_) return;
  const auto now = std::chrono::steady_clock::now();
  std::optional<int> person;
  if (phase_ == phase::playing) {
    const auto movers = game_state_->to_move();
    if (!movers.empty() && seats_[movers.front()].is_person()) person = movers.front();
  }
  if (clock_->running_seat() != person) {
    clock_->stop(now);
    if (person) clock_->start(*person, now);
  }
  ++clock_generation_;
  clock_timer_.cancel();
  const auto deadline = clock_->deadline();
  if (!deadline) return;
  clock_timer_.expires_at(*deadline);
  clock_timer_.async_wait([self = shared_from_this(), generation = clock_generation_](boost::system::error_code ec) {
    if (!ec && generation == self->clock_generation_) self->run_bot_if_its_turn();
  });
}

void room::save_clock() {
  if (!clock_) return;
  try {
    context_.store->save_clock(id_, clock_->to_stored(std::chrono::steady_clock::now(), unix_ms_now()), epoch_);
  } catch (const std::exception& e) {
    // The clock in memory goes on; after a restart the last stored one (a move's) is used.
    spdlog::error("room {}: saving the clock: {}", id_, e.what());
  }
}

Json room::live_clock() const {
  return clock_ ? clock_->live(std::chrono::steady_clock::now()) : Json();
}

void room::hand_to_bot_after_timeouts(int seat) {
  auto& st = seats_[seat];
  const auto before = st;
  st.bot = engine::bot::Level::normal;
  st.stand_in = "timeout";  // the token stays theirs: resuming takes the seat back
  try {
    save_seats();
  } catch (const std::exception& e) {
    spdlog::error("room {}: handing seat {} to a bot: {}", id_, seat, e.what());
    st = before;
    return;
  }
  update_clock();
  save_clock();
  table_changed();
}

void room::snapshot(session_ptr s, Json re) {
  on_strand([self = shared_from_this(), s = std::move(s), re = std::move(re)] {
    auto& r = *self;
    if (r.seat_of(s.get()) < 0 && !r.is_spectator(s.get())) {
      return r.reply(s, protocol::render_error(re, perr::not_seated, "join or watch the table first"));
    }
    if (!r.game_state_) {
      return r.reply(s, protocol::render_table(re, r.info()));  // before the start, the table is all there is
    }
    r.send_snapshot(s, re);
  });
}

void room::chat(session_ptr s, std::string name, std::string text, Json re) {
  on_strand([self = shared_from_this(), s = std::move(s), name = std::move(name), text = std::move(text),
             re = std::move(re)] {
    auto& r = *self;
    const int seat = r.seat_of(s.get());
    if (seat < 0 && !r.is_spectator(s.get())) {
      return r.reply(s, protocol::render_error(re, perr::not_seated, "join or watch the table to chat"));
    }
    const std::string& from = seat >= 0 ? r.seats_[seat].name : name;
    r.broadcast(protocol::render_chat(r.id_, from, seat >= 0 ? Json(seat) : Json(nullptr), text));
    r.reply(s, protocol::render_ack(re, r.game_state_ ? r.game_state_->version() : 0));
  });
}

void room::disconnected(websocket_session* session) {
  on_strand([self = shared_from_this(), session] {
    auto& r = *self;
    auto gone = [session](const std::weak_ptr<websocket_session>& w) {
      auto c = w.lock();
      return !c || c.get() == session;
    };
    for (auto& st : r.seats_) {
      if (!gone(st.connection)) continue;
      st.connection.reset();
      if (st.is_person() && !st.away_since) st.away_since = std::chrono::steady_clock::now();
    }
    std::erase_if(r.spectators_, gone);
    r.table_changed();
  });
}

// ---- rematch and my_games ----------------------------------------------------------------------

StoredTable room::rematch_table(int offerer, const std::string& offerer_token) const {
  // Everything the table was set up with carries over; the seed (so the start player), its salt and the invite are new.
  StoredTable next = stored();
  next.id = new_table_id();
  next.seed = new_game_seed();
  next.salt = new_salt();
  next.invite = is_private_ ? new_invite_code() : "";
  next.state = "waiting";
  next.creator_seat = offerer;
  next.rematch = nullptr;
  next.rematch_of = id_;
  next.result = nullptr;
  next.seats.clear();
  for (const auto& seat : stored_seats()) {
    if (seat.seat == offerer) {
      next.seats.push_back({seat.seat, seat.name, hash_token(offerer_token), "", "", ""});
    } else if (!seat.bot.empty() && seat.stand_in.empty()) {
      next.seats.push_back({seat.seat, seat.name, hash_token(new_seat_token()), seat.bot, "", ""});  // the same bot again
    } else if (seat.resumable()) {
      next.seats.push_back({seat.seat, seat.name, "", "", "", seat.token_hash});  // kept for its person
    }
    // A seat its person left during the game stays empty.
  }
  return next;
}

void room::rematch(session_ptr s, Json re, std::function<void()> answered) {
  on_strand([self = shared_from_this(), s = std::move(s), re = std::move(re), answered = std::move(answered)]() mutable {
    auto& r = *self;
    const int seat = r.seat_of(s.get());
    if (seat < 0) {
      r.reply(s, protocol::render_error(re, perr::not_seated, "only a player of this table can ask for a rematch"));
      return answered();
    }
    if (r.phase_ != phase::finished) {
      r.reply(s, protocol::render_error(re, perr::not_finished, "the game at this table has not ended"));
      return answered();
    }
    if (r.rematch_) return r.join_rematch(std::move(s), seat, std::move(re), std::move(answered));
    r.offer_rematch(std::move(s), seat, std::move(re), std::move(answered));
  });
}

// On the strand, so that two first calls cannot both create a rematch on this node; with several, the store's
// compare-and-set lets only one node's offer in (create_rematch's `replaces`), and the others join that one.
void room::offer_rematch(session_ptr s, int seat, Json re, std::function<void()> answered) {
  const auto token = new_seat_token();
  auto table = rematch_table(seat, token);
  const protocol::RematchOffer offer{table.id, seat, is_private_ ? std::optional<std::string>(table.invite) : std::nullopt};
  auto made = context_.lobby->create_rematch(std::move(table), offer, rematch_);
  if (made.instead) {
    rematch_ = std::move(made.instead);  // offered on another node meanwhile: the caller joins that one
    updated_ = unix_now();
    table_changed();
    return join_rematch(std::move(s), seat, std::move(re), std::move(answered));
  }
  if (!made.table) {
    reply(s, protocol::render_error(re, perr::internal_error, "the rematch could not be saved"));
    return answered();
  }
  rematch_ = offer;
  updated_ = unix_now();
  made.table->resume(s, token, re);  // the offerer takes the seat made for them: the reply is `seated`
  made.table->after_requests(std::move(answered));
  table_changed();  // the offer, to everyone at this table
}

// The caller's kept seat at the offered rematch, wherever that table is: here, or (several nodes) on another node,
// which hands it over. If it closed before its start (everyone left it), a new rematch is offered.
void room::join_rematch(session_ptr s, int seat, Json re, std::function<void()> answered) {
  const std::string offered = rematch_->table;
  context_.lobby->find_id(offered, [self = shared_from_this(), s = std::move(s), seat, re = std::move(re),
                                    answered = std::move(answered), offered](std::shared_ptr<room> next) mutable {
    self->on_strand([self, s = std::move(s), seat, re = std::move(re), answered = std::move(answered), offered,
                     next = std::move(next)]() mutable {
      auto& r = *self;
      if (next) {
        next->claim_reserved(s, seat, r.seats_[seat].token_hash, re);
        return next->after_requests(std::move(answered));
      }
      if (r.rematch_ && r.rematch_->table != offered) {  // another call offered a new one meanwhile
        return r.join_rematch(std::move(s), seat, std::move(re), std::move(answered));
      }
      if (r.offered_table_exists(offered)) {  // there, but its node did not hand it over in time
        r.reply(s, protocol::render_error(re, perr::internal_error, "the rematch cannot be reached now; try again"));
        return answered();
      }
      r.offer_rematch(std::move(s), seat, std::move(re), std::move(answered));
    });
  });
}

bool room::offered_table_exists(const std::string& id) const {
  try {
    return context_.store->load(id, /*with_actions=*/false).has_value();
  } catch (const std::exception& e) {
    spdlog::error("table {}: reading its rematch {}: {}", id_, id, e.what());
    return true;  // unknown: not offered again
  }
}

void room::claim_reserved(session_ptr s, int seat, std::string claim, Json re) {
  on_strand([self = shared_from_this(), s = std::move(s), seat, claim = std::move(claim), re = std::move(re)] {
    auto& r = *self;
    if (r.phase_ != phase::waiting) {
      return r.reply(s, protocol::render_error(re, perr::already_started, "the rematch has started"));
    }
    auto& st = r.seats_[seat];  // a rematch has the seats of the table it replays
    // Asked twice: the seat again, with a fresh token (only its hash is kept, so the first cannot be resent).
    const bool again = st.occupied() && st.connection.lock() == s;
    if (!again && !same_hash(st.reserved_for, claim)) {
      return r.reply(s, protocol::render_error(re, perr::seat_taken, "your seat at the rematch is no longer kept for you"));
    }
    const auto before = st;
    const auto token = new_seat_token();
    st.token_hash = hash_token(token);
    st.reserved_for.clear();
    st.connection = s;
    if (!r.seats_saved(seat, before, s, re, "the seat could not be saved; try again")) return;
    if (again) r.context_.lobby->unregister_token(before.token_hash);
    r.welcome_seated(seat, s, re, token);
  });
}

void room::after_requests(std::function<void()> f) { on_strand(std::move(f)); }

void room::describe(std::string token_hash, std::function<void(std::optional<protocol::MyGame>)> done) {
  on_strand([self = shared_from_this(), token_hash = std::move(token_hash), done = std::move(done)] {
    auto& r = *self;
    done(describe_seat(r.stored(), token_hash,
                       r.phase_ == phase::playing ? r.game_state_->to_move() : std::vector<int>{}));
  });
}

}  // namespace emporium::server
