#pragma once
// Maritime Silk Road (Reiner Knizia), 2 to 4 players. Spec: docs/rules/silkroad.md.
//
// 66 goods cards, 11 of each of six goods (porcelain, silk, tea, spice, glass, ore); 30 markers, 5 per
// colour (limited); 14 Ship (10 coins), 2 Exchange (8), 2 Porter (12), 2 License (11) special cards.
// Setup: 3 cards to each hand (secret), 6 face up as the market, the rest is the deck; each player takes
// 2 ships and, from the start player (random) clockwise, loads a marker on the first ship, then again on
// the second. Coins start at 0. A turn: phase 1 is one of exchange (change the colour of a ship's marker
// to another colour from the supply; 1 + one per Porter owned), buy one special card (a Ship is loaded at
// once; a Porter bought now allows one exchange at once) or pass. Phase 2 is one of play one or more cards
// of one good onto market slots of the player's choice, then scoring: n = visible market cards of that
// good, every player earns n x (their ships of that colour), +2 per License when that is > 0; or draw
// 2 cards. Then one optional extra draw per Exchange owned. The game ends at once when the deck's last
// card is drawn. Most coins wins; ties share the win.
//
// Options: none. Hidden information: hands (others see counts), coins and income (only the owner, until
// the end), the deck order (nobody).
//
// Actions (JSON):
//   {"type":"load","good":G}                         setup, one marker per action
//   {"type":"exchange","ship":I,"good":G}            phase 1 (then again while exchanges are left)
//   {"type":"end_phase"}                             phase 1: stop exchanging early
//   {"type":"buy","card":"ship","good":G}            phase 1: buy a Ship and load it with G
//   {"type":"buy","card":"exchange|porter|license"}  phase 1
//   {"type":"pass"}                                  phase 1
//   {"type":"play","good":G,"slot":S}                phase 2, one card at a time, all of one good
//   {"type":"score"}                                 phase 2: stop playing and score
//   {"type":"draw"}                                  phase 2
//   {"type":"extra_draw"} {"type":"done"}            after phase 2, with Exchange cards
// Specific error codes besides the generic ones: marker_unavailable, same_marker, no_such_ship, sold_out,
// not_enough_coins, must_draw, not_in_hand, one_good_per_turn, no_such_slot, nothing_played,
// already_playing.

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

namespace emporium::engine::silkroad {

inline constexpr int kGoods = 6;
inline constexpr int kCardsPerGood = 11;
inline constexpr int kCardCount = kGoods * kCardsPerGood;  // 66
inline constexpr int kMarkersPerColour = 5;
inline constexpr int kMarketSlots = 6;
inline constexpr int kStartingHand = 3;
inline constexpr int kStartingShips = 2;
inline constexpr int kDrawCount = 2;
inline constexpr int kLicenseBonus = 2;
inline constexpr int kCardKinds = 4;

enum class Good : std::uint8_t { porcelain, silk, tea, spice, glass, ore };
enum class Card : std::uint8_t { ship, exchange, porter, license };
inline constexpr Good kAllGoods[kGoods] = {Good::porcelain, Good::silk, Good::tea, Good::spice, Good::glass, Good::ore};
inline constexpr Card kAllCards[kCardKinds] = {Card::ship, Card::exchange, Card::porter, Card::license};
// A good or a card as an index into the arrays that count them.
inline constexpr int gi(Good g) { return static_cast<int>(g); }
inline constexpr int ci(Card c) { return static_cast<int>(c); }
// The action types, in the order of the list above.
enum class Act : std::uint8_t { load, exchange, end_phase, buy, pass, play, score, draw, extra_draw, done };

const char* good_name(Good g);
std::optional<Good> good_from_name(const std::string& name);
const char* card_name(Card c);
std::optional<Card> card_from_name(const std::string& name);
int card_cost(Card c);         // 10, 8, 12, 11
int card_supply(Card c);       // how many exist: 14, 2, 2, 2

// Phase 1 before any decision; "exchanging" is phase 1 after an exchange (or a Porter bought) while
// more exchanges are allowed.
enum class Phase : std::uint8_t { loading, phase1, exchanging, phase2, extra_draws, over };
const char* phase_name(Phase p);

using Counts = std::array<int, kGoods>;  // indexed by Good

struct Seat {
  Counts hand{};              // cards in hand, per good (cards of one good are identical)
  int coins = 0;
  std::vector<Good> ships;    // the marker on each ship, in the order the ships were taken
  int exchanges = 0;          // Exchange cards owned
  int porters = 0;
  int licenses = 0;

