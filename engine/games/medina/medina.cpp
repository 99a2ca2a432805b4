#include "medina/medina.hpp"

#include <algorithm>
#include <bitset>
#include <numeric>
#include <string>

#include "emporium/engine/registry.hpp"

namespace emporium::engine::medina {
namespace {

constexpr const char* kColourNames[kColours] = {"grey", "black", "brown", "orange"};
constexpr const char* kPieceNames[] = {"palace", "dome", "stable", "resident", "wall"};
constexpr Colour kAllColours[kColours] = {Colour::grey, Colour::black, Colour::brown, Colour::orange};

constexpr std::array<Arm, kArms> kArmTable = {{
    {1, "north", 0, -1, 1, 0, kWidth, 1},
    {3, "north", kWidth - 1, -1, -1, 0, kWidth, 0},
    {3, "east", kWidth, 0, 0, 1, kHeight, 3},
    {2, "east", kWidth, kHeight - 1, 0, -1, kHeight, 2},
    {2, "south", kWidth - 1, kHeight, -1, 0, kWidth, 5},
    {4, "south", 0, kHeight, 1, 0, kWidth, 4},
    {4, "west", -1, kHeight - 1, 0, -1, kHeight, 7},
    {1, "west", -1, 0, 0, 1, kHeight, 6},
}};

int ci(Colour c) { return static_cast<int>(c); }

bool city_cell(int c) { return in_city(cell_x(c), cell_y(c)); }

// Views are built field by field into the object and array types (nlohmann's initializer lists cost
// several extra allocations per field, and a view of a full city has about a thousand values).
Json xy(int c) {
  Json::array_t a;
  a.reserve(2);
  a.emplace_back(cell_x(c));
  a.emplace_back(cell_y(c));
  return Json(std::move(a));
}

Json cells_json(const std::vector<int>& cells) {
  Json::array_t a;
  a.reserve(cells.size());
  for (int c : cells) a.push_back(xy(c));
  return Json(std::move(a));
}

// An object built by emplacing each (key, value).
class ObjectBuilder {
 public:
  ObjectBuilder& add(const char* key, Json value) {
    o_.emplace(key, std::move(value));
    return *this;
  }
  Json done() { return Json(std::move(o_)); }

