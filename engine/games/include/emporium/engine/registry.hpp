#pragma once
// Every game the engine knows, by id: what consumers (the server, the tools, the tests) create games
// through. The list itself is games/games.cpp.
#include <string>
#include <vector>

#include "emporium/engine/game_info.hpp"

namespace emporium::engine {

// Every game, in the order clients list them.
const std::vector<GameInfo>& all_games();
const GameInfo* find_game(const std::string& id);

// Validates game id, player count and options, then creates the initial state.
Created create_game(const std::string& id, int players, const Json& options, Seed seed);

}  // namespace emporium::engine
