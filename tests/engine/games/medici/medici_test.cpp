// Scripted tests of the Medici rules engine against the spec (shared/rules/medici.md).
// Every expected figure below was worked out by hand from the spec; the comments show the sums.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "medici/medici.hpp"
#include "test_support.hpp"

namespace emporium::engine::medici {
namespace {

// ---- Tiles --------------------------------------------------------------------------------------

Tile cloth(int value, int copy = 0) { return make_tile(Commodity::cloth, value, copy); }
Tile fur(int value, int copy = 0) { return make_tile(Commodity::fur, value, copy); }
Tile grain(int value, int copy = 0) { return make_tile(Commodity::grain, value, copy); }
Tile dye(int value, int copy = 0) { return make_tile(Commodity::dye, value, copy); }
Tile spice(int value, int copy = 0) { return make_tile(Commodity::spice, value, copy); }
Tile gold() { return make_tile(Commodity::gold, 10); }

// Tiles by raw id, for ships whose contents do not matter (ids a, a+1, ..., a+n-1).
std::vector<Tile> ids(int first, int n) {
  std::vector<Tile> out;
  for (int i = 0; i < n; ++i) out.push_back(static_cast<Tile>(first + i));
  return out;
}

Json tiles(const std::vector<Tile>& ts) {
  Json out = Json::array();
  for (Tile t : ts) out.push_back(tile_json(t));
  return out;
}

// ---- Actions ------------------------------------------------------------------------------------

Json draw() { return {{"type", "draw"}}; }
Json stop() { return {{"type", "stop"}}; }
Json pass() { return {{"type", "pass"}}; }
Json bid(long long amount) { return {{"type", "bid"}, {"amount", amount}}; }

// Applies an action that must be accepted; returns the events' details in order.
using testing::act;
using testing::refused;

void append(Json& all, const Json& more) {
  for (const auto& e : more) all.push_back(e);
}

using testing::count_of;
using testing::first_of;
using testing::types;

bool has_key_anywhere(const Json& j, const std::string& key) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      if (k == key || has_key_anywhere(v, key)) return true;
    }
  } else if (j.is_array()) {
    for (const auto& v : j) {
      if (has_key_anywhere(v, key)) return true;
    }
  }
  return false;
}

// ---- Positions ----------------------------------------------------------------------------------

// The start of `player`'s turn: draw phase, empty lot, no auction under way.
void at_turn(MediciState& s, int player) {
  auto& d = s.data_for_testing();
  d.phase = Phase::draw;
  d.lot.clear();
  d.bid_order.clear();
  d.bids.clear();
  d.high_bid = 0;
  d.high_bidder = -1;
  d.active = player;
  d.start_player = player;
}

void set_ship(MediciState& s, int player, const std::vector<Tile>& ship) {
  s.data_for_testing().ships[player] = ship;
}

// The active player draws n tiles, then stops unless the auction already started by itself.
Json draw_lot(MediciState& s, int n) {
  const int p = s.data().active;
  Json events = Json::array();
  for (int i = 0; i < n; ++i) append(events, act(s, p, draw()));
  if (s.data().phase == Phase::draw) append(events, act(s, p, stop()));
  return events;
}

struct Step {
  int player;
  int amount;  // 0: pass
};

// Plays the given decisions; each must come from the player whose chance it is.
Json run_auction(MediciState& s, const std::vector<Step>& steps) {
  Json events = Json::array();
  for (const auto& step : steps) {
    EXPECT_EQ(s.current_bidder(), step.player);
    append(events, act(s, step.player, step.amount > 0 ? bid(step.amount) : pass()));
  }
  return events;
}

// Everyone left to decide in the current auction passes.
Json pass_all(MediciState& s) {
  Json events = Json::array();
  while (s.data().phase == Phase::auction) {
    const int p = s.current_bidder();
    if (p < 0) {
      ADD_FAILURE() << "auction without a bidder";
      break;
    }
    append(events, act(s, p, pass()));
  }
  return events;
}

// Ends the day with the ships as they are: the bag is rigged to one spare tile (on nobody's ship),
// the first player still in the day draws it, everybody passes, the lot is discarded and the empty
// bag ends the day. Returns the events.
Json finish_day(MediciState& s) {
  std::vector<bool> used(kTileCount, false);
  for (const auto& ship : s.data().ships) {
    for (Tile t : ship) used[t] = true;
  }
  const auto spare = static_cast<Tile>(std::find(used.begin(), used.end(), false) - used.begin());
  int first_in = 0;
  while (first_in < s.num_players() && !s.in_day(first_in)) ++first_in;
  EXPECT_LT(first_in, s.num_players()) << "finish_day needs a player still in the day";
  at_turn(s, first_in);
  s.rig_bag({spare});
  Json events = act(s, first_in, draw());
  append(events, pass_all(s));
  EXPECT_EQ(count_of(events, "day_end"), 1) << events;
  return events;
}

Json scoring_of(const Json& events) { return first_of(events, "day_end")["scoring"]; }

Json commodity_row(const Json& scoring, Commodity c) {
  const Json row = scoring["commodities"][static_cast<int>(c)];
  EXPECT_EQ(row["commodity"], commodity_name(c));
  return row;
}

// Scores a day for n players with the given ships (and optionally commodity tracks before scoring).
Json score_ships(int n, const std::vector<std::vector<Tile>>& ships,
                 const std::vector<std::array<int, kCommodities>>& tracks = {}) {
  MediciState s(n, 11);
  for (int p = 0; p < n; ++p) set_ship(s, p, ships[p]);
  if (!tracks.empty()) s.data_for_testing().tracks = tracks;
  return scoring_of(finish_day(s));
}

// Scores a day with empty ships and one commodity's markers at the given positions.
Json score_track(Commodity c, const std::vector<int>& positions) {
  const int n = static_cast<int>(positions.size());
  std::vector<std::array<int, kCommodities>> tracks(n, {0, 0, 0, 0, 0});
  for (int p = 0; p < n; ++p) tracks[p][static_cast<int>(c)] = positions[p];
  return commodity_row(score_ships(n, std::vector<std::vector<Tile>>(n), tracks), c);
}

// ==== Components ===============================================================================

TEST(Medici, ComponentsAreThirtySixTilesOfFiveCommoditiesValuedZeroToFiveWithTwoFivesPlusGoldWorthTen) {
  EXPECT_EQ(kTileCount, 36);
  std::map<Commodity, std::multiset<int>> values;
  for (int t = 0; t < kTileCount; ++t) values[commodity_of(static_cast<Tile>(t))].insert(value_of(static_cast<Tile>(t)));
  ASSERT_EQ(values.size(), 6u);
  const std::multiset<int> goods = {0, 1, 2, 3, 4, 5, 5};
  for (Commodity c : {Commodity::cloth, Commodity::fur, Commodity::grain, Commodity::dye, Commodity::spice}) {
    EXPECT_EQ(values[c], goods) << commodity_name(c);
  }
  EXPECT_EQ(values[Commodity::gold], std::multiset<int>{10});

  // make_tile names every tile exactly once.
  std::set<Tile> named;
  for (Commodity c : {Commodity::cloth, Commodity::fur, Commodity::grain, Commodity::dye, Commodity::spice}) {
    for (int v = 0; v <= 5; ++v) {
      for (int copy = 0; copy < (v == 5 ? 2 : 1); ++copy) {
        const Tile t = make_tile(c, v, copy);
        EXPECT_EQ(commodity_of(t), c);
        EXPECT_EQ(value_of(t), v);
        named.insert(t);
      }
    }
  }
  named.insert(gold());
  EXPECT_EQ(named.size(), 36u);
  EXPECT_EQ(value_of(gold()), 10);
  EXPECT_EQ(tile_json(fur(3)), (Json{{"commodity", "fur"}, {"value", 3}}));
  EXPECT_EQ(tile_json(gold()), (Json{{"commodity", "gold"}, {"value", 10}}));
}

TEST(Medici, TwoPlayerShipsHoldSevenTiles) {
  MediciState s(2, 1);
  EXPECT_EQ(s.data().capacity, 7);
  EXPECT_EQ(s.free_spaces(0), 7);
  const Json v = s.view(Viewer::spectator());
  EXPECT_EQ(v["capacity"], 7);
  EXPECT_EQ(v["seats"][1]["free"], 7);
  set_ship(s, 0, ids(0, 5));
  EXPECT_EQ(s.free_spaces(0), 2);
  EXPECT_TRUE(s.in_day(0));  // five tiles do not fill a two-player ship
  set_ship(s, 0, ids(0, 7));
  EXPECT_EQ(s.free_spaces(0), 0);
  EXPECT_FALSE(s.in_day(0));
}

TEST(Medici, ShipsHoldFiveTilesWithThreeToSixPlayers) {
  for (int n = 3; n <= 6; ++n) {
    MediciState s(n, 1);
    EXPECT_EQ(s.data().capacity, 5) << n;
    for (int p = 0; p < n; ++p) EXPECT_EQ(s.free_spaces(p), 5);
    EXPECT_EQ(s.view(Viewer::spectator())["capacity"], 5);
    set_ship(s, 0, ids(0, 5));
    EXPECT_FALSE(s.in_day(0));
    EXPECT_EQ(s.view(Viewer::spectator())["seats"][0]["in_day"], false);
  }
}

// ==== Setup ====================================================================================

