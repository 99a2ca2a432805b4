#include "ratings/bot_ratings.hpp"

#include <array>

namespace emporium::server::ratings {

namespace {

struct Measured {
  std::string_view game;
  double easy_mu;
  double normal_mu;
};

// Measured on 2026-11-28 by `build/bench/bot_ratings --game G --games K --seed 1` with K = 40 for medici, 14 for
// merkator, 18 for medina, 16 for silkroad (docs/ratings.md, "The bots' ratings": the method, games and CPU). easy
// is the anchor, at a new player's mu; normal is 25 + the measured gap, whose standard error is in the comment.
constexpr std::array<Measured, 4> kMeasured{{
    {"medici", 25.0, 46.94},    // ± 2.73, 160 games
    {"merkator", 25.0, 47.44},  // ± 4.73, 56 games
    {"medina", 25.0, 43.62},    // ± 3.38, 72 games
    {"silkroad", 25.0, 38.82},  // ± 2.90, 64 games
}};

}  // namespace

std::optional<Rating> bot_rating(std::string_view game, std::string_view level) {
  for (const Measured& m : kMeasured) {
    if (m.game != game) continue;
    if (level == "easy") return Rating{m.easy_mu, kBotSigma};
    if (level == "normal") return Rating{m.normal_mu, kBotSigma};
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace emporium::server::ratings
