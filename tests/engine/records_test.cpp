// Published game records: the commitment, and emporium-verify's checks (records::verify) on complete games of
// every game, untouched and tampered with.
#include "emporium/records/records.hpp"

#include <gtest/gtest.h>

#include "test_support.hpp"

namespace emporium::records {
namespace {

using engine::testing::random_move;

TEST(Commitment, IsSha256OfTheSaltBytesThenTheSeedBytes) {
  // Reference: python3 -c "import hashlib; print(hashlib.sha256(bytes(range(32))).hexdigest())"
  const auto seed = engine::Seed::parse("101112131415161718191a1b1c1d1e1f");
  ASSERT_TRUE(seed);
  EXPECT_EQ(commitment_of("000102030405060708090a0b0c0d0e0f", *seed),
            "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd");
  EXPECT_EQ(commitment_of("000102030405060708090A0B0C0D0E0F", *seed), commitment_of("000102030405060708090a0b0c0d0e0f", *seed));
  EXPECT_EQ(commitment_of("0001", *seed), "");
  EXPECT_EQ(commitment_of("zz0102030405060708090a0b0c0d0e0f", *seed), "");
}

// A complete random game of `game`, published as the server does.
Json finished_record(const std::string& game, int players, std::uint64_t play_seed) {
  Published p;
  p.table = "t1";
  p.game.game = game;
  p.game.players = players;
  p.game.seed = engine::Seed(0x0123456789abcdefULL ^ play_seed, 0xfedcba9876543210ULL + play_seed);
  auto created = engine::create_game(game, players, Json::object(), p.game.seed);
  EXPECT_FALSE(created.error);
  p.game.options = created.options;
  engine::Rng rng(play_seed);
  auto& state = *created.state;
  for (int i = 0; i < 20000 && !state.is_over(); ++i) {
    const auto move = random_move(state, rng);
    EXPECT_TRUE(state.apply(move.player, move.action).ok());
    p.game.actions.push_back(move);
  }
  EXPECT_TRUE(state.is_over());
  for (int s = 0; s < players; ++s) p.seats.push_back({{"seat", s}, {"name", "P" + std::to_string(s)}});
  p.salt = "00112233445566778899aabbccddeeff";
  p.result = state.result();
  p.finished_at = 1800000000;
  return to_json(p);
}

class Records : public ::testing::TestWithParam<std::string> {};

TEST_P(Records, ACompleteGamesRecordIsVerified) {
  const Json record = finished_record(GetParam(), 3, 5);
  EXPECT_EQ(record["format"], kFormat);
  EXPECT_EQ(record["commitment"], commitment_of(record["salt"].get<std::string>(), *engine::Seed::parse(record["seed"].get<std::string>())));
  const auto verdict = verify(record);
  EXPECT_TRUE(verdict.ok) << verdict.message;
  EXPECT_NE(verdict.message.find("verified"), std::string::npos);
}

TEST_P(Records, AChangedActionIsNamed) {
  Json record = finished_record(GetParam(), 3, 6);
  // The first move whose action another legal one can replace: the verdict names that move.
  auto& actions = record["actions"];
  const auto n = actions.size();
  bool changed = false;
  for (std::size_t i = 0; i < n && !changed; ++i) {
    engine::Record prefix = engine::Record::from_json(record);
    prefix.actions.resize(i);
    auto replayed = engine::replay(prefix);
    const int player = actions[i]["player"].get<int>();
    for (const auto& other : replayed.state->legal_actions(player)) {
      if (other == actions[i]["action"]) continue;
      actions[i]["action"] = other;
      changed = true;
      const auto verdict = verify(record);
      EXPECT_FALSE(verdict.ok) << "move " << i + 1 << " changed to " << other.dump() << " and still verified";
      break;
    }
  }
  ASSERT_TRUE(changed);
  // A move that is not legal at all is refused by name.
  Json refused = finished_record(GetParam(), 3, 6);
  refused["actions"][2]["action"] = {{"type", "no-such-move"}};
  const auto verdict = verify(refused);
  EXPECT_FALSE(verdict.ok);
  EXPECT_NE(verdict.message.find("move 3 "), std::string::npos) << verdict.message;
}

TEST_P(Records, ARemovedActionFails) {
  Json record = finished_record(GetParam(), 3, 7);
  auto& actions = record["actions"];
  actions.erase(actions.size() / 2);
  EXPECT_FALSE(verify(record).ok);
  Json last_dropped = finished_record(GetParam(), 3, 7);
  last_dropped["actions"].erase(last_dropped["actions"].size() - 1);
  const auto verdict = verify(last_dropped);
  EXPECT_FALSE(verdict.ok);
  EXPECT_NE(verdict.message.find("not over"), std::string::npos) << verdict.message;
}

TEST_P(Records, AChangedSeedSaltOrCommitmentFails) {
  const Json record = finished_record(GetParam(), 3, 8);
  for (const char* field : {"seed", "salt", "commitment"}) {
    Json tampered = record;
    std::string value = tampered[field];
    value[5] = value[5] == '0' ? '1' : '0';
    tampered[field] = value;
    const auto verdict = verify(tampered);
    EXPECT_FALSE(verdict.ok) << field;
    EXPECT_NE(verdict.message.find("commitment does not match"), std::string::npos) << verdict.message;
  }
  // A seed changed together with a matching commitment: the moves no longer fit the deal, or the result differs.
  Json reseeded = record;
  const auto seed = engine::Seed(1, 2);
  reseeded["seed"] = seed.to_hex();
  reseeded["commitment"] = commitment_of(reseeded["salt"].get<std::string>(), seed);
  EXPECT_FALSE(verify(reseeded).ok);
}

TEST_P(Records, AChangedResultFails) {
  Json record = finished_record(GetParam(), 3, 9);
  record["result"]["winners"] = Json::array({2, 1, 0});
  const auto verdict = verify(record);
  EXPECT_FALSE(verdict.ok);
  EXPECT_NE(verdict.message.find("result differs"), std::string::npos) << verdict.message;
}

TEST_P(Records, ViewsAtEachVersionAreTheFullViewsOfTheReplay) {
  const Json record = finished_record(GetParam(), 3, 10);
  const auto game = engine::Record::from_json(record);
  const Json steps = replay_steps(game);
  ASSERT_EQ(steps.size(), game.actions.size() + 1);
  for (std::size_t v : {std::size_t{0}, game.actions.size() / 2, game.actions.size()}) {
    std::string error;
    const auto view = full_view_at(record, v, &error);
    ASSERT_TRUE(view) << error;
    EXPECT_EQ(*view, steps[v]["view"]) << "version " << v;
    EXPECT_EQ(steps[v]["version"], v);
  }
  EXPECT_EQ(steps[1]["action"], game.actions[0].action);
  std::string error;
  EXPECT_FALSE(full_view_at(record, game.actions.size() + 1, &error));
  EXPECT_FALSE(error.empty());
}

TEST_P(Records, TheStepAfterAnActionIsTheReplaysStepForTheActionPlayed) {
  const Json record = finished_record(GetParam(), 3, 12);
  const auto game = engine::Record::from_json(record);
  const Json steps = replay_steps(game);
  for (std::size_t v : {std::size_t{0}, game.actions.size() / 2, game.actions.size() - 1}) {
    const auto& played = game.actions[v];
    EXPECT_EQ(step_after(game, v, played.player, played.action), steps[v + 1]) << "version " << v;
  }
  // Another legal move at the start: its own position, not the one played.
  auto created = engine::create_game(game.game, game.players, game.options, game.seed);
  ASSERT_FALSE(created.error);
  const int mover = game.actions[0].player;
  for (const auto& move : created.state->legal_actions(mover)) {
    if (move == game.actions[0].action) continue;
    const Json other = step_after(game, 0, mover, move);
    ASSERT_FALSE(other.is_null()) << move;
    EXPECT_EQ(other["action"], move);
    EXPECT_EQ(other["version"], 1);
    EXPECT_NE(other["view"], steps[1]["view"]);
    break;
  }
  // Beyond the record, or a move the rules refuse: nothing.
  EXPECT_TRUE(step_after(game, game.actions.size() + 1, mover, game.actions[0].action).is_null());
  EXPECT_TRUE(step_after(game, 0, mover, Json{{"type", "no such move"}}).is_null());
}

TEST(Records, ARecordWithoutCommitmentOrOfAnotherFormatIsNotVerified) {
  Json record = finished_record("medici", 3, 11);
  record["salt"] = nullptr;
  record["commitment"] = nullptr;
  EXPECT_FALSE(verify(record).ok);
  EXPECT_FALSE(verify(Json::object()).ok);
  EXPECT_FALSE(verify(Json{{"format", kFormat}, {"game", "medici"}}).ok);
  // Fields of the wrong type are a malformed record, never an exception.
  EXPECT_FALSE(verify(Json{{"format", 5}}).ok);
  for (const char* field : {"engine", "salt", "commitment", "seed", "actions", "players", "result"}) {
    Json odd = finished_record("medici", 3, 12);
    odd[field] = Json::array({1, {{"x", 2}}});
    EXPECT_FALSE(verify(odd).ok) << field;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryGame, Records, ::testing::ValuesIn(engine::testing::every_game_id()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace emporium::records
