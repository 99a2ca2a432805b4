// Scripted tests of the Medina rules engine against the spec (docs/rules/medina.md).
// Positions are built by hand with the rigging helpers; every expected figure is worked out in the
// comments. Coordinates: city x 0..15, y 0..10; wall spaces y = -1 / 11 or x = -1 / 16.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "medina/medina.hpp"
#include "test_support.hpp"

namespace emporium::engine::medina {
namespace {

using testing::act;
using testing::count_of;
using testing::first_of;
using testing::refused;
using testing::types;

constexpr Colour grey = Colour::grey;
constexpr Colour black = Colour::black;
constexpr Colour brown = Colour::brown;
constexpr Colour orange = Colour::orange;

// Arms (see arms()): 0 tower 1 north, 1 tower 3 north, 2 tower 3 east, 3 tower 2 east, 4 tower 2 south,
// 5 tower 4 south, 6 tower 4 west, 7 tower 1 west.
constexpr int kT1North = 0, kT3North = 1, kT1West = 7, kT4West = 6;

// ---- Actions ------------------------------------------------------------------------------------

Json place(const std::string& piece, int x, int y) { return {{"type", "place"}, {"piece", piece}, {"x", x}, {"y", y}}; }
Json palace(Colour c, int x, int y) {
  Json a = place("palace", x, y);
  a["colour"] = colour_name(c);
  return a;
}
Json dome(int x, int y) { return place("dome", x, y); }
Json dome2(const std::string& kind, int x, int y) {
  Json a = place("dome", x, y);
  a["dome"] = kind;
  return a;
}
Json stable(int x, int y) { return place("stable", x, y); }
Json resident(int x, int y) { return place("resident", x, y); }
Json wall(int x, int y) { return place("wall", x, y); }

bool is_legal(const MedinaState& s, int player, const Json& action) {
  const auto legal = s.legal_actions(player);
  return std::find(legal.begin(), legal.end(), action) != legal.end();
}

// ---- Positions ----------------------------------------------------------------------------------

// A game in play with an empty city (no starting resident): `active` to place, turn `turn`.
MedinaState game(int players, int active = 0, int turn = 5) {
  MedinaState s(players, 7);
  auto& d = s.data_for_testing();
  d.phase = Phase::play;
  d.start_player = 0;
  d.active = active;
  d.turn = turn;
  d.quota = MedinaState::quota_for_turn(players, turn);
  d.placed = 0;
  return s;
}

Stock& stock(MedinaState& s, int player) { return s.data_for_testing().seats[player].stock; }

void empty_stock(MedinaState& s, int player) { stock(s, player) = Stock{}; }

int cell_of(int x, int y) { return cell(x, y); }

// ==== Components and setup =====================================================================

TEST(Medina, StocksPerPlayerCountAsInTheTable) {
  struct Row {
    int players, palaces, stables, residents, walls, domes;
  };
  for (const Row& r : {Row{3, 6, 4, 8, 10, 4}, Row{4, 5, 3, 6, 8, 4}, Row{2, 9, 6, 12, 16, 8}}) {
    MedinaState s(r.players, 1);
    for (int p = 0; p < r.players; ++p) {
      const Seat& seat = s.data().seats[p];
      EXPECT_EQ(seat.stock.palaces, (std::array<int, 4>{r.palaces, r.palaces, r.palaces, r.palaces})) << r.players;
      EXPECT_EQ(seat.stock.stables, r.stables);
      EXPECT_EQ(seat.stock.residents, r.residents);
      EXPECT_EQ(seat.stock.walls, r.walls);
      int domes = seat.domes;
      for (int c = 0; c < kColours; ++c) domes += seat.scoring[c] + seat.blocking[c];
      EXPECT_EQ(domes, r.domes);
    }
  }
}

TEST(Medina, TowersStandOnTheCornersNumberedOneTopLeftThreeTopRightTwoBottomRightFourBottomLeft) {
  MedinaState s(3, 1);
  const auto& g = s.data().grid;
  EXPECT_EQ(g[cell(-1, -1)].kind, Kind::tower);
  EXPECT_EQ(g[cell(-1, -1)].tower, 1);
  EXPECT_EQ(g[cell(16, -1)].tower, 3);
  EXPECT_EQ(g[cell(16, 11)].tower, 2);
  EXPECT_EQ(g[cell(-1, 11)].tower, 4);
  // Each tower has two arms, one along each side it touches; 16 spaces on the long sides, 11 on the short.
  std::vector<int> arms_per_tower(5, 0);
  for (const Arm& a : arms()) {
    ++arms_per_tower[a.tower];
    EXPECT_EQ(a.length, (std::string(a.side) == "north" || std::string(a.side) == "south") ? 16 : 11);
  }
  EXPECT_EQ(arms_per_tower, (std::vector<int>{0, 2, 2, 2, 2}));
  // Every city square is usable: 176 squares, all empty.
  int empty = 0;
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) empty += g[cell(x, y)].kind == Kind::empty;
  }
  EXPECT_EQ(empty, 16 * 11);
}

TEST(Medina, TheStartPlayerFirstPlacesTheStartingResidentOffTheOuterRowAndColumn) {
  std::set<int> starts;
  for (std::uint64_t seed = 0; seed < 60; ++seed) starts.insert(MedinaState(4, seed).data().start_player);
  EXPECT_EQ(starts.size(), 4u) << "the start player is drawn from the seed";

  MedinaState s(3, 5);
  const int start = s.data().start_player;
  EXPECT_EQ(s.to_move(), std::vector<int>{start});
  EXPECT_EQ(s.view(Viewer::spectator())["phase"], "setup");
  EXPECT_EQ(s.legal_actions(start).size(), 14u * 9u);
  refused(s, start, resident(0, 5), "outer_square");
  refused(s, start, resident(15, 5), "outer_square");
  refused(s, start, resident(5, 10), "outer_square");
  refused(s, start, palace(grey, 5, 5), errc::illegal_action);
  refused(s, (start + 1) % 3, resident(5, 5), errc::not_your_turn);
  const Json events = act(s, start, resident(1, 9));
  EXPECT_EQ(types(events), (std::vector<std::string>{"place", "turn"}));
  EXPECT_EQ(events[0]["starting"], true);
  EXPECT_EQ(events[1]["player"], start);
  EXPECT_EQ(events[1]["pieces"], 2);
  EXPECT_EQ(s.data().seats[start].stock.residents, 8) << "the starting resident is from no stock";
  EXPECT_EQ(s.to_move(), std::vector<int>{start}) << "then the start player's first turn";
}

