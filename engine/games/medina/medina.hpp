#pragma once
// Medina (Stefan Dorra), 2 to 4 players (2 with the two-player variant). Spec: docs/rules/medina.md.
//
// A city of 16 x 11 squares inside a ring of wall spaces with a tower on each corner (numbered 1
// top-left, 3 top-right, 2 bottom-right, 4 bottom-left). Before the first turn the start player
// (random) puts one extra resident on a square off the city's outer row and column. A turn places
// 2 pieces from the player's stock (2 players: 1, 1, 2, then 3 a turn). Palaces: same-coloured pieces
// (grey, black, brown, orange) plus their stables; two buildings never touch, not even diagonally; at
// most one unfinished palace per colour; a dome claims an unclaimed palace (one per colour per player).
// Stables extend any palace; residents extend a line at an end (a new line only when no end can be
// extended); walls grow from the towers, two arms each, always leaving a gate on each side. The first
// claimer of a colour takes its palace tile, which moves to a strictly larger palace of that colour;
// a claimed palace newly touching a wall of tower n takes tower tile n. A player who cannot place the
// turn's pieces shows their stock (public from then on). The last player holding domes must place one
// a turn. The game ends when nobody can place. Points: per owned palace, its pieces, stables, adjacent
// residents and adjacent walls; plus the tiles held. Most points wins; ties share the win.
// Two players: each holds a scoring and a blocking dome per palace colour; blocking domes finish a
// palace that scores for nobody; in one turn at most one palace piece per colour and one dome per kind.
//
// Options: none. Hidden information: each player's stock behind the screen (palace pieces, stables,
// residents, walls), seen only by its owner until the rules make it public. Domes are public.
//
// Coordinates: city squares are x 0..15 (west to east), y 0..10 (north to south). Wall spaces are the
// ring around it: y = -1 (north) or 11 (south) with x 0..15, x = -1 (west) or 16 (east) with y 0..10.
//
// Actions (JSON), one piece each:
//   {"type":"place","piece":"palace","colour":"grey|black|brown|orange","x":X,"y":Y}
//   {"type":"place","piece":"stable|resident|wall","x":X,"y":Y}
//   {"type":"place","piece":"dome","x":X,"y":Y}                                 3-4 players
//   {"type":"place","piece":"dome","dome":"scoring|blocking","x":X,"y":Y}       2 players
// A dome goes on any piece of the palace it claims. The starting resident is the first action,
// {"type":"place","piece":"resident","x":X,"y":Y}, by the start player, from no stock.
// Specific error codes besides the generic ones: off_board, occupied, not_in_stock, wrong_space,
// colour_closed, touches_building, must_extend_palace, not_beside_palace, touches_two_residents,
// not_a_line_end, must_extend_line, not_next_to_arm, gate_needed, no_unclaimed_palace, owns_colour,
// one_per_turn, must_place_dome, outer_square.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "emporium/engine/game_info.hpp"
#include "emporium/engine/game_state.hpp"
#include "emporium/engine/rng.hpp"
#include "emporium/engine/state.hpp"

