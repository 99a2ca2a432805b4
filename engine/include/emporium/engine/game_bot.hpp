#pragma once
// Computer players. A bot decides from what its seat is shown — the seat's filtered view and its legal
// actions — plus a seed and a level; it is never given the game's state. Where it looks ahead it samples
// full states consistent with that view (the hidden parts drawn at random: bag contents, other hands,
// screened stocks, pile orders) and plays them out with the engine as the simulator.
//
// The generic part (this header, src/game_bot.cpp) is a determinized Monte Carlo search: sample a state, try
// each candidate action in it, play on with a quick policy for a bounded number of actions, and score
// the end by the game's estimate of the final scores. Candidates are narrowed by sequential halving, and
// every candidate is tried in the same sampled states with the same playout randomness (common random
// numbers), so a difference in outcome is the action's, not the dice's.
//
// The per-game part is a `GameBot` in the game's folder (games/<id>/bot.hpp and bot.cpp), listed beside
// its game in games/games.cpp: how to sample a state from a view, how to estimate scores, a quick policy,
// and which actions are worth searching. Work is bounded by a number of playouts, not by a clock, so a
// decision is a pure function of (view, seat, legal, level, seed). bot.hpp finds a game's bot by its id.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emporium/engine/json.hpp"
#include "emporium/engine/rng.hpp"
#include "emporium/engine/state.hpp"

namespace emporium::engine::bot {

enum class Level { easy, normal };
const char* level_name(Level level);
std::optional<Level> level_from_name(std::string_view name);
inline constexpr Level kLevels[] = {Level::easy, Level::normal};

// How much a search may do. `playouts`: sampled state × candidate playouts in all; `depth`: actions
// played after the candidate before the estimate is taken (0: to the end of the game).
struct Budget {
  int playouts = 0;
  int depth = 0;
};

// What one game contributes. Every member sees only what it is given.
class GameBot {
 public:
  virtual ~GameBot() = default;

  // A full state that `seat` could be in, given its `view`: everything the view shows is as shown, every
  // hidden part is drawn from `rng` among what the view allows (and the state's own future randomness
  // is seeded from `rng`). The view of the result for `seat` equals `view`.
  virtual std::unique_ptr<State> sample(const Json& view, int seat, Rng& rng) const = 0;

  // `state` with its chance re-drawn from `seed`: what nobody has seen yet (a bag's or a deck's order, the
  // cards below a pile's top) dealt again at random among itself, and the state's own random stream (later
  // shuffles and draws) seeded anew; everything any player has seen or holds stays. Every player's and the
  // spectator's view, the legal actions and the result are those of `state`. Deterministic in `seed`; a game
  // with no chance left returns a copy. The analysis plays its play-outs from it, so that they do not know
  // the real game's future draws.
  virtual std::unique_ptr<State> reseed(const State& state, Seed seed) const = 0;

  // The final scores (in the game's own points, one per player) this state is heading for: exact once
  // the game is over, an estimate before.
  virtual std::vector<double> estimate(const State& state) const = 0;

  // A score difference that is about as decisive as winning: margins are judged against it.
  virtual double margin_scale(int players) const = 0;

  // A quick decision for `player` in `state` (whose turn it is): the `easy` level plays it, and the
  // search plays it in its playouts. Must return one of state.legal_actions(player).
  virtual Json quick_action(const State& state, int player, Rng& rng) const = 0;

  // The actions worth searching, out of `legal` (all of them by default). `state` is one sample.
  virtual std::vector<Json> candidates(const State& state, int seat, const std::vector<Json>& legal) const;

  // The search budget for this game and player count at the `normal` level.
  virtual Budget normal_budget(int players) const = 0;
};

struct Decision {
  Json action;
  int playouts = 0;     // playouts run (0 for a forced move or the easy level)
  int candidates = 0;   // actions searched
};

// The decision of `bot` at `level` in `seat`, from the seat's `view` and `legal` actions (null when there
// are none; an undo among them is never chosen). Deterministic: the same arguments give the same decision.
// `budget` overrides the level's.
Decision decide(const GameBot& bot, const Json& view, int seat, const std::vector<Json>& legal, Level level,
                std::uint64_t seed, std::optional<Budget> budget = std::nullopt);

// How a state ends up for `seat`, in [0, 1]: 1 for a clear win, 0 for a clear loss, judged by the margin
// between its (estimated) score and the best other score. Shared by the search and the tests.
double outcome_for(const GameBot& bot, const State& state, int seat);

}  // namespace emporium::engine::bot
