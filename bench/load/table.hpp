#pragma once
// One table of the load: its players and spectators, each on a connection of its own. Seat 0 creates the table,
// the other players join, the spectators watch, seat 0 starts; then the player whose decision it is plays a
// uniformly random action from its own `legal` list, and every move is timed until the last viewer has its
// events. A finished game is left and replaced by a new table (--on-end new).
#include "connection.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace emporium::load {

class table {
 public:
  table(net::any_io_executor executor, run_state& run, tcp::endpoint server);

  // Opens every connection (hello), then sets up the first game.
  net::awaitable<void> connect();
  // Every viewer has its first snapshot.
  bool ready() const { return ready_; }
  // The window opens: the first move (at a random moment of the first period, with --rate).
  void start_moving(clock::time_point window_start);
  void stop_moving();
  // Moves sent inside the window that not every viewer has seen yet.
  std::size_t unfinished() const { return pending_.size(); }
  void close();

 private:
  struct viewer {
    std::unique_ptr<connection> conn;
    bool player = false;
    int seat = -1;      // a player's seat at the current table; -1 for a spectator
    long version = -1;  // the newest version this viewer has
    Json legal = Json::array();
    int created = 0;  // tables this connection created (the server allows 32)
  };
  // A move on its way to every viewer.
  struct pending_move {
    long version;
    clock::time_point sent;
    std::size_t seen = 0;  // viewers that have its events
  };
  // The act the mover waits to see the result of.
  struct in_flight {
    long version;  // the version the move makes
    viewer* mover;
    std::int64_t request_id;
  };

  net::awaitable<void> open(viewer& v, std::string name);
  net::awaitable<void> new_game(viewer& creator);
  net::awaitable<void> next_game();
  void spawn(net::awaitable<void> task);  // runs beside the moves; a failure is counted as an error
  void on_frame(viewer& v, Json& frame);
  void on_snapshot(viewer& v, Json& frame);
  void on_events(viewer& v, Json& frame);
  void on_act_refused(viewer& v, const Json& frame);
  void on_game_over();
  void kick();
  pending_move* find_pending(long version);
  void forget_pending(long version);

  net::any_io_executor executor_;
  run_state& run_;
  tcp::endpoint server_;
  std::vector<std::unique_ptr<viewer>> viewers_;  // players in seat order, then spectators
  std::string id_;                                // the current table; empty while one is being created
  std::size_t synced_ = 0;                        // viewers with their first snapshot
  bool ready_ = false;
  bool game_over_seen_ = false;
  long finished_version_ = -1;  // the version that ended the game
  std::vector<pending_move> pending_;
  std::optional<in_flight> in_flight_;
  clock::time_point next_allowed_{};  // --rate: the earliest next move
  net::steady_timer rate_timer_;
  bool rate_timer_armed_ = false;
};

}  // namespace emporium::load