TEST(Medina, ATurnIsTwoPiecesOneActionEachThenTheNextPlayer) {
  MedinaState s = game(3, 1);
  Json e = act(s, 1, wall(0, -1));
  EXPECT_EQ(types(e), std::vector<std::string>{"place"});
  EXPECT_EQ(s.to_move(), std::vector<int>{1});
  EXPECT_EQ(s.data().placed, 1);
  e = act(s, 1, resident(5, 5));
  EXPECT_EQ(types(e), (std::vector<std::string>{"place", "turn"}));
  EXPECT_EQ(first_of(e, "turn")["player"], 2);
  EXPECT_EQ(s.to_move(), std::vector<int>{2});
  EXPECT_TRUE(s.legal_actions(1).empty());
  EXPECT_EQ(s.data().seats[1].stock.walls, 9);
  EXPECT_EQ(s.data().seats[1].stock.residents, 7);
}

// ==== Palaces ===================================================================================

TEST(Medina, ANewPalaceMustNotTouchAnyBuildingNotEvenDiagonally) {
  MedinaState s = game(3);
  s.rig_palace(grey, {{4, 4}});
  refused(s, 0, palace(black, 5, 5), "touches_building");  // diagonal contact
  refused(s, 0, palace(black, 5, 4), "touches_building");  // orthogonal contact
  refused(s, 0, palace(black, 3, 3), "touches_building");
  EXPECT_FALSE(is_legal(s, 0, palace(black, 5, 5)));
  const Json e = act(s, 0, palace(black, 6, 6));  // one street between them
  EXPECT_EQ(e[0]["palace"], 1);
  EXPECT_EQ(e[0]["size"], 1);
  EXPECT_EQ(s.data().palaces[1].colour, black);
}

TEST(Medina, APieceExtendsItsColoursUnfinishedPalaceOrthogonally) {
  MedinaState s = game(3);
  const int g = s.rig_palace(grey, {{4, 4}});
  EXPECT_EQ(s.unfinished(grey), g);
  refused(s, 0, palace(grey, 5, 5), "must_extend_palace");   // diagonal is not adjacent
  refused(s, 0, palace(grey, 10, 8), "must_extend_palace");  // a second unfinished grey palace
  EXPECT_TRUE(is_legal(s, 0, palace(grey, 4, 5)));
  act(s, 0, palace(grey, 4, 5));
  EXPECT_EQ(s.data().palaces[g].pieces.size(), 2u);
  // Exactly the four squares around the two pieces' free sides remain (6 orthogonal neighbours).
  int grey_moves = 0;
  for (const auto& a : s.legal_actions(0)) grey_moves += a["piece"] == "palace" && a["colour"] == "grey";
  EXPECT_EQ(grey_moves, 6);
}

TEST(Medina, AnExtensionGoesBesideAPalacePieceNotBesideOnlyAStable) {
  MedinaState s = game(3);
  const int g = s.rig_palace(grey, {{4, 4}});
  s.rig_stable(4, 5);
  refused(s, 0, palace(grey, 4, 6), "must_extend_palace");  // beside the grey palace's stable only
  refused(s, 0, palace(grey, 5, 5), "must_extend_palace");  // diagonal to the piece, beside the stable
  act(s, 0, palace(grey, 3, 4));
  EXPECT_EQ(s.data().palaces[g].size(), 3);
}

TEST(Medina, AnExtensionMayNotTouchAnotherBuilding) {
  MedinaState s = game(3);
  s.rig_palace(grey, {{4, 4}});
  s.rig_palace(black, {{6, 5}});
  refused(s, 0, palace(grey, 5, 4), "touches_building");  // beside grey, diagonal to black
  act(s, 0, palace(grey, 3, 4));
}

TEST(Medina, ABoxedInPalaceIsCompletedButUnclaimedAndANewPalaceOfItsColourMayStart) {
  MedinaState s = game(3);
  // Grey in the corner (0,0) can grow to (1,0) or (0,1).
  const int g = s.rig_palace(grey, {{0, 0}});
  s.rig_palace(black, {{3, 0}});
  EXPECT_EQ(s.unfinished(grey), g);
  // An orange palace at (0,2) takes (0,1) away (it would touch orange); (1,0) is still free.
  act(s, 0, palace(orange, 0, 2));
  EXPECT_EQ(s.unfinished(grey), g);
  // A stable on black at (2,0) (two squares from grey): now (1,0) would touch it. Grey is boxed in.
  const Json e = act(s, 0, stable(2, 0));
  EXPECT_EQ(count_of(e, "palace_completed"), 1);
  EXPECT_EQ(first_of(e, "palace_completed")["palace"], g);
  EXPECT_TRUE(s.data().palaces[g].completed);
  EXPECT_EQ(s.unfinished(grey), -1);
  EXPECT_EQ(s.view(Viewer::spectator())["palaces"][g]["status"], "completed");
  // Player 1: a new grey palace elsewhere, and the completed one can still be claimed.
  EXPECT_TRUE(is_legal(s, 1, palace(grey, 10, 8)));
  act(s, 1, palace(grey, 10, 8));
  EXPECT_EQ(s.unfinished(grey), static_cast<int>(s.data().palaces.size()) - 1);
  act(s, 1, dome(0, 0));
  EXPECT_EQ(s.data().palaces[g].owner, 1);
}

TEST(Medina, AClaimedPalaceTakesNoMorePiecesAndItsColourStartsAnew) {
  MedinaState s = game(3);
  const int g = s.rig_palace(grey, {{4, 4}, {4, 5}});
  const Json e = act(s, 0, dome(4, 5));
  EXPECT_EQ(e[0]["palace"], g);
  EXPECT_EQ(e[0]["colour"], "grey");
  EXPECT_EQ(s.data().palaces[g].owner, 0);
  EXPECT_EQ(s.data().palaces[g].dome, cell_of(4, 5));
  EXPECT_EQ(s.unfinished(grey), -1);
  refused(s, 0, palace(grey, 4, 6), "touches_building");  // would touch the claimed grey palace
  act(s, 0, palace(grey, 9, 4));                          // a new grey palace
  EXPECT_EQ(s.data().palaces.size(), 2u);
}

