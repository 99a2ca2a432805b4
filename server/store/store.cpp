#include "store/store.hpp"

namespace emporium::server {

const char* kind_name(StoreError::Kind kind) {
  switch (kind) {
    case StoreError::Kind::unavailable: return "unavailable";
    case StoreError::Kind::lease_lost: return "lease_lost";
    case StoreError::Kind::conflict: return "conflict";
    case StoreError::Kind::other: break;
  }
  return "other";
}

void StoredTable::parse_actions() {
  for (auto& [player, text] : action_texts) actions.emplace_back(player, nlohmann::json::parse(text));
  action_texts.clear();
}

void Store::append_action(const std::string& table, std::uint64_t index, int player, const nlohmann::json& action,
                          const nlohmann::json& clock_state) {
  append_actions({{table, index, player, action.dump(), clock_state.is_null() ? "" : clock_state.dump(), ""}});
}

}  // namespace emporium::server
