#pragma once
// What the tables tell of the people away from them (docs/mail.md): a signed-in player's decision waiting while
// they are not at the table, and a game's end. notify/ implements it (e-mail); main.cpp wires it. Called on a
// room's strand: an implementation only takes note, and does its work elsewhere.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace emporium::server {

struct TurnWaiting {
  std::string table, game, account;
  // The game's version when this wait began, after the seat's own last move: one notice per such wait.
  std::uint64_t since = 0;
  std::string name;                 // the seat's name
  std::vector<std::string> others{};  // the other seats' names
  std::optional<long long> clock_left_s{};  // a timed table: the seat's time left when the wait began
};

struct GameOverNotice {
  std::string table, game;
  struct Place {
    std::string name, account;  // account: empty for a guest's or a bot's seat
    int rank = 0;
  };
  std::vector<Place> places{};  // every seat, best first
};

struct InvitationNotice {
  std::string table, game;
  std::string account;  // the friend invited
  std::string from;     // the inviter's name
  std::string invite;   // the table's invite code (a private table's), else empty
  int players = 0;
};

class TableNotices {
 public:
  virtual ~TableNotices() = default;
  // It is the decision of the person at this seat, and they are not connected to the table.
  virtual void waiting(TurnWaiting wait) = 0;
  // No longer: they came back, decided, or the game ended or passed to a bot.
  virtual void not_waiting(const std::string& table, const std::string& account) = 0;
  virtual void game_over(GameOverNotice over) = 0;
  // The person at this seat is away and their running decision has a fifth of its turn time left, or less.
  virtual void low_clock(TurnWaiting wait) = 0;
  // A friend invited `account` to a waiting table, and it has no connection here to be told on.
  virtual void invited(InvitationNotice invitation) = 0;
};

}  // namespace emporium::server
