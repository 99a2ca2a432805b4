#include "emporium/engine/rng.hpp"

#include <cstdint>

namespace emporium::engine {

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

Rng::Rng(Seed seed) {
  std::uint64_t low = seed.lo, high = seed.hi;
  for (auto& word : s_) word = splitmix64(low);
  // The high half mixes in when it is set; a seed without one (every seed before they were widened) replays
  // exactly as it did.
  if (high != 0) {
    for (auto& word : s_) word ^= splitmix64(high);
  }
}

std::string Seed::to_hex() const {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(32, '0');
  for (int i = 0; i < 16; ++i) {
    out[static_cast<std::size_t>(i)] = kHex[(hi >> (60 - 4 * i)) & 15];
    out[static_cast<std::size_t>(16 + i)] = kHex[(lo >> (60 - 4 * i)) & 15];
  }
  return out;
}

std::optional<Seed> Seed::parse(std::string_view text) {
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  if (text.size() == 32) {
    Seed seed;
    for (std::size_t i = 0; i < 32; ++i) {
      const int d = digit(text[i]);
      if (d < 0) return std::nullopt;
      auto& half = i < 16 ? seed.hi : seed.lo;
      half = (half << 4) | static_cast<std::uint64_t>(d);
    }
    return seed;
  }
  if (text.empty() || text.size() > 20) return std::nullopt;
  std::uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (value > (UINT64_MAX - d) / 10) return std::nullopt;  // past 2^64 - 1
    value = value * 10 + d;
  }
  return Seed(value);
}

static inline std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

std::uint64_t Rng::next() {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

std::uint64_t Rng::below(std::uint64_t bound) {
  // Reject the top partial bucket so every value is equally likely.
  const std::uint64_t limit = (~std::uint64_t{0}) - ((~std::uint64_t{0}) % bound);
  std::uint64_t x;
  do {
    x = next();
  } while (x >= limit);
  return x % bound;
}

}  // namespace emporium::engine
