#include "store/guarded_store.hpp"

namespace emporium::server {

template <class F>
auto GuardedStore::guarded(F&& call, bool always) -> decltype(call()) {
  auto counted = health_.admit(always);
  if (!counted) throw StoreError("store unavailable: " + health_.reason(), StoreError::Kind::unavailable);
  try {
    if constexpr (std::is_void_v<decltype(call())>) {
      call();
      counted->answered();
    } else {
      auto result = call();
      counted->answered();
      return result;
    }
  } catch (const StoreError& e) {
    counted->failed(e);
    throw;
  }
}

void GuardedStore::create_table(const StoredTable& table) {
  guarded([&] { inner_.create_table(table); });
}

std::optional<nlohmann::json> GuardedStore::create_rematch(const StoredTable& table, const nlohmann::json& offer,
                                                           const nlohmann::json& replaces) {
  return guarded([&] { return inner_.create_rematch(table, offer, replaces); });
}

void GuardedStore::save_seats(const std::string& table, const std::vector<StoredSeat>& seats, int players,
                              int creator_seat, std::uint64_t epoch) {
  guarded([&] { inner_.save_seats(table, seats, players, creator_seat, epoch); });
}

void GuardedStore::set_state(const std::string& table, TableState state, const nlohmann::json& result,
                             std::uint64_t epoch) {
  guarded([&] { inner_.set_state(table, state, result, epoch); });
}

void GuardedStore::append_actions(const std::vector<ActionWrite>& batch) {
  guarded([&] { inner_.append_actions(batch); });
}

void GuardedStore::after_batch() {
  if (health_.up()) inner_.after_batch();  // housekeeping: nothing to do for a store that does not answer
}

void GuardedStore::save_clock(const std::string& table, const nlohmann::json& clock_state, std::uint64_t epoch) {
  guarded([&] { inner_.save_clock(table, clock_state, epoch); });
}

void GuardedStore::mark_alive(std::int64_t unix_ms) {
  guarded([&] { inner_.mark_alive(unix_ms); }, /*always=*/true);
}

std::optional<std::int64_t> GuardedStore::last_alive() {
  return guarded([&] { return inner_.last_alive(); });
}

void GuardedStore::delete_table(const std::string& table, std::uint64_t epoch) {
  guarded([&] { inner_.delete_table(table, epoch); });
}

std::size_t GuardedStore::load_unfinished(const std::function<void(std::size_t, StoredTable&&)>& take) {
  return guarded([&] { return inner_.load_unfinished(take); });
}

std::optional<StoredTable> GuardedStore::load(const std::string& table, bool with_actions) {
  return guarded([&] { return inner_.load(table, with_actions); });
}

std::optional<std::string> GuardedStore::table_of_token(const std::string& token_hash) {
  return guarded([&] { return inner_.table_of_token(token_hash); });
}

std::optional<std::string> GuardedStore::table_of_invite(const std::string& invite) {
  return guarded([&] { return inner_.table_of_invite(invite); });
}

void GuardedStore::save_analysis(const std::string& table, const std::string& engine_version, const std::string& body) {
  guarded([&] { inner_.save_analysis(table, engine_version, body); });
}

std::optional<std::string> GuardedStore::load_analysis(const std::string& table, const std::string& engine_version) {
  return guarded([&] { return inner_.load_analysis(table, engine_version); });
}

}  // namespace emporium::server
