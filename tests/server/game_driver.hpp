#pragma once
// Drives games over real connections: seats players at a table, then plays random legal moves,
// always with the version the mover last saw, measuring the time from sending an action to the
// moment every viewer has its events. Used by the end-to-end tests and the load generator.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "test_client.hpp"

namespace emporium::testing {

// What one connection has seen of one table, read from its frame log.
struct seat_tracker {
  seat_tracker(ws_client* c, std::string t) : client(c), table(std::move(t)) {}
  ws_client* client = nullptr;
  std::string table;
  std::size_t cursor = 0;
  std::uint64_t version = 0;
  Json legal = Json::array();  // the game's own actions (an undo left out)
  bool undo_offered = false;    // the last legal list ended with {"type":"undo"}
  bool over = false;
  std::vector<Json> events;  // the "events" arrays, one per action, in order
  Json clock;                // the live turn clock last seen (timed tables)

  void catch_up();
};

struct played {
  std::vector<double> latencies_ms;  // action sent -> every tracker has the new version
  int actions = 0;
  int undos = 0;  // of the actions, steps taken back
};

// Plays until the game ends, `stop_after` actions were made, or `pause_when` says stop. With `undo_one_in` n > 0, a
// mover who may take back a step does so one time in n.
played play(std::vector<seat_tracker*> seats, std::vector<seat_tracker*> watchers, std::uint64_t rng_seed,
            int stop_after = 1 << 30, const std::function<bool(const seat_tracker&)>& pause_when = nullptr,
            int undo_one_in = 0);

double percentile(std::vector<double> v, double p);

// A request sent again, a little later, while the server says the connection sends too fast (a refusal changes
// nothing): one fast player can make more moves in a second than the server takes, and slows down as a client should.
Json request_within_rate(ws_client& client, const Json& message);

// Acts with the mover's first legal action and waits until `seats` all saw the new version.
void act_first(seat_tracker& mover, const std::vector<seat_tracker*>& seats);
// Plays on until every tracker in `seats` sees the game over (bots may finish it between the people's moves).
// Throws if it does not end.
void finish(std::vector<seat_tracker*> seats, std::uint64_t rng_seed);
// The next `table` frame's table for `id` whose seat `seat` satisfies `match` (earlier table frames are skipped).
Json table_where(ws_client& c, const std::string& id, int seat, const std::function<bool(const Json&)>& match,
                 std::chrono::milliseconds timeout = 5s);

struct table_setup {
  std::string id;
  std::string invite;
  std::vector<std::unique_ptr<ws_client>> players;
  std::vector<std::string> tokens;
};

// Creates a table with `n` players seated in seats 0.. (the first creates it), with a turn clock when `clock` is
// given, and `seats` seats (`n` when 0). Throws on any unexpected reply.
table_setup seat_players(std::uint16_t port, int n, bool is_private, const std::string& game = "medici",
                         const Json& clock = nullptr, int seats = 0);
void start(table_setup& t);
// A private table of `game` where one client sits at seat 0 and bots of `levels` fill the other seats;
// started unless `start_it` is false.
table_setup seat_with_bots(std::uint16_t port, const std::string& game, const std::vector<std::string>& levels,
                           bool start_it = true);
std::vector<seat_tracker> trackers(table_setup& t);
std::vector<seat_tracker*> pointers(std::vector<seat_tracker>& v);

// A started public table of `n` people (seat p at seats[p]) and a spectator who watched it from before the start,
// every one of them tracked.
struct watched_game {
  table_setup table;
  std::unique_ptr<ws_client> watcher;
  std::vector<seat_tracker> seats;
  std::unique_ptr<seat_tracker> spectator;
  std::vector<seat_tracker*> people() { return pointers(seats); }
  std::vector<seat_tracker*> everyone() {
    auto out = people();
    out.push_back(spectator.get());
    return out;
  }
};
watched_game start_watched(std::uint16_t port, int n, const std::string& game);

}  // namespace emporium::testing
