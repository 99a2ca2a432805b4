#pragma once
// The store as the server uses it: the real one (SQLite or PostgreSQL) behind a guard that tells StoreHealth how
// every call went, and that refuses calls at once while the store is down (StoreError, unavailable) rather than
// let each wait for a database that is not there. The sign of life (mark_alive, every second) is always tried,
// and one other call a second (StoreHealth::admit): they are how the server sees the store answer again.
#include "store/store.hpp"
#include "store/store_health.hpp"

namespace emporium::server {

class GuardedStore final : public Store {
 public:
  GuardedStore(Store& inner, StoreHealth& health) : inner_(inner), health_(health) {}

  void create_table(const StoredTable& table) override;
  std::optional<nlohmann::json> create_rematch(const StoredTable& table, const nlohmann::json& offer,
                                               const nlohmann::json& replaces) override;
  void save_seats(const std::string& table, const std::vector<StoredSeat>& seats, int players, int creator_seat,
                  std::uint64_t epoch = 0) override;
  void set_state(const std::string& table, TableState state, const nlohmann::json& result = nullptr,
                 std::uint64_t epoch = 0) override;
  void append_actions(const std::vector<ActionWrite>& batch) override;
  void after_batch() override;
  void save_clock(const std::string& table, const nlohmann::json& clock_state, std::uint64_t epoch = 0) override;
  void mark_alive(std::int64_t unix_ms) override;
  std::optional<std::int64_t> last_alive() override;
  void delete_table(const std::string& table, std::uint64_t epoch = 0) override;
  std::size_t load_unfinished(const std::function<void(std::size_t place, StoredTable&& table)>& take) override;
  std::optional<StoredTable> load(const std::string& table, bool with_actions = true) override;
  std::optional<std::string> table_of_token(const std::string& token_hash) override;
  std::optional<std::string> table_of_invite(const std::string& invite) override;
  void save_analysis(const std::string& table, const std::string& engine_version, const std::string& body) override;
  std::optional<std::string> load_analysis(const std::string& table, const std::string& engine_version) override;
  std::uint64_t reconnections() const override { return inner_.reconnections(); }

 private:
  // `call` on the real store, counted; refused at once while the store is down (unless
  // `always`, or it is the trial StoreHealth admits).
  template <class F>
  auto guarded(F&& call, bool always = false) -> decltype(call());

  Store& inner_;
  StoreHealth& health_;
};

}  // namespace emporium::server
