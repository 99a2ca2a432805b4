#include "emporium/engine/state.hpp"

#include <algorithm>

namespace emporium::engine {

const Json& Event::for_viewer(const Viewer& viewer) const {
  if (!only_player || viewer.kind == Viewer::Kind::full || viewer.is_player(*only_player)) {
    return detail;
  }
  return redacted;
}

Json events_for(const std::vector<Event>& events, const Viewer& viewer) {
  Json out = Json::array();
  for (const auto& e : events) {
    const Json& seen = e.for_viewer(viewer);
    if (!seen.is_null()) out.push_back(seen);
  }
  return out;
}

std::string events_json_for(const std::vector<Event>& events, const Viewer& viewer) {
  std::string out = "[";
  for (const auto& e : events) {
    const Json& seen = e.for_viewer(viewer);
    if (seen.is_null()) continue;
    if (out.size() > 1) out += ',';
    out += seen.dump(-1, ' ', false, Json::error_handler_t::replace);
  }
  out += ']';
  return out;
}

std::string State::legal_actions_json(int player) const {
  std::string out = "[";
  for (const auto& action : legal_actions(player)) {
    if (out.size() > 1) out += ',';
    out += action.dump(-1, ' ', false, Json::error_handler_t::replace);
  }
  out += ']';
  return out;
}

bool State::is_to_move(int player) const {
  const auto movers = to_move();
  return std::find(movers.begin(), movers.end(), player) != movers.end();
}

}  // namespace emporium::engine
