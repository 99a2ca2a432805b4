#pragma once
// The rating model of issue 33 (docs/ratings.md): the Weng–Lin Bayesian rating with the Plackett–Luce model, as the
// npm package `openskill` 5.0.1 implements its default `plackettLuce` with its default parameters, for games of
// 2 to 6 players, each a team of one. Pure: no I/O, no state, nothing of the server; the oracle test
// (tests/tools/ratings_oracle.mjs) checks it against the package itself.
//
// R. C. Weng and C.-J. Lin, "A Bayesian Approximation Method for Online Ranking", JMLR 12 (2011) 267–300,
// Algorithm 4 (the Plackett–Luce model).
#include <span>
#include <vector>

namespace emporium::server::ratings {

// A player's belief about their skill in one game: a normal distribution N(mu, sigma²).
struct Rating {
  double mu = 0;
  double sigma = 0;
};

// openskill's defaults (its src/constants.ts): mu 25, sigma = mu / 3, beta = sigma / 2, kappa 1e-4, tau = mu / 300,
// and limitSigma off (so a sigma may grow a little after a game that told little, as in the package).
struct Parameters {
  double mu = 25.0;            // a new player's mean
  double sigma = 25.0 / 3.0;   // a new player's standard deviation
  double beta = 25.0 / 6.0;    // the spread of one game's performance around the skill
  double kappa = 1e-4;         // the floor of the factor by which a variance may shrink in one game
  double tau = 25.0 / 300.0;   // added to every sigma before a game (sigma² + tau²): skills drift over time
  bool limit_sigma = false;    // when set, a game never raises a sigma above its value before the game
};

inline constexpr int kMinPlayers = 2;
inline constexpr int kMaxPlayers = 6;

// A new player's rating: (mu, sigma) of the parameters.
Rating initial_rating(const Parameters& parameters = {});

// The ratings after one game: `players[i]` finished with rank `ranks[i]` (lower is better, equal ranks are a tie;
// only their order matters: {1, 2, 2} and {0, 5, 5} are the same result). Returns the new ratings in the same
// order. Throws std::invalid_argument unless there are 2 to 6 players, as many ranks as players, and every mu
// finite within ±1000 and every sigma finite in (0, 1000].
std::vector<Rating> rate(std::span<const Rating> players, std::span<const int> ranks,
                         const Parameters& parameters = {});

// ---- What players see (docs/ratings.md says why these).
// The conservative ordinal: mu - 3 sigma, below the skill with probability about 99.9 %. 0 for a new player.
double ordinal(const Rating& rating);
// The displayed rating: 1000 + 25 × ordinal, rounded, never below 0. A new player shows 1000; 25 points per unit of
// mu makes a gap of 100 between two settled players mean about what 100 Elo points mean (the higher wins a 2-player
// game about 65 % of the time; Elo says 64 %). A settled player of average skill (mu 25, sigma about 1.5) shows 1513.
inline constexpr double kDisplayedAtZero = 1000.0;
inline constexpr double kDisplayedPerMu = 25.0;
int displayed_rating(const Rating& rating);
// Provisional while sigma is at or above this (0.6 of a new player's 25/3): the skill still uncertain by 125
// displayed points or more; against settled opponents about 15 games of 2 or 3 players, 20 of 4, 30 of 6
// (docs/ratings.md).
inline constexpr double kProvisionalSigma = 5.0;
bool is_provisional(const Rating& rating);

}  // namespace emporium::server::ratings
