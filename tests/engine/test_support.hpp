#pragma once
// Helpers shared by the engine tests: every registered game at every player count, random play.
#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

#include "emporium/engine/record.hpp"
#include "emporium/engine/registry.hpp"
#include "emporium/engine/rng.hpp"

namespace emporium::engine::testing {

struct GameAndCount {
  std::string game;
  int players;
};

inline std::vector<std::string> every_game_id() {
  std::vector<std::string> out;
  for (const auto& g : all_games()) out.push_back(g.id);
  return out;
}

inline std::vector<GameAndCount> every_game_and_count() {
  std::vector<GameAndCount> out;
  for (const auto& g : all_games()) {
    for (int n = g.min_players; n <= g.max_players; ++n) out.push_back({g.id, n});
  }
  return out;
}

inline std::string case_name(const GameAndCount& c) { return c.game + "_" + std::to_string(c.players) + "p"; }
inline void PrintTo(const GameAndCount& c, std::ostream* os) { *os << case_name(c); }

inline std::vector<Viewer> all_viewers(int players) {
  std::vector<Viewer> viewers;
  for (int p = 0; p < players; ++p) viewers.push_back(Viewer::of_player(p));
  viewers.push_back(Viewer::spectator());
  return viewers;
}

// Picks a legal action for the player to move: usually uniform, sometimes the first listed (so
// "pass"/"stop"-like choices are not drowned out by long lists of bids).
inline RecordedAction random_move(const State& state, Rng& rng) {
  const auto movers = state.to_move();
  const int player = movers[rng.below(movers.size())];
  const auto legal = state.legal_actions(player);
  const std::size_t pick = rng.below(3) == 0 ? 0 : rng.below(legal.size());
  return {player, legal[pick]};
}

// Whether the same actions, played on from `a` and from `b`, show a difference within `steps` actions: an event
// (as the full viewer sees it: the cards drawn) or an action one accepts and the other refuses.
inline bool plays_on_differently(State& a, State& b, Rng& rng, int steps) {
  for (int i = 0; i < steps && !a.is_over(); ++i) {
    const auto move = random_move(a, rng);
    const auto from_a = a.apply(move.player, move.action);
    const auto from_b = b.apply(move.player, move.action);
    if (!from_b.ok() || events_for(from_a.events, Viewer::full()) != events_for(from_b.events, Viewer::full())) {
      return true;
    }
  }
  return a.result() != b.result();
}

// Scripted tests: the "type" of each event, in order.
inline std::vector<std::string> types(const Json& events) {
  std::vector<std::string> out;
  for (const auto& e : events) out.push_back(e["type"].get<std::string>());
  return out;
}

// The first event of that type (null when there is none).
inline Json first_of(const Json& events, const std::string& type) {
  for (const auto& e : events) {
    if (e["type"] == type) return e;
  }
  return nullptr;
}

inline int count_of(const Json& events, const std::string& type) {
  return static_cast<int>(std::count_if(events.begin(), events.end(), [&](const Json& e) { return e["type"] == type; }));
}

// Scripted tests: applies an action that must be accepted and returns its events' full details.
template <class GameStateT>
Json act(GameStateT& s, int player, const Json& action) {
  const auto r = s.apply(player, action);
  EXPECT_TRUE(r.ok()) << "player " << player << " " << action << " refused: "
                      << (r.error ? r.error->code + " " + r.error->message : std::string());
  Json out = Json::array();
  for (const auto& e : r.events) out.push_back(e.detail);
  return out;
}

// Applies an action that must be refused with `code`, and checks that nothing changed.
template <class GameStateT>
void refused(GameStateT& s, int player, const Json& action, const std::string& code) {
  const auto before = s.data();
  const auto r = s.apply(player, action);
  ASSERT_FALSE(r.ok()) << "player " << player << " " << action << " was accepted";
  EXPECT_EQ(r.error->code, code) << "player " << player << " " << action << ": " << r.error->message;
  EXPECT_FALSE(r.error->message.empty());
  EXPECT_TRUE(r.events.empty());
  EXPECT_TRUE(s.data() == before) << "a refused action changed the state: " << action;
}

}  // namespace emporium::engine::testing