 private:
  Json::object_t o_;
};

std::string at(int x, int y) { return "(" + std::to_string(x) + ", " + std::to_string(y) + ")"; }

}  // namespace

Stock starting_stock(int players) {
  Stock s;
  const int palaces = players == 2 ? 9 : players == 3 ? 6 : 5;
  s.palaces.fill(palaces);
  s.stables = players == 2 ? 6 : players == 3 ? 4 : 3;
  s.residents = players == 2 ? 12 : players == 3 ? 8 : 6;
  s.walls = players == 2 ? 16 : players == 3 ? 10 : 8;
  return s;
}

int starting_domes(int players) { return players == 2 ? 8 : 4; }

int city_beside_wall(int c) {
  const int x = cell_x(c), y = cell_y(c);
  if (y == -1) return cell(x, 0);
  if (y == kHeight) return cell(x, kHeight - 1);
  if (x == -1) return cell(0, y);
  return cell(kWidth - 1, y);
}

int arm_next(const Data& d, int arm) {
  const Arm& a = arms()[arm];
  const int len = d.arm_length[arm];
  if (len + d.arm_length[a.opposite] + 2 > a.length) return -1;
  return cell(a.start_x + a.dx * len, a.start_y + a.dy * len);
}

const char* colour_name(Colour c) { return kColourNames[ci(c)]; }
std::optional<Colour> colour_from_name(const std::string& name) {
  for (Colour c : kAllColours) {
    if (name == kColourNames[ci(c)]) return c;
  }
  return std::nullopt;
}
const char* piece_name(Piece p) { return kPieceNames[static_cast<int>(p)]; }
std::optional<Piece> piece_from_name(const std::string& name) {
  for (int i = 0; i < 5; ++i) {
    if (name == kPieceNames[i]) return static_cast<Piece>(i);
  }
  return std::nullopt;
}
const char* phase_name(Phase p) {
  switch (p) {
    case Phase::setup: return "setup";
    case Phase::play: return "play";
    case Phase::over: return "over";
  }
  return "?";
}
int palace_tile_value(Colour c) { return ci(c) + 1; }
const std::array<Arm, kArms>& arms() { return kArmTable; }

int Stock::total() const {
  return std::accumulate(palaces.begin(), palaces.end(), 0) + stables + residents + walls;
}

// ---- Setup --------------------------------------------------------------------------------------

MedinaState::MedinaState(int players, Seed seed) {
  d_.players = players;
  d_.rng = Rng(seed);
  d_.start_player = static_cast<int>(d_.rng.below(static_cast<std::uint64_t>(players)));
  d_.active = d_.start_player;
  d_.phase = Phase::setup;
  d_.seats.assign(players, Seat{});
  for (auto& seat : d_.seats) {
    seat.stock = starting_stock(players);
    if (players == 2) {
      seat.scoring.fill(true);
      seat.blocking.fill(true);
    } else {
      seat.domes = starting_domes(players);
    }
  }
  d_.grid[cell(-1, -1)] = {Kind::tower, -1, -1, 1};
  d_.grid[cell(kWidth, -1)] = {Kind::tower, -1, -1, 3};
  d_.grid[cell(kWidth, kHeight)] = {Kind::tower, -1, -1, 2};
  d_.grid[cell(-1, kHeight)] = {Kind::tower, -1, -1, 4};
}

const GameInfo& MedinaState::info() const { return *find_game("medina"); }

std::vector<int> MedinaState::to_move() const {
  if (d_.phase == Phase::over) return {};
  return {d_.active};
}

int MedinaState::quota_for_turn(int players, int turn) {
  if (players != 2) return 2;
  if (turn <= 2) return 1;
  if (turn == 3) return 2;
  return 3;
}

// ---- Board facts --------------------------------------------------------------------------------

bool MedinaState::touch_ok(int c, int allowed) const {
  for (int o : kAround) {
    const Square& s = d_.grid[c + o];
    if ((s.kind == Kind::palace || s.kind == Kind::stable) && s.palace != allowed) return false;
  }
  return true;
}

bool MedinaState::is_extension_square(int palace, int c) const {
  if (!city_cell(c) || d_.grid[c].kind != Kind::empty) return false;
  bool beside = false;
  for (int o : kOrth) {
    const Square& s = d_.grid[c + o];
    beside = beside || (s.kind == Kind::palace && s.palace == palace);
  }
  return beside && touch_ok(c, palace);
}

bool MedinaState::extendable(int palace) const {
  for (int p : d_.palaces[palace].pieces) {
    for (int o : kOrth) {
      if (is_extension_square(palace, p + o)) return true;
    }
  }
  return false;
}

int MedinaState::unfinished(Colour c) const {
  const int i = d_.current[ci(c)];
  if (i < 0) return -1;
  const Palace& p = d_.palaces[i];
  return p.claimed() || p.completed ? -1 : i;
}

int MedinaState::resident_neighbours(int c, int* which) const {
  int n = 0;
  for (int o : kOrth) {
    if (d_.grid[c + o].kind == Kind::resident) {
      ++n;
      if (which) *which = c + o;
    }
  }
  return n;
}

// Residents form paths (each was placed touching at most one other), so a line's ends are exactly the
// residents with at most one resident beside them.
bool MedinaState::is_line_end(int c) const { return resident_neighbours(c, nullptr) <= 1; }

bool MedinaState::any_line_extension() const {
  for (int r : d_.residents) {
    if (!is_line_end(r)) continue;
    for (int o : kOrth) {
      const int c = r + o;
      if (city_cell(c) && d_.grid[c].kind == Kind::empty && resident_neighbours(c, nullptr) == 1) return true;
    }
  }
  return false;
}

int MedinaState::arm_next(int arm) const { return medina::arm_next(d_, arm); }

bool MedinaState::owns_colour(int player, Colour c) const {
  for (const Palace& p : d_.palaces) {
    if (p.owner == player && p.colour == c) return true;
  }
  return false;
}

int MedinaState::scoring_palace_of(int player, Colour c) const {
  for (std::size_t i = 0; i < d_.palaces.size(); ++i) {
    const Palace& p = d_.palaces[i];
    if (p.owner == player && p.colour == c && !p.blocking) return static_cast<int>(i);
  }
  return -1;
}

bool MedinaState::holds_domes(int player) const {
  const Seat& s = d_.seats[player];
  if (!two_player()) return s.domes > 0;
  for (int c = 0; c < kColours; ++c) {
    if (s.scoring[c] || s.blocking[c]) return true;
  }
  return false;
}

bool MedinaState::forced_dome(int player) const {
  if (!holds_domes(player)) return false;
  for (int q = 0; q < d_.players; ++q) {
    if (q != player && holds_domes(q)) return false;
  }
  return true;
}

// ---- Legality -----------------------------------------------------------------------------------

const char* MedinaState::check_dome(int player, const Placement& p, int c, Error* error) const {
  const Square& s = d_.grid[c];
  if (s.kind != Kind::palace || d_.palaces[s.palace].claimed()) {
    return refuse(error, "no_unclaimed_palace", [&] { return "a dome goes on a piece of an unclaimed palace"; });
  }
  const Colour colour = d_.palaces[s.palace].colour;
  const Seat& seat = d_.seats[player];
  if (!two_player()) {
    if (seat.domes == 0) return refuse(error, "not_in_stock", [] { return "you have no dome left"; });
    if (owns_colour(player, colour)) {
      return refuse(error, "owns_colour", [&] {
        return std::string("you already own a ") + colour_name(colour) + " palace";
      });
    }
    return nullptr;
  }
  const bool held = p.blocking ? seat.blocking[ci(colour)] : seat.scoring[ci(colour)];
  if (!held) {
    return refuse(error, "not_in_stock", [&] {
      return std::string("you hold no ") + (p.blocking ? "blocking" : "scoring") + " dome for " +
             colour_name(colour) + " palaces";
    });
  }
  if (d_.domes_placed & (p.blocking ? 2 : 1)) {
    return refuse(error, "one_per_turn", [&] {
      return std::string("you already placed a ") + (p.blocking ? "blocking" : "scoring") + " dome this turn";
    });
  }
  return nullptr;
}

const char* MedinaState::check_rules(int player, const Placement& p, Error* error) const {
  if (!on_grid(p.x, p.y)) {
    return refuse(error, "off_board", [&] { return at(p.x, p.y) + " is not a square of the board"; });
  }
  const int c = cell(p.x, p.y);
  const bool city = in_city(p.x, p.y);
  if (d_.phase == Phase::setup) {
    if (p.piece != Piece::resident) {
      return refuse(error, errc::illegal_action, [] { return "first the start player places the starting resident"; });
    }
    if (p.x < 1 || p.x > kWidth - 2 || p.y < 1 || p.y > kHeight - 2) {
      return refuse(error, "outer_square",
                    [] { return "the starting resident goes on a square off the city's outer row and column"; });
    }
    return nullptr;
  }
  const Seat& seat = d_.seats[player];
  if (p.piece != Piece::dome) {
    if (forced_dome(player) && !d_.dome_placed && d_.placed + 1 == d_.quota) {
      bool dome_possible = false;
      generate(player, [&](const Placement& q) {
        dome_possible = q.piece == Piece::dome;
        return true;
      });
      if (dome_possible) {
        return refuse(error, "must_place_dome",
                      [] { return "as the last player holding domes you must place a dome this turn"; });
      }
    }
  }
  if (p.piece == Piece::wall) {
    if (city) return refuse(error, "wrong_space", [] { return "walls go on the wall spaces around the city"; });
    if (seat.stock.walls == 0) return refuse(error, "not_in_stock", [] { return "you have no wall left"; });
    if (d_.grid[c].kind != Kind::empty) {
      return refuse(error, "occupied", [&] { return at(p.x, p.y) + " is taken"; });
    }
    bool arm_would_reach = false;
    for (int a = 0; a < kArms; ++a) {
      if (arm_next(a) == c) return nullptr;
      const Arm& arm = kArmTable[a];
      const int len = d_.arm_length[a];
      arm_would_reach = arm_would_reach || (len < arm.length && cell(arm.start_x + arm.dx * len,
                                                                     arm.start_y + arm.dy * len) == c);
    }
    if (arm_would_reach) {
      return refuse(error, "gate_needed",
                    [] { return "a wall there would close the gate between two towers' arms"; });
    }
    return refuse(error, "not_next_to_arm", [] { return "a wall goes next to a tower or to the last wall of its arm"; });
  }
  if (!city) {
    return refuse(error, "wrong_space", [&] { return std::string(piece_name(p.piece)) + "s go on city squares"; });
  }
  if (p.piece == Piece::dome) return check_dome(player, p, c, error);

  if (d_.grid[c].kind != Kind::empty) return refuse(error, "occupied", [&] { return at(p.x, p.y) + " is taken"; });
  switch (p.piece) {
    case Piece::palace:
      if (d_.closed[ci(p.colour)]) {
        return refuse(error, "colour_closed",
                      [&] { return std::string(colour_name(p.colour)) + " palaces are no longer built"; });
      }
      if (seat.stock.palaces[ci(p.colour)] == 0) {
        return refuse(error, "not_in_stock",
                      [&] { return std::string("you have no ") + colour_name(p.colour) + " palace piece left"; });
      }
      if (two_player() && (d_.colours_placed & (1u << ci(p.colour)))) {
        return refuse(error, "one_per_turn", [&] {
          return std::string("you already placed a ") + colour_name(p.colour) + " palace piece this turn";
        });
      }
      break;
    case Piece::stable:
      if (seat.stock.stables == 0) return refuse(error, "not_in_stock", [] { return "you have no stable left"; });
      break;
    default:
      if (seat.stock.residents == 0) return refuse(error, "not_in_stock", [] { return "you have no resident left"; });
      break;
  }
  switch (p.piece) {
    case Piece::palace: {
      const int u = unfinished(p.colour);
      if (u >= 0) {
        if (!is_extension_square(u, c)) {
          bool beside = false;
          for (int o : kOrth) beside = beside || (d_.grid[c + o].kind == Kind::palace && d_.grid[c + o].palace == u);
          if (!beside) {
            return refuse(error, "must_extend_palace", [&] {
              return std::string("a ") + colour_name(p.colour) + " piece must extend the unfinished " +
                     colour_name(p.colour) + " palace";
            });
          }
          return refuse(error, "touches_building", [] { return "buildings must not touch, not even diagonally"; });
        }
        return nullptr;
      }
      if (!touch_ok(c, -1)) {
        return refuse(error, "touches_building", [] { return "a new palace must not touch any building"; });
      }
      return nullptr;
    }
    case Piece::stable: {
      int palace = -1;
      for (int o : kOrth) {
        const Square& s = d_.grid[c + o];
        if (s.kind != Kind::palace) continue;
        if (palace >= 0 && s.palace != palace) {
          return refuse(error, "touches_building", [] { return "a stable must not touch a second palace"; });
        }
        palace = s.palace;
      }
      if (palace < 0) {
        return refuse(error, "not_beside_palace", [] { return "a stable goes beside a palace piece"; });
      }
      if (!touch_ok(c, palace)) {
        return refuse(error, "touches_building", [] { return "a stable must not touch another building"; });
      }
      return nullptr;
    }
    default: {
      int r = -1;
      const int n = resident_neighbours(c, &r);
      if (n >= 2) {
        return refuse(error, "touches_two_residents", [] { return "a resident may not touch two residents"; });
      }
      if (n == 1 && !is_line_end(r)) {
        return refuse(error, "not_a_line_end", [] { return "a resident extends a line only at one of its ends"; });
      }
      if (n == 0 && any_line_extension()) {
        return refuse(error, "must_extend_line",
                      [] { return "a new line may be started only when no line end can be extended"; });
      }
      return nullptr;
    }
  }
}

// Every legal placement for `player` now, in a fixed order, handed to `visit` until it returns true
// (then generate returns true). apply and legal_actions agree because check_rules() is what apply uses and
// a test compares this list with check_rules() over every candidate.
template <class Visit>
bool MedinaState::generate(int player, Visit&& visit) const {
  if (d_.phase == Phase::over || player != d_.active) return false;
  if (d_.phase == Phase::setup) {
    for (int y = 1; y <= kHeight - 2; ++y) {
      for (int x = 1; x <= kWidth - 2; ++x) {
        if (visit(Placement{Piece::resident, Colour::grey, false, x, y})) return true;
      }
    }
    return false;
  }
  const Seat& seat = d_.seats[player];
  // Domes.
  bool any_dome = false;
  for (std::size_t i = 0; i < d_.palaces.size(); ++i) {
    const Palace& pal = d_.palaces[i];
    if (pal.claimed()) continue;
    for (int kind = 0; kind < (two_player() ? 2 : 1); ++kind) {
      const bool blocking = kind == 1;
      if (two_player()) {
        if (!(blocking ? seat.blocking : seat.scoring)[ci(pal.colour)] || (d_.domes_placed & (1 << kind))) continue;
      } else if (seat.domes == 0 || owns_colour(player, pal.colour)) {
        continue;
      }
      for (int c : pal.pieces) {
        any_dome = true;
        if (visit(Placement{Piece::dome, pal.colour, blocking, cell_x(c), cell_y(c)})) return true;
      }
    }
  }
  if (any_dome && forced_dome(player) && !d_.dome_placed && d_.placed + 1 == d_.quota) return false;

  std::bitset<kCells> seen;
  // Palace pieces.
  bool free_known = false;
  std::vector<int> free;  // empty squares touching no building: where a new palace may start
  for (Colour colour : kAllColours) {
    if (d_.closed[ci(colour)] || seat.stock.palaces[ci(colour)] == 0) continue;
    if (two_player() && (d_.colours_placed & (1u << ci(colour)))) continue;
    const int u = unfinished(colour);
    if (u >= 0) {
      seen.reset();
      for (int p : d_.palaces[u].pieces) {
        for (int o : kOrth) {
          const int c = p + o;
          if (seen[c] || !is_extension_square(u, c)) continue;
          seen[c] = true;
          if (visit(Placement{Piece::palace, colour, false, cell_x(c), cell_y(c)})) return true;
        }
      }
      continue;
    }
    if (!free_known) {
      free_known = true;
      for (int y = 0; y < kHeight; ++y) {
        for (int x = 0; x < kWidth; ++x) {
          const int c = cell(x, y);
          if (d_.grid[c].kind == Kind::empty && touch_ok(c, -1)) free.push_back(c);
        }
      }
    }
    for (int c : free) {
      if (visit(Placement{Piece::palace, colour, false, cell_x(c), cell_y(c)})) return true;
    }
  }
  // Stables: beside a piece of exactly one palace, touching no other building.
  if (seat.stock.stables > 0) {
    seen.reset();
    for (std::size_t i = 0; i < d_.palaces.size(); ++i) {
      const int palace = static_cast<int>(i);
      for (int p : d_.palaces[i].pieces) {
        for (int o : kOrth) {
          const int c = p + o;
          if (seen[c] || !city_cell(c) || d_.grid[c].kind != Kind::empty) continue;
          seen[c] = true;
          // touch_ok also rules out a piece of another palace beside it (then the square is no stable's).
          if (touch_ok(c, palace) && visit(Placement{Piece::stable, Colour::grey, false, cell_x(c), cell_y(c)})) return true;
        }
      }
    }
  }
  // Residents: at a line end; a new line only when no end can be extended.
  if (seat.stock.residents > 0) {
    seen.reset();
    bool extension = false;
    for (int r : d_.residents) {
      if (!is_line_end(r)) continue;
      for (int o : kOrth) {
        const int c = r + o;
        if (seen[c] || !city_cell(c) || d_.grid[c].kind != Kind::empty || resident_neighbours(c, nullptr) != 1) {
          continue;
        }
        seen[c] = true;
        extension = true;
        if (visit(Placement{Piece::resident, Colour::grey, false, cell_x(c), cell_y(c)})) return true;
      }
    }
    if (!extension) {
      for (int y = 0; y < kHeight; ++y) {
        for (int x = 0; x < kWidth; ++x) {
          const int c = cell(x, y);
          if (d_.grid[c].kind == Kind::empty && resident_neighbours(c, nullptr) == 0 &&
              visit(Placement{Piece::resident, Colour::grey, false, x, y})) {
            return true;
          }
        }
      }
    }
  }
  // Walls: the next space of each arm that leaves its gate open.
  if (seat.stock.walls > 0) {
    for (int a = 0; a < kArms; ++a) {
      const int c = arm_next(a);
      if (c >= 0 && visit(Placement{Piece::wall, Colour::grey, false, cell_x(c), cell_y(c)})) return true;
    }
  }
  return false;
}

bool MedinaState::can_place_any(int player) const {
  return generate(player, [](const Placement&) { return true; });
}

Json MedinaState::action_json(const Placement& p, bool two_player) {
  Json a = {{"type", "place"}, {"piece", piece_name(p.piece)}};
  if (p.piece == Piece::palace) a["colour"] = colour_name(p.colour);
  if (p.piece == Piece::dome && two_player) a["dome"] = p.blocking ? "blocking" : "scoring";
  a["x"] = p.x;
  a["y"] = p.y;
  return a;
}

namespace {

// Every action form there is, built once: legal_actions copies them (a copy of a small JSON object costs
// far less than building it, and a crowded city still has hundreds of legal placements).
constexpr int kForms = 10;  // palace x 4 colours, dome, scoring dome, blocking dome, stable, resident, wall
int form_of(const Placement& p, bool two_player) {
  switch (p.piece) {
    case Piece::palace: return static_cast<int>(p.colour);
    case Piece::dome: return two_player ? (p.blocking ? 6 : 5) : 4;
    case Piece::stable: return 7;
    case Piece::resident: return 8;
    case Piece::wall: return 9;
  }
  return 0;
}
const std::vector<Json>& action_table() {
  static const std::vector<Json> table = [] {
    std::vector<Json> t(static_cast<std::size_t>(kForms * kCells));
    for (int form = 0; form < kForms; ++form) {
      Placement p;
      bool two = false;
      if (form < 4) {
        p.piece = Piece::palace;
        p.colour = static_cast<Colour>(form);
      } else if (form < 7) {
        p.piece = Piece::dome;
        two = form > 4;
        p.blocking = form == 6;
      } else {
        p.piece = form == 7 ? Piece::stable : form == 8 ? Piece::resident : Piece::wall;
      }
      for (int c = 0; c < kCells; ++c) {
        p.x = cell_x(c);
        p.y = cell_y(c);
        t[static_cast<std::size_t>(form * kCells + c)] = MedinaState::action_json(p, two);
      }
    }
    return t;
  }();
  return table;
}

}  // namespace

std::vector<Json> MedinaState::game_legal_actions(int player) const {
  std::vector<Json> out;
  if (!is_to_move(player)) return out;
  const bool two = two_player();
  const auto& table = action_table();
  out.reserve(64);
  generate(player, [&](const Placement& p) {
    out.push_back(table[static_cast<std::size_t>(form_of(p, two) * kCells + cell(p.x, p.y))]);
    return false;
  });
  return out;
}

// ---- Parsing ------------------------------------------------------------------------------------

namespace {

std::optional<Error> read_coordinate(const Json& action, const char* name, int* out) {
  if (!action.contains(name) || !action[name].is_number_integer()) {
    return make_error(errc::malformed_action, std::string("a placement needs an integer \"") + name + "\"");
  }
  const Json& v = action[name];
  long long value = 0;
  if (v.is_number_unsigned()) {
    value = static_cast<long long>(std::min<unsigned long long>(v.get<unsigned long long>(), 1000ULL));
  } else {
    value = v.get<long long>();
  }
  *out = static_cast<int>(std::clamp<long long>(value, -1000, 1000));
  return std::nullopt;
}

}  // namespace

std::optional<Error> MedinaState::parse(const Json& action, Placement* out) const {
  const std::string& type = action["type"].get_ref<const std::string&>();
  if (type != "place") return make_error(errc::malformed_action, "unknown action type '" + type + "' (Medina has \"place\")");
  if (!action.contains("piece") || !action["piece"].is_string()) {
    return make_error(errc::malformed_action, "a placement needs a \"piece\": palace, dome, stable, resident or wall");
  }
  const auto piece = piece_from_name(action["piece"].get<std::string>());
  if (!piece) {
    return make_error(errc::malformed_action, "there is no piece called '" + action["piece"].get<std::string>() + "'");
  }
  out->piece = *piece;
  const bool wants_colour = *piece == Piece::palace;
  const bool wants_dome = *piece == Piece::dome && two_player();
  for (const auto& [key, value] : action.items()) {
    const bool known = key == "type" || key == "piece" || key == "x" || key == "y" ||
                       (wants_colour && key == "colour") || (wants_dome && key == "dome");
    if (!known) return make_error(errc::malformed_action, "unexpected field '" + key + "' in a placement");
  }
  if (wants_colour) {
    if (!action.contains("colour") || !action["colour"].is_string()) {
      return make_error(errc::malformed_action, "a palace piece needs a \"colour\": grey, black, brown or orange");
    }
    const auto colour = colour_from_name(action["colour"].get<std::string>());
    if (!colour) {
      return make_error(errc::malformed_action, "there is no palace colour '" + action["colour"].get<std::string>() + "'");
    }
    out->colour = *colour;
  }
  if (wants_dome) {
    if (!action.contains("dome") || !action["dome"].is_string() ||
        (action["dome"] != "scoring" && action["dome"] != "blocking")) {
      return make_error(errc::malformed_action, "a two-player dome needs \"dome\": scoring or blocking");
    }
    out->blocking = action["dome"] == "blocking";
  }
  if (auto e = read_coordinate(action, "x", &out->x)) return e;
  if (auto e = read_coordinate(action, "y", &out->y)) return e;
  return std::nullopt;
}

// ---- Applying -----------------------------------------------------------------------------------

bool MedinaState::may_take_back(int, const Placement&, const Data& before) const {
  if (d_.turn != before.turn) return false;  // only within the turn: the next one has begun
  // A stock shown (its player could not place the turn's pieces) stays shown: that is a reveal.
  for (int p = 0; p < d_.players; ++p) {
    if (before.seats[p].stock_public != d_.seats[p].stock_public) return false;
  }
  return true;
}

std::vector<Event> MedinaState::play(int player, const Placement& p) {
  std::vector<Event> events;
  const int c = cell(p.x, p.y);
  Json placed = {{"type", "place"}, {"player", player}, {"piece", piece_name(p.piece)}, {"x", p.x}, {"y", p.y}};
  if (d_.phase == Phase::setup) {
    d_.grid[c] = {Kind::resident, -1, -1, -1};
    d_.residents.push_back(c);
    placed["starting"] = true;
    events.push_back(Event::public_event(std::move(placed)));
    d_.phase = Phase::play;
    d_.turn = 0;
    start_turn(d_.start_player, events);
    return events;
  }
  Seat& seat = d_.seats[player];
  switch (p.piece) {
    case Piece::palace: {
      int u = unfinished(p.colour);
      if (u < 0) {
        u = static_cast<int>(d_.palaces.size());
        Palace fresh;
        fresh.colour = p.colour;
        d_.palaces.push_back(fresh);
        d_.current[ci(p.colour)] = u;
      }
      d_.palaces[u].pieces.push_back(c);
      d_.grid[c] = {Kind::palace, static_cast<std::int8_t>(ci(p.colour)), static_cast<std::int16_t>(u), -1};
      --seat.stock.palaces[ci(p.colour)];
      d_.colours_placed |= static_cast<std::uint8_t>(1u << ci(p.colour));
      placed["colour"] = colour_name(p.colour);
      placed["palace"] = u;
      placed["size"] = d_.palaces[u].size();
      events.push_back(Event::public_event(std::move(placed)));
      break;
    }
    case Piece::stable: {
      int palace = -1;
      for (int o : kOrth) {
        if (d_.grid[c + o].kind == Kind::palace) palace = d_.grid[c + o].palace;
      }
      d_.palaces[palace].stables.push_back(c);
      d_.grid[c] = {Kind::stable, -1, static_cast<std::int16_t>(palace), -1};
      --seat.stock.stables;
      placed["palace"] = palace;
      placed["size"] = d_.palaces[palace].size();
      events.push_back(Event::public_event(std::move(placed)));
      const Palace& pal = d_.palaces[palace];
      if (pal.claimed() && !pal.blocking) {
        after_growth(palace, events);
        for (int o : kOrth) {
          const Square& s = d_.grid[c + o];
          if (s.kind == Kind::wall && !d_.palaces[palace].connected[s.tower - 1]) connect(palace, s.tower, events);
        }
      }
      break;
    }
    case Piece::resident:
      d_.grid[c] = {Kind::resident, -1, -1, -1};
      d_.residents.push_back(c);
      --seat.stock.residents;
      events.push_back(Event::public_event(std::move(placed)));
      break;
    case Piece::wall: {
      int arm = 0;
      while (arm_next(arm) != c) ++arm;
      const int tower = kArmTable[arm].tower;
      ++d_.arm_length[arm];
      d_.grid[c] = {Kind::wall, -1, -1, static_cast<std::int8_t>(tower)};
      d_.walls.push_back(c);
      --seat.stock.walls;
      placed["tower"] = tower;
      events.push_back(Event::public_event(std::move(placed)));
      const Square& s = d_.grid[city_beside_wall(c)];
      if ((s.kind == Kind::palace || s.kind == Kind::stable)) {
        const Palace& pal = d_.palaces[s.palace];
        if (pal.claimed() && !pal.blocking && !pal.connected[tower - 1]) connect(s.palace, tower, events);
      }
      break;
    }
    case Piece::dome:
      d_.dome_placed = true;
      if (two_player()) d_.domes_placed |= static_cast<std::uint8_t>(p.blocking ? 2 : 1);
      claim(player, c, p.blocking, std::move(placed), events);
      break;
  }
  refresh_completed(&events);
  ++d_.placed;
  if (d_.placed >= d_.quota || !can_place_any(player)) end_turn(events);
  return events;
}

void MedinaState::claim(int player, int c, bool blocking, Json placed, std::vector<Event>& events) {
  const int palace = d_.grid[c].palace;
  Palace& pal = d_.palaces[palace];
  Seat& seat = d_.seats[player];
  const Colour colour = pal.colour;
  pal.owner = player;
  pal.blocking = blocking;
  pal.dome = c;
  if (two_player()) {
    (blocking ? seat.blocking : seat.scoring)[ci(colour)] = false;
    placed["dome"] = blocking ? "blocking" : "scoring";
  } else {
    --seat.domes;
  }
  placed["colour"] = colour_name(colour);
  placed["palace"] = palace;
  placed["size"] = pal.size();
  events.push_back(Event::public_event(std::move(placed)));
  if (!blocking) {
    const int holder = d_.palace_tile[ci(colour)];
    bool takes = holder < 0;
    if (!takes && holder != player) {
      const int theirs = scoring_palace_of(holder, colour);
      takes = theirs < 0 || pal.size() > d_.palaces[theirs].size();
    }
    if (takes) {
      d_.palace_tile[ci(colour)] = player;
      events.push_back(Event::public_event({{"type", "palace_tile"},
                                            {"colour", colour_name(colour)},
                                            {"player", player},
                                            {"from", holder < 0 ? Json(nullptr) : Json(holder)},
                                            {"size", pal.size()}}));
    }
    for (int tower = 1; tower <= kTowers; ++tower) {
      bool touches = false;
      auto look = [&](int at_cell) {
        for (int o : kOrth) {
          const Square& s = d_.grid[at_cell + o];
          touches = touches || (s.kind == Kind::wall && s.tower == tower);
        }
      };
      for (int piece : d_.palaces[palace].pieces) look(piece);
      for (int stable : d_.palaces[palace].stables) look(stable);
      if (touches) connect(palace, tower, events);
    }
  }
  if (two_player()) {
    // Both of this player's domes for the colour used: the other player's blocking dome for it goes.
    const Seat& me = d_.seats[player];
    const int k = ci(colour);
    if (!me.scoring[k] && !me.blocking[k] && !me.removed[k]) {
      Seat& other = d_.seats[1 - player];
      if (other.blocking[k]) {
        other.blocking[k] = false;
        other.removed[k] = true;
        events.push_back(Event::public_event(
            {{"type", "dome_removed"}, {"player", 1 - player}, {"colour", colour_name(colour)}}));
      }
    }
  }
  check_closing(events);
}

void MedinaState::after_growth(int palace, std::vector<Event>& events) {
  const Palace& pal = d_.palaces[palace];
  const int holder = d_.palace_tile[ci(pal.colour)];
  if (holder == pal.owner) return;
  const int theirs = holder < 0 ? -1 : scoring_palace_of(holder, pal.colour);
  if (holder >= 0 && theirs >= 0 && pal.size() <= d_.palaces[theirs].size()) return;
  d_.palace_tile[ci(pal.colour)] = pal.owner;
  events.push_back(Event::public_event({{"type", "palace_tile"},
                                        {"colour", colour_name(pal.colour)},
                                        {"player", pal.owner},
                                        {"from", holder < 0 ? Json(nullptr) : Json(holder)},
                                        {"size", pal.size()}}));
}

void MedinaState::connect(int palace, int tower, std::vector<Event>& events) {
  Palace& pal = d_.palaces[palace];
  pal.connected[tower - 1] = true;
  const int from = d_.tower_tile[tower - 1];
  d_.tower_tile[tower - 1] = pal.owner;
  events.push_back(Event::public_event({{"type", "tower_tile"},
                                        {"tower", tower},
                                        {"palace", palace},
                                        {"player", pal.owner},
                                        {"from", from < 0 ? Json(nullptr) : Json(from)}}));
}

void MedinaState::check_closing(std::vector<Event>& events) {
  for (Colour colour : kAllColours) {
    const int c = ci(colour);
    if (d_.closed[c]) continue;
    bool closes = true;
    for (int q = 0; q < d_.players; ++q) {
      const Seat& s = d_.seats[q];
      closes = closes && (two_player() ? !s.scoring[c] && !s.blocking[c] : owns_colour(q, colour));
    }
    if (closes) close_colour(colour, events);
  }
}

void MedinaState::close_colour(Colour colour, std::vector<Event>& events) {
  d_.closed[ci(colour)] = true;
  for (auto& seat : d_.seats) seat.stock.palaces[ci(colour)] = 0;
  events.push_back(Event::public_event({{"type", "colour_closed"}, {"colour", colour_name(colour)}}));
}

void MedinaState::refresh_completed(std::vector<Event>* events) {
  for (Colour colour : kAllColours) {
    const int i = unfinished(colour);
    if (i < 0 || extendable(i)) continue;
    d_.palaces[i].completed = true;
    if (events) {
      events->push_back(Event::public_event(
          {{"type", "palace_completed"}, {"palace", i}, {"colour", colour_name(colour)}}));
    }
  }
}

void MedinaState::start_turn(int player, std::vector<Event>& events) {
  d_.active = player;
  ++d_.turn;
  d_.quota = quota_for_turn(d_.players, d_.turn);
  d_.placed = 0;
  d_.dome_placed = false;
  d_.colours_placed = 0;
  d_.domes_placed = 0;
  events.push_back(Event::public_event({{"type", "turn"},
                                        {"player", player},
                                        {"turn", d_.turn},
                                        {"pieces", d_.quota},
                                        {"forced_dome", forced_dome(player)}}));
}

void MedinaState::reveal(int player, std::vector<Event>& events) {
  Seat& seat = d_.seats[player];
  if (seat.stock_public) return;
  seat.stock_public = true;
  events.push_back(Event::public_event(
      {{"type", "stock_revealed"}, {"player", player}, {"stock", stock_json(seat.stock)}}));
}

void MedinaState::end_turn(std::vector<Event>& events) {
  if (d_.placed < d_.quota) reveal(d_.active, events);
  const int from = d_.active;
  for (int k = 1; k <= d_.players; ++k) {
    const int p = (from + k) % d_.players;
    start_turn(p, events);
    if (can_place_any(p)) return;
    events.pop_back();
    if (k == d_.players) {  // back to the player whose turn just ended: nobody can place
      --d_.turn;
      break;
    }
    // Nothing to place: the turn passes at once, and the stock is shown.
    events.push_back(Event::public_event({{"type", "skip"}, {"player", p}, {"turn", d_.turn}}));
    reveal(p, events);
  }
  finish(events);
}

void MedinaState::finish(std::vector<Event>& events) {
  for (int p = 0; p < d_.players; ++p) reveal(p, events);
  d_.phase = Phase::over;
  d_.quota = 0;
  d_.placed = 0;
  d_.dome_placed = false;
  d_.colours_placed = 0;
  d_.domes_placed = 0;
  events.push_back(Event::public_event({{"type", "game_over"}, {"result", result()}}));
}

// ---- Scoring ------------------------------------------------------------------------------------

Score MedinaState::score(int player) const {
  Score s;
  for (std::size_t i = 0; i < d_.palaces.size(); ++i) {
    const Palace& pal = d_.palaces[i];
    if (pal.owner != player || pal.blocking) continue;
    PalaceScore ps;
    ps.palace = static_cast<int>(i);
    ps.pieces = static_cast<int>(pal.pieces.size());
    ps.stables = static_cast<int>(pal.stables.size());
    std::bitset<kCells> counted;
    auto look = [&](int c) {
      for (int o : kOrth) {
        const int n = c + o;
        const Kind k = d_.grid[n].kind;
        if ((k != Kind::resident && k != Kind::wall) || counted[n]) continue;
        counted[n] = true;
        (k == Kind::resident ? ps.residents : ps.walls) += 1;
      }
    };
    for (int c : pal.pieces) look(c);
    for (int c : pal.stables) look(c);
    s.palaces.push_back(ps);
    s.total += ps.total();
  }
  for (Colour colour : kAllColours) {
    if (d_.palace_tile[ci(colour)] == player) s.palace_tiles += palace_tile_value(colour);
  }
  for (int t = 0; t < kTowers; ++t) {
    if (d_.tower_tile[t] == player) s.tower_tiles += t + 1;
  }
  s.total += s.palace_tiles + s.tower_tiles;
  return s;
}

Json MedinaState::result() const {
  if (d_.phase != Phase::over) return nullptr;
  std::vector<int> points(d_.players);
  for (int p = 0; p < d_.players; ++p) points[p] = score(p).total;
  const int best = *std::max_element(points.begin(), points.end());
  std::vector<int> order(d_.players);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return points[a] > points[b]; });
  Json ranking = Json::array();
  Json winners = Json::array();
  for (int p : order) {
    const int rank =
        1 + static_cast<int>(std::count_if(points.begin(), points.end(), [&](int v) { return v > points[p]; }));
    ranking.push_back({{"player", p}, {"rank", rank}, {"points", points[p]}});
  }
  for (int p = 0; p < d_.players; ++p) {
    if (points[p] == best) winners.push_back(p);
  }
  return {{"ranking", ranking}, {"winners", winners}};
}

