// The rating model (server/ratings/, docs/ratings.md) as a pure unit. tests/tools/ratings_oracle.mjs checks it
// against the npm package openskill on thousands of random games; these are the cases one can check by hand.
#include "ratings/ratings.hpp"
#include "ratings/bot_ratings.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace {

using emporium::server::ratings::bot_rating;
using emporium::server::ratings::displayed_rating;
using emporium::server::ratings::initial_rating;
using emporium::server::ratings::is_provisional;
using emporium::server::ratings::kBotSigma;
using emporium::server::ratings::ordinal;
using emporium::server::ratings::Parameters;
using emporium::server::ratings::rate;
using emporium::server::ratings::Rating;

std::vector<Rating> rate_all(const std::vector<Rating>& players, const std::vector<int>& ranks) {
  return rate(players, ranks);
}

std::vector<Rating> new_players(int n) { return std::vector<Rating>(static_cast<std::size_t>(n), initial_rating()); }

TEST(Ratings, DefaultsAreOpenskills) {
  const Parameters p;
  EXPECT_DOUBLE_EQ(p.mu, 25.0);
  EXPECT_DOUBLE_EQ(p.sigma, 25.0 / 3);
  EXPECT_DOUBLE_EQ(p.beta, p.sigma / 2);
  EXPECT_DOUBLE_EQ(p.kappa, 1e-4);
  EXPECT_DOUBLE_EQ(p.tau, 25.0 / 300);
  EXPECT_FALSE(p.limit_sigma);
  EXPECT_DOUBLE_EQ(initial_rating().mu, 25.0);
  EXPECT_DOUBLE_EQ(initial_rating().sigma, 25.0 / 3);
}

// Two new players, the first wins. By hand from Algorithm 4: both sigmas become s = sqrt(sigma² + tau²);
// c = sqrt(2 (s² + beta²)); C_winner = 2 e^(25/c), C_loser = e^(25/c), so the winner's quotient is 1/2:
// Omega = ±(1/2) s²/c, Delta = (1/4) (s²/c²) (s/c) for both; mu = 25 ± Omega, sigma = s sqrt(1 - Delta).
// openskill 5.0.1 gives 27.635389493140497, 22.364610506859503 and 8.06590141354368.
TEST(Ratings, TwoNewPlayersByHand) {
  const double s_sq = 25.0 / 3 * 25.0 / 3 + 25.0 / 300 * 25.0 / 300;
  const double beta = 25.0 / 6;
  const double c = std::sqrt(2 * (s_sq + beta * beta));
  const double omega = 0.5 * s_sq / c;
  const double delta = 0.25 * s_sq / (c * c) * std::sqrt(s_sq) / c;
  const auto after = rate_all(new_players(2), {1, 2});
  ASSERT_EQ(after.size(), 2U);
  EXPECT_NEAR(after[0].mu, 25 + omega, 1e-12);
  EXPECT_NEAR(after[1].mu, 25 - omega, 1e-12);
  EXPECT_NEAR(after[0].sigma, std::sqrt(s_sq) * std::sqrt(1 - delta), 1e-12);
  EXPECT_NEAR(after[1].sigma, after[0].sigma, 1e-12);
  EXPECT_NEAR(after[0].mu, 27.635389493140497, 1e-9);
  EXPECT_NEAR(after[1].mu, 22.364610506859503, 1e-9);
  EXPECT_NEAR(after[0].sigma, 8.06590141354368, 1e-9);
}

TEST(Ratings, OnlyTheOrderOfRanksMatters) {
  const std::vector<Rating> players{{30, 4}, {22, 6}, {25, 2}};
  const auto a = rate_all(players, {1, 2, 3});
  const auto b = rate_all(players, {0, 7, 40});
  const auto c = rate_all({players[2], players[0], players[1]}, {3, 1, 2});  // the same game, seats in another order
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_DOUBLE_EQ(a[i].mu, b[i].mu);
    EXPECT_DOUBLE_EQ(a[i].sigma, b[i].sigma);
  }
  EXPECT_NEAR(c[1].mu, a[0].mu, 1e-12);
  EXPECT_NEAR(c[2].mu, a[1].mu, 1e-12);
  EXPECT_NEAR(c[0].mu, a[2].mu, 1e-12);
  EXPECT_NEAR(c[0].sigma, a[2].sigma, 1e-12);
}