TEST(Medici, SetupStartingMoneyIsFortyWithTwoToFourPlayersAndThirtyWithFiveOrSix) {
  const std::map<int, int> expected = {{2, 40}, {3, 40}, {4, 40}, {5, 30}, {6, 30}};
  for (const auto& [n, money] : expected) {
    MediciState s(n, 3);
    EXPECT_EQ(s.data().money, std::vector<int>(n, money)) << n << " players";
    const Json v = s.view(Viewer::spectator());
    for (int p = 0; p < n; ++p) EXPECT_EQ(v["seats"][p]["money"], money);
  }
}

TEST(Medici, SetupEveryCommodityMarkerStartsAtZero) {
  for (int n = 2; n <= 6; ++n) {
    MediciState s(n, 4);
    for (int p = 0; p < n; ++p) {
      EXPECT_EQ(s.data().tracks[p], (std::array<int, kCommodities>{0, 0, 0, 0, 0}));
      EXPECT_EQ(s.view(Viewer::of_player(p))["seats"][p]["tracks"],
                (Json{{"cloth", 0}, {"fur", 0}, {"grain", 0}, {"dye", 0}, {"spice", 0}}));
      EXPECT_TRUE(s.data().ships[p].empty());
    }
  }
}

TEST(Medici, SetupBagHoldsEighteenEighteenTwentyFourThirtyThirtySixTilesAndTheRestAreRemoved) {
  const std::map<int, std::size_t> bag = {{2, 18}, {3, 18}, {4, 24}, {5, 30}, {6, 36}};
  for (const auto& [n, size] : bag) {
    MediciState s(n, 5);
    EXPECT_EQ(s.data().bag.size(), size) << n << " players";
    EXPECT_EQ(s.data().removed.size(), 36 - size) << n << " players";
    std::set<Tile> all(s.data().bag.begin(), s.data().bag.end());
    all.insert(s.data().removed.begin(), s.data().removed.end());
    EXPECT_EQ(all.size(), 36u) << "bag and removed tiles are the 36 tiles, each once";
    const Json v = s.view(Viewer::spectator());
    EXPECT_EQ(v["bag_count"], size);
    EXPECT_EQ(v["removed_count"], 36 - size);
    EXPECT_EQ(v["day"], 1);
    EXPECT_EQ(v["days"], 3);
    EXPECT_EQ(v["phase"], "draw");
  }
}

TEST(Medici, SetupDayOneStartPlayerIsChosenAtRandomFromTheSeed) {
  std::set<int> starts;
  std::set<std::vector<Tile>> bags;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    MediciState s(4, seed);
    MediciState again(4, seed);
    EXPECT_TRUE(s.data() == again.data()) << "the same seed gives the same game";
    const int start = s.data().start_player;
    ASSERT_GE(start, 0);
    ASSERT_LT(start, 4);
    EXPECT_EQ(s.data().active, start);
    EXPECT_EQ(s.to_move(), std::vector<int>{start});
    starts.insert(start);
    bags.insert(s.data().bag);
  }
  EXPECT_EQ(starts.size(), 4u) << "every seat starts for some seed";
  EXPECT_GT(bags.size(), 190u) << "the bag is shuffled from the seed";
}

// ==== A day: turns and drawing =================================================================

TEST(Medici, TurnsGoClockwiseFromTheStartPlayer) {
  MediciState s(4, 8);
  at_turn(s, 2);
  s.rig_bag(ids(0, 10));
  std::vector<int> actives;
  for (int turn = 0; turn < 5; ++turn) {
    actives.push_back(s.data().active);
    draw_lot(s, 1);
    const Json events = pass_all(s);
    EXPECT_EQ(first_of(events, "turn")["player"], (s.data().active));
  }
  EXPECT_EQ(actives, (std::vector<int>{2, 3, 0, 1, 2}));
}

TEST(Medici, DrawTakesTheNextTileFromTheBagFaceUp) {
  MediciState s(3, 7);
  at_turn(s, 0);
  s.rig_bag({cloth(3), fur(5, 1), gold()});
  Json events = act(s, 0, draw());
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0], (Json{{"type", "draw"}, {"player", 0}, {"tile", {{"commodity", "cloth"}, {"value", 3}}}, {"bag_count", 2}}));
  EXPECT_EQ(s.data().lot, std::vector<Tile>{cloth(3)});
  const Json v = s.view(Viewer::of_player(2));
  EXPECT_EQ(v["lot"], tiles({cloth(3)}));  // face up: everyone sees it
  EXPECT_EQ(v["bag_count"], 2);
  events = act(s, 0, draw());
  EXPECT_EQ(events[0]["tile"], (Json{{"commodity", "fur"}, {"value", 5}}));
  EXPECT_EQ(events[0]["bag_count"], 1);
  EXPECT_EQ(s.view(Viewer::spectator())["lot"], tiles({cloth(3), fur(5, 1)}));
}

TEST(Medici, ActivePlayerMayStopAfterOneTile) {
  MediciState s(3, 7);
  at_turn(s, 1);
  s.rig_bag({dye(2), dye(3), dye(4), dye(5)});
  act(s, 1, draw());
  EXPECT_EQ(s.data().phase, Phase::draw);
  const Json events = act(s, 1, stop());
  EXPECT_EQ(types(events), (std::vector<std::string>{"stop", "auction"}));
  EXPECT_EQ(events[0], (Json{{"type", "stop"}, {"player", 1}}));
  EXPECT_EQ(events[1], (Json{{"type", "auction"}, {"lot", tiles({dye(2)})}, {"order", {2, 0, 1}}}));
  EXPECT_EQ(s.data().phase, Phase::auction);
  EXPECT_EQ(s.data().bag.size(), 3u);
}

TEST(Medici, ActivePlayerMayStopAfterTwoTiles) {
  MediciState s(3, 7);
  at_turn(s, 1);
  s.rig_bag({dye(2), dye(3), dye(4), dye(5)});
  act(s, 1, draw());
  act(s, 1, draw());
  EXPECT_EQ(s.data().phase, Phase::draw);
  const Json events = act(s, 1, stop());
  EXPECT_EQ(events[1]["lot"], tiles({dye(2), dye(3)}));
  EXPECT_EQ(s.data().bag.size(), 2u);
}

TEST(Medici, ActivePlayerDecidesBeforeEachDrawAndDrawsAtMostThree) {
  MediciState s(4, 7);
  at_turn(s, 3);
  s.rig_bag({grain(0), grain(1), grain(2), grain(3), grain(4)});
  EXPECT_EQ(s.legal_actions(3), std::vector<Json>{draw()});
  act(s, 3, draw());
  EXPECT_EQ(s.legal_actions(3), (std::vector<Json>{draw(), stop()}));
  act(s, 3, draw());
  EXPECT_EQ(s.legal_actions(3), (std::vector<Json>{draw(), stop()}));
  const Json events = act(s, 3, draw());
  // The third tile closes the lot: the auction starts without a stop.
  EXPECT_EQ(types(events), (std::vector<std::string>{"draw", "auction"}));
  EXPECT_EQ(events[1]["lot"], tiles({grain(0), grain(1), grain(2)}));
  EXPECT_EQ(s.data().phase, Phase::auction);
  EXPECT_EQ(s.data().bag.size(), 2u);
  const int bidder = s.current_bidder();
  EXPECT_EQ(bidder, 0);
  refused(s, bidder, draw(), errc::illegal_action);
  refused(s, bidder, stop(), errc::illegal_action);
}

TEST(Medici, StoppingBeforeDrawingIsRefusedWithEmptyLot) {
  MediciState s(3, 7);
  at_turn(s, 0);
  refused(s, 0, stop(), "empty_lot");
}

TEST(Medici, DrawnTileCannotBePutBack) {
  MediciState s(3, 7);
  at_turn(s, 0);
  s.rig_bag({spice(1), spice(2), spice(3), spice(4)});
  act(s, 0, draw());
  // There is no action to return a tile; the only choices are drawing on or stopping.
  EXPECT_EQ(s.legal_actions(0), (std::vector<Json>{draw(), stop()}));
  refused(s, 0, Json{{"type", "put_back"}}, errc::malformed_action);
  refused(s, 0, Json{{"type", "undo"}}, errc::undo_not_allowed);  // off, and were it on, a draw is never taken back
  s.allow_undo(true);
  refused(s, 0, Json{{"type", "undo"}}, errc::undo_not_allowed);
  const Json events = act(s, 0, stop());
  EXPECT_EQ(events[1]["lot"], tiles({spice(1)}));
  EXPECT_EQ(s.view(Viewer::full())["bag"], tiles({spice(2), spice(3), spice(4)}));
}

TEST(Medici, LotLimitIsTheMostFreeSpacesOfAnyPlayerStillInTheDayAndAtMostThree) {
  {
    MediciState s(3, 9);
    EXPECT_EQ(s.lot_limit(), 3);  // 5 free each, capped at 3
  }
  {
    MediciState s(2, 9);
    EXPECT_EQ(s.lot_limit(), 3);  // 7 free each, still capped at 3
  }
  {
    // Every ship has one free space: the lot is a single tile, and drawing it starts the auction.
    MediciState s(3, 9);
    set_ship(s, 0, ids(0, 4));
    set_ship(s, 1, ids(7, 4));
    set_ship(s, 2, ids(14, 4));
    at_turn(s, 0);
    s.rig_bag({dye(1), dye(2)});
    EXPECT_EQ(s.lot_limit(), 1);
    EXPECT_EQ(s.view(Viewer::spectator())["lot_limit"], 1);
    const Json events = act(s, 0, draw());
    EXPECT_EQ(types(events), (std::vector<std::string>{"draw", "auction"}));
    EXPECT_EQ(s.data().lot.size(), 1u);
  }
  {
    // A full ship does not count: the most room among the others is 2.
    MediciState s(3, 9);
    set_ship(s, 0, ids(0, 3));
    set_ship(s, 1, ids(7, 4));
    set_ship(s, 2, ids(14, 5));
    at_turn(s, 0);
    s.rig_bag({dye(1), dye(2), dye(3)});
    EXPECT_EQ(s.lot_limit(), 2);
    act(s, 0, draw());
    EXPECT_EQ(s.data().phase, Phase::draw);
    const Json events = act(s, 0, draw());
    EXPECT_EQ(types(events), (std::vector<std::string>{"draw", "auction", "pass"}));
    EXPECT_EQ(events[1]["order"], (Json{1, 0}));
    EXPECT_EQ(events[2]["reason"], "no_room");  // player 1 has one space for a lot of two
    EXPECT_EQ(s.current_bidder(), 0);
  }
}

