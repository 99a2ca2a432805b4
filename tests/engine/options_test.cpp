#include "emporium/engine/options.hpp"
#include "emporium/engine/registry.hpp"

#include <gtest/gtest.h>

#include <iterator>
#include <set>
#include <sstream>
#include <string>

namespace emporium::engine {
namespace {

std::vector<OptionSpec> sample_specs() {
  OptionSpec rounds{"rounds", "how many rounds", OptionSpec::Kind::integer, 3, 1, 5, {}};
  OptionSpec fast{"fast", "shorter game", OptionSpec::Kind::boolean, false, 0, 0, {}};
  OptionSpec map{"map", "which map", OptionSpec::Kind::choice, "north", 0, 0, {"north", "south"}};
  return {rounds, fast, map};
}

TEST(Options, DefaultsFillWhatIsNotGiven) {
  Error error;
  auto resolved = resolve_options(sample_specs(), Json::object({{"fast", true}}), &error);
  ASSERT_TRUE(resolved);
  EXPECT_EQ(*resolved, (Json{{"rounds", 3}, {"fast", true}, {"map", "north"}}));
  auto from_null = resolve_options(sample_specs(), nullptr, &error);
  ASSERT_TRUE(from_null);
  EXPECT_EQ((*from_null)["rounds"], 3);
}

TEST(Options, UnknownWrongTypeAndOutOfRangeAreRefused) {
  const std::vector<Json> bad = {
      Json{{"colour", "red"}},  Json{{"rounds", "3"}}, Json{{"rounds", 9}},
      Json{{"rounds", 2.5}},    Json{{"fast", 1}},     Json{{"map", "east"}},
      Json::array({1, 2}),
  };
  for (const auto& given : bad) {
    Error error;
    EXPECT_FALSE(resolve_options(sample_specs(), given, &error)) << given;
    EXPECT_EQ(error.code, errc::bad_options) << given;
    EXPECT_FALSE(error.message.empty());
  }
}

TEST(Registry, ListsEveryGameWithMetadata) {
  ASSERT_FALSE(all_games().empty());
  for (const auto& g : all_games()) {
    EXPECT_FALSE(g.id.empty());
    EXPECT_FALSE(g.display_name.empty());
    EXPECT_LE(2, g.min_players);
    EXPECT_LE(g.min_players, g.max_players);
    EXPECT_EQ(find_game(g.id), &g);
    const Json meta = g.to_json();
    EXPECT_EQ(meta["id"], g.id);
    EXPECT_EQ(meta["options"].size(), g.options.size());
  }
  const GameInfo* medici = find_game("medici");
  ASSERT_NE(medici, nullptr);
  EXPECT_EQ(medici->min_players, 2);
  EXPECT_EQ(medici->max_players, 6);
}

// The build makes per-game targets (the fuzzers) from its own list of ids (EMPORIUM_GAMES in
// engine/games/CMakeLists.txt): it must name the games games.cpp lists, no more and no fewer.
TEST(Registry, TheBuildListsTheSameGames) {
  std::istringstream build_list(EMPORIUM_GAMES);
  std::set<std::string> in_build{std::istream_iterator<std::string>(build_list), std::istream_iterator<std::string>()};
  std::set<std::string> in_engine;
  for (const auto& g : all_games()) in_engine.insert(g.id);
  EXPECT_EQ(in_build, in_engine);
}

TEST(Registry, CreateGameRefusesUnknownGameBadCountAndBadOptions) {
  EXPECT_EQ(create_game("chess", 2, {}, 1).error->code, errc::unknown_game);
  EXPECT_EQ(create_game("medici", 1, {}, 1).error->code, errc::bad_player_count);
  EXPECT_EQ(create_game("medici", 7, {}, 1).error->code, errc::bad_player_count);
  EXPECT_EQ(create_game("medici", 3, Json{{"nope", 1}}, 1).error->code, errc::bad_options);
  auto ok = create_game("medici", 3, {}, 1);
  ASSERT_FALSE(ok.error);
  EXPECT_EQ(ok.state->num_players(), 3);
}

}  // namespace
}  // namespace emporium::engine
