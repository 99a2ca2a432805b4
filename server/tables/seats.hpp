#pragma once
// A table's seats: who holds each one (a person, a bot, a bot standing in for a person, or nobody yet while it is
// kept for someone) and the rules over them that need no strand, no clock and no store: unique names, the first
// person, free seats, what the store keeps, the renumbering at the start. A pure unit: the room owns the seats and
// says when something changes.
#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <emporium/engine/bot.hpp>
#include <emporium/protocol/protocol.hpp>

#include "store/states.hpp"
#include "store/store.hpp"

namespace emporium::server {

class Member;

struct Seat {
  std::string name{};
  std::string token_hash{};  // hash_token of the seat's token (a bot's token is never handed out)
  std::weak_ptr<Member> member{};  // the person's connection to the table, while connected
  std::optional<engine::bot::Level> bot{};
  StandIn stand_in = StandIn::none;  // why a bot plays the seat of the person who held it during the game
  // When the person's connection went (or the server restarted); unset while connected.
  std::optional<std::chrono::steady_clock::time_point> away_since{};
  // A rematch's seat kept for a person of the finished table (their token's hash there); it has no token yet.
  std::string reserved_for{};
  // The account the seat is played for (StoredSeat::account), and on a rated table its rating as last read.
  std::string account{};
  std::optional<protocol::SeatRating> rating{};
  // Unix seconds: when the account's vacation ends, as last read or told (past once it has; Room::on_vacation).
  std::optional<long long> vacation_until{};

  bool occupied() const { return !token_hash.empty(); }  // a person or a bot holds it
  bool reserved() const { return !reserved_for.empty(); }
  bool taken() const { return occupied() || reserved(); }  // nobody else may sit here
  bool is_person() const { return occupied() && !bot; }
  // A bot keeps the seat for a person who may take it back (away, or out of time too often).
  bool held_for_person() const { return bot && keeps_seat_for_person(stand_in); }
  bool connected() const { return !member.expired(); }
};

class Seats {
 public:
  Seats() = default;
  explicit Seats(std::size_t count) : seats_(count) {}
  // The seats as the store kept them, `players` of them. Nobody is connected yet: a person's absence counts from
  // `now`.
  static Seats from_stored(int players, const std::vector<StoredSeat>& stored,
                           std::chrono::steady_clock::time_point now);

  std::size_t size() const { return seats_.size(); }
  Seat& operator[](std::size_t seat) { return seats_[seat]; }
  const Seat& operator[](std::size_t seat) const { return seats_[seat]; }
  auto begin() { return seats_.begin(); }
  auto end() { return seats_.end(); }
  auto begin() const { return seats_.begin(); }
  auto end() const { return seats_.end(); }
  bool has(int seat) const { return seat >= 0 && seat < static_cast<int>(seats_.size()); }

  int of(const Member* member) const;  // the seat `member` holds, or -1
  int of_token(const std::string& token_hash) const;  // the seat whose token has this hash, or -1
  int seated() const;        // people and bots (not kept seats)
  int first_person() const;  // the lowest seat a person holds, or -1
  int first_free() const;    // the lowest seat nobody has taken, or -1
  bool any_bot() const;
  bool any_person_connected() const;
  bool any_connected() const;
  // `name`, or "name (2)", "name (3)", ...: no two seats at a table show the same name (ignoring ASCII case).
  std::string unique_name(const std::string& name) const;
  // "Bot 1", "Bot 2", ...: the lowest number no bot at the table has.
  std::string next_bot_name() const;

  // What the store keeps: the taken seats.
  std::vector<StoredSeat> stored() const;
  // At the start empty seats are dropped (a kept seat nobody claimed counts as empty): the seats held, renumbered
  // in seat order, and the new number of seat `creator`.
  struct Renumbered;
  Renumbered without_empty(int creator) const;

 private:
  std::vector<Seat> seats_;
};

struct Seats::Renumbered {
  Seats seats;
  int creator = 0;
};

}  // namespace emporium::server
