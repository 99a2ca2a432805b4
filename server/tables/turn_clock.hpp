#pragma once
// A timed table's clock: each decision gets the turn time, then the deciding seat's reserve runs down.
// Pure bookkeeping over the times it is given; the room owns the timer and says when decisions begin and
// end. Only people are ever on the clock (bots are paced by the server).
#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include <emporium/protocol/protocol.hpp>

namespace emporium::server {

class TurnClock {
 public:
  using time_point = std::chrono::steady_clock::time_point;
  using ms = std::chrono::milliseconds;

  TurnClock(protocol::ClockConfig config, int seats);
  // A stored clock after a restart. The decision that was running had run until `alive_ms` (the server's last
  // sign of life, Unix ms; unknown: not at all): the time the server was down is charged to nobody.
  static TurnClock from_stored(protocol::ClockConfig config, int seats, const nlohmann::json& stored,
                                std::optional<std::int64_t> alive_ms, time_point now);

  // A decision of `seat` begins at `now` with the whole turn time; or, when it was paused, goes on with what it had.
  void start(int seat, time_point now);
  // The running decision ends: whatever it took beyond the turn time comes off the seat's reserve. A paused one
  // ends too (its seat decided meanwhile, or the decision is another's now).
  void stop(time_point now);
  // The running decision stops counting, keeping the turn time it has left (a vacation, docs/mail.md): start()
  // for the same seat resumes it.
  void pause(time_point now);
  std::optional<int> running_seat() const;
  std::optional<int> paused_seat() const;
  // All the paused decision has left: its turn time and the seat's reserve.
  std::optional<ms> paused_left() const;
  // When the running seat has no time left.
  std::optional<time_point> deadline() const;

  // Counts `seat`'s timeouts in a row: a decision it made itself clears them. Returns the count.
  int count_decision(int seat, bool timed_out);
  void clear_timeouts(int seat);

  // What the frames carry: {"reserve_ms":[..],"timeouts":[..],"running":null|{"seat","turn_ms","reserve_ms"}},
  // and "paused":{"seat","turn_ms","reserve_ms"} while a decision is paused.
  nlohmann::json live(time_point now) const;
  // What the store keeps: reserves and timeouts, and the running decision's remaining turn time as at its
  // start, `since_ms` (Unix ms, from `wall_now_ms` taken at `now`); a paused decision's seat and turn time left.
  nlohmann::json to_stored(time_point now, std::int64_t wall_now_ms) const;

 private:
  struct Decision {
    int seat = 0;
    time_point since;
    ms turn_left{0};  // at `since`
  };
  // The running decision's (turn, reserve) left at `now`.
  std::pair<ms, ms> left(const Decision& d, time_point now) const;

  protocol::ClockConfig config_;
  std::vector<ms> reserve_;
  std::vector<int> timeouts_;
  std::optional<Decision> running_;
  std::optional<Decision> paused_;  // `since` unused: nothing runs
};

}  // namespace emporium::server
