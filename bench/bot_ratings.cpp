// bot_ratings: measures the bots' published ratings (docs/ratings.md, "The bots' ratings").
//   bot_ratings [--game G]... [--players N]... [--games K] [--threads T] [--seed S]
// For each game (every game with a bot by default) and player count (2 to 4 by default, those the game takes) it
// plays K seeded games of each lineup: with 2 players easy against normal and random play against easy, with N >= 3
// one random player, one normal bot and N-2 easy bots; the lineup turns one seat in each round of games, so every
// level sits in every seat. Then it finds the ratings at which ratings::rate is in balance over those games: every
// seat rated at (its level's mu, kBotSigma), the mu changes rate() gives each level sum to zero. That is the
// maximum-likelihood estimate of the model's own Plackett-Luce likelihood (a level's mu change in a game is its
// sigma² times the gradient of the game's log-likelihood), so the fixed ratings are what the rating model itself
// would conclude from these results. Only differences are measured: easy is the anchor at a new player's mu (25).
// The standard errors come from the curvature at the balance point (the observed Fisher information).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "arena.hpp"
#include "emporium/engine/registry.hpp"
#include "ratings/bot_ratings.hpp"
#include "ratings/ratings.hpp"

using namespace emporium::engine;
using namespace emporium::bench;
namespace ratings = emporium::server::ratings;

namespace {

struct Options {
  std::vector<std::string> games;  // every game with a bot when empty
  std::vector<int> players;        // 2 to 4 (those the game takes) when empty
  int games_per_lineup = 20;
  int threads = 0;
  std::uint64_t seed = 1;
};

[[noreturn]] void usage(const std::string& error) {
  std::cerr << "bot_ratings: " << error << "\n"
            << "usage: bot_ratings [--game G]... [--players N]... [--games K] [--threads T] [--seed S]\n";
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage("missing value for " + a);
      return argv[++i];
    };
    try {
      if (a == "--game") o.games.push_back(value());
      else if (a == "--players") o.players.push_back(std::stoi(value()));
      else if (a == "--games") o.games_per_lineup = std::stoi(value());
      else if (a == "--threads") o.threads = std::stoi(value());
      else if (a == "--seed") o.seed = std::stoull(value());
      else usage("unknown argument " + a);
    } catch (const std::logic_error&) {
      usage("not a number after " + a);
    }
  }
  if (o.games_per_lineup < 1) usage("--games is at least 1");
  for (const auto& game : o.games) {
    if (!find_game(game) || !bot::find_bot(game)) usage("no bot for game " + game);
  }
  return o;
}

// The three identities, in this order everywhere.
constexpr std::array<Player, 3> kIdentities{kRandom, kEasy, kNormal};
constexpr int kRandomId = 0, kEasyId = 1, kNormalId = 2;
constexpr double kAnchor = 25.0;  // easy's mu: a new player's (ratings::Parameters{}.mu)

std::vector<std::vector<int>> lineups(int players) {
  if (players == 2) return {{kEasyId, kNormalId}, {kRandomId, kEasyId}};
  std::vector<int> lineup(static_cast<std::size_t>(players), kEasyId);
  lineup.front() = kRandomId;
  lineup.back() = kNormalId;
  return {lineup};
}

// A played game as the estimate sees it: each seat's identity and rank.
struct Seating {
  std::vector<int> identity;
  std::vector<int> ranks;
};

using Mus = std::array<double, 3>;

// Each identity's total mu change over `games` under ratings::rate, every seat at (mu of its identity, kBotSigma).
Mus balance(const std::vector<Seating>& games, const Mus& mu) {
  Mus total{};
  std::vector<ratings::Rating> seats;
  for (const auto& g : games) {
    seats.clear();
    for (int id : g.identity) seats.push_back({mu[static_cast<std::size_t>(id)], ratings::kBotSigma});
    const auto after = ratings::rate(seats, g.ranks);
    for (std::size_t s = 0; s < seats.size(); ++s) {
      total[static_cast<std::size_t>(g.identity[s])] += after[s].mu - seats[s].mu;
    }
  }
  return total;
}

// Far enough below everyone to stand for minus infinity: e^(mu / c) is then nothing beside the others' (rate takes
// any mu within ±1000).
constexpr double kAlwaysLast = kAnchor - 500;

struct Estimate {
  Mus mu{kAnchor, kAnchor, kAnchor};
  Mus se{};               // standard errors (0 for the anchor)
  std::string unbounded;  // why there is no finite estimate, if there is none
};

