// Merkator's bot, beyond the generic bot tests: a sampled state deals exactly the unseen components into the
// hidden places (each contract pile holds the contracts of its value nobody sees, below the same top; the
// draw piles hold the cards neither owned nor face up; the face-down counters carry the letters not seen),
// and the quick policy always answers a legal action.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "emporium/engine/bot.hpp"
#include "merkator/merkator.hpp"
#include "test_support.hpp"

namespace emporium::engine::merkator {
namespace {

std::vector<int> sorted(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// Plays `actions` random moves from a new game.
std::unique_ptr<State> game_after(int players, std::uint64_t seed, int actions) {
  auto state = create_game("merkator", players, {}, seed).state;
  Rng rng(seed + 1);
  for (int n = 0; n < actions && !state->is_over(); ++n) {
    const auto move = testing::random_move(*state, rng);
    EXPECT_TRUE(state->apply(move.player, move.action).ok());
  }
  return state;
}

TEST(MerkatorBot, SampleDealsExactlyTheUnseenComponentsIntoTheHiddenPlaces) {
  const bot::GameBot& b = *bot::find_bot("merkator");
  for (int players = 2; players <= 4; ++players) {
    for (int g = 0; g < 4; ++g) {
      auto state = game_after(players, 40 + g, 40 * g + 15);
      if (state->is_over()) continue;
      const auto& real = static_cast<const MerkatorState&>(*state).data();
      const int seat = state->to_move().front();
      Rng rng(g);
      auto sampled = b.sample(state->view(Viewer::of_player(seat)), seat, rng);
      const auto& s = static_cast<const MerkatorState&>(*sampled).data();
      const Catalog& c = *real.catalog;
      // Contract piles: same size, same top, same cards (in some order).
      ASSERT_EQ(s.piles.size(), real.piles.size());
      for (std::size_t v = 0; v < real.piles.size(); ++v) {
        ASSERT_EQ(sorted(s.piles[v]), sorted(real.piles[v])) << "value " << c.values[v];
        if (!real.piles[v].empty()) {
          EXPECT_EQ(s.piles[v].back(), real.piles[v].back());
        }
      }
      EXPECT_EQ(s.discards, real.discards);
      EXPECT_EQ(sorted(s.bonus_pile), sorted(real.bonus_pile));
      EXPECT_EQ(sorted(s.building_pile), sorted(real.building_pile));
      // The chart: the same shape, the known letters where they were, and every letter at most as often as
      // the catalog has it.
      ASSERT_EQ(s.chart.size(), real.chart.size());
      std::map<std::string, int> letters;
      for (const auto& l : c.time_chart) ++letters[c.letter_name(l)];
      for (std::size_t r = 0; r < real.chart.size(); ++r) {
        ASSERT_EQ(s.chart[r].size(), real.chart[r].size());
        for (std::size_t i = 0; i < real.chart[r].size(); ++i) {
          EXPECT_EQ(s.chart[r][i].known, real.chart[r][i].known);
          if (real.chart[r][i].known) {
            EXPECT_EQ(c.letter_name(c.time_chart[s.chart[r][i].letter]),
                      c.letter_name(c.time_chart[real.chart[r][i].letter]));
          }
          EXPECT_GE(--letters[c.letter_name(c.time_chart[s.chart[r][i].letter])], 0);
        }
      }
      // Everything public is copied.
      EXPECT_EQ(s.seats, real.seats);
      EXPECT_EQ(s.cubes, real.cubes);
      EXPECT_EQ(s.phase, real.phase);
      EXPECT_EQ(s.decider, real.decider);
    }
  }
}

TEST(MerkatorBot, TheQuickPolicyAlwaysAnswersALegalAction) {
  const bot::GameBot& b = *bot::find_bot("merkator");
  for (int players = 2; players <= 4; ++players) {
    for (int g = 0; g < 3; ++g) {
      auto state = create_game("merkator", players, {}, 900 + g).state;
      Rng rng(g);
      int n = 0;
      while (!state->is_over()) {
        const int p = state->to_move().front();
        const auto legal = state->legal_actions(p);
        // Mostly the policy everywhere, with random moves now and then to reach odd positions.
        const Json action = rng.below(6) == 0 ? legal[rng.below(legal.size())] : b.quick_action(*state, p, rng);
        ASSERT_NE(std::find(legal.begin(), legal.end(), action), legal.end()) << action;
        ASSERT_TRUE(state->apply(p, action).ok());
        ASSERT_LT(++n, 5000) << "the game does not end";
      }
    }
  }
}

}  // namespace
}  // namespace emporium::engine::merkator
