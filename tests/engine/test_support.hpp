#pragma once
// Helpers shared by the engine tests: every registered game at every player count, random play.
#include <ostream>
#include <string>
#include <vector>

#include "emporium/engine/record.hpp"
#include "emporium/engine/registry.hpp"
#include "emporium/engine/rng.hpp"

namespace emporium::engine::testing {

struct GameAndCount {
  std::string game;
  int players;
};

inline std::vector<GameAndCount> every_game_and_count() {
  std::vector<GameAndCount> out;
  for (const auto& g : all_games()) {
    for (int n = g.min_players; n <= g.max_players; ++n) out.push_back({g.id, n});
  }
  return out;
}

inline std::string case_name(const GameAndCount& c) { return c.game + "_" + std::to_string(c.players) + "p"; }
inline void PrintTo(const GameAndCount& c, std::ostream* os) { *os << case_name(c); }

inline std::vector<Viewer> all_viewers(int players) {
  std::vector<Viewer> viewers;
  for (int p = 0; p < players; ++p) viewers.push_back(Viewer::of_player(p));
  viewers.push_back(Viewer::spectator());
  return viewers;
}

// Picks a legal action for the player to move: usually uniform, sometimes the first listed (so
// "pass"/"stop"-like choices are not drowned out by long lists of bids).
inline RecordedAction random_move(const State& state, Rng& rng) {
  const auto movers = state.to_move();
  const int player = movers[rng.below(movers.size())];
  const auto legal = state.legal_actions(player);
  const std::size_t pick = rng.below(3) == 0 ? 0 : rng.below(legal.size());
  return {player, legal[pick]};
}

}  // namespace emporium::engine::testing
