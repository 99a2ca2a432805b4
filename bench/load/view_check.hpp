#pragma once
// The generator's check of hidden information in what each viewer is sent (Maritime Silk Road): a player sees
// its own hand only, a spectator no hand, nobody the deck, and another player's draws come without their cards.
#include <nlohmann/json.hpp>

namespace emporium::load {

// `seat` is the viewer's seat, or -1 for a spectator.
bool snapshot_view_ok(const nlohmann::json& view, int seat);
bool events_view_ok(const nlohmann::json& events, int seat);

}  // namespace emporium::load