namespace emporium::engine::medina {

inline constexpr int kWidth = 16;   // city columns
inline constexpr int kHeight = 11;  // city rows
inline constexpr int kGridW = kWidth + 2;   // with the wall ring
inline constexpr int kGridH = kHeight + 2;
inline constexpr int kCells = kGridW * kGridH;
// Orthogonal and all eight neighbours, as grid offsets (valid from any city square).
inline constexpr int kOrth[4] = {-1, 1, -kGridW, kGridW};
inline constexpr int kAround[8] = {-1, 1, -kGridW, kGridW, -kGridW - 1, -kGridW + 1, kGridW - 1, kGridW + 1};
inline constexpr int kColours = 4;
inline constexpr int kTowers = 4;
inline constexpr int kArms = 8;

enum class Colour : std::uint8_t { grey, black, brown, orange };  // palace tiles worth 1, 2, 3, 4
enum class Piece : std::uint8_t { palace, dome, stable, resident, wall };
enum class Kind : std::uint8_t { empty, palace, stable, resident, wall, tower };
enum class Phase : std::uint8_t { setup, play, over };

const char* colour_name(Colour c);
std::optional<Colour> colour_from_name(const std::string& name);
const char* piece_name(Piece p);
std::optional<Piece> piece_from_name(const std::string& name);
const char* phase_name(Phase p);
int palace_tile_value(Colour c);  // 1..4

// Grid index of (x, y), x in -1..16, y in -1..11.
constexpr int cell(int x, int y) { return (x + 1) + (y + 1) * kGridW; }
constexpr int cell_x(int c) { return c % kGridW - 1; }
constexpr int cell_y(int c) { return c / kGridW - 1; }
constexpr bool on_grid(int x, int y) { return x >= -1 && x <= kWidth && y >= -1 && y <= kHeight; }
constexpr bool in_city(int x, int y) { return x >= 0 && x < kWidth && y >= 0 && y < kHeight; }

// One of the eight arms: tower `tower` (1..4) grows along one side, from `start` by (dx, dy).
struct Arm {
  int tower;
  const char* side;
  int start_x, start_y, dx, dy;
  int length;    // wall spaces on that side (16 or 11)
  int opposite;  // the other tower's arm on the same side
};
const std::array<Arm, kArms>& arms();

struct Square {
  Kind kind = Kind::empty;
  std::int8_t colour = -1;   // palace pieces
  std::int16_t palace = -1;  // palace pieces and stables: the index of their palace
  std::int8_t tower = -1;    // walls: the tower (1..4) whose arm they belong to; towers: the number
  bool operator==(const Square&) const = default;
};

struct Palace {
  Colour colour = Colour::grey;
  std::vector<int> pieces;   // cells, in placement order
  std::vector<int> stables;  // cells of attached stables
  int owner = -1;            // -1 while unclaimed
  bool blocking = false;     // two players: claimed with a blocking dome (scores for nobody)
  bool completed = false;    // unclaimed and no square left to extend it (stays so)
  int dome = -1;             // the cell the dome stands on
  std::array<bool, kTowers> connected{};  // tower n+1 tile taken through this palace already

  bool claimed() const { return owner >= 0; }
  int size() const { return static_cast<int>(pieces.size() + stables.size()); }
  bool operator==(const Palace&) const = default;
};

// What stands behind a player's screen.
struct Stock {
  std::array<int, kColours> palaces{};
  int stables = 0;
  int residents = 0;
  int walls = 0;
  int total() const;
  bool operator==(const Stock&) const = default;
};
// What each screen holds at the start, and the domes each player has with 3-4 players (2 players hold a
// scoring and a blocking dome per colour instead).
Stock starting_stock(int players);
int starting_domes(int players);
// The city square a wall space looks onto.
int city_beside_wall(int c);

struct Seat {
  Stock stock;
  int domes = 0;                            // 3-4 players: domes left (in view)
  std::array<bool, kColours> scoring{};     // 2 players: scoring dome of that palace colour held
  std::array<bool, kColours> blocking{};    // 2 players: blocking dome held
  std::array<bool, kColours> removed{};     // 2 players: blocking dome removed from the game
  bool stock_public = false;
  bool operator==(const Seat&) const = default;
};

// The whole state, as plain values (copyable and comparable).
struct Data {
  int players = 0;
  Phase phase = Phase::setup;
  int start_player = 0;
  int active = 0;
  int turn = 0;           // turns begun (or skipped) so far; the start player's first is 1
  int quota = 0;          // pieces this turn
  int placed = 0;         // pieces placed this turn
  bool dome_placed = false;            // a dome among this turn's pieces
  std::uint8_t colours_placed = 0;     // 2 players: palace colours placed this turn (bit per colour)
  std::uint8_t domes_placed = 0;       // 2 players: bit 0 scoring, bit 1 blocking
  std::array<Square, kCells> grid{};
  std::vector<Palace> palaces;
  std::array<int, kColours> current{-1, -1, -1, -1};  // the latest palace of each colour
  std::array<bool, kColours> closed{};
  std::array<int, kArms> arm_length{};
  std::vector<int> residents;  // cells, in placement order
  std::vector<int> walls;      // cells, in placement order
  std::array<int, kColours> palace_tile{-1, -1, -1, -1};  // holder of each palace tile
  std::array<int, kTowers> tower_tile{-1, -1, -1, -1};    // holder of tower tile n+1
  std::vector<Seat> seats;
  Rng rng;
  std::uint64_t version = 0;

