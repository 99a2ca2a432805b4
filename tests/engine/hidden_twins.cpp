#include "hidden_twins.hpp"

#include <utility>

namespace emporium::engine::testing {
namespace {

// Filled before main() by each game's twins file, so it is built on first use, whichever file comes first.
std::map<std::string, Perturber>& table() {
  static std::map<std::string, Perturber> perturbers;
  return perturbers;
}

}  // namespace

const std::map<std::string, Perturber>& perturbers() { return table(); }

bool add_perturber(const std::string& game, Perturber perturber) {
  return table().emplace(game, std::move(perturber)).second;
}

}  // namespace emporium::engine::testing