TEST(Medici, LotLimitMayExceedTheActivePlayersOwnRoomWhenAnotherPlayerHasMore) {
  MediciState s(3, 10);
  set_ship(s, 0, ids(0, 4));   // the active player: 1 free
  set_ship(s, 1, ids(7, 3));   // 2 free
  set_ship(s, 2, ids(14, 4));  // 1 free
  at_turn(s, 0);
  s.rig_bag({dye(1), dye(2), dye(3), spice(0)});
  EXPECT_EQ(s.lot_limit(), 2);
  act(s, 0, draw());
  Json events = act(s, 0, draw());  // beyond the drawer's own room
  EXPECT_EQ(types(events), (std::vector<std::string>{"draw", "auction"}));
  EXPECT_EQ(events[1]["order"], (Json{1, 2, 0}));
  ASSERT_EQ(s.current_bidder(), 1);
  events = act(s, 1, bid(3));
  // Players 2 and 0 have one free space each: they can only pass, and do so automatically.
  EXPECT_EQ(types(events), (std::vector<std::string>{"bid", "pass", "pass", "lot_won", "turn"}));
  EXPECT_EQ(events[1], (Json{{"type", "pass"}, {"player", 2}, {"forced", true}, {"reason", "no_room"}}));
  EXPECT_EQ(events[2], (Json{{"type", "pass"}, {"player", 0}, {"forced", true}, {"reason", "no_room"}}));
  EXPECT_EQ(events[3]["player"], 1);
  EXPECT_EQ(s.data().ships[1].size(), 5u);
  EXPECT_EQ(events[4]["player"], 2);  // next after 0 still in the day (1 is now full)
}

TEST(Medici, LotTooLargeIsRefusedWhenTheLotIsAtItsLimit) {
  // Drawing stops by itself at the limit, so this needs a hand-made position: a lot of two in the
  // draw phase while nobody has more than two free spaces.
  MediciState s(3, 12);
  set_ship(s, 0, ids(0, 3));
  set_ship(s, 1, ids(7, 3));
  set_ship(s, 2, ids(14, 3));
  at_turn(s, 0);
  s.data_for_testing().lot = {dye(1), dye(2)};
  s.rig_bag({spice(1), spice(2)});
  EXPECT_EQ(s.lot_limit(), 2);
  EXPECT_EQ(s.legal_actions(0), std::vector<Json>{stop()});
  refused(s, 0, draw(), "lot_too_large");
}

TEST(Medici, DrawingStopsWhenTheBagRunsOut) {
  MediciState s(3, 13);
  at_turn(s, 2);
  s.rig_bag({cloth(1), cloth(2)});
  act(s, 2, draw());
  const Json events = act(s, 2, draw());
  EXPECT_EQ(types(events), (std::vector<std::string>{"draw", "auction"}));
  EXPECT_EQ(events[0]["bag_count"], 0);
  EXPECT_EQ(events[1]["lot"], tiles({cloth(1), cloth(2)}));
}

// ==== Auction ==================================================================================

TEST(Medici, AuctionStartsLeftOfTheActivePlayerAndEndsWithThem) {
  MediciState s(5, 14);
  at_turn(s, 3);
  s.rig_bag(ids(0, 6));
  const Json events = draw_lot(s, 1);
  EXPECT_EQ(first_of(events, "auction")["order"], (Json{4, 0, 1, 2, 3}));
  for (int expected : {4, 0, 1, 2, 3}) {
    EXPECT_EQ(s.current_bidder(), expected);
    EXPECT_EQ(s.to_move(), std::vector<int>{expected});
    EXPECT_EQ(s.view(Viewer::spectator())["auction"]["bidder"], expected);
    act(s, expected, pass());
  }
  EXPECT_EQ(s.data().phase, Phase::draw);
}

TEST(Medici, EachPlayerGetsExactlyOneChanceToBidOrPass) {
  MediciState s(3, 15);
  at_turn(s, 0);
  s.rig_bag(ids(0, 6));
  draw_lot(s, 1);
  act(s, 1, bid(5));
  act(s, 2, bid(6));
  refused(s, 1, bid(7), errc::not_your_turn);  // outbid, but their chance is gone
  EXPECT_EQ(s.current_bidder(), 0);
  const Json events = act(s, 0, pass());
  EXPECT_EQ(types(events), (std::vector<std::string>{"pass", "lot_won", "turn"}));
  EXPECT_EQ(events[1]["player"], 2);
  EXPECT_EQ(events[1]["price"], 6);
  EXPECT_EQ(s.data().money, (std::vector<int>{40, 40, 34}));
}

TEST(Medici, BidMustBeAtLeastOne) {
  MediciState s(3, 16);
  at_turn(s, 0);
  s.rig_bag(ids(0, 6));
  draw_lot(s, 1);
  refused(s, 1, bid(0), "bid_too_low");
  refused(s, 1, bid(-5), "bid_too_low");
  refused(s, 1, bid(-9223372036854775807LL), "bid_too_low");
  EXPECT_EQ(s.view(Viewer::spectator())["auction"]["min_bid"], 1);
  const Json events = act(s, 1, bid(1));
  EXPECT_EQ(events[0], (Json{{"type", "bid"}, {"player", 1}, {"amount", 1}}));
}

TEST(Medici, BidMustBeHigherThanTheHighestBidSoFar) {
  MediciState s(3, 16);
  at_turn(s, 0);
  s.rig_bag(ids(0, 6));
  draw_lot(s, 1);
  act(s, 1, bid(5));
  refused(s, 2, bid(5), "bid_too_low");
  refused(s, 2, bid(4), "bid_too_low");
  const Json auction = s.view(Viewer::spectator())["auction"];
  EXPECT_EQ(auction["high_bid"], 5);
  EXPECT_EQ(auction["high_bidder"], 1);
  EXPECT_EQ(auction["min_bid"], 6);
  act(s, 2, bid(6));
  EXPECT_EQ(s.data().high_bidder, 2);
}

TEST(Medici, BidMayNotExceedTheBiddersMoney) {
  MediciState s(3, 17);
  s.data_for_testing().money = {40, 12, 40};
  at_turn(s, 0);
  s.rig_bag(ids(0, 6));
  draw_lot(s, 1);
  refused(s, 1, bid(13), "bid_over_budget");
  refused(s, 1, bid(1000000), "bid_over_budget");
  refused(s, 1, Json{{"type", "bid"}, {"amount", 18446744073709551615ULL}}, "bid_over_budget");
  act(s, 1, bid(12));  // all in is allowed
  run_auction(s, {{2, 0}, {0, 0}});
  EXPECT_EQ(s.data().money, (std::vector<int>{40, 0, 40}));
}

TEST(Medici, BidAmountMustBeAWholeNumber) {
  MediciState s(3, 17);
  at_turn(s, 0);
  s.rig_bag(ids(0, 6));
  draw_lot(s, 1);
  refused(s, 1, Json{{"type", "bid"}}, errc::malformed_action);
  refused(s, 1, Json{{"type", "bid"}, {"amount", "3"}}, errc::malformed_action);
  refused(s, 1, Json{{"type", "bid"}, {"amount", 2.5}}, errc::malformed_action);
  refused(s, 1, Json{{"type", "bid"}, {"amount", nullptr}}, errc::malformed_action);
}

TEST(Medici, LegalBidsRunFromOneAboveTheHighBidToTheBiddersMoney) {
  MediciState s(3, 17);
  s.data_for_testing().money = {40, 40, 4};
  at_turn(s, 0);
  s.rig_bag(ids(0, 6));
  draw_lot(s, 1);
  act(s, 1, bid(2));
  EXPECT_EQ(s.legal_actions(2), (std::vector<Json>{pass(), bid(3), bid(4)}));
  EXPECT_TRUE(s.legal_actions(0).empty());
  EXPECT_TRUE(s.legal_actions(1).empty());
}

TEST(Medici, PlayerWithFewerFreeSpacesThanTheLotCanOnlyPass) {
  MediciState s(3, 18);
  set_ship(s, 1, ids(0, 4));  // 1 free space
  at_turn(s, 0);
  s.rig_bag(ids(7, 6));
  const Json events = draw_lot(s, 2);
  EXPECT_EQ(types(events), (std::vector<std::string>{"draw", "draw", "stop", "auction", "pass"}));
  EXPECT_EQ(events[4], (Json{{"type", "pass"}, {"player", 1}, {"forced", true}, {"reason", "no_room"}}));
  EXPECT_EQ(s.current_bidder(), 2);
  EXPECT_TRUE(s.legal_actions(1).empty());
  refused(s, 1, bid(1), errc::not_your_turn);
  const Json auction = s.view(Viewer::spectator())["auction"];
  EXPECT_EQ(auction["bids"], (Json::array({{{"player", 1}, {"pass", true}, {"forced", true}}})));
}

