// bot_arena: bots against each other and against uniformly random players, on every core.
//   bot_arena --game G --players N --games K --level L [--opponent random|easy|normal] [--threads T]
//             [--seed S] [--json]
// Seat (g mod N) of game g is the `L` bot (so it starts from every seat in turn); the other seats are
// `opponent`. Prints the `L` bot's wins (a shared first place counts as 1/k of a win), its first places,
// its mean rank, and its decision times (CPU time of the deciding thread: what one core spends).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "arena.hpp"
#include "emporium/engine/registry.hpp"

using namespace emporium::engine;
using namespace emporium::bench;

namespace {

struct Options {
  std::string game = "medici";
  int players = 2;
  int games = 20;
  std::string level = "normal";
  std::string opponent = "random";
  int threads = 0;
  std::uint64_t seed = 1;
  bool json = false;
};

[[noreturn]] void usage(const char* error) {
  std::cerr << "bot_arena: " << error << "\n"
            << "usage: bot_arena --game G --players N --games K --level easy|normal "
               "[--opponent random|easy|normal] [--threads T] [--seed S] [--json]\n";
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(("missing value for " + a).c_str());
      return argv[++i];
    };
    if (a == "--game") o.game = value();
    else if (a == "--players") o.players = std::stoi(value());
    else if (a == "--games") o.games = std::stoi(value());
    else if (a == "--level") o.level = value();
    else if (a == "--opponent") o.opponent = value();
    else if (a == "--threads") o.threads = std::stoi(value());
    else if (a == "--seed") o.seed = std::stoull(value());
    else if (a == "--json") o.json = true;
    else usage(("unknown argument " + a).c_str());
  }
  if (!bot::level_from_name(o.level)) usage("--level is easy or normal");
  if (!player_from_name(o.opponent)) usage("--opponent is random, easy or normal");
  return o;
}

struct Tally {
  double wins = 0;
  int firsts = 0;
  double rank_sum = 0;
  int games = 0;
  int failures = 0;
  std::vector<double> decision_ms;
};

// Adds game g, whose hero sat in seat g mod N.
void add(const Options& o, int g, const Played& played, Tally& tally) {
  const auto hero = static_cast<std::size_t>(g % o.players);
  tally.decision_ms.insert(tally.decision_ms.end(), played.decision_ms[hero].begin(), played.decision_ms[hero].end());
  if (played.refused) {
    ++tally.failures;
    return;
  }
  if (played.ranks[hero] == 1) {
    tally.wins += 1.0 / static_cast<double>(std::count(played.ranks.begin(), played.ranks.end(), 1));
    ++tally.firsts;
  }
  tally.rank_sum += played.ranks[hero];
  ++tally.games;
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  if (auto error = load_game_data()) usage(error->c_str());
  const auto* info = find_game(o.game);
  if (!info || !bot::find_bot(o.game)) usage(("no bot for game " + o.game).c_str());
  const Player hero = *player_from_name(o.level), opponent = *player_from_name(o.opponent);
  std::vector<Played> played;
  try {
    played = play_all(
        o.game, o.games, o.threads,
        [&](int g) {
          std::vector<Player> seats(static_cast<std::size_t>(o.players), opponent);
          seats[static_cast<std::size_t>(g % o.players)] = hero;
          return seats;
        },
        [&](int g) { return o.seed * 1000003ULL + static_cast<std::uint64_t>(g); });
  } catch (const std::invalid_argument& e) {
    usage(e.what());
  }
  Tally total;
  for (int g = 0; g < o.games; ++g) add(o, g, played[static_cast<std::size_t>(g)], total);
  const int threads = thread_count(o.threads);
  const double n = std::max(1, total.games);
  const double median = percentile(total.decision_ms, 0.5), p99 = percentile(total.decision_ms, 0.99);
  const double worst = total.decision_ms.empty() ? 0 : *std::max_element(total.decision_ms.begin(), total.decision_ms.end());
  if (o.json) {
    std::printf(
        "{\"game\":\"%s\",\"players\":%d,\"level\":\"%s\",\"opponent\":\"%s\",\"games\":%d,\"win_rate\":%.3f,"
        "\"first_rate\":%.3f,\"mean_rank\":%.2f,\"decisions\":%zu,\"decision_ms_median\":%.1f,"
        "\"decision_ms_p99\":%.1f,\"decision_ms_max\":%.1f,\"failures\":%d}\n",
        o.game.c_str(), o.players, o.level.c_str(), o.opponent.c_str(), total.games, total.wins / n,
        total.firsts / n, total.rank_sum / n, total.decision_ms.size(), median, p99, worst, total.failures);
  } else {
    std::printf("%s, %d players: %s bot against %s, %d games on %d threads\n", info->display_name.c_str(), o.players,
                o.level.c_str(), o.opponent.c_str(), total.games, threads);
    std::printf("  wins %.1f%% (first place %.1f%%), mean rank %.2f\n", 100 * total.wins / n, 100 * total.firsts / n,
                total.rank_sum / n);
    std::printf("  %zu decisions: median %.1f ms, p99 %.1f ms, max %.1f ms (CPU time)\n", total.decision_ms.size(),
                median, p99, worst);
    if (total.failures) std::printf("  %d games stopped on a refused action\n", total.failures);
  }
  return total.failures ? 1 : 0;
}