TEST(Ratings, TiedEqualPlayersStayEqual) {
  const auto two = rate_all(new_players(2), {1, 1});
  EXPECT_NEAR(two[0].mu, 25, 1e-12);  // a draw between equals moves no mean
  EXPECT_NEAR(two[1].mu, 25, 1e-12);
  EXPECT_DOUBLE_EQ(two[0].sigma, two[1].sigma);
  EXPECT_LT(two[0].sigma, 25.0 / 3);  // but says something

  // Six players, the middle four tied: the tied ones end equal to each other, between the winner and the last.
  const auto six = rate_all(new_players(6), {1, 2, 2, 2, 2, 6});
  for (int i = 2; i <= 4; ++i) {
    EXPECT_NEAR(six[static_cast<std::size_t>(i)].mu, six[1].mu, 1e-12);
    EXPECT_NEAR(six[static_cast<std::size_t>(i)].sigma, six[1].sigma, 1e-12);
  }
  EXPECT_GT(six[0].mu, six[1].mu);
  EXPECT_GT(six[1].mu, six[5].mu);
}

TEST(Ratings, TiesAreSymmetric) {
  // Two unequal players who tie: swapping their seats swaps their results exactly.
  const Rating strong{31, 3}, weak{19, 5};
  const auto a = rate_all({strong, weak}, {1, 1});
  const auto b = rate_all({weak, strong}, {1, 1});
  EXPECT_NEAR(a[0].mu, b[1].mu, 1e-12);
  EXPECT_NEAR(a[1].mu, b[0].mu, 1e-12);
  EXPECT_NEAR(a[0].sigma, b[1].sigma, 1e-12);
  EXPECT_NEAR(a[1].sigma, b[0].sigma, 1e-12);
  EXPECT_LT(a[0].mu, strong.mu);  // a tie with a weaker player costs the stronger one
  EXPECT_GT(a[1].mu, weak.mu);
}

TEST(Ratings, WinnersGainLosersLoseSigmasShrink) {
  for (int n = 2; n <= 6; ++n) {
    std::vector<int> ranks;
    for (int i = 0; i < n; ++i) ranks.push_back(i + 1);
    const auto before = new_players(n);
    const auto after = rate_all(before, ranks);
    EXPECT_GT(after.front().mu, 25) << n << " players";
    EXPECT_LT(after.back().mu, 25) << n << " players";
    for (std::size_t i = 0; i + 1 < after.size(); ++i) EXPECT_GT(after[i].mu, after[i + 1].mu) << n << " players";
    for (const Rating& r : after) EXPECT_LT(r.sigma, before[0].sigma) << n << " players";
    EXPECT_GT(displayed_rating(after.front()), displayed_rating(before.front()));
    EXPECT_LT(displayed_rating(after.back()), displayed_rating(before.back()));
  }
  // An upset moves more than the expected result.
  const Rating strong{32, 2}, weak{20, 2};
  const auto expected = rate_all({strong, weak}, {1, 2});
  const auto upset = rate_all({strong, weak}, {2, 1});
  EXPECT_GT(upset[1].mu - weak.mu, expected[0].mu - strong.mu);
}

TEST(Ratings, SixPlayers) {
  const std::vector<Rating> players{{25, 25.0 / 3}, {30, 2}, {18, 5}, {27, 1.2}, {22, 7}, {35, 4}};
  const auto after = rate_all(players, {3, 1, 6, 2, 5, 3});
  ASSERT_EQ(after.size(), 6U);
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_TRUE(std::isfinite(after[i].mu));
    EXPECT_GT(after[i].sigma, 0);
  }
  EXPECT_GT(after[1].mu, players[1].mu);  // first
  EXPECT_LT(after[2].mu, players[2].mu);  // last
  EXPECT_LT(after[5].mu, players[5].mu);  // the favourite, third
}

TEST(Ratings, TheLessKnownMoveMore) {
  // The same win against the same field: a new player's mu moves further, and their sigma shrinks more.
  const std::vector<Rating> field{{25, 2}, {25, 2}};
  const auto fresh = rate_all({initial_rating(), field[0], field[1]}, {1, 2, 3});
  const auto settled = rate_all({{25, 2}, field[0], field[1]}, {1, 2, 3});
  EXPECT_GT(fresh[0].mu - 25, settled[0].mu - 25);
  EXPECT_GT(25.0 / 3 - fresh[0].sigma, 2 - settled[0].sigma);
}

