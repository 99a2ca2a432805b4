#pragma once
// The bots' published ratings (issue 33; docs/ratings.md, "The bots' ratings"): per game, a fixed rating for each
// bot level, measured with bench/bot_ratings. A rated game against bots rates only the people in it: the bots sit in
// ratings::rate with these values, and what rate returns for them is dropped.
#include <optional>
#include <string_view>

#include "ratings/ratings.hpp"

namespace emporium::server::ratings {

// Every bot's sigma: about where a person's sigma settles after many games (1.47 with 2 players, 1.59 with 3). The
// gaps were measured with every seat at it, so a game between a settled person and a bot has the c they were
// measured under, and a bot shows the displayed rating of a settled person of its skill. Not the measurement's
// error (docs/ratings.md, "The bots' ratings").
inline constexpr double kBotSigma = 1.5;

// The `level` ("easy" or "normal") bot's rating in `game` (a game id: "medici", "silkroad", "medina",
// "merkator"); nullopt for a game or level without one.
std::optional<Rating> bot_rating(std::string_view game, std::string_view level);

}  // namespace emporium::server::ratings