TEST(Medina, DomesGoOnUnclaimedPalacesOnePalaceOfEachColourPerPlayer) {
  MedinaState s = game(3);
  const int a = s.rig_palace(grey, {{1, 1}});
  s.rig_claim(a, 1);
  const int b = s.rig_palace(grey, {{5, 5}});
  s.rig_palace(black, {{9, 9}});
  refused(s, 0, dome(1, 1), "no_unclaimed_palace");  // claimed already
  refused(s, 0, dome(6, 6), "no_unclaimed_palace");  // no palace there
  s.rig_claim(a, 0);                                  // now player 0 owns a grey palace
  refused(s, 0, dome(5, 5), "owns_colour");
  act(s, 0, dome(9, 9));  // black is fine
  s.data_for_testing().seats[0].domes = 0;
  s.rig_claim(a, 1);
  refused(s, 0, dome(5, 5), "not_in_stock");
  EXPECT_EQ(s.data().palaces[b].owner, -1);
}

TEST(Medina, WhenEveryPlayerHasClaimedAColourItsPiecesLeaveEveryStock) {
  MedinaState s = game(3);
  const int a = s.rig_palace(grey, {{1, 1}});
  const int b = s.rig_palace(grey, {{5, 5}});
  s.rig_palace(grey, {{9, 9}});
  s.rig_claim(a, 1);
  s.rig_claim(b, 2);
  const Json e = act(s, 0, dome(9, 9));
  EXPECT_EQ(count_of(e, "colour_closed"), 1);
  EXPECT_EQ(first_of(e, "colour_closed")["colour"], "grey");
  for (int p = 0; p < 3; ++p) EXPECT_EQ(s.data().seats[p].stock.palaces[0], 0);
  EXPECT_EQ(s.data().seats[1].stock.palaces[1], 6) << "other colours stay";
  refused(s, 0, palace(grey, 13, 3), "colour_closed");
  EXPECT_EQ(s.view(Viewer::spectator())["closed"], Json::array({"grey"}));
}

// ==== Stables ===================================================================================

TEST(Medina, AStableGoesBesideAPalacePieceOfAnyPalaceAndJoinsIt) {
  MedinaState s = game(3);
  const int g = s.rig_palace(grey, {{4, 4}});
  const int b = s.rig_palace(black, {{10, 4}});
  s.rig_claim(b, 2);
  refused(s, 0, stable(5, 5), "not_beside_palace");  // diagonal only
  act(s, 0, stable(4, 5));                           // unfinished grey
  EXPECT_EQ(s.data().palaces[g].stables, std::vector<int>{cell_of(4, 5)});
  EXPECT_EQ(s.data().palaces[g].size(), 2);
  s.data_for_testing().palace_tile[1] = 2;
  const Json e = act(s, 0, stable(10, 5));  // player 2's claimed black palace, placed by player 0
  EXPECT_EQ(e[0]["palace"], b);
  EXPECT_EQ(s.data().palaces[b].size(), 2);
  EXPECT_EQ(count_of(e, "palace_tile"), 0) << "its owner holds the black tile already";
}

TEST(Medina, AStableBesideOnlyAStableIsRefused) {
  MedinaState s = game(3);
  s.rig_palace(grey, {{4, 4}});
  s.rig_stable(4, 5);
  refused(s, 0, stable(4, 6), "not_beside_palace");
  EXPECT_TRUE(is_legal(s, 0, stable(3, 4)));
}

TEST(Medina, AStableTouchingASecondPalaceIsRefused) {
  MedinaState s = game(3);
  s.rig_palace(grey, {{4, 4}});
  s.rig_palace(black, {{6, 4}});
  refused(s, 0, stable(5, 4), "touches_building");  // beside both
  s.rig_palace(brown, {{6, 7}});
  refused(s, 0, stable(5, 6), "not_beside_palace");  // beside neither
  act(s, 0, stable(4, 5));  // beside grey only
}

TEST(Medina, AStableDiagonalToAnotherPalaceIsRefused) {
  MedinaState s = game(3);
  s.rig_palace(grey, {{4, 4}});
  s.rig_palace(black, {{6, 5}});
  refused(s, 0, stable(5, 4), "touches_building");  // beside grey, diagonal to black
  refused(s, 0, stable(5, 5), "touches_building");  // beside black, diagonal to grey
  EXPECT_FALSE(is_legal(s, 0, stable(5, 4)));
  act(s, 0, stable(3, 4));
}

// ==== Residents =================================================================================

TEST(Medina, AResidentExtendsALineAtAnEnd) {
  MedinaState s = game(3);
  s.rig_resident(5, 5);
  s.rig_resident(6, 5);
  s.rig_resident(7, 5);  // a line (5,5)-(6,5)-(7,5)
  refused(s, 0, resident(6, 6), "not_a_line_end");        // beside the middle resident
  refused(s, 0, resident(9, 9), "must_extend_line");      // an end can still be extended
  refused(s, 0, resident(4, 6), "must_extend_line");      // diagonal to an end is not adjacent
  EXPECT_TRUE(is_legal(s, 0, resident(4, 5)));
  EXPECT_TRUE(is_legal(s, 0, resident(5, 4)));
  EXPECT_TRUE(is_legal(s, 0, resident(8, 5)));
  act(s, 0, resident(8, 5));
  // The ends are now (5,5) and (8,5): 3 + 3 squares.
  int resident_moves = 0;
  for (const auto& a : s.legal_actions(0)) resident_moves += a["piece"] == "resident";
  EXPECT_EQ(resident_moves, 6);
}

TEST(Medina, AResidentTouchingTwoResidentsIsRefused) {
  MedinaState s = game(3);
  s.rig_resident(5, 5);
  s.rig_resident(5, 6);
  s.rig_resident(6, 6);  // an L: ends (5,5) and (6,6); (6,5) touches both
  refused(s, 0, resident(6, 5), "touches_two_residents");
  // Two separate lines: a square between their ends touches two residents.
  MedinaState t = game(3);
  t.rig_resident(3, 3);
  t.rig_resident(5, 3);
  refused(t, 0, resident(4, 3), "touches_two_residents");
  act(t, 0, resident(3, 2));
}

