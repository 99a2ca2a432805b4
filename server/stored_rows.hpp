#pragma once
// What both stores read the same way: a table row and a seat row, from any result whose row gives a column as
// text (NULL as "") and as an integer (NULL as 0). Both stores keep the same columns (sqlite_store.cpp,
// postgres_store.cpp).
#include <string>

#include "store.hpp"

namespace emporium::server::stored_rows {

// The columns table() reads, in its order.
inline constexpr const char* kTableColumns =
    "id, game, players, options, seed, private, invite, creator_seat, state, rematch, rematch_of, result, updated_at, "
    "clock, clock_state, salt, finished_at";
// The columns seat() reads, in its order.
inline constexpr const char* kSeatColumns = "seat, name, token, bot, stand_in, reserved_for";

template <class Row>
StoredTable table(const Row& r) {
  StoredTable t;
  t.id = r.text(0);
  t.game = r.text(1);
  t.players = static_cast<int>(r.integer(2));
  t.options = nlohmann::json::parse(r.text(3));
  const auto seed = engine::Seed::parse(r.text(4));
  if (!seed) throw store_error("table " + t.id + ": the stored seed is not a seed");
  t.seed = *seed;
  t.is_private = r.integer(5) != 0;
  t.invite = r.text(6);
  t.creator_seat = static_cast<int>(r.integer(7));
  t.state = r.text(8);
  if (const auto rematch = r.text(9); !rematch.empty()) t.rematch = nlohmann::json::parse(rematch);
  t.rematch_of = r.text(10);
  if (const auto result = r.text(11); !result.empty()) t.result = nlohmann::json::parse(result);
  t.updated_at = r.integer(12);
  if (const auto clock = r.text(13); !clock.empty()) {
    const nlohmann::json j = nlohmann::json::parse(clock);
    t.clock = protocol::ClockConfig{j.at("turn").get<int>(), j.at("reserve").get<int>()};
  }
  if (const auto state = r.text(14); !state.empty()) t.clock_state = nlohmann::json::parse(state);
  t.salt = r.text(15);
  t.finished_at = r.integer(16);
  return t;
}

// A seat row from column `first` on (kSeatColumns).
template <class Row>
StoredSeat seat(const Row& r, int first) {
  StoredSeat s{static_cast<int>(r.integer(first)), r.text(first + 1), r.text(first + 2), r.text(first + 3),
               r.text(first + 4), r.text(first + 5)};
  if (!s.reserved_for.empty()) s.token_hash.clear();  // the placeholder stays in the store
  return s;
}

// What a reserved seat (a rematch's seat kept for someone) stores as its token: the column only has to be unique,
// and ':' is never in a token a client can send.
inline std::string token_column(const std::string& table, const StoredSeat& s) {
  return s.reserved_for.empty() ? s.token_hash : "reserved:" + table + ":" + std::to_string(s.seat);
}

}  // namespace emporium::server::stored_rows
