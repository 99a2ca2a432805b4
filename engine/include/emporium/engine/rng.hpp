#pragma once
#include <cstdint>
#include <utility>
#include <vector>

namespace emporium::engine {

// The engine's only source of randomness: xoshiro256** seeded through SplitMix64.
// Draws and shuffles are defined here bit for bit (no <random> distributions, whose
// results differ between standard libraries), so a seed replays identically on any build.
class Rng {
 public:
  explicit Rng(std::uint64_t seed = 0);

  std::uint64_t next();
  // Uniform in [0, bound) by rejection sampling; bound must be > 0.
  std::uint64_t below(std::uint64_t bound);

  // Fisher-Yates, drawing from the back.
  template <class T>
  void shuffle(std::vector<T>& items) {
    for (std::size_t i = items.size(); i > 1; --i) {
      std::size_t j = static_cast<std::size_t>(below(i));
      std::swap(items[i - 1], items[j]);
    }
  }

  bool operator==(const Rng&) const = default;

 private:
  std::uint64_t s_[4];
};

// SplitMix64 step, exposed for seeding and for tests against the published reference.
std::uint64_t splitmix64(std::uint64_t& state);

}  // namespace emporium::engine