TEST(Medina, ANewLineOnlyWhenNoEndCanBeExtendedAndRulingEveryLinesEndsCount) {
  MedinaState s = game(3);
  // An old line in the corner still has a free end square; a newer line is boxed in by palaces.
  s.rig_resident(0, 0);  // old line: end (0,0) can go to (1,0) or (0,1)
  s.rig_resident(8, 5);  // newest line, boxed in below
  s.rig_palace(grey, {{7, 5}});
  s.rig_palace(black, {{9, 5}});
  s.rig_palace(brown, {{8, 4}});
  s.rig_palace(orange, {{8, 6}});
  refused(s, 0, resident(12, 8), "must_extend_line");
  EXPECT_TRUE(is_legal(s, 0, resident(1, 0))) << "Ruling: the old line's end counts";
  act(s, 0, resident(0, 1));
  // Box in the old line too: now no end can be extended and a new line may start anywhere free.
  MedinaState t = game(3);
  t.rig_resident(8, 5);
  t.rig_palace(grey, {{7, 5}});
  t.rig_palace(black, {{9, 5}});
  t.rig_palace(brown, {{8, 4}});
  t.rig_palace(orange, {{8, 6}});
  EXPECT_TRUE(is_legal(t, 0, resident(12, 8)));
  refused(t, 0, resident(8, 5), "occupied");
  act(t, 0, resident(0, 10));
  EXPECT_EQ(t.data().residents.size(), 2u);
}

// ==== Walls =====================================================================================

TEST(Medina, WallsGrowFromTheTowersAlongTheArms) {
  MedinaState s = game(3);
  refused(s, 0, wall(5, -1), "not_next_to_arm");
  refused(s, 0, wall(5, 5), "wrong_space");
  refused(s, 0, resident(5, -1), "wrong_space");
  refused(s, 0, wall(-1, -1), "occupied");  // the tower
  refused(s, 0, wall(20, 3), "off_board");
  // The eight first spaces, one beside each tower on each side.
  std::set<std::pair<int, int>> firsts;
  for (const auto& a : s.legal_actions(0)) {
    if (a["piece"] == "wall") firsts.insert({a["x"].get<int>(), a["y"].get<int>()});
  }
  EXPECT_EQ(firsts, (std::set<std::pair<int, int>>{{0, -1}, {15, -1}, {16, 0}, {16, 10}, {15, 11}, {0, 11}, {-1, 10}, {-1, 0}}));
  const Json e = act(s, 0, wall(0, -1));
  EXPECT_EQ(e[0]["tower"], 1);
  act(s, 0, wall(1, -1));
  EXPECT_EQ(s.data().arm_length[kT1North], 2);
  EXPECT_EQ(s.data().grid[cell(1, -1)].tower, 1);
}

TEST(Medina, AWallThatWouldCloseAGateIsRefused) {
  MedinaState s = game(3);
  // West side, 11 spaces (y 0..10): tower 1's arm takes y 0..5, tower 4's y 10..8: y 6 and 7 are free.
  s.rig_walls(kT1West, 6);
  s.rig_walls(kT4West, 3);
  act(s, 0, wall(-1, 6));  // leaves y 7 as the gate
  refused(s, 0, wall(-1, 7), "gate_needed");
  EXPECT_FALSE(is_legal(s, 0, wall(-1, 7)));
  // North side, 16 spaces: tower 1's arm at x 0..13 leaves x 14 and 15. Tower 3 takes 15, leaving the
  // gate at 14, which neither arm may then take.
  MedinaState t = game(3);
  t.rig_walls(kT1North, 14);
  act(t, 0, wall(15, -1));
  EXPECT_EQ(t.data().arm_length[kT3North], 1);
  refused(t, 0, wall(14, -1), "gate_needed");
  // Tower 1's arm alone may run to x 14 but not to 15 (the other tower).
  MedinaState u = game(3);
  u.rig_walls(kT1North, 14);
  act(u, 0, wall(14, -1));
  refused(u, 0, wall(15, -1), "gate_needed");
}

// ==== Palace tiles ==============================================================================

TEST(Medina, TheFirstClaimerTakesThePalaceTileAndKeepsItOnATie) {
  MedinaState s = game(3);
  s.rig_palace(brown, {{1, 1}, {2, 1}});
  Json e = act(s, 0, dome(1, 1));
  ASSERT_EQ(count_of(e, "palace_tile"), 1);
  EXPECT_EQ(first_of(e, "palace_tile")["player"], 0);
  EXPECT_EQ(first_of(e, "palace_tile")["from"], nullptr);
  EXPECT_EQ(s.data().palace_tile[2], 0);
  // Player 1 claims an equal brown palace: the holder keeps the tile.
  s.data_for_testing().active = 1;
  s.data_for_testing().placed = 0;
  s.rig_palace(brown, {{8, 8}, {8, 9}});
  e = act(s, 1, dome(8, 8));
  EXPECT_EQ(count_of(e, "palace_tile"), 0);
  EXPECT_EQ(s.data().palace_tile[2], 0);
  // Player 2 claims a strictly larger one: it passes.
  s.data_for_testing().active = 2;
  s.data_for_testing().placed = 0;
  s.rig_palace(brown, {{12, 3}, {13, 3}, {14, 3}});
  e = act(s, 2, dome(12, 3));
  ASSERT_EQ(count_of(e, "palace_tile"), 1);
  EXPECT_EQ(first_of(e, "palace_tile")["player"], 2);
  EXPECT_EQ(first_of(e, "palace_tile")["from"], 0);
  EXPECT_EQ(first_of(e, "palace_tile")["size"], 3);
  EXPECT_EQ(s.view(Viewer::spectator())["palace_tiles"]["brown"], 2);
}

TEST(Medina, ThePalaceTileMovesWhenStablesMakeAnotherPalaceStrictlyLarger) {
  MedinaState s = game(3, 2);
  const int a = s.rig_palace(orange, {{1, 1}, {2, 1}});
  const int b = s.rig_palace(orange, {{8, 8}, {8, 9}});
  s.rig_claim(a, 0);
  s.rig_claim(b, 1);
  s.data_for_testing().palace_tile[3] = 0;  // sizes 2 and 2: player 0 holds it
  Json e = act(s, 2, stable(1, 2));         // player 0's palace grows to 3
  EXPECT_EQ(count_of(e, "palace_tile"), 0);
  e = act(s, 2, stable(9, 8));  // player 1's to 3: equal, no change
  EXPECT_EQ(count_of(e, "palace_tile"), 0);
  EXPECT_EQ(s.data().palace_tile[3], 0);
  s.data_for_testing().active = 2;
  s.data_for_testing().placed = 0;
  e = act(s, 2, stable(7, 9));  // player 1's to 4: strictly larger, the tile passes
  ASSERT_EQ(count_of(e, "palace_tile"), 1);
  EXPECT_EQ(first_of(e, "palace_tile")["player"], 1);
  EXPECT_EQ(first_of(e, "palace_tile")["from"], 0);
  EXPECT_EQ(s.data().palace_tile[3], 1);
}

