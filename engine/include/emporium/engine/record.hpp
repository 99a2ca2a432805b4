#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "emporium/engine/registry.hpp"
#include "emporium/engine/rng.hpp"

namespace emporium::engine {

// A game is its options, its seed and its action list: replaying this rebuilds the state exactly.
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

struct Replayed {
  std::unique_ptr<State> state;
  std::optional<Error> error;  // the first action that failed, or a creation error
  std::size_t failed_at = 0;   // index of that action
};

Replayed replay(const Record& record);

}  // namespace emporium::engine
