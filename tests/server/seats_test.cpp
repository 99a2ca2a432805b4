// A table's seats as a pure unit: names, the first person, free seats, stand-ins, what the store keeps and the
// renumbering at the start.
#include "tables/seats.hpp"

#include <gtest/gtest.h>

#include "store/states.hpp"

namespace emporium::server {
namespace {

using engine::bot::Level;

Seat person(std::string name, std::string token) {
  return Seat{.name = std::move(name), .token_hash = std::move(token)};
}
Seat bot(std::string name, StandIn stand_in = StandIn::none) {
  return Seat{.name = std::move(name), .token_hash = "bot-" + name, .bot = Level::normal, .stand_in = stand_in};
}
Seat kept_for(std::string name, std::string claim) {
  return Seat{.name = std::move(name), .reserved_for = std::move(claim)};
}

TEST(Seats, ASeatIsEmptyKeptOrHeld) {
  EXPECT_FALSE(Seat{}.taken());
  EXPECT_TRUE(kept_for("Ann", "h").taken());
  EXPECT_FALSE(kept_for("Ann", "h").occupied());
  EXPECT_TRUE(person("Ann", "h").is_person());
  EXPECT_FALSE(bot("Bot 1").is_person());
  EXPECT_FALSE(bot("Bot 1").held_for_person());
  EXPECT_FALSE(bot("Ann", StandIn::left).held_for_person());
  EXPECT_TRUE(bot("Ann", StandIn::absent).held_for_person());
  EXPECT_TRUE(bot("Ann", StandIn::timeout).held_for_person());
}

TEST(Seats, NamesAreUniqueIgnoringCase) {
  Seats seats(4);
  seats[0] = person("Ann", "a");
  seats[2] = kept_for("Bob", "b");
  EXPECT_EQ(seats.unique_name("Cy"), "Cy");
  EXPECT_EQ(seats.unique_name("ann"), "ann (2)");
  EXPECT_EQ(seats.unique_name("BOB"), "BOB (2)");  // a kept seat's name is taken too
  seats[1] = person("ann (2)", "c");
  EXPECT_EQ(seats.unique_name("Ann"), "Ann (3)");
}

TEST(Seats, BotsAreNumberedFromTheLowestFreeNumber) {
  Seats seats(4);
  EXPECT_EQ(seats.next_bot_name(), "Bot 1");
  seats[0] = bot("Bot 1");
  seats[1] = bot("Bot 3");
  EXPECT_EQ(seats.next_bot_name(), "Bot 2");
  seats[2] = person("Bot 2", "p");  // a person called so does not count
  EXPECT_EQ(seats.next_bot_name(), "Bot 2");
}

TEST(Seats, CountsAndFirsts) {
  Seats seats(4);
  EXPECT_EQ(seats.seated(), 0);
  EXPECT_EQ(seats.first_person(), -1);
  EXPECT_EQ(seats.first_free(), 0);
  EXPECT_FALSE(seats.any_bot());
  seats[0] = bot("Bot 1");
  seats[1] = kept_for("Ann", "h");
  seats[2] = person("Bob", "b");
  EXPECT_EQ(seats.seated(), 2);  // a kept seat is nobody's yet
  EXPECT_EQ(seats.first_person(), 2);
  EXPECT_EQ(seats.first_free(), 3);
  EXPECT_TRUE(seats.any_bot());
  EXPECT_EQ(seats.of_token("b"), 2);
  EXPECT_EQ(seats.of_token("nobody's"), -1);
  seats[3] = person("Cy", "c");
  EXPECT_EQ(seats.first_free(), -1);
  EXPECT_FALSE(seats.any_connected());
  EXPECT_FALSE(seats.any_person_connected());
}

TEST(Seats, TheStoreKeepsTheTakenSeatsAndGivesThemBack) {
  Seats seats(5);
  seats[0] = person("Ann", "a");
  seats[1] = bot("Bob", StandIn::absent);
  seats[2] = kept_for("Cy", "claim");
  seats[4] = bot("Bot 1");
  const auto stored = seats.stored();
  ASSERT_EQ(stored.size(), 4u);
  EXPECT_EQ(stored[0].seat, 0);
  EXPECT_EQ(stored[0].bot, "");
  EXPECT_TRUE(stored[0].resumable());
  EXPECT_EQ(stored[1].bot, "normal");
  EXPECT_EQ(stored[1].stand_in, StandIn::absent);
  EXPECT_TRUE(stored[1].resumable());  // its person takes it back
  EXPECT_EQ(stored[2].reserved_for, "claim");
  EXPECT_FALSE(stored[2].resumable());
  EXPECT_EQ(stored[3].seat, 4);
  EXPECT_FALSE(stored[3].resumable());

  const auto now = std::chrono::steady_clock::time_point{} + std::chrono::hours(1);
  const auto back = Seats::from_stored(5, stored, now);
  ASSERT_EQ(back.size(), 5u);
  EXPECT_EQ(back[0].name, "Ann");
  EXPECT_EQ(back[0].away_since, now);  // after a restart a person's absence counts from then
  EXPECT_EQ(back[1].stand_in, StandIn::absent);
  EXPECT_EQ(back[1].bot, Level::normal);
  EXPECT_FALSE(back[1].away_since);
  EXPECT_EQ(back[2].reserved_for, "claim");
  EXPECT_FALSE(back[3].taken());
  EXPECT_EQ(back[4].bot, Level::normal);
  EXPECT_EQ(back.stored().size(), 4u);
  // A seat number beyond the table is ignored.
  EXPECT_EQ(Seats::from_stored(2, stored, now).stored().size(), 2u);
}

TEST(Seats, AtTheStartEmptyAndKeptSeatsAreDroppedAndTheRestRenumbered) {
  Seats seats(5);
  seats[1] = person("Ann", "a");
  seats[2] = kept_for("Bob", "b");
  seats[3] = bot("Bot 1");
  seats[4] = person("Cy", "c");
  const auto started = seats.without_empty(4);
  ASSERT_EQ(started.seats.size(), 3u);
  EXPECT_EQ(started.seats[0].name, "Ann");
  EXPECT_EQ(started.seats[1].name, "Bot 1");
  EXPECT_EQ(started.seats[2].name, "Cy");
  EXPECT_EQ(started.creator, 2);
}

TEST(States, NamesAreTheStoredAndWireStrings) {
  for (const auto state : {TableState::waiting, TableState::playing, TableState::finished}) {
    EXPECT_EQ(table_state_named(name_of(state)), state);
  }
  EXPECT_EQ(name_of(TableState::finished), "finished");
  EXPECT_FALSE(table_state_named("done"));
  for (const auto stand_in : {StandIn::none, StandIn::left, StandIn::absent, StandIn::timeout}) {
    EXPECT_EQ(stand_in_named(name_of(stand_in)), stand_in);
  }
  EXPECT_EQ(name_of(StandIn::none), "");
  EXPECT_EQ(name_of(StandIn::timeout), "timeout");
  EXPECT_FALSE(stand_in_named("away"));
  EXPECT_FALSE(keeps_seat_for_person(StandIn::left));
  EXPECT_TRUE(keeps_seat_for_person(StandIn::absent));
}

}  // namespace
}  // namespace emporium::server
