// Maritime Silk Road's bot: a sampled state deals exactly the cards the seat cannot see, keeps
// everything it can see, and guesses plausible coins for the others; the quick policy ends the game
// with the deck's last cards only when it leads.
#include <gtest/gtest.h>

#include <numeric>

#include "emporium/engine/bot.hpp"
#include "silkroad/silkroad.hpp"
#include "test_support.hpp"

namespace emporium::engine::silkroad {
namespace {

using testing::random_move;

const bot::GameBot& silk_bot() { return *bot::find_bot("silkroad"); }

// Every card of the game, wherever it lies: hands, market stacks (covered and top) and deck.
Counts all_cards(const Data& d) {
  Counts out{};
  for (const auto& s : d.seats) {
    for (int g = 0; g < kGoods; ++g) out[g] += s.hand[g];
  }
  for (const auto& stack : d.market) {
    for (Good g : stack) ++out[static_cast<int>(g)];
  }
  for (Good g : d.deck) ++out[static_cast<int>(g)];
  return out;
}

TEST(SilkRoadBot, SamplesDealExactlyTheUnseenCardsAndKeepWhatIsSeen) {
  for (int players = 2; players <= 4; ++players) {
    SilkRoadState state(players, 17 + players);
    Rng rng(players);
    int samples = 0;
    while (!state.is_over()) {
      const int seat = static_cast<int>(rng.below(players));
      const Json view = state.view(Viewer::of_player(seat));
      const auto sampled = silk_bot().sample(view, seat, rng);
      const Data& s = static_cast<const SilkRoadState&>(*sampled).data();
      const Data& d = state.data();
      Counts full;
      full.fill(kCardsPerGood);
      ASSERT_EQ(all_cards(s), full);  // 11 of each good, no more, no less
      ASSERT_EQ(s.seats[seat].hand, d.seats[seat].hand);
      ASSERT_EQ(s.deck.size(), d.deck.size());
      for (int slot = 0; slot < kMarketSlots; ++slot) {
        ASSERT_EQ(s.market[slot].size(), d.market[slot].size());
        ASSERT_EQ(s.market[slot].back(), d.market[slot].back());
      }
      for (int p = 0; p < players; ++p) {
        ASSERT_EQ(s.seats[p].hand_count(), d.seats[p].hand_count());
        ASSERT_EQ(s.seats[p].ships, d.seats[p].ships);
        ASSERT_GE(s.seats[p].coins, 0);
        if (p == seat) {
          ASSERT_EQ(s.seats[p].coins, d.seats[p].coins);
        }
      }
      ++samples;
      const auto move = random_move(state, rng);
      ASSERT_TRUE(state.apply(move.player, move.action).ok());
    }
    EXPECT_GT(samples, 50);
  }
}

TEST(SilkRoadBot, GuessedCoinsCoverWhatOthersVisiblySpent) {
  // Player 1 owns a License and a third ship: it has earned at least 21 coins, and coins never go negative.
  SilkRoadState state(2, 5);
  Data& d = state.data_for_testing();
  d.phase = Phase::phase1;
  d.loads = 4;
  d.turn = 20;
  d.active = 0;
  d.seats[0].ships = {Good::tea, Good::silk};
  d.seats[0].coins = 30;
  d.seats[1].ships = {Good::ore, Good::glass, Good::spice};
  d.seats[1].licenses = 1;
  d.stock[static_cast<int>(Card::ship)] -= 1;
  d.stock[static_cast<int>(Card::license)] -= 1;
  d.supply = {5, 4, 4, 4, 4, 4};
  const Json view = state.view(Viewer::of_player(0));
  Rng rng(3);
  for (int i = 0; i < 40; ++i) {
    const auto sampled = silk_bot().sample(view, 0, rng);
    const int coins = static_cast<const SilkRoadState&>(*sampled).data().seats[1].coins;
    EXPECT_GE(coins, 0);
    EXPECT_LE(coins, 120);  // realistic: about what seat 0 earned, scaled by what player 1 carries
  }
}

TEST(SilkRoadBot, TheQuickPolicyDrawsTheLastCardsOnlyWhenAhead) {
  SilkRoadState state(2, 9);
  Data& d = state.data_for_testing();
  d.phase = Phase::phase2;
  d.loads = 4;
  d.active = 0;
  d.seats[0].ships = {Good::tea, Good::silk};
  d.seats[1].ships = {Good::ore, Good::glass};
  d.seats[0].hand = {0, 0, 2, 0, 0, 0};  // two tea
  d.deck.resize(2);                       // a draw would end the game
  Rng rng(1);
  d.seats[0].coins = 50;
  d.seats[1].coins = 40;
  EXPECT_EQ(silk_bot().quick_action(state, 0, rng), (Json{{"type", "draw"}}));
  d.seats[0].coins = 30;
  EXPECT_EQ(silk_bot().quick_action(state, 0, rng)["type"], "play");
}

}  // namespace
}  // namespace emporium::engine::silkroad