// ==== Tower tiles ===============================================================================

TEST(Medina, ClaimingAPalaceBesideATowersWallTakesThatTowerTile) {
  MedinaState s = game(3);
  s.rig_walls(kT1North, 2);  // (0,-1), (1,-1)
  s.rig_palace(grey, {{1, 0}, {1, 1}});
  const Json e = act(s, 0, dome(1, 1));
  ASSERT_EQ(count_of(e, "tower_tile"), 1);
  EXPECT_EQ(first_of(e, "tower_tile")["tower"], 1);
  EXPECT_EQ(first_of(e, "tower_tile")["player"], 0);
  EXPECT_EQ(first_of(e, "tower_tile")["from"], nullptr);
  EXPECT_EQ(s.data().tower_tile[0], 0);
}

TEST(Medina, ALaterWallMovesTheTowerTileButAConnectedPalaceDoesNotConnectAgain) {
  MedinaState s = game(3, 2);
  // Player 0's grey palace in the north-west corner, connected to tower 1 already.
  const int a = s.rig_palace(grey, {{0, 0}, {1, 0}});
  s.rig_walls(kT1North, 1);
  s.rig_claim(a, 0);
  s.data_for_testing().palaces[a].connected[0] = true;
  s.data_for_testing().tower_tile[0] = 0;
  // Player 1's black palace lower on the west side, not yet touching a wall.
  const int b = s.rig_palace(black, {{0, 3}, {0, 4}});
  s.rig_claim(b, 1);
  s.rig_walls(kT1West, 3);  // (-1,0) (-1,1) (-1,2)
  EXPECT_EQ(s.data().tower_tile[0], 0);
  Json e = act(s, 2, wall(-1, 3));  // tower 1's west arm reaches player 1's palace
  ASSERT_EQ(count_of(e, "tower_tile"), 1);
  EXPECT_EQ(first_of(e, "tower_tile")["player"], 1);
  EXPECT_EQ(first_of(e, "tower_tile")["from"], 0);
  EXPECT_EQ(first_of(e, "tower_tile")["palace"], b);
  e = act(s, 2, wall(-1, 4));  // the same palace, the same tower: no new connection
  EXPECT_EQ(count_of(e, "tower_tile"), 0);
  EXPECT_EQ(s.data().tower_tile[0], 1);
  // Player 0's palace is already connected to tower 1: another tower-1 wall beside it changes nothing.
  s.data_for_testing().active = 2;
  s.data_for_testing().placed = 0;
  e = act(s, 2, wall(1, -1));
  EXPECT_EQ(count_of(e, "tower_tile"), 0);
  EXPECT_EQ(s.data().tower_tile[0], 1);
}

TEST(Medina, AStableBesideAWallConnectsItsClaimedPalace) {
  MedinaState s = game(3, 2);
  const int a = s.rig_palace(brown, {{5, 1}});
  s.rig_claim(a, 1);
  s.rig_walls(kT3North, 10);  // x 15 .. 6
  s.rig_walls(kT1North, 5);   // x 0 .. 4; the gate is x 5
  const Json e = act(s, 2, stable(5, 0));  // beside (5,-1)? that is the gate; (5,0) touches no wall there
  EXPECT_EQ(count_of(e, "tower_tile"), 0);
  s.data_for_testing().active = 2;
  s.data_for_testing().placed = 0;
  const Json f = act(s, 2, stable(6, 1));  // not beside a wall either (row 1)
  EXPECT_EQ(count_of(f, "tower_tile"), 0);
  const int b = s.rig_palace(orange, {{10, 1}});
  s.rig_claim(b, 0);
  s.data_for_testing().active = 2;
  s.data_for_testing().placed = 0;
  const Json g = act(s, 2, stable(10, 0));  // beside (10,-1), tower 3's wall
  ASSERT_EQ(count_of(g, "tower_tile"), 1);
  EXPECT_EQ(first_of(g, "tower_tile")["tower"], 3);
  EXPECT_EQ(first_of(g, "tower_tile")["player"], 0);
}

// ==== Cannot place, forced dome =================================================================

TEST(Medina, APlayerWhoCannotPlaceTheirPiecesShowsTheirStock) {
  MedinaState s = game(3, 0);
  empty_stock(s, 0);
  stock(s, 0).residents = 1;
  stock(s, 0).stables = 2;  // no palace on the board: the stables cannot be placed
  for (int p = 0; p < 3; ++p) s.data_for_testing().seats[p].domes = 0;
  EXPECT_EQ(s.view(Viewer::of_player(1))["seats"][0]["stock"], nullptr);
  EXPECT_EQ(s.view(Viewer::spectator())["seats"][0]["stock"], nullptr);
  EXPECT_EQ(s.view(Viewer::of_player(0))["seats"][0]["stock"]["stables"], 2);
  const Json e = act(s, 0, resident(5, 5));
  EXPECT_EQ(types(e), (std::vector<std::string>{"place", "stock_revealed", "turn"}));
  EXPECT_EQ(first_of(e, "stock_revealed")["player"], 0);
  EXPECT_EQ(first_of(e, "stock_revealed")["stock"]["stables"], 2);
  EXPECT_EQ(first_of(e, "stock_revealed")["stock"]["residents"], 0);
  EXPECT_TRUE(s.data().seats[0].stock_public);
  const Json v = s.view(Viewer::of_player(1));
  EXPECT_EQ(v["seats"][0]["stock_public"], true);
  EXPECT_EQ(v["seats"][0]["stock"]["stables"], 2);
  EXPECT_EQ(s.view(Viewer::spectator())["seats"][0]["stock"]["stables"], 2);
  EXPECT_EQ(v["seats"][2]["stock"], nullptr) << "the others' stocks stay hidden";
}

TEST(Medina, APlayerWhoCanPlaceNothingIsSkippedAndShowsTheirStock) {
  MedinaState s = game(3, 0);
  empty_stock(s, 1);
  stock(s, 1).stables = 1;
  for (int p = 0; p < 3; ++p) s.data_for_testing().seats[p].domes = 0;
  act(s, 0, wall(0, -1));
  const Json e = act(s, 0, wall(1, -1));
  EXPECT_EQ(types(e), (std::vector<std::string>{"place", "skip", "stock_revealed", "turn"}));
  EXPECT_EQ(first_of(e, "skip")["player"], 1);
  EXPECT_EQ(first_of(e, "stock_revealed")["player"], 1);
  EXPECT_EQ(first_of(e, "turn")["player"], 2);
  EXPECT_EQ(s.to_move(), std::vector<int>{2});
  EXPECT_FALSE(s.data().seats[0].stock_public);
}

