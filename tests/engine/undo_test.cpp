// Undo (docs/undo.md), over every game and player count: taking back a step gives exactly the state before it
// (views and legal lists included; only the version has grown), tells every viewer nothing the step had not
// told them, and is never offered across a draw, a reveal or another player's decision.
#include <gtest/gtest.h>

#include <map>

#include "hidden_twins.hpp"
#include "test_support.hpp"

namespace emporium::engine::testing {
namespace {

constexpr int kUndoGamesPerCount = 80;  // random games per (game, player count) (and undos in GenericGame's 1,000)
constexpr int kUndoCheckEvery = 3;      // of the steps that may be taken back, every third is taken back and compared
constexpr int kUndoTwinEvery = 4;       // and every fourth of those is checked against twins

const Json kUndoAction = Json::parse(R"({"type":"undo"})");

class Undo : public ::testing::TestWithParam<GameAndCount> {
 protected:
  std::unique_ptr<State> fresh(Seed seed) const {
    auto state = create_game(GetParam().game, GetParam().players, {}, seed).state;
    state->allow_undo(true);
    return state;
  }
};

Json without_version(Json view) {
  view.erase("version");
  return view;
}

// A move among the game's own actions (random play would otherwise take steps back half the time).
RecordedAction random_game_move(const State& state, Rng& rng) {
  const auto movers = state.to_move();
  const int player = movers[rng.below(movers.size())];
  auto legal = state.legal_actions(player);
  if (!legal.empty() && legal.back() == kUndoAction) legal.pop_back();
  const std::size_t pick = rng.below(3) == 0 ? 0 : rng.below(legal.size());
  return {player, legal[pick]};
}

TEST_P(Undo, TakingBackAStepGivesTheStateBeforeItAndTellsNobodyMore) {
  const auto perturber = perturbers().at(GetParam().game);
  const int players = GetParam().players;
  int offered = 0, twins = 0;
  for (int g = 0; g < kUndoGamesPerCount; ++g) {
    Record record{GetParam().game, players, Json::object(), Seed(0xD0 + g), {}};
    auto state = fresh(record.seed);
    Rng rng(31 * g + 7);
    while (!state->is_over()) {
      const auto move = random_game_move(*state, rng);
      auto before = state->clone();
      const auto result = state->apply(move.player, move.action);
      ASSERT_TRUE(result.ok()) << move.action;
      record.actions.push_back(move);
      ASSERT_EQ(state->version(), before->version() + 1);
      for (int p = 0; p < players; ++p) {
        if (p != move.player) {
          ASSERT_FALSE(state->can_undo(p));
        }
      }
      if (!state->can_undo(move.player)) continue;
      if (++offered % kUndoCheckEvery != 0) continue;
      SCOPED_TRACE("game " + std::to_string(g) + ", after " + move.action.dump());
      // Only the mover's own steps, while they are still the one to move, and told to nobody else alone.
      ASSERT_EQ(state->to_move(), std::vector<int>{move.player});
      for (const auto& e : result.events) ASSERT_TRUE(!e.only_player || *e.only_player == move.player);
      const auto legal = state->legal_actions(move.player);
      ASSERT_EQ(legal.back(), kUndoAction);
      ASSERT_EQ(state->legal_actions_json(move.player), Json(legal).dump());

      // The mover learnt nothing: a twin that differs in what they cannot see (the bag, a deck's order, another
      // player's hand or stock) looks the same to them after the step as before it.
      if (offered % (kUndoCheckEvery * kUndoTwinEvery) == 0) {
        const auto mover = Viewer::of_player(move.player);
        if (auto twin = perturber(*before, mover, rng)) {
          ++twins;
          const auto from_twin = twin->state->apply(move.player, move.action);
          ASSERT_TRUE(from_twin.ok());
          ASSERT_EQ(twin->state->view(mover), state->view(mover));
          ASSERT_EQ(events_for(from_twin.events, mover), events_for(result.events, mover));
          ASSERT_EQ(twin->state->legal_actions(move.player), legal);
        }
      }

      auto undone = state->clone();
      const auto taken = undone->apply(move.player, kUndoAction);
      ASSERT_TRUE(taken.ok()) << taken.error->message;
      ASSERT_EQ(undone->version(), state->version() + 1);  // versions only grow
      // Exactly the position before the step, for everyone.
      for (const auto& v : all_viewers(players)) {
        ASSERT_EQ(without_version(undone->view(v)), without_version(before->view(v)));
        ASSERT_EQ(events_for(taken.events, v),
                  Json::array({{{"type", "undo"}, {"player", move.player}, {"undone", events_for(result.events, v)}}}));
      }
      ASSERT_EQ(without_version(undone->view(Viewer::full())), without_version(before->view(Viewer::full())));
      for (int p = 0; p < players; ++p) ASSERT_EQ(undone->legal_actions(p), before->legal_actions(p));
      ASSERT_EQ(undone->to_move(), before->to_move());
      // Nothing hidden differs either: the same moves give the same draws from both.
      {
        auto a = undone->clone(), b = before->clone();
        Rng moves(g);
        ASSERT_FALSE(plays_on_differently(*a, *b, moves, 12));
      }
      // Half the time the game goes on from the taken-back position.
      if (rng.below(2) == 0) {
        state = std::move(undone);
        record.actions.push_back({move.player, kUndoAction});
      }
    }
    // The history with its undos replays to the same state.
    auto replayed = replay(Record::from_json(Json::parse(record.to_json().dump())));
    ASSERT_FALSE(replayed.error) << replayed.error->message << " at " << replayed.failed_at;
    ASSERT_TRUE(replayed.state->equals(*state));
  }
  if (GetParam().game == "medici") {
    EXPECT_EQ(offered, 0) << "Medici has no step to take back";
  } else {
    EXPECT_GT(offered, kUndoGamesPerCount);
    EXPECT_GT(twins, 5);
  }
}

// Each game's rule (docs/rules/<game>.md, "Undo"): after which actions a step may be taken back, and after which
// never. Counts over random games, by action type.
TEST_P(Undo, EachGameOffersItAfterTheStepsItsRuleNames) {
  std::map<std::string, int> offered, taken;
  for (int g = 0; g < 60; ++g) {
    auto state = fresh(Seed(0xE0 + g));
    Rng rng(g);
    while (!state->is_over()) {
      const auto move = random_game_move(*state, rng);
      const auto result = state->apply(move.player, move.action);
      ASSERT_TRUE(result.ok());
      const auto type = move.action["type"].get<std::string>();
      ++taken[type];
      offered[type] += state->can_undo(move.player);
    }
  }
  auto never = [&](const std::string& type) { EXPECT_EQ(offered[type], 0) << "undo offered after " << type; };
  auto sometimes = [&](const std::string& type) {
    ASSERT_GT(taken[type], 0) << type;
    EXPECT_GT(offered[type], 0) << "undo never offered after " << type;
  };
  const auto& game = GetParam().game;
  if (game == "medici") {
    for (const auto& [type, n] : taken) never(type);
  } else if (game == "medina") {
    sometimes("place");  // the first piece of a turn; never the one that ends it
    EXPECT_LT(offered["place"], taken["place"] * 2 / 3);
  } else if (game == "silkroad") {
    for (const char* type : {"exchange", "pass", "play"}) sometimes(type);
    for (const char* type : {"load", "draw", "extra_draw", "done"}) never(type);
  } else if (game == "merkator") {
    for (const char* type : {"end_investment", "take"}) sometimes(type);
    // Keeping a turned letter shows nothing new (the next one would turn another counter).
    for (const char* type : {"buy", "fulfil", "join", "decline", "done", "next_letter"}) never(type);
  } else {
    ADD_FAILURE() << "say where " << game << " allows undo";
  }
}

TEST_P(Undo, IsRefusedWhenOffAndWhenNothingCanBeTakenBack) {
  auto state = create_game(GetParam().game, GetParam().players, {}, Seed(5)).state;
  const int mover = state->to_move().front();
  // Off (as a new game is): a clear refusal, nothing changed.
  auto refused = state->apply(mover, kUndoAction);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error->code, errc::undo_not_allowed);
  EXPECT_EQ(state->version(), 0u);
  // On, before any step: nothing to take back; another player is not to move.
  state->allow_undo(true);
  EXPECT_EQ(state->apply(mover, kUndoAction).error->code, errc::undo_not_allowed);
  EXPECT_EQ(state->apply((mover + 1) % GetParam().players, kUndoAction).error->code, errc::not_your_turn);
  EXPECT_EQ(state->apply(mover, Json{{"type", "undo"}, {"steps", 2}}).error->code, errc::malformed_action);
  // Sealed (a bot moved for the seat, the table was read back): the steps so far stay.
  Rng rng(3);
  for (int i = 0; i < 400 && !state->is_over(); ++i) {
    const auto move = random_game_move(*state, rng);
    ASSERT_TRUE(state->apply(move.player, move.action).ok());
    if (state->can_undo(move.player)) {
      state->seal_undo();
      EXPECT_FALSE(state->can_undo(move.player));
      EXPECT_EQ(state->apply(move.player, kUndoAction).error->code, errc::undo_not_allowed);
      break;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllGames, Undo, ::testing::ValuesIn(every_game_and_count()),
                         [](const auto& info) { return case_name(info.param); });

}  // namespace
}  // namespace emporium::engine::testing