// The maximum-likelihood mus of the identities in `games`, easy fixed at the anchor. An identity that never ranks
// below (or ties with) another has no finite estimate; one that never ranks above another is set to kAlwaysLast.
Estimate estimate(const std::vector<Seating>& games) {
  Estimate e;
  std::vector<int> free;
  for (int id : {kRandomId, kNormalId}) {
    bool present = false, above = false, below = false;
    for (const auto& g : games) {
      for (std::size_t s = 0; s < g.identity.size(); ++s) {
        if (g.identity[s] != id) continue;
        present = true;
        for (std::size_t t = 0; t < g.identity.size(); ++t) {
          if (g.identity[t] == id) continue;
          above = above || g.ranks[s] <= g.ranks[t];
          below = below || g.ranks[s] >= g.ranks[t];
        }
      }
    }
    if (!present) continue;
    if (!below) {
      e.unbounded = std::string(player_name(kIdentities[static_cast<std::size_t>(id)])) + " always ranked first";
      return e;
    }
    if (!above) {
      // Always last: its maximum is at minus infinity, where its seats no longer weigh in the others' estimates.
      e.mu[static_cast<std::size_t>(id)] = kAlwaysLast;
      continue;
    }
    free.push_back(id);
  }
  const std::size_t n = free.size();
  if (n == 0) return e;
  // Newton's method on the balance (concave log-likelihood: one maximum), the Jacobian by central differences.
  auto jacobian = [&](const Mus& mu) {
    std::array<std::array<double, 2>, 2> j{};
    constexpr double h = 1e-4;
    for (std::size_t b = 0; b < n; ++b) {
      Mus up = mu, down = mu;
      up[static_cast<std::size_t>(free[b])] += h;
      down[static_cast<std::size_t>(free[b])] -= h;
      const Mus f_up = balance(games, up), f_down = balance(games, down);
      for (std::size_t a = 0; a < n; ++a) {
        j[a][b] = (f_up[static_cast<std::size_t>(free[a])] - f_down[static_cast<std::size_t>(free[a])]) / (2 * h);
      }
    }
    return j;
  };
  // The inverse of -J (1x1 or 2x2).
  auto inverse_of_negated = [&](const std::array<std::array<double, 2>, 2>& j) {
    std::array<std::array<double, 2>, 2> inv{};
    if (n == 1) {
      inv[0][0] = -1 / j[0][0];
    } else {
      const double det = j[0][0] * j[1][1] - j[0][1] * j[1][0];
      inv = {{{-j[1][1] / det, j[0][1] / det}, {j[1][0] / det, -j[0][0] / det}}};
    }
    return inv;
  };
  for (int iteration = 0; iteration < 200; ++iteration) {
    const Mus f = balance(games, e.mu);
    const auto inv = inverse_of_negated(jacobian(e.mu));
    double largest = 0;
    for (std::size_t a = 0; a < n; ++a) {
      double step = 0;
      for (std::size_t b = 0; b < n; ++b) step += inv[a][b] * f[static_cast<std::size_t>(free[b])];
      step = std::clamp(step, -5.0, 5.0);  // far from the maximum, Newton's step may overshoot
      e.mu[static_cast<std::size_t>(free[a])] += step;
      largest = std::max(largest, std::abs(step));
    }
    if (largest < 1e-9) break;
  }
  // The covariance: the inverse of minus the log-likelihood's Hessian, which is the balance's Jacobian over sigma²
  // (rate's sigma² of a seat: kBotSigma² + tau²).
  const ratings::Parameters parameters;
  const double variance = ratings::kBotSigma * ratings::kBotSigma + parameters.tau * parameters.tau;
  const auto inv = inverse_of_negated(jacobian(e.mu));
  for (std::size_t a = 0; a < n; ++a) e.se[static_cast<std::size_t>(free[a])] = std::sqrt(variance * inv[a][a]);
  return e;
}

// How often one identity's seat ranked above another's, over every pair of seats of the two in the same game (a tie
// counts a half).
struct Pairs {
  std::array<std::array<double, 3>, 3> above{};
  std::array<std::array<int, 3>, 3> count{};
};

Pairs pairs(const std::vector<Seating>& games) {
  Pairs p;
  for (const auto& g : games) {
    for (std::size_t s = 0; s < g.identity.size(); ++s) {
      for (std::size_t t = 0; t < g.identity.size(); ++t) {
        const auto a = static_cast<std::size_t>(g.identity[s]), b = static_cast<std::size_t>(g.identity[t]);
        if (a == b) continue;
        p.above[a][b] += g.ranks[s] < g.ranks[t] ? 1.0 : g.ranks[s] == g.ranks[t] ? 0.5 : 0.0;
        ++p.count[a][b];
      }
    }
  }
  return p;
}

// Prints the estimate from `games` under `label`, and returns it.
Estimate print_estimate(const char* label, const std::vector<Seating>& games) {
  const Estimate e = estimate(games);
  const Pairs p = pairs(games);
  std::printf("  %-10s %4zu games:", label, games.size());
  if (!e.unbounded.empty()) {
    std::printf(" no finite estimate (%s)\n", e.unbounded.c_str());
    return e;
  }
  for (int id : {kNormalId, kRandomId}) {
    const auto i = static_cast<std::size_t>(id);
    if (p.count[i][kEasyId] == 0) continue;
    if (e.mu[i] == kAlwaysLast) {
      std::printf("  %s always last", player_name(kIdentities[i]));
    } else {
      std::printf("  %s %6.2f ± %4.2f", player_name(kIdentities[i]), e.mu[i], e.se[i]);
    }
    std::printf(" (above easy %5.1f%% of %d)", 100 * p.above[i][kEasyId] / p.count[i][kEasyId], p.count[i][kEasyId]);
  }
  std::printf("\n");
  return e;
}

}  // namespace

