// Hidden information is a security property: what a viewer may not know must not change what
// that viewer is shown. Two states that differ only in such information must give that viewer
// identical views, identical legal actions and identical events.
#include <gtest/gtest.h>

#include "hidden_twins.hpp"
#include "test_support.hpp"

namespace emporium::engine::testing {
namespace {

class Leak : public ::testing::TestWithParam<GameAndCount> {};

TEST_P(Leak, EveryGameHasAPerturber) {
  EXPECT_TRUE(perturbers().count(GetParam().game)) << "add a perturber for " << GetParam().game;
}

TEST_P(Leak, StatesDifferingInHiddenInformationLookTheSameToTheViewer) {
  const auto it = perturbers().find(GetParam().game);
  ASSERT_NE(it, perturbers().end());
  int twins_checked = 0, actions_compared = 0;
  for (int g = 0; g < 30; ++g) {
    auto state = create_game(GetParam().game, GetParam().players, {}, 900 + g).state;
    Rng rng(g);
    while (!state->is_over()) {
      if (rng.below(6) == 0) {
        for (const auto& viewer : all_viewers(state->num_players())) {
          auto twin = it->second(*state, viewer, rng);
          if (!twin) continue;
          ++twins_checked;
          ASSERT_FALSE(twin->state->equals(*state));
          ASSERT_EQ(twin->state->view(viewer), state->view(viewer));
          if (viewer.kind == Viewer::Kind::player) {
            ASSERT_EQ(twin->state->legal_actions(viewer.player), state->legal_actions(viewer.player));
          }
          // Play on, identically, while the difference is still hidden.
          auto original = state->clone();
          Rng play(rng.next());
          while (!original->is_over()) {
            const auto move = random_move(*original, play);
            const auto a = original->apply(move.player, move.action);
            ASSERT_TRUE(a.ok());
            const auto b = twin->state->apply(move.player, move.action);
            if (!twin->still_hidden(a.events)) break;
            ASSERT_TRUE(b.ok()) << move.action;
            ++actions_compared;
            ASSERT_EQ(events_for(b.events, viewer), events_for(a.events, viewer)) << move.action;
            ASSERT_EQ(twin->state->view(viewer), original->view(viewer));
          }
        }
      }
      const auto move = random_move(*state, rng);
      ASSERT_TRUE(state->apply(move.player, move.action).ok());
    }
  }
  EXPECT_GT(twins_checked, 100);
  EXPECT_GT(actions_compared, 100);
}

// Every field only the full view has (the bag, the removed tiles, ...) must never appear verbatim
// in a player's or spectator's view or event, and neither may the seed.
void expect_no_secret_in(const std::string& text, const std::vector<std::string>& secrets,
                         const std::string& where) {
  for (const auto& secret : secrets) {
    ASSERT_EQ(text.find(secret), std::string::npos) << where << " contains " << secret;
  }
}

TEST_P(Leak, SeedAndHiddenFieldsNeverAppearInViewsOrEvents) {
  for (int g = 0; g < 20; ++g) {
    const std::uint64_t seed = 0xC0FFEE1234567ULL * (g + 1) + 0x5EED;
    auto state = create_game(GetParam().game, GetParam().players, {}, seed).state;
    Rng rng(g);
    int hidden_fields_seen = 0;
    auto secrets_now = [&] {
      const Json full = state->view(Viewer::full());
      const Json spectator = state->view(Viewer::spectator());
      std::vector<std::string> secrets = {std::to_string(seed), "\"seed\"", "\"rng\""};
      for (const auto& [key, value] : full.items()) {
        if (spectator.contains(key)) continue;
        ++hidden_fields_seen;
        secrets.push_back("\"" + key + "\":");
        if ((value.is_array() && value.size() >= 2) || (value.is_string() && value.size() >= 8)) {
          secrets.push_back(value.dump());
        }
      }
      return secrets;
    };
    while (!state->is_over()) {
      for (const auto& viewer : all_viewers(state->num_players())) {
        expect_no_secret_in(state->view(viewer).dump(), secrets_now(), "view");
      }
      const auto move = random_move(*state, rng);
      const auto result = state->apply(move.player, move.action);
      // What is still hidden after the action must not be in its events (a draw reveals a tile).
      const auto secrets = secrets_now();
      for (const auto& viewer : all_viewers(state->num_players())) {
        // The text a frame carries, which must also be the same events as the tree form.
        const std::string sent = events_json_for(result.events, viewer);
        ASSERT_EQ(Json::parse(sent), events_for(result.events, viewer));
        expect_no_secret_in(sent, secrets, "events");
      }
    }
    // The detector itself must have had something to look for.
    EXPECT_GT(hidden_fields_seen, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(AllGames, Leak, ::testing::ValuesIn(every_game_and_count()),
                         [](const auto& info) { return case_name(info.param); });

}  // namespace
}  // namespace emporium::engine::testing
