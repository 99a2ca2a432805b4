// Engine benchmarks, per game: the server's per-action cost and whole random games per second.
#include <benchmark/benchmark.h>

#include "emporium/engine/registry.hpp"
#include "emporium/engine/rng.hpp"

using namespace emporium::engine;

namespace {

struct Move {
  int player;
  Json action;
};

Move random_move(const State& state, Rng& rng) {
  const auto movers = state.to_move();
  const int player = movers[rng.below(movers.size())];
  const auto legal = state.legal_actions(player);
  return {player, legal[rng.below(3) == 0 ? 0 : rng.below(legal.size())]};
}

// Prepares a pool of (state, action) pairs from random games so the timed loop measures only
// the server's work for one action.
struct Sample {
  std::unique_ptr<State> state;
  Move move;
};

std::vector<Sample> samples(const std::string& game, int players, int count) {
  std::vector<Sample> out;
  Rng rng(1);
  std::uint64_t seed = 1;
  while (static_cast<int>(out.size()) < count) {
    auto state = create_game(game, players, {}, seed++).state;
    while (!state->is_over() && static_cast<int>(out.size()) < count) {
      auto move = random_move(*state, rng);
      out.push_back({state->clone(), move});
      state->apply(move.player, move.action);
    }
  }
  return out;
}

// What the server does per action: validate + apply, then filter the events for every viewer.
void BM_ApplyAndEvents(benchmark::State& st, std::string game, int players) {
  auto pool = samples(game, players, 2000);
  std::size_t i = 0;
  for (auto _ : st) {
    st.PauseTiming();
    auto state = pool[i % pool.size()].state->clone();
    const auto& move = pool[i % pool.size()].move;
    ++i;
    st.ResumeTiming();
    auto result = state->apply(move.player, move.action);
    for (int p = 0; p < players; ++p) benchmark::DoNotOptimize(events_for(result.events, Viewer::of_player(p)).dump());
    benchmark::DoNotOptimize(events_for(result.events, Viewer::spectator()).dump());
  }
}

// The worst case the design avoids: validate + apply + a full view for every viewer.
void BM_ApplyAndEveryView(benchmark::State& st, std::string game, int players) {
  auto pool = samples(game, players, 2000);
  std::size_t i = 0;
  for (auto _ : st) {
    st.PauseTiming();
    auto state = pool[i % pool.size()].state->clone();
    const auto& move = pool[i % pool.size()].move;
    ++i;
    st.ResumeTiming();
    auto result = state->apply(move.player, move.action);
    benchmark::DoNotOptimize(result);
    for (int p = 0; p < players; ++p) benchmark::DoNotOptimize(state->view(Viewer::of_player(p)).dump());
    benchmark::DoNotOptimize(state->view(Viewer::spectator()).dump());
  }
}

// Whole games with random legal moves (legal-move generation included).
void BM_RandomGames(benchmark::State& st, std::string game, int players) {
  Rng rng(7);
  std::uint64_t seed = 1;
  std::int64_t actions = 0;
  for (auto _ : st) {
    auto state = create_game(game, players, {}, seed++).state;
    while (!state->is_over()) {
      auto move = random_move(*state, rng);
      state->apply(move.player, move.action);
      ++actions;
    }
  }
  st.counters["games/s"] = benchmark::Counter(static_cast<double>(st.iterations()), benchmark::Counter::kIsRate);
  st.counters["actions/game"] = static_cast<double>(actions) / static_cast<double>(st.iterations());
}

}  // namespace

int main(int argc, char** argv) {
  for (const auto& g : all_games()) {
    for (int n = g.min_players; n <= g.max_players; ++n) {
      const std::string suffix = "/" + g.id + "/" + std::to_string(n) + "p";
      benchmark::RegisterBenchmark(("apply+events" + suffix).c_str(), BM_ApplyAndEvents, g.id, n)
          ->ComputeStatistics("median", [](const std::vector<double>& v) {
            std::vector<double> s = v;
            std::sort(s.begin(), s.end());
            return s[s.size() / 2];
          });
      benchmark::RegisterBenchmark(("apply+views" + suffix).c_str(), BM_ApplyAndEveryView, g.id, n);
      benchmark::RegisterBenchmark(("random_games" + suffix).c_str(), BM_RandomGames, g.id, n)
          ->Unit(benchmark::kMillisecond);
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
