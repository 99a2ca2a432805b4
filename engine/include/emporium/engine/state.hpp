#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "emporium/engine/error.hpp"
#include "emporium/engine/json.hpp"

namespace emporium::engine {

struct GameInfo;

// Who is looking. A player sees their own secrets; a spectator sees only what is public;
// `full` sees everything and is for after the game (and for tests and the game's own record).
struct Viewer {
  enum class Kind { player, spectator, full };
  Kind kind = Kind::spectator;
  int player = -1;

  static Viewer of_player(int p) { return {Kind::player, p}; }
  static Viewer spectator() { return {Kind::spectator, -1}; }
  static Viewer full() { return {Kind::full, -1}; }

  bool is_player(int p) const { return kind == Kind::player && player == p; }
  bool operator==(const Viewer&) const = default;
};

// Something that happened, for logs and animations. Most events are public. A private event
// shows `detail` to one player (and to the full viewer) and `redacted` (possibly null, meaning
// "nothing at all") to everyone else.
struct Event {
  Json detail;
  std::optional<int> only_player;  // empty: everybody sees `detail`
  Json redacted;                   // what the others see when only_player is set

  static Event public_event(Json detail) { return {std::move(detail), std::nullopt, nullptr}; }
  static Event private_event(int player, Json detail, Json redacted) {
    return {std::move(detail), player, std::move(redacted)};
  }

  // The event as `viewer` may see it; null when that viewer sees nothing of it.
  const Json& for_viewer(const Viewer& viewer) const;
};

// The events of one accepted action as one viewer sees them (the nulls dropped).
Json events_for(const std::vector<Event>& events, const Viewer& viewer);
// The same as JSON text, written straight from the events (no copy of them on the way): what a frame carries.
// Strings that are not valid UTF-8 get U+FFFD in place of the bad bytes.
std::string events_json_for(const std::vector<Event>& events, const Viewer& viewer);

// The outcome of apply(): either an error (and the state is untouched) or the events.
struct ApplyResult {
  std::optional<Error> error;
  std::vector<Event> events;

  bool ok() const { return !error.has_value(); }
  static ApplyResult fail(Error e) { return {std::move(e), {}}; }
};

// A game in progress. Deterministic: created from (options, players, seed), changed only by
// apply(). Copies are independent values.
class State {
 public:
  virtual ~State() = default;

  virtual std::unique_ptr<State> clone() const = 0;
  virtual const GameInfo& info() const = 0;
  virtual int num_players() const = 0;

  virtual bool is_over() const = 0;
  // The players whose decision it is now (one in every game so far; empty once over).
  virtual std::vector<int> to_move() const = 0;
  // Every action `player` may take now, in the action's JSON form; empty when not their turn.
  virtual std::vector<Json> legal_actions(int player) const = 0;
  // The same list as JSON text, byte for byte what dumping legal_actions gives: what a frame carries. A game may
  // write it without building the values (this default dumps them).
  virtual std::string legal_actions_json(int player) const;
  // Validates, then applies. An illegal, malformed or out-of-turn action changes nothing. The checks run in
  // this order, the same for every game: game_over once the game has ended; malformed_action for an action
  // the game cannot read (whoever sends it); not_your_turn; then the game's own rules.
  ApplyResult apply(int player, const Json& action);

  // Everything `viewer` may know, and nothing else.
  virtual Json view(const Viewer& viewer) const = 0;
  // Final standings once over (null before): {"ranking":[{player,rank,...}], "winners":[...]}.
  virtual Json result() const = 0;

  // The number of actions applied so far: the state's version.
  virtual std::uint64_t version() const = 0;
  // Value equality, including hidden parts (bag order, PRNG state).
  virtual bool equals(const State& other) const = 0;

  bool is_to_move(int player) const;

 protected:
  // The game's part of apply(), called only while the game runs and for an object with a string "type"
  // (GameState writes both from the game's parse, check_rules and play).
  // Why the game cannot read `action` (malformed_action), or nothing when it can.
  virtual std::optional<Error> parse_error(const Json& action) const = 0;
  // Reads `action`, checks it against the rules and applies it, for `player`, who is to move.
  virtual ApplyResult step(int player, const Json& action) = 0;
};

}  // namespace emporium::engine
