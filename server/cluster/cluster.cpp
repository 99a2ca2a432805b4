#include "cluster/cluster.hpp"

#include <poll.h>
#include <spdlog/spdlog.h>

#include <algorithm>


namespace emporium::server {

using clock_type = std::chrono::steady_clock;

Cluster::Cluster(Settings s, Store& db, TableHost& tables)
    : settings_(std::move(s)), db_(db), tables_(tables), leases_(settings_.uri, settings_.node, settings_.lease) {}

Cluster::~Cluster() { stop(); }

void Cluster::start() {
  leases_.release_all();
  // The other nodes' public tables: they answer with theirs.
  leases_.notify(TableLeases::kLobby, nlohmann::json{{"node", node()}, {"hello", true}}.dump());
  thread_ = std::thread([this] { loop(); });
}

void Cluster::stop() {
  stopping_ = true;
  if (thread_.joinable()) thread_.join();
}

void Cluster::take(std::string table, std::function<void(Taken)> done) {
  const auto now = clock_type::now();
  std::lock_guard lock(mutex_);
  incoming_.push_back({std::move(table), std::move(done), now + settings_.wait, now, {}});
}

void Cluster::hold(std::string table) {
  std::lock_guard lock(mutex_);
  made_.push_back(std::move(table));
}

void Cluster::announce(const protocol::TableInfo& table) {
  auto payload = nlohmann::json{{"node", node()}, {"table", protocol::table_json(table)}}.dump();
  std::lock_guard lock(mutex_);
  to_announce_.push_back(std::move(payload));
}

void Cluster::announce_removed(const std::string& table) {
  auto payload = nlohmann::json{{"node", node()}, {"removed", table}}.dump();
  std::lock_guard lock(mutex_);
  to_announce_.push_back(std::move(payload));
}

void Cluster::tell_people(const nlohmann::json& notice) {
  auto payload = nlohmann::json{{"node", node()}, {"people", notice}}.dump();
  std::lock_guard lock(mutex_);
  to_announce_.push_back(std::move(payload));
}

void Cluster::heard(const std::string& channel, const std::string& payload) {
  if (channel == TableLeases::kHandoff) {
    const auto space = payload.find(' ');
    if (space == node().size() && payload.compare(0, space, node()) == 0) hand_over(payload.substr(space + 1));
    return;
  }
  const auto j = nlohmann::json::parse(payload, nullptr, false);
  if (!j.is_object() || !j.contains("node") || !j["node"].is_string() || j["node"] == node()) return;
  const std::string from = j["node"];
  if (j.contains("hello")) {
    for (const auto& t : tables_.own_listed()) announce(t);
  } else if (j.contains("removed") && j["removed"].is_string()) {
    tables_.remote_removed(from, j["removed"]);
  } else if (j.contains("people") && j["people"].is_object()) {
    tables_.remote_people(j["people"]);
  } else if (j.contains("table")) {
    if (const auto t = protocol::table_info_from_json(j["table"])) tables_.remote_update(from, *t);
  }
}

void Cluster::loop() {
  while (!stopping_) {
    // Woken by a handoff request, else every 20 ms for what other threads handed in and for the timers.
    pollfd wait{-1, POLLIN, 0};
    try {
      wait.fd = leases_.socket();
    } catch (const StoreError&) {
    }
    ::poll(&wait, wait.fd >= 0 ? 1 : 0, 20);
    try {
      step();
      database_answered(clock_type::now());
    } catch (const std::exception& e) {
      database_failed(e.what());
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  }
  // Leaving: whoever waits hears now, and the tables still held are let go for the others to take at once.
  for (auto& w : waiting_) w.done(Taken::gone);
  try {
    leases_.release_all();
  } catch (const std::exception& e) {
    spdlog::warn("cluster: giving the leases up: {}", e.what());
  }
}

void Cluster::step() {
  const auto now = clock_type::now();
  // What other threads handed in, taken under the lock; the database is called after, so that nobody waits on it.
  std::vector<std::string> announcing, made;
  std::vector<Lease> released;
  {
    std::lock_guard lock(mutex_);
    for (auto& w : incoming_) waiting_.push_back(std::move(w));
    incoming_.clear();
    std::swap(made, made_);
    std::swap(released, released_);
    std::swap(announcing, to_announce_);
  }
  for (auto& t : made) held_[std::move(t)] = 1;  // a new table's lease is taken at epoch 1 (TableDirectory::own)
  for (const auto& lease : released) {
    // Only that lease: a request may have brought the table back here since, at a higher epoch.
    if (const auto it = held_.find(lease.table); it != held_.end() && it->second == lease.epoch) held_.erase(it);
    leases_.release(lease.table, lease.epoch);
  }
  // A payload over PostgreSQL's 8000 bytes is left out (a table with very long names): the others miss that one.
  for (const auto& payload : announcing) {
    if (payload.size() < 8000) leases_.notify(TableLeases::kLobby, payload);
  }
  for (const auto& [channel, payload] : leases_.notifications()) heard(channel, payload);
  std::optional<StoreError> failed;
  std::erase_if(waiting_, [&](Wanted& w) {
    if (w.next_try > now) return false;
    try {
      return try_take(w, now);
    } catch (const StoreError& e) {
      // Asked again a little later; whoever waits hears, once its time is up, that nothing is known.
      failed = e;
      w.unanswered = true;
      w.next_try = now + std::chrono::milliseconds(250);
      if (now < w.give_up) return false;
      w.done(Taken::unavailable);
      return true;
    }
  });
  if (failed) throw *failed;
  if (now >= next_renew_) {
    renew();
    next_renew_ = now + settings_.lease / 4;
  }
  if (now >= next_sweep_ && now >= sweep_after_) {
    sweep();
    next_sweep_ = now + std::chrono::seconds(1);
  }
}

bool Cluster::try_take(Wanted& w, clock_type::time_point now) {
  if (tables_.serves(w.table)) {  // brought here meanwhile (by another request or the sweep)
    w.done(Taken::here);
    return true;
  }
  if (const auto epoch = leases_.take(w.table)) {
    w.done(load(w.table, *epoch) ? Taken::here : Taken::gone);
    return true;
  }
  const auto holder = leases_.holder(w.table);
  w.unanswered = false;
  if (!holder || holder->state == TableState::finished) {
    // Gone, or finished meanwhile: a finished table is served from the store by any node.
    w.done(holder ? Taken::here : Taken::gone);
    return true;
  }
  if (now >= w.give_up) {
    spdlog::warn("cluster: table {} was not handed over by {} in time", w.table, holder->owner);
    w.done(Taken::gone);
    return true;
  }
  // The holder is asked to hand the table over, and a live one does within milliseconds. One that has not within a
  // second is presumed dead: the table is tried again when its lease runs out (and the holder asked again then, in
  // case it was alive after all), not every few milliseconds meanwhile.
  using std::chrono::milliseconds;
  if (w.asked == clock_type::time_point{}) {
    if (!holder->owner.empty() && holder->owner != node()) {
      leases_.notify(TableLeases::kHandoff, holder->owner + " " + w.table);
    }
    w.asked = now;
  }
  if (now - w.asked < std::chrono::seconds(1)) {
    w.next_try = now + milliseconds(25);
  } else {
    w.next_try = now + std::clamp(milliseconds(holder->left_ms + 10), milliseconds(25), settings_.lease);
    w.asked = {};
  }
  return false;
}

bool Cluster::load(const std::string& table, std::uint64_t epoch) {
  std::optional<StoredTable> stored;
  try {
    stored = db_.load(table);
  } catch (const StoreError& e) {
    if (e.unavailable()) throw;
    spdlog::error("cluster: reading table {}: {}", table, e.what());
  }
  if (!stored) {
    leases_.release(table, epoch);
    return false;
  }
  stored->owner = node();
  stored->epoch = epoch;
  if (!tables_.adopt(std::move(*stored))) {
    leases_.release(table, epoch);
    return false;
  }
  held_[table] = epoch;
  spdlog::info("cluster: table {} taken over (epoch {})", table, epoch);
  return true;
}

void Cluster::database_failed(const std::string& why) {
  if (std::exchange(database_failing_, true)) return;
  spdlog::warn("cluster: the database does not answer ({}); the leases are renewed once it does", why);
}

void Cluster::database_answered(clock_type::time_point now) {
  if (!std::exchange(database_failing_, false)) return;
  spdlog::info("cluster: the database answers again");
  // Every node renews its own leases before any sweeps up another's that ran out during the outage.
  next_renew_ = now;
  sweep_after_ = now + settings_.lease;
}

void Cluster::renew() {
  // Only the leases of tables still in memory here: one that left (finished and unwatched, closed) is let go.
  std::vector<TableLeases::Held> here;
  for (auto it = held_.begin(); it != held_.end();) {
    if (tables_.serves(it->first)) {
      here.push_back({it->first, it->second});
      ++it;
    } else {
      leases_.release(it->first, it->second);
      it = held_.erase(it);
    }
  }
  for (const auto& lost : leases_.renew(here)) {
    // Another node has it (this one was too slow to renew, or the database was out of reach): it leaves here.
    spdlog::warn("cluster: the lease on table {} was lost; it leaves this node", lost);
    held_.erase(lost);
    tables_.hand_off(lost, nullptr);
  }
}

void Cluster::sweep() {
  // A grace after a lease runs out: a table whose players are coming back is taken by the node the proxy sends them
  // to, not swept up by another only to be handed over again.
  for (const auto& table : leases_.orphans(settings_.sweep, settings_.sweep_grace)) {
    if (tables_.serves(table)) continue;
    if (const auto epoch = leases_.take(table)) load(table, *epoch);
  }
}

void Cluster::hand_over(const std::string& table) {
  const auto held = held_.find(table);
  if (held == held_.end()) {
    leases_.release(table);  // held by this node's name but not in memory (say, since a restart)
    return;
  }
  spdlog::info("cluster: handing table {} over", table);
  // Once its last move is stored and its room has left the directory, the lease is given up (on this thread).
  tables_.hand_off(table, [this, lease = Lease{table, held->second}] {
    std::lock_guard lock(mutex_);
    released_.push_back(lease);
  });
}

}  // namespace emporium::server
