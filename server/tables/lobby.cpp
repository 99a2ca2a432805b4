#include "tables/lobby.hpp"

#include <emporium/engine/registry.hpp>

#include "cluster/cluster.hpp"
#include "tables/member.hpp"

namespace emporium::server {

Lobby::Summary Lobby::summary_of(const protocol::TableInfo& table, std::uint64_t sequence, std::string node) {
  // A state no node writes (another node's bug) lists the table as playing, as any unknown one always did.
  return Summary{table, table_state_named(table.state).value_or(TableState::playing), sequence, std::move(node)};
}

void Lobby::add(const protocol::TableInfo& table) {
  std::lock_guard lock(mutex_);
  drop_summary(table.id);
  const auto& added = summaries_[table.id] = summary_of(table, next_sequence_++, {});
  place(added, true);
}

void Lobby::update(const protocol::TableInfo& table) {
  std::lock_guard lock(mutex_);
  auto it = summaries_.find(table.id);
  if (it == summaries_.end()) return;  // removed meanwhile
  replace(it, table);
  if (table.is_private) return;
  publish(table.id);
  if (context_.cluster) context_.cluster->announce(table);
}

void Lobby::remove(const std::string& id) {
  std::lock_guard lock(mutex_);
  const auto s = summaries_.find(id);
  const bool was_public = s != summaries_.end() && !s->second.info.is_private;
  drop_summary(id);
  publish(id);
  if (was_public && context_.cluster) context_.cluster->announce_removed(id);
}

void Lobby::remote_update(const std::string& node, const protocol::TableInfo& table) {
  std::lock_guard lock(mutex_);
  if (table.is_private) return;
  auto it = summaries_.find(table.id);
  if (it == summaries_.end()) {
    it = summaries_.emplace(table.id, summary_of(table, next_sequence_++, node)).first;
    place(it->second, true);
  } else {
    if (it->second.node.empty()) return;  // held here: this node says what it is
    replace(it, table);
    it->second.node = node;
  }
  publish(table.id);
}

void Lobby::remote_removed(const std::string& node, const std::string& id) {
  std::lock_guard lock(mutex_);
  // Only the node that listed it takes it out: the node it moved to may have listed it since (and one held here is
  // this node's).
  auto it = summaries_.find(id);
  if (it == summaries_.end() || it->second.node.empty() || it->second.node != node) return;
  drop_summary(id);
  publish(id);
}

std::vector<protocol::TableInfo> Lobby::own_listed() const {
  std::lock_guard lock(mutex_);
  std::vector<protocol::TableInfo> out;
  for (auto it = ranked_.begin(); it != ranked_.end() && out.size() < kMaxListed; ++it) {
    const auto& s = summaries_.at(std::get<2>(*it));
    if (s.node.empty()) out.push_back(s.info);
  }
  return out;
}

std::map<std::pair<std::string, std::string>, int> Lobby::room_counts() const {
  std::lock_guard lock(mutex_);
  std::map<std::pair<std::string, std::string>, int> counts;
  for (const auto& g : engine::all_games()) {
    for (const auto state : {TableState::waiting, TableState::playing, TableState::finished}) {
      counts[{g.id, std::string(name_of(state))}] = 0;
    }
  }
  for (const auto& [id, s] : summaries_) {
    if (s.node.empty()) ++counts[{s.info.game, s.info.state}];  // this node's own: each node counts its rooms
  }
  return counts;
}

// Under the same lock as publish(): the list returned is exactly what the changes sent from now on apply to.
std::vector<protocol::TableInfo> Lobby::watch(const std::shared_ptr<Member>& member, bool on) {
  std::lock_guard lock(mutex_);
  if (!on) {
    watchers_.erase(member.get());
    return {};
  }
  // The others catch up first, so listed_ is what this list shows.
  if (watchers_.empty()) {
    listed_ = listed_ids_locked();
  } else {
    publish("");
  }
  watchers_[member.get()] = member;
  return listed_locked();
}

void Lobby::forget(const Member* member) {
  std::lock_guard lock(mutex_);
  watchers_.erase(member);
}

void Lobby::drop_summary(const std::string& id) {
  if (auto s = summaries_.find(id); s != summaries_.end()) {
    place(s->second, false);
    summaries_.erase(s);
  }
}

void Lobby::replace(std::unordered_map<std::string, Summary>::iterator it, const protocol::TableInfo& table) {
  place(it->second, false);
  it->second = summary_of(table, it->second.sequence, std::move(it->second.node));
  place(it->second, true);
}

std::optional<Lobby::Rank> Lobby::rank_of(const Summary& s) {
  if (s.info.is_private || s.state == TableState::finished) return std::nullopt;
  // Tables with free seats first: that is what people come to the lobby for; then the newest, so a table just
  // made is always seen however many others there are.
  return Rank{s.state != TableState::waiting, ~s.sequence, s.info.id};
}

void Lobby::place(const Summary& s, bool add) {
  if (const auto r = rank_of(s)) add ? (void)ranked_.insert(*r) : (void)ranked_.erase(*r);
}

std::vector<protocol::TableInfo> Lobby::listed_locked() const {
  std::vector<protocol::TableInfo> out;
  for (auto it = ranked_.begin(); it != ranked_.end() && out.size() < kMaxListed; ++it) {
    out.push_back(summaries_.at(std::get<2>(*it)).info);
  }
  return out;
}

std::unordered_set<std::string> Lobby::listed_ids_locked() const {
  std::unordered_set<std::string> ids;
  for (auto it = ranked_.begin(); it != ranked_.end() && ids.size() < kMaxListed; ++it) ids.insert(std::get<2>(*it));
  return ids;
}

void Lobby::publish(const std::string& changed) {
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
    if (auto m = w.lock()) {
      for (const auto& f : frames) m->send(f);
    }
  }
}

}  // namespace emporium::server
