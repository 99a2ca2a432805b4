#include "lobby.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

#include <condition_variable>
#include <deque>
#include <thread>

#include <emporium/engine/registry.hpp>

#include "cluster.hpp"
#include "room.hpp"
#include "secrets.hpp"
#include "store.hpp"
#include "websocket_session.hpp"

namespace emporium::server {

lobby::lobby(net::any_io_executor executor, server_context& context)
    : executor_(std::move(executor)), context_(context) {}

std::size_t lobby::restore() {
  // Replaying the records is most of a restart's time, and every table is independent: while the store reads,
  // one thread per core replays the tables already read. Then they are registered in creation order (the
  // lobby lists them in that order).
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<std::pair<std::size_t, StoredTable>> queue;
  bool all_read = false;
  std::vector<std::shared_ptr<room>> built;
  std::vector<std::vector<StoredSeat>> seats;
  auto build = [&] {
    for (;;) {
      std::unique_lock lock(mutex);
      ready.wait(lock, [&] { return !queue.empty() || all_read; });
      if (queue.empty()) return;
      auto [place, stored] = std::move(queue.front());
      queue.pop_front();
      lock.unlock();
      stored.parse_actions();
      auto table = loaded(stored);
      lock.lock();
      if (built.size() <= place) {
        built.resize(place + 1);
        seats.resize(place + 1);
      }
      built[place] = std::move(table);
      seats[place] = std::move(stored.seats);
    }
  };
  std::vector<std::thread> builders;
  for (unsigned t = 0; t < std::max(1u, std::thread::hardware_concurrency()); ++t) builders.emplace_back(build);
  context_.store->load_unfinished([&](std::size_t place, StoredTable&& table) {
    {
      std::lock_guard lock(mutex);
      queue.emplace_back(place, std::move(table));
    }
    ready.notify_one();
  });
  {
    std::lock_guard lock(mutex);
    all_read = true;
  }
  ready.notify_all();
  for (auto& b : builders) b.join();
  std::size_t restored = 0;
  for (std::size_t i = 0; i < built.size(); ++i) {
    if (!built[i]) continue;
    register_room(built[i], seats[i])->carry_on();
    ++restored;
  }
  return restored;
}

std::shared_ptr<room> lobby::loaded(const StoredTable& stored) {
  auto table = std::make_shared<room>(executor_, context_, stored);
  if (table->load_error()) {
    spdlog::error("table {} cannot be restored: {}", stored.id, *table->load_error());
    return nullptr;
  }
  return table;
}

std::shared_ptr<room> lobby::rebuild(StoredTable stored) {
  auto table = loaded(stored);
  return table ? register_room(table, stored.seats) : nullptr;
}

std::shared_ptr<room> lobby::register_room(const std::shared_ptr<room>& table, const std::vector<StoredSeat>& seats) {
  const auto info = table->info();
  std::lock_guard lock(mutex_);
  const auto [it, added] = rooms_.try_emplace(table->id(), table);
  it->second->looked_up();
  if (!added) return it->second;
  if (!table->invite().empty()) by_invite_[table->invite()] = table;
  // Not yet published: the creator's join follows at once, and its update() tells watchers. Another node's
  // listing of it (it was taken over from there) gives way.
  drop_summary(table->id());
  const auto& added_summary = summaries_[table->id()] = summary{info, next_sequence_++, {}};
  place(added_summary, true);
  for (const auto& seat : seats) {
    if (seat.resumable()) by_token_[seat.token_hash] = table;
  }
  return table;
}

lobby::created lobby::create_table(const protocol::CreateTable& request) {
  // The engine checks the game, the seat count and the options.
  auto check = engine::create_game(request.game, request.players, request.options, 0);
  if (check.error) return {nullptr, protocol::ParseError{nullptr, check.error->code, check.error->message}};
  StoredTable stored;
  stored.id = new_table_id();
  stored.game = request.game;
  stored.players = request.players;
  stored.options = check.options;
  stored.seed = new_game_seed();
  stored.salt = new_salt();
  stored.is_private = request.is_private;
  if (request.is_private) stored.invite = new_invite_code();
  stored.clock = request.clock;
  own(stored);
  try {
    context_.store->create_table(stored);
  } catch (const std::exception& e) {
    spdlog::error("creating a table: {}", e.what());
    return {nullptr, protocol::ParseError{nullptr, protocol::errc::internal_error, "the table could not be saved"}};
  }
  return {registered_new(std::move(stored)), std::nullopt};  // its creator's token is registered when they take the seat
}

void lobby::own(StoredTable& table) const {
  if (!context_.cluster) return;
  table.owner = context_.cluster->node();
  table.epoch = 1;
}

std::shared_ptr<room> lobby::registered_new(StoredTable stored) {
  const auto id = stored.id;
  auto table = rebuild(std::move(stored));
  if (table && context_.cluster) context_.cluster->hold(id);
  return table;
}

lobby::rematch_made lobby::create_rematch(StoredTable table, const protocol::RematchOffer& offer,
                                          const std::optional<protocol::RematchOffer>& replaces) {
  own(table);
  try {
    const auto instead = context_.store->create_rematch(table, protocol::rematch_json(offer),
                                                        replaces ? protocol::rematch_json(*replaces) : nlohmann::json());
    if (instead) return {nullptr, protocol::rematch_from_json(*instead)};
  } catch (const std::exception& e) {
    spdlog::error("creating the rematch of {}: {}", table.rematch_of, e.what());
    return {};
  }
  return {registered_new(std::move(table)), std::nullopt};
}

namespace {
// A store lookup whose failure is logged and counts as not found.
template <class F>
std::optional<std::string> looked_up_in_store(F&& lookup) {
  try {
    return lookup();
  } catch (const std::exception& e) {
    spdlog::error("looking a table up in the store: {}", e.what());
    return std::nullopt;
  }
}
}  // namespace

lobby::lookup lobby::find(const protocol::TableRef& ref, taken_callback later) {
  if (ref.table) {
    // A private table is found only by its invite code (or a seat's token).
    if (auto table = find_local(*ref.table)) return {table->is_private() ? nullptr : table};
    return from_store(*ref.table, /*by_public_id=*/true, std::move(later));
  }
  {
    std::lock_guard lock(mutex_);
    if (auto it = by_invite_.find(*ref.invite); it != by_invite_.end()) return {handed_out(it->second.lock())};
  }
  const auto id = looked_up_in_store([&] { return context_.store->table_of_invite(*ref.invite); });
  return id ? from_store(*id, false, std::move(later)) : lookup{};
}

std::shared_ptr<room> lobby::find_id(const std::string& id) {
  if (auto table = find_local(id)) return table;
  return from_store(id, false, nullptr).table;
}

void lobby::find_id(const std::string& id, taken_callback found) {
  if (auto table = find_local(id)) return found(std::move(table));
  auto looked_up = from_store(id, false, found);
  if (!looked_up.pending) found(std::move(looked_up.table));
}

lobby::lookup lobby::find_by_token(const std::string& token, taken_callback later) {
  const auto hash = hash_token(token);
  {
    std::lock_guard lock(mutex_);
    if (auto it = by_token_.find(hash); it != by_token_.end()) return {handed_out(it->second.lock())};
  }
  const auto id = looked_up_in_store([&] { return context_.store->table_of_token(hash); });
  return id ? from_store(*id, false, std::move(later)) : lookup{};
}

lobby::lookup lobby::from_store(const std::string& id, bool by_public_id, taken_callback later) {
  std::optional<StoredTable> stored;
  try {
    // One node holds every unfinished table, so one not in memory failed to restore: the table is read whole, for
    // it is finished. With several, it may be another node's: it is described first, and taken over if unfinished.
    stored = context_.store->load(id, /*with_actions=*/!context_.cluster);
    if (context_.cluster && stored && stored->state == "finished") stored = context_.store->load(id);
  } catch (const std::exception& e) {
    spdlog::error("table {} cannot be read: {}", id, e.what());
    return {};
  }
  if (!stored) return {};
  if (stored->state != "finished") {
    if (!context_.cluster || !later) return {};
    context_.cluster->take(id, [by_public_id, later = std::move(later)](std::shared_ptr<room> table) {
      later(table && by_public_id && table->is_private() ? nullptr : std::move(table));
    });
    return {nullptr, true};
  }
  auto table = rebuild(std::move(*stored));
  if (table) table->expire_when_unwatched();
  return {table && by_public_id && table->is_private() ? nullptr : table};
}

std::shared_ptr<room> lobby::find_local(const std::string& id) {
  std::lock_guard lock(mutex_);
  auto it = rooms_.find(id);
  return it == rooms_.end() ? nullptr : handed_out(it->second);
}

std::shared_ptr<room> lobby::adopt(StoredTable stored) { return rebuild(std::move(stored)); }

void lobby::hand_off(const std::string& id, std::function<void()> then) {
  if (auto table = find_local(id)) {
    table->move_away(std::move(then));
  } else if (then) {
    then();
  }
}

std::shared_ptr<room> lobby::handed_out(std::shared_ptr<room> table) {
  if (table) table->looked_up();
  return table;
}

namespace {
// One my_games request: the answers in the tokens' order, sent once the last is in (rooms answer on their strands).
class my_games_reply {
 public:
  my_games_reply(std::shared_ptr<websocket_session> s, std::vector<std::string> tokens, nlohmann::json re)
      : session_(std::move(s)), tokens_(std::move(tokens)), re_(std::move(re)), games_(tokens_.size()),
        pending_(tokens_.size()) {
    if (pending_ == 0) send();
  }
  const std::vector<std::string>& tokens() const { return tokens_; }

