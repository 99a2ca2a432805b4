// Medina's bot. What a seat cannot see is every other screened stock (palace pieces, stables, residents,
// walls) while it is not public. The starting stocks and the board are known, so the pieces still behind
// the screens are known by type; and a screened stock has always placed its turn's full count (else it
// would be public), so its size follows from the turn structure — up to the pieces of closed colours that
// left it unseen. A sampled state deals that pool at random among the screened stocks with those sizes.
//
// Playouts run to the end with a greedy policy that scores each placement by what it gives its player
// and the others: a dome on a valuable palace, stables, residents and walls beside one's own palaces and
// away from the others', palace pieces only where they do not feed an opponent's claim. It looks at a
// few dozen placements built from the board and asks the rules (check_rules()) only about the best ones,
// so that whole games of it are cheap enough to play out. The search keeps a dozen actions, ranked by the
// same values. The estimate for an unfinished game (used when a budget truncates playouts) is the running
// score plus a share of each unclaimed palace to the players who may claim it, and something for the
// domes and pieces still held.
#include <algorithm>
#include <array>
#include <bitset>
#include <cmath>
#include <numeric>
#include <optional>
#include <utility>

#include "medina/bot.hpp"
#include "medina/medina.hpp"

namespace emporium::engine::medina {
namespace {

// Piece types of a stock, as indices: the four palace colours, then stables, residents, walls.
constexpr int kTypes = kColours + 3;
constexpr int kStable = kColours, kResident = kColours + 1, kWall = kColours + 2;
int& count_of(Stock& s, int type) {
  if (type < kColours) return s.palaces[type];
  return type == kStable ? s.stables : type == kResident ? s.residents : s.walls;
}

int cell_of(const Json& xy) { return cell(xy.at(0).get<int>(), xy.at(1).get<int>()); }

Colour colour_of(const Json& name) { return colour_from_name(name.get<std::string>()).value_or(Colour::grey); }

Stock stock_from(const Json& j) {
  Stock s;
  for (int c = 0; c < kColours; ++c) s.palaces[c] = j.at("palaces").at(colour_name(static_cast<Colour>(c))).get<int>();
  s.stables = j.at("stables").get<int>();
  s.residents = j.at("residents").get<int>();
  s.walls = j.at("walls").get<int>();
  return s;
}

Phase phase_from(const std::string& name) {
  return name == "setup" ? Phase::setup : name == "play" ? Phase::play : Phase::over;
}

int player_of_turn(const Data& d, int turn) { return (d.start_player + turn - 1) % d.players; }

bool empty_city(const Data& d, int c) { return in_city(cell_x(c), cell_y(c)) && d.grid[c].kind == Kind::empty; }

bool is_building(const Square& s) { return s.kind == Kind::palace || s.kind == Kind::stable; }

// What the board says about each palace and player, computed once per decision of the policy.
struct Board {
  const MedinaState& s;
  const Data& d;
  bool two;
  std::vector<int> points;                    // a palace's points were it scoring: size, residents, walls
  std::vector<std::array<bool, kColours>> may_claim;  // player may put a scoring dome on that colour
  std::vector<int> claimers;                  // per palace: players who may claim it (scoring), by count
  int free_squares = 0;                       // empty city squares touching no building

  explicit Board(const MedinaState& state) : s(state), d(state.data()), two(state.two_player()) {
    points.resize(d.palaces.size());
    for (std::size_t i = 0; i < d.palaces.size(); ++i) points[i] = palace_points(static_cast<int>(i));
    may_claim.assign(d.players, {});
    for (int p = 0; p < d.players; ++p) {
      for (int c = 0; c < kColours; ++c) {
        if (two) {
          may_claim[p][c] = d.seats[p].scoring[c];
        } else {
          may_claim[p][c] = d.seats[p].domes > 0;
        }
      }
      if (!two) {
        for (const Palace& pal : d.palaces) {
          if (pal.owner == p) may_claim[p][static_cast<int>(pal.colour)] = false;
        }
      }
    }
    for (int y = 0; y < kHeight; y += 2) {
      for (int x = 0; x < kWidth; x += 2) {
        const int c = cell(x, y);
        if (d.grid[c].kind != Kind::empty) continue;
        bool ok = true;
        for (int o : kAround) ok = ok && !is_building(d.grid[c + o]);
        free_squares += ok;
      }
    }
  }

