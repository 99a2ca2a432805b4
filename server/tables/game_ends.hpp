#pragma once
// What a table's end means for its people's accounts (docs/ratings.md): the GameEnd its last action carries to the
// store; and how a rating is shown at a table. Pure: no strand, no store.
#include <memory>
#include <string>

#include <emporium/protocol/protocol.hpp>
#include <nlohmann/json.hpp>

#include "ratings/ratings.hpp"
#include "store/store.hpp"
#include "tables/seats.hpp"

namespace emporium::server {

// The end of the game at `table` from the engine's `result` ({"ranking":[{"player","rank"},...]}): every seat with
// its rank, account or bot. A person who left, or whose seat a bot holds after three timeouts, is ranked after
// everyone else (tied with any others such). Null when no seat is an account's, or when the result has no ranking
// of every seat (logged): then nothing is kept for the accounts.
std::shared_ptr<const GameEnd> game_end_of(const std::string& table, const std::string& game, const Seats& seats,
                                           const nlohmann::json& result, bool rated, bool is_private);

// A rating as a rated table shows it beside a seat.
protocol::SeatRating seat_rating(const ratings::Rating& rating, bool bot = false);

}  // namespace emporium::server
