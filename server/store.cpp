#include "store.hpp"

#include <chrono>
#include <stdexcept>

#include "config.hpp"
#include "postgres_store.hpp"
#include "sqlite_store.hpp"

namespace emporium::server {

void StoredTable::parse_actions() {
  for (auto& [player, text] : action_texts) actions.emplace_back(player, nlohmann::json::parse(text));
  action_texts.clear();
}

long long unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

void store::append_action(const std::string& table, std::uint64_t index, int player, const nlohmann::json& action,
                          const nlohmann::json& clock_state) {
  append_actions({{table, index, player, action.dump(), clock_state.is_null() ? "" : clock_state.dump(), ""}});
}

std::unique_ptr<store> open_store(const std::string& setting, const std::string& node) {
  switch (kind_of_store(setting)) {
    case store_kind::sqlite: return std::make_unique<sqlite_store>(setting.substr(7));
    case store_kind::postgresql: return std::make_unique<postgres_store>(setting, node);
    case store_kind::none: break;
  }
  throw std::invalid_argument("the store must be sqlite:<directory> or a postgresql:// URI");
}

}  // namespace emporium::server