  int palace_points(int i) const {
    const Palace& pal = d.palaces[i];
    int pts = pal.size();
    std::bitset<kCells> counted;
    auto look = [&](int c) {
      for (int o : kOrth) {
        const int n = c + o;
        const Kind k = d.grid[n].kind;
        if ((k == Kind::resident || k == Kind::wall) && !counted[n]) {
          counted[n] = true;
          ++pts;
        }
      }
    };
    for (int c : pal.pieces) look(c);
    for (int c : pal.stables) look(c);
    return pts;
  }

  bool scoring_owner(int i, int p) const { return d.palaces[i].owner == p && !d.palaces[i].blocking; }

  int others_claiming(int i, int p) const {
    const int c = static_cast<int>(d.palaces[i].colour);
    int n = 0;
    for (int q = 0; q < d.players; ++q) n += q != p && may_claim[q][c];
    return n;
  }

  // Whether a piece after this one this turn may still be a scoring dome (whether the player holds one
  // for the colour is may_claim's question).
  bool dome_later_this_turn() const {
    if (d.quota - d.placed - 1 <= 0) return false;
    return !two || !(d.domes_placed & 1);
  }

  // The palace tile and tower tiles `p` would gain by a scoring claim of palace i grown by `extra`.
  double tile_gain(int i, int p, int extra) const {
    const Palace& pal = d.palaces[i];
    const int c = static_cast<int>(pal.colour);
    double gain = 0;
    const int holder = d.palace_tile[c];
    if (holder < 0) {
      gain += 0.5 * palace_tile_value(pal.colour);  // a larger palace may take it later
    } else if (holder != p) {
      int theirs = 0;
      for (const Palace& q : d.palaces) {
        if (q.owner == holder && q.colour == pal.colour && !q.blocking) theirs = q.size();
      }
      if (pal.size() + extra > theirs) gain += 1.2 * palace_tile_value(pal.colour);
    }
    std::array<bool, kTowers> towers{};
    auto look = [&](int cc) {
      for (int o : kOrth) {
        const Square& sq = d.grid[cc + o];
        if (sq.kind == Kind::wall) towers[sq.tower - 1] = true;
      }
    };
    for (int cc : pal.pieces) look(cc);
    for (int cc : pal.stables) look(cc);
    for (int t = 0; t < kTowers; ++t) {
      if (towers[t] && d.tower_tile[t] != p) gain += (t + 1) * (d.tower_tile[t] < 0 ? 1.0 : 1.5);
    }
    return gain;
  }

  // What a dome on palace i is worth to `p` now, against keeping the dome for later.
  double claim_value(int i, int p, int extra) const {
    const double pts = points[i] + extra + tile_gain(i, p, extra);
    const bool completed = d.palaces[i].completed;
    const int rivals = others_claiming(i, p);
    // Waiting is worth more while the city has room for a better palace and nobody else can take this one.
    double hold = 2.5 + 2.0 * std::min(1.0, free_squares / 20.0);
    if (rivals == 0) hold += completed ? 0.0 : 3.0;
    return pts - hold;
  }

  // A resident or wall beside city square c (a new point for each palace it touches).
  double beside_value(int c, int p) const {
    int seen[4];
    int n = 0;
    double v = 0;
    for (int o : kOrth) {
      const Square& sq = d.grid[c + o];
      if (!is_building(sq)) continue;
      bool dup = false;
      for (int k = 0; k < n; ++k) dup = dup || seen[k] == sq.palace;
      if (dup) continue;
      seen[n++] = sq.palace;
      v += palace_stake(sq.palace, p, 1.0);
    }
    return v;
  }

  // The worth to `p` of one more point on palace i.
  double palace_stake(int i, int p, double point) const {
    const Palace& pal = d.palaces[i];
    if (pal.claimed()) {
      if (pal.blocking) return 0.0;
      return pal.owner == p ? point : -point * (two ? 1.0 : 0.7);
    }
    const int c = static_cast<int>(pal.colour);
    const bool mine = may_claim[p][c];
    const int rivals = others_claiming(i, p);
    if (mine && dome_later_this_turn()) return 0.6 * point;
    return (mine ? 0.25 : 0.0) - (rivals ? 0.3 : 0.0);
  }

