#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "emporium/engine/error.hpp"
#include "emporium/engine/options.hpp"
#include "emporium/engine/rng.hpp"
#include "emporium/engine/state.hpp"

namespace emporium::engine {

// A game the engine knows: its metadata and how to start one.
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

  Json to_json() const;  // metadata for clients (no factory)
};

// Every game, in one explicit table.
const std::vector<GameInfo>& all_games();
const GameInfo* find_game(const std::string& id);

struct Created {
  std::unique_ptr<State> state;
  Json options;  // the resolved options (defaults filled in)
  std::optional<Error> error;
};

// The engine's version (the project's), written into every published game record: a record replays exactly
// with the engine that played it; a later engine whose rules changed may refuse it.
const char* engine_version();

// Validates game id, player count and options, then creates the initial state.
Created create_game(const std::string& id, int players, const Json& options, Seed seed);

}  // namespace emporium::engine
