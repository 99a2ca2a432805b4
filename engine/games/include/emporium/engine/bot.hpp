#pragma once
// Computer players by game id: the search of game_bot.hpp with the bot listed beside each game.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "emporium/engine/game_bot.hpp"

namespace emporium::engine::bot {

// The game's bot, or null for a game without one (or no such game).
const GameBot* find_bot(const std::string& game);

// The decision of the game's `level` bot in `seat` (see the decide of game_bot.hpp); for a game without a
// bot, the first legal action.
Decision decide(const std::string& game, const Json& view, int seat, const std::vector<Json>& legal, Level level,
                std::uint64_t seed, std::optional<Budget> budget = std::nullopt);

}  // namespace emporium::engine::bot