  double value(int p, const Placement& pl) const {
    const int c = cell(pl.x, pl.y);
    switch (pl.piece) {
      case Piece::dome: {
        const int i = d.grid[c].palace;
        if (i < 0) return -100;
        if (!pl.blocking) return claim_value(i, p, 0);
        // A blocking dome is worth what it keeps from the opponent.
        const int other = 1 - p;
        if (!may_claim[other][static_cast<int>(d.palaces[i].colour)]) return -3.0;
        return 0.8 * (points[i] + tile_gain(i, other, 0)) - 4.0;
      }
      case Piece::palace: {
        const int u = s.unfinished(pl.colour);
        if (u < 0) {
          // A new palace: harmless, better in a colour the player may still claim, away from the edge clutter.
          return (may_claim[p][static_cast<int>(pl.colour)] ? 0.2 : 0.0) - 0.05 * palace_colour_weight(pl.colour);
        }
        int gained = 1;
        for (int o : kOrth) {
          const Kind k = d.grid[c + o].kind;
          gained += k == Kind::resident || k == Kind::wall;  // roughly: may already be counted
        }
        const bool mine = may_claim[p][static_cast<int>(pl.colour)];
        if (mine && dome_later_this_turn()) {
          const double claim = claim_value(u, p, gained);
          if (claim > 0) return claim + 0.5;  // grow it, then claim it this turn
        }
        const int rivals = others_claiming(u, p);
        if (!rivals) return mine ? 0.4 : 0.0;
        return -0.25 * (points[u] + gained) / 3.0;
      }
      case Piece::stable: {
        int i = -1;
        for (int o : kOrth) {
          if (d.grid[c + o].kind == Kind::palace) i = d.grid[c + o].palace;
        }
        if (i < 0) return -100;
        double v = palace_stake(i, p, 1.0 + 0.9 * beside_count(c, i));
        const Palace& pal = d.palaces[i];
        if (pal.claimed() && !pal.blocking) {
          for (int o : kOrth) {
            const Square& sq = d.grid[c + o];
            if (sq.kind == Kind::wall && !pal.connected[sq.tower - 1] && d.tower_tile[sq.tower - 1] != pal.owner) {
              v += palace_stake(i, p, sq.tower);
            }
          }
        }
        return v;
      }
      case Piece::resident: return beside_value(c, p) + 0.05;
      case Piece::wall: {
        const int b = city_beside_wall(c);
        const Square& sq = d.grid[b];
        if (!is_building(sq)) return 0.0;
        double v = palace_stake(sq.palace, p, 1.0);
        const Palace& pal = d.palaces[sq.palace];
        const int tower = wall_tower(c);
        if (pal.claimed() && !pal.blocking && tower > 0 && !pal.connected[tower - 1] &&
            d.tower_tile[tower - 1] != pal.owner) {
          v += palace_stake(sq.palace, p, tower);
        }
        return v;
      }
    }
    return 0;
  }

  // Residents and walls beside city square c that palace i does not count yet.
  int beside_count(int c, int i) const {
    int n = 0;
    for (int o : kOrth) {
      const int m = c + o;
      const Kind k = d.grid[m].kind;
      if (k != Kind::resident && k != Kind::wall) continue;
      // m may be on the wall ring, and then some of its neighbours are beyond the grid.
      bool counted = false;
      const int mx = cell_x(m), my = cell_y(m);
      for (const auto& [dx, dy] : {std::pair{-1, 0}, std::pair{1, 0}, std::pair{0, -1}, std::pair{0, 1}}) {
        if (!on_grid(mx + dx, my + dy)) continue;
        const Square& sq = d.grid[cell(mx + dx, my + dy)];
        counted = counted || (is_building(sq) && sq.palace == i);
      }
      n += !counted;
    }
    return n;
  }

  static double palace_colour_weight(Colour c) { return static_cast<double>(c); }

