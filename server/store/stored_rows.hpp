#pragma once
// What both stores keep and read the same way (sqlite_store.cpp, postgres_store.cpp): the columns of the tables that
// schema.cpp makes, a table row and a seat row, and the restart's reading of every unfinished table. A row is
// anything that gives a column as text (NULL as "") and as an integer (NULL as 0). The SQL here is the same in both
// dialects.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "store/states.hpp"
#include "store/store.hpp"

namespace emporium::server::stored_rows {

// The columns table() reads, in its order.
inline constexpr const char* kTableColumns =
    "id, game, players, options, seed, private, invite, creator_seat, state, rematch, rematch_of, result, updated_at, "
    "clock, clock_state, salt, finished_at, rated, friends_only, undo";
// The columns seat() reads, in its order.
inline constexpr const char* kSeatColumns = "seat, name, token, bot, stand_in, reserved_for, account";

// A nullable JSON column: NULL (read as "") is null.
inline nlohmann::json json_or_null(const std::string& text) {
  return text.empty() ? nlohmann::json() : nlohmann::json::parse(text);
}

// A state or stand-in column: only the names states.hpp gives are ever written.
inline TableState state_column(const std::string& text) {
  if (const auto state = table_state_named(text)) return *state;
  throw StoreError("a stored table state is not a state: " + text.substr(0, 20));
}
inline StandIn stand_in_column(const std::string& text) {
  if (const auto named = stand_in_named(text)) return *named;
  throw StoreError("a stored stand-in is not a stand-in: " + text.substr(0, 20));
}

template <class Row>
StoredTable table(const Row& r) {
  StoredTable t;
  t.id = r.text(0);
  t.game = r.text(1);
  t.players = static_cast<int>(r.integer(2));
  t.options = nlohmann::json::parse(r.text(3));
  const auto seed = engine::Seed::parse(r.text(4));
  if (!seed) throw StoreError("table " + t.id + ": the stored seed is not a seed");
  t.seed = *seed;
  t.is_private = r.integer(5) != 0;
  t.invite = r.text(6);
  t.creator_seat = static_cast<int>(r.integer(7));
  t.state = state_column(r.text(8));
  t.rematch = json_or_null(r.text(9));
  t.rematch_of = r.text(10);
  t.result = json_or_null(r.text(11));
  t.updated_at = r.integer(12);
  if (const auto clock = r.text(13); !clock.empty()) {
    t.clock = protocol::ClockConfig::from_json(nlohmann::json::parse(clock));
  }
  t.clock_state = json_or_null(r.text(14));
  t.salt = r.text(15);
  t.finished_at = r.integer(16);
  t.rated = r.integer(17) != 0;
  t.friends_only = r.integer(18) != 0;
  t.undo = r.integer(19) != 0;
  return t;
}

// A seat row from column `first` on (kSeatColumns).
template <class Row>
StoredSeat seat(const Row& r, int first) {
  StoredSeat s{static_cast<int>(r.integer(first)), r.text(first + 1), r.text(first + 2), r.text(first + 3),
               stand_in_column(r.text(first + 4)), r.text(first + 5), r.text(first + 6)};
  if (!s.reserved_for.empty()) s.token_hash.clear();  // the placeholder stays in the store
  return s;
}

// What a reserved seat (a rematch's seat kept for someone) stores as its token: the column only has to be unique,
// and ':' is never in a token a client can send.
inline std::string token_column(const std::string& table, const StoredSeat& s) {
  return s.reserved_for.empty() ? s.token_hash : "reserved:" + table + ":" + std::to_string(s.seat);
}

// Store::load_unfinished for both stores: every unfinished table in three reads (not three per table), each table
// handed to `take` as soon as its last action is read, so that a restart replays one while the next is read. The
// store runs the three queries in order, passing each row to table(), seat() and action(), then calls finish().
class UnfinishedTables {
 public:
  using taker = std::function<void(std::size_t place, StoredTable&& table)>;
  explicit UnfinishedTables(const taker& take) : take_(take) {}

  static std::string tables_query() {
    return std::string("SELECT ") + kTableColumns +
           " FROM game_tables WHERE state <> 'finished' ORDER BY created_at, id";
  }
  static constexpr const char* kSeatsQuery =
      "SELECT s.table_id, s.seat, s.name, s.token, s.bot, s.stand_in, s.reserved_for, s.account FROM seats s "
      "JOIN game_tables t ON t.id = s.table_id WHERE t.state <> 'finished' ORDER BY s.table_id, s.seat";
  static constexpr const char* kActionsQuery =
      "SELECT a.table_id, a.player, a.action FROM actions a JOIN game_tables t ON t.id = a.table_id "
      "WHERE t.state <> 'finished' ORDER BY a.table_id, a.idx";

  template <class Row>
  void table(const Row& r) {
    tables_.push_back(stored_rows::table(r));
    place_.emplace(tables_.back().id, tables_.size() - 1);
    handed_.push_back(false);
  }
  template <class Row>
  void seat(const Row& r) {
    tables_[place_.at(r.text(0))].seats.push_back(stored_rows::seat(r, 1));
  }
  template <class Row>
  void action(const Row& r) {
    const std::size_t i = place_.at(r.text(0));
    if (reading_ && *reading_ != i) hand(*reading_);
    reading_ = i;
    tables_[i].action_texts.emplace_back(static_cast<int>(r.integer(1)), r.text(2));
  }
  // Hands over what is left (the last table read, and the tables without actions); returns how many tables.
  std::size_t finish() {
    if (reading_) hand(*reading_);
    for (std::size_t i = 0; i < tables_.size(); ++i) {
      if (!handed_[i]) hand(i);
    }
    return tables_.size();
  }

 private:
  void hand(std::size_t i) {
    handed_[i] = true;
    take_(i, std::move(tables_[i]));
  }

  const taker& take_;
  std::vector<StoredTable> tables_;
  std::vector<bool> handed_;
  std::unordered_map<std::string, std::size_t> place_;
  std::optional<std::size_t> reading_;  // the table whose actions are being read
};

}  // namespace emporium::server::stored_rows