TEST(Medina, AStockAlreadyPublicIsNotRevealedAgain) {
  MedinaState s = game(3, 0);
  empty_stock(s, 0);
  stock(s, 0).residents = 3;
  for (int p = 0; p < 3; ++p) s.data_for_testing().seats[p].domes = 0;
  s.data_for_testing().seats[0].stock_public = true;
  act(s, 0, resident(5, 5));
  act(s, 0, resident(5, 6));
  s.data_for_testing().active = 0;
  s.data_for_testing().placed = 0;
  s.rig_palace(grey, {{5, 8}});  // the line's end (5,6) can grow to (4,6), (6,6) or (5,7)
  const Json e = act(s, 0, resident(5, 7));
  EXPECT_EQ(count_of(e, "stock_revealed"), 0) << "its stock was public already";
  EXPECT_EQ(first_of(e, "turn")["player"], 1) << "no resident left: the turn ends short";
  EXPECT_EQ(s.view(Viewer::of_player(2))["seats"][0]["stock"]["residents"], 0);
}

TEST(Medina, TheLastPlayerHoldingDomesMustPlaceOneEachTurnWhileTheyCan) {
  MedinaState s = game(3, 0);
  s.data_for_testing().seats[1].domes = 0;
  s.data_for_testing().seats[2].domes = 0;
  s.rig_palace(grey, {{4, 4}});
  EXPECT_TRUE(s.forced_dome(0));
  EXPECT_FALSE(s.forced_dome(1));
  act(s, 0, wall(0, -1));  // the first piece is free
  refused(s, 0, wall(1, -1), "must_place_dome");
  refused(s, 0, palace(grey, 4, 5), "must_place_dome");
  for (const auto& a : s.legal_actions(0)) EXPECT_EQ(a["piece"], "dome") << a;
  EXPECT_EQ(s.legal_actions(0).size(), 1u);
  act(s, 0, dome(4, 4));
  // A dome first leaves the second piece free.
  MedinaState t = game(3, 0);
  t.data_for_testing().seats[1].domes = 0;
  t.data_for_testing().seats[2].domes = 0;
  t.rig_palace(grey, {{4, 4}});
  t.rig_palace(black, {{9, 4}});
  act(t, 0, dome(4, 4));
  act(t, 0, wall(0, -1));
  // No unclaimed palace: no dome can be placed, so nothing is forced.
  MedinaState u = game(3, 0);
  u.data_for_testing().seats[1].domes = 0;
  u.data_for_testing().seats[2].domes = 0;
  act(u, 0, wall(0, -1));
  act(u, 0, wall(1, -1));
}

// ==== End and scoring ===========================================================================

// Player 0: grey palace (0,0) (1,0) (0,1) + stable (2,0); walls (0,-1) (1,-1) (2,-1) (tower 1 north)
// and (-1,0) (tower 1 west) touch it; residents (1,1) and (0,2) touch it. Player 1: black (6,5) (7,5);
// player 2: brown (9,5) (10,5); the resident at (8,5) touches both.
MedinaState scored_position() {
  MedinaState s = game(3, 0);
  const int g = s.rig_palace(grey, {{0, 0}, {1, 0}, {0, 1}});
  s.rig_stable(2, 0);
  s.rig_walls(kT1North, 3);
  s.rig_walls(kT1West, 1);
  s.rig_resident(1, 1);
  s.rig_resident(0, 2);
  const int b = s.rig_palace(black, {{6, 5}, {7, 5}});
  const int r = s.rig_palace(brown, {{9, 5}, {10, 5}});
  s.rig_resident(8, 5);
  s.rig_claim(g, 0);
  s.rig_claim(b, 1);
  s.rig_claim(r, 2);
  auto& d = s.data_for_testing();
  d.palace_tile = {0, 1, 2, -1};
  d.tower_tile = {0, -1, -1, -1};
  return s;
}

TEST(Medina, ScoringCountsPiecesStablesAdjacentResidentsAndWallsPlusTiles) {
  MedinaState s = scored_position();
  const Score p0 = s.score(0);
  ASSERT_EQ(p0.palaces.size(), 1u);
  EXPECT_EQ(p0.palaces[0].pieces, 3);
  EXPECT_EQ(p0.palaces[0].stables, 1);
  EXPECT_EQ(p0.palaces[0].residents, 2);  // (1,1) touches two pieces but counts once
  EXPECT_EQ(p0.palaces[0].walls, 4);
  EXPECT_EQ(p0.palace_tiles, 1);          // grey
  EXPECT_EQ(p0.tower_tiles, 1);           // tower 1
  EXPECT_EQ(p0.total, 3 + 1 + 2 + 4 + 1 + 1);
  EXPECT_EQ(s.score(1).total, 2 + 1 + 2);  // black pieces, the shared resident, the black tile
  EXPECT_EQ(s.score(2).total, 2 + 1 + 3);  // brown pieces, the shared resident, the brown tile
  EXPECT_EQ(s.view(Viewer::spectator())["seats"][0]["score"]["total"], 12);
}

TEST(Medina, TheGameEndsWhenNobodyCanPlaceAndTheMostPointsWin) {
  MedinaState s = scored_position();
  for (int p = 0; p < 3; ++p) {
    empty_stock(s, p);
    s.data_for_testing().seats[p].domes = 1;  // but no unclaimed palace is left
  }
  stock(s, 0).residents = 1;
  const Json e = act(s, 0, resident(0, 3));  // extends (0,2): it touches no palace
  EXPECT_TRUE(s.is_over());
  EXPECT_EQ(count_of(e, "skip"), 2);
  EXPECT_EQ(count_of(e, "stock_revealed"), 3);
  const Json result = first_of(e, "game_over")["result"];
  EXPECT_EQ(result, s.result());
  EXPECT_EQ(result["winners"], Json::array({0}));
  EXPECT_EQ(result["ranking"][0], (Json{{"player", 0}, {"rank", 1}, {"points", 12}}));
  EXPECT_EQ(result["ranking"][1], (Json{{"player", 2}, {"rank", 2}, {"points", 6}}));
  EXPECT_EQ(result["ranking"][2], (Json{{"player", 1}, {"rank", 3}, {"points", 5}}));
  EXPECT_TRUE(s.to_move().empty());
  refused(s, 0, resident(5, 9), errc::game_over);
  // Everyone's stock is shown at the end.
  EXPECT_EQ(s.view(Viewer::spectator())["seats"][1]["stock"]["residents"], 0);
}

