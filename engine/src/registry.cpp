#include "emporium/engine/registry.hpp"

#include "medici/medici.hpp"
#include "medina/medina.hpp"
#include "merkator/merkator.hpp"
#include "silkroad/silkroad.hpp"

namespace emporium::engine {

const std::vector<GameInfo>& all_games() {
  // One line per game; each game lives in its own folder under engine/games/.
  static const std::vector<GameInfo> games = {
      medici::game_info(),
      merkator::game_info(),
      medina::game_info(),
      silkroad::game_info(),
  };
  return games;
}

const GameInfo* find_game(const std::string& id) {
  for (const auto& g : all_games()) {
    if (g.id == id) return &g;
  }
  return nullptr;
}

Json GameInfo::to_json() const {
  Json opts = Json::array();
  for (const auto& o : options) opts.push_back(o.to_json());
  return {{"id", id},
          {"name", display_name},
          {"min_players", min_players},
          {"max_players", max_players},
          {"options", opts}};
}

const char* engine_version() { return EMPORIUM_ENGINE_VERSION; }

Created create_game(const std::string& id, int players, const Json& options, Seed seed) {
  const GameInfo* info = find_game(id);
  if (!info) return {nullptr, nullptr, make_error(errc::unknown_game, "no game called '" + id + "'")};
  if (players < info->min_players || players > info->max_players) {
    return {nullptr, nullptr,
            make_error(errc::bad_player_count,
                       info->display_name + " is for " + std::to_string(info->min_players) + " to " +
                           std::to_string(info->max_players) + " players")};
  }
  if (info->unavailable) {
    if (auto why = info->unavailable()) return {nullptr, nullptr, *why};
  }
  Error error;
  auto resolved = resolve_options(info->options, options, &error);
  if (!resolved) return {nullptr, nullptr, error};
  return {info->create(*resolved, players, seed), *resolved, std::nullopt};
}

}  // namespace emporium::engine
