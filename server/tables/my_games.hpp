#pragma once
// my_games: what the seats a client holds tokens for are, without joining anything. The directory looks each token
// up (TableDirectory::my_games); a room in memory describes its seat on its own strand (Room::describe), a table
// not in memory is described from the store.
#include <optional>
#include <string>
#include <vector>

#include <emporium/protocol/protocol.hpp>

#include "store/store.hpp"

namespace emporium::server {

// What my_games tells of the seat the token hashed to `token_hash` holds at `table` (nothing when it holds none
// there, e.g. a seat its person left): who sits where and the result, never anything of a view. `to_move`: the
// seats whose decision it is; `clock`: a timed game's running decision and its time left (games in progress sort
// by it). The answer's `token` is the hash: the caller puts the token itself in.
std::optional<protocol::MyGame> describe_seat(const StoredTable& table, const std::string& token_hash,
                                              const std::vector<int>& to_move,
                                              std::optional<protocol::MyGame::Clock> clock = std::nullopt);

}  // namespace emporium::server