  int wall_tower(int c) const {
    for (int a = 0; a < kArms; ++a) {
      if (arm_next(d, a) == c) return arms()[a].tower;
    }
    return 0;
  }
};

// Candidate placements for `p` worth a look (not all legal: check_rules() decides), with their values.
struct Scored {
  Placement p;
  double value;
};

void add_cell(std::vector<Placement>& out, Piece piece, Colour colour, bool blocking, int c) {
  out.push_back(Placement{piece, colour, blocking, cell_x(c), cell_y(c)});
}

std::vector<Placement> gather(const Board& b, int p, Rng& rng) {
  const Data& d = b.d;
  std::vector<Placement> out;
  out.reserve(96);
  if (d.phase == Phase::setup) {
    for (int i = 0; i < 6; ++i) {
      out.push_back(Placement{Piece::resident, Colour::grey, false, 1 + static_cast<int>(rng.below(kWidth - 2)),
                              1 + static_cast<int>(rng.below(kHeight - 2))});
    }
    return out;
  }
  const Seat& seat = d.seats[p];
  // Domes: one square of each unclaimed palace.
  for (const Palace& pal : d.palaces) {
    if (pal.claimed()) continue;
    add_cell(out, Piece::dome, pal.colour, false, pal.pieces.front());
    if (b.two) add_cell(out, Piece::dome, pal.colour, true, pal.pieces.front());
  }
  // Palace pieces: extensions of the unfinished palaces, a few free squares for new ones.
  std::bitset<kCells> seen;
  bool any_new = false;
  for (int ci = 0; ci < kColours; ++ci) {
    const Colour colour = static_cast<Colour>(ci);
    if (d.closed[ci] || seat.stock.palaces[ci] == 0) continue;
    const int u = b.s.unfinished(colour);
    if (u < 0) {
      any_new = true;
      continue;
    }
    seen.reset();
    for (int c : d.palaces[u].pieces) {
      for (int o : kOrth) {
        if (!seen[c + o] && empty_city(d, c + o)) {
          seen[c + o] = true;
          add_cell(out, Piece::palace, colour, false, c + o);
        }
      }
    }
  }
  if (any_new) {
    int found = 0;
    for (int tries = 0; tries < 40 && found < 4; ++tries) {
      const int c = cell(static_cast<int>(rng.below(kWidth)), static_cast<int>(rng.below(kHeight)));
      if (d.grid[c].kind != Kind::empty) continue;
      bool ok = true;
      for (int o : kAround) ok = ok && !is_building(d.grid[c + o]);
      if (!ok) continue;
      ++found;
      for (int ci = 0; ci < kColours; ++ci) {
        const Colour colour = static_cast<Colour>(ci);
        if (!d.closed[ci] && seat.stock.palaces[ci] > 0 && b.s.unfinished(colour) < 0) {
          add_cell(out, Piece::palace, colour, false, c);
        }
      }
    }
  }
  // Stables and residents around palaces; residents at line ends; walls at the arms' ends.
  seen.reset();
  std::bitset<kCells> near;
  for (const Palace& pal : d.palaces) {
    for (int c : pal.pieces) {
      for (int o : kOrth) {
        if (empty_city(d, c + o)) near[c + o] = true;
      }
    }
    for (int c : pal.stables) {
      for (int o : kOrth) {
        if (empty_city(d, c + o)) near[c + o] = true;
      }
    }
  }
  if (seat.stock.stables > 0) {
    for (const Palace& pal : d.palaces) {
      for (int c : pal.pieces) {
        for (int o : kOrth) {
          const int n = c + o;
          if (empty_city(d, n) && !seen[n]) {
            seen[n] = true;
            add_cell(out, Piece::stable, Colour::grey, false, n);
          }
        }
      }
    }
  }
  if (seat.stock.residents > 0) {
    auto residents_beside = [&](int c) {
      int n = 0;
      for (int o : kOrth) n += d.grid[c + o].kind == Kind::resident;
      return n;
    };
    seen.reset();
    bool extension = false;
    for (int r : d.residents) {
      if (residents_beside(r) > 1) continue;  // not a line end
      for (int o : kOrth) {
        const int n = r + o;
        if (empty_city(d, n) && !seen[n] && residents_beside(n) == 1) {
          seen[n] = true;
          extension = true;
          add_cell(out, Piece::resident, Colour::grey, false, n);
        }
      }
    }
    if (!extension) {
      // A new line: beside palaces, or anywhere.
      for (int c = 0; c < kCells; ++c) {
        if (near[c] && residents_beside(c) == 0) add_cell(out, Piece::resident, Colour::grey, false, c);
      }
      for (int i = 0; i < 4; ++i) {
        add_cell(out, Piece::resident, Colour::grey, false,
                 cell(static_cast<int>(rng.below(kWidth)), static_cast<int>(rng.below(kHeight))));
      }
    }
  }
  if (seat.stock.walls > 0) {
    for (int a = 0; a < kArms; ++a) {
      const int c = arm_next(d, a);
      if (c >= 0) add_cell(out, Piece::wall, Colour::grey, false, c);
    }
  }
  return out;
}

// The policy's choice: the best valued candidate that the rules allow (noise from `rng` when given).
std::optional<Placement> choose(const MedinaState& s, int p, Rng& rng, double noise) {
  const Board b(s);
  auto cands = gather(b, p, rng);
  std::vector<Scored> scored;
  scored.reserve(cands.size());
  for (const auto& c : cands) {
    scored.push_back({c, b.value(p, c) + (noise > 0 ? noise * static_cast<double>(rng.below(1000)) / 1000.0 : 0.0)});
  }
  std::sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& c) { return a.value > c.value; });
  for (const auto& sc : scored) {
    if (!s.check_rules(p, sc.p, nullptr)) return sc.p;
  }
  return std::nullopt;
}