TEST(Medici, NoRoomIsTheErrorForABidOnALotLargerThanTheShipsFreeSpaces) {
  // Such a bidder is passed automatically, so this needs a hand-made auction position.
  MediciState s(3, 19);
  set_ship(s, 1, ids(0, 4));
  s.rig_bag(ids(14, 4));
  auto& d = s.data_for_testing();
  d.phase = Phase::auction;
  d.active = 0;
  d.lot = {fur(1), fur(2)};
  d.bid_order = {1, 2, 0};
  d.bids.clear();
  d.high_bid = 0;
  d.high_bidder = -1;
  ASSERT_EQ(s.current_bidder(), 1);
  refused(s, 1, bid(1), "no_room");
  EXPECT_EQ(s.legal_actions(1), std::vector<Json>{pass()});
  const Json events = act(s, 1, pass());
  EXPECT_EQ(events[0], (Json{{"type", "pass"}, {"player", 1}, {"forced", false}}));
}

TEST(Medici, PlayerWhoCannotOutbidIsPassedAutomaticallyForLackOfMoney) {
  MediciState s(3, 20);
  s.data_for_testing().money = {40, 5, 40};
  at_turn(s, 2);
  s.rig_bag(ids(0, 6));
  draw_lot(s, 1);
  EXPECT_EQ(s.current_bidder(), 0);
  const Json events = act(s, 0, bid(5));
  EXPECT_EQ(types(events), (std::vector<std::string>{"bid", "pass"}));
  EXPECT_EQ(events[1], (Json{{"type", "pass"}, {"player", 1}, {"forced", true}, {"reason", "no_money"}}));
  EXPECT_EQ(s.current_bidder(), 2);
  act(s, 2, bid(6));
  EXPECT_EQ(s.data().money, (std::vector<int>{40, 5, 34}));
}

TEST(Medici, PlayerWithNoMoneyIsPassedAutomaticallyEvenBeforeAnyBid) {
  MediciState s(3, 20);
  s.data_for_testing().money = {0, 40, 40};
  at_turn(s, 2);
  s.rig_bag(ids(0, 6));
  const Json events = draw_lot(s, 1);
  EXPECT_EQ(types(events), (std::vector<std::string>{"draw", "stop", "auction", "pass"}));
  EXPECT_EQ(events[3], (Json{{"type", "pass"}, {"player", 0}, {"forced", true}, {"reason", "no_money"}}));
  EXPECT_EQ(s.current_bidder(), 1);
}

TEST(Medici, WhenNobodyCanBidTheLotIsDiscardedAtOnce) {
  MediciState s(3, 21);
  s.data_for_testing().money = {0, 0, 0};
  at_turn(s, 1);
  s.rig_bag({fur(4), fur(5), grain(0)});
  const Json events = draw_lot(s, 1);
  EXPECT_EQ(types(events), (std::vector<std::string>{"draw", "stop", "auction", "pass", "pass", "pass",
                                                     "lot_discarded", "turn"}));
  EXPECT_EQ(events[6]["tiles"], tiles({fur(4)}));
  EXPECT_EQ(events[7]["player"], 2);
}

TEST(Medici, HighestBidderPaysTheBankAndLoadsTheWholeLotForGood) {
  MediciState s(3, 22);
  at_turn(s, 0);
  s.rig_bag({cloth(3), gold(), spice(0), grain(1), grain(2), grain(3), grain(4)});
  draw_lot(s, 3);
  const Json events = run_auction(s, {{1, 7}, {2, 0}, {0, 0}});
  EXPECT_EQ(first_of(events, "lot_won"), (Json{{"type", "lot_won"},
                                               {"player", 1},
                                               {"price", 7},
                                               {"tiles", tiles({cloth(3), gold(), spice(0)})},
                                               {"money", 33}}));
  // Paid to the bank: nobody else receives the money.
  EXPECT_EQ(s.data().money, (std::vector<int>{40, 33, 40}));
  EXPECT_EQ(s.data().ships[1], (std::vector<Tile>{cloth(3), gold(), spice(0)}));
  EXPECT_EQ(s.free_spaces(1), 2);
  const Json seat = s.view(Viewer::of_player(0))["seats"][1];
  EXPECT_EQ(seat["ship"], tiles({cloth(3), gold(), spice(0)}));
  EXPECT_EQ(seat["free"], 2);
  EXPECT_TRUE(s.data().lot.empty());
  // Later turns never take tiles off the ship.
  for (int turn = 0; turn < 3; ++turn) {
    draw_lot(s, 1);
    pass_all(s);
    EXPECT_EQ(s.data().ships[1], (std::vector<Tile>{cloth(3), gold(), spice(0)}));
  }
}

TEST(Medici, RulingDiscardedTilesStayVisible) {
  MediciState s(3, 23);
  at_turn(s, 0);
  s.rig_bag({fur(1), fur(2), grain(5, 1), dye(0), dye(1), dye(2), dye(3)});
  draw_lot(s, 2);
  Json events = pass_all(s);
  EXPECT_EQ(first_of(events, "lot_discarded"), (Json{{"type", "lot_discarded"}, {"tiles", tiles({fur(1), fur(2)})}}));
  EXPECT_EQ(s.data().money, (std::vector<int>{40, 40, 40}));
  draw_lot(s, 1);
  pass_all(s);
  draw_lot(s, 1);  // a third turn, won by somebody: the discards stay in view
  run_auction(s, {{0, 2}, {1, 0}, {2, 0}});
  const Json discarded = tiles({fur(1), fur(2), grain(5, 1)});
  for (int p = 0; p < 3; ++p) EXPECT_EQ(s.view(Viewer::of_player(p))["discarded"], discarded);
  EXPECT_EQ(s.view(Viewer::spectator())["discarded"], discarded);
  EXPECT_EQ(s.view(Viewer::full())["bag"], tiles({dye(1), dye(2), dye(3)}));  // not back in the bag
}

// ==== Next active player =======================================================================

TEST(Medici, NextActivePlayerIsNextClockwiseFromThePreviousActiveNotFromTheWinner) {
  MediciState s(4, 24);
  at_turn(s, 1);
  s.rig_bag(ids(0, 8));
  draw_lot(s, 1);
  const Json events = run_auction(s, {{2, 0}, {3, 4}, {0, 0}, {1, 0}});
  EXPECT_EQ(first_of(events, "lot_won")["player"], 3);
  EXPECT_EQ(first_of(events, "turn"), (Json{{"type", "turn"}, {"player", 2}}));
  EXPECT_EQ(s.data().active, 2);
}

TEST(Medici, FullShipIsNeverActiveNeverBidsAndIsSkippedForTheNextActivePlayer) {
  MediciState s(4, 25);
  set_ship(s, 1, ids(0, 5));  // full: out for the day
  set_ship(s, 2, ids(7, 4));  // one space left
  at_turn(s, 0);
  s.rig_bag(ids(14, 8));
  Json events = draw_lot(s, 1);
  EXPECT_EQ(first_of(events, "auction")["order"], (Json{2, 3, 0}));
  refused(s, 1, bid(1), errc::not_your_turn);
  events = pass_all(s);
  EXPECT_EQ(first_of(events, "turn")["player"], 2);  // 1 skipped

  events = draw_lot(s, 1);
  EXPECT_EQ(first_of(events, "auction")["order"], (Json{3, 0, 2}));
  events = run_auction(s, {{3, 0}, {0, 0}, {2, 1}});  // 2 fills the ship
  EXPECT_EQ(first_of(events, "turn")["player"], 3);
  EXPECT_FALSE(s.in_day(2));

  events = draw_lot(s, 1);
  EXPECT_EQ(first_of(events, "auction")["order"], (Json{0, 3}));
  events = pass_all(s);
  EXPECT_EQ(first_of(events, "turn")["player"], 0);

  events = draw_lot(s, 1);
  EXPECT_EQ(first_of(events, "auction")["order"], (Json{3, 0}));
  events = pass_all(s);
  EXPECT_EQ(first_of(events, "turn")["player"], 3);  // 1 and 2 skipped
  EXPECT_TRUE(s.legal_actions(1).empty());
  EXPECT_TRUE(s.legal_actions(2).empty());
  refused(s, 1, draw(), errc::not_your_turn);
}

// ==== End of the day ===========================================================================

TEST(Medici, DayEndsWhenAllShipsButOneAreFullAndTheLastFillsUpForFree) {
  MediciState s(3, 26);
  set_ship(s, 0, {cloth(0), cloth(1), cloth(2), cloth(3), cloth(4)});  // full, value 10
  set_ship(s, 1, {fur(0), fur(1), fur(2), fur(3)});                    // one space left
  set_ship(s, 2, {dye(5, 0), dye(5, 1)});                              // three spaces left
  at_turn(s, 1);
  s.rig_bag({spice(4), grain(1), grain(2), grain(3), spice(5)});
  Json events = draw_lot(s, 1);
  EXPECT_EQ(first_of(events, "auction")["order"], (Json{2, 1}));
  events = run_auction(s, {{2, 0}, {1, 1}});
  EXPECT_EQ(types(events), (std::vector<std::string>{"pass", "bid", "lot_won", "fill", "day_end", "day_start"}));
  EXPECT_EQ(events[3], (Json{{"type", "fill"},
                             {"player", 2},
                             {"tiles", tiles({grain(1), grain(2), grain(3)})},
                             {"bag_count", 1}}));
  const Json scoring = scoring_of(events);
  // Ships: 0 = 0+1+2+3+4 = 10; 1 = 0+1+2+3 + spice 4 = 10; 2 = 5+5 + 1+2+3 = 16.
  EXPECT_EQ(scoring["ship_values"], (Json{10, 10, 16}));
  // 3 players 30/15/0: player 2 first; 0 and 1 share second and third: (15+0)/2 = 7.
  EXPECT_EQ(scoring["ship_payments"], (Json{7, 7, 30}));
  // Tracks: cloth [5,0,0], fur [0,4,0], grain [0,0,3], dye [0,0,2], spice [0,1,0].
  // The two players at 0 on a track share second place: (5+0)/2 = 2. Cloth at 5 earns a bonus of 5.
  // 0: 7 + (10+5) + 2 + 2 + 2 + 2 = 30;  1: 7 + 2 + 10 + 2 + 2 + 10 = 33;  2: 30 + 2 + 2 + 10 + 10 + 2 = 56.
  EXPECT_EQ(scoring["totals"], (Json{30, 33, 56}));
  // The fill costs nothing: 40, 40-1, 40 before scoring.
  EXPECT_EQ(scoring["money"], (Json{70, 72, 96}));
  EXPECT_EQ(s.data().day, 2);
}

