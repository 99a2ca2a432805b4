#pragma once
// How many correspondence games an account may sit at at once (docs/mail.md "Limits"): a new account a few, more
// as it finishes games (as Board Game Arena does), up to a ceiling. Checked on the store's thread when a signed-in
// person creates or joins a correspondence table.
#include <chrono>
#include <optional>
#include <string>

#include <emporium/protocol/protocol.hpp>

namespace emporium::server {

class PeopleStore;

// A correspondence clock gives at least `correspondence_turn` a move (TablesContext::correspondence_turn): such
// games are limited, mail a low clock, and stop for vacations.
inline bool is_correspondence(const std::optional<protocol::ClockConfig>& clock, std::chrono::seconds correspondence_turn) {
  return clock && clock->turn_s >= correspondence_turn.count();
}

long long correspondence_limit(long long finished_games);

// Why `account` may not take one more correspondence seat (a message for too_many_games); none when it may. A store
// call: throws StoreError.
std::optional<std::string> over_game_limit(PeopleStore& people, const std::string& account,
                                           std::chrono::seconds correspondence_turn);

}  // namespace emporium::server
