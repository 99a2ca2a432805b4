#pragma once
// A table's state and a seat's stand-in, each one enum with the one conversion to and from its name. The names
// are what the store keeps and what the wire carries (the same strings), so nowhere else compares such strings.
#include <optional>
#include <string_view>

namespace emporium::server {

enum class TableState { waiting, playing, finished };

// Why a bot plays a person's seat during a game; none for a person's seat or a bot seated before the start.
enum class StandIn {
  none,
  left,     // the person left the running game: the seat is the bot's to the end
  absent,   // another player handed the seat of a person away too long to a bot (replace_absent)
  timeout,  // the person ran out of time three decisions in a row
};

std::string_view name_of(TableState state);  // "waiting", "playing", "finished"
std::optional<TableState> table_state_named(std::string_view name);

std::string_view name_of(StandIn stand_in);  // "left", "absent", "timeout"; "" for none
std::optional<StandIn> stand_in_named(std::string_view name);  // "" is none

// Whether the bot only keeps the seat for its person, who takes it back by resuming with their token.
inline bool keeps_seat_for_person(StandIn stand_in) {
  return stand_in == StandIn::absent || stand_in == StandIn::timeout;
}

}  // namespace emporium::server
