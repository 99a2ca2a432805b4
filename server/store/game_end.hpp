#pragma once
// A game's end for its people's accounts (store.hpp GameEnd), written by both stores inside the transaction that
// stores the game's last action (docs/ratings.md "Exactly once"): that action's primary key makes the transaction
// happen once, and so everything written here.
#include <string>

#include "store/sql_connection.hpp"
#include "store/store.hpp"

namespace emporium::server {

// Writes each account's result (game_results) and, on a rated table, the rating update (rating_updates, ratings):
// every person's rating read (a missing one is the model's initial rating) and, on PostgreSQL, locked until the
// commit, so that two tables ending at once for one account both count. Nothing is rated, and why is logged, when
// a person's seat has no account, when fewer than two are rated, or when the model refuses the game; it never
// throws for those (the move is stored all the same), only for a failing store.
void store_game_end(SqlConnection& db, const std::string& table, const GameEnd& end, long long now);

// A double as the shortest decimal text that reads back to it, and back (the ratings' columns).
std::string exact_text(double value);
double exact_value(const std::string& text);

}  // namespace emporium::server
