#include "view_check.hpp"

namespace emporium::load {

namespace {

bool someone_else(const nlohmann::json& object, int seat) {
  const auto player = object.find("player");
  return player == object.end() || !player->is_number_integer() || player->get<int>() != seat;
}

}  // namespace

bool snapshot_view_ok(const nlohmann::json& view, int seat) {
  if (!view.is_object() || view.contains("deck")) return false;
  const auto seats = view.find("seats");
  if (seats == view.end()) return true;
  if (!seats->is_array()) return false;
  for (std::size_t p = 0; p < seats->size(); ++p) {
    if (static_cast<int>(p) == seat) continue;
    const auto& other = (*seats)[p];
    const auto hand = other.find("hand");
    if (hand == other.end() || !hand->is_null()) return false;
  }
  return true;
}

bool events_view_ok(const nlohmann::json& events, int seat) {
  if (!events.is_array()) return false;
  for (const auto& event : events) {
    if (!event.is_object()) return false;
    const auto type = event.value("type", "");
    if ((type == "draw" || type == "extra_draw") && someone_else(event, seat) &&
        (event.contains("cards") || event.contains("good"))) {
      return false;
    }
  }
  return true;
}

}  // namespace emporium::load
