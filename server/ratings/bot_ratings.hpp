#pragma once
// The bots' fixed, published ratings (issue 33, docs/ratings.md "Bots"): reference points that rated games against
// bots measure people by. Bots are players in a rating update but their ratings never change.
#include <optional>
#include <string_view>

#include "ratings/ratings.hpp"

namespace emporium::server::ratings {

// The rating of the bot of `level` ("easy", "normal") in `game`; none for a game or level without one.
std::optional<Rating> bot_rating(std::string_view game, std::string_view level);

}  // namespace emporium::server::ratings
