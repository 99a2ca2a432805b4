// PLACEHOLDER values, the same for every game, until the bots' ratings are measured with the bot arena (another
// change supplies this file with the measured ones; docs/ratings.md "Bots").
#include "ratings/bot_ratings.hpp"

namespace emporium::server::ratings {

std::optional<Rating> bot_rating(std::string_view game, std::string_view level) {
  if (game.empty()) return std::nullopt;
  if (level == "easy") return Rating{25.0, 1.0};
  if (level == "normal") return Rating{35.0, 1.0};
  return std::nullopt;
}

}  // namespace emporium::server::ratings
