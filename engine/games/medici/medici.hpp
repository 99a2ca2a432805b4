#pragma once
// Medici (Reiner Knizia), 2 to 6 players. Spec: docs/rules/medici.md.
//
// Three days. Each day a bag of 18/24/30/36 goods tiles (2-3/4/5/6 players) is drawn from the 36
// (the rest removed unseen). On a turn the active player draws 1-3 tiles one at a time (never more
// than the largest free space of any player still in the day), then everyone still in the day bids
// once, clockwise from the active player's left and ending with them; the highest bidder pays and
// loads the lot. A full ship is out for the day. The day ends when all ships but one are full (the
// last one fills for free from the bag), when the bag is empty, or when every ship is full. Scoring:
// ship value by rank, commodity-track majorities, and 5/10/20 bonuses for markers at 5/6/7.
// Most money after day three wins; ties share the win.
//
// Options: none. Hidden information: the bag's contents and order and the removed tiles.
//
// Actions (JSON): {"type":"draw"} {"type":"stop"} {"type":"bid","amount":N} {"type":"pass"}.
// Specific error codes besides the generic ones: bid_too_low, bid_over_budget, no_room,
// lot_too_large, empty_lot.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "emporium/engine/game_info.hpp"
#include "emporium/engine/game_state.hpp"
#include "emporium/engine/rng.hpp"
#include "emporium/engine/state.hpp"

namespace emporium::engine::medici {

inline constexpr int kTileCount = 36;
inline constexpr int kCommodities = 5;  // cloth, fur, grain, dye, spice; gold is none of them
inline constexpr int kDays = 3;
inline constexpr int kTrackTop = 7;
inline constexpr int kMaxLot = 3;

enum class Commodity : std::uint8_t { cloth, fur, grain, dye, spice, gold };

// Tiles are numbered 0..35: id / 7 is the commodity, id % 7 indexes values {0,1,2,3,4,5,5}; 35 is gold.
using Tile = std::uint8_t;
Commodity commodity_of(Tile t);
int value_of(Tile t);
const char* commodity_name(Commodity c);
// The tile of that commodity and value; `copy` 1 picks the second 5 of a commodity.
Tile make_tile(Commodity c, int value, int copy = 0);
Json tile_json(Tile t);

// A day's ship-value payments by rank (first, second, ...) for this many players.
const std::vector<int>& ship_payments(int players);
// The bonus paid every day for a commodity marker at `position` (5, 10 and 20 at 5, 6 and 7).
int track_bonus(int position);

enum class Phase : std::uint8_t { draw, auction, over };

struct Bid {
  int player = -1;
  int amount = 0;       // 0 for a pass
  bool forced = false;  // passed because no bid was possible
  bool operator==(const Bid&) const = default;
};

// The whole state, as plain values (copyable and comparable).
struct Data {
  int players = 0;
  int capacity = 5;
  int day = 1;
  Phase phase = Phase::draw;
  int start_player = 0;
  int active = 0;
  std::vector<int> money;
  std::vector<std::array<int, kCommodities>> tracks;
  std::vector<std::vector<Tile>> ships;
  std::vector<Tile> bag;        // the next draw is bag.back()
  std::vector<Tile> removed;    // set aside unseen for the day
  std::vector<Tile> discarded;  // lots nobody bought this day (public)
  std::vector<Tile> lot;
  std::vector<int> bid_order;   // the auction's bidders, in order
  std::vector<Bid> bids;        // chances taken so far
  int high_bid = 0;
  int high_bidder = -1;
  std::vector<Json> scorings;   // each finished day's breakdown
  Rng rng;
  std::uint64_t version = 0;

  bool operator==(const Data&) const = default;
};

class MediciState final : public GameState<MediciState, Data> {
 public:
  MediciState(int players, Seed seed);

  const GameInfo& info() const override;
  bool is_over() const override { return d_.phase == Phase::over; }
  std::vector<int> to_move() const override;
  std::vector<Json> game_legal_actions(int player) const override;
  Json view(const Viewer& viewer) const override;
  Json result() const override;

  // For scripted tests and puzzles: replace the upcoming draws (first element drawn first). The
  // tiles not named, not on ships, in the lot or discarded become the removed tiles.
  void rig_bag(const std::vector<Tile>& draws_in_order);

  // Derived facts, public for tests and views.
  int free_spaces(int player) const;
  bool in_day(int player) const { return free_spaces(player) > 0; }
  int lot_limit() const;  // how large the current lot may grow
  int current_bidder() const;  // -1 outside an auction

 private:
  friend GameState;
  enum class Act : std::uint8_t { draw, stop, bid, pass };
  struct Parsed {
    Act act = Act::pass;
    long long amount = 0;  // a bid's
  };
  std::optional<Error> parse(const Json& action, Parsed* out) const;
  const char* check_rules(int player, const Parsed& a, Error* error) const;
  std::vector<Event> play(int player, const Parsed& a);
  // Undo: never. A draw takes a tile from the bag; a bid, a pass or stopping hands the decision to another.
  bool could_take_back(int, const Parsed&) const { return false; }
  bool may_take_back(int, const Parsed&, const Data&) const { return false; }
  void start_day(std::vector<Event>& events);
  void start_auction(std::vector<Event>& events);
  void skip_forced_passes(std::vector<Event>& events);
  void finish_auction(std::vector<Event>& events);
  void end_day(std::vector<Event>& events);
  Json auction_json() const;

};

GameInfo game_info();

}  // namespace emporium::engine::medici
