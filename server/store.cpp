#include "store.hpp"

#include <chrono>
#include <stdexcept>

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
  if (setting.rfind("sqlite:", 0) == 0) {
    const auto dir = setting.substr(7);
    if (dir.empty()) throw std::invalid_argument("sqlite: needs a directory (sqlite:<directory>)");
    return std::make_unique<sqlite_store>(dir);
  }
  if (setting.rfind("postgresql://", 0) == 0 || setting.rfind("postgres://", 0) == 0) {
    return std::make_unique<postgres_store>(setting, node);
  }
  throw std::invalid_argument("the store must be sqlite:<directory> or a postgresql:// URI");
}

}  // namespace emporium::server
