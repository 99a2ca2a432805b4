#include "table.hpp"

#include "view_check.hpp"

#include <algorithm>

namespace emporium::load {

namespace {

constexpr int max_created = 32;  // the server's cap on tables created per connection

net::awaitable<void> ask(connection& c, Json message) { co_await c.request(std::move(message)); }

const Json& field_or_null(const Json& frame, const char* name) {
  static const Json null;
  const auto found = frame.find(name);
  return found == frame.end() ? null : *found;
}

}  // namespace

table::table(net::any_io_executor executor, run_state& run, tcp::endpoint server)
    : executor_(executor), run_(run), server_(std::move(server)), rate_timer_(executor) {
  for (int i = 0; i < run.opt.players + run.opt.spectators; ++i) {
    auto v = std::make_unique<viewer>();
    v->player = i < run.opt.players;
    v->seat = v->player ? i : -1;
    v->conn = std::make_unique<connection>(executor, run, [this, self = v.get()](Json& f) { on_frame(*self, f); });
    viewers_.push_back(std::move(v));
  }
}

net::awaitable<void> table::connect() {
  std::vector<net::awaitable<void>> opening;
  for (std::size_t i = 0; i < viewers_.size(); ++i) {
    const auto p = static_cast<std::size_t>(run_.opt.players);
    opening.push_back(open(*viewers_[i], i < p ? "bot" + std::to_string(i) : "spec" + std::to_string(i - p)));
  }
  co_await all(std::move(opening));
  co_await new_game(*viewers_.front());
}

net::awaitable<void> table::open(viewer& v, std::string name) {
  co_await v.conn->open(server_);
  Json hello = {{"type", "hello"}, {"protocol", 1}, {"name", std::move(name)}};  // gcc 12: no braced lists in co_await
  co_await v.conn->request(std::move(hello));
}

net::awaitable<void> table::new_game(viewer& creator) {
  synced_ = 0;
  ready_ = false;
  game_over_seen_ = false;
  finished_version_ = -1;
  pending_.clear();
  in_flight_.reset();
  for (auto& v : viewers_) v->version = -1, v->legal = Json::array();
  id_.clear();
  Json create = {{"type", "create_table"}, {"game", "silkroad"}, {"players", run_.opt.players}};
  const Json seated = co_await creator.conn->request(std::move(create));
  ++creator.created;
  // The creator has seat 0, the other players 1.. in their order, the spectators stay last.
  std::stable_partition(viewers_.begin(), viewers_.end(), [&](const auto& v) { return v.get() == &creator; });
  int seat = 0;
  for (auto& v : viewers_) {
    if (v->player) v->seat = seat++;
  }
  id_ = seated.at("table").at("id").get<std::string>();
  std::vector<net::awaitable<void>> seating;
  for (auto& v : viewers_) {
    if (v.get() == &creator) continue;
    seating.push_back(v->player ? ask(*v->conn, {{"type", "join"}, {"table", id_}, {"seat", v->seat}})
                                : ask(*v->conn, {{"type", "watch"}, {"table", id_}}));
  }
  co_await all(std::move(seating));
  Json start = {{"type", "start"}, {"table", id_}};
  co_await ask(*creator.conn, std::move(start));
}

net::awaitable<void> table::next_game() {
  std::vector<net::awaitable<void>> leaving;
  for (auto& v : viewers_) leaving.push_back(ask(*v->conn, {{"type", "leave"}, {"table", id_}}));
  co_await all(std::move(leaving));
  viewer* creator = nullptr;
  for (auto& v : viewers_) {
    if (v->player && v->created < max_created && (!creator || v->created < creator->created)) creator = v.get();
  }
  if (!creator) {  // every player connection has created all it may: this table rests
    ++run_.count.tables_retired;
    co_return;
  }
  ++run_.count.games_started;
  co_await new_game(*creator);
}

void table::spawn(net::awaitable<void> task) {
  net::co_spawn(executor_, std::move(task), [this](std::exception_ptr failure) {
    if (!failure) return;
    try {
      std::rethrow_exception(failure);
    } catch (const std::exception& e) {
      run_.note_error(e.what());
    }
  });
}

void table::on_frame(viewer& v, Json& frame) {
  const auto& type = field_or_null(frame, "type");
  if (!type.is_string()) return;
  const auto& name = type.get_ref<const std::string&>();
  const auto& of = field_or_null(frame, "table");
  const bool ours = of.is_string() && !id_.empty() && of.get_ref<const std::string&>() == id_;
  if (name == "events") {
    ++run_.count.events_frames_in;
    if (ours) on_events(v, frame);
  } else if (name == "snapshot") {
    if (ours) on_snapshot(v, frame);
  } else if (name == "error") {
    const auto& re = field_or_null(frame, "re");
    if (in_flight_ && re.is_number_integer() && re.get<std::int64_t>() == in_flight_->request_id) {
      return on_act_refused(v, frame);
    }
    const auto code = frame.value("code", "");
    ++run_.count.error_codes[code];
    if (run_.count.first_errors.size() < 5) run_.count.first_errors.push_back(code + ": " + frame.value("message", ""));
  }
}

void table::on_snapshot(viewer& v, Json& frame) {
  const auto& view = field_or_null(frame, "view");
  if (!snapshot_view_ok(view, v.seat)) ++run_.count.view_violations;
  const bool first = v.version < 0;
  const long version = frame.value("version", -1L);
  if (version >= v.version) {
    v.version = version;
    v.legal = frame.contains("legal") ? std::move(frame["legal"]) : Json::array();
  }
  if (first && ++synced_ == viewers_.size()) ready_ = true;
  if (view.is_object() && view.value("phase", "") == "over") game_over_seen_ = true;
  kick();
}

void table::on_events(viewer& v, Json& frame) {
  const long version = frame.value("version", -1L);
  const auto& events = field_or_null(frame, "events");
  if (!events_view_ok(events, v.seat)) ++run_.count.view_violations;
  const bool over = events.is_array() && std::any_of(events.begin(), events.end(), [](const Json& e) {
                      return e.is_object() && e.value("type", "") == "game_over";
                    });
  if (version > v.version) {
    v.version = version;
    v.legal = frame.contains("legal") ? std::move(frame["legal"]) : Json::array();
  }
  if (auto* move = find_pending(version); move && ++move->seen == viewers_.size()) {
    run_.count.latency_ms.push_back(ms_between(move->sent, clock::now()));
    forget_pending(version);
    if (version == finished_version_) on_game_over();
  }
  if (!v.player) return;
  if (in_flight_ && in_flight_->mover == &v && in_flight_->version == version) {
    in_flight_.reset();
    ++run_.count.moves_accepted;
    if (over) {
      ++run_.count.games_finished;
      game_over_seen_ = true;
      finished_version_ = version;
      if (!find_pending(version)) on_game_over();
      return;
    }
  }
  if (over) {
    game_over_seen_ = true;
    return;
  }
  kick();
}

// The act was refused (a stale version or an engine's code): counted, and the mover catches up.
void table::on_act_refused(viewer& v, const Json& frame) {
  forget_pending(in_flight_->version);
  in_flight_.reset();
  ++run_.count.moves_rejected;
  ++run_.count.reject_codes[frame.value("code", "")];
  spawn(ask(*v.conn, {{"type", "snapshot"}, {"table", id_}}));
}

void table::on_game_over() {
  ready_ = false;
  if (run_.opt.game_over != on_end::new_table || !run_.measuring) return;
  spawn(next_game());
}

void table::start_moving(clock::time_point window_start) {
  if (run_.opt.rate > 0) {
    std::uniform_real_distribution<double> period_part(0, 1 / run_.opt.rate);
    next_allowed_ = window_start + std::chrono::duration_cast<clock::duration>(
                                       std::chrono::duration<double>(period_part(run_.rng)));
  }
  kick();
}

void table::stop_moving() { rate_timer_.cancel(); }

void table::close() {
  rate_timer_.cancel();
  for (auto& v : viewers_) v->conn->close();
}

// The player whose decision it is moves: now, or when --rate allows.
void table::kick() {
  if (!run_.measuring || !ready_ || in_flight_ || rate_timer_armed_ || game_over_seen_) return;
  const auto now = clock::now();
  if (now < next_allowed_) {
    rate_timer_armed_ = true;
    rate_timer_.expires_at(next_allowed_);
    rate_timer_.async_wait([this](const boost::system::error_code& error) {
      rate_timer_armed_ = false;
      if (!error) kick();
    });
    return;
  }
  // The newest version any seat has; the mover is a seat at that version with legal actions.
  long latest = -1;
  for (const auto& v : viewers_) {
    if (v->player) latest = std::max(latest, v->version);
  }
  viewer* mover = nullptr;
  bool behind = false;
  for (const auto& v : viewers_) {
    if (!v->player) continue;
    if (v->version != latest) {
      behind = true;
    } else if (!v->legal.empty()) {
      mover = v.get();
      break;
    }
  }
  if (!mover) {  // a seat still behind kicks when its events arrive
    if (!behind) ++run_.count.no_legal_move;
    return;
  }
  std::uniform_int_distribution<std::size_t> pick(0, mover->legal.size() - 1);
  const Json& action = mover->legal[pick(run_.rng)];
  const long version = latest + 1;
  in_flight_ = in_flight{version, mover, run_.next_request_id++};
  pending_.push_back({version, now});
  if (run_.opt.rate > 0) {
    next_allowed_ = now + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(1 / run_.opt.rate));
  }
  ++run_.count.moves_sent;
  Json act = {{"type", "act"}, {"table", id_}, {"version", latest}, {"action", action}, {"id", in_flight_->request_id}};
  mover->conn->send(act.dump(), [this, version, now](clock::time_point sent) {
    if (const double held = ms_between(now, sent); held > 0.5) {
      ++run_.count.paced_acts;
      run_.count.pacing_delay_ms += held;
    }
    if (auto* move = find_pending(version)) move->sent = sent;  // the latency counts from the actual send
  });
}

table::pending_move* table::find_pending(long version) {
  const auto found = std::find_if(pending_.begin(), pending_.end(), [&](auto& p) { return p.version == version; });
  return found == pending_.end() ? nullptr : &*found;
}

void table::forget_pending(long version) {
  std::erase_if(pending_, [&](const auto& p) { return p.version == version; });
}

}  // namespace emporium::load
