#pragma once
// What a game tells the engine about itself: its metadata, its options and how to start one. Each game
// returns one from its `game_info()`; games/games.cpp lists them (registry.hpp finds them by id).
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "emporium/engine/error.hpp"
#include "emporium/engine/options.hpp"
#include "emporium/engine/rng.hpp"
#include "emporium/engine/state.hpp"

namespace emporium::engine {

namespace bot {
class GameBot;
}

struct GameInfo {
  std::string id;            // stable, used on the wire: "medici"
  std::string display_name;  // "Medici"
  int min_players = 2;
  int max_players = 2;
  std::vector<OptionSpec> options;
  // Makes the initial state; options have been resolved (every option present and valid).
  std::function<std::unique_ptr<State>(const Json& options, int players, Seed seed)> create;
  // Optional: why the game cannot be created now (e.g. its data file is not loaded); checked before create.
  std::function<std::optional<Error>()> unavailable;
  // The game's computer player (game_bot.hpp), or null. Set by the list of games, not by the rules.
  const bot::GameBot* bot = nullptr;

  Json to_json() const;  // metadata for clients (no factory)
};

struct Created {
  std::unique_ptr<State> state;
  Json options;  // the resolved options (defaults filled in)
  std::optional<Error> error;
};

// Validates the player count and the options, asks `unavailable`, then creates the initial state.
Created create_game(const GameInfo& game, int players, const Json& options, Seed seed);

}  // namespace emporium::engine
