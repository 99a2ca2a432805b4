#include "arena.hpp"

#include <time.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "emporium/engine/registry.hpp"
#include "merkator/data_file.hpp"

namespace emporium::bench {

using namespace emporium::engine;

std::optional<Player> player_from_name(std::string_view name) {
  if (name == "random") return kRandom;
  if (auto level = bot::level_from_name(name)) return Player{*level};
  return std::nullopt;
}

const char* player_name(const Player& player) { return player.level ? bot::level_name(*player.level) : "random"; }

Played play(const std::string& game, const std::vector<Player>& seats, std::uint64_t seed) {
  Rng rng(seed);
  auto created = create_game(game, static_cast<int>(seats.size()), Json::object(), rng.next());
  if (created.error) throw std::invalid_argument(created.error->message);
  auto& state = *created.state;
  Played played;
  played.decision_ms.resize(seats.size());
  while (!state.is_over()) {
    const int seat = state.to_move().front();
    const auto legal = state.legal_actions(seat);
    const Player& player = seats[static_cast<std::size_t>(seat)];
    Json action;
    if (player.level) {
      const double start = thread_cpu_ms();
      action = bot::decide(game, state.view(Viewer::of_player(seat)), seat, legal, *player.level, rng.next()).action;
      played.decision_ms[static_cast<std::size_t>(seat)].push_back(thread_cpu_ms() - start);
    } else {
      action = legal[rng.below(legal.size())];
    }
    if (!state.apply(seat, action).ok()) {
      played.refused = true;
      return played;
    }
  }
  played.ranks.assign(seats.size(), 0);
  const Json result = state.result();
  for (const auto& r : result["ranking"]) {
    played.ranks[r["player"].get<std::size_t>()] = r["rank"].get<int>();
  }
  return played;
}

std::vector<Played> play_all(const std::string& game, int count, int threads,
                             const std::function<std::vector<Player>(int)>& seats_of,
                             const std::function<std::uint64_t(int)>& seed_of) {
  std::vector<Played> played(static_cast<std::size_t>(std::max(0, count)));
  std::atomic<int> next{0};
  std::mutex failure_lock;
  std::exception_ptr failure;
  std::vector<std::thread> pool;
  for (int t = 0; t < thread_count(threads); ++t) {
    pool.emplace_back([&] {
      try {
        for (int i; (i = next++) < count;) played[static_cast<std::size_t>(i)] = play(game, seats_of(i), seed_of(i));
      } catch (...) {
        next = count;  // the others stop after their current game
        std::lock_guard lock(failure_lock);
        if (!failure) failure = std::current_exception();
      }
    });
  }
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
  return played;
}

int thread_count(int threads) {
  return threads > 0 ? threads : static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
}

namespace {
double cpu_ms(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}
}  // namespace

double thread_cpu_ms() { return cpu_ms(CLOCK_THREAD_CPUTIME_ID); }
double process_cpu_ms() { return cpu_ms(CLOCK_PROCESS_CPUTIME_ID); }

std::optional<std::string> load_game_data() { return merkator::load_data_file(EMPORIUM_MERKATOR_DATA); }

}  // namespace emporium::bench
