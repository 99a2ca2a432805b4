#pragma once
// Merkator (Uwe Rosenberg), 2 to 4 players. Spec: docs/rules/merkator.md. Components: the data file
// (catalog.hpp), nothing is hard-coded.
//
// A map of major locations (a colour, two goods) and minor ones (a restock number), joined by roads; each
// location gains or costs time. A turn: 1. investment (sell contracts for their value, forced down to 5 when
// holding 6+; buy face-up bonus cards and buildings, refilled at once; at most 15 coins kept), 2. travel
// anywhere (pay time, or gain counters from the time chart; take the cubes there and split them between the
// colour's two goods; bonus cards give goods; restock by roads or by the minor's number; a counter emptying a
// chart row is turned: every player loses goods from the column its letter names, a single letter may be
// swapped for the next row's first), 3. fulfil contracts at the pawn's location (4-for-1 trades of goods or
// time to fill gaps; keep the contract, take one of the next value), 4. the others may join, clockwise,
// paying time to the active player: their bonus cards give 1 good, and they fulfil contracts there.
// The Peace of Westphalia (for a 10) or the chart's last counter starts a final round. Scoring: the 5 best
// contracts at value, the rest at half; buildings by formula; ties go to time, then are shared.
//
// Options: none. Hidden information (from everyone): the order of every pile (contract piles below their top
// card, the discards, the bonus and building draw piles) and the letters of unrevealed time counters.
// Everything else is public, so every event is public.
//
// Actions (JSON), one small decision each; the decider is to_move():
//   {"type":"supply","good":G}          any decision: a supply-tile cube onto the office board as good G
//   {"type":"sell","contract":ID} {"type":"buy","card":ID} {"type":"end_investment"}      investment
//   {"type":"travel","location":L}                                                        travel
//   {"type":"take","good":G,"count":N}  N of the cubes taken become G, the rest the colour's other good
//   {"type":"keep_letter"} {"type":"next_letter"}      a single letter turned: keep it or use the next row's
//   {"type":"discard","good":G}         goods loss, one good at a time, when the player has a choice
//   {"type":"trade","give":G|"time","good":G} {"type":"fulfil","contract":ID} {"type":"done"}   contracts
//   {"type":"join"} {"type":"decline"}                                                     joining
// Specific error codes: not_held, last_contract, must_sell, not_on_display, not_enough_coins,
// not_enough_time, supply_empty, bad_split, wrong_destination, already_fulfilled, missing_goods,
// trade_not_needed, not_enough_to_trade, no_choice (a loss discard of a good not in the column or not held).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "emporium/engine/game_info.hpp"
#include "emporium/engine/game_state.hpp"
#include "emporium/engine/rng.hpp"
#include "emporium/engine/state.hpp"
#include "merkator/catalog.hpp"

namespace emporium::engine::merkator {

inline constexpr int kTradeRate = 4;  // goods (or time) given for one good of another colour

enum class Phase : std::uint8_t { investment, travel, take, letter, loss, contracts, joining, over };
const char* phase_name(Phase p);

struct Seat {
  std::vector<int> goods;       // per good: cubes on the office board
  std::vector<int> supply;      // per colour: cubes on the supply tile
  std::vector<int> contracts;   // contract indices, in the order gained
  std::vector<int> fulfilled;   // contracts fulfilled this turn (each at most once per turn)
  std::vector<int> bonus;       // bonus card indices
  std::vector<int> buildings;   // building indices
  int coins = 0;
  int time = 0;
  bool operator==(const Seat&) const = default;
};

struct Counter {
  int letter = 0;      // index into catalog.time_chart
  bool known = false;  // shown to everyone (turned for the "next row" option, then put back face down)
  bool operator==(const Counter&) const = default;
};

struct Data {
  std::shared_ptr<const Catalog> catalog;
  int players = 0;
  Phase phase = Phase::investment;
  int start_player = 0;
  int active = 0;
  int decider = 0;              // the one player to move
  int turn = 0;
  int location = -1;            // the pawn; -1 before the first trip
  std::vector<int> cubes;       // per location
  std::vector<std::vector<Counter>> chart;  // rows, top first; each row's counters left to right
  std::vector<std::vector<int>> piles;      // per value index: the face-up pile, back() on top
  std::vector<int> discards;                // sold contracts, kept in catalog order (their order is hidden)
  std::vector<int> bonus_pile, building_pile;        // back() is drawn next
  std::vector<int> bonus_display, building_display;
  std::vector<Seat> seats;
  // travel in progress
  int take_cubes = 0;           // take: cubes of the location's colour to split
  int gain_left = 0;            // time counters still to gain on this trip
  int letter = -1;              // the letter in play (catalog.time_chart index), -1 none
  int next_row = -1;            // letter: the row whose first counter the "next" option would turn
  std::vector<int> loss_need;   // loss: goods each player still has to return
  int loss_column = -1;
  int joiner_step = 0;          // joining: 1..players-1, the seat after the active player asked now
  // end
  std::string trigger;          // "", "peace" or "chart"
  bool last_round = false;
  int turns_left = 0;           // last round: turns still to begin
  Json scoring;                 // the final breakdown, null before
  Rng rng;
  std::uint64_t version = 0;