TEST(Medici, LastShipSailsPartlyEmptyWhenTheBagRunsShort) {
  MediciState s(3, 27);
  set_ship(s, 0, {cloth(0), cloth(1), cloth(2), cloth(3), cloth(4)});
  set_ship(s, 1, {fur(0), fur(1), fur(2), fur(3)});
  set_ship(s, 2, {dye(5, 0), dye(5, 1)});
  at_turn(s, 1);
  s.rig_bag({spice(4), grain(1)});
  draw_lot(s, 1);
  const Json events = run_auction(s, {{2, 0}, {1, 1}});
  EXPECT_EQ(first_of(events, "fill"),
            (Json{{"type", "fill"}, {"player", 2}, {"tiles", tiles({grain(1)})}, {"bag_count", 0}}));
  EXPECT_EQ(scoring_of(events)["ship_values"], (Json{10, 10, 11}));  // 2 sails with 3 of 5 spaces used
  EXPECT_EQ(s.data().day, 2);
}

TEST(Medici, DayEndsWhenTheBagIsEmpty) {
  MediciState s(3, 28);
  at_turn(s, 0);
  s.rig_bag({cloth(1), cloth(2)});
  Json events = draw_lot(s, 2);
  EXPECT_EQ(s.data().phase, Phase::auction);
  events = run_auction(s, {{1, 1}, {2, 0}, {0, 0}});
  EXPECT_EQ(types(events), (std::vector<std::string>{"bid", "pass", "pass", "lot_won", "day_end", "day_start"}));
  // Ships sail partly (or wholly) empty: values 0, 1+2 = 3, 0.
  const Json scoring = scoring_of(events);
  EXPECT_EQ(scoring["day"], 1);
  EXPECT_EQ(scoring["ship_values"], (Json{0, 3, 0}));
  EXPECT_EQ(scoring["ship_payments"], (Json{7, 30, 7}));  // (15+0)/2 = 7
}

TEST(Medici, DayEndsWhenTheBagEmptiesAfterADiscard) {
  MediciState s(4, 28);
  at_turn(s, 3);
  s.rig_bag({cloth(1)});
  Json events = act(s, 3, draw());
  events = pass_all(s);
  EXPECT_EQ(types(events), (std::vector<std::string>{"pass", "pass", "pass", "pass", "lot_discarded", "day_end",
                                                     "day_start"}));
}

TEST(Medici, RulingWithEveryShipFullTheDayEnds) {
  // In play the last free ship is filled from the bag (previous test), so every ship ends full that
  // way; here a hand-made position where the one player left fills their own ship by an auction.
  MediciState s(3, 29);
  set_ship(s, 0, ids(0, 5));
  set_ship(s, 1, ids(7, 5));
  set_ship(s, 2, ids(14, 4));
  at_turn(s, 2);
  s.rig_bag({spice(1), spice(2), spice(3)});
  Json events = act(s, 2, draw());
  EXPECT_EQ(first_of(events, "auction")["order"], (Json{2}));
  events = act(s, 2, bid(1));
  EXPECT_EQ(types(events), (std::vector<std::string>{"bid", "lot_won", "day_end", "day_start"}));
  // Ships: cloth 0..4 = 10, fur 0..4 = 10, grain 0..3 + spice 1 = 7; the bag still held two tiles.
  EXPECT_EQ(scoring_of(events)["ship_values"], (Json{10, 10, 7}));
}

TEST(Medici, EachDayStartsWithAFreshBagOfAllThirtySixTiles) {
  MediciState s(3, 30);
  set_ship(s, 0, {gold(), cloth(5)});
  const Json events = finish_day(s);
  const Json start = first_of(events, "day_start");
  EXPECT_EQ(start["day"], 2);
  EXPECT_EQ(start["bag_count"], 18);
  EXPECT_EQ(start["removed_count"], 18);
  std::set<Tile> all(s.data().bag.begin(), s.data().bag.end());
  all.insert(s.data().removed.begin(), s.data().removed.end());
  EXPECT_EQ(all.size(), 36u);  // including the tiles that were on ships and the discarded one
  EXPECT_TRUE(s.data().discarded.empty());
  EXPECT_TRUE(s.data().lot.empty());
  EXPECT_EQ(s.data().phase, Phase::draw);
}

// ==== Scoring: ship value ======================================================================

struct ShipCase {
  std::string name;
  std::vector<std::vector<Tile>> ships;
  std::vector<int> values;
  std::vector<int> paid;
};

void check_ship_cases(const std::vector<ShipCase>& cases) {
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const Json scoring = score_ships(static_cast<int>(c.ships.size()), c.ships);
    EXPECT_EQ(scoring["ship_values"], Json(c.values));
    EXPECT_EQ(scoring["ship_payments"], Json(c.paid));
  }
}

TEST(Medici, ShipValueSumsFaceValuesWithGoldCountingTen) {
  check_ship_cases({
      {"gold", {{gold(), cloth(0)}, {fur(5), fur(3)}, {spice(1)}}, {10, 8, 1}, {30, 15, 0}},
      {"fives", {{cloth(5, 0), cloth(5, 1), fur(0)}, {gold(), dye(1)}, {}}, {10, 11, 0}, {15, 30, 0}},
  });
}

TEST(Medici, ShipValuePaysTwentyAndZeroWithTwoPlayers) {
  check_ship_cases({{"2p", {{cloth(3)}, {cloth(4)}}, {3, 4}, {0, 20}}});
}

TEST(Medici, ShipValuePaysThirtyFifteenZeroWithThreePlayers) {
  check_ship_cases({{"3p", {{cloth(1)}, {cloth(5)}, {cloth(3)}}, {1, 5, 3}, {0, 30, 15}}});
}

TEST(Medici, ShipValuePaysThirtyTwentyTenZeroWithFourPlayers) {
  check_ship_cases({{"4p", {{cloth(2)}, {cloth(5), cloth(3)}, {fur(5)}, {}}, {2, 8, 5, 0}, {10, 30, 20, 0}}});
}

TEST(Medici, ShipValuePaysThirtyTwentyTenFiveZeroWithFivePlayers) {
  check_ship_cases(
      {{"5p", {{cloth(1)}, {cloth(2)}, {cloth(3)}, {cloth(4)}, {cloth(5)}}, {1, 2, 3, 4, 5}, {0, 5, 10, 20, 30}}});
}

TEST(Medici, ShipValuePaysThirtyTwentyFifteenTenFiveZeroWithSixPlayers) {
  check_ship_cases({{"6p",
                     {{cloth(1), cloth(5)}, {fur(1)}, {fur(5)}, {grain(2)}, {grain(4)}, {dye(3)}},
                     {6, 1, 5, 2, 4, 3},
                     {30, 0, 20, 5, 15, 10}}});
}

TEST(Medici, ShipValueTiesSplitTheSummedPaymentsRoundedDown) {
  check_ship_cases({
      // (20+0)/2 = 10
      {"2p tie", {{cloth(3)}, {fur(3)}}, {3, 3}, {10, 10}},
      // (30+15)/2 = 22.5 -> 22
      {"3p tie for first", {{cloth(5)}, {fur(5)}, {grain(1)}}, {5, 5, 1}, {22, 22, 0}},
      // (30+15+0)/3 = 15
      {"3p all empty", {{}, {}, {}}, {0, 0, 0}, {15, 15, 15}},
      // (20+10+0)/3 = 10
      {"4p three-way tie for second", {{cloth(5), cloth(4)}, {fur(4)}, {grain(4)}, {dye(4)}}, {9, 4, 4, 4}, {30, 10, 10, 10}},
      // (5+0)/2 = 2.5 -> 2
      {"5p tie for fourth", {{cloth(5)}, {cloth(4)}, {cloth(3)}, {cloth(1)}, {fur(1)}}, {5, 4, 3, 1, 1}, {30, 20, 10, 2, 2}},
      // (20+15+10+5)/4 = 12.5 -> 12
      {"6p four-way tie for second", {{gold()}, {cloth(3)}, {fur(3)}, {grain(3)}, {dye(3)}, {}}, {10, 3, 3, 3, 3, 0}, {30, 12, 12, 12, 12, 0}},
      // 6p: (30+20)/2 = 25 each, then 15, 10, 5, 0 for the places below
      {"6p tie for first", {{gold()}, {cloth(5), cloth(5, 1)}, {fur(4)}, {fur(3)}, {fur(2)}, {fur(1)}}, {10, 10, 4, 3, 2, 1}, {25, 25, 15, 10, 5, 0}},
  });
}

