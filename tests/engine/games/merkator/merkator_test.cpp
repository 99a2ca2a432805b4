// Scripted tests of the Merkator rules engine against the spec (docs/rules/merkator.md), on the shipped data
// file. Positions are rigged through data_for_testing(); every expected figure is worked out from the spec.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "merkator/merkator.hpp"
#include "merkator_data.hpp"
#include "test_support.hpp"

namespace emporium::engine::merkator {
namespace {

using testing::act;
using testing::count_of;
using testing::first_of;
using testing::refused;
using testing::types;

const Catalog& cat() { return *testing::shipped_merkator_catalog(); }
int G(const std::string& id) { return *cat().good_index(id); }
int L(const std::string& id) { return *cat().location_index(id); }
int K(const std::string& id) { return *cat().contract_index(id); }
int BONUS(const std::string& id) { return *cat().bonus_index(id); }
int BLD(const std::string& id) { return *cat().building_index(id); }
int COL(const std::string& id) { return *cat().colour_index(id); }
int LETTER(const std::string& name) {  // a time_chart index with that letter
  for (std::size_t i = 0; i < cat().time_chart.size(); ++i) {
    if (cat().letter_name(cat().time_chart[i]) == name) return static_cast<int>(i);
  }
  return -1;
}

Json travel(const std::string& l) { return {{"type", "travel"}, {"location", l}}; }
Json take(const std::string& g, long long n) { return {{"type", "take"}, {"good", g}, {"count", n}}; }
Json sell(const std::string& k) { return {{"type", "sell"}, {"contract", k}}; }
Json buy(const std::string& card) { return {{"type", "buy"}, {"card", card}}; }
Json fulfil(const std::string& k) { return {{"type", "fulfil"}, {"contract", k}}; }
Json trade(const std::string& give, const std::string& g) { return {{"type", "trade"}, {"give", give}, {"good", g}}; }
Json supply(const std::string& g) { return {{"type", "supply"}, {"good", g}}; }
Json discard(const std::string& g) { return {{"type", "discard"}, {"good", g}}; }
Json simple(const char* type) { return {{"type", type}}; }
const Json end_investment = simple("end_investment");
const Json done = simple("done");
const Json join = simple("join");
const Json decline = simple("decline");

bool is_legal(const MerkatorState& s, int player, const Json& action) {
  const auto legal = s.legal_actions(player);
  return std::find(legal.begin(), legal.end(), action) != legal.end();
}

// A quiet position: player 0 to invest, nobody holds goods, contracts, cards, coins or time (supply tiles as
// dealt), no cubes on the map, the chart full and known letters none. Tests add what they need.
MerkatorState fresh(int players = 3, std::uint64_t seed = 7) {
  MerkatorState s(testing::shipped_merkator_catalog(), players, seed);
  auto& d = s.data_for_testing();
  d.start_player = 0;
  d.active = 0;
  d.decider = 0;
  d.phase = Phase::investment;
  for (auto& seat : d.seats) {
    std::fill(seat.goods.begin(), seat.goods.end(), 0);
    seat.contracts.clear();
    seat.bonus.clear();
    seat.buildings.clear();
    seat.time = 0;
    seat.coins = 0;
  }
  std::fill(d.cubes.begin(), d.cubes.end(), 0);
  return s;
}

Seat& seat(MerkatorState& s, int p) { return s.data_for_testing().seats[p]; }
void give(MerkatorState& s, int p, const std::string& g, int n) { seat(s, p).goods[G(g)] += n; }
int goods(const MerkatorState& s, int p, const std::string& g) { return s.data().seats[p].goods[G(g)]; }
// Moves a contract (from wherever it lies) into a player's hand.
void hand(MerkatorState& s, int p, const std::string& id) {
  auto& d = s.data_for_testing();
  const int k = K(id);
  for (auto& pile : d.piles) pile.erase(std::remove(pile.begin(), pile.end(), k), pile.end());
  for (auto& st : d.seats) st.contracts.erase(std::remove(st.contracts.begin(), st.contracts.end(), k), st.contracts.end());
  d.seats[p].contracts.push_back(k);
}
// Straight to the travel step.
void to_travel(MerkatorState& s) {
  s.data_for_testing().phase = Phase::travel;
  s.data_for_testing().decider = s.data().active;
}
// Empties the chart but for `left` counters on its last row (with the given letters, left to right).
void rig_chart(MerkatorState& s, const std::vector<std::vector<std::string>>& rows) {
  auto& d = s.data_for_testing();
  for (auto& row : d.chart) row.clear();
  const std::size_t first = d.chart.size() - rows.size();
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (const auto& l : rows[r]) d.chart[first + r].push_back({LETTER(l), false});
  }
}

// ---- Setup --------------------------------------------------------------------------------------

TEST(MerkatorSetup, DealsContractsBonusCardsSupplyTimeAndTheMap) {
  for (int n = 2; n <= 4; ++n) {
    MerkatorState s(testing::shipped_merkator_catalog(), n, 100 + n);
    const auto& d = s.data();
    const int start = d.start_player, right = (start + n - 1) % n;
    for (int p = 0; p < n; ++p) {
      const Seat& seat = d.seats[p];
      std::vector<int> values;
      for (int k : seat.contracts) values.push_back(cat().contracts[k].value);
      EXPECT_EQ(values, (std::vector<int>{2, 3, 4, 5}));
      ASSERT_EQ(seat.bonus.size(), 2u);
      std::vector<int> costs = {cat().bonus_cards[seat.bonus[0]].cost, cat().bonus_cards[seat.bonus[1]].cost};
      std::sort(costs.begin(), costs.end());
      EXPECT_EQ(costs, (std::vector<int>{3, 4}));
      EXPECT_EQ(seat.supply, std::vector<int>(8, 1));
      EXPECT_EQ(seat.coins, 0);
      EXPECT_EQ(std::accumulate(seat.goods.begin(), seat.goods.end(), 0), 0);
      EXPECT_EQ(seat.time, p == start ? 0 : p == right ? 2 : 1) << n << "p seat " << p;
    }
    EXPECT_EQ(s.chart_remaining(), n == 4 ? 42 : n == 3 ? 35 : 28);
    EXPECT_EQ(d.chart[0].empty(), n < 4);
    EXPECT_EQ(d.chart[1].empty(), n < 3);
    EXPECT_EQ(d.bonus_display.size(), 4u);
    EXPECT_EQ(d.building_display.size(), 4u);
    EXPECT_EQ(d.bonus_pile.size(), 16u - 4u - 2u * n);
    EXPECT_EQ(d.building_pile.size(), 22u);
    for (std::size_t l = 0; l < cat().locations.size(); ++l) EXPECT_EQ(d.cubes[l], cat().locations[l].major ? 1 : 0);
    EXPECT_EQ(d.phase, Phase::investment);
    EXPECT_EQ(s.to_move(), std::vector<int>{start});
    EXPECT_EQ(d.location, -1);
  }
}

TEST(MerkatorSetup, WithoutLoadedDataCreationIsRefusedClearly) {
  auto saved = installed_catalog();
  install_catalog(nullptr);
  const auto created = create_game("merkator", 3, Json::object(), 1);
  install_catalog(saved);
  ASSERT_TRUE(created.error);
  EXPECT_EQ(created.error->code, errc::game_unavailable);
  EXPECT_NE(created.error->message.find("merkator-data.json"), std::string::npos);
  EXPECT_FALSE(created.state);
  EXPECT_FALSE(create_game("merkator", 3, Json::object(), 1).error);
}

TEST(MerkatorSetup, ViewsHideLettersAndPileOrders) {
  MerkatorState s(testing::shipped_merkator_catalog(), 4, 5);
  const Json v = s.view(Viewer::spectator());
  EXPECT_FALSE(v.contains("chart_letters"));
  EXPECT_FALSE(v.contains("piles"));
  EXPECT_FALSE(v.contains("bonus_pile"));
  EXPECT_EQ(v["chart"]["remaining"], 42);
  EXPECT_TRUE(v["chart"]["rows"][0]["known"].empty());
  EXPECT_EQ(v["contract_piles"][0]["value"], 2);
  EXPECT_EQ(v["contract_piles"][0]["count"], 1);  // 5 twos, 4 dealt
  EXPECT_TRUE(v["contract_piles"][0]["top"].is_string());
  EXPECT_EQ(v["contract_piles"].back()["top"], "peace_of_westphalia");
  EXPECT_EQ(v, s.view(Viewer::of_player(0)));  // nothing is private to a player
  EXPECT_TRUE(s.view(Viewer::full()).contains("chart_letters"));
}

// ---- Investment ---------------------------------------------------------------------------------

TEST(MerkatorInvestment, SellingPaysFaceValueAndNeverTheLastContract) {
  auto s = fresh();
  hand(s, 0, "c5_1");
  hand(s, 0, "c3_1");
  const auto ev = act(s, 0, sell("c5_1"));
  EXPECT_EQ(first_of(ev, "sell")["coins"], 5);
  EXPECT_EQ(s.data().seats[0].coins, 5);
  EXPECT_EQ(s.data().discards, std::vector<int>{K("c5_1")});
  refused(s, 0, sell("c3_1"), "last_contract");
  refused(s, 0, sell("c5_1"), "not_held");
  EXPECT_FALSE(is_legal(s, 0, sell("c3_1")));
}

TEST(MerkatorInvestment, SixContractsForceSellingDownToFive) {
  auto s = fresh();
  for (const char* k : {"c2_1", "c3_1", "c4_1", "c5_1", "c6_1", "c7_1"}) hand(s, 0, k);
  refused(s, 0, end_investment, "must_sell");
  act(s, 0, sell("c2_1"));
  act(s, 0, end_investment);
  EXPECT_EQ(s.data().phase, Phase::travel);
}

TEST(MerkatorInvestment, InTheLastRoundInvestmentIsNeverForced) {
  auto s = fresh();
  for (const char* k : {"c2_1", "c3_1", "c4_1", "c5_1", "c6_1", "c7_1"}) hand(s, 0, k);
  s.data_for_testing().last_round = true;
  s.data_for_testing().trigger = "peace";
  s.data_for_testing().turns_left = 2;
  act(s, 0, end_investment);
  EXPECT_EQ(s.data().seats[0].contracts.size(), 6u);
}

TEST(MerkatorInvestment, BuyingRefillsTheDisplayAtOnceAndTheNewCardCanBeBought) {
  auto s = fresh();
  hand(s, 0, "c2_1");
  auto& d = s.data_for_testing();
  d.bonus_display = {BONUS("bonus_hamburg"), BONUS("bonus_gdansk"), BONUS("bonus_sweden"), BONUS("bonus_russia")};
  d.bonus_pile = {BONUS("bonus_spain"), BONUS("bonus_england")};  // England is drawn first
  seat(s, 0).coins = 9;
  refused(s, 0, buy("bonus_england"), "not_on_display");
  auto ev = act(s, 0, buy("bonus_russia"));  // cost 3
  EXPECT_EQ(first_of(ev, "buy")["revealed"], "bonus_england");
  EXPECT_EQ(s.data().bonus_display[3], BONUS("bonus_england"));
  EXPECT_EQ(s.data().seats[0].coins, 6);
  act(s, 0, buy("bonus_england"));
  EXPECT_EQ(s.data().bonus_display[3], BONUS("bonus_spain"));
  refused(s, 0, buy("bonus_hamburg"), "not_enough_coins");  // 3 coins, cost 4
  act(s, 0, buy("bonus_spain"));
  EXPECT_EQ(s.data().bonus_display.size(), 3u);  // the pile is empty: the slot stays empty
  EXPECT_EQ(s.data().seats[0].bonus.size(), 3u);
  // Buildings alike.
  d.building_display = {BLD("hourglass_maker")};
  d.building_pile = {};
  seat(s, 0).coins = 2;
  act(s, 0, buy("hourglass_maker"));
  EXPECT_EQ(s.data().seats[0].buildings, std::vector<int>{BLD("hourglass_maker")});
  EXPECT_TRUE(s.data().building_display.empty());
}

TEST(MerkatorInvestment, AtMost15CoinsAfterInvestment) {
  auto s = fresh();
  hand(s, 0, "c2_1");
  seat(s, 0).coins = 21;
  const auto ev = act(s, 0, end_investment);
  EXPECT_EQ(first_of(ev, "end_investment")["lost"], 6);
  EXPECT_EQ(s.data().seats[0].coins, 15);
}

// ---- Travel -------------------------------------------------------------------------------------

TEST(MerkatorTravel, CostlyPlacesArePaidInTimeAndRefusedWithoutIt) {
  auto s = fresh();
  to_travel(s);
  seat(s, 0).time = 2;
  refused(s, 0, travel("newfoundland"), "not_enough_time");
  EXPECT_FALSE(is_legal(s, 0, travel("newfoundland")));
  EXPECT_TRUE(is_legal(s, 0, travel("italy")));
  const auto ev = act(s, 0, travel("spain"));
  EXPECT_EQ(first_of(ev, "travel")["paid"], 1);
  EXPECT_EQ(s.data().seats[0].time, 1);
  EXPECT_EQ(s.chart_remaining(), 35);  // nothing gained
}

TEST(MerkatorTravel, GainsComeFromTheTopmostRowLeftToRight) {
  auto s = fresh();
  to_travel(s);
  const Counter third = s.data().chart[1][2];
  act(s, 0, travel("hamburg"));  // +2
  EXPECT_EQ(s.data().seats[0].time, 2);
  EXPECT_EQ(s.data().chart[1].size(), 5u);
  EXPECT_EQ(s.data().chart[1].front(), third);
  EXPECT_EQ(s.data().chart[2].size(), 7u);
}

TEST(MerkatorTravel, TheSameLocationAgainIsAllowedAndGainsAgain) {
  auto s = fresh(2);
  to_travel(s);
  s.data_for_testing().location = L("gdansk");
  act(s, 0, travel("gdansk"));
  EXPECT_EQ(s.data().seats[0].time, 1);
}

TEST(MerkatorTravel, OneCubeIsEitherGoodTwoAreOneOfEach) {
  auto s = fresh();
  to_travel(s);
  auto& d = s.data_for_testing();
  d.cubes[L("russia")] = 1;
  act(s, 0, travel("russia"));
  EXPECT_EQ(s.data().phase, Phase::take);
  const auto legal = s.legal_actions(0);
  EXPECT_TRUE(is_legal(s, 0, take("ham", 1)));
  EXPECT_TRUE(is_legal(s, 0, take("fish_oil", 1)));
  refused(s, 0, take("iron", 1), "bad_split");
  refused(s, 0, take("ham", 2), "bad_split");
  act(s, 0, take("fish_oil", 1));
  EXPECT_EQ(goods(s, 0, "fish_oil"), 1);
  EXPECT_EQ(s.data().cubes[L("russia")], 0);

  auto t = fresh();
  to_travel(t);
  t.data_for_testing().cubes[L("russia")] = 2;
  const auto ev = act(t, 0, travel("russia"));
  EXPECT_EQ(count_of(ev, "take"), 1);
  EXPECT_EQ(goods(t, 0, "ham"), 1);
  EXPECT_EQ(goods(t, 0, "fish_oil"), 1);
}

TEST(MerkatorTravel, ThreeOrMoreCubesAtLeastOneOfEachTheRestAsChosen) {
  auto s = fresh();
  to_travel(s);
  s.data_for_testing().cubes[L("england")] = 4;
  act(s, 0, travel("england"));
  refused(s, 0, take("coal", 4), "bad_split");
  refused(s, 0, take("coal", 0), "bad_split");
  EXPECT_EQ(s.legal_actions(0).size(), 6u + 16u - 0u);  // 3 splits x 2 names, plus 8 supply cubes x 2 goods
  act(s, 0, take("coal", 3));
  EXPECT_EQ(goods(s, 0, "coal"), 3);
  EXPECT_EQ(goods(s, 0, "fabric"), 1);
  EXPECT_EQ(s.data().seats[0].supply[COL("grey")], 1);  // the map's cubes never go to the supply tile
}

TEST(MerkatorTravel, BonusCardsGiveTwoGoodsToTheTraveller) {
  auto s = fresh();
  to_travel(s);
  seat(s, 0).bonus = {BONUS("bonus_bohemia_copper"), BONUS("bonus_bohemia_plums"), BONUS("bonus_hamburg")};
  const auto ev = act(s, 0, travel("bohemia"));
  EXPECT_EQ(first_of(ev, "bonus_goods")["goods"], (Json{{"copper", 2}, {"plums", 2}}));
  EXPECT_EQ(goods(s, 0, "copper"), 2);
  EXPECT_EQ(goods(s, 0, "vegetables"), 0);
}

TEST(MerkatorTravel, RestockAfterAMajorFollowsItsRoads) {
  auto s = fresh();
  to_travel(s);
  s.data_for_testing().cubes[L("hamburg")] = 2;
  act(s, 0, travel("hamburg"));
  const auto& cubes = s.data().cubes;
  EXPECT_EQ(cubes[L("hamburg")], 0);
  EXPECT_EQ(cubes[L("dutch_republic")], 1);
  EXPECT_EQ(cubes[L("gdansk")], 1);
  EXPECT_EQ(cubes[L("sweden")], 1);
  EXPECT_EQ(cubes[L("russia")], 0);
  EXPECT_EQ(cubes[L("spain")], 0);
}

TEST(MerkatorTravel, RestockAfterAMinorFillsMajorsHoldingExactlyItsNumber) {
  auto s = fresh();
  to_travel(s);
  auto& d = s.data_for_testing();
  d.cubes[L("hamburg")] = 3;
  d.cubes[L("gdansk")] = 2;
  d.cubes[L("spain")] = 3;
  act(s, 0, travel("bohemia"));  // restock_if_exactly 3
  EXPECT_EQ(s.data().cubes[L("hamburg")], 4);
  EXPECT_EQ(s.data().cubes[L("spain")], 4);
  EXPECT_EQ(s.data().cubes[L("gdansk")], 2);
  EXPECT_EQ(s.data().cubes[L("russia")], 0);

  auto t = fresh();
  to_travel(t);
  t.data_for_testing().cubes[L("france")] = 1;
  seat(t, 0).time = 3;
  act(t, 0, travel("newfoundland"));  // 0: every empty major gets a cube
  for (std::size_t l = 0; l < cat().locations.size(); ++l) {
    if (cat().locations[l].major) {
      EXPECT_EQ(t.data().cubes[l], 1) << cat().locations[l].id;
    }
  }
}

// ---- Goods loss ---------------------------------------------------------------------------------

TEST(MerkatorLoss, EmptyingARowTurnsItsLastCounterAndEveryPlayerLosesFromThatColumn) {
  auto s = fresh();
  to_travel(s);
  rig_chart(s, {{"A"}, {"B", "C"}});
  give(s, 0, "grain", 2);
  give(s, 1, "grain", 1);
  give(s, 1, "iron", 1);     // two kinds: player 1 chooses
  give(s, 2, "livestock", 3); // one kind: no choice
  give(s, 2, "ham", 1);       // other columns untouched
  auto ev = act(s, 0, travel("gdansk"));
  EXPECT_EQ(first_of(ev, "letter")["letter"], "A");
  EXPECT_EQ(s.data().phase, Phase::letter);
  EXPECT_TRUE(is_legal(s, 0, simple("next_letter")));
  ev = act(s, 0, simple("keep_letter"));
  // Player 0 holds only grain: loses one at once; player 1 must choose.
  EXPECT_EQ(goods(s, 0, "grain"), 1);
  EXPECT_EQ(s.data().phase, Phase::loss);
  EXPECT_EQ(s.to_move(), std::vector<int>{1});
  refused(s, 1, discard("ham"), "no_choice");
  refused(s, 1, discard("livestock"), "no_choice");
  ev = act(s, 1, discard("iron"));
  EXPECT_EQ(goods(s, 1, "iron"), 0);
  EXPECT_EQ(goods(s, 1, "grain"), 1);
  EXPECT_EQ(goods(s, 2, "livestock"), 2);
  EXPECT_EQ(goods(s, 2, "ham"), 1);
  EXPECT_EQ(s.data().seats[2].supply[COL("green")], 1);  // the supply tile is never touched
  EXPECT_NE(s.data().phase, Phase::loss);
}

TEST(MerkatorLoss, TheNextRowsFirstCounterMayReplaceASingleLetterAndGoesBackKnown) {
  auto s = fresh();
  to_travel(s);
  rig_chart(s, {{"A"}, {"BB", "C"}});
  give(s, 0, "grain", 2);
  give(s, 0, "ham", 3);
  act(s, 0, travel("gdansk"));
  const auto ev = act(s, 0, simple("next_letter"));
  EXPECT_EQ(first_of(ev, "letter")["letter"], "BB");
  EXPECT_EQ(goods(s, 0, "grain"), 2);
  EXPECT_EQ(goods(s, 0, "ham"), 1);  // two from column B
  EXPECT_EQ(s.chart_remaining(), 2);   // the counter went back
  EXPECT_TRUE(s.data().chart.back()[0].known);
  const Json v = s.view(Viewer::spectator());
  EXPECT_EQ(v["chart"]["rows"].back()["known"]["5"], "BB");  // positions 5 and 6 of a 7-long row remain
}

TEST(MerkatorLoss, ADoubleLetterHasNoAlternativeAndTakesTwo) {
  auto s = fresh();
  to_travel(s);
  rig_chart(s, {{"EE"}, {"A"}});
  give(s, 1, "coal", 1);
  give(s, 2, "coal", 2);
  give(s, 2, "calfskin", 2);
  act(s, 0, travel("gdansk"));
  EXPECT_EQ(goods(s, 1, "coal"), 0);  // fewer than two: all of them
  EXPECT_EQ(s.to_move(), std::vector<int>{2});
  act(s, 2, discard("coal"));
  act(s, 2, discard("coal"));
  EXPECT_EQ(goods(s, 2, "calfskin"), 2);
}

TEST(MerkatorLoss, TheLastRowHasNoNextRowToUse) {
  auto s = fresh();
  to_travel(s);
  rig_chart(s, {{"A"}});
  give(s, 0, "iron", 1);
  const auto ev = act(s, 0, travel("gdansk"));
  EXPECT_EQ(goods(s, 0, "iron"), 0);
  EXPECT_EQ(first_of(ev, "end_triggered")["reason"], "chart");
}

// ---- End of the chart ---------------------------------------------------------------------------

TEST(MerkatorEnd, TheChartsLastCounterStartsTheFinalRoundAndLaterTimeComesFromTheSupply) {
  auto s = fresh(3);
  to_travel(s);
  rig_chart(s, {{"A"}});
  const auto ev = act(s, 0, travel("hamburg"));  // the last counter, then one from the general supply
  EXPECT_EQ(s.data().seats[0].time, 2);
  EXPECT_EQ(count_of(ev, "time"), 2);
  EXPECT_EQ(first_of(ev, "time")["source"], "chart");
  EXPECT_EQ(ev[static_cast<std::size_t>(ev.size() - 1)]["type"], "turn");
  EXPECT_EQ(s.data().trigger, "chart");
  // Nobody could join (no time): the turn ended and the last round began: turns 1, 2, 0, then the end.
  EXPECT_EQ(s.data().active, 1);
  EXPECT_TRUE(s.data().last_round);
  for (int p : {1, 2, 0}) {
    ASSERT_EQ(s.data().active, p);
    ASSERT_FALSE(s.is_over());
    act(s, p, end_investment);
    act(s, p, travel("hamburg"));
    while (!s.is_over() && s.data().active == p) act(s, s.to_move()[0], s.legal_actions(s.to_move()[0])[0]);
  }
  EXPECT_TRUE(s.is_over());
  EXPECT_EQ(s.data().seats[0].time, 4);  // 2 more from the general supply in the last round
}

// ---- Contracts ----------------------------------------------------------------------------------

// Player 0 at `location`, in the contracts step with no other eligible decision pending.
void at(MerkatorState& s, const std::string& location) {
  to_travel(s);
  act(s, 0, travel(location));
}

TEST(MerkatorContracts, FulfilReturnsGoodsKeepsTheCardAndTakesTheNextValuesTop) {
  auto s = fresh();
  hand(s, 0, "c3_1");  // hamburg: iron, ham, vegetables
  hand(s, 0, "c2_1");  // hamburg: grain, ham
  give(s, 0, "iron", 1);
  give(s, 0, "ham", 2);
  give(s, 0, "vegetables", 1);
  give(s, 0, "grain", 1);
  const int next_four = s.data().piles[cat().value_index(4)].back();
  at(s, "hamburg");
  ASSERT_EQ(s.data().phase, Phase::contracts);
  refused(s, 0, fulfil("c5_1"), "not_held");
  auto ev = act(s, 0, fulfil("c3_1"));
  EXPECT_EQ(first_of(ev, "new_contract")["contract"], cat().contracts[next_four].id);
  EXPECT_EQ(first_of(ev, "new_contract")["source"], "pile");
  EXPECT_EQ(goods(s, 0, "iron"), 0);
  EXPECT_EQ(goods(s, 0, "ham"), 1);
  const auto& held = s.data().seats[0].contracts;
  EXPECT_TRUE(std::find(held.begin(), held.end(), K("c3_1")) != held.end());
  refused(s, 0, fulfil("c3_1"), "already_fulfilled");
  act(s, 0, fulfil("c2_1"));  // both of the same destination in one step
  EXPECT_EQ(goods(s, 0, "grain"), 0);
}

TEST(MerkatorContracts, WrongDestinationAndMissingGoodsAreRefused) {
  auto s = fresh();
  hand(s, 0, "c3_1");  // hamburg
  hand(s, 0, "c2_1");  // hamburg: grain, ham
  hand(s, 0, "c2_2");  // sweden
  give(s, 0, "grain", 1);
  at(s, "hamburg");
  refused(s, 0, fulfil("c2_2"), "wrong_destination");
  refused(s, 0, fulfil("c2_1"), "missing_goods");
  act(s, 0, done);
  EXPECT_NE(s.data().phase, Phase::contracts);
}

TEST(MerkatorContracts, NoContractForThePlaceSkipsTheStep) {
  auto s = fresh();
  hand(s, 0, "c2_2");  // sweden
  seat(s, 1).time = 0;
  seat(s, 2).time = 0;
  at(s, "russia");
  EXPECT_EQ(s.data().active, 1);  // nobody could join: the next turn began
}

TEST(MerkatorContracts, FourGoodsOfOneKindOrFourTimeBuyAMissingGood) {
  auto s = fresh();
  hand(s, 0, "c3_1");  // iron, ham, vegetables
  give(s, 0, "coal", 4);
  seat(s, 0).time = 5;
  give(s, 0, "iron", 1);
  at(s, "hamburg");  // +2 time: 7
  refused(s, 0, trade("coal", "iron"), "trade_not_needed");   // iron is there already
  refused(s, 0, trade("iron", "ham"), "not_enough_to_trade");
  refused(s, 0, fulfil("c3_1"), "missing_goods");
  act(s, 0, trade("coal", "ham"));
  EXPECT_EQ(goods(s, 0, "coal"), 0);
  act(s, 0, trade("time", "vegetables"));
  EXPECT_EQ(s.data().seats[0].time, 3);
  act(s, 0, fulfil("c3_1"));
}

TEST(MerkatorContracts, TradesAreOnlyForAContractThatCanStillBeFulfilled) {
  auto s = fresh();
  hand(s, 0, "c3_1");  // iron, ham, vegetables: two missing, one trade possible
  give(s, 0, "coal", 4);
  give(s, 0, "iron", 1);
  at(s, "hamburg");  // 2 time
  refused(s, 0, trade("coal", "ham"), "trade_not_needed");
  EXPECT_FALSE(is_legal(s, 0, trade("coal", "ham")));
}

TEST(MerkatorContracts, AnEmptyNextPileIsRefilledFromItsDiscardsElseTheSameValue) {
  auto s = fresh();
  hand(s, 0, "c3_1");
  give(s, 0, "iron", 2);
  give(s, 0, "ham", 2);
  give(s, 0, "vegetables", 2);
  auto& d = s.data_for_testing();
  d.piles[cat().value_index(4)].clear();
  d.discards = {K("c4_2"), K("c4_5"), K("c5_1")};
  at(s, "hamburg");
  auto ev = act(s, 0, fulfil("c3_1"));
  EXPECT_EQ(first_of(ev, "reshuffle")["count"], 2);
  EXPECT_EQ(first_of(ev, "new_contract")["source"], "reshuffled");
  EXPECT_EQ(s.data().discards, std::vector<int>{K("c5_1")});
  EXPECT_EQ(s.data().piles[cat().value_index(4)].size(), 1u);

  auto t = fresh();
  hand(t, 0, "c3_1");
  give(t, 0, "iron", 1);
  give(t, 0, "ham", 1);
  give(t, 0, "vegetables", 1);
  t.data_for_testing().piles[cat().value_index(4)].clear();
  const int three = t.data().piles[cat().value_index(3)].back();
  at(t, "hamburg");
  ev = act(t, 0, fulfil("c3_1"));
  EXPECT_EQ(first_of(ev, "new_contract")["source"], "same_value");
  EXPECT_EQ(first_of(ev, "new_contract")["contract"], cat().contracts[three].id);
}

TEST(MerkatorContracts, AContractGainedMayBeFulfilledAtOnce) {
  auto s = fresh();
  hand(s, 0, "c2_1");  // hamburg: grain, ham
  auto& d = s.data_for_testing();
  d.piles[cat().value_index(3)].push_back(K("c3_1"));  // hamburg: iron, ham, vegetables on top
  give(s, 0, "grain", 1);
  give(s, 0, "ham", 2);
  give(s, 0, "iron", 1);
  give(s, 0, "vegetables", 1);
  at(s, "hamburg");
  act(s, 0, fulfil("c2_1"));
  ASSERT_EQ(s.data().phase, Phase::contracts);
  act(s, 0, fulfil("c3_1"));
  EXPECT_EQ(goods(s, 0, "ham"), 0);
}

TEST(MerkatorContracts, TheSupplyTileCanBeUsedAtAnyDecision) {
  auto s = fresh();
  hand(s, 0, "c2_1");  // grain, ham
  act(s, 0, supply("grain"));
  refused(s, 0, supply("saltpeter"), "supply_empty");  // one yellow cube only
  to_travel(s);
  act(s, 0, travel("hamburg"));
  act(s, 0, supply("ham"));
  act(s, 0, fulfil("c2_1"));
  EXPECT_EQ(s.data().seats[0].supply[COL("yellow")], 0);
  EXPECT_EQ(s.data().seats[0].supply[COL("purple")], 0);
}

TEST(MerkatorContracts, TenGivesThePeaceWhichStartsTheFinalRound) {
  auto s = fresh(2);
  hand(s, 0, "c10_1");  // russia: fabric 3, wine 3, livestock 2, citrus, spice
  for (auto [g, n] : std::vector<std::pair<const char*, int>>{{"fabric", 3}, {"wine", 3}, {"livestock", 2}, {"citrus", 1}, {"spice", 1}}) {
    give(s, 0, g, n);
  }
  at(s, "russia");
  auto ev = act(s, 0, fulfil("c10_1"));
  EXPECT_EQ(first_of(ev, "new_contract")["contract"], "peace_of_westphalia");
  EXPECT_EQ(first_of(ev, "end_triggered")["reason"], "peace");
  EXPECT_EQ(s.data().trigger, "peace");
  // Player 1 may not join (no time): the last round: 1 then 0 (the trigger too), then the end.
  EXPECT_TRUE(s.data().last_round);
  EXPECT_EQ(s.data().active, 1);
  for (int p : {1, 0}) {
    act(s, p, end_investment);
    act(s, p, travel("france"));
    while (!s.is_over() && s.data().active == p) act(s, s.to_move()[0], s.legal_actions(s.to_move()[0])[0]);
  }
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(s.result()["winners"], Json::array({0}));
}

TEST(MerkatorContracts, ThePeaceInALastRoundStartedByTheChartChangesNothing) {
  auto s = fresh(2);
  auto& d = s.data_for_testing();
  d.trigger = "chart";
  d.last_round = true;
  d.turns_left = 1;
  hand(s, 0, "c10_1");
  for (auto [g, n] : std::vector<std::pair<const char*, int>>{{"fabric", 3}, {"wine", 3}, {"livestock", 2}, {"citrus", 1}, {"spice", 1}}) {
    give(s, 0, g, n);
  }
  at(s, "russia");
  const auto ev = act(s, 0, fulfil("c10_1"));
  EXPECT_EQ(first_of(ev, "new_contract")["contract"], "peace_of_westphalia");
  EXPECT_EQ(count_of(ev, "end_triggered"), 0);
  EXPECT_EQ(s.data().trigger, "chart");
  EXPECT_EQ(s.data().active, 1);  // the last turn of the round
  EXPECT_EQ(s.data().turns_left, 0);
}

TEST(MerkatorContracts, AfterThePeaceIsGoneATenGivesAnotherTen) {
  auto s = fresh(2);
  hand(s, 0, "c10_1");
  hand(s, 1, "peace_of_westphalia");
  for (auto [g, n] : std::vector<std::pair<const char*, int>>{{"fabric", 3}, {"wine", 3}, {"livestock", 2}, {"citrus", 1}, {"spice", 1}}) {
    give(s, 0, g, n);
  }
  at(s, "russia");
  const auto ev = act(s, 0, fulfil("c10_1"));
  EXPECT_EQ(first_of(ev, "new_contract")["value"], 10);
  EXPECT_EQ(first_of(ev, "new_contract")["source"], "same_value");
}

// ---- Joining ------------------------------------------------------------------------------------

TEST(MerkatorJoining, OthersAreAskedClockwiseAndPayTheActivePlayer) {
  auto s = fresh(4);
  seat(s, 1).time = 0;  // cannot pay: not asked
  seat(s, 2).time = 3;
  seat(s, 3).time = 2;
  seat(s, 2).bonus = {BONUS("bonus_italy_muskets"), BONUS("bonus_italy_citrus")};
  hand(s, 2, "c6_10");  // italy
  seat(s, 0).time = 2;
  at(s, "italy");
  EXPECT_EQ(s.data().seats[0].time, 0);
  ASSERT_EQ(s.data().phase, Phase::joining);
  EXPECT_EQ(s.to_move(), std::vector<int>{2});
  // The one asked may use the supply tile now; nobody else may act.
  EXPECT_TRUE(is_legal(s, 2, supply("grain")));
  refused(s, 3, supply("grain"), errc::not_your_turn);
  refused(s, 0, join, errc::not_your_turn);
  auto ev = act(s, 2, join);
  EXPECT_EQ(first_of(ev, "join")["paid"], 2);  // minor: 2
  EXPECT_EQ(s.data().seats[0].time, 2);
  EXPECT_EQ(s.data().seats[2].time, 1);
  EXPECT_EQ(first_of(ev, "bonus_goods")["goods"], (Json{{"muskets", 1}, {"citrus", 1}}));
  EXPECT_EQ(s.data().phase, Phase::contracts);  // the joiner's contract is for Italy
  EXPECT_EQ(s.to_move(), std::vector<int>{2});
  act(s, 2, done);
  EXPECT_EQ(s.to_move(), std::vector<int>{3});
  act(s, 3, decline);
  EXPECT_EQ(s.data().active, 1);
  EXPECT_EQ(s.data().phase, Phase::investment);
}

TEST(MerkatorJoining, AJoinerFulfilsUnderTheSameRules) {
  auto s = fresh(2);
  seat(s, 1).time = 1;
  hand(s, 1, "c2_1");  // hamburg: grain, ham
  s.data_for_testing().piles[cat().value_index(3)].push_back(K("c3_2"));  // to Gdansk: nothing more to do here
  give(s, 1, "grain", 1);
  give(s, 1, "ham", 1);
  at(s, "hamburg");
  act(s, 1, join);
  EXPECT_EQ(s.data().seats[0].time, 3);  // 2 from the chart, 1 from the joiner
  act(s, 1, fulfil("c2_1"));
  EXPECT_EQ(s.data().seats[1].contracts.size(), 2u);
  EXPECT_EQ(s.data().active, 1);  // the turn passed on
}

// ---- Scoring ------------------------------------------------------------------------------------

// Ends the game at once from the current position (the last round's final turn is over).
void end_now(MerkatorState& s) {
  auto& d = s.data_for_testing();
  d.trigger = "peace";
  d.last_round = true;
  d.turns_left = 0;
  d.active = d.players - 1;
  d.decider = d.players - 1;
  d.phase = Phase::joining;
  d.joiner_step = d.players - 1;
  for (auto& seat : d.seats) seat.time = std::max(seat.time, 0);
  d.location = L("hamburg");
  act(s, d.players - 1, decline);
}

Json breakdown(const MerkatorState& s, int p) { return s.data().scoring["players"][p]; }

TEST(MerkatorScoring, FiveBestContractsScoreTheirValueTheRestHalf) {
  auto s = fresh(2);
  for (const char* k : {"peace_of_westphalia", "c2_1", "c3_1", "c5_1", "c7_1", "c9_1", "c6_1"}) hand(s, 0, k);
  hand(s, 1, "c2_2");
  // 14 + 9 + 7 + 6 + 5 = 41, then 3/2 = 1 and 2/2 = 1
  s.data_for_testing().seats[1].time = 1;
  s.data_for_testing().seats[0].time = 1;
  auto& d = s.data_for_testing();
  d.phase = Phase::joining;
  end_now(s);
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(breakdown(s, 0)["contracts"], 43);
  EXPECT_EQ(breakdown(s, 1)["contracts"], 2);
  EXPECT_EQ(s.result()["ranking"][0]["player"], 0);
}

TEST(MerkatorScoring, ATieGoesToTheMostTimeThenIsShared) {
  auto s = fresh(3);
  hand(s, 0, "c5_1");
  hand(s, 1, "c5_2");
  hand(s, 2, "c5_3");
  seat(s, 0).time = 2;
  seat(s, 1).time = 3;
  seat(s, 2).time = 3;
  end_now(s);
  const Json r = s.result();
  EXPECT_EQ(r["winners"], Json::array({1, 2}));
  EXPECT_EQ(r["ranking"][0]["rank"], 1);
  EXPECT_EQ(r["ranking"][1]["rank"], 1);
  EXPECT_EQ(r["ranking"][2]["player"], 0);
  EXPECT_EQ(r["ranking"][2]["rank"], 3);
}

// Building points as scored at the end, for player `p` owning `building`.
int scored(MerkatorState& s, int p, const std::string& building) {
  seat(s, p).buildings.push_back(BLD(building));
  for (int q = 0; q < s.data().players; ++q) {
    if (seat(s, q).contracts.empty()) hand(s, q, "c5_" + std::to_string(q + 1));
  }
  end_now(s);
  const Json mine = breakdown(s, p);
  for (const auto& b : mine["buildings"]) {
    if (b["building"] == building) return b["points"].get<int>();
  }
  return -1;
}

// Zeroes every supply tile so only the office board counts.
MerkatorState board_only(int players = 2) {
  auto s = fresh(players);
  for (auto& seat : s.data_for_testing().seats) std::fill(seat.supply.begin(), seat.supply.end(), 0);
  return s;
}

TEST(MerkatorBuildings, PerCubeCountsItsGoodsUpToTheCap) {
  auto s = board_only();
  give(s, 0, "livestock", 1);
  give(s, 0, "grain", 2);
  EXPECT_EQ(scored(s, 0, "kornhaus"), 3);
  auto t = board_only();
  give(t, 0, "iron", 9);
  EXPECT_EQ(scored(t, 0, "kornhaus"), 4);  // at most 4
  auto u = board_only();
  give(u, 0, "ham", 5);
  EXPECT_EQ(scored(u, 0, "kornhaus"), 0);  // other column
}

TEST(MerkatorBuildings, PerDistinctCountsKindsNotCubes) {
  auto s = board_only();
  give(s, 0, "muskets", 3);
  give(s, 0, "copper", 1);
  give(s, 0, "grain", 4);
  EXPECT_EQ(scored(s, 0, "arsenal"), 4);  // 2 per kind: muskets, copper
  auto t = board_only();
  for (const auto& g : cat().goods) give(t, 0, g.id, 1);
  EXPECT_EQ(scored(t, 0, "alsterhaus"), 16);
}

TEST(MerkatorBuildings, PerColourPairNeedsBothGoodsOfTheColour) {
  auto s = board_only();
  give(s, 0, "livestock", 1);
  give(s, 0, "muskets", 2);
  give(s, 0, "grain", 3);  // yellow incomplete
  give(s, 0, "plums", 1);
  give(s, 0, "wine", 1);
  EXPECT_EQ(scored(s, 0, "twin_warehouse"), 4);
}

TEST(MerkatorBuildings, PerSetCountsCompleteSetsWithQuantitiesAndAlternatives) {
  auto s = board_only();
  give(s, 0, "fabric", 5);
  give(s, 0, "iron", 3);
  give(s, 0, "fish_oil", 2);
  EXPECT_EQ(scored(s, 0, "shipyard"), 6);  // min(5/2, 3, 2) = 2 sets x 3
  auto t = board_only();
  for (const auto& col : cat().colours) give(t, 0, cat().goods[col.goods[1]].id, 1);
  give(t, 0, "livestock", 1);
  EXPECT_EQ(scored(t, 0, "kontorhaus"), 5);  // either good of a colour serves; one full set
  auto u = board_only();
  give(u, 0, "ham", 3);
  give(u, 0, "grain", 3);
  EXPECT_EQ(scored(u, 0, "victualling_office"), 0);  // no vegetables: no set
}

TEST(MerkatorBuildings, PerTimeWithPerAndMax) {
  auto s = board_only();
  seat(s, 0).time = 7;
  EXPECT_EQ(scored(s, 0, "hourglass_maker"), 3);  // 7 / 2
  auto t = board_only();
  seat(t, 0).time = 12;
  EXPECT_EQ(scored(t, 0, "clock_tower"), 10);
  auto u = board_only();
  seat(u, 0).time = 12;
  EXPECT_EQ(scored(u, 0, "hourglass_maker"), 4);
}

TEST(MerkatorBuildings, PerContractFiltersAndThePeace) {
  auto s = board_only();
  for (const char* k : {"peace_of_westphalia", "c8_1", "c7_1", "c6_9"}) hand(s, 0, k);
  EXPECT_EQ(scored(s, 0, "merchant_adventurers_hall"), 4);  // the Peace (14) and the 8
  auto t = board_only();
  for (const char* k : {"peace_of_westphalia", "c6_9", "c6_10", "c2_1"}) hand(t, 0, k);
  EXPECT_EQ(scored(t, 0, "admiralty"), 4);  // denmark, italy; the Peace has no destination
  auto u = board_only();
  for (const char* k : {"peace_of_westphalia", "c6_9", "c6_10", "c2_1", "c2_2", "c2_3", "c2_4"}) hand(u, 0, k);
  EXPECT_EQ(scored(u, 0, "exchange"), 7);  // every contract, beside the board too
}

TEST(MerkatorBuildings, ThresholdAtExactlyTheMarkAndBelow) {
  auto s = board_only();
  give(s, 0, "wine", 16);
  EXPECT_EQ(scored(s, 0, "speicherstadt"), 12);
  auto t = board_only();
  give(t, 0, "wine", 15);
  EXPECT_EQ(scored(t, 0, "speicherstadt"), 0);
  auto u = board_only();
  for (int i = 0; i < 10; ++i) give(u, 0, cat().goods[i].id, 1);
  EXPECT_EQ(scored(u, 0, "cabinet_of_curiosities"), 6);
  auto w = board_only();
  for (int i = 0; i < 9; ++i) give(w, 0, cat().goods[i].id, 3);
  EXPECT_EQ(scored(w, 0, "cabinet_of_curiosities"), 0);
}

TEST(MerkatorBuildings, SoleMostNeedsStrictlyMoreThanEveryoneElse) {
  auto s = board_only(3);
  for (const char* k : {"c2_1", "c3_1", "c4_1"}) hand(s, 0, k);
  for (const char* k : {"c2_2", "c3_2"}) hand(s, 1, k);
  EXPECT_EQ(scored(s, 0, "town_hall"), 8);
  auto t = board_only(3);
  for (const char* k : {"c2_1", "c3_1"}) hand(t, 0, k);
  for (const char* k : {"c2_2", "c3_2"}) hand(t, 2, k);  // a tie at the top: nobody scores
  EXPECT_EQ(scored(t, 0, "town_hall"), 0);
  auto u = board_only(2);
  seat(u, 1).buildings = {};
  EXPECT_EQ(scored(u, 0, "patriotic_society"), 6);  // 1 building (this one) beats 0
  auto w = board_only(2);
  seat(w, 0).time = 0;
  seat(w, 1).time = 0;
  EXPECT_EQ(scored(w, 0, "st_michaels"), 0);  // most at 0 scores nothing
  auto x = board_only(2);
  seat(x, 0).time = 3;
  seat(x, 1).time = 3;
  EXPECT_EQ(scored(x, 0, "st_michaels"), 0);
  auto y = board_only(2);
  give(y, 0, "wine", 2);
  give(y, 1, "plums", 1);
  give(y, 1, "grain", 5);
  EXPECT_EQ(scored(y, 0, "southern_trading_house"), 6);
  auto z = board_only(2);
  give(z, 0, "wine", 2);
  give(z, 1, "grain", 2);
  EXPECT_EQ(scored(z, 0, "hanseatic_warehouse"), 0);  // 2 goods each
}

TEST(MerkatorBuildings, SupplyTileCubesArePlacedForTheOwnersBestScore) {
  auto s = fresh(2);
  for (auto& st : s.data_for_testing().seats) std::fill(st.supply.begin(), st.supply.end(), 0);
  seat(s, 0).supply[COL("blue")] = 1;
  seat(s, 0).buildings = {BLD("ratsweinkeller")};  // wine, not plums
  EXPECT_EQ(scored(s, 0, "cloth_hall"), 1);         // wine is a luxury too
  EXPECT_EQ(breakdown(s, 0)["goods"]["wine"], 1);
  EXPECT_EQ(breakdown(s, 0)["building_points"], 2);  // Ratsweinkeller 1 + Cloth Hall 1
}

}  // namespace
}  // namespace emporium::engine::merkator