// ---- Views --------------------------------------------------------------------------------------

Json MedinaState::stock_json(const Stock& s) const {
  Json palaces = Json::object();
  for (Colour colour : kAllColours) palaces[colour_name(colour)] = s.palaces[ci(colour)];
  return {{"palaces", palaces}, {"stables", s.stables}, {"residents", s.residents}, {"walls", s.walls}};
}

Json MedinaState::domes_json(int player) const {
  const Seat& s = d_.seats[player];
  if (!two_player()) return s.domes;
  Json scoring = Json::array(), blocking = Json::array(), removed = Json::array();
  for (Colour colour : kAllColours) {
    if (s.scoring[ci(colour)]) scoring.push_back(colour_name(colour));
    if (s.blocking[ci(colour)]) blocking.push_back(colour_name(colour));
    if (s.removed[ci(colour)]) removed.push_back(colour_name(colour));
  }
  return {{"scoring", scoring},
          {"blocking", blocking},
          {"removed", removed},
          {"scoring_colour", player == 0 ? "yellow" : "blue"},
          {"blocking_colour", player == 0 ? "red" : "green"}};
}

Json MedinaState::view(const Viewer& viewer) const {
  const bool full = viewer.kind == Viewer::Kind::full;
  const bool over = d_.phase == Phase::over;
  Json::array_t palaces;
  palaces.reserve(d_.palaces.size());
  for (std::size_t i = 0; i < d_.palaces.size(); ++i) {
    const Palace& pal = d_.palaces[i];
    Json::array_t towers;
    for (int t = 0; t < kTowers; ++t) {
      if (pal.connected[t]) towers.emplace_back(t + 1);
    }
    palaces.push_back(ObjectBuilder()
                          .add("id", i)
                          .add("colour", colour_name(pal.colour))
                          .add("pieces", cells_json(pal.pieces))
                          .add("stables", cells_json(pal.stables))
                          .add("size", pal.size())
                          .add("status", pal.claimed() ? "claimed" : pal.completed ? "completed" : "unfinished")
                          .add("owner", pal.claimed() ? Json(pal.owner) : Json(nullptr))
                          .add("dome", pal.claimed() ? xy(pal.dome) : Json(nullptr))
                          .add("blocking", pal.blocking)
                          .add("towers", Json(std::move(towers)))
                          .done());
  }
  Json::array_t arm_list;
  for (int a = 0; a < kArms; ++a) {
    const int next = arm_next(a);
    arm_list.push_back(ObjectBuilder()
                           .add("tower", kArmTable[a].tower)
                           .add("side", kArmTable[a].side)
                           .add("length", d_.arm_length[a])
                           .add("next", next < 0 ? Json(nullptr) : xy(next))
                           .done());
  }
  Json::array_t closed;
  ObjectBuilder palace_tiles;
  for (Colour colour : kAllColours) {
    if (d_.closed[ci(colour)]) closed.emplace_back(colour_name(colour));
    const int h = d_.palace_tile[ci(colour)];
    palace_tiles.add(colour_name(colour), h < 0 ? Json(nullptr) : Json(h));
  }
  Json::array_t tower_tiles;
  for (int h : d_.tower_tile) tower_tiles.push_back(h < 0 ? Json(nullptr) : Json(h));
  Json::array_t seats;
  for (int p = 0; p < d_.players; ++p) {
    const Seat& s = d_.seats[p];
    const bool shown = full || over || s.stock_public || viewer.is_player(p);
    const Score sc = score(p);
    Json::array_t per_palace;
    for (const auto& ps : sc.palaces) {
      per_palace.push_back(ObjectBuilder()
                               .add("palace", ps.palace)
                               .add("pieces", ps.pieces)
                               .add("stables", ps.stables)
                               .add("residents", ps.residents)
                               .add("walls", ps.walls)
                               .add("points", ps.total())
                               .done());
    }
    seats.push_back(ObjectBuilder()
                        .add("domes", domes_json(p))
                        .add("stock", shown ? stock_json(s.stock) : Json(nullptr))
                        .add("stock_public", s.stock_public)
                        .add("score", ObjectBuilder()
                                          .add("palaces", Json(std::move(per_palace)))
                                          .add("palace_tiles", sc.palace_tiles)
                                          .add("tower_tiles", sc.tower_tiles)
                                          .add("total", sc.total)
                                          .done())
                        .done());
  }
  Json::array_t placed_colours;
  for (Colour colour : kAllColours) {
    if (d_.colours_placed & (1u << ci(colour))) placed_colours.emplace_back(colour_name(colour));
  }
  Json::array_t placed_domes;
  if (d_.domes_placed & 1) placed_domes.emplace_back("scoring");
  if (d_.domes_placed & 2) placed_domes.emplace_back("blocking");
  Json::array_t movers;
  for (int p : to_move()) movers.emplace_back(p);
  ObjectBuilder v;
  v.add("game", "medina")
      .add("players", d_.players)
      .add("version", d_.version)
      .add("phase", phase_name(d_.phase))
      .add("start_player", d_.start_player)
      .add("active", over ? Json(nullptr) : Json(d_.active))
      .add("to_move", Json(std::move(movers)))
      .add("turn", d_.turn)
      .add("pieces", d_.quota)
      .add("placed", d_.placed)
      .add("forced_dome", !over && d_.phase == Phase::play && forced_dome(d_.active))
      .add("placed_colours", Json(std::move(placed_colours)))
      .add("placed_domes", Json(std::move(placed_domes)))
      .add("width", kWidth)
      .add("height", kHeight)
      .add("palaces", Json(std::move(palaces)))
      .add("residents", cells_json(d_.residents))
      .add("arms", Json(std::move(arm_list)))
      .add("closed", Json(std::move(closed)))
      .add("palace_tiles", palace_tiles.done())
      .add("tower_tiles", Json(std::move(tower_tiles)))
      .add("seats", Json(std::move(seats)))
      .add("result", result());
  if (full) {
    Json::array_t stocks;
    for (const auto& s : d_.seats) stocks.push_back(stock_json(s.stock));
    v.add("stocks", Json(std::move(stocks)));
  }
  return v.done();
}

