#pragma once
#include <string>

namespace emporium::engine {

// A rejected request: a stable machine-readable code and a sentence for people.
// Codes used by every game (games may add more specific ones, documented in their folder):
//   malformed_action  the action is not of a shape the game knows
//   not_your_turn     the player may not decide now
//   illegal_action    well formed and in turn, but the rules forbid it
//   game_over         the game has ended
//   undo_not_allowed  an undo when there is nothing of the player's to take back, or undo is off
//   bad_options / bad_player_count / unknown_game   when creating a game
//   game_unavailable  the game exists but cannot be created now (its data is not loaded)
struct Error {
  std::string code;
  std::string message;

  bool operator==(const Error&) const = default;
};

namespace errc {
inline constexpr const char* malformed_action = "malformed_action";
inline constexpr const char* not_your_turn = "not_your_turn";
inline constexpr const char* illegal_action = "illegal_action";
inline constexpr const char* game_over = "game_over";
inline constexpr const char* bad_options = "bad_options";
inline constexpr const char* bad_player_count = "bad_player_count";
inline constexpr const char* unknown_game = "unknown_game";
inline constexpr const char* game_unavailable = "game_unavailable";
inline constexpr const char* undo_not_allowed = "undo_not_allowed";
}  // namespace errc

Error make_error(const char* code, std::string message);

// A refusal by a game's rules: its code, and the full error only when `error` is given (legal_actions asks
// the same rules without wanting messages, so `message()` builds the sentence only when it is needed).
template <class Message>
const char* refuse(Error* error, const char* code, Message&& message) {
  if (error) *error = make_error(code, std::string(message()));
  return code;
}

}  // namespace emporium::engine
