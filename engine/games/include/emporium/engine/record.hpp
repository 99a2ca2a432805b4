#pragma once
// Replaying a recorded game (game_record.hpp) with the game it names.
#include <cstddef>
#include <memory>
#include <optional>

#include "emporium/engine/game_record.hpp"
#include "emporium/engine/registry.hpp"

namespace emporium::engine {

struct Replayed {
  std::unique_ptr<State> state;
  std::optional<Error> error;  // the first action that failed, or a creation error
  std::size_t failed_at = 0;   // index of that action
};

// The state after the record's actions, with undo allowed (State::allow_undo) so that the undos it holds replay.
Replayed replay(const Record& record);

}  // namespace emporium::engine