TEST(Ratings, InvalidGamesAreRefused) {
  EXPECT_THROW(rate_all(new_players(1), {1}), std::invalid_argument);
  EXPECT_THROW(rate_all(new_players(7), {1, 2, 3, 4, 5, 6, 7}), std::invalid_argument);
  EXPECT_THROW(rate_all({}, {}), std::invalid_argument);
  EXPECT_THROW(rate_all(new_players(3), {1, 2}), std::invalid_argument);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (const Rating bad : {Rating{nan, 5}, Rating{inf, 5}, Rating{2000, 5}, Rating{25, 0}, Rating{25, -1},
                           Rating{25, nan}, Rating{25, inf}, Rating{25, 5000}}) {
    EXPECT_THROW(rate_all({initial_rating(), bad}, {1, 2}), std::invalid_argument) << bad.mu << " " << bad.sigma;
  }
  EXPECT_NO_THROW(rate_all({{-40, 0.01}, {90, 20}}, {1, 2}));
}

TEST(Ratings, LimitSigmaKeepsSigmasFromGrowing) {
  // A settled player in a game that tells almost nothing: tau makes the sigma grow, unless limited.
  const std::vector<Rating> players{{25, 0.5}, {25, 0.5}};
  const std::vector<int> tie{1, 1};
  EXPECT_GT(rate(players, tie)[0].sigma, 0.5);
  Parameters limited;
  limited.limit_sigma = true;
  EXPECT_LE(rate(players, tie, limited)[0].sigma, 0.5);
}

TEST(Ratings, DisplayedRatingAndProvisional) {
  EXPECT_DOUBLE_EQ(ordinal(initial_rating()), 0.0);
  EXPECT_EQ(displayed_rating(initial_rating()), 1000);
  EXPECT_EQ(displayed_rating({25, 1.5}), 1513);  // 1000 + 25 × 20.5 = 1512.5, rounded away from zero
  EXPECT_EQ(displayed_rating({30, 2}), 1600);
  EXPECT_EQ(displayed_rating({-30, 8}), 0);  // never below 0
  EXPECT_TRUE(is_provisional(initial_rating()));
  EXPECT_TRUE(is_provisional({25, 5.0}));
  EXPECT_FALSE(is_provisional({25, 4.999}));
}

// The bots' published ratings (ratings/bot_ratings.hpp): every game with a bot (the engine's four) has one per level,
// easy at a new player's mu (the anchor), normal above it, both settled; anything else has none.
TEST(BotRatings, EveryGameAndLevelHasOne) {
  for (const char* game : {"medici", "merkator", "medina", "silkroad"}) {
    const auto easy = bot_rating(game, "easy");
    const auto normal = bot_rating(game, "normal");
    ASSERT_TRUE(easy.has_value()) << game;
    ASSERT_TRUE(normal.has_value()) << game;
    EXPECT_DOUBLE_EQ(easy->mu, initial_rating().mu) << game;
    EXPECT_GT(normal->mu, easy->mu + 5) << game;  // normal wins most games against easy (bench/bot_arena)
    EXPECT_LT(normal->mu, easy->mu + 40) << game;
    for (const Rating& r : {*easy, *normal}) {
      EXPECT_DOUBLE_EQ(r.sigma, kBotSigma) << game;
      EXPECT_FALSE(is_provisional(r)) << game;
    }
    EXPECT_GT(displayed_rating(*normal), displayed_rating(*easy)) << game;
    // A new player gains more by beating the normal bot than by beating the easy one (the bot's result is dropped).
    const auto beat_easy = rate_all({initial_rating(), *easy}, {1, 2});
    const auto beat_normal = rate_all({initial_rating(), *normal}, {1, 2});
    EXPECT_GT(beat_normal[0].mu, beat_easy[0].mu) << game;
  }
}

TEST(BotRatings, UnknownGamesAndLevelsHaveNone) {
  EXPECT_FALSE(bot_rating("medici", "random").has_value());
  EXPECT_FALSE(bot_rating("medici", "hard").has_value());
  EXPECT_FALSE(bot_rating("medici", "").has_value());
  EXPECT_FALSE(bot_rating("medici", "Easy").has_value());
  EXPECT_FALSE(bot_rating("chess", "easy").has_value());
  EXPECT_FALSE(bot_rating("", "normal").has_value());
  EXPECT_FALSE(bot_rating("Medici", "easy").has_value());
}

}  // namespace