// ==== Scoring: commodity tracks ================================================================

TEST(Medici, CommodityMarkerMovesOneStepPerTileIgnoringValuesAndGoldMovesNone) {
  MediciState s(3, 31);
  set_ship(s, 0, {fur(0), fur(5, 0), fur(5, 1)});
  set_ship(s, 1, {gold(), cloth(4)});
  set_ship(s, 2, {spice(5, 0), spice(5, 1)});
  const Json scoring = scoring_of(finish_day(s));
  EXPECT_EQ(s.data().tracks[0], (std::array<int, kCommodities>{0, 3, 0, 0, 0}));  // 3 fur tiles, not 10
  EXPECT_EQ(s.data().tracks[1], (std::array<int, kCommodities>{1, 0, 0, 0, 0}));  // gold moves nothing
  EXPECT_EQ(s.data().tracks[2], (std::array<int, kCommodities>{0, 0, 0, 0, 2}));
  EXPECT_EQ(commodity_row(scoring, Commodity::fur)["moved"], (Json{3, 0, 0}));
  EXPECT_EQ(commodity_row(scoring, Commodity::cloth)["moved"], (Json{0, 1, 0}));
  EXPECT_EQ(commodity_row(scoring, Commodity::spice)["moved"], (Json{0, 0, 2}));
  EXPECT_EQ(commodity_row(scoring, Commodity::grain)["moved"], (Json{0, 0, 0}));
  EXPECT_EQ(commodity_row(scoring, Commodity::fur)["positions"], (Json{3, 0, 0}));
  EXPECT_EQ(s.view(Viewer::spectator())["seats"][0]["tracks"]["fur"], 3);
}

TEST(Medici, CommodityMarkerNeverPassesSeven) {
  MediciState s(3, 32);
  s.data_for_testing().tracks = {{5, 0, 0, 0, 0}, {0, 7, 0, 0, 0}, {0, 0, 0, 0, 0}};
  set_ship(s, 0, {cloth(0), cloth(1), cloth(2), cloth(3)});  // 5 + 4 = 9 -> 7
  set_ship(s, 1, {fur(5)});                                  // 7 + 1 -> 7
  const Json scoring = scoring_of(finish_day(s));
  EXPECT_EQ(s.data().tracks[0][0], 7);
  EXPECT_EQ(s.data().tracks[1][1], 7);
  EXPECT_EQ(commodity_row(scoring, Commodity::cloth)["positions"], (Json{7, 0, 0}));
  EXPECT_EQ(commodity_row(scoring, Commodity::cloth)["bonus"], (Json{20, 0, 0}));
  EXPECT_EQ(commodity_row(scoring, Commodity::fur)["positions"], (Json{0, 7, 0}));
  // "moved" reports the steps actually taken, not the tiles shipped.
  EXPECT_EQ(commodity_row(scoring, Commodity::cloth)["moved"], (Json{2, 0, 0}));
  EXPECT_EQ(commodity_row(scoring, Commodity::fur)["moved"], (Json{0, 0, 0}));
}