TEST(Medina, EqualPointsShareTheWin) {
  MedinaState s = scored_position();
  // The black tile to player 2 and tower tile 4 too: player 1 has 3 points; player 2 has
  // 3 + 3 (brown tile) + 2 (black tile) + 4 (tower 4) = 12, as many as player 0.
  s.data_for_testing().palace_tile = {0, 2, 2, -1};
  s.data_for_testing().tower_tile = {0, -1, -1, 2};
  for (int p = 0; p < 3; ++p) {
    empty_stock(s, p);
    s.data_for_testing().seats[p].domes = 0;
  }
  stock(s, 0).residents = 1;
  act(s, 0, resident(0, 3));
  ASSERT_TRUE(s.is_over());
  const Json r = s.result();
  EXPECT_EQ(r["winners"], Json::array({0, 2}));
  EXPECT_EQ(r["ranking"][0]["rank"], 1);
  EXPECT_EQ(r["ranking"][1]["rank"], 1);
  EXPECT_EQ(r["ranking"][1]["points"], 12);
  EXPECT_EQ(r["ranking"][2], (Json{{"player", 1}, {"rank", 3}, {"points", 3}}));
}

// ==== Two players ===============================================================================

TEST(Medina, TwoPlayersPlaceOneOneTwoThenThreeAPiece) {
  MedinaState s(2, 3);
  const int first = s.data().start_player;
  const int second = 1 - first;
  Json e = act(s, first, resident(5, 5));
  EXPECT_EQ(first_of(e, "turn")["pieces"], 1);
  const std::vector<std::pair<int, int>> expected = {{first, 1}, {second, 1}, {first, 2}, {second, 3}, {first, 3}, {second, 3}};
  for (std::size_t t = 0; t < expected.size(); ++t) {
    const auto [player, pieces] = expected[t];
    EXPECT_EQ(s.to_move(), std::vector<int>{player}) << t;
    EXPECT_EQ(s.data().quota, pieces) << t;
    for (int i = 0; i < pieces; ++i) {
      ASSERT_EQ(s.to_move(), std::vector<int>{player}) << t << " piece " << i;
      Json w;
      for (const auto& a : s.legal_actions(player)) {
        if (a["piece"] == "wall") w = a;
      }
      e = act(s, player, w);
    }
    EXPECT_EQ(first_of(e, "turn")["player"], 1 - player) << t;
  }
}

TEST(Medina, TwoPlayersAtMostOnePalacePieceOfEachColourAndOneDomeOfEachKindATurn) {
  MedinaState s = game(2, 0, 6);
  ASSERT_EQ(s.data().quota, 3);
  act(s, 0, palace(grey, 4, 4));
  refused(s, 0, palace(grey, 4, 5), "one_per_turn");
  EXPECT_FALSE(is_legal(s, 0, palace(grey, 4, 5)));
  act(s, 0, palace(black, 10, 4));
  act(s, 0, palace(brown, 4, 9));
  EXPECT_EQ(s.to_move(), std::vector<int>{1});
  // Next turn: two walls and a stable are fine; domes: one scoring and one blocking.
  s.rig_palace(orange, {{12, 9}});
  act(s, 1, dome2("scoring", 4, 4));
  refused(s, 1, dome2("scoring", 10, 4), "one_per_turn");
  act(s, 1, dome2("blocking", 10, 4));
  refused(s, 1, dome2("blocking", 12, 9), "one_per_turn");
  act(s, 1, wall(0, -1));
  EXPECT_EQ(s.to_move(), std::vector<int>{0});
  act(s, 0, wall(0, 11));
  act(s, 0, wall(1, 11));
  act(s, 0, wall(2, 11));  // several walls in one turn are fine
  EXPECT_EQ(s.to_move(), std::vector<int>{1});
}

TEST(Medina, TwoPlayerDomesMatchTheirPalaceColourAndBlockingDomesScoreNothing) {
  MedinaState s = game(2, 0, 6);
  s.data_for_testing().seats[0].scoring[0] = false;  // grey scoring dome used elsewhere
  s.rig_walls(kT1North, 1);
  const int g = s.rig_palace(grey, {{0, 0}, {1, 0}});
  refused(s, 0, dome2("scoring", 0, 0), "not_in_stock");
  refused(s, 0, dome(0, 0), errc::malformed_action);  // a two-player dome names its kind
  const Json e = act(s, 0, dome2("blocking", 0, 0));
  EXPECT_EQ(e[0]["dome"], "blocking");
  EXPECT_EQ(count_of(e, "palace_tile"), 0);
  EXPECT_EQ(count_of(e, "tower_tile"), 0);
  EXPECT_TRUE(s.data().palaces[g].blocking);
  EXPECT_EQ(s.data().palaces[g].owner, 0);
  EXPECT_EQ(s.score(0).total, 0);
  EXPECT_EQ(s.unfinished(grey), -1) << "a new grey palace may start";
  act(s, 0, palace(grey, 8, 8));
  EXPECT_EQ(s.unfinished(grey), 1);
  // A wall later placed beside it connects nothing either.
  act(s, 0, wall(1, -1));
  EXPECT_EQ(s.data().tower_tile[0], -1);
}

TEST(Medina, TwoPlayersBothDomesOfAColourUsedRemovesTheOthersBlockingDome) {
  MedinaState s = game(2, 0, 6);
  s.rig_palace(grey, {{1, 1}});
  s.rig_palace(grey, {{6, 6}});
  act(s, 0, dome2("scoring", 1, 1));
  const Json e = act(s, 0, dome2("blocking", 6, 6));
  ASSERT_EQ(count_of(e, "dome_removed"), 1);
  EXPECT_EQ(first_of(e, "dome_removed")["player"], 1);
  EXPECT_EQ(first_of(e, "dome_removed")["colour"], "grey");
  EXPECT_FALSE(s.data().seats[1].blocking[0]);
  EXPECT_TRUE(s.data().seats[1].removed[0]);
  EXPECT_TRUE(s.data().seats[1].scoring[0]);
  EXPECT_EQ(count_of(e, "colour_closed"), 0) << "player 1 still holds the grey scoring dome";
  EXPECT_EQ(s.view(Viewer::spectator())["seats"][1]["domes"]["removed"], Json::array({"grey"}));
}

