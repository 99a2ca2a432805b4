#pragma once
// A game is its options, its seed and its action list: replaying them rebuilds the state exactly
// (record.hpp's replay()).
#include <string>
#include <vector>

#include "emporium/engine/json.hpp"
#include "emporium/engine/rng.hpp"

namespace emporium::engine {

struct RecordedAction {
  int player = -1;
  Json action;
  bool operator==(const RecordedAction&) const = default;
};

struct Record {
  std::string game;
  int players = 0;
  Json options = Json::object();
  Seed seed;
  std::vector<RecordedAction> actions;

  Json to_json() const;
  static Record from_json(const Json& j);  // throws nlohmann::json::exception on a bad shape
  bool operator==(const Record&) const = default;
};

// The engine's version (the project's), written into every published game record: a record replays exactly
// with the engine that played it; a later engine whose rules changed may refuse it.
const char* engine_version();

}  // namespace emporium::engine