  int hand_count() const;
  bool operator==(const Seat&) const = default;
};

// The whole state, as plain values (copyable and comparable).
struct Data {
  int players = 0;
  Phase phase = Phase::loading;
  int start_player = 0;
  int active = 0;                 // the player whose turn it is (after loading)
  int loads = 0;                  // markers loaded during setup so far (0 .. 2 x players)
  int turn = 0;                   // turns begun so far (the start player's first turn is 1)
  std::vector<Seat> seats;
  std::vector<Good> deck;         // the next card drawn is deck.back()
  std::array<std::vector<Good>, kMarketSlots> market;  // each slot bottom to top; only the top counts
  Counts supply{};                // markers of each colour in the general supply
  std::array<int, kCardKinds> stock{};  // special cards left for sale, indexed by Card
  int exchanges_left = 0;         // exchanging: exchanges still allowed this phase 1
  std::optional<Good> played;     // phase 2: the good played this turn
  int played_count = 0;           // phase 2: cards played this turn
  int extra_left = 0;             // extra_draws: Exchange draws still open
  Rng rng;
  std::uint64_t version = 0;

  bool operator==(const Data&) const = default;
};

class SilkRoadState final : public GameState<SilkRoadState, Data> {
 public:
  SilkRoadState(int players, Seed seed);

  const GameInfo& info() const override;
  bool is_over() const override { return d_.phase == Phase::over; }
  std::vector<int> to_move() const override;
  std::vector<Json> game_legal_actions(int player) const override;
  std::string game_legal_actions_json(int player) const override;
  Json view(const Viewer& viewer) const override;
  Json result() const override;

  // For scripted tests: replace the deck (first element drawn first). Card totals are not checked.
  void rig_deck(const std::vector<Good>& draws_in_order);

  // Derived facts, public for tests and views.
  int loader() const;                 // during loading: whose marker is next; -1 otherwise
  int visible(Good g) const;          // market slots showing g on top
  int ships_with(int player, Good g) const;
  Good top(int slot) const { return d_.market[slot].back(); }

 private:
  friend GameState;
  struct Parsed {
    Act act = Act::pass;
    std::optional<Good> good;
    std::optional<Card> card;
    long long index = -1;  // ship or slot
  };
  std::optional<Error> parse(const Json& action, Parsed* out) const;
  // The rules' verdict on a well-formed action by the player to move: nullptr when it is allowed, else the
  // refusal's code (and, when `error` is given, the full error). legal_actions and apply both use it.
  const char* check_rules(int player, const Parsed& a, Error* error) const;
  std::vector<Event> play(int player, const Parsed& a);
  // Undo: the steps of phase 1 and the cards played in phase 2, until a card is drawn or the turn scores.
  bool could_take_back(int player, const Parsed& a) const;
  bool may_take_back(int player, const Parsed& a, const Data& before) const;
  static Json action_json(const Parsed& a);
  // action_json(a) dumped, written directly (the legal list of every move's frame).
  static void append_action_text(std::string& out, const Parsed& a);
  // Calls take(a) for every action the player may take now, in legal_actions' order.
  template <class Take>
  void for_each_legal(int player, Take&& take) const;
  bool can_exchange(int player) const;
  void start_turn(int player, std::vector<Event>& events);
  void enter_phase2(std::vector<Event>& events);
  void after_phase2(std::vector<Event>& events);
  void end_turn(std::vector<Event>& events);
  void score(std::vector<Event>& events);
  Good draw_card(int player);
  void finish(std::vector<Event>& events);

};

GameInfo game_info();

}  // namespace emporium::engine::silkroad
