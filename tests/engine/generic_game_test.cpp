// Properties every registered game must have, run over every game at every player count.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "emporium/engine/bot.hpp"
#include "test_support.hpp"

namespace emporium::engine::testing {
namespace {

constexpr int kGamesPerCount = 1000;      // full random games per (game, player count)
constexpr int kCheckedGamesPerCount = 30;  // of which this many get the expensive checks
constexpr int kMaxActions = 100000;        // a game longer than this is a bug

class GenericGame : public ::testing::TestWithParam<GameAndCount> {
 protected:
  std::unique_ptr<State> fresh(Seed seed) const {
    auto created = create_game(GetParam().game, GetParam().players, {}, seed);
    EXPECT_FALSE(created.error) << created.error->message;
    return std::move(created.state);
  }
};

std::string dump(const State& s) { return s.view(Viewer::full()).dump(); }

TEST_P(GenericGame, RandomGamesReachTheEndWithEveryLegalActionApplying) {
  for (int g = 0; g < kGamesPerCount; ++g) {
    auto state = fresh(1000 + g);
    // With undo on, as at a table: an undo is one more legal action (undo_test.cpp checks what it does).
    state->allow_undo(true);
    Rng rng(g);
    int steps = 0;
    while (!state->is_over()) {
      ASSERT_LT(++steps, kMaxActions) << "game does not end";
      const auto movers = state->to_move();
      ASSERT_FALSE(movers.empty());
      for (int p = 0; p < state->num_players(); ++p) {
        const bool moving = std::find(movers.begin(), movers.end(), p) != movers.end();
        const auto legal = state->legal_actions(p);
        ASSERT_EQ(legal.empty(), !moving) << "player " << p;
        // The text a frame carries (a game may write it itself): exactly the list, dumped.
        ASSERT_EQ(state->legal_actions_json(p), Json(legal).dump()) << "player " << p;
      }
      const auto move = random_move(*state, rng);
      const auto before = state->version();
      const auto result = state->apply(move.player, move.action);
      ASSERT_TRUE(result.ok()) << result.error->code << ": " << result.error->message << " for "
                               << move.action;
      ASSERT_FALSE(result.events.empty());
      ASSERT_EQ(state->version(), before + 1);
    }
    EXPECT_TRUE(state->to_move().empty());
    const Json result = state->result();
    ASSERT_TRUE(result.is_object());
    ASSERT_EQ(result["ranking"].size(), static_cast<std::size_t>(state->num_players()));
    ASSERT_FALSE(result["winners"].empty());
    for (int p = 0; p < state->num_players(); ++p) {
      EXPECT_TRUE(state->legal_actions(p).empty());
      EXPECT_EQ(state->legal_actions_json(p), "[]");
    }
  }
}

// Actions to try against a state: well-formed ones seen legal elsewhere, numeric fields pushed out
// of range, and junk.
std::vector<Json> candidate_actions(const std::vector<Json>& seen_legal) {
  std::vector<Json> out = {nullptr,
                           Json::array(),
                           "draw",
                           42,
                           Json::object(),
                           Json{{"type", 7}},
                           Json{{"type", "no-such-action"}},
                           Json{{"type", nullptr}}};
  for (const auto& a : seen_legal) {
    out.push_back(a);
    Json extra = a;
    extra["unexpected"] = 1;
    out.push_back(extra);
    for (const auto& [key, value] : a.items()) {
      if (!value.is_number_integer()) continue;
      for (long long v : {-1LL, 0LL, 1000LL, 9223372036854775807LL}) {
        Json m = a;
        m[key] = v;
        out.push_back(m);
      }
      Json as_text = a;
      as_text[key] = std::to_string(value.get<long long>());
      out.push_back(as_text);
      Json as_float = a;
      as_float[key] = value.get<double>() + 0.5;
      out.push_back(as_float);
    }
  }
  return out;
}

TEST_P(GenericGame, AnActionAppliesExactlyWhenItIsLegalAndARefusalChangesNothing) {
  for (int g = 0; g < kCheckedGamesPerCount; ++g) {
    auto state = fresh(5000 + g);
    Rng rng(77 + g);
    std::set<std::string> seen_text;
    std::vector<Json> seen;
    while (!state->is_over()) {
      for (int p = 0; p < state->num_players(); ++p) {
        for (const auto& a : state->legal_actions(p)) {
          if (seen_text.insert(a.dump()).second && seen.size() < 64) seen.push_back(a);
        }
      }
      if (rng.below(6) == 0) {
        const std::string before = dump(*state);
        const auto version = state->version();
        // A sample of candidates, plus the edges of the mover's legal list (the cheapest and
        // dearest bid, say), tried by every seat and by seat numbers that do not exist.
        auto candidates = candidate_actions(seen);
        rng.shuffle(candidates);
        candidates.resize(std::min<std::size_t>(candidates.size(), 48));
        for (int mover : state->to_move()) {
          const auto legal = state->legal_actions(mover);
          candidates.push_back(legal.front());
          candidates.push_back(legal.back());
        }
        for (int p = -1; p <= state->num_players(); ++p) {
          const auto legal = p >= 0 && p < state->num_players() ? state->legal_actions(p) : std::vector<Json>{};
          for (const auto& a : candidates) {
            const bool is_legal = std::find(legal.begin(), legal.end(), a) != legal.end();
            auto copy = state->clone();
            const auto result = copy->apply(p, a);
            ASSERT_EQ(result.ok(), is_legal) << "player " << p << " action " << a << " -> "
                                             << (result.error ? result.error->code : "ok");
            if (!result.ok()) {
              EXPECT_FALSE(result.error->code.empty());
              EXPECT_FALSE(result.error->message.empty());
              EXPECT_TRUE(result.events.empty());
              ASSERT_TRUE(copy->equals(*state)) << "a refused action changed the state: " << a;
              if (!state->is_to_move(p) && std::find(seen.begin(), seen.end(), a) != seen.end()) {
                EXPECT_TRUE(result.error->code == errc::not_your_turn) << result.error->code << " " << a;
              }
            }
          }
        }
        ASSERT_EQ(dump(*state), before);
        ASSERT_EQ(state->version(), version);
      }
      const auto move = random_move(*state, rng);
      ASSERT_TRUE(state->apply(move.player, move.action).ok());
    }
    // After the end, everything is refused with game_over.
    for (const auto& a : seen) {
      const auto result = state->apply(0, a);
      ASSERT_FALSE(result.ok());
      EXPECT_EQ(result.error->code, errc::game_over);
    }
  }
}

TEST_P(GenericGame, CopiesAreIndependent) {
  auto state = fresh(31);
  Rng rng(3);
  for (int i = 0; i < 25 && !state->is_over(); ++i) {
    const auto move = random_move(*state, rng);
    state->apply(move.player, move.action);
  }
  const std::string original = dump(*state);
  auto copy = state->clone();
  ASSERT_TRUE(copy->equals(*state));
  for (int i = 0; i < 25 && !copy->is_over(); ++i) {
    const auto move = random_move(*copy, rng);
    ASSERT_TRUE(copy->apply(move.player, move.action).ok());
  }
  EXPECT_FALSE(copy->equals(*state));
  EXPECT_EQ(dump(*state), original);
}

TEST_P(GenericGame, ReplayingTheRecordGivesTheIdenticalStateViewsAndEvents) {
  for (int g = 0; g < kCheckedGamesPerCount; ++g) {
    Record record{GetParam().game, GetParam().players, Json::object(), 0x9e3779b97f4a7c15ULL + g, {}};
    auto state = fresh(record.seed);
    Rng rng(500 + g);
    std::vector<Json> event_log;
    const int stop_at = g % 2 == 0 ? kMaxActions : static_cast<int>(rng.below(120));
    while (!state->is_over() && static_cast<int>(record.actions.size()) < stop_at) {
      const auto move = random_move(*state, rng);
      auto result = state->apply(move.player, move.action);
      ASSERT_TRUE(result.ok());
      event_log.push_back(events_for(result.events, Viewer::full()));
      record.actions.push_back(move);
    }
    // Through JSON, as a stored record would be.
    const Record stored = Record::from_json(Json::parse(record.to_json().dump()));
    ASSERT_EQ(stored, record);
    auto replayed = replay(stored);
    ASSERT_FALSE(replayed.error);
    ASSERT_TRUE(replayed.state->equals(*state));
    for (const auto& v : all_viewers(state->num_players())) {
      EXPECT_EQ(replayed.state->view(v), state->view(v));
    }
    EXPECT_EQ(replayed.state->result(), state->result());
    // Same seed, same actions, same events.
    auto again = fresh(record.seed);
    for (std::size_t i = 0; i < record.actions.size(); ++i) {
      auto result = again->apply(record.actions[i].player, record.actions[i].action);
      ASSERT_EQ(events_for(result.events, Viewer::full()), event_log[i]);
    }
  }
}

TEST_P(GenericGame, ReplayStopsAtTheFirstBadActionAndSaysWhich) {
  Record record{GetParam().game, GetParam().players, Json::object(), 12, {}};
  auto state = fresh(record.seed);
  Rng rng(4);
  for (int i = 0; i < 5; ++i) {
    auto move = random_move(*state, rng);
    state->apply(move.player, move.action);
    record.actions.push_back(move);
  }
  record.actions.push_back({-5, Json{{"type", "no-such-action"}}});
  auto replayed = replay(record);
  ASSERT_TRUE(replayed.error);
  EXPECT_EQ(replayed.failed_at, 5u);
  ASSERT_TRUE(replayed.state->equals(*state));
}

TEST_P(GenericGame, TheSeedDecidesTheGame) {
  auto a = fresh(1), b = fresh(1);
  EXPECT_TRUE(a->equals(*b));
  int differing = 0;
  for (std::uint64_t seed = 2; seed < 12; ++seed) differing += !fresh(seed)->equals(*a);
  EXPECT_GE(differing, 9);
}

// The games whose rules draw nothing at random after the setup: re-seeding gives the state back unchanged.
const std::set<std::string> kNoChanceAfterSetup = {"medina"};

TEST_P(GenericGame, ReseedingRedrawsTheFutureAndShowsNobodyAnythingNew) {
  const auto& bot = *bot::find_bot(GetParam().game);
  const bool chance = !kNoChanceAfterSetup.contains(GetParam().game);
  int checked = 0, differing = 0;
  for (int g = 0; g < 8; ++g) {
    auto state = fresh(7000 + g);
    Rng rng(900 + g);
    while (true) {
      if (state->is_over() || rng.below(10) == 0) {
        SCOPED_TRACE("game " + std::to_string(g) + " at version " + std::to_string(state->version()));
        const std::string before = dump(*state);
        const Seed seed(rng.next());
        auto reseeded = bot.reseed(*state, seed);
        ASSERT_EQ(dump(*state), before);  // the original is untouched
        // The same seed gives the same state, hidden parts included.
        auto again = bot.reseed(*state, seed);
        ASSERT_TRUE(again->equals(*reseeded));
        ASSERT_EQ(dump(*again), dump(*reseeded));
        // Nobody sees a difference, and the rules allow the same.
        ASSERT_EQ(reseeded->version(), state->version());
        ASSERT_EQ(reseeded->to_move(), state->to_move());
        ASSERT_EQ(reseeded->result(), state->result());
        for (const auto& v : all_viewers(state->num_players())) ASSERT_EQ(reseeded->view(v), state->view(v));
        for (int p = 0; p < state->num_players(); ++p) {
          ASSERT_EQ(reseeded->legal_actions(p), state->legal_actions(p)) << "player " << p;
        }
        if (!chance || state->is_over()) {
          ASSERT_TRUE(reseeded->equals(*state)) << "nothing is left to draw";
        } else {
          // Another seed draws another future: the same actions soon meet a difference.
          auto other = bot.reseed(*state, Seed(seed.lo + 1));
          Rng moves(g);
          ++checked;
          differing += plays_on_differently(*reseeded, *other, moves, 40);
        }
      }
      if (state->is_over()) break;
      const auto move = random_move(*state, rng);
      ASSERT_TRUE(state->apply(move.player, move.action).ok());
    }
  }
  if (chance) {
    ASSERT_GT(checked, 20);
    EXPECT_GT(differing, checked * 3 / 4) << checked << " states checked";
  }
}

INSTANTIATE_TEST_SUITE_P(AllGames, GenericGame, ::testing::ValuesIn(every_game_and_count()),
                         [](const auto& info) { return case_name(info.param); });

}  // namespace
}  // namespace emporium::engine::testing
