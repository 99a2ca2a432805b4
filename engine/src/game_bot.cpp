#include "emporium/engine/game_bot.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

namespace emporium::engine::bot {

const char* level_name(Level level) { return level == Level::easy ? "easy" : "normal"; }

std::optional<Level> level_from_name(std::string_view name) {
  for (Level level : kLevels) {
    if (name == level_name(level)) return level;
  }
  return std::nullopt;
}

std::vector<Json> GameBot::candidates(const State&, int, const std::vector<Json>& legal) const { return legal; }

double outcome_for(const GameBot& bot, const State& state, int seat) {
  const auto scores = bot.estimate(state);
  double best_other = -1e300;
  for (int p = 0; p < static_cast<int>(scores.size()); ++p) {
    if (p != seat) best_other = std::max(best_other, scores[p]);
  }
  const double margin = (scores[seat] - best_other) / bot.margin_scale(state.num_players());
  return 1.0 / (1.0 + std::exp(-2.0 * margin));
}

namespace {

// Plays on from `state` with the quick policy: `depth` actions, or to the end when depth is 0.
void play_on(const GameBot& bot, State& state, int depth, Rng& rng) {
  for (int n = 0; !state.is_over() && (depth == 0 || n < depth); ++n) {
    const int player = state.to_move().front();
    if (state.apply(player, bot.quick_action(state, player, rng)).ok()) continue;
    // A quick policy must answer a legal action; should one not, the playout still goes on.
    const auto legal = state.legal_actions(player);
    state.apply(player, legal[rng.below(legal.size())]);
  }
}

// The candidate in `legal` equal to `action`, so that the decision is always one of the legal actions.
Json as_legal(const Json& action, const std::vector<Json>& legal) {
  const auto it = std::find(legal.begin(), legal.end(), action);
  return it != legal.end() ? *it : legal.front();
}

}  // namespace

Decision decide(const GameBot& bot, const Json& view, int seat, const std::vector<Json>& offered, Level level,
                std::uint64_t seed, std::optional<Budget> budget) {
  // Bots never take a step back: they decide among the game's own actions.
  std::vector<Json> legal;
  legal.reserve(offered.size());
  for (const auto& a : offered) {
    if (!is_undo(a)) legal.push_back(a);
  }
  if (legal.empty()) return {Json(), 0, 0};
  if (legal.size() == 1) return {legal.front(), 0, 1};
  Rng rng(seed);
  auto first = bot.sample(view, seat, rng);
  if (level == Level::easy && !budget) return {as_legal(bot.quick_action(*first, seat, rng), legal), 0, 1};

  const auto candidates = bot.candidates(*first, seat, legal);
  const int k = static_cast<int>(candidates.size());
  if (k <= 1) return {as_legal(k ? candidates.front() : legal.front(), legal), 0, k};
  const Budget work = budget ? *budget : bot.normal_budget(first->num_players());

  // Sequential halving: every round spends an equal share of the budget on the candidates still in,
  // then keeps the better half. Each sampled state is shared by all of them, with one playout seed.
  std::vector<int> alive(static_cast<std::size_t>(k));
  std::iota(alive.begin(), alive.end(), 0);
  std::vector<double> total(k, 0.0);
  std::vector<int> runs(k, 0);
  const int rounds = static_cast<int>(std::ceil(std::log2(static_cast<double>(k))));
  int playouts = 0;
  std::unique_ptr<State> sampled = std::move(first);
  for (int round = 0; round < rounds && alive.size() > 1; ++round) {
    const int per = std::max(1, work.playouts / (rounds * static_cast<int>(alive.size())));
    for (int i = 0; i < per; ++i) {
      if (!sampled) sampled = bot.sample(view, seat, rng);
      const std::uint64_t playout_seed = rng.next();
      for (int c : alive) {
        auto state = sampled->clone();
        if (!state->apply(seat, candidates[c]).ok()) {
          runs[c] = 1;
          total[c] = -1.0;  // not playable after all: never chosen
          continue;
        }
        Rng playout_rng(playout_seed);
        play_on(bot, *state, work.depth, playout_rng);
        total[c] += outcome_for(bot, *state, seat);
        ++runs[c];
        ++playouts;
      }
      sampled.reset();
    }
    auto mean = [&](int c) { return runs[c] ? total[c] / runs[c] : 0.0; };
    std::stable_sort(alive.begin(), alive.end(), [&](int a, int c) { return mean(a) > mean(c); });
    alive.resize((alive.size() + 1) / 2);
  }
  return {as_legal(candidates[alive.front()], legal), playouts, k};
}

}  // namespace emporium::engine::bot
