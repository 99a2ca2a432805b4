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

namespace {

// Appends `value` to the JSON array text `out` (begun with '[' and not yet closed), bytes that are not valid
// UTF-8 replaced by U+FFFD as every frame is written.
void append_element(std::string& out, const Json& value) {
  if (out.size() > 1) out += ',';
  out += value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace

std::string events_json_for(const std::vector<Event>& events, const Viewer& viewer) {
  std::string out = "[";
  for (const auto& e : events) {
    if (const Json& seen = e.for_viewer(viewer); !seen.is_null()) append_element(out, seen);
  }
  out += ']';
  return out;
}

std::string State::game_legal_actions_json(int player) const {
  std::string out = "[";
  for (const auto& action : game_legal_actions(player)) append_element(out, action);
  out += ']';
  return out;
}

namespace {
constexpr const char* kUndoText = R"({"type":"undo"})";
}  // namespace

bool is_undo(const Json& action) {
  if (!action.is_object()) return false;
  const auto type = action.find("type");
  return type != action.end() && *type == "undo";
}

std::vector<Json> State::legal_actions(int player) const {
  auto out = game_legal_actions(player);
  if (can_undo(player)) out.push_back({{"type", "undo"}});
  return out;
}

std::string State::legal_actions_json(int player) const {
  std::string out = game_legal_actions_json(player);
  if (can_undo(player)) {
    out.pop_back();  // the closing bracket
    if (out.size() > 1) out += ',';
    out += kUndoText;
    out += ']';
  }
  return out;
}

void State::allow_undo(bool on) {
  undo_on_ = on;
  if (!on) forget_steps();
}

bool State::can_undo(int player) const {
  return undo_on_ && last_step_player() == player && !is_over() && is_to_move(player);
}

ApplyResult State::apply(int player, const Json& action) {
  if (is_over()) return ApplyResult::fail(make_error(errc::game_over, "the game is over"));
  if (!action.is_object() || !action.contains("type") || !action["type"].is_string()) {
    return ApplyResult::fail(make_error(errc::malformed_action, "an action is an object with a string \"type\""));
  }
  if (is_undo(action)) {
    if (action.size() != 1) return ApplyResult::fail(make_error(errc::malformed_action, "an undo has no other field"));
    if (!is_to_move(player)) return ApplyResult::fail(make_error(errc::not_your_turn, "it is not your turn"));
    if (!undo_on_) return ApplyResult::fail(make_error(errc::undo_not_allowed, "undo is off in this game"));
    if (!can_undo(player)) {
      return ApplyResult::fail(make_error(errc::undo_not_allowed,
                                          "nothing of yours can be taken back now: only your own steps of this turn "
                                          "that drew nothing, showed nothing hidden and asked nobody else"));
    }
    return take_back(player);
  }
  if (!is_to_move(player)) {
    // An action the game cannot read is refused as such, whoever sends it.
    if (auto error = parse_error(action)) return ApplyResult::fail(std::move(*error));
    return ApplyResult::fail(make_error(errc::not_your_turn, "it is not your turn"));
  }
  return step(player, action);
}

bool State::is_to_move(int player) const {
  const auto movers = to_move();
  return std::find(movers.begin(), movers.end(), player) != movers.end();
}

}  // namespace emporium::engine
