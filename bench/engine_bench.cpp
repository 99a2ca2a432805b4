// Engine benchmarks, per game: the server's per-action cost and whole random games per second.
#include <benchmark/benchmark.h>

#include <iostream>
#include <memory>

#include "emporium/engine/registry.hpp"
#include "emporium/engine/rng.hpp"
#include "merkator/data_file.hpp"

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

// Records of random games, replayed in the timed loops: one benchmark iteration is one action, so
// the figure is the cost per action (a new game's creation is folded in once per record).
struct Recorded {
  std::uint64_t seed;
  std::vector<Move> moves;
};

std::vector<Recorded> record_games(const std::string& game, int players, int count) {
  std::vector<Recorded> out;
  Rng rng(1);
  for (int g = 0; g < count; ++g) {
    Recorded r{static_cast<std::uint64_t>(g + 1), {}};
    auto state = create_game(game, players, {}, r.seed).state;
    while (!state->is_over()) {
      r.moves.push_back(random_move(*state, rng));
      state->apply(r.moves.back().player, r.moves.back().action);
    }
    out.push_back(std::move(r));
  }
  return out;
}

// `undo`: the state keeps what may be taken back, as a table's does (docs/undo.md).
template <class PerAction>
void replay_loop(benchmark::State& st, const std::string& game, int players, PerAction per_action, bool undo = false) {
  const auto records = record_games(game, players, 20);
  std::size_t g = 0, i = 0;
  auto fresh = [&](std::size_t record) {
    auto state = create_game(game, players, {}, records[record].seed).state;
    state->allow_undo(undo);
    return state;
  };
  auto state = fresh(0);
  for (auto _ : st) {
    if (i == records[g].moves.size()) {
      g = (g + 1) % records.size();
      i = 0;
      state = fresh(g);
    }
    const auto& move = records[g].moves[i++];
    per_action(*state, move);
  }
  st.SetItemsProcessed(st.iterations());
}

// What the server does per action: validate + apply, then filter and serialize the events for
// every viewer (each player and the spectators).
void BM_ApplyAndEvents(benchmark::State& st, std::string game, int players, bool undo) {
  replay_loop(
      st, game, players,
      [players](State& state, const Move& move) {
        auto result = state.apply(move.player, move.action);
        for (int p = 0; p < players; ++p) benchmark::DoNotOptimize(events_json_for(result.events, Viewer::of_player(p)));
        benchmark::DoNotOptimize(events_json_for(result.events, Viewer::spectator()));
      },
      undo);
}

// The design the server avoids: validate + apply + a full serialized view for every viewer.
void BM_ApplyAndEveryView(benchmark::State& st, std::string game, int players) {
  replay_loop(st, game, players, [players](State& state, const Move& move) {
    benchmark::DoNotOptimize(state.apply(move.player, move.action));
    for (int p = 0; p < players; ++p) benchmark::DoNotOptimize(state.view(Viewer::of_player(p)).dump());
    benchmark::DoNotOptimize(state.view(Viewer::spectator()).dump());
  });
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

// Legal-move generation late in a game (for Medina: a crowded city): positions two thirds of the
// way through random games, the mover's legal actions listed each iteration.
void BM_LegalActionsLate(benchmark::State& st, std::string game, int players) {
  const auto records = record_games(game, players, 20);
  std::vector<std::unique_ptr<State>> positions;
  for (const auto& r : records) {
    auto state = create_game(game, players, {}, r.seed).state;
    for (std::size_t i = 0; i < r.moves.size() * 2 / 3; ++i) state->apply(r.moves[i].player, r.moves[i].action);
    if (!state->is_over()) positions.push_back(std::move(state));
  }
  std::size_t i = 0;
  std::int64_t listed = 0;
  for (auto _ : st) {
    const State& state = *positions[i++ % positions.size()];
    auto legal = state.legal_actions(state.to_move().front());
    listed += static_cast<std::int64_t>(legal.size());
    benchmark::DoNotOptimize(legal);
  }
  st.SetItemsProcessed(st.iterations());
  st.counters["actions/list"] = static_cast<double>(listed) / static_cast<double>(st.iterations());
}

// Medina: legal-move generation on a crowded city. Random games that avoid domes while they can
// (domes close colours and end random games early) are played until more than 90 of the 176 city
// squares are taken; the mover's legal actions are listed at those positions.
int medina_occupied(const State& state) {
  const Json v = state.view(Viewer::spectator());
  std::size_t n = v["residents"].size();
  for (const auto& p : v["palaces"]) n += p["pieces"].size() + p["stables"].size();
  return static_cast<int>(n);
}

void BM_MedinaLegalCrowded(benchmark::State& st, int players) {
  std::vector<std::unique_ptr<State>> positions;
  Rng rng(11);
  for (std::uint64_t seed = 1; positions.size() < 40 && seed < 400; ++seed) {
    auto state = create_game("medina", players, {}, seed).state;
    while (!state->is_over()) {
      const int p = state->to_move().front();
      auto legal = state->legal_actions(p);
      std::vector<Json> no_dome;
      for (const auto& a : legal) {
        if (a["piece"] != "dome") no_dome.push_back(a);
      }
      const auto& from = no_dome.empty() ? legal : no_dome;
      state->apply(p, from[rng.below(from.size())]);
      if (!state->is_over() && medina_occupied(*state) > 90) {
        positions.push_back(state->clone());
        break;
      }
    }
  }
  std::size_t i = 0;
  std::int64_t listed = 0;
  for (auto _ : st) {
    const State& state = *positions[i++ % positions.size()];
    auto legal = state.legal_actions(state.to_move().front());
    listed += static_cast<std::int64_t>(legal.size());
    benchmark::DoNotOptimize(legal);
  }
  st.SetItemsProcessed(st.iterations());
  st.counters["actions/list"] = static_cast<double>(listed) / static_cast<double>(st.iterations());
  st.counters["positions"] = static_cast<double>(positions.size());
}

}  // namespace

int main(int argc, char** argv) {
  // Merkator's components come from its data file, read here (the engine does no I/O).
  if (auto error = merkator::load_data_file(EMPORIUM_MERKATOR_DATA)) {
    std::cerr << *error << "\n";
    return 1;
  }
  for (const auto& g : all_games()) {
    for (int n = g.min_players; n <= g.max_players; ++n) {
      const std::string suffix = "/" + g.id + "/" + std::to_string(n) + "p";
      benchmark::RegisterBenchmark(("apply+events" + suffix).c_str(), BM_ApplyAndEvents, g.id, n, false);
      benchmark::RegisterBenchmark(("apply+events+undo" + suffix).c_str(), BM_ApplyAndEvents, g.id, n, true);
      benchmark::RegisterBenchmark(("apply+views" + suffix).c_str(), BM_ApplyAndEveryView, g.id, n);
      benchmark::RegisterBenchmark(("random_games" + suffix).c_str(), BM_RandomGames, g.id, n)
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(("legal_late" + suffix).c_str(), BM_LegalActionsLate, g.id, n);
    }
  }
  for (int n = 2; n <= 4; ++n) {
    benchmark::RegisterBenchmark(("legal_crowded/medina/" + std::to_string(n) + "p").c_str(), BM_MedinaLegalCrowded, n);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
