#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace emporium::engine {

// A game's seed: 128 bits, so nobody can search the seeds for the one a game was dealt from. Written as 32
// lowercase hex digits (the high half first); those 16 bytes are what a table's commitment hashes.
// Seeds were 64 bits before: a number converts to a seed with a zero high half, which replays as it did.
struct Seed {
  std::uint64_t hi = 0;
  std::uint64_t lo = 0;

  constexpr Seed() = default;
  constexpr Seed(std::uint64_t low) : lo(low) {}  // NOLINT(google-explicit-constructor): old 64-bit seeds
  constexpr Seed(std::uint64_t high, std::uint64_t low) : hi(high), lo(low) {}

  std::string to_hex() const;
  // 32 hex digits, or (as stored before seeds were widened) a decimal 64-bit number; nothing else.
  static std::optional<Seed> parse(std::string_view text);
  bool operator==(const Seed&) const = default;
};

// The engine's only source of randomness: xoshiro256** seeded through SplitMix64.
// Draws and shuffles are defined here bit for bit (no <random> distributions, whose
// results differ between standard libraries), so a seed replays identically on any build.
class Rng {
 public:
  explicit Rng(Seed seed = {});

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
