#pragma once
// What bench/bot_arena and bench/bot_ratings share: seeded games between bots and random players, played on every
// core, with the CPU time of each bot decision. A game is a pure function of its game, seats and seed.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emporium/engine/bot.hpp"

namespace emporium::bench {

// Who plays a seat: a bot of some level, or random play (a uniformly random legal action).
struct Player {
  std::optional<engine::bot::Level> level;  // none: random play
};
inline constexpr Player kRandom{};
inline constexpr Player kEasy{engine::bot::Level::easy};
inline constexpr Player kNormal{engine::bot::Level::normal};
// "random", "easy" or "normal".
std::optional<Player> player_from_name(std::string_view name);
const char* player_name(const Player& player);

struct Played {
  bool refused = false;    // an action was refused (a bug in a bot or the engine): no ranks
  std::vector<int> ranks;  // per seat, the result's rank: 1 for first place, equal for a tie
  std::vector<std::vector<double>> decision_ms;  // per seat, each bot decision's CPU time (none for random play)
};

// One game of `game` with one player per seat, every choice drawn from `seed`. Throws std::invalid_argument when
// the game cannot be created (no such game, a player count it does not take).
Played play(const std::string& game, const std::vector<Player>& seats, std::uint64_t seed);

// Plays `count` games on `threads` threads: game i has the seats `seats_of(i)` and the seed `seed_of(i)`. The
// results in the order of i; the first exception of any game is rethrown once all threads are done.
std::vector<Played> play_all(const std::string& game, int count, int threads,
                             const std::function<std::vector<Player>(int)>& seats_of,
                             const std::function<std::uint64_t(int)>& seed_of);

// The number of threads `threads` asks for: every core when 0.
int thread_count(int threads);
// CPU time so far in milliseconds: of the calling thread, and of the whole process.
double thread_cpu_ms();
double process_cpu_ms();

// Loads the data files games need (Merkator's); the error, if any.
std::optional<std::string> load_game_data();

}  // namespace emporium::bench
