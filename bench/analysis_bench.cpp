// analysis_bench: the time the analysis of a finished game takes (docs/analysis.md), per title at 3 players,
// at the default settings (or --playouts/--candidates/--budget). The games are played by easy bots from fixed
// seeds; each analysis runs on one thread.
//   analysis_bench [--games K] [--players N] [--playouts N] [--candidates K] [--budget B] [--game G]
//                  [--policy revealed|views]
//                  [--record-out DIR]   (also writes each game's record there, for emporium-analyse)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "arena.hpp"
#include "emporium/analysis/analysis.hpp"
#include "emporium/engine/bot.hpp"
#include "emporium/engine/record.hpp"

namespace {

using namespace emporium;
using engine::Json;

// The published shape of a game easy bots play from `seed`: its record and its result.
Json bot_game(const std::string& game, int players, std::uint64_t seed) {
  engine::Rng rng(seed);
  engine::Record record{game, players, Json::object(), engine::Seed(rng.next(), rng.next()), {}};
  auto created = engine::create_game(game, players, record.options, record.seed);
  if (created.error) throw std::invalid_argument(created.error->message);
  auto& state = *created.state;
  while (!state.is_over()) {
    const int seat = state.to_move().front();
    const auto legal = state.legal_actions(seat);
    const Json action = engine::bot::decide(game, state.view(engine::Viewer::of_player(seat)), seat, legal,
                                            engine::bot::Level::easy, rng.next())
                            .action;
    if (!state.apply(seat, action).ok()) throw std::logic_error("the easy bot's action was refused");
    record.actions.push_back({seat, action});
  }
  Json j = record.to_json();
  j["result"] = state.result();
  return j;
}

}  // namespace

int main(int argc, char** argv) {
  int games = 1, players = 3;
  std::string record_out;
  analysis::Settings settings;
  std::vector<std::string> titles = {"medici", "merkator", "medina", "silkroad"};
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string name = argv[i];
    const std::string value = argv[i + 1];
    if (name == "--games")
      games = std::atoi(value.c_str());
    else if (name == "--players")
      players = std::atoi(value.c_str());
    else if (name == "--playouts")
      settings.playouts = std::atoi(value.c_str());
    else if (name == "--candidates")
      settings.candidates = std::atoi(value.c_str());
    else if (name == "--budget")
      settings.budget = std::atoll(value.c_str());
    else if (name == "--record-out")
      record_out = value;
    else if (name == "--game")
      titles = {value};
    else if (name == "--policy" && analysis::policy_from_name(value))
      settings.policy = *analysis::policy_from_name(value);
    else {
      std::fprintf(stderr, "unknown option %s\n", name.c_str());
      return 2;
    }
  }
  if (auto error = bench::load_game_data()) {
    std::fprintf(stderr, "%s\n", error->c_str());
    return 2;
  }
  std::printf("%-9s %7s %9s %9s %9s %10s\n", "game", "actions", "playouts", "per-est", "run", "seconds");
  for (const auto& title : titles) {
    for (int g = 0; g < games; ++g) {
      const Json record = bot_game(title, players, 1000 + static_cast<std::uint64_t>(g));
      if (!record_out.empty()) std::ofstream(record_out + "/" + title + "-" + std::to_string(g) + ".json") << record;
      const double start = bench::thread_cpu_ms();
      const auto result = analysis::analyse(record, settings);
      const double seconds = (bench::thread_cpu_ms() - start) / 1000.0;
      if (const auto* refusal = std::get_if<analysis::Refusal>(&result)) {
        std::fprintf(stderr, "%s: %s\n", title.c_str(), refusal->message.c_str());
        return 1;
      }
      const Json& used = std::get<Json>(result).at("settings");
      std::printf("%-9s %7zu %9d %9d %9lld %10.2f\n", title.c_str(), record.at("actions").size(), settings.playouts,
                  used.at("playouts_used").get<int>(), used.at("playouts_run").get<long long>(), seconds);
      std::fflush(stdout);
    }
  }
  return 0;
}
