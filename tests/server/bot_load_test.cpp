// People's latency while fifty tables of bots play at full speed. Its own executable, run with nothing else
// beside it (RUN_SERIAL): the bot workers run at a lower priority by design, so other tests on the same
// cores would starve them and the load this test is about would not be there.
#include <gtest/gtest.h>

#include <atomic>
#include <iostream>
#include <thread>

#include <emporium/engine/rng.hpp>

#include "game_driver.hpp"
#include "test_client.hpp"

namespace emporium::testing {
namespace {

// A table of one scripted client (moving at once) and two bots, driven without blocking.
struct bot_table {
  table_setup setup;
  seat_tracker tracker;
  explicit bot_table(table_setup t) : setup(std::move(t)), tracker(setup.players[0].get(), setup.id) {}
};

long bot_moves(std::uint16_t port) {
  const auto body = http_get(port, "/metrics").body;
  const auto at = body.find("\nemporium_bot_moves_total ");
  return at == std::string::npos ? -1 : std::stol(body.substr(at + 26));
}

TEST(BotLoad, PeoplesLatencyStaysLowWhileFiftyTablesOfBotsPlayAtFullSpeed) {
  server_process server;  // bot pause 0: the bots play as fast as they think
  std::vector<std::unique_ptr<bot_table>> busy;
  for (int i = 0; i < 50; ++i) {
    busy.push_back(std::make_unique<bot_table>(seat_with_bots(server.port(), "medici", {"normal", "normal"})));
  }
  std::atomic<bool> stop{false};
  struct joiner {  // the driver stops and is joined however the test ends
    std::atomic<bool>& stop;
    std::thread thread;
    ~joiner() {
      stop = true;
      if (thread.joinable()) thread.join();
    }
  } driver{stop, std::thread([&] {  // keeps every bot table going: its one client moves as soon as it may
    engine::Rng rng(1);
    while (!stop) {
      bool waiting = true;
      for (auto& b : busy) {
        auto& tr = b->tracker;
        tr.catch_up();
        if (tr.over || tr.legal.empty()) continue;
        waiting = false;
        const auto& legal = tr.legal;
        b->setup.players[0]->send({{"type", "act"}, {"table", tr.table}, {"version", tr.version},
                                   {"action", legal[rng.below(legal.size())]}});
        tr.legal = Json::array();  // until the next frame says otherwise
      }
      if (waiting) std::this_thread::sleep_for(5ms);
    }
  })};
  std::this_thread::sleep_for(2s);  // the bots are thinking at full speed
  const long bot_moves_before = bot_moves(server.port());
  auto people = seat_players(server.port(), 3, false);
  start(people);
  auto seats = trackers(people);
  played result;
  try {
    // People think a little between moves, so the game spans seconds of the bots' work (at 25 ms, a short game
    // spanned too few of them: 25 bot moves once, where more than 25 are asked for).
    result = play(pointers(seats), {}, 99, 1 << 30, [](const seat_tracker&) {
      std::this_thread::sleep_for(40ms);
      return false;
    });
  } catch (const std::exception& e) {
    FAIL() << e.what();
  }
  const long bot_moves_during = bot_moves(server.port()) - bot_moves_before;
  const double p50 = percentile(result.latencies_ms, 0.5), p99 = percentile(result.latencies_ms, 0.99);
  std::cout << "[ people's table ] " << result.actions << " actions: p50 " << p50 << " ms, p99 " << p99
            << " ms, while the bots made " << bot_moves_during << " moves\n";
  EXPECT_GT(result.actions, 60);
  EXPECT_GT(bot_moves_during, 25) << "the bot tables were busy all along";
  EXPECT_LT(p99, 20.0);
}

}  // namespace
}  // namespace emporium::testing
