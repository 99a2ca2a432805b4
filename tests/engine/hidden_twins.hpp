#pragma once
// Twins of a state that differ only in what one viewer may not know (the bag's order, another player's
// hand or screened stock, a pile's order...), one perturber per game, beside that game's tests
// (games/<id>/<id>_twins.cpp). The leak tests check that a viewer cannot tell the twins apart; the bot
// tests, that a bot decides the same in both.
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "emporium/engine/rng.hpp"
#include "emporium/engine/state.hpp"

namespace emporium::engine::testing {

// A twin of a state with the information hidden from one viewer changed, and a judge that says,
// from the original's full events after each further action, whether the twins should still look
// the same to that viewer (false once the rules reveal the part that was changed).
struct Twin {
  std::unique_ptr<State> state;
  std::function<bool(const std::vector<Event>&)> still_hidden;
};
using Perturber = std::function<std::optional<Twin>(const State&, const Viewer&, Rng&)>;

// Every game's perturber, by game id.
const std::map<std::string, Perturber>& perturbers();

// Adds a game's perturber; its file calls it before main(), as
//   [[maybe_unused]] const bool registered = add_perturber("medici", perturb_medici);
bool add_perturber(const std::string& game, Perturber perturber);

}  // namespace emporium::engine::testing
