// The analysis of finished games (engine/analysis, docs/analysis.md): deterministic, refused for a running game,
// and right where the answer is known: per title, a game whose winner was decided by a late move.
#include "emporium/analysis/analysis.hpp"

#include <gtest/gtest.h>

#include <set>

#include <algorithm>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "emporium/engine/bot.hpp"
#include "emporium/engine/record.hpp"

namespace emporium::analysis {
namespace {

using engine::Record;
using engine::State;

// A game easy bots (or random play) play from `seed` to its end: its record, and every state (before the first action,
// then after each).
struct Played {
  Record record;
  std::vector<std::unique_ptr<State>> states;
};

Played bot_game(const std::string& game, int players, std::uint64_t seed, bool random = false) {
  engine::Rng rng(seed);
  Played played{{game, players, Json::object(), engine::Seed(rng.next(), rng.next()), {}}, {}};
  auto created = engine::create_game(game, players, played.record.options, played.record.seed);
  EXPECT_FALSE(created.error);
  played.states.push_back(std::move(created.state));
  while (!played.states.back()->is_over()) {
    const State& state = *played.states.back();
    const int seat = state.to_move().front();
    const auto legal = state.legal_actions(seat);
    const Json action = random ? legal[rng.below(legal.size())]
                               : engine::bot::decide(game, state.view(engine::Viewer::of_player(seat)), seat, legal,
                                                     engine::bot::Level::easy, rng.next())
                                     .action;
    auto next = state.clone();
    EXPECT_TRUE(next->apply(seat, action).ok());
    played.record.actions.push_back({seat, action});
    played.states.push_back(std::move(next));
  }
  return played;
}

// The published shape the analysis reads: the record and its result.
Json published(const Record& record, const State& end) {
  Json j = record.to_json();
  j["result"] = end.result();
  return j;
}

Json analysed(const Json& record, const Settings& settings) {
  auto result = analyse(record, settings);
  if (const auto* refusal = std::get_if<Refusal>(&result)) ADD_FAILURE() << refusal->message;
  return std::holds_alternative<Json>(result) ? std::get<Json>(result) : Json();
}

// Few play-outs and moves: enough to see a blunder that loses for certain.
Settings quick_settings() {
  Settings s;
  s.seed = 7;
  s.playouts = 4;
  s.candidates = 2;
  s.budget = 0;
  return s;
}

// Whether `move` by `seat` in `state` ends the game (after it, every seat to move has one legal move until the
// end) with `seat` the only winner (true) or not among the winners (false); nothing when it does neither.
std::optional<bool> ends_with_win(const State& state, int seat, const Json& move) {
  auto next = state.clone();
  if (!next->apply(seat, move).ok()) return std::nullopt;
  while (!next->is_over()) {
    const int player = next->to_move().front();
    const auto legal = next->legal_actions(player);
    if (legal.size() != 1 || !next->apply(player, legal.front()).ok()) return std::nullopt;
  }
  const Json winners = next->result().at("winners");
  if (winners == Json::array({seat})) return true;
  for (const auto& w : winners) {
    if (w == seat) return std::nullopt;  // a shared first place: neither
  }
  return false;
}

// The chances alone (one candidate: no second look), for few play-outs: this runs under the sanitizers too.
TEST(Analysis, IsTheSameTwiceAndDependsOnItsSeed) {
  const auto game = bot_game("medici", 3, 11);
  const Json record = published(game.record, *game.states.back());
  Settings settings = quick_settings();
  settings.playouts = 1;
  settings.candidates = 1;
  const Json first = analysed(record, settings);
  EXPECT_EQ(first.dump(), analysed(record, settings).dump());
  EXPECT_EQ(first.at("engine_version"), engine_version());
  EXPECT_EQ(first.at("positions").size(), game.record.actions.size() + 1);
  EXPECT_EQ(first.at("settings").at("playouts_run"), first.at("positions").size());
  for (const auto& decision : first.at("decisions")) {
    EXPECT_EQ(decision.at("candidates").size(), 1u);
    EXPECT_EQ(decision.at("preferred"), decision.at("played"));
  }
  settings.seed = 8;
  EXPECT_NE(first.at("positions").dump(), analysed(record, settings).at("positions").dump());
}

// A record with undos (docs/undo.md): a step taken back and the undo that took it are no decisions of the game, and
// every position, theirs too, is estimated.
TEST(Analysis, AStepTakenBackAndItsUndoAreNoDecisions) {
  engine::Rng rng(5);
  Record record{"silkroad", 2, Json::object(), engine::Seed(21), {}};
  auto state = engine::create_game(record.game, record.players, record.options, record.seed).state;
  state->allow_undo(true);
  const Json undo = {{"type", "undo"}};
  std::set<std::uint64_t> no_decisions;  // the versions (action indices) taken back, and of the undos
  std::vector<std::uint64_t> standing;
  while (!state->is_over()) {
    const int seat = state->to_move().front();
    auto legal = state->legal_actions(seat);
    const std::uint64_t v = record.actions.size();
    Json action;
    if (legal.back() == undo && rng.below(2) == 0) {
      action = undo;
      no_decisions.insert({standing.back(), v});
      standing.pop_back();
    } else {
      if (legal.back() == undo) legal.pop_back();
      action = legal[rng.below(legal.size())];
      standing.push_back(v);
    }
    ASSERT_TRUE(state->apply(seat, action).ok());
    record.actions.push_back({seat, action});
  }
  ASSERT_GT(no_decisions.size(), 4u);
  Settings settings = quick_settings();
  settings.playouts = 1;
  const Json analysis = analysed(published(record, *state), settings);
  EXPECT_EQ(analysis.at("positions").size(), record.actions.size() + 1);
  int decisions = 0;
  for (const auto& d : analysis.at("decisions")) {
    ++decisions;
    EXPECT_FALSE(no_decisions.contains(d.at("version").get<std::uint64_t>())) << d.dump();
    EXPECT_NE(d.at("preferred"), undo);
  }
  EXPECT_GT(decisions, 10);
}

// A play-out draws its own future, not the game's: two Medici games whose first position shows the same (the start
// player; the bag is unseen) get the same chances there, however differently their bags were filled.
TEST(Analysis, PlayOutsDoNotKnowTheGamesOwnDraws) {
  const auto first = bot_game("medici", 3, 11);
  const auto start_player = [](const Played& g) { return g.states.front()->view(engine::Viewer::spectator())["start_player"]; };
  std::optional<Played> second;
  for (std::uint64_t seed = 12; !second; ++seed) {
    auto game = bot_game("medici", 3, seed);
    if (start_player(game) == start_player(first)) second = std::move(game);
  }
  ASSERT_FALSE(first.states.front()->equals(*second->states.front()));  // the bags differ
  Settings settings = quick_settings();
  settings.playouts = 8;  // enough that chances equal by luck are unlikely
  settings.candidates = 1;
  const Json a = analysed(published(first.record, *first.states.back()), settings);
  const Json b = analysed(published(second->record, *second->states.back()), settings);
  EXPECT_EQ(a.at("positions").at(0), b.at("positions").at(0));
}

// A server shows the progress and stops an analysis through the callback; the callback changes nothing else.
TEST(Analysis, TellsItsProgressAndStopsWhenAsked) {
  const auto game = bot_game("medici", 3, 11);
  const Json record = published(game.record, *game.states.back());
  Settings settings = quick_settings();
  settings.playouts = 2;
  std::vector<std::pair<long long, long long>> told;
  auto result = analyse(record, settings, [&](long long done, long long planned) {
    told.emplace_back(done, planned);
    return true;
  });
  ASSERT_TRUE(std::holds_alternative<Json>(result));
  const Json& told_json = std::get<Json>(result);
  EXPECT_EQ(told_json.dump(), analysed(record, settings).dump());
  const long long run = told_json.at("settings").at("playouts_run").get<long long>();
  ASSERT_EQ(told.size(), static_cast<std::size_t>(run / kProgressEvery + 1));
  for (std::size_t i = 0; i + 1 < told.size(); ++i) EXPECT_EQ(told[i].first, static_cast<long long>(i + 1) * kProgressEvery);
  EXPECT_EQ(told.back().first, run);
  for (const auto& [done, planned] : told) EXPECT_LE(done, planned);

  int calls = 0;
  auto stopped = analyse(record, settings, [&](long long, long long) { return ++calls < 2; });
  ASSERT_TRUE(std::holds_alternative<Refusal>(stopped));
  EXPECT_EQ(std::get<Refusal>(stopped).message, kCancelled);
  EXPECT_EQ(calls, 2);
}

TEST(Analysis, IsRefusedForARunningGameAndABrokenRecord) {
  const auto game = bot_game("medici", 3, 12);
  Json running = published(game.record, *game.states.back());
  running["result"] = nullptr;  // what a running table's record would say
  auto refused = [](const Json& record) {
    const auto result = analyse(record, quick_settings());
    return std::holds_alternative<Refusal>(result) ? std::get<Refusal>(result).message : std::string("analysed");
  };
  EXPECT_EQ(refused(running), "analysis exists only for finished games");
  running.erase("result");
  EXPECT_EQ(refused(running), "analysis exists only for finished games");
  // A result, but moves that stop short of the end.
  Json short_of_end = published(game.record, *game.states.back());
  short_of_end["actions"].erase(short_of_end["actions"].size() - 1);
  EXPECT_EQ(refused(short_of_end).rfind("analysis exists only for finished games", 0), 0u) << refused(short_of_end);
  Json wrong_result = published(game.record, *game.states.back());
  wrong_result["result"]["winners"] = Json::array({9});
  EXPECT_EQ(refused(wrong_result), "the moves end the game with another result than the record's");
  Json malformed = published(game.record, *game.states.back());
  malformed["seed"] = 5;
  EXPECT_EQ(refused(malformed).rfind("malformed record", 0), 0u) << refused(malformed);
}

TEST(Analysis, WilsonIntervalsAreTheKnownOnes) {
  const auto [lo, hi] = wilson_interval(0.5, 100);
  EXPECT_NEAR(lo, 0.4038, 1e-4);
  EXPECT_NEAR(hi, 0.5962, 1e-4);
  const auto [none_lo, none_hi] = wilson_interval(0.0, 10);
  EXPECT_DOUBLE_EQ(none_lo, 0.0);
  EXPECT_NEAR(none_hi, 0.2775, 1e-4);
}

struct LastMoveCase {
  std::string title;
  std::uint64_t seed;  // the first seed from 1 that has such a decision: see the search below
  bool random;         // random play (closer games than easy bots', in some titles)
};
void PrintTo(const LastMoveCase& c, std::ostream* os) { *os << c.title; }

// A game whose winner was decided by a late decision: among the last moves, a decision where one move would have
// ended the game (the moves after it forced) with the mover the only winner, and the move recorded lost: either
// another move that ends the game with the mover not winning (the record is rewritten to it and the forced
// moves after it), or the move actually played in a game the mover lost. The game and that decision's index.
std::optional<std::pair<Played, std::size_t>> decided_late(const std::string& title, std::uint64_t seed, bool random) {
  constexpr std::size_t kLastMoves = 12;
  auto game = bot_game(title, 3, seed, random);
  const Json winners = game.states.back()->result().at("winners");
  const std::size_t n = game.record.actions.size();
  for (std::size_t k = n; k-- > n - std::min(n, kLastMoves);) {
    const int seat = game.record.actions[k].player;
    Json winning, losing;
    for (const auto& move : game.states[k]->legal_actions(seat)) {
      const auto win = ends_with_win(*game.states[k], seat, move);
      if (win == true && winning.is_null()) winning = move;
      if (win == false && losing.is_null()) losing = move;
    }
    if (winning.is_null()) continue;
    if (!losing.is_null()) {
      game.record.actions.resize(k);
      game.states.resize(k + 1);
      for (Json move = losing; !game.states.back()->is_over();) {
        const int player = game.states.back()->to_move().front();
        auto next = game.states.back()->clone();
        EXPECT_TRUE(next->apply(player, move).ok());
        game.record.actions.push_back({player, move});
        game.states.push_back(std::move(next));
        if (!game.states.back()->is_over()) {
          move = game.states.back()->legal_actions(game.states.back()->to_move().front()).front();
        }
      }
    } else if (std::find(winners.begin(), winners.end(), Json(seat)) != winners.end()) {
      continue;  // the move played did not lose
    }
    return std::pair{std::move(game), k};
  }
  return std::nullopt;
}

// Where the seeds of the cases below come from: the first seed from 1 with such a decision.
TEST(LastMoveSearch, DISABLED_FindsTheFirstSeeds) {
  for (const char* title : {"medici", "merkator", "medina", "silkroad"}) {
    for (bool random : {false, true}) {
      for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        if (decided_late(title, seed, random)) {
          std::printf("%s %s: seed %llu\n", title, random ? "random" : "easy", static_cast<unsigned long long>(seed));
          break;
        }
      }
    }
  }
}

class LastMove : public ::testing::TestWithParam<LastMoveCase> {};

// The analysis marks that decision a blunder and prefers a winning move.
TEST_P(LastMove, ThatLostTheGameIsABlunderAndTheWinningMoveIsPreferred) {
  const auto& param = GetParam();
  auto decided = decided_late(param.title, param.seed, param.random);
  ASSERT_TRUE(decided) << "no game of " << param.title << " with such a decision at seed " << param.seed;
  auto& [game, at] = *decided;
  const Played* found = &game;
  const int seat = found->record.actions[at].player;
  const Json analysis = analysed(published(found->record, *found->states.back()), quick_settings());

  const Json* decision = nullptr;
  for (const auto& d : analysis.at("decisions")) {
    if (d.at("version") == at) decision = &d;
  }
  ASSERT_TRUE(decision);
  EXPECT_EQ(decision->at("seat"), seat);
  EXPECT_EQ(decision->at("played"), found->record.actions[at].action);
  EXPECT_EQ(decision->at("mark"), "blunder") << decision->dump();
  EXPECT_EQ(decision->at("chance_preferred"), 1.0) << decision->dump();
  EXPECT_EQ(ends_with_win(*found->states[at], seat, decision->at("preferred")), true) << decision->dump();
  if (ends_with_win(*found->states[at], seat, decision->at("played")) == false) {
    EXPECT_EQ(decision->at("chance_played"), 0.0) << "the move played ended the game: its chance is known";
  }
  EXPECT_GE(analysis.at("summary").at(static_cast<std::size_t>(seat)).at("blunders"), 1);

  // The final position's chances are the result: exact, with no interval to speak of.
  const Json& end = analysis.at("positions").back();
  EXPECT_EQ(end.at("version"), found->record.actions.size());
  const Json winners = found->states.back()->result().at("winners");
  for (std::size_t p = 0; p < 3; ++p) {
    double share = 0;
    for (const auto& w : winners) share += w == p ? 1.0 / static_cast<double>(winners.size()) : 0.0;
    const Json& chance = end.at("chances").at(p);
    EXPECT_NEAR(chance.get<double>(), share, 1e-4);
    EXPECT_EQ(end.at("intervals").at(p), Json::array({chance, chance}));
  }
}

INSTANTIATE_TEST_SUITE_P(EveryTitle, LastMove,
                         ::testing::Values(LastMoveCase{"medici", 3, false}, LastMoveCase{"merkator", 1, false},
                                           LastMoveCase{"medina", 50, true}, LastMoveCase{"silkroad", 8, true}),
                         [](const auto& info) { return info.param.title; });

}  // namespace
}  // namespace emporium::analysis