  bool operator==(const Data&) const = default;
};

// Scoring, pure over a game's data, with the office boards given (`goods` per player, or one player's): what the
// final scoring counts, and what the bot estimates with.
int building_points_with(const Data& d, int building, int player, const std::vector<std::vector<int>>& goods);
int measure_with(const Data& d, const Measure& m, int player, const std::vector<int>& goods);

class MerkatorState final : public GameState<MerkatorState, Data> {
 public:
  MerkatorState(std::shared_ptr<const Catalog> catalog, int players, Seed seed);

  const GameInfo& info() const override;
  bool is_over() const override { return d_.phase == Phase::over; }
  std::vector<int> to_move() const override;
  std::vector<Json> game_legal_actions(int player) const override;
  Json view(const Viewer& viewer) const override;
  Json result() const override;

  const Catalog& catalog() const { return *d_.catalog; }

  // Derived facts, public for tests.
  int join_cost(int location) const;
  int chart_remaining() const;
  // Building points of one building for `player` as the board stands (no supply-tile moves).
  int building_points(int building, int player) const;
  int measure(const Measure& m, int player) const;
  // Whether `contract` could be fulfilled by `player` with trades (goods and time only, not the supply tile).
  bool fulfillable_with_trades(int player, int contract) const;

 private:
  friend GameState;
  enum class Act : std::uint8_t {
    supply, sell, buy, end_investment, travel, take, keep_letter, next_letter, discard, trade, fulfil, done, join,
    decline
  };
  struct Parsed {
    Act act = Act::done;
    int good = -1;       // supply, take, discard, trade (the good got)
    int give = -1;       // trade: a good, or -2 for time
    int id = -1;         // contract, card (bonus: index; building: bonus_count + index), location
    long long count = 0; // take
  };
  std::optional<Error> parse(const Json& action, Parsed* out) const;
  const char* check_rules(int player, const Parsed& a, Error* error) const;
  std::vector<Event> play(int player, const Parsed& a);
  // Undo: the steps of a turn until something is drawn or turned over (a pile's card, a time counter); never an
  // answer to another's trip.
  bool could_take_back(int, const Parsed& a) const { return a.act != Act::join && a.act != Act::decline; }
  bool may_take_back(int player, const Parsed& a, const Data& before) const;
  Json action_json(const Parsed& a) const;

  // flow
  void start_turn(int player, std::vector<Event>& ev);
  void after_take(std::vector<Event>& ev);
  void continue_gain(std::vector<Event>& ev);
  // Both return false when a player must now choose which goods to return (the loss phase).
  bool resolve_loss(int letter, std::vector<Event>& ev);
  bool process_loss(std::vector<Event>& ev);
  void enter_contracts(int player, std::vector<Event>& ev);
  void after_contracts(std::vector<Event>& ev);
  void ask_next_joiner(std::vector<Event>& ev);
  void end_turn(std::vector<Event>& ev);
  void finish(std::vector<Event>& ev);
  void trigger_end(const char* why, int player, std::vector<Event>& ev);
  void gain_contract(int player, int fulfilled, std::vector<Event>& ev);
  void give_bonus_goods(int player, bool joiner, std::vector<Event>& ev);
  bool has_eligible_contract(int player) const;
  int column_total(int player, int column) const;
  int column_kinds(int player, int column) const;

  Json goods_json(const std::vector<int>& counts) const;
  Json ids_json(const std::vector<int>& contracts) const;
  Json seat_json(int p) const;
  // final scoring
  std::vector<int> final_goods(int player) const;  // office board after the best supply-tile assignment
};

GameInfo game_info();

}  // namespace emporium::engine::merkator
