#include "tables/game_limit.hpp"

#include <algorithm>

#include "store/people_store.hpp"

namespace emporium::server {

long long correspondence_limit(long long finished_games) {
  constexpr long long kNewAccount = 4, kFinishedPerMore = 3, kMost = 30;
  return std::min(kMost, kNewAccount + finished_games / kFinishedPerMore);
}

std::optional<std::string> over_game_limit(PeopleStore& people, const std::string& account,
                                           std::chrono::seconds correspondence_turn) {
  const auto load = people.game_load(account, static_cast<int>(correspondence_turn.count()));
  const auto limit = correspondence_limit(load.finished);
  if (load.correspondence < limit) return std::nullopt;
  return "you play " + std::to_string(load.correspondence) + " correspondence games, the most your account may play at once (" +
         std::to_string(load.finished) + " games finished; every 3 more allow one more): finish one, or choose a shorter clock";
}

}  // namespace emporium::server