// ---- Rigging for tests --------------------------------------------------------------------------

int MedinaState::rig_palace(Colour colour, const std::vector<std::pair<int, int>>& cells) {
  const int i = static_cast<int>(d_.palaces.size());
  Palace pal;
  pal.colour = colour;
  for (const auto& [x, y] : cells) {
    pal.pieces.push_back(cell(x, y));
    d_.grid[cell(x, y)] = {Kind::palace, static_cast<std::int8_t>(ci(colour)), static_cast<std::int16_t>(i), -1};
  }
  d_.palaces.push_back(pal);
  d_.current[ci(colour)] = i;
  rig_refresh();
  return i;
}

void MedinaState::rig_stable(int x, int y) {
  const int c = cell(x, y);
  int palace = -1;
  for (int o : kOrth) {
    if (d_.grid[c + o].kind == Kind::palace) palace = d_.grid[c + o].palace;
  }
  d_.palaces[palace].stables.push_back(c);
  d_.grid[c] = {Kind::stable, -1, static_cast<std::int16_t>(palace), -1};
  rig_refresh();
}

void MedinaState::rig_resident(int x, int y) {
  d_.grid[cell(x, y)] = {Kind::resident, -1, -1, -1};
  d_.residents.push_back(cell(x, y));
  rig_refresh();
}

void MedinaState::rig_walls(int arm, int count) {
  for (int i = 0; i < count; ++i) {
    const int c = arm_next(arm);
    ++d_.arm_length[arm];
    d_.grid[c] = {Kind::wall, -1, -1, static_cast<std::int8_t>(kArmTable[arm].tower)};
    d_.walls.push_back(c);
  }
}

void MedinaState::rig_claim(int palace, int owner, bool blocking) {
  Palace& pal = d_.palaces[palace];
  pal.owner = owner;
  pal.blocking = blocking;
  pal.dome = pal.pieces.front();
}

void MedinaState::rig_refresh() { refresh_completed(nullptr); }

GameInfo game_info() {
  GameInfo info;
  info.id = "medina";
  info.display_name = "Medina";
  info.min_players = 2;
  info.max_players = 4;
  info.create = [](const Json&, int players, Seed seed) -> std::unique_ptr<State> {
    return std::make_unique<MedinaState>(players, seed);
  };
  return info;
}

}  // namespace emporium::engine::medina
