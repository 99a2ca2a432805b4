// Scripted tests of the Maritime Silk Road rules engine against the spec (docs/rules/silkroad.md).
// Every expected figure below was worked out by hand from the spec; the comments show the sums.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "silkroad/silkroad.hpp"
#include "test_support.hpp"

namespace emporium::engine::silkroad {
namespace {

constexpr Good porcelain = Good::porcelain;
constexpr Good silk = Good::silk;
constexpr Good tea = Good::tea;
constexpr Good spice = Good::spice;
constexpr Good glass = Good::glass;
constexpr Good ore = Good::ore;
// ---- Actions ------------------------------------------------------------------------------------

Json load(Good g) { return {{"type", "load"}, {"good", good_name(g)}}; }
Json exchange(long long ship, Good g) { return {{"type", "exchange"}, {"ship", ship}, {"good", good_name(g)}}; }
Json end_phase() { return {{"type", "end_phase"}}; }
Json buy(const std::string& card) { return {{"type", "buy"}, {"card", card}}; }
Json buy_ship(Good g) { return {{"type", "buy"}, {"card", "ship"}, {"good", good_name(g)}}; }
Json pass() { return {{"type", "pass"}}; }
Json play(Good g, long long slot) { return {{"type", "play"}, {"good", good_name(g)}, {"slot", slot}}; }
Json score() { return {{"type", "score"}}; }
Json draw() { return {{"type", "draw"}}; }
Json extra_draw() { return {{"type", "extra_draw"}}; }
Json done() { return {{"type", "done"}}; }

// Applies an action that must be accepted; returns the events' full details in order.
using testing::act;
using testing::refused;

bool is_legal(const SilkRoadState& s, int player, const Json& action) {
  const auto legal = s.legal_actions(player);
  return std::find(legal.begin(), legal.end(), action) != legal.end();
}

using testing::count_of;
using testing::first_of;
using testing::types;

// ---- Positions ----------------------------------------------------------------------------------

Counts hand(const std::map<Good, int>& cards) {
  Counts c{};
  for (const auto& [g, n] : cards) c[gi(g)] = n;
  return c;
}

// The supply holds what is not on a ship.
void fix_supply(SilkRoadState& s) {
  auto& d = s.data_for_testing();
  d.supply.fill(kMarkersPerColour);
  for (const auto& seat : d.seats) {
    for (Good g : seat.ships) --d.supply[gi(g)];
  }
}

void set_market(SilkRoadState& s, const std::vector<Good>& tops) {
  auto& d = s.data_for_testing();
  for (int slot = 0; slot < kMarketSlots; ++slot) d.market[slot] = {tops[slot]};
}

// Setup done, phase 1 of `player`'s turn; every player has the given ships, the supply holds the rest.
SilkRoadState at_turn(int n, int player, const std::vector<std::vector<Good>>& ships, std::uint64_t seed = 1) {
  SilkRoadState s(n, seed);
  auto& d = s.data_for_testing();
  d.loads = kStartingShips * n;
  d.start_player = player;
  d.active = player;
  d.phase = Phase::phase1;
  d.turn = 1;
  for (int p = 0; p < n; ++p) d.seats[p].ships = ships[p];
  fix_supply(s);
  return s;
}

// A two-player game at player 0's phase 1; ships tea+silk and ore+glass.
SilkRoadState two_player() { return at_turn(2, 0, {{tea, silk}, {ore, glass}}); }

// Phase 2 of the active player's turn (phase 1 passed).
void to_phase2(SilkRoadState& s) { act(s, s.data().active, pass()); }

// ==== Components and setup =====================================================================

TEST(SilkRoad, ComponentsAreSixtySixGoodsCardsThirtyMarkersAndTwentySpecialCards) {
  EXPECT_EQ(kCardCount, 66);
  EXPECT_EQ(kCardsPerGood, 11);
  EXPECT_EQ(kMarkersPerColour * kGoods, 30);
  EXPECT_EQ(card_supply(Card::ship) + card_supply(Card::exchange) + card_supply(Card::porter) +
                card_supply(Card::license),
            20);
  EXPECT_EQ(card_supply(Card::ship), 14);
  EXPECT_EQ(card_supply(Card::exchange), 2);
  EXPECT_EQ(card_supply(Card::porter), 2);
  EXPECT_EQ(card_supply(Card::license), 2);
  const std::vector<std::string> names = {"porcelain", "silk", "tea", "spice", "glass", "ore"};
  for (int g = 0; g < kGoods; ++g) {
    EXPECT_EQ(good_name(kAllGoods[g]), names[g]);
    EXPECT_EQ(good_from_name(names[g]), kAllGoods[g]);
  }
  EXPECT_FALSE(good_from_name("gold"));
  EXPECT_FALSE(card_from_name("captain"));
}

TEST(SilkRoad, SpecialCardsCostShipTenExchangeEightPorterTwelveLicenseEleven) {
  EXPECT_EQ(card_cost(Card::ship), 10);
  EXPECT_EQ(card_cost(Card::exchange), 8);
  EXPECT_EQ(card_cost(Card::porter), 12);
  EXPECT_EQ(card_cost(Card::license), 11);
  const Json v = SilkRoadState(2, 1).view(Viewer::spectator());
  EXPECT_EQ(v["costs"], (Json{{"ship", 10}, {"exchange", 8}, {"porter", 12}, {"license", 11}}));
}

TEST(SilkRoad, SetupDealsThreeCardsToEachHandSixToTheMarketAndTheRestToTheDeck) {
  const std::map<int, std::size_t> deck = {{2, 54}, {3, 51}, {4, 48}};  // 66 - 6 - 3n
  for (const auto& [n, size] : deck) {
    SilkRoadState s(n, 7);
    const auto& d = s.data();
    EXPECT_EQ(d.deck.size(), size) << n;
    Counts total{};
    for (Good g : d.deck) ++total[gi(g)];
    for (int p = 0; p < n; ++p) {
      EXPECT_EQ(d.seats[p].hand_count(), 3) << n;
      for (int g = 0; g < kGoods; ++g) total[g] += d.seats[p].hand[g];
    }
    for (int slot = 0; slot < kMarketSlots; ++slot) {
      ASSERT_EQ(d.market[slot].size(), 1u);
      ++total[gi(d.market[slot].back())];
    }
    EXPECT_EQ(total, (Counts{11, 11, 11, 11, 11, 11})) << "all 66 cards, 11 of each good";
    const Json v = s.view(Viewer::spectator());
    EXPECT_EQ(v["deck_count"], size);
    EXPECT_EQ(v["market"].size(), 6u);
    EXPECT_EQ(v["covered"], (Json{0, 0, 0, 0, 0, 0}));
    EXPECT_EQ(v["phase"], "loading");
    for (int p = 0; p < n; ++p) EXPECT_EQ(v["seats"][p]["hand_count"], 3);
  }
}

TEST(SilkRoad, SetupEachPlayerTakesTwoShipsAndTheOtherSpecialCardsAreForSale) {
  const std::map<int, int> ships_left = {{2, 10}, {3, 8}, {4, 6}};  // 14 - 2n
  for (const auto& [n, left] : ships_left) {
    SilkRoadState s(n, 3);
    EXPECT_EQ(s.data().stock, (std::array<int, kCardKinds>{left, 2, 2, 2})) << n;
    EXPECT_EQ(s.view(Viewer::spectator())["stock"],
              (Json{{"ship", left}, {"exchange", 2}, {"porter", 2}, {"license", 2}}));
    EXPECT_EQ(s.data().supply, (Counts{5, 5, 5, 5, 5, 5}));
    for (int p = 0; p < n; ++p) {
      EXPECT_EQ(s.data().seats[p].exchanges + s.data().seats[p].porters + s.data().seats[p].licenses, 0);
    }
  }
}

TEST(SilkRoad, RulingEveryPlayerStartsWithZeroCoins) {
  for (int n = 2; n <= 4; ++n) {
    SilkRoadState s(n, 5);
    for (int p = 0; p < n; ++p) {
      EXPECT_EQ(s.data().seats[p].coins, 0);
      EXPECT_EQ(s.view(Viewer::of_player(p))["seats"][p]["coins"], 0);
    }
  }
}

TEST(SilkRoad, RulingStartPlayerIsChosenAtRandomFromTheSeed) {
  std::set<int> starts;
  std::set<std::vector<Good>> decks;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    SilkRoadState s(4, seed), again(4, seed);
    EXPECT_TRUE(s.data() == again.data()) << "the same seed gives the same game";
    starts.insert(s.data().start_player);
    decks.insert(s.data().deck);
    EXPECT_EQ(s.to_move(), std::vector<int>{s.data().start_player}) << "the start player loads first";
  }
  EXPECT_EQ(starts.size(), 4u) << "every seat starts for some seed";
  EXPECT_GT(decks.size(), 190u) << "the cards are shuffled from the seed";
}

TEST(SilkRoad, LoadingGoesClockwiseFromTheStartPlayerFirstShipsThenSecondShips) {
  SilkRoadState s(3, 11);
  s.data_for_testing().start_player = 1;
  s.data_for_testing().active = 1;
  const std::vector<int> order = {1, 2, 0, 1, 2, 0};
  const std::vector<Good> goods = {tea, silk, ore, spice, tea, glass};
  for (int i = 0; i < 6; ++i) {
    const int p = order[i];
    EXPECT_EQ(s.to_move(), std::vector<int>{p}) << i;
    for (int q = 0; q < 3; ++q) EXPECT_EQ(s.legal_actions(q).empty(), q != p);
    if (i < 5) refused(s, (p + 1) % 3, load(porcelain), errc::not_your_turn);
    const Json events = act(s, p, load(goods[i]));
    EXPECT_EQ(events[0], (Json{{"type", "load"}, {"player", p}, {"ship", i / 3}, {"good", good_name(goods[i])},
                               {"supply", i == 4 ? 3 : 4}}));  // tea is taken twice: 5 - 2 = 3
    if (i < 5) {
      EXPECT_EQ(events.size(), 1u);
    }
  }
  EXPECT_EQ(s.data().seats[1].ships, (std::vector<Good>{tea, spice}));
  EXPECT_EQ(s.data().seats[2].ships, (std::vector<Good>{silk, tea}));
  EXPECT_EQ(s.data().seats[0].ships, (std::vector<Good>{ore, glass}));
  EXPECT_EQ(s.data().supply, (Counts{5, 4, 3, 4, 4, 4}));
  // Then the start player's first turn.
  EXPECT_EQ(s.data().phase, Phase::phase1);
  EXPECT_EQ(s.to_move(), std::vector<int>{1});
  EXPECT_EQ(s.view(Viewer::spectator())["seats"][2]["ships"], (Json{"silk", "tea"}));
}

TEST(SilkRoad, LoadingEndsWithTheStartPlayersFirstTurn) {
  SilkRoadState s(2, 4);
  s.data_for_testing().start_player = 1;
  act(s, 1, load(tea));
  act(s, 0, load(tea));
  act(s, 1, load(tea));
  const Json events = act(s, 0, load(silk));
  EXPECT_EQ(types(events), (std::vector<std::string>{"load", "turn"}));
  EXPECT_EQ(events[1], (Json{{"type", "turn"}, {"player", 1}, {"turn", 1}}));
  EXPECT_EQ(s.view(Viewer::spectator())["phase"], "phase1");
}

TEST(SilkRoad, MarkerSupplyIsLimitedToFivePerColourWhenLoading) {
  SilkRoadState s(4, 2);
  s.data_for_testing().start_player = 0;
  for (int i = 0; i < 5; ++i) act(s, i % 4, load(tea));
  EXPECT_EQ(s.data().supply[gi(tea)], 0);
  EXPECT_FALSE(is_legal(s, 1, load(tea)));
  EXPECT_EQ(s.legal_actions(1).size(), 5u) << "the five other colours";
  refused(s, 1, load(tea), "marker_unavailable");
  act(s, 1, load(ore));
}

TEST(SilkRoad, AShipAlwaysCarriesExactlyOneMarker) {
  auto s = two_player();
  act(s, 0, exchange(0, spice));
  EXPECT_EQ(s.data().seats[0].ships.size(), 2u);
  int on_ships = 0, in_supply = 0;
  for (const auto& seat : s.data().seats) on_ships += static_cast<int>(seat.ships.size());
  for (int n : s.data().supply) in_supply += n;
  EXPECT_EQ(on_ships + in_supply, 30) << "every marker is on exactly one ship or in the supply";
}

// ==== Phase 1: exchange ========================================================================

TEST(SilkRoad, ExchangeReturnsTheMarkerAndTakesOneOfAnotherColourFromTheSupply) {
  auto s = two_player();  // supply: tea 4, silk 4, ore 4, glass 4, others 5
  const Json events = act(s, 0, exchange(1, spice));
  EXPECT_EQ(types(events), (std::vector<std::string>{"exchange", "phase"}));
  EXPECT_EQ(events[0], (Json{{"type", "exchange"}, {"player", 0}, {"ship", 1}, {"from", "silk"}, {"good", "spice"},
                             {"exchanges_left", 0}}));
  EXPECT_EQ(s.data().seats[0].ships, (std::vector<Good>{tea, spice}));
  EXPECT_EQ(s.data().supply[gi(silk)], 5);
  EXPECT_EQ(s.data().supply[gi(spice)], 4);
}

TEST(SilkRoad, ExchangeMustChangeTheColour) {
  auto s = two_player();
  EXPECT_FALSE(is_legal(s, 0, exchange(0, tea)));
  refused(s, 0, exchange(0, tea), "same_marker");
  refused(s, 0, exchange(1, silk), "same_marker");
  EXPECT_TRUE(is_legal(s, 0, exchange(0, silk)));
}

TEST(SilkRoad, ExchangeNeedsAMarkerOfTheNewColourInTheSupply) {
  // Five spice markers on player 1's ships (an impossible count of ships for a real game does not matter).
  auto s = at_turn(2, 0, {{tea, silk}, {spice, spice, spice, spice, spice}});
  EXPECT_EQ(s.data().supply[gi(spice)], 0);
  for (int ship = 0; ship < 2; ++ship) EXPECT_FALSE(is_legal(s, 0, exchange(ship, spice)));
  refused(s, 0, exchange(0, spice), "marker_unavailable");
  // Exactly the other four colours on each ship: 2 ships x 4.
  int exchanges = 0;
  for (const auto& a : s.legal_actions(0)) exchanges += a["type"] == "exchange";
  EXPECT_EQ(exchanges, 8);
}

TEST(SilkRoad, ExchangeOnAShipThePlayerDoesNotHaveIsRefused) {
  auto s = two_player();
  refused(s, 0, exchange(2, spice), "no_such_ship");
  refused(s, 0, exchange(-1, spice), "no_such_ship");
  refused(s, 0, exchange(1000000000000LL, spice), "no_such_ship");
}

TEST(SilkRoad, WithoutAPorterOneExchangeEndsPhaseOne) {
  auto s = two_player();
  const Json events = act(s, 0, exchange(0, porcelain));
  EXPECT_EQ(events[1], (Json{{"type", "phase"}, {"player", 0}, {"phase", "phase2"}}));
  EXPECT_EQ(s.data().phase, Phase::phase2);
  refused(s, 0, exchange(1, ore), errc::illegal_action);
}

TEST(SilkRoad, EachPorterAllowsOneMoreExchangeOnAnyShipIncludingTheSameShip) {
  auto s = two_player();
  s.data_for_testing().seats[0].porters = 2;  // 1 + 2 = 3 exchanges
  EXPECT_EQ(s.view(Viewer::spectator())["exchanges_left"], 3);
  Json events = act(s, 0, exchange(0, spice));
  EXPECT_EQ(events[0]["exchanges_left"], 2);
  EXPECT_EQ(events[1], (Json{{"type", "phase"}, {"player", 0}, {"phase", "exchanging"}, {"exchanges_left", 2}}));
  EXPECT_EQ(s.data().phase, Phase::exchanging);
  events = act(s, 0, exchange(0, glass));  // the same ship again
  EXPECT_EQ(events, (Json{{{"type", "exchange"}, {"player", 0}, {"ship", 0}, {"from", "spice"}, {"good", "glass"},
                           {"exchanges_left", 1}}}));
  events = act(s, 0, exchange(1, ore));
  EXPECT_EQ(types(events), (std::vector<std::string>{"exchange", "phase"}));
  EXPECT_EQ(events[1]["phase"], "phase2");
  EXPECT_EQ(s.data().seats[0].ships, (std::vector<Good>{glass, ore}));
  // tea and silk back in the supply (4 -> 5); glass: player 1 has one, player 0 now one: 3; ore likewise.
  EXPECT_EQ(s.data().supply, (Counts{5, 5, 5, 5, 3, 3}));
}

TEST(SilkRoad, EndPhaseStopsExchangingEarly) {
  auto s = two_player();
  s.data_for_testing().seats[0].porters = 1;
  refused(s, 0, end_phase(), errc::illegal_action);  // nothing begun: pass instead
  act(s, 0, exchange(0, spice));
  EXPECT_TRUE(is_legal(s, 0, end_phase()));
  // Phase 1 is exactly one of exchange, buy, pass: after an exchange neither buying nor passing.
  s.data_for_testing().seats[0].coins = 50;
  refused(s, 0, buy("license"), errc::illegal_action);
  refused(s, 0, pass(), errc::illegal_action);
  const Json events = act(s, 0, end_phase());
  EXPECT_EQ(types(events), (std::vector<std::string>{"end_phase", "phase"}));
  EXPECT_EQ(s.data().phase, Phase::phase2);
}

// ==== Phase 1: buying ==========================================================================

TEST(SilkRoad, BuyingASpecialCardPaysItsCostAndItsEffectIsPermanent) {
  const std::map<std::string, int> costs = {{"exchange", 8}, {"porter", 12}, {"license", 11}};
  for (const auto& [card, cost] : costs) {
    auto s = two_player();
    s.data_for_testing().seats[0].coins = 30;
    const Json events = act(s, 0, buy(card));
    EXPECT_EQ(events[0], (Json{{"type", "buy"}, {"player", 0}, {"card", card}, {"cost", cost}, {"left", 1},
                               {"coins", 30 - cost}}));
    EXPECT_EQ(s.data().seats[0].coins, 30 - cost);
    const Json seat = s.view(Viewer::spectator())["seats"][0];
    EXPECT_EQ(seat[card], 1);
    EXPECT_EQ(s.view(Viewer::spectator())["stock"][card], 1);
  }
}

TEST(SilkRoad, ShipPurchaseCostsTenAndLoadsTheNewShipAtOnce) {
  auto s = two_player();
  s.data_for_testing().seats[0].coins = 10;
  const Json events = act(s, 0, buy_ship(ore));
  EXPECT_EQ(events[0], (Json{{"type", "buy"}, {"player", 0}, {"card", "ship"}, {"cost", 10}, {"left", 9},
                             {"ship", 2}, {"good", "ore"}, {"supply", 3}, {"coins", 0}}));
  EXPECT_EQ(s.data().seats[0].ships, (std::vector<Good>{tea, silk, ore}));
  EXPECT_EQ(s.data().supply[gi(ore)], 3);  // 5 - player 1's - the new ship's
  EXPECT_EQ(s.data().stock[0], 9);         // 14 - 4 - 1
  EXPECT_EQ(s.data().phase, Phase::phase2);
}

TEST(SilkRoad, ShipPurchaseNeedsAMarkerOfTheChosenColour) {
  auto s = at_turn(2, 0, {{tea, silk}, {ore, ore, ore, ore, ore}});
  s.data_for_testing().seats[0].coins = 20;
  EXPECT_FALSE(is_legal(s, 0, buy_ship(ore)));
  refused(s, 0, buy_ship(ore), "marker_unavailable");
  EXPECT_TRUE(is_legal(s, 0, buy_ship(tea)));
}

TEST(SilkRoad, RulingShipCannotBeBoughtWhenNoMarkerAtAllIsAvailable) {
  // Cannot happen in a real game (at most 14 ships for 30 markers); the rule holds anyway.
  auto s = two_player();
  s.data_for_testing().seats[0].coins = 20;
  s.data_for_testing().supply.fill(0);
  for (const auto& a : s.legal_actions(0)) EXPECT_FALSE(a["type"] == "buy" && a["card"] == "ship") << a;
  for (Good g : kAllGoods) refused(s, 0, buy_ship(g), "marker_unavailable");
  EXPECT_TRUE(is_legal(s, 0, buy("license")));
}

TEST(SilkRoad, BuyingNeedsEnoughCoins) {
  auto s = two_player();
  s.data_for_testing().seats[0].coins = 11;
  refused(s, 0, buy("porter"), "not_enough_coins");  // 12 > 11
  EXPECT_FALSE(is_legal(s, 0, buy("porter")));
  EXPECT_TRUE(is_legal(s, 0, buy("license")));  // exactly 11
  EXPECT_TRUE(is_legal(s, 0, buy_ship(spice)));
  s.data_for_testing().seats[0].coins = 7;
  for (const auto& a : s.legal_actions(0)) EXPECT_NE(a["type"], "buy") << a;
  refused(s, 0, buy("exchange"), "not_enough_coins");
  refused(s, 0, buy_ship(spice), "not_enough_coins");
}

TEST(SilkRoad, RulingNobodyCanBuyOnTheFirstTurnWithZeroCoins) {
  auto s = two_player();
  for (const auto& a : s.legal_actions(0)) EXPECT_NE(a["type"], "buy") << a;
}

TEST(SilkRoad, SpecialCardsSellOut) {
  auto s = at_turn(4, 0, {{tea, silk}, {ore, glass}, {spice, porcelain}, {tea, ore}});
  for (int i = 0; i < 2; ++i) {
    s.data_for_testing().phase = Phase::phase1;
    s.data_for_testing().seats[0].coins = 100;
    act(s, 0, buy("exchange"));
  }
  s.data_for_testing().phase = Phase::phase1;
  EXPECT_FALSE(is_legal(s, 0, buy("exchange")));
  refused(s, 0, buy("exchange"), "sold_out");
  EXPECT_EQ(s.data().seats[0].exchanges, 2);
  // Ships: 14 - 2 x 4 = 6 for sale with four players.
  EXPECT_EQ(s.data().stock[0], 6);
  s.data_for_testing().stock[0] = 0;
  for (const auto& a : s.legal_actions(0)) EXPECT_FALSE(a["type"] == "buy" && a["card"] == "ship") << a;
  refused(s, 0, buy_ship(silk), "sold_out");
}

TEST(SilkRoad, OnlyOneSpecialCardMayBeBoughtATurn) {
  auto s = two_player();
  s.data_for_testing().seats[0].coins = 100;
  act(s, 0, buy("license"));
  EXPECT_EQ(s.data().phase, Phase::phase2);
  refused(s, 0, buy("license"), errc::illegal_action);
  refused(s, 0, buy_ship(tea), errc::illegal_action);
}

TEST(SilkRoad, SameTypeMayBeBoughtAgainAndEffectsStack) {
  auto s = two_player();
  s.data_for_testing().seats[0].coins = 100;
  act(s, 0, buy("license"));
  s.data_for_testing().phase = Phase::phase1;
  act(s, 0, buy("license"));
  EXPECT_EQ(s.data().seats[0].licenses, 2);
  EXPECT_EQ(s.data().seats[0].coins, 78);  // 100 - 11 - 11
}

TEST(SilkRoad, ExchangeBoughtInPhaseOneAlreadyGivesItsDrawThatTurn) {
  auto s = two_player();
  s.data_for_testing().seats[0].coins = 8;
  s.rig_deck({silk, ore, glass, spice});
  act(s, 0, buy("exchange"));
  const Json events = act(s, 0, draw());
  EXPECT_EQ(events[1], (Json{{"type", "phase"}, {"player", 0}, {"phase", "extra_draws"}, {"extra_draws_left", 1}}));
}

TEST(SilkRoad, LicenseBoughtInPhaseOneAlreadyCountsInThatTurnsScoring) {
  auto s = two_player();  // player 0: tea, silk
  set_market(s, {ore, ore, ore, ore, ore, ore});
  s.data_for_testing().seats[0].coins = 11;
  s.data_for_testing().seats[0].hand = hand({{tea, 1}});
  act(s, 0, buy("license"));
  act(s, 0, play(tea, 0));
  // 11 - 11 = 0, then 1 tea visible x 1 ship + 2 = 3.
  EXPECT_EQ(s.data().seats[0].coins, 3);
}

TEST(SilkRoad, PorterIsUsableTheTurnItIsBoughtForOneExchange) {
  auto s = two_player();
  s.data_for_testing().seats[0].coins = 12;
  Json events = act(s, 0, buy("porter"));
  EXPECT_EQ(types(events), (std::vector<std::string>{"buy", "phase"}));
  EXPECT_EQ(events[1], (Json{{"type", "phase"}, {"player", 0}, {"phase", "exchanging"}, {"exchanges_left", 1}}));
  EXPECT_EQ(s.view(Viewer::spectator())["exchanges_left"], 1);
  events = act(s, 0, exchange(1, spice));
  EXPECT_EQ(events[0]["exchanges_left"], 0);
  EXPECT_EQ(events[1]["phase"], "phase2");
  EXPECT_EQ(s.data().seats[0].ships, (std::vector<Good>{tea, spice}));
}

TEST(SilkRoad, PorterBoughtWhileOwningPortersStillGivesOnlyOneExchangeThatTurn) {
  auto s = two_player();
  s.data_for_testing().seats[0].coins = 12;
  s.data_for_testing().seats[0].porters = 1;
  act(s, 0, buy("porter"));
  act(s, 0, exchange(0, spice));
  EXPECT_EQ(s.data().phase, Phase::phase2);
  // Next own turn: 1 + 2 porters = 3 exchanges.
  s.data_for_testing().phase = Phase::phase1;
  EXPECT_EQ(s.view(Viewer::spectator())["exchanges_left"], 3);
}

TEST(SilkRoad, PorterExchangeAfterBuyingIsOptional) {
  auto s = two_player();
  s.data_for_testing().seats[0].coins = 12;
  act(s, 0, buy("porter"));
  refused(s, 0, pass(), errc::illegal_action);
  const Json events = act(s, 0, end_phase());
  EXPECT_EQ(events[1]["phase"], "phase2");
  EXPECT_EQ(s.data().seats[0].ships, (std::vector<Good>{tea, silk}));
}

TEST(SilkRoad, PassSkipsPhaseOne) {
  auto s = two_player();
  const Json events = act(s, 0, pass());
  EXPECT_EQ(events, (Json{{{"type", "pass"}, {"player", 0}}, {{"type", "phase"}, {"player", 0}, {"phase", "phase2"}}}));
  EXPECT_EQ(s.data().phase, Phase::phase2);
}

// ==== Phase 2: playing and scoring =============================================================

TEST(SilkRoad, PlayedCardCoversAMarketSlotOfThePlayersChoice) {
  auto s = two_player();
  set_market(s, {silk, silk, ore, ore, glass, spice});
  s.data_for_testing().seats[0].hand = hand({{tea, 2}});
  to_phase2(s);
  const Json events = act(s, 0, play(tea, 4));
  EXPECT_EQ(events[0], (Json{{"type", "play"}, {"player", 0}, {"good", "tea"}, {"slot", 4}, {"covered", "glass"},
                             {"hand_count", 1}}));
  EXPECT_EQ(s.top(4), tea);
  EXPECT_EQ(s.data().market[4], (std::vector<Good>{glass, tea}));
  const Json v = s.view(Viewer::spectator());
  EXPECT_EQ(v["market"], (Json{"silk", "silk", "ore", "ore", "tea", "spice"}));
  EXPECT_EQ(v["covered"], (Json{0, 0, 0, 0, 1, 0}));
  EXPECT_EQ(v["played_good"], "tea");
  EXPECT_EQ(v["played_count"], 1);
  // Every slot may be chosen for the next card.
  for (int slot = 0; slot < kMarketSlots; ++slot) EXPECT_TRUE(is_legal(s, 0, play(tea, slot)));
  refused(s, 0, play(tea, 6), "no_such_slot");
  refused(s, 0, play(tea, -1), "no_such_slot");
}

TEST(SilkRoad, ASlotMayBeCoveredMoreThanOnceAndOnlyTheTopCardCounts) {
  auto s = two_player();  // player 0 ships: tea, silk
  set_market(s, {tea, silk, ore, ore, glass, spice});
  s.data_for_testing().seats[0].hand = hand({{tea, 2}});
  to_phase2(s);
  act(s, 0, play(tea, 2));
  const Json events = act(s, 0, play(tea, 2));  // the same slot again: last tea card, scores at once
  EXPECT_EQ(s.data().market[2], (std::vector<Good>{ore, tea, tea}));
  // Visible tea: slots 0 and 2 = 2 (the covered tea under slot 2 does not count). Income 2 x 1 ship = 2.
  EXPECT_EQ(first_of(events, "scoring"), (Json{{"type", "scoring"}, {"player", 0}, {"good", "tea"}, {"count", 2},
                                               {"played", 2}}));
  EXPECT_EQ(s.data().seats[0].coins, 2);
  EXPECT_EQ(s.view(Viewer::spectator())["covered"], (Json{0, 0, 2, 0, 0, 0}));
}

TEST(SilkRoad, AllCardsPlayedInOneTurnAreOfOneGood) {
  auto s = two_player();
  s.data_for_testing().seats[0].hand = hand({{tea, 2}, {silk, 2}});
  to_phase2(s);
  act(s, 0, play(tea, 0));
  refused(s, 0, play(silk, 1), "one_good_per_turn");
  for (const auto& a : s.legal_actions(0)) {
    EXPECT_TRUE(a == score() || (a["type"] == "play" && a["good"] == "tea")) << a;
  }
  EXPECT_EQ(s.legal_actions(0).size(), 7u);  // score + tea on 6 slots
}

TEST(SilkRoad, ScoreEndsThePlayingAndNeedsACardPlayedFirst) {
  auto s = two_player();
  s.data_for_testing().seats[0].hand = hand({{tea, 3}});
  to_phase2(s);
  refused(s, 0, score(), "nothing_played");
  act(s, 0, play(tea, 0));
  refused(s, 0, draw(), "already_playing");  // phase 2 is play OR draw
  const Json events = act(s, 0, score());
  EXPECT_EQ(count_of(events, "scoring"), 1);
  EXPECT_EQ(s.data().seats[0].hand[gi(tea)], 2) << "the other tea cards stay in hand";
  EXPECT_EQ(first_of(events, "turn")["player"], 1);
}

TEST(SilkRoad, PlayingTheLastCardOfThatGoodScoresAtOnce) {
  auto s = two_player();
  s.data_for_testing().seats[0].hand = hand({{tea, 1}, {silk, 3}});
  to_phase2(s);
  const Json events = act(s, 0, play(tea, 5));
  EXPECT_EQ(types(events)[0], "play");
  EXPECT_EQ(types(events)[1], "scoring");
  EXPECT_EQ(s.data().active, 1);
}

TEST(SilkRoad, ScoringPaysEveryPlayerTheMarketCountTimesTheirShipsOfThatColour) {
  auto s = at_turn(3, 0, {{tea, tea}, {tea, silk}, {silk, ore}});
  set_market(s, {tea, silk, tea, ore, glass, spice});
  s.data_for_testing().seats[0].hand = hand({{tea, 2}});
  to_phase2(s);
  act(s, 0, play(tea, 1));                  // silk -> tea
  const Json events = act(s, 0, play(tea, 3));  // ore -> tea; last tea: scores
  // Visible tea: slots 0, 1, 2, 3 = 4. Player 0: 4 x 2 = 8. Player 1: 4 x 1 = 4. Player 2: no tea ship.
  EXPECT_EQ(first_of(events, "scoring")["count"], 4);
  EXPECT_EQ(count_of(events, "income"), 2);
  EXPECT_EQ(s.data().seats[0].coins, 8);
  EXPECT_EQ(s.data().seats[1].coins, 4);
  EXPECT_EQ(s.data().seats[2].coins, 0);
  EXPECT_EQ(events[2], (Json{{"type", "income"}, {"player", 0}, {"good", "tea"}, {"ships", 2}, {"base", 8},
                             {"license_bonus", 0}, {"amount", 8}, {"coins", 8}}));
  EXPECT_EQ(events[3], (Json{{"type", "income"}, {"player", 1}, {"good", "tea"}, {"ships", 1}, {"base", 4},
                             {"license_bonus", 0}, {"amount", 4}, {"coins", 4}}));
}

TEST(SilkRoad, ScoringPaysTheActivePlayerNothingWithoutAShipOfThatColour) {
  auto s = at_turn(2, 0, {{ore, glass}, {spice, spice}});
  set_market(s, {spice, silk, tea, ore, glass, porcelain});
  s.data_for_testing().seats[0].hand = hand({{spice, 1}});
  to_phase2(s);
  act(s, 0, play(spice, 5));
  // Visible spice: slots 0 and 5 = 2. Player 0: 0. Player 1: 2 x 2 = 4.
  EXPECT_EQ(s.data().seats[0].coins, 0);
  EXPECT_EQ(s.data().seats[1].coins, 4);
}

TEST(SilkRoad, LicenseAddsTwoPerLicenseWhenTheHolderEarnsIncome) {
  auto s = two_player();  // player 0: tea, silk
  set_market(s, {ore, ore, ore, ore, ore, ore});
  s.data_for_testing().seats[0].licenses = 2;
  s.data_for_testing().seats[0].hand = hand({{silk, 1}});
  to_phase2(s);
  const Json events = act(s, 0, play(silk, 0));
  // 1 silk visible x 1 ship = 1, plus 2 x 2 licenses = 5.
  EXPECT_EQ(first_of(events, "income"), (Json{{"type", "income"}, {"player", 0}, {"good", "silk"}, {"ships", 1},
                                              {"base", 1}, {"license_bonus", 4}, {"amount", 5}, {"coins", 5}}));
  EXPECT_EQ(s.data().seats[0].coins, 5);
}

TEST(SilkRoad, LicenseGivesNothingWhenTheHolderEarnsNothing) {
  auto s = two_player();  // player 0: tea, silk; player 1: ore, glass
  set_market(s, {tea, tea, ore, ore, glass, spice});
  s.data_for_testing().seats[0].licenses = 1;
  s.data_for_testing().seats[1].licenses = 2;
  s.data_for_testing().seats[0].hand = hand({{spice, 1}});
  to_phase2(s);
  const Json events = act(s, 0, play(spice, 0));
  // Visible spice 2; nobody carries spice: no income at all, licenses or not.
  EXPECT_EQ(count_of(events, "income"), 0);
  EXPECT_EQ(s.data().seats[0].coins, 0);
  EXPECT_EQ(s.data().seats[1].coins, 0);
}

TEST(SilkRoad, RulingLicenseAlsoPaysOnOtherPlayersTurns) {
  auto s = two_player();  // player 1: ore, glass
  set_market(s, {ore, tea, tea, silk, silk, spice});
  s.data_for_testing().seats[1].licenses = 1;
  s.data_for_testing().seats[0].hand = hand({{ore, 2}});
  to_phase2(s);
  act(s, 0, play(ore, 1));
  act(s, 0, score());
  // Visible ore: slots 0 and 1 = 2. Player 1: 2 x 1 + 2 = 4; player 0 has no ore ship.
  EXPECT_EQ(s.data().seats[1].coins, 4);
  EXPECT_EQ(s.data().seats[0].coins, 0);
}

TEST(SilkRoad, PlayerWithNoCardsMustDraw) {
  auto s = two_player();
  s.data_for_testing().seats[0].hand = Counts{};
  to_phase2(s);
  EXPECT_EQ(s.legal_actions(0), std::vector<Json>{draw()});
  refused(s, 0, play(tea, 0), "must_draw");
  act(s, 0, draw());
}

TEST(SilkRoad, PlayingAGoodNotInHandIsRefused) {
  auto s = two_player();
  s.data_for_testing().seats[0].hand = hand({{tea, 1}});
  to_phase2(s);
  refused(s, 0, play(silk, 0), "not_in_hand");
  EXPECT_EQ(s.legal_actions(0).size(), 7u);  // draw + tea on 6 slots
}

// ==== Phase 2: drawing and Exchange draws ======================================================

TEST(SilkRoad, DrawTakesTwoCardsFromTheDeckIntoTheHand) {
  auto s = two_player();
  s.data_for_testing().seats[0].hand = hand({{tea, 1}});
  s.rig_deck({silk, ore, glass, spice});
  to_phase2(s);
  const Json events = act(s, 0, draw());
  EXPECT_EQ(events[0], (Json{{"type", "draw"}, {"player", 0}, {"count", 2}, {"hand_count", 3}, {"deck_count", 2},
                             {"cards", {{"silk", 1}, {"ore", 1}}}}));
  EXPECT_EQ(s.data().seats[0].hand, hand({{tea, 1}, {silk, 1}, {ore, 1}}));
  EXPECT_EQ(s.data().deck, (std::vector<Good>{spice, glass}));
  // No Exchange card: the turn is over.
  EXPECT_EQ(events[1], (Json{{"type", "turn"}, {"player", 1}, {"turn", 2}}));
}

TEST(SilkRoad, TurnsPassClockwise) {
  auto s = at_turn(3, 2, {{tea, silk}, {ore, glass}, {spice, porcelain}});
  s.rig_deck(std::vector<Good>(20, tea));
  std::vector<int> actives;
  for (int i = 0; i < 4; ++i) {
    const int p = s.data().active;
    actives.push_back(p);
    act(s, p, pass());
    act(s, p, draw());
  }
  EXPECT_EQ(actives, (std::vector<int>{2, 0, 1, 2}));
  EXPECT_EQ(s.data().turn, 5);
}

TEST(SilkRoad, ExchangeCardGivesAnOptionalExtraDrawAfterEitherPhaseTwoAction) {
  // After drawing.
  auto s = two_player();
  s.data_for_testing().seats[0].exchanges = 1;
  s.rig_deck({silk, ore, glass, spice, tea});
  to_phase2(s);
  Json events = act(s, 0, draw());
  EXPECT_EQ(events[1], (Json{{"type", "phase"}, {"player", 0}, {"phase", "extra_draws"}, {"extra_draws_left", 1}}));
  EXPECT_EQ(s.legal_actions(0), (std::vector<Json>{extra_draw(), done()}));
  events = act(s, 0, extra_draw());
  EXPECT_EQ(events[0], (Json{{"type", "extra_draw"}, {"player", 0}, {"count", 1}, {"hand_count", 6},
                             {"deck_count", 2}, {"extra_draws_left", 0}, {"good", "glass"}}));
  EXPECT_EQ(events[1]["type"], "turn");

  // After playing and scoring.
  auto t = two_player();
  t.data_for_testing().seats[0].exchanges = 1;
  t.data_for_testing().seats[0].hand = hand({{tea, 1}});
  t.rig_deck({silk, ore, glass});
  to_phase2(t);
  events = act(t, 0, play(tea, 0));
  EXPECT_EQ(types(events).back(), "phase");
  EXPECT_EQ(t.data().phase, Phase::extra_draws);
  act(t, 0, extra_draw());
  EXPECT_EQ(t.data().seats[0].hand, hand({{silk, 1}}));
}

TEST(SilkRoad, ExchangeDrawsAreOptional) {
  auto s = two_player();
  s.data_for_testing().seats[0].exchanges = 2;
  s.rig_deck({silk, ore, glass, spice, tea});
  to_phase2(s);
  act(s, 0, draw());
  const Json events = act(s, 0, done());
  EXPECT_EQ(types(events), (std::vector<std::string>{"done", "turn"}));
  EXPECT_EQ(s.data().seats[0].hand_count(), 3 + 2);
  EXPECT_EQ(s.data().deck.size(), 3u);
}

TEST(SilkRoad, ExchangeDrawsStackOnePerCardEachOptional) {
  auto s = two_player();
  s.data_for_testing().seats[0].exchanges = 2;
  s.data_for_testing().seats[0].hand = Counts{};
  s.rig_deck({silk, ore, glass, spice, tea, tea});
  to_phase2(s);
  act(s, 0, draw());
  EXPECT_EQ(s.view(Viewer::spectator())["extra_draws_left"], 2);
  Json events = act(s, 0, extra_draw());
  EXPECT_EQ(events.size(), 1u) << "a second extra draw is still open";
  EXPECT_EQ(s.view(Viewer::spectator())["extra_draws_left"], 1);
  events = act(s, 0, extra_draw());
  EXPECT_EQ(types(events), (std::vector<std::string>{"extra_draw", "turn"}));
  EXPECT_EQ(s.data().seats[0].hand, hand({{silk, 1}, {ore, 1}, {glass, 1}, {spice, 1}}));
}

TEST(SilkRoad, ExtraDrawsAreOnlyForExchangeHolders) {
  auto s = two_player();
  refused(s, 0, extra_draw(), errc::illegal_action);
  to_phase2(s);
  refused(s, 0, done(), errc::illegal_action);
}

// ==== End of the game ==========================================================================

TEST(SilkRoad, GameEndsImmediatelyWhenADrawTakesTheLastCard) {
  auto s = two_player();
  s.data_for_testing().seats[0].exchanges = 2;  // would give extra draws: the rest of the turn is not played
  s.data_for_testing().seats[0].coins = 7;
  s.data_for_testing().seats[1].coins = 9;
  s.rig_deck({silk, ore});
  to_phase2(s);
  const Json events = act(s, 0, draw());
  EXPECT_EQ(types(events), (std::vector<std::string>{"draw", "game_over"}));
  EXPECT_TRUE(s.is_over());
  EXPECT_TRUE(s.to_move().empty());
  for (int p = 0; p < 2; ++p) EXPECT_TRUE(s.legal_actions(p).empty());
  EXPECT_EQ(s.result(), (Json{{"ranking", {{{"player", 1}, {"rank", 1}, {"coins", 9}}, {{"player", 0}, {"rank", 2}, {"coins", 7}}}},
                              {"winners", {1}}}));
}

TEST(SilkRoad, DrawTakesFewerCardsWhenFewerRemainAndTheGameEnds) {
  auto s = two_player();
  s.rig_deck({glass});
  to_phase2(s);
  const Json events = act(s, 0, draw());
  EXPECT_EQ(events[0]["count"], 1);
  EXPECT_EQ(events[0]["cards"], (Json{{"glass", 1}}));
  EXPECT_EQ(events[0]["deck_count"], 0);
  EXPECT_TRUE(s.is_over());
}

TEST(SilkRoad, GameEndsImmediatelyWhenAnExchangeDrawTakesTheLastCard) {
  auto s = two_player();
  s.data_for_testing().seats[0].exchanges = 2;
  s.rig_deck({silk, ore, glass});
  to_phase2(s);
  act(s, 0, draw());
  const Json events = act(s, 0, extra_draw());  // the last card; the second extra draw is not played
  EXPECT_EQ(types(events), (std::vector<std::string>{"extra_draw", "game_over"}));
  EXPECT_TRUE(s.is_over());
  EXPECT_EQ(s.data().seats[0].hand_count(), 3 + 3);
}

TEST(SilkRoad, PlayingAndScoringNeverEndsTheGame) {
  auto s = two_player();
  s.data_for_testing().seats[0].hand = hand({{tea, 1}});
  s.rig_deck({silk});
  to_phase2(s);
  act(s, 0, play(tea, 0));
  EXPECT_FALSE(s.is_over());
  EXPECT_EQ(s.data().active, 1);
}

TEST(SilkRoad, MostCoinsWinsAndSpecialCardsAreWorthNothing) {
  auto s = at_turn(3, 0, {{tea, silk}, {ore, glass}, {spice, porcelain}});
  auto& d = s.data_for_testing();
  d.seats[0].coins = 20;
  d.seats[1].coins = 31;
  d.seats[2].coins = 25;
  d.seats[2].licenses = 2;
  d.seats[2].porters = 2;
  s.rig_deck({tea, tea});
  to_phase2(s);
  const Json events = act(s, 0, draw());
  const Json expected = {{"ranking",
                          {{{"player", 1}, {"rank", 1}, {"coins", 31}},
                           {{"player", 2}, {"rank", 2}, {"coins", 25}},
                           {{"player", 0}, {"rank", 3}, {"coins", 20}}}},
                         {"winners", {1}}};
  EXPECT_EQ(s.result(), expected);
  EXPECT_EQ(first_of(events, "game_over")["result"], expected);
}

TEST(SilkRoad, EqualMostCoinsIsASharedWin) {
  auto s = at_turn(3, 0, {{tea, silk}, {ore, glass}, {spice, porcelain}});
  auto& d = s.data_for_testing();
  d.seats[0].coins = 30;
  d.seats[1].coins = 12;
  d.seats[2].coins = 30;
  s.rig_deck({tea});
  to_phase2(s);
  act(s, 0, draw());
  EXPECT_EQ(s.result(), (Json{{"ranking",
                               {{{"player", 0}, {"rank", 1}, {"coins", 30}},
                                {{"player", 2}, {"rank", 1}, {"coins", 30}},
                                {{"player", 1}, {"rank", 3}, {"coins", 12}}}},
                              {"winners", {0, 2}}}));
}

TEST(SilkRoad, ActionsAfterTheEndAreRefusedWithGameOver) {
  auto s = two_player();
  s.rig_deck({tea});
  to_phase2(s);
  act(s, 0, draw());
  for (int p = -1; p <= 2; ++p) {
    for (const Json& a : {pass(), draw(), play(tea, 0), Json{{"type", "nonsense"}}}) refused(s, p, a, errc::game_over);
  }
  EXPECT_TRUE(s.result().is_object());
}

// ==== Refusals =================================================================================

TEST(SilkRoad, OutOfTurnActionsAreRefusedAndChangeNothing) {
  auto s = two_player();
  refused(s, 1, pass(), errc::not_your_turn);
  refused(s, 1, exchange(0, spice), errc::not_your_turn);
  refused(s, 2, pass(), errc::not_your_turn);
  refused(s, -1, pass(), errc::not_your_turn);
  to_phase2(s);
  refused(s, 1, draw(), errc::not_your_turn);
  SilkRoadState loading(3, 9);
  const int next = (loading.data().start_player + 1) % 3;
  refused(loading, next, load(tea), errc::not_your_turn);
}

TEST(SilkRoad, MalformedActionsAreRefusedAndChangeNothing) {
  auto s = two_player();
  s.data_for_testing().seats[0].coins = 50;
  for (const Json& a : {Json(nullptr), Json("pass"), Json(7), Json::array(), Json::object(), Json{{"type", 1}},
                        Json{{"type", "bid"}}, Json{{"type", "pass"}, {"extra", 1}},
                        Json{{"type", "exchange"}, {"ship", 0}}, Json{{"type", "exchange"}, {"good", "tea"}},
                        Json{{"type", "exchange"}, {"ship", "0"}, {"good", "silk"}},
                        Json{{"type", "exchange"}, {"ship", 0.5}, {"good", "silk"}},
                        Json{{"type", "exchange"}, {"ship", 0}, {"good", "gold"}},
                        Json{{"type", "exchange"}, {"slot", 0}, {"good", "spice"}},
                        Json{{"type", "buy"}}, Json{{"type", "buy"}, {"card", "captain"}},
                        Json{{"type", "buy"}, {"card", "ship"}},
                        Json{{"type", "buy"}, {"card", "license"}, {"good", "tea"}},
                        Json{{"type", "buy"}, {"card", 3}}, Json{{"type", "play"}, {"good", "tea"}},
                        Json{{"type", "play"}, {"good", "tea"}, {"ship", 0}},
                        Json{{"type", "load"}, {"good", 2}}}) {
    refused(s, 0, a, errc::malformed_action);
    refused(s, 1, a, errc::malformed_action);
  }
}

TEST(SilkRoad, ActionsOfTheWrongPhaseAreIllegal) {
  auto s = two_player();
  s.data_for_testing().seats[0].hand = hand({{tea, 2}});
  for (const Json& a : {load(tea), play(tea, 0), score(), draw(), extra_draw(), done(), end_phase()}) {
    refused(s, 0, a, errc::illegal_action);
  }
  to_phase2(s);
  s.data_for_testing().seats[0].coins = 50;
  for (const Json& a : {load(tea), pass(), exchange(0, spice), buy("license"), extra_draw(), done(), end_phase()}) {
    refused(s, 0, a, errc::illegal_action);
  }
  SilkRoadState loading(2, 1);
  const int p = loading.data().start_player;
  for (const Json& a : {pass(), draw(), exchange(0, spice)}) refused(loading, p, a, errc::illegal_action);
}

// ==== Hidden information =======================================================================

TEST(SilkRoad, PlayerViewShowsOwnHandAndCoinsButOnlyTheOthersHandCounts) {
  auto s = at_turn(3, 0, {{tea, silk}, {ore, glass}, {spice, porcelain}});
  auto& d = s.data_for_testing();
  d.seats[0].hand = hand({{tea, 2}, {ore, 1}});
  d.seats[1].hand = hand({{silk, 4}});
  d.seats[2].hand = hand({});
  d.seats[0].coins = 13;
  d.seats[1].coins = 21;
  d.seats[2].coins = 5;
  const Json v = s.view(Viewer::of_player(1));
  EXPECT_EQ(v["seats"][1]["hand"], (Json{{"porcelain", 0}, {"silk", 4}, {"tea", 0}, {"spice", 0}, {"glass", 0}, {"ore", 0}}));
  EXPECT_EQ(v["seats"][1]["coins"], 21);
  for (int p : {0, 2}) {
    EXPECT_TRUE(v["seats"][p]["hand"].is_null());
    EXPECT_TRUE(v["seats"][p]["coins"].is_null());
  }
  EXPECT_EQ(v["seats"][0]["hand_count"], 3);
  EXPECT_EQ(v["seats"][2]["hand_count"], 0);
  EXPECT_FALSE(v.contains("deck"));
  // Public: ships, special cards owned, market, supply, stock.
  EXPECT_EQ(v["seats"][2]["ships"], (Json{"spice", "porcelain"}));
}

TEST(SilkRoad, SpectatorsSeeNoHandsAndNoCoins) {
  auto s = two_player();
  s.data_for_testing().seats[0].coins = 40;
  const Json v = s.view(Viewer::spectator());
  for (int p = 0; p < 2; ++p) {
    EXPECT_TRUE(v["seats"][p]["hand"].is_null());
    EXPECT_TRUE(v["seats"][p]["coins"].is_null());
    EXPECT_EQ(v["seats"][p]["hand_count"], 3);
  }
  EXPECT_FALSE(v.contains("deck"));
  EXPECT_EQ(v.dump().find("40"), std::string::npos);
}

TEST(SilkRoad, FullViewShowsEverythingIncludingTheDeckOrder) {
  auto s = two_player();
  s.data_for_testing().seats[1].coins = 17;
  s.rig_deck({spice, ore, tea});
  const Json v = s.view(Viewer::full());
  EXPECT_EQ(v["deck"], (Json{{{"good", "spice"}}, {{"good", "ore"}}, {{"good", "tea"}}}));
  EXPECT_EQ(v["deck_count"], 3);
  EXPECT_EQ(v["seats"][1]["coins"], 17);
  EXPECT_TRUE(v["seats"][1]["hand"].is_object());
}

TEST(SilkRoad, IncomeIsPrivateToTheEarnerWhileTheScoringItselfIsPublic) {
  auto s = at_turn(3, 0, {{tea, silk}, {tea, ore}, {glass, spice}});
  set_market(s, {tea, silk, silk, ore, glass, spice});
  s.data_for_testing().seats[1].licenses = 1;
  s.data_for_testing().seats[0].hand = hand({{tea, 1}});
  to_phase2(s);
  const auto r = s.apply(0, play(tea, 1));
  ASSERT_TRUE(r.ok());
  // Visible tea 2: player 0 earns 2, player 1 earns 2 + 2 = 4, player 2 nothing.
  const Json scoring = {{"type", "scoring"}, {"player", 0}, {"good", "tea"}, {"count", 2}, {"played", 1}};
  const Json for_0 = events_for(r.events, Viewer::of_player(0));
  const Json for_1 = events_for(r.events, Viewer::of_player(1));
  const Json for_2 = events_for(r.events, Viewer::of_player(2));
  const Json for_spectator = events_for(r.events, Viewer::spectator());
  EXPECT_EQ(first_of(for_2, "scoring"), scoring);
  EXPECT_EQ(count_of(for_2, "income"), 0);
  EXPECT_EQ(count_of(for_spectator, "income"), 0);
  EXPECT_EQ(first_of(for_spectator, "scoring"), scoring);
  EXPECT_EQ(count_of(for_0, "income"), 1);
  EXPECT_EQ(first_of(for_0, "income")["amount"], 2);
  EXPECT_EQ(count_of(for_1, "income"), 1);
  EXPECT_EQ(first_of(for_1, "income")["amount"], 4);
  EXPECT_EQ(first_of(for_1, "income")["player"], 1);
  EXPECT_EQ(count_of(events_for(r.events, Viewer::full()), "income"), 2);
}

TEST(SilkRoad, DrawnCardsAreShownOnlyToTheDrawer) {
  auto s = two_player();
  s.data_for_testing().seats[0].exchanges = 1;
  s.rig_deck({silk, silk, ore, tea});
  to_phase2(s);
  auto r = s.apply(0, draw());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(events_for(r.events, Viewer::of_player(0))[0]["cards"], (Json{{"silk", 2}}));
  const Json others = {{"type", "draw"}, {"player", 0}, {"count", 2}, {"hand_count", 5}, {"deck_count", 2}};
  EXPECT_EQ(events_for(r.events, Viewer::of_player(1))[0], others);
  EXPECT_EQ(events_for(r.events, Viewer::spectator())[0], others);
  r = s.apply(0, extra_draw());
  EXPECT_EQ(events_for(r.events, Viewer::of_player(0))[0]["good"], "ore");
  EXPECT_FALSE(events_for(r.events, Viewer::of_player(1))[0].contains("good"));
}

TEST(SilkRoad, PurchasesArePublicButTheBuyersCoinsAreNot) {
  auto s = two_player();
  s.data_for_testing().seats[0].coins = 23;
  const auto r = s.apply(0, buy("license"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(events_for(r.events, Viewer::of_player(0))[0]["coins"], 12);
  const Json public_form = {{"type", "buy"}, {"player", 0}, {"card", "license"}, {"cost", 11}, {"left", 1}};
  EXPECT_EQ(events_for(r.events, Viewer::of_player(1))[0], public_form);
  EXPECT_EQ(events_for(r.events, Viewer::spectator())[0], public_form);
}

TEST(SilkRoad, AtTheEndEveryonesCoinsAreRevealedButHandsAreNot) {
  auto s = two_player();
  s.data_for_testing().seats[0].coins = 14;
  s.data_for_testing().seats[1].coins = 19;
  s.rig_deck({tea, tea});
  to_phase2(s);
  const auto r = s.apply(0, draw());
  ASSERT_TRUE(r.ok());
  for (const auto& viewer : {Viewer::of_player(0), Viewer::of_player(1), Viewer::spectator()}) {
    const Json v = s.view(viewer);
    EXPECT_EQ(v["seats"][0]["coins"], 14);
    EXPECT_EQ(v["seats"][1]["coins"], 19);
    EXPECT_EQ(v["result"]["winners"], Json{1});
    EXPECT_EQ(first_of(events_for(r.events, viewer), "game_over")["result"]["ranking"][0]["coins"], 19);
  }
  EXPECT_TRUE(s.view(Viewer::of_player(1))["seats"][0]["hand"].is_null());
  EXPECT_TRUE(s.view(Viewer::spectator())["seats"][1]["hand"].is_null());
}

// ==== Events keep a client's view in sync ======================================================

// A minimal client: applies one action's events (as `viewer` sees them) to that viewer's view.
void apply_events(Json& v, const Json& events) {
  v["version"] = v["version"].get<int>() + 1;
  const int n = v["players"].get<int>();
  for (const auto& e : events) {
    const std::string type = e["type"];
    if (type == "load") {
      const int p = e["player"];
      v["seats"][p]["ships"].push_back(e["good"]);
      v["supply"][e["good"].get<std::string>()] = e["supply"];
      int loaded = 0;
      for (const auto& seat : v["seats"]) loaded += static_cast<int>(seat["ships"].size());
      const int next = (v["start_player"].get<int>() + loaded) % n;
      v["active"] = next;
      v["to_move"] = {next};
    } else if (type == "turn") {
      const int p = e["player"];
      v["phase"] = "phase1";
      v["active"] = p;
      v["to_move"] = {p};
      v["turn"] = e["turn"];
      v["exchanges_left"] = 1 + v["seats"][p]["porter"].get<int>();
      v["played_good"] = nullptr;
      v["played_count"] = 0;
      v["extra_draws_left"] = 0;
    } else if (type == "phase") {
      v["phase"] = e["phase"];
      if (e["phase"] == "exchanging") v["exchanges_left"] = e["exchanges_left"];
      if (e["phase"] == "phase2") v["exchanges_left"] = 0;
      if (e["phase"] == "extra_draws") v["extra_draws_left"] = e["extra_draws_left"];
    } else if (type == "exchange") {
      const int p = e["player"];
      v["seats"][p]["ships"][e["ship"].get<int>()] = e["good"];
      const std::string from = e["from"], to = e["good"];
      v["supply"][from] = v["supply"][from].get<int>() + 1;
      v["supply"][to] = v["supply"][to].get<int>() - 1;
      v["exchanges_left"] = e["exchanges_left"];
    } else if (type == "buy") {
      const int p = e["player"];
      const std::string card = e["card"];
      v["stock"][card] = e["left"];
      if (card == "ship") {
        v["seats"][p]["ships"].push_back(e["good"]);
        v["supply"][e["good"].get<std::string>()] = e["supply"];
      } else {
        v["seats"][p][card] = v["seats"][p][card].get<int>() + 1;
      }
      if (e.contains("coins")) v["seats"][p]["coins"] = e["coins"];
    } else if (type == "play") {
      const int p = e["player"], slot = e["slot"];
      v["market"][slot] = e["good"];
      v["covered"][slot] = v["covered"][slot].get<int>() + 1;
      v["seats"][p]["hand_count"] = e["hand_count"];
      if (v["seats"][p]["hand"].is_object()) {
        auto& h = v["seats"][p]["hand"][e["good"].get<std::string>()];
        h = h.get<int>() - 1;
      }
      v["played_good"] = e["good"];
      v["played_count"] = v["played_count"].get<int>() + 1;
    } else if (type == "income") {
      v["seats"][e["player"].get<int>()]["coins"] = e["coins"];
    } else if (type == "draw" || type == "extra_draw") {
      const int p = e["player"];
      v["seats"][p]["hand_count"] = e["hand_count"];
      v["deck_count"] = e["deck_count"];
      if (e.contains("cards")) {
        for (const auto& [good, k] : e["cards"].items()) {
          auto& h = v["seats"][p]["hand"][good];
          h = h.get<int>() + k.get<int>();
        }
      }
      if (e.contains("good")) {
        auto& h = v["seats"][p]["hand"][e["good"].get<std::string>()];
        h = h.get<int>() + 1;
      }
      if (type == "extra_draw") v["extra_draws_left"] = e["extra_draws_left"];
    } else if (type == "game_over") {
      v["phase"] = "over";
      v["to_move"] = Json::array();
      v["result"] = e["result"];
      for (const auto& row : e["result"]["ranking"]) v["seats"][row["player"].get<int>()]["coins"] = row["coins"];
      v["exchanges_left"] = 0;
      v["played_good"] = nullptr;
      v["played_count"] = 0;
      v["extra_draws_left"] = 0;
    }
    // pass, end_phase, done, scoring: nothing to change (what follows is in the next events).
  }
}

TEST(SilkRoad, EventsCarryEnoughToKeepEveryViewersViewInSync) {
  for (int n = 2; n <= 4; ++n) {
    for (int g = 0; g < 20; ++g) {
      SilkRoadState s(n, 300 + g);
      Rng rng(g);
      std::vector<Json> views;
      const auto viewers = testing::all_viewers(n);
      for (const auto& viewer : viewers) views.push_back(s.view(viewer));
      while (!s.is_over()) {
        const auto move = testing::random_move(s, rng);
        const auto r = s.apply(move.player, move.action);
        ASSERT_TRUE(r.ok());
        for (std::size_t i = 0; i < viewers.size(); ++i) {
          apply_events(views[i], events_for(r.events, viewers[i]));
          ASSERT_EQ(views[i], s.view(viewers[i])) << "after " << move.action << " by " << move.player;
        }
      }
    }
  }
}

// ==== A whole short game =======================================================================

TEST(SilkRoad, ScriptedTwoPlayerGameFromLoadingToTheEnd) {
  SilkRoadState s(2, 21);
  auto& d = s.data_for_testing();
  d.start_player = 1;
  d.active = 1;
  d.seats[0].hand = hand({{tea, 2}, {ore, 1}});
  d.seats[1].hand = hand({{silk, 3}});
  set_market(s, {tea, silk, ore, ore, glass, spice});
  s.rig_deck({spice, spice, glass, tea, porcelain});
  // Loading: 1 first ship, 0 first ship, 1 second ship, 0 second ship.
  act(s, 1, load(silk));
  act(s, 0, load(tea));
  act(s, 1, load(silk));
  act(s, 0, load(ore));
  // Turn 1 (player 1): pass; play silk on slots 0 and 2: visible silk = slots 0, 1, 2 = 3; 3 x 2 ships = 6.
  act(s, 1, pass());
  act(s, 1, play(silk, 0));
  act(s, 1, play(silk, 2));
  act(s, 1, score());
  EXPECT_EQ(d.seats[1].coins, 6);
  EXPECT_EQ(d.seats[0].coins, 0);
  // Turn 2 (player 0): exchange ore -> silk (ship 1); play 2 tea on slots 3 and 4.
  // Market after turn 1: silk silk silk ore glass spice -> after: silk silk silk tea tea spice.
  // Tea visible 2: player 0 earns 2 x 1 = 2; player 1 has no tea.
  act(s, 0, exchange(1, silk));
  act(s, 0, play(tea, 3));
  act(s, 0, play(tea, 4));  // last tea: scores
  EXPECT_EQ(d.seats[0].coins, 2);
  // Turn 3 (player 1): pass, draw spice, spice.
  act(s, 1, pass());
  act(s, 1, draw());
  EXPECT_EQ(d.seats[1].hand, hand({{silk, 1}, {spice, 2}}));
  // Turn 4 (player 0): pass, play ore on slot 0: ore visible 1; player 0 carries no ore any more: nobody earns.
  act(s, 0, pass());
  const Json events = act(s, 0, play(ore, 0));
  EXPECT_EQ(count_of(events, "income"), 0);
  // Turn 5 (player 1): pass, draw glass, tea (3 left -> 1).
  act(s, 1, pass());
  act(s, 1, draw());
  EXPECT_EQ(s.data().deck.size(), 1u);
  // Turn 6 (player 0): hand empty: must draw; takes the last card: the game ends.
  act(s, 0, pass());
  EXPECT_EQ(s.legal_actions(0), std::vector<Json>{draw()});
  const Json last = act(s, 0, draw());
  EXPECT_EQ(last[0]["count"], 1);
  EXPECT_TRUE(s.is_over());
  EXPECT_EQ(s.result(), (Json{{"ranking", {{{"player", 1}, {"rank", 1}, {"coins", 6}}, {{"player", 0}, {"rank", 2}, {"coins", 2}}}},
                              {"winners", {1}}}));
  EXPECT_EQ(s.version(), 4u + 4 + 3 + 2 + 2 + 2 + 2);
}

}  // namespace
}  // namespace emporium::engine::silkroad
