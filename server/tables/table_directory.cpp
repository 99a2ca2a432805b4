#include "tables/table_directory.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <thread>

#include <emporium/engine/registry.hpp>

#include "cluster/cluster.hpp"
#include "tables/friends.hpp"
#include "tables/game_limit.hpp"
#include "common/secrets.hpp"
#include "common/worker_pool.hpp"
#include "store/people_store.hpp"
#include "tables/lobby.hpp"
#include "tables/room.hpp"

namespace emporium::server {

TableDirectory::TableDirectory(net::any_io_executor executor, const TablesContext& context)
    : executor_(std::move(executor)), context_(context) {}

std::size_t TableDirectory::restore() {
  // Replaying the records is most of a restart's time, and every table is independent: while the store reads,
  // one thread per core replays the tables already read. Then they are registered in creation order (the
  // lobby lists them in that order).
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<std::pair<std::size_t, StoredTable>> queue;
  bool all_read = false;
  std::vector<std::shared_ptr<Room>> built;
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

std::shared_ptr<Room> TableDirectory::loaded(const StoredTable& stored) {
  auto table = std::make_shared<Room>(executor_, context_, stored);
  if (table->load_error()) {
    spdlog::error("table {} cannot be restored: {}", stored.id, *table->load_error());
    return nullptr;
  }
  return table;
}

std::shared_ptr<Room> TableDirectory::rebuild(StoredTable stored) {
  auto table = loaded(stored);
  return table ? register_room(table, stored.seats) : nullptr;
}

std::shared_ptr<Room> TableDirectory::register_room(const std::shared_ptr<Room>& table, const std::vector<StoredSeat>& seats) {
  const auto info = table->info();
  std::lock_guard lock(mutex_);
  const auto [it, added] = rooms_.try_emplace(table->id(), table);
  it->second->looked_up();
  if (!added) return it->second;
  if (!table->invite().empty()) by_invite_[table->invite()] = table;
  // Not yet published: the creator's join follows at once, and its update() tells watchers. Another node's
  // listing of it (it was taken over from there) gives way.
  context_.lobby->add(info);
  for (const auto& seat : seats) {
    if (seat.resumable()) by_token_[seat.token_hash] = table;
  }
  return table;
}

void TableDirectory::create_table(const protocol::CreateTable& request, const std::string& account,
                                  std::function<void(Created)> done) {
  // The engine checks the game, the seat count and the options.
  auto check = engine::create_game(request.game, request.players, request.options, 0);
  if (check.error) return done({nullptr, protocol::ParseError{nullptr, check.error->code, check.error->message}});
  StoredTable stored;
  stored.id = new_table_id();
  stored.game = request.game;
  stored.players = request.players;
  stored.options = check.options;
  stored.seed = new_game_seed();
  stored.salt = new_salt();
  // A friends-only table is a private one (unlisted, with an invite) that the creator's friends may join by id.
  stored.is_private = request.is_private || request.friends_only;
  stored.friends_only = request.friends_only;
  stored.rated = request.rated.value_or(false);
  // Off by default where the result counts: a rated game's moves stand as made, as over a real board ("confirm my
  // turn" still lets a player look before anyone sees).
  stored.undo = request.undo.value_or(!stored.rated);
  if (stored.is_private) stored.invite = new_invite_code();
  stored.clock = request.clock;
  own(stored);
  const bool limited =
      !account.empty() && context_.people && is_correspondence(stored.clock, context_.correspondence_turn);
  context_.store_jobs->post([this, stored = std::move(stored), done = std::move(done), limited, account]() mutable {
    try {
      if (limited) {
        if (auto over = over_game_limit(*context_.people, account, context_.correspondence_turn)) {
          return done({nullptr, protocol::ParseError{nullptr, protocol::errc::too_many_games, std::move(*over)}});
        }
      }
      context_.store->create_table(stored);
    } catch (const StoreError& e) {
      if (!e.unavailable()) spdlog::error("creating a table: {}", e.what());
      return done({nullptr, protocol::ParseError{nullptr,
                                                 e.unavailable() ? protocol::errc::store_unavailable
                                                                 : protocol::errc::internal_error,
                                                 e.unavailable() ? protocol::kStoreUnavailableMessage
                                                                 : "the table could not be saved"}});
    }
    // Its creator's token is registered when they take the seat.
    done({registered_new(std::move(stored)), std::nullopt});
  });
}

void TableDirectory::own(StoredTable& table) const {
  if (!context_.cluster) return;
  table.owner = context_.cluster->node();
  table.epoch = 1;
}

std::shared_ptr<Room> TableDirectory::registered_new(StoredTable stored) {
  const auto id = stored.id;
  auto table = rebuild(std::move(stored));
  if (table && context_.cluster) context_.cluster->hold(id);
  return table;
}

TableDirectory::RematchMade TableDirectory::create_rematch(StoredTable table, const protocol::RematchOffer& offer,
                                                           const std::optional<protocol::RematchOffer>& replaces) {
  own(table);
  const auto instead = context_.store->create_rematch(table, protocol::rematch_json(offer),
                                                      replaces ? protocol::rematch_json(*replaces) : nlohmann::json());
  if (instead) return {nullptr, protocol::rematch_from_json(*instead)};
  return {registered_new(std::move(table)), std::nullopt};
}

void TableDirectory::in_store(std::function<void()> job, TakenCallback later) {
  context_.store_jobs->post([job = std::move(job), later = std::move(later)] {
    try {
      job();
    } catch (const StoreError& e) {
      if (!e.unavailable()) spdlog::error("looking a table up in the store: {}", e.what());
      later({nullptr, e.unavailable()});
    }
  });
}

bool TableDirectory::hidden_by_id(const Room& table) { return table.is_private() && !table.friends_only(); }

TableDirectory::Lookup TableDirectory::find(const protocol::TableRef& ref, TakenCallback later) {
  if (ref.table) {
    // A private table is found only by its invite code (or a seat's token); a friends-only one by its id too (its
    // room lets only the creator's friends in).
    if (auto table = find_local(*ref.table)) return {hidden_by_id(*table) ? nullptr : table};
    in_store([this, id = *ref.table, later] { bring(id, /*by_public_id=*/true, later); }, later);
    return {nullptr, true};
  }
  {
    std::lock_guard lock(mutex_);
    if (auto it = by_invite_.find(*ref.invite); it != by_invite_.end()) return {handed_out(it->second.lock())};
  }
  in_store(
      [this, invite = *ref.invite, later] {
        const auto id = context_.store->table_of_invite(invite);
        if (!id) return later({});
        bring(*id, false, later);
      },
      later);
  return {nullptr, true};
}

void TableDirectory::find_id(const std::string& id, TakenCallback found) {
  if (auto table = find_local(id)) return found({std::move(table)});
  in_store([this, id, found] { bring(id, false, found); }, found);
}

TableDirectory::Lookup TableDirectory::find_by_account(const std::string& account, const std::string& table_id,
                                                       SeatCallback later) {
  auto without_seat = [later](Found found) { later(std::move(found), ""); };
  in_store(
      [this, account, table_id, later, without_seat] {
        const auto claim = context_.people->claim_at(account, table_id);
        if (!claim) return without_seat({});
        bring(table_id, false, [hash = claim->token_hash, later](Found found) { later(std::move(found), hash); });
      },
      without_seat);
  return {nullptr, true};
}

TableDirectory::Lookup TableDirectory::find_by_token(const std::string& token, TakenCallback later) {
  const auto hash = hash_token(token);
  {
    std::lock_guard lock(mutex_);
    if (auto it = by_token_.find(hash); it != by_token_.end()) return {handed_out(it->second.lock())};
  }
  in_store(
      [this, hash, later] {
        const auto id = context_.store->table_of_token(hash);
        if (!id) return later({});
        bring(*id, false, later);
      },
      later);
  return {nullptr, true};
}

void TableDirectory::bring(const std::string& id, bool by_public_id, TakenCallback later) {
  auto shown = [by_public_id](std::shared_ptr<Room> table) -> Found {
    return {table && by_public_id && hidden_by_id(*table) ? nullptr : std::move(table)};
  };
  // Brought here meanwhile (by another request).
  if (auto here = find_local(id)) return later(shown(std::move(here)));
  // One node holds every unfinished table, so one not in memory failed to restore: the table is read whole, for
  // it is finished. With several, it may be another node's: it is described first, and taken over if unfinished.
  auto stored = context_.store->load(id, /*with_actions=*/!context_.cluster);
  if (context_.cluster && stored && stored->state == TableState::finished) stored = context_.store->load(id);
  if (!stored) return later({});
  if (stored->state != TableState::finished) {
    if (!context_.cluster) return later({});
    context_.cluster->take(id, [this, id, shown, later](Cluster::Taken taken) {
      if (taken == Cluster::Taken::unavailable) return later({nullptr, true});
      later(shown(taken == Cluster::Taken::here ? find_local(id) : nullptr));
    });
    return;
  }
  auto table = rebuild(std::move(*stored));
  if (table) table->expire_when_unwatched();
  later(shown(std::move(table)));
}

std::shared_ptr<Room> TableDirectory::find_local(const std::string& id) {
  std::lock_guard lock(mutex_);
  auto it = rooms_.find(id);
  return it == rooms_.end() ? nullptr : handed_out(it->second);
}

bool TableDirectory::serves(const std::string& id) {
  return find_local(id) != nullptr;  // a lookup, counted as one (handed_out)
}

bool TableDirectory::adopt(StoredTable stored) {
  auto table = rebuild(std::move(stored));
  if (!table) return false;
  table->carry_on();
  return true;
}

void TableDirectory::hand_off(const std::string& id, std::function<void()> then) {
  if (auto table = find_local(id)) {
    table->move_away(std::move(then));
  } else if (then) {
    then();
  }
}

std::shared_ptr<Room> TableDirectory::handed_out(std::shared_ptr<Room> table) {
  if (table) table->looked_up();
  return table;
}

void TableDirectory::register_token(const std::string& token, const std::shared_ptr<Room>& table) {
  std::lock_guard lock(mutex_);
  by_token_[token] = table;
}

void TableDirectory::unregister_token(const std::string& token) {
  std::lock_guard lock(mutex_);
  by_token_.erase(token);
}

void TableDirectory::remove_room(const std::string& id) {
  std::lock_guard lock(mutex_);
  if (auto it = rooms_.find(id); it != rooms_.end()) erase_room(it);
}

bool TableDirectory::release_unwatched(const std::string& id, const Room* table, std::uint64_t lookups_seen) {
  std::lock_guard lock(mutex_);
  auto it = rooms_.find(id);
  if (it == rooms_.end() || it->second.get() != table) return true;  // not the directory's any more
  if (table->lookups() != lookups_seen) return false;  // handed out since: a request may be on its way
  erase_room(it);
  return true;
}

void TableDirectory::erase_room(std::unordered_map<std::string, std::shared_ptr<Room>>::iterator it) {
  const auto id = it->first;
  if (!it->second->invite().empty()) by_invite_.erase(it->second->invite());
  rooms_.erase(it);
  context_.lobby->remove(id);
}

std::vector<protocol::TableInfo> TableDirectory::own_listed() const { return context_.lobby->own_listed(); }

void TableDirectory::remote_update(const std::string& node, const protocol::TableInfo& table) {
  context_.lobby->remote_update(node, table);
}

void TableDirectory::vacation(const std::string& account, std::optional<long long> until,
                              const std::vector<std::string>& tables) {
  vacation_here(account, until, tables);
  if (!context_.cluster) return;
  // A notice is at most about 7,000 bytes (Cluster::tell_people): table ids go 200 at a time.
  for (std::size_t i = 0; i < tables.size(); i += 200) {
    const auto end = tables.begin() + static_cast<std::ptrdiff_t>(std::min(tables.size(), i + 200));
    context_.cluster->tell_people({{"vacation",
                                    {{"account", account},
                                     {"until", until ? nlohmann::json(*until) : nlohmann::json(nullptr)},
                                     {"tables", std::vector<std::string>(tables.begin() + static_cast<std::ptrdiff_t>(i), end)}}}});
  }
}

void TableDirectory::vacation_here(const std::string& account, std::optional<long long> until,
                                   const std::vector<std::string>& tables) {
  for (const auto& id : tables) {
    if (auto room = find_local(id)) room->vacation(account, until);
  }
}

void TableDirectory::remote_people(const nlohmann::json& notice) {
  if (const auto it = notice.find("vacation"); it != notice.end()) {
    const auto& v = *it;
    if (!v.is_object() || !v.value("account", nlohmann::json()).is_string() || !v.value("tables", nlohmann::json()).is_array()) return;
    const auto until = v.value("until", nlohmann::json());
    std::vector<std::string> tables;
    for (const auto& t : v["tables"]) {
      if (t.is_string()) tables.push_back(t.get<std::string>());
    }
    return vacation_here(v["account"].get<std::string>(),
                         until.is_number_integer() ? std::optional<long long>(until.get<long long>()) : std::nullopt,
                         tables);
  }
  if (context_.friends) context_.friends->heard(notice);
}

void TableDirectory::remote_removed(const std::string& node, const std::string& id) {
  context_.lobby->remote_removed(node, id);
}

}  // namespace emporium::server