TEST(Medina, TwoPlayersAColourClosesWhenNoDomeForItIsLeft) {
  MedinaState s = game(2, 0, 6);
  s.data_for_testing().seats[1].scoring[2] = false;
  s.data_for_testing().seats[1].blocking[2] = false;
  s.data_for_testing().seats[0].blocking[2] = false;
  s.rig_palace(brown, {{3, 3}});
  const Json e = act(s, 0, dome2("scoring", 3, 3));
  ASSERT_EQ(count_of(e, "colour_closed"), 1);
  EXPECT_EQ(first_of(e, "colour_closed")["colour"], "brown");
  EXPECT_EQ(s.data().seats[0].stock.palaces[2], 0);
  EXPECT_EQ(s.data().seats[1].stock.palaces[2], 0);
  refused(s, 0, palace(brown, 9, 9), "colour_closed");
}

TEST(Medina, TwoPlayersWhenOneHasNoDomesLeftTheOtherMustPlaceOne) {
  MedinaState s = game(2, 0, 6);
  s.data_for_testing().seats[1].scoring.fill(false);
  s.data_for_testing().seats[1].blocking.fill(false);
  s.rig_palace(orange, {{3, 3}});
  EXPECT_TRUE(s.forced_dome(0));
  const Json turn_view = s.view(Viewer::spectator());
  EXPECT_EQ(turn_view["forced_dome"], true);
  act(s, 0, wall(0, -1));
  act(s, 0, wall(1, -1));
  refused(s, 0, wall(2, -1), "must_place_dome");
  act(s, 0, dome2("blocking", 3, 3));
  EXPECT_EQ(s.to_move(), std::vector<int>{1});
}

TEST(Medina, TwoPlayersWhoCannotPlaceThreeShowTheirStockAndPlaceFewer) {
  MedinaState s = game(2, 0, 6);
  empty_stock(s, 0);
  s.data_for_testing().seats[0].scoring.fill(false);
  s.data_for_testing().seats[0].blocking.fill(false);
  stock(s, 0).palaces[0] = 3;  // only grey pieces: one a turn
  const Json e = act(s, 0, palace(grey, 5, 5));
  EXPECT_EQ(types(e), (std::vector<std::string>{"place", "stock_revealed", "turn"}));
  EXPECT_EQ(first_of(e, "stock_revealed")["stock"]["palaces"]["grey"], 2);
  EXPECT_EQ(s.view(Viewer::of_player(1))["seats"][0]["stock"]["palaces"]["grey"], 2);
}

// ==== Hidden information, action forms ==========================================================

TEST(Medina, AStockIsSeenOnlyByItsOwnerWhileDomesArePublic) {
  MedinaState s(4, 9);
  act(s, s.data().start_player, resident(6, 6));
  for (int viewer = 0; viewer < 4; ++viewer) {
    const Json v = s.view(Viewer::of_player(viewer));
    for (int p = 0; p < 4; ++p) {
      EXPECT_EQ(v["seats"][p]["domes"], 4);
      if (p == viewer) {
        EXPECT_EQ(v["seats"][p]["stock"],
                  (Json{{"palaces", {{"grey", 5}, {"black", 5}, {"brown", 5}, {"orange", 5}}},
                        {"stables", 3},
                        {"residents", 6},
                        {"walls", 8}}));
      } else {
        EXPECT_EQ(v["seats"][p]["stock"], nullptr);
      }
    }
    EXPECT_FALSE(v.contains("stocks"));
  }
  const Json spectator = s.view(Viewer::spectator());
  for (int p = 0; p < 4; ++p) EXPECT_EQ(spectator["seats"][p]["stock"], nullptr);
  EXPECT_EQ(s.view(Viewer::full())["stocks"].size(), 4u);
}

TEST(Medina, MalformedPlacementsAreRefused) {
  MedinaState s = game(3);
  refused(s, 0, Json{{"type", "place"}, {"x", 1}, {"y", 1}}, errc::malformed_action);
  refused(s, 0, place("tent", 1, 1), errc::malformed_action);
  refused(s, 0, place("palace", 1, 1), errc::malformed_action);  // no colour
  Json a = palace(grey, 1, 1);
  a["colour"] = "pink";
  refused(s, 0, a, errc::malformed_action);
  Json b = resident(1, 1);
  b["colour"] = "grey";
  refused(s, 0, b, errc::malformed_action);
  Json c = resident(1, 1);
  c["x"] = 1.5;
  refused(s, 0, c, errc::malformed_action);
  refused(s, 0, dome2("scoring", 1, 1), errc::malformed_action);  // three players: domes have no kind
  refused(s, 0, Json{{"type", "pass"}}, errc::malformed_action);
  refused(s, 1, resident(1, 1), errc::not_your_turn);
}

// The legal list is exactly the set of placements check_rules() accepts, in random positions of every size.
TEST(Medina, LegalActionsAreExactlyThePlacementsTheRulesAccept) {
  int compared = 0;
  for (int players = 2; players <= 4; ++players) {
    for (std::uint64_t seed = 0; seed < 6; ++seed) {
      MedinaState s(players, seed);
      Rng rng(seed * 31 + static_cast<std::uint64_t>(players));
      while (!s.is_over()) {
        const int p = s.to_move().front();
        const auto legal = s.legal_actions(p);
        if (rng.below(4) == 0) {
          std::set<std::string> expected;
          for (int form = 0; form < 9; ++form) {
            for (int c = 0; c < kCells; ++c) {
              Placement pl;
              pl.x = cell_x(c);
              pl.y = cell_y(c);
              if (form < 4) {
                pl.piece = Piece::palace;
                pl.colour = static_cast<Colour>(form);
              } else if (form < 6) {
                pl.piece = Piece::dome;
                pl.blocking = form == 5;
                if (pl.blocking && players != 2) continue;
              } else {
                pl.piece = form == 6 ? Piece::stable : form == 7 ? Piece::resident : Piece::wall;
              }
              if (!s.check_rules(p, pl, nullptr)) expected.insert(MedinaState::action_json(pl, players == 2).dump());
            }
          }
          std::set<std::string> got;
          for (const auto& a : legal) got.insert(a.dump());
          ASSERT_EQ(got.size(), legal.size()) << "no duplicates";
          ASSERT_EQ(got, expected) << "players " << players << " seed " << seed << " version " << s.version();
          ++compared;
        }
        ASSERT_TRUE(s.apply(p, legal[rng.below(legal.size())]).ok());
      }
    }
  }
  EXPECT_GT(compared, 200);
}

}  // namespace
}  // namespace emporium::engine::medina