std::optional<Placement> placement_from(const Json& a) {
  if (!a.is_object() || !a.contains("piece")) return std::nullopt;
  const auto piece = piece_from_name(a.at("piece").get<std::string>());
  if (!piece) return std::nullopt;
  Placement p;
  p.piece = *piece;
  if (a.contains("colour")) p.colour = colour_of(a.at("colour"));
  p.blocking = a.contains("dome") && a.at("dome") == "blocking";
  p.x = a.at("x").get<int>();
  p.y = a.at("y").get<int>();
  return p;
}

class MedinaBot final : public bot::GameBot {
 public:
  // Medina has no chance after the setup (the start player): the stocks are known from the start, only screened.
  std::unique_ptr<State> reseed(const State& state, Seed) const override { return state.clone(); }

  std::unique_ptr<State> sample(const Json& view, int seat, Rng& rng) const override {
    const int players = view.at("players").get<int>();
    auto state = std::make_unique<MedinaState>(players, rng.next());
    Data& d = state->data_for_testing();
    const bool two = players == 2;
    d.phase = phase_from(view.at("phase").get<std::string>());
    d.start_player = view.at("start_player").get<int>();
    d.active = view.at("active").is_null() ? d.active : view.at("active").get<int>();
    d.turn = view.at("turn").get<int>();
    d.quota = view.at("pieces").get<int>();
    d.placed = view.at("placed").get<int>();
    d.version = view.at("version").get<std::uint64_t>();
    d.colours_placed = 0;
    for (const auto& c : view.at("placed_colours")) d.colours_placed |= static_cast<std::uint8_t>(1u << static_cast<int>(colour_of(c)));
    d.domes_placed = 0;
    for (const auto& k : view.at("placed_domes")) d.domes_placed |= static_cast<std::uint8_t>(k == "blocking" ? 2 : 1);
    // Whether a dome was among this turn's pieces is not in a 3-4 player view; it matters only to the
    // forced-dome rule, after the turn's first piece. Most first pieces are not domes.
    d.dome_placed = two && d.domes_placed != 0;

    d.palaces.clear();
    for (const auto& pj : view.at("palaces")) {
      Palace pal;
      pal.colour = colour_of(pj.at("colour"));
      const auto idx = static_cast<std::int16_t>(d.palaces.size());
      for (const auto& xy : pj.at("pieces")) {
        const int c = cell_of(xy);
        pal.pieces.push_back(c);
        d.grid[c] = {Kind::palace, static_cast<std::int8_t>(pal.colour), idx, -1};
      }
      for (const auto& xy : pj.at("stables")) {
        const int c = cell_of(xy);
        pal.stables.push_back(c);
        d.grid[c] = {Kind::stable, -1, idx, -1};
      }
      const auto& status = pj.at("status");
      if (status == "claimed") {
        pal.owner = pj.at("owner").get<int>();
        pal.dome = cell_of(pj.at("dome"));
        pal.blocking = pj.at("blocking").get<bool>();
      }
      pal.completed = status == "completed";
      for (const auto& t : pj.at("towers")) pal.connected[t.get<int>() - 1] = true;
      d.current[static_cast<int>(pal.colour)] = idx;
      d.palaces.push_back(std::move(pal));
    }
    d.residents.clear();
    for (const auto& xy : view.at("residents")) {
      const int c = cell_of(xy);
      d.grid[c] = {Kind::resident, -1, -1, -1};
      d.residents.push_back(c);
    }
    d.walls.clear();
    const auto& arm_views = view.at("arms");
    for (int a = 0; a < kArms; ++a) {
      const Arm& arm = arms()[a];
      d.arm_length[a] = arm_views.at(a).at("length").get<int>();
      for (int i = 0; i < d.arm_length[a]; ++i) {
        const int c = cell(arm.start_x + arm.dx * i, arm.start_y + arm.dy * i);
        d.grid[c] = {Kind::wall, -1, -1, static_cast<std::int8_t>(arm.tower)};
        d.walls.push_back(c);
      }
    }
    d.closed.fill(false);
    for (const auto& c : view.at("closed")) d.closed[static_cast<int>(colour_of(c))] = true;
    for (int c = 0; c < kColours; ++c) {
      const auto& h = view.at("palace_tiles").at(colour_name(static_cast<Colour>(c)));
      d.palace_tile[c] = h.is_null() ? -1 : h.get<int>();
    }
    for (int t = 0; t < kTowers; ++t) {
      const auto& h = view.at("tower_tiles").at(t);
      d.tower_tile[t] = h.is_null() ? -1 : h.get<int>();
    }

    // Seats: domes are public, stocks where shown.
    std::vector<int> hidden;
    for (int p = 0; p < players; ++p) {
      const auto& sv = view.at("seats").at(p);
      Seat& st = d.seats[p];
      st.stock_public = sv.at("stock_public").get<bool>();
      if (two) {
        const auto& domes = sv.at("domes");
        st.scoring.fill(false);
        st.blocking.fill(false);
        st.removed.fill(false);
        for (const auto& c : domes.at("scoring")) st.scoring[static_cast<int>(colour_of(c))] = true;
        for (const auto& c : domes.at("blocking")) st.blocking[static_cast<int>(colour_of(c))] = true;
        for (const auto& c : domes.at("removed")) st.removed[static_cast<int>(colour_of(c))] = true;
      } else {
        st.domes = sv.at("domes").get<int>();
      }
      if (sv.at("stock").is_null()) {
        hidden.push_back(p);
        st.stock = Stock{};
      } else {
        st.stock = stock_from(sv.at("stock"));
      }
    }
    // The engine never leaves a player to move who cannot place: deal again until the mover can.
    const bool hidden_mover = d.phase == Phase::play && std::find(hidden.begin(), hidden.end(), d.active) != hidden.end();
    for (int attempt = 0; !hidden.empty() && attempt < 16; ++attempt) {
      for (int q : hidden) d.seats[q].stock = Stock{};
      deal_hidden(d, hidden, rng);
      if (!hidden_mover || state->can_place_any(d.active)) break;
    }
    (void)seat;
    return state;
  }

