#include "emporium/engine/rng.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

namespace emporium::engine {

TEST(Rng, SplitMix64MatchesTheReferenceSequence) {
  // Reference values of Vigna's splitmix64.c for seed 1234567.
  std::uint64_t state = 1234567;
  EXPECT_EQ(splitmix64(state), 6457827717110365317ULL);
  EXPECT_EQ(splitmix64(state), 3203168211198807973ULL);
  EXPECT_EQ(splitmix64(state), 9817491932198370423ULL);
  EXPECT_EQ(splitmix64(state), 4593380528125082431ULL);
  EXPECT_EQ(splitmix64(state), 16408922859458223821ULL);
}

TEST(Rng, SameSeedSameSequenceDifferentSeedDifferentSequence) {
  Rng a(42), b(42), c(43);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const auto x = a.next();
    EXPECT_EQ(x, b.next());
    differs |= x != c.next();
  }
  EXPECT_TRUE(differs);
}

TEST(Rng, BelowStaysInRangeAndCoversIt) {
  Rng rng(7);
  std::vector<int> seen(6, 0);
  for (int i = 0; i < 6000; ++i) {
    const auto x = rng.below(6);
    ASSERT_LT(x, 6u);
    ++seen[x];
  }
  for (int count : seen) {
    EXPECT_GT(count, 850);  // 1000 expected; far outside would mean a biased draw
    EXPECT_LT(count, 1150);
  }
  EXPECT_EQ(rng.below(1), 0u);
}

TEST(Rng, ShuffleIsAPermutationAndDeterministic) {
  std::vector<int> a(36), b;
  std::iota(a.begin(), a.end(), 0);
  b = a;
  Rng r1(99), r2(99);
  r1.shuffle(a);
  r2.shuffle(b);
  EXPECT_EQ(a, b);
  std::vector<int> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> expected(36);
  std::iota(expected.begin(), expected.end(), 0);
  EXPECT_EQ(sorted, expected);
  EXPECT_NE(a, expected);
}

TEST(Rng, FixedSeedGivesAFixedShuffleOnEveryBuild) {
  // Pins the exact algorithm: a change here silently breaks every stored game record.
  std::vector<int> v(10);
  std::iota(v.begin(), v.end(), 0);
  Rng rng(2024);
  rng.shuffle(v);
  EXPECT_EQ(v, (std::vector<int>{5, 4, 6, 0, 2, 9, 7, 1, 3, 8}));
}

}  // namespace emporium::engine