int main(int argc, char** argv) {
  Options o = parse(argc, argv);
  if (auto error = load_game_data()) usage(*error);
  if (o.games.empty()) {
    for (const auto& info : all_games()) {
      if (bot::find_bot(info.id)) o.games.push_back(info.id);
    }
  }
  // The player counts of each game, all checked before any game is played.
  std::vector<std::vector<int>> counts_of;
  for (const auto& game : o.games) {
    const auto* info = find_game(game);
    std::vector<int> counts = o.players;
    if (counts.empty()) {
      for (int n = info->min_players; n <= std::min(4, info->max_players); ++n) counts.push_back(n);
    }
    for (int n : counts) {
      if (n < info->min_players || n > info->max_players) {
        usage(game + " does not take " + std::to_string(n) + " players");
      }
    }
    counts_of.push_back(counts);
  }
  std::printf("bot_ratings: %d games per lineup and player count, seed %llu, on %d threads; mu relative to easy = %.0f,"
              " every seat at sigma %.2f\n",
              o.games_per_lineup, static_cast<unsigned long long>(o.seed), thread_count(o.threads), kAnchor,
              ratings::kBotSigma);
  int refused = 0;
  for (std::size_t k = 0; k < o.games.size(); ++k) {
    const std::string& game = o.games[k];
    const auto* info = find_game(game);
    std::printf("%s (%s)\n", info->display_name.c_str(), game.c_str());
    std::vector<Seating> all;
    double cpu_total = 0;
    for (int players : counts_of[k]) {
      const auto rounds = lineups(players);
      const int count = o.games_per_lineup * static_cast<int>(rounds.size());
      // Game i: lineup i mod L, turned by one seat each round of L games.
      auto identities_of = [&](int i) {
        const auto& lineup = rounds[static_cast<std::size_t>(i) % rounds.size()];
        const auto turn = static_cast<std::size_t>(i) / rounds.size();
        std::vector<int> seats(lineup.size());
        for (std::size_t s = 0; s < lineup.size(); ++s) seats[(s + turn) % lineup.size()] = lineup[s];
        return seats;
      };
      const double cpu_start = process_cpu_ms();
      const auto played = play_all(
          game, count, o.threads,
          [&](int i) {
            std::vector<Player> seats;
            for (int id : identities_of(i)) seats.push_back(kIdentities[static_cast<std::size_t>(id)]);
            return seats;
          },
          [&](int i) {
            const std::uint64_t round = o.seed * 1000003ULL + static_cast<std::uint64_t>(players);
            return round * 1000003ULL + static_cast<std::uint64_t>(i);
          });
      const double cpu_s = (process_cpu_ms() - cpu_start) / 1e3;
      cpu_total += cpu_s;
      std::vector<Seating> these;
      double normal_ms = 0;
      std::size_t normal_decisions = 0;
      for (int i = 0; i < count; ++i) {
        const auto& g = played[static_cast<std::size_t>(i)];
        const auto ids = identities_of(i);
        for (std::size_t s = 0; s < ids.size(); ++s) {
          if (ids[s] != kNormalId) continue;
          for (double ms : g.decision_ms[s]) normal_ms += ms;
          normal_decisions += g.decision_ms[s].size();
        }
        if (g.refused) {
          ++refused;
          continue;
        }
        these.push_back({ids, g.ranks});
      }
      const std::string label = std::to_string(players) + " players";
      print_estimate(label.c_str(), these);
      std::printf("  %-10s CPU %.1f s (normal: %zu decisions, %.1f s)\n", "", cpu_s, normal_decisions, normal_ms / 1e3);
      all.insert(all.end(), these.begin(), these.end());
    }
    const Estimate e = print_estimate("all", all);
    if (e.unbounded.empty()) {
      const ratings::Rating easy{e.mu[kEasyId], ratings::kBotSigma}, normal{e.mu[kNormalId], ratings::kBotSigma};
      std::printf("  published: easy mu %.2f displayed %d, normal mu %.2f displayed %d (sigma %.2f); CPU %.1f s\n",
                  easy.mu, ratings::displayed_rating(easy), normal.mu, ratings::displayed_rating(normal),
                  ratings::kBotSigma, cpu_total);
    }
    std::fflush(stdout);
  }
  if (refused) std::printf("%d games stopped on a refused action (left out)\n", refused);
  return refused ? 1 : 0;
}