  void answer(std::size_t i, std::optional<protocol::MyGame> game) {
    {
      std::lock_guard lock(mutex_);
      games_[i] = std::move(game);
      if (--pending_ != 0) return;
    }
    send();
  }

 private:
  void send() {
    std::vector<protocol::MyGame> games;
    std::vector<std::string> unknown;
    for (std::size_t i = 0; i < tokens_.size(); ++i) {
      if (games_[i]) {
        games_[i]->token = tokens_[i];  // the rooms and the store know only its hash
        games.push_back(std::move(*games_[i]));
      } else {
        unknown.push_back(tokens_[i]);
      }
    }
    session_->send(protocol::render_my_games(re_, games, unknown));
  }

  std::shared_ptr<websocket_session> session_;
  const std::vector<std::string> tokens_;
  const nlohmann::json re_;
  std::mutex mutex_;
  std::vector<std::optional<protocol::MyGame>> games_;
  std::size_t pending_;
};
}  // namespace

void lobby::my_games(const std::shared_ptr<websocket_session>& s, std::vector<std::string> tokens, nlohmann::json re) {
  auto reply = std::make_shared<my_games_reply>(s, std::move(tokens), std::move(re));
  std::vector<std::string> hashes;
  for (const auto& token : reply->tokens()) hashes.push_back(hash_token(token));
  std::vector<std::shared_ptr<room>> holders(hashes.size());
  {
    std::lock_guard lock(mutex_);
    for (std::size_t i = 0; i < hashes.size(); ++i) {
      if (auto it = by_token_.find(hashes[i]); it != by_token_.end()) holders[i] = it->second.lock();
    }
  }
  for (std::size_t i = 0; i < hashes.size(); ++i) {
    if (holders[i]) {
      holders[i]->describe(hashes[i], [reply, i](std::optional<protocol::MyGame> game) { reply->answer(i, std::move(game)); });
    } else {
      reply->answer(i, describe_stored(hashes[i]));
    }
  }
}

std::optional<protocol::MyGame> lobby::describe_stored(const std::string& token_hash) {
  try {
    const auto id = context_.store->table_of_token(token_hash);
    const auto table = id ? context_.store->load(*id, false) : std::nullopt;
    // On one node unfinished tables are all in memory: one that is not failed to restore and is not described
    // either. With several, it may be another node's: it is described from the store.
    if (!table || (table->state != "finished" && !context_.cluster)) return std::nullopt;
    return describe_seat(*table, token_hash, {});
  } catch (const std::exception& e) {
    spdlog::error("describing a seat from the store: {}", e.what());
    return std::nullopt;
  }
}

void lobby::register_token(const std::string& token, const std::shared_ptr<room>& table) {
  std::lock_guard lock(mutex_);
  by_token_[token] = table;
}

void lobby::unregister_token(const std::string& token) {
  std::lock_guard lock(mutex_);
  by_token_.erase(token);
}

void lobby::remove_room(const std::string& id) {
  std::lock_guard lock(mutex_);
  if (auto it = rooms_.find(id); it != rooms_.end()) erase_room(it);
}

bool lobby::release_unwatched(const std::string& id, const room* table, std::uint64_t lookups_seen) {
  std::lock_guard lock(mutex_);
  auto it = rooms_.find(id);
  if (it == rooms_.end() || it->second.get() != table) return true;  // not the lobby's any more
  if (table->lookups() != lookups_seen) return false;  // handed out since: a request may be on its way
  erase_room(it);
  return true;
}

void lobby::erase_room(std::unordered_map<std::string, std::shared_ptr<room>>::iterator it) {
  const auto id = it->first;
  if (!it->second->invite().empty()) by_invite_.erase(it->second->invite());
  rooms_.erase(it);
  const auto s = summaries_.find(id);
  const bool was_public = s != summaries_.end() && !s->second.info.is_private;
  drop_summary(id);
  publish(id);
  if (was_public && context_.cluster) context_.cluster->announce_removed(id);
}

void lobby::drop_summary(const std::string& id) {
  if (auto s = summaries_.find(id); s != summaries_.end()) {
    place(s->second, false);
    summaries_.erase(s);
  }
}

void lobby::remote_update(const std::string& node, const protocol::TableInfo& table) {
  std::lock_guard lock(mutex_);
  if (table.is_private || rooms_.count(table.id)) return;  // held here: this node says what it is
  auto it = summaries_.find(table.id);
  if (it == summaries_.end()) {
    it = summaries_.emplace(table.id, summary{table, next_sequence_++, node}).first;
  } else {
    place(it->second, false);
    it->second.info = table;
    it->second.node = node;
  }
  place(it->second, true);
  publish(table.id);
}

void lobby::remote_removed(const std::string& node, const std::string& id) {
  std::lock_guard lock(mutex_);
  // Only the node that listed it takes it out: the node it moved to may have listed it since.
  auto it = summaries_.find(id);
  if (it == summaries_.end() || it->second.node != node || rooms_.count(id)) return;
  drop_summary(id);
  publish(id);
}

std::vector<protocol::TableInfo> lobby::own_listed() const {
  std::lock_guard lock(mutex_);
  std::vector<protocol::TableInfo> out;
  for (auto it = ranked_.begin(); it != ranked_.end() && out.size() < kMaxListed; ++it) {
    const auto& s = summaries_.at(std::get<2>(*it));
    if (s.node.empty()) out.push_back(s.info);
  }
  return out;
}

void lobby::update(const protocol::TableInfo& table) {
  std::lock_guard lock(mutex_);
  auto it = summaries_.find(table.id);
  if (it == summaries_.end()) return;  // removed meanwhile
  place(it->second, false);
  it->second.info = table;
  place(it->second, true);
  if (table.is_private) return;
  publish(table.id);
  if (context_.cluster) context_.cluster->announce(table);
}

std::optional<lobby::rank> lobby::rank_of(const summary& s) {
  if (s.info.is_private || s.info.state == "finished") return std::nullopt;
  // Tables with free seats first: that is what people come to the lobby for; then the newest, so a table just
  // made is always seen however many others there are.
  return rank{s.info.state != "waiting", ~s.sequence, s.info.id};
}

void lobby::place(const summary& s, bool add) {
  if (const auto r = rank_of(s)) add ? (void)ranked_.insert(*r) : (void)ranked_.erase(*r);
}

std::vector<protocol::TableInfo> lobby::listed_locked() const {
  std::vector<protocol::TableInfo> out;
  for (auto it = ranked_.begin(); it != ranked_.end() && out.size() < kMaxListed; ++it) {
    out.push_back(summaries_.at(std::get<2>(*it)).info);
  }
  return out;
}

std::unordered_set<std::string> lobby::listed_ids_locked() const {
  std::unordered_set<std::string> ids;
  for (auto it = ranked_.begin(); it != ranked_.end() && ids.size() < kMaxListed; ++it) ids.insert(std::get<2>(*it));
  return ids;
}

void lobby::publish(const std::string& changed) {
  // Nobody to tell: nothing to compare or render (every table change comes here). watch() starts listed_ afresh.
  if (watchers_.empty()) return;
  auto now = listed_ids_locked();
  std::vector<std::shared_ptr<const std::string>> frames;
  for (const auto& id : listed_) {
    if (!now.count(id)) frames.push_back(std::make_shared<const std::string>(protocol::render_lobby_removed(id)));
  }
  for (const auto& id : now) {
    if (id == changed || !listed_.count(id)) {
      frames.push_back(std::make_shared<const std::string>(protocol::render_lobby_changed(summaries_.at(id).info)));
    }
  }
  listed_ = std::move(now);
  for (const auto& [key, w] : watchers_) {
    if (auto s = w.lock()) {
      for (const auto& f : frames) s->send(f);
    }
  }
}

std::map<std::pair<std::string, std::string>, int> lobby::room_counts() const {
  std::lock_guard lock(mutex_);
  std::map<std::pair<std::string, std::string>, int> counts;
  for (const auto& g : engine::all_games()) {
    for (const char* state : {"waiting", "playing", "finished"}) counts[{g.id, state}] = 0;
  }
  for (const auto& [id, s] : summaries_) {
    if (s.node.empty()) ++counts[{s.info.game, s.info.state}];  // this node's own: each node counts its rooms
  }
  return counts;
}

void lobby::add_session(const std::shared_ptr<websocket_session>& s) {
  std::lock_guard lock(mutex_);
  // remove_session takes closed sessions out; a sweep now and then (amortized O(1), not a scan per connection)
  // catches any that went without closing.
  if (sessions_.size() >= sweep_sessions_at_) {
    std::erase_if(sessions_, [](const auto& entry) { return entry.second.expired(); });
    sweep_sessions_at_ = std::max<std::size_t>(1024, 2 * sessions_.size());
  }
  sessions_[s.get()] = s;
}

void lobby::remove_session(const websocket_session* s) {
  std::lock_guard lock(mutex_);
  sessions_.erase(s);
  watchers_.erase(s);
}

// Under the same lock as publish(): the list returned is exactly what the changes sent from now on apply to.
std::vector<protocol::TableInfo> lobby::watch(const std::shared_ptr<websocket_session>& s, bool on) {
  std::lock_guard lock(mutex_);
  if (!on) {
    watchers_.erase(s.get());
    return {};
  }
  // The others catch up first, so listed_ is what this list shows.
  if (watchers_.empty()) {
    listed_ = listed_ids_locked();
  } else {
    publish("");
  }
  watchers_[s.get()] = s;
  return listed_locked();
}

std::size_t lobby::open_connections() const {
  std::lock_guard lock(mutex_);
  return static_cast<std::size_t>(
      std::count_if(sessions_.begin(), sessions_.end(), [](const auto& entry) { return !entry.second.expired(); }));
}

void lobby::shutdown() {
  std::vector<std::shared_ptr<websocket_session>> open;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [key, w] : sessions_) {
      if (auto s = w.lock()) open.push_back(std::move(s));
    }
  }
  for (const auto& s : open) s->close_going_away();
}

}  // namespace emporium::server
