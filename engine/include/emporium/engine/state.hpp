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

// Whether `action` is {"type":"undo"} (State::allow_undo): what the bots, the analysis and the tables leave aside.
bool is_undo(const Json& action);

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
  // Every action `player` may take now, in the action's JSON form; empty when not their turn. The game's
  // actions, and {"type":"undo"} last while the player may take back their last step (see allow_undo).
  std::vector<Json> legal_actions(int player) const;
  // The same list as JSON text, byte for byte what dumping legal_actions gives: what a frame carries.
  std::string legal_actions_json(int player) const;
  // Validates, then applies. An illegal, malformed or out-of-turn action changes nothing. The checks run in
  // this order, the same for every game: game_over once the game has ended; malformed_action for an action
  // the game cannot read (whoever sends it); not_your_turn; then the game's own rules. {"type":"undo"}
  // takes back the player's last step (undo_not_allowed when it may not).
  ApplyResult apply(int player, const Json& action);

  // Undo (docs/undo.md). Off until asked for: a table that allows it, a record's replay. While on, each step
  // that showed nobody anything but the move itself (nothing drawn, dealt or turned over, nothing told to one
  // player alone, the mover still to move, and whatever the game's own rule adds) may be taken back by its
  // player, one step per undo, back to the first step that was not such a step. An undo is an action of its
  // own: the version keeps growing, and replaying the actions replays it. Turning it off forgets the steps.
  void allow_undo(bool on);
  bool undo_allowed() const { return undo_on_; }
  // Whether `player` may take back a step now.
  bool can_undo(int player) const;
  // The steps so far can no longer be taken back (a bot's move in a person's seat, a table read back).
  void seal_undo() { forget_steps(); }

  // Everything `viewer` may know, and nothing else.
  virtual Json view(const Viewer& viewer) const = 0;
  // Final standings once over (null before): {"ranking":[{player,rank,...}], "winners":[...]}.
  virtual Json result() const = 0;

  // The number of actions applied so far: the state's version.
  virtual std::uint64_t version() const = 0;
  // Value equality of the game, hidden parts included (bag order, PRNG state); not what may be taken back.
  virtual bool equals(const State& other) const = 0;

  bool is_to_move(int player) const;

 protected:
  // The game's part of apply(), called only while the game runs and for an object with a string "type"
  // (GameState writes both from the game's parse, check_rules and play).
  // Why the game cannot read `action` (malformed_action), or nothing when it can.
  virtual std::optional<Error> parse_error(const Json& action) const = 0;
  // Reads `action`, checks it against the rules and applies it, for `player`, who is to move.
  virtual ApplyResult step(int player, const Json& action) = 0;
  // The game's legal actions (without undo), and the same as JSON text (this default dumps them; a game may
  // write the text without building the values).
  virtual std::vector<Json> game_legal_actions(int player) const = 0;
  virtual std::string game_legal_actions_json(int player) const;
  // Undo's part that knows the game's data (GameState writes them): the player whose step would be taken
  // back (-1: none), taking it back, and forgetting every step.
  virtual int last_step_player() const = 0;
  virtual ApplyResult take_back(int player) = 0;
  virtual void forget_steps() = 0;

  bool undo_on_ = false;
};

}  // namespace emporium::engine
