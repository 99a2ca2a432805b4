#include "emporium/engine/game_info.hpp"

namespace emporium::engine {

Json GameInfo::to_json() const {
  Json opts = Json::array();
  for (const auto& o : options) opts.push_back(o.to_json());
  return {{"id", id},
          {"name", display_name},
          {"min_players", min_players},
          {"max_players", max_players},
          {"options", opts}};
}

Created create_game(const GameInfo& game, int players, const Json& options, Seed seed) {
  if (players < game.min_players || players > game.max_players) {
    return {nullptr, nullptr,
            make_error(errc::bad_player_count,
                       game.display_name + " is for " + std::to_string(game.min_players) + " to " +
                           std::to_string(game.max_players) + " players")};
  }
  if (game.unavailable) {
    if (auto why = game.unavailable()) return {nullptr, nullptr, *why};
  }
  Error error;
  auto resolved = resolve_options(game.options, options, &error);
  if (!resolved) return {nullptr, nullptr, error};
  return {game.create(*resolved, players, seed), *resolved, std::nullopt};
}

}  // namespace emporium::engine