  // Deals the pieces still behind screens among the `hidden` stocks.
  static void deal_hidden(Data& d, const std::vector<int>& hidden, Rng& rng) {
    const int n = d.players;
    Stock k = starting_stock(n);
    std::array<int, kTypes> start{};
    for (int t = 0; t < kTypes; ++t) start[t] = count_of(k, t);
    // In the game, minus on the board, minus in the stocks shown.
    std::array<int, kTypes> pool{};
    for (int t = 0; t < kTypes; ++t) pool[t] = n * start[t];
    for (const Palace& pal : d.palaces) {
      pool[static_cast<int>(pal.colour)] -= static_cast<int>(pal.pieces.size());
      pool[kStable] -= static_cast<int>(pal.stables.size());
    }
    pool[kResident] -= static_cast<int>(d.residents.size()) - (d.phase == Phase::setup ? 0 : 1);
    pool[kWall] -= static_cast<int>(d.walls.size());
    for (int p = 0; p < n; ++p) {
      if (std::find(hidden.begin(), hidden.end(), p) != hidden.end()) continue;
      for (int t = 0; t < kTypes; ++t) pool[t] -= count_of(d.seats[p].stock, t);
    }
    int closed = 0;
    for (int c = 0; c < kColours; ++c) {
      if (d.closed[c]) {
        pool[c] = 0;  // left every stock
        ++closed;
      }
    }
    for (int t = 0; t < kTypes; ++t) pool[t] = std::max(0, pool[t]);
    const int pool_total = std::accumulate(pool.begin(), pool.end(), 0);

    // A screened stock has placed every turn's full count; of those pieces, the ones of closed colours
    // (and what such colours took from it at closing) are not told apart: `extra` shares that slack.
    int open_start = 0;
    for (int t = 0; t < kTypes; ++t) open_start += (t < kColours && d.closed[t]) ? 0 : start[t];
    std::vector<int> size(hidden.size()), cap(hidden.size());
    int base_total = 0;
    for (std::size_t h = 0; h < hidden.size(); ++h) {
      const int q = hidden[h];
      int placed = 0;
      const int last = d.phase == Phase::setup ? 0 : d.turn;
      for (int t = 1; t <= last; ++t) {
        if (player_of_turn(d, t) != q) continue;
        placed += (t == d.turn && d.phase == Phase::play) ? d.placed : MedinaState::quota_for_turn(n, t);
      }
      for (const Palace& pal : d.palaces) placed -= pal.owner == q;  // domes are not in the stock
      placed = std::max(0, placed);
      size[h] = std::max(0, open_start - placed);
      cap[h] = std::min(placed, closed * k.palaces[0]);
      base_total += size[h];
    }
    int extra = pool_total - base_total;
    while (extra > 0) {
      std::vector<int> open;
      for (std::size_t h = 0; h < hidden.size(); ++h) {
        if (cap[h] > 0) open.push_back(static_cast<int>(h));
      }
      const int h = open.empty() ? static_cast<int>(rng.below(hidden.size())) : open[rng.below(open.size())];
      ++size[h];
      --cap[h];
      --extra;
    }
    while (extra < 0) {  // not expected: fewer pieces left than the turns imply
      const int h = static_cast<int>(rng.below(hidden.size()));
      if (size[h] > 0) {
        --size[h];
        ++extra;
      } else if (std::all_of(size.begin(), size.end(), [](int v) { return v == 0; })) {
        break;
      }
    }
    // Deal piece by piece, each to a stock with room, at most its starting count of a type where possible.
    std::vector<int> pieces;
    pieces.reserve(static_cast<std::size_t>(pool_total));
    for (int t = 0; t < kTypes; ++t) pieces.insert(pieces.end(), static_cast<std::size_t>(pool[t]), t);
    rng.shuffle(pieces);
    std::vector<int> room = size;
    std::vector<int> fits;
    for (int t : pieces) {
      fits.clear();
      for (std::size_t h = 0; h < hidden.size(); ++h) {
        if (room[h] > 0 && count_of(d.seats[hidden[h]].stock, t) < start[t]) fits.push_back(static_cast<int>(h));
      }
      if (fits.empty()) {
        for (std::size_t h = 0; h < hidden.size(); ++h) {
          if (room[h] > 0) fits.push_back(static_cast<int>(h));
        }
      }
      const int h = fits.empty() ? static_cast<int>(rng.below(hidden.size())) : fits[rng.below(fits.size())];
      --room[h];
      ++count_of(d.seats[hidden[h]].stock, t);
    }
  }