  bool operator==(const Data&) const = default;
};

// The next wall space of arm `arm` (its cell), or -1 when the gate forbids another wall there.
int arm_next(const Data& d, int arm);

// One placement, as parsed from an action.
struct Placement {
  Piece piece = Piece::resident;
  Colour colour = Colour::grey;  // palaces
  bool blocking = false;         // two-player domes
  int x = 0, y = 0;
};

// A player's points, palace by palace.
struct PalaceScore {
  int palace = -1;
  int pieces = 0, stables = 0, residents = 0, walls = 0;
  int total() const { return pieces + stables + residents + walls; }
};
struct Score {
  std::vector<PalaceScore> palaces;
  int palace_tiles = 0;
  int tower_tiles = 0;
  int total = 0;
};

class MedinaState final : public GameState<MedinaState, Data> {
 public:
  MedinaState(int players, Seed seed);

  const GameInfo& info() const override;
  bool is_over() const override { return d_.phase == Phase::over; }
  std::vector<int> to_move() const override;
  std::vector<Json> game_legal_actions(int player) const override;
  Json view(const Viewer& viewer) const override;
  Json result() const override;

  // Derived facts, public for tests and views.
  bool two_player() const { return d_.players == 2; }
  int unfinished(Colour c) const;           // the unfinished palace of that colour, or -1
  bool can_place_any(int player) const;     // under this turn's limits
  bool forced_dome(int player) const;       // the only player still holding domes
  bool holds_domes(int player) const;
  Score score(int player) const;
  static int quota_for_turn(int players, int turn);
  // The rules' verdict on one placement by `player` now: nullptr when allowed, else the code.
  const char* check_rules(int player, const Placement& p, Error* error) const;
  static Json action_json(const Placement& p, bool two_player);

  // Rigging for scripted tests (no events, no turn change, no stock taken): put pieces on the board.
  int rig_palace(Colour c, const std::vector<std::pair<int, int>>& cells);  // returns its index
  void rig_stable(int x, int y);
  void rig_resident(int x, int y);
  void rig_walls(int arm, int count);
  void rig_claim(int palace, int owner, bool blocking = false);  // marks it claimed (no tiles)
  void rig_refresh();  // recompute the completed flags

 private:
  friend GameState;
  using Parsed = Placement;
  std::optional<Error> parse(const Json& action, Placement* out) const;
  std::vector<Event> play(int player, const Placement& p);
  // Undo: a placement may be taken back until the turn ends, unless it made a stock public.
  bool may_take_back(int player, const Placement& p, const Data& before) const;
  template <class Visit>
  bool generate(int player, Visit&& visit) const;
  bool touch_ok(int c, int allowed) const;  // no building but `allowed` in the 8 squares around c
  bool extendable(int palace) const;
  bool is_extension_square(int palace, int c) const;
  bool is_line_end(int c) const;
  int resident_neighbours(int c, int* which) const;
  bool any_line_extension() const;
  int arm_next(int arm) const;  // the cell of the arm's next wall, or -1 when the gate forbids it
  const char* check_dome(int player, const Placement& p, int c, Error* error) const;
  bool owns_colour(int player, Colour c) const;
  int scoring_palace_of(int player, Colour c) const;
  void claim(int player, int cell, bool blocking, Json placed, std::vector<Event>& events);
  void after_growth(int palace, std::vector<Event>& events);
  void connect(int palace, int tower, std::vector<Event>& events);
  void close_colour(Colour c, std::vector<Event>& events);
  void check_closing(std::vector<Event>& events);
  void refresh_completed(std::vector<Event>* events);
  void start_turn(int player, std::vector<Event>& events);
  void end_turn(std::vector<Event>& events);
  void reveal(int player, std::vector<Event>& events);
  void finish(std::vector<Event>& events);
  Json stock_json(const Stock& s) const;
  Json domes_json(int player) const;
};

GameInfo game_info();

}  // namespace emporium::engine::medina