TEST(Medici, DrawingFromAnEmptyBagIsRefused) {
  MediciState s(3, 34);
  s.rig_bag({});
  const auto before = s.data();
  const auto r = s.apply(s.data().active, Json{{"type", "draw"}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->code, "illegal_action");
  EXPECT_EQ(s.data(), before);
  EXPECT_TRUE(s.legal_actions(s.data().active).empty());
}

TEST(Medici, CommodityTracksAreKeptForTheWholeGame) {
  MediciState s(3, 33);
  set_ship(s, 0, {grain(2), grain(3)});
  finish_day(s);
  EXPECT_EQ(s.data().day, 2);
  EXPECT_EQ(s.data().tracks[0][static_cast<int>(Commodity::grain)], 2);
  EXPECT_EQ(s.view(Viewer::spectator())["seats"][0]["tracks"]["grain"], 2);
  set_ship(s, 0, {grain(4)});
  const Json scoring = scoring_of(finish_day(s));
  EXPECT_EQ(commodity_row(scoring, Commodity::grain)["positions"], (Json{3, 0, 0}));  // 2 kept + 1
  EXPECT_EQ(s.data().tracks[0][static_cast<int>(Commodity::grain)], 3);
}

TEST(Medici, CommodityMajorityPaysTenAndFive) {
  EXPECT_EQ(score_track(Commodity::spice, {3, 1, 2})["majority"], (Json{10, 0, 5}));
  EXPECT_EQ(score_track(Commodity::dye, {1, 4, 3, 2})["majority"], (Json{0, 10, 5, 0}));
  EXPECT_EQ(score_track(Commodity::cloth, {1, 2, 3, 4, 5, 6})["majority"], (Json{0, 0, 0, 0, 5, 10}));
}

TEST(Medici, CommodityMajorityPaysTenAndNothingWithTwoPlayers) {
  EXPECT_EQ(score_track(Commodity::grain, {4, 2})["majority"], (Json{10, 0}));
  EXPECT_EQ(score_track(Commodity::grain, {0, 1})["majority"], (Json{0, 10}));
}

TEST(Medici, CommodityTiesSplitTheSummedPaymentsRoundedDown) {
  EXPECT_EQ(score_track(Commodity::fur, {3, 3, 1})["majority"], (Json{7, 7, 0}));     // (10+5)/2 = 7
  EXPECT_EQ(score_track(Commodity::fur, {4, 2, 2})["majority"], (Json{10, 2, 2}));    // (5+0)/2 = 2
  EXPECT_EQ(score_track(Commodity::fur, {2, 2})["majority"], (Json{5, 5}));           // (10+0)/2 = 5
  EXPECT_EQ(score_track(Commodity::fur, {2, 2, 2, 1})["majority"], (Json{5, 5, 5, 0}));  // 15/3 = 5
  EXPECT_EQ(score_track(Commodity::fur, {4, 1, 1, 1, 1})["majority"], (Json{10, 1, 1, 1, 1}));  // 5/4 -> 1
  EXPECT_EQ(score_track(Commodity::fur, {3, 6, 3, 3, 2, 3})["majority"], (Json{1, 10, 1, 1, 0, 1}));  // 5/4 -> 1
}

TEST(Medici, CommodityPlayersAtZeroAreRankedLikeAnyoneElse) {
  EXPECT_EQ(score_track(Commodity::fur, {0, 0, 0})["majority"], (Json{5, 5, 5}));  // (10+5+0)/3
  EXPECT_EQ(score_track(Commodity::fur, {2, 0, 0})["majority"], (Json{10, 2, 2}));  // (5+0)/2
  EXPECT_EQ(score_track(Commodity::fur, {0, 0})["majority"], (Json{5, 5}));  // (10+0)/2
  EXPECT_EQ(score_track(Commodity::fur, {0, 3, 0, 0})["majority"], (Json{1, 10, 1, 1}));  // (5+0+0)/3
  EXPECT_EQ(score_track(Commodity::fur, {0, 0, 0, 0, 0, 0})["majority"], (Json{2, 2, 2, 2, 2, 2}));  // 15/6
}

TEST(Medici, TrackBonusPaysFiveTenTwentyAtFiveSixSevenToEveryPlayerThere) {
  const Json row = score_track(Commodity::cloth, {7, 7, 6, 5, 4});
  EXPECT_EQ(row["bonus"], (Json{20, 20, 10, 5, 0}));
  EXPECT_EQ(row["majority"], (Json{7, 7, 0, 0, 0}));  // (10+5)/2 = 7 each, nothing for the rest
  EXPECT_EQ(score_track(Commodity::dye, {5, 5, 5})["bonus"], (Json{5, 5, 5}));
  EXPECT_EQ(score_track(Commodity::dye, {4, 3, 0})["bonus"], (Json{0, 0, 0}));
}

TEST(Medici, TrackBonusIsPaidAgainEveryDayTheMarkerStandsThere) {
  MediciState s(3, 34);
  s.data_for_testing().tracks = {{0, 0, 0, 6, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}};
  // Empty ships: ship value all tie (30+15+0)/3 = 15; cloth, fur, grain, spice all tie at 0: 5 each.
  // Dye [6,0,0]: majority 10, (5+0)/2 = 2, 2; bonus 10 for player 0.
  // Totals: 0: 15 + 20 + 10 + 10 = 55; 1 and 2: 15 + 20 + 2 = 37.
  Json scoring = scoring_of(finish_day(s));
  EXPECT_EQ(commodity_row(scoring, Commodity::dye)["bonus"], (Json{10, 0, 0}));
  EXPECT_EQ(scoring["totals"], (Json{55, 37, 37}));
  EXPECT_EQ(scoring["money"], (Json{95, 77, 77}));
  scoring = scoring_of(finish_day(s));  // day 2: no dye shipped, the marker still stands on 6
  EXPECT_EQ(scoring["day"], 2);
  EXPECT_EQ(commodity_row(scoring, Commodity::dye)["positions"], (Json{6, 0, 0}));
  EXPECT_EQ(commodity_row(scoring, Commodity::dye)["bonus"], (Json{10, 0, 0}));
  EXPECT_EQ(scoring["money"], (Json{150, 114, 114}));
}

// ==== Scoring: the whole breakdown ============================================================

TEST(Medici, DayEndBreakdownHasTheHandComputedFiguresForEveryPlayer) {
  MediciState s(3, 35);
  auto& d = s.data_for_testing();
  d.money = {40, 35, 28};
  d.tracks = {{4, 0, 0, 0, 0}, {0, 6, 0, 0, 0}, {0, 0, 0, 0, 0}};
  set_ship(s, 0, {cloth(5), cloth(2), gold()});                         // 17; cloth +2
  set_ship(s, 1, {fur(1), spice(5), spice(4), dye(0)});                 // 10; fur +1, spice +2, dye +1
  set_ship(s, 2, {cloth(3), spice(5, 1), grain(2), grain(0), dye(4)});  // 14; full ship
  const Json events = finish_day(s);
  const Json day_end = first_of(events, "day_end");
  EXPECT_EQ(day_end["day"], 1);
  const Json scoring = day_end["scoring"];
  EXPECT_EQ(scoring["day"], 1);
  EXPECT_EQ(scoring["ship_values"], (Json{17, 10, 14}));
  EXPECT_EQ(scoring["ship_payments"], (Json{30, 0, 15}));

  struct Row {
    Commodity c;
    Json moved, positions, majority, bonus;
  };
  const std::vector<Row> rows = {
      // cloth: 4+2 = 6, 0, 0+1 = 1 -> 10 / 0 / 5; bonus 10 at 6.
      {Commodity::cloth, {2, 0, 1}, {6, 0, 1}, {10, 0, 5}, {10, 0, 0}},
      // fur: 0, 6+1 = 7, 0 -> 1 first; 0 and 2 share second: (5+0)/2 = 2; bonus 20 at 7.
      {Commodity::fur, {0, 1, 0}, {0, 7, 0}, {2, 10, 2}, {0, 20, 0}},
      // grain: 0, 0, 2 -> (5+0)/2 = 2, 2, 10.
      {Commodity::grain, {0, 0, 2}, {0, 0, 2}, {2, 2, 10}, {0, 0, 0}},
      // dye: 0, 1, 1 -> 1 and 2 share first: (10+5)/2 = 7.
      {Commodity::dye, {0, 1, 1}, {0, 1, 1}, {0, 7, 7}, {0, 0, 0}},
      // spice: 0, 2, 1 -> 0 / 10 / 5.
      {Commodity::spice, {0, 2, 1}, {0, 2, 1}, {0, 10, 5}, {0, 0, 0}},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(commodity_name(r.c));
    const Json row = commodity_row(scoring, r.c);
    EXPECT_EQ(row["moved"], r.moved);
    EXPECT_EQ(row["positions"], r.positions);
    EXPECT_EQ(row["majority"], r.majority);
    EXPECT_EQ(row["bonus"], r.bonus);
  }
  // 0: 30 + (10+10) + 2 + 2 + 0 + 0 = 54
  // 1: 0 + 0 + (10+20) + 2 + 7 + 10 = 49
  // 2: 15 + 5 + 2 + 10 + 7 + 5 = 44
  EXPECT_EQ(scoring["totals"], (Json{54, 49, 44}));
  EXPECT_EQ(scoring["money"], (Json{94, 84, 72}));
  EXPECT_EQ(s.data().money, (std::vector<int>{94, 84, 72}));
  EXPECT_EQ(s.data().scorings.size(), 1u);
  EXPECT_EQ(s.data().scorings[0], scoring);
  EXPECT_EQ(s.view(Viewer::spectator())["scorings"], Json::array({scoring}));

  // Ships are emptied, tracks are kept, and the poorest player (2, with 72) starts day 2.
  for (int p = 0; p < 3; ++p) EXPECT_TRUE(s.data().ships[p].empty());
  EXPECT_EQ(s.data().tracks, (std::vector<std::array<int, kCommodities>>{{6, 0, 0, 0, 0}, {0, 7, 0, 1, 2}, {1, 0, 2, 1, 1}}));
  EXPECT_EQ(first_of(events, "day_start")["start_player"], 2);
  EXPECT_EQ(s.data().active, 2);
}

// ==== Next day's start player ==================================================================

TEST(Medici, NextDayStartPlayerIsThePlayerWithTheLeastMoneyAfterScoring) {
  MediciState s(3, 36);
  s.data_for_testing().money = {30, 40, 41};
  set_ship(s, 0, {gold()});
  // Ship values 10, 0, 0: 30 for player 0, (15+0)/2 = 7 for the others; commodities: player 0 leads
  // nothing (gold) so every track ties at 0: 5 each, 25 in all. Money: 30+55 = 85, 40+32 = 72, 41+32 = 73.
  const Json events = finish_day(s);
  EXPECT_EQ(scoring_of(events)["money"], (Json{85, 72, 73}));
  EXPECT_EQ(first_of(events, "day_start")["start_player"], 1);
  EXPECT_EQ(s.data().start_player, 1);
  EXPECT_EQ(s.data().active, 1);
  EXPECT_EQ(s.to_move(), std::vector<int>{1});
  EXPECT_EQ(s.view(Viewer::spectator())["start_player"], 1);
}

TEST(Medici, NextDayStartPlayerTieIsBrokenByTheSeededRandomGenerator) {
  std::set<int> starts;
  for (std::uint64_t seed = 0; seed < 64; ++seed) {
    auto play = [seed] {
      MediciState s(4, seed);
      s.data_for_testing().money = {30, 50, 30, 50};
      // Empty ships: every payment ties, (30+20+10+0)/4 = 15 and (10+5)/4 = 3 per commodity: +30 each.
      const Json events = finish_day(s);
      EXPECT_EQ(scoring_of(events)["money"], (Json{60, 80, 60, 80}));
      return s.data().start_player;
    };
    const int start = play();
    EXPECT_TRUE(start == 0 || start == 2) << "seed " << seed << ": " << start;
    EXPECT_EQ(play(), start) << "the same seed breaks the tie the same way";
    starts.insert(start);
  }
  EXPECT_EQ(starts, (std::set<int>{0, 2})) << "either tied player may start";
}

// ==== End of the game ==========================================================================

TEST(Medici, GameEndsAfterTheThirdDaysScoring) {
  MediciState s(3, 37);
  EXPECT_TRUE(s.result().is_null());
  Json events = finish_day(s);
  EXPECT_FALSE(s.is_over());
  EXPECT_EQ(first_of(events, "day_start")["day"], 2);
  events = finish_day(s);
  EXPECT_FALSE(s.is_over());
  EXPECT_TRUE(s.result().is_null());
  EXPECT_EQ(first_of(events, "day_start")["day"], 3);
  events = finish_day(s);
  EXPECT_EQ(types(events).back(), "game_over");
  EXPECT_EQ(first_of(events, "day_end")["day"], 3);
  EXPECT_TRUE(first_of(events, "day_start").is_null());
  EXPECT_TRUE(s.is_over());
  EXPECT_EQ(s.data().phase, Phase::over);
  EXPECT_EQ(s.data().scorings.size(), 3u);
  EXPECT_TRUE(s.to_move().empty());
  for (int p = 0; p < 3; ++p) EXPECT_TRUE(s.legal_actions(p).empty());
  EXPECT_EQ(first_of(events, "game_over")["result"], s.result());
  EXPECT_EQ(s.view(Viewer::spectator())["result"], s.result());
  EXPECT_EQ(s.view(Viewer::spectator())["phase"], "over");
}

TEST(Medici, MostMoneyWinsAfterTheThirdDay) {
  MediciState s(3, 38);
  s.data_for_testing().day = 3;
  s.data_for_testing().money = {10, 50, 30};
  finish_day(s);  // empty ships: 15 + 5*5 = 40 each
  ASSERT_TRUE(s.is_over());
  EXPECT_EQ(s.result(), (Json{{"ranking",
                               {{{"player", 1}, {"rank", 1}, {"money", 90}},
                                {{"player", 2}, {"rank", 2}, {"money", 70}},
                                {{"player", 0}, {"rank", 3}, {"money", 50}}}},
                              {"winners", {1}}}));
}

TEST(Medici, EqualMostMoneyIsASharedWin) {
  MediciState s(3, 39);
  s.data_for_testing().day = 3;
  s.data_for_testing().money = {50, 30, 50};
  finish_day(s);
  ASSERT_TRUE(s.is_over());
  const Json result = s.result();
  EXPECT_EQ(result["winners"], (Json{0, 2}));
  EXPECT_EQ(result["ranking"], (Json{{{"player", 0}, {"rank", 1}, {"money", 90}},
                                     {{"player", 2}, {"rank", 1}, {"money", 90}},
                                     {{"player", 1}, {"rank", 3}, {"money", 70}}}));
}

TEST(Medici, ActionsAfterTheEndAreRefusedWithGameOver) {
  MediciState s(2, 40);
  for (int day = 0; day < 3; ++day) finish_day(s);
  ASSERT_TRUE(s.is_over());
  for (int p = -1; p <= 2; ++p) {
    for (const Json& a : {draw(), stop(), pass(), bid(1), Json{{"type", "nonsense"}}, Json(nullptr)}) {
      refused(s, p, a, errc::game_over);
    }
  }
}

// ==== Refusals =================================================================================

TEST(Medici, OutOfTurnActionsAreRefusedAndChangeNothing) {
  MediciState s(3, 41);
  at_turn(s, 1);
  s.rig_bag(ids(0, 6));
  for (int p : {-1, 0, 2, 3, 99}) {
    refused(s, p, draw(), errc::not_your_turn);
    refused(s, p, stop(), errc::not_your_turn);
    refused(s, p, bid(1), errc::not_your_turn);
    refused(s, p, pass(), errc::not_your_turn);
  }
  draw_lot(s, 1);
  ASSERT_EQ(s.current_bidder(), 2);
  for (int p : {-1, 0, 1, 3}) {  // including the active player, who bids last
    refused(s, p, bid(1), errc::not_your_turn);
    refused(s, p, pass(), errc::not_your_turn);
    refused(s, p, draw(), errc::not_your_turn);
  }
}

TEST(Medici, MalformedActionsAreRefusedAndChangeNothing) {
  MediciState s(3, 42);
  at_turn(s, 0);
  s.rig_bag(ids(0, 6));
  const std::vector<Json> junk = {nullptr,
                                  Json::array(),
                                  "draw",
                                  42,
                                  Json::object(),
                                  Json{{"type", 7}},
                                  Json{{"type", nullptr}},
                                  Json{{"type", "DRAW"}},
                                  Json{{"type", "draw"}, {"count", 2}},
                                  Json{{"type", "pass"}, {"amount", 1}},
                                  Json{{"type", "bid"}, {"amount", 2.5}}};
  for (const auto& a : junk) refused(s, 0, a, errc::malformed_action);
  draw_lot(s, 1);
  for (const auto& a : junk) refused(s, 1, a, errc::malformed_action);
}

TEST(Medici, ActionsOfTheWrongPhaseAreIllegal) {
  MediciState s(3, 43);
  at_turn(s, 0);
  s.rig_bag(ids(0, 6));
  refused(s, 0, bid(1), errc::illegal_action);
  refused(s, 0, pass(), errc::illegal_action);
  draw_lot(s, 1);
  refused(s, 1, draw(), errc::illegal_action);
  refused(s, 1, stop(), errc::illegal_action);
}

// ==== Information ==============================================================================

TEST(Medici, ViewsNeverShowTheBagOrRemovedTilesExceptTheFullView) {
  for (int n = 2; n <= 6; ++n) {
    MediciState s(n, 44);
    at_turn(s, 0);
    s.rig_bag({cloth(1), fur(2), grain(3), dye(4)});
    auto check = [&] {
      for (int p = 0; p < n; ++p) {
        const Json v = s.view(Viewer::of_player(p));
        EXPECT_FALSE(has_key_anywhere(v, "bag")) << n;
        EXPECT_FALSE(has_key_anywhere(v, "removed")) << n;
        EXPECT_EQ(v["bag_count"], s.data().bag.size());
        EXPECT_EQ(v["removed_count"], s.data().removed.size());
      }
      const Json spectator = s.view(Viewer::spectator());
      EXPECT_FALSE(has_key_anywhere(spectator, "bag"));
      EXPECT_FALSE(has_key_anywhere(spectator, "removed"));
      Json full = s.view(Viewer::full());
      ASSERT_TRUE(full.contains("bag"));
      ASSERT_TRUE(full.contains("removed"));
      EXPECT_EQ(full["removed"].size(), s.data().removed.size());
      // The bag and the removed tiles are the only difference.
      full.erase("bag");
      full.erase("removed");
      EXPECT_EQ(spectator, full);
    };
    check();
    EXPECT_EQ(s.view(Viewer::full())["bag"], tiles({cloth(1), fur(2), grain(3), dye(4)}));  // draw order
    EXPECT_EQ(s.view(Viewer::full())["removed"].size(), 32u);
    act(s, 0, draw());
    check();
    act(s, 0, stop());
    check();
    EXPECT_EQ(s.view(Viewer::full())["bag"], tiles({fur(2), grain(3), dye(4)}));
  }
}

TEST(Medici, EverythingButTheBagIsPublicIncludingMoney) {
  MediciState s(4, 45);
  s.data_for_testing().money = {40, 17, 23, 31};
  set_ship(s, 2, {gold(), cloth(2)});
  at_turn(s, 0);
  s.rig_bag({fur(1), fur(2), fur(3)});
  draw_lot(s, 1);
  const Json spectator = s.view(Viewer::spectator());
  EXPECT_EQ(spectator["seats"][1]["money"], 17);
  EXPECT_EQ(spectator["seats"][3]["money"], 31);
  EXPECT_EQ(spectator["seats"][2]["ship"], tiles({gold(), cloth(2)}));
  for (int p = 0; p < 4; ++p) EXPECT_EQ(s.view(Viewer::of_player(p)), spectator) << p;
}

TEST(Medici, EventsNeverRevealTheBagOrRemovedTiles) {
  for (int n = 2; n <= 6; ++n) {
    MediciState s(n, 46 + n);
    Rng rng(n);
    int steps = 0;
    while (!s.is_over() && ++steps < 5000) {
      const int p = s.to_move().front();
      const auto legal = s.legal_actions(p);
      const Json& a = legal[rng.below(3) == 0 ? 0 : rng.below(legal.size())];
      const auto r = s.apply(p, a);
      ASSERT_TRUE(r.ok());
      for (const auto& viewer : {Viewer::spectator(), Viewer::of_player(p)}) {
        const Json seen = events_for(r.events, viewer);
        EXPECT_FALSE(has_key_anywhere(seen, "bag"));
        EXPECT_FALSE(has_key_anywhere(seen, "removed"));
      }
    }
    EXPECT_TRUE(s.is_over());
  }
}

// ==== A whole scripted day =====================================================================

TEST(Medici, ScriptedTwoPlayerDayFromFirstDrawToScoring) {
  MediciState s(2, 47);
  at_turn(s, 0);
  s.rig_bag({cloth(5), fur(2), gold(),             // turn 1
             spice(3),                             // turn 2
             grain(4), grain(5),                   // turn 3
             dye(1), dye(2), dye(3),               // turn 4
             cloth(4), cloth(3), cloth(2),         // turn 5
             fur(5),                               // turn 6
             spice(0), spice(1), cloth(1),         // the fill
             fur(0)});                             // left in the bag
  // Turn 1: 0 draws three (the lot closes by itself); 1 bids 10, 0 bids 11.
  Json events = draw_lot(s, 3);
  EXPECT_EQ(first_of(events, "auction")["order"], (Json{1, 0}));
  events = run_auction(s, {{1, 10}, {0, 11}});
  EXPECT_EQ(first_of(events, "lot_won")["money"], 29);
  EXPECT_EQ(first_of(events, "turn")["player"], 1);
  // Turn 2: 1 draws one and stops; 0 passes, 1 takes it for 1.
  draw_lot(s, 1);
  run_auction(s, {{0, 0}, {1, 1}});
  // Turn 3: 0 draws two; both pass: discarded.
  draw_lot(s, 2);
  events = run_auction(s, {{1, 0}, {0, 0}});
  EXPECT_EQ(first_of(events, "lot_discarded")["tiles"], tiles({grain(4), grain(5)}));
  // Turn 4: 1 draws three; 0 bids 5, 1 bids 6.
  draw_lot(s, 3);
  run_auction(s, {{0, 5}, {1, 6}});
  // Turn 5: 0 draws three; 1 passes, 0 bids 1. Ship 0 now holds 6 of 7.
  draw_lot(s, 3);
  run_auction(s, {{1, 0}, {0, 1}});
  EXPECT_EQ(s.free_spaces(0), 1);
  EXPECT_EQ(s.free_spaces(1), 3);
  EXPECT_EQ(s.lot_limit(), 3);
  // Turn 6: 1 draws one; 0 bids 2 and fills up; 1 passes. Player 1 alone: filled from the bag.
  draw_lot(s, 1);
  events = run_auction(s, {{0, 2}, {1, 0}});
  EXPECT_EQ(types(events), (std::vector<std::string>{"bid", "pass", "lot_won", "fill", "day_end", "day_start"}));
  EXPECT_EQ(first_of(events, "fill")["tiles"], tiles({spice(0), spice(1), cloth(1)}));
  EXPECT_EQ(first_of(events, "fill")["bag_count"], 1);
  const Json scoring = scoring_of(events);
  // Money before scoring: 0: 40-11-1-2 = 26; 1: 40-1-6 = 33.
  // Ship 0: cloth 5, fur 2, gold, cloth 4, 3, 2, fur 5 = 5+2+10+4+3+2+5 = 31.
  // Ship 1: spice 3, dye 1, 2, 3, spice 0, 1, cloth 1 = 3+1+2+3+0+1+1 = 11.
  EXPECT_EQ(scoring["ship_values"], (Json{31, 11}));
  EXPECT_EQ(scoring["ship_payments"], (Json{20, 0}));
  // Tracks: cloth [4,1], fur [2,0], grain [0,0], dye [0,3], spice [0,3]; 2 players pay 10 and 0,
  // a tie at 0 shares (10+0)/2 = 5.
  EXPECT_EQ(commodity_row(scoring, Commodity::cloth)["majority"], (Json{10, 0}));
  EXPECT_EQ(commodity_row(scoring, Commodity::fur)["majority"], (Json{10, 0}));
  EXPECT_EQ(commodity_row(scoring, Commodity::grain)["majority"], (Json{5, 5}));
  EXPECT_EQ(commodity_row(scoring, Commodity::dye)["majority"], (Json{0, 10}));
  EXPECT_EQ(commodity_row(scoring, Commodity::spice)["majority"], (Json{0, 10}));
  // 0: 20 + 10 + 10 + 5 = 45; 1: 5 + 10 + 10 = 25.
  EXPECT_EQ(scoring["totals"], (Json{45, 25}));
  EXPECT_EQ(scoring["money"], (Json{71, 58}));
  EXPECT_EQ(first_of(events, "day_start"),
            (Json{{"type", "day_start"}, {"day", 2}, {"start_player", 1}, {"bag_count", 18}, {"removed_count", 18}}));
}

}  // namespace
}  // namespace emporium::engine::medici