  std::vector<double> estimate(const State& state) const override {
    const auto& s = static_cast<const MedinaState&>(state);
    const Data& d = s.data();
    std::vector<double> out(d.players);
    for (int p = 0; p < d.players; ++p) out[p] = s.score(p).total;
    if (d.phase == Phase::over) return out;
    const Board b(s);
    // Unclaimed palaces go, most likely, to the next players in turn who may claim them.
    std::vector<int> order;
    const bool more_now = d.placed < d.quota;
    for (int k = more_now ? 0 : 1; static_cast<int>(order.size()) < d.players; ++k) order.push_back((d.active + k) % d.players);
    for (std::size_t i = 0; i < d.palaces.size(); ++i) {
      const Palace& pal = d.palaces[i];
      if (pal.claimed()) continue;
      const int c = static_cast<int>(pal.colour);
      const double worth = 0.7 * b.points[i] + 0.3 * palace_tile_value(pal.colour);
      double share = 0.6;
      for (int p : order) {
        if (!b.may_claim[p][c]) continue;
        out[p] += share * worth;
        share *= 0.4;
      }
    }
    for (int p = 0; p < d.players; ++p) {
      const Seat& seat = d.seats[p];
      bool owns = false;
      for (const Palace& pal : d.palaces) owns = owns || (pal.owner == p && !pal.blocking);
      const int extras = seat.stock.stables + seat.stock.residents + seat.stock.walls;
      out[p] += (owns ? 0.25 : 0.1) * std::min(extras, 8);
      int domes = seat.domes;
      if (b.two) domes = static_cast<int>(std::count(seat.scoring.begin(), seat.scoring.end(), true));
      out[p] += 0.8 * std::min(domes, 1 + b.free_squares / 6);
    }
    return out;
  }

  double margin_scale(int players) const override { return players == 2 ? 6.0 : 5.0; }

  Json quick_action(const State& state, int player, Rng& rng) const override {
    const auto& s = static_cast<const MedinaState&>(state);
    if (auto p = choose(s, player, rng, 0.6)) return MedinaState::action_json(*p, s.two_player());
    const auto legal = s.legal_actions(player);
    return legal[rng.below(legal.size())];
  }

  std::vector<Json> candidates(const State& state, int seat, const std::vector<Json>& legal) const override {
    const auto& s = static_cast<const MedinaState&>(state);
    if (s.data().phase != Phase::play || legal.size() <= kKeep) return legal;
    const Board b(s);
    std::vector<std::pair<double, int>> scored;
    scored.reserve(legal.size());
    std::vector<int> dome_seen;  // a dome on any piece of a palace is the same claim: keep one
    for (std::size_t i = 0; i < legal.size(); ++i) {
      const auto p = placement_from(legal[i]);
      if (p && p->piece == Piece::dome) {
        const int key = s.data().grid[cell(p->x, p->y)].palace * 2 + p->blocking;
        if (std::find(dome_seen.begin(), dome_seen.end(), key) != dome_seen.end()) continue;
        dome_seen.push_back(key);
      }
      scored.emplace_back(p ? b.value(seat, *p) : -1000.0, static_cast<int>(i));
    }
    std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& c) { return a.first > c.first; });
    std::vector<bool> keep(legal.size(), false);
    std::size_t kept = 0;
    // The best few of each kind of piece, then the best overall.
    std::array<int, 5> per_piece{};
    for (const auto& [v, i] : scored) {
      const auto p = placement_from(legal[i]);
      const int piece = p ? static_cast<int>(p->piece) : 0;
      if (per_piece[piece] < 2) {
        ++per_piece[piece];
        keep[i] = true;
        ++kept;
      }
    }
    for (const auto& [v, i] : scored) {
      if (kept >= kKeep) break;
      if (!keep[i]) {
        keep[i] = true;
        ++kept;
      }
    }
    Rng rng(s.data().version * 2654435761u + static_cast<std::uint64_t>(seat));
    if (auto q = choose(s, seat, rng, 0.0)) {
      const Json quick = MedinaState::action_json(*q, s.two_player());
      for (std::size_t i = 0; i < legal.size(); ++i) {
        if (legal[i] == quick) keep[i] = true;
      }
    }
    std::vector<Json> out;
    for (std::size_t i = 0; i < legal.size(); ++i) {
      if (keep[i]) out.push_back(legal[i]);
    }
    return out;
  }

  // Playouts run to the end: the greedy policy is cheap enough for whole games, and a truncated
  // estimate judged the slow gains (palaces that grow, domes kept for later) poorly.
  bot::Budget normal_budget(int players) const override { return {players <= 3 ? 200 : 160, 0}; }

 private:
  static constexpr std::size_t kKeep = 12;
};

}  // namespace

const bot::GameBot& bot() {
  static const MedinaBot instance;
  return instance;
}

}  // namespace emporium::engine::medina
