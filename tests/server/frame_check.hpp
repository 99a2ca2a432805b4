#pragma once
// The end-to-end tests' strongest check: replay a table's stored record with the engine and compare, action
// by action, what each viewer was sent with what the engine filters for that viewer.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include <emporium/engine/registry.hpp>

#include "game_driver.hpp"
#include "merkator/data_file.hpp"
#include "store.hpp"

namespace emporium::testing {

// One connection's frames and who it is at the table.
struct viewer_frames {
  const seat_tracker* tracker;
  engine::Viewer viewer;
};

// Every viewer received exactly the events the engine filters for it, for every stored action (bots' moves
// included), and no frame carries the seed or, before the end, the bag or the removed tiles. `replayed`
// (when given) receives the state after the last stored action.
inline void expect_frames_match_engine(const std::string& data_dir, const std::string& table,
                                       const std::vector<viewer_frames>& viewers,
                                       std::unique_ptr<engine::State>* replayed = nullptr) {
  server::store db(data_dir);
  auto stored = db.load(table);
  ASSERT_TRUE(stored);
  ASSERT_FALSE(engine::merkator::load_data_file(EMPORIUM_MERKATOR_DATA));  // the file the server loaded
  auto created = engine::create_game(stored->game, stored->players, stored->options, stored->seed);
  ASSERT_FALSE(created.error) << created.error->message;
  auto& state = created.state;
  for (std::size_t i = 0; i < stored->actions.size(); ++i) {
    const auto result = state->apply(stored->actions[i].first, stored->actions[i].second);
    ASSERT_TRUE(result.ok());
    for (const auto& v : viewers) {
      ASSERT_LT(i, v.tracker->events.size());
      EXPECT_EQ(v.tracker->events[i], engine::events_for(result.events, v.viewer))
          << (v.viewer.kind == engine::Viewer::Kind::player ? "seat " + std::to_string(v.viewer.player) : "spectator")
          << ", action " << i;
    }
  }
  // The seed and hidden parts of the state never travel.
  const std::string seed_text = std::to_string(stored->seed);
  for (const auto& v : viewers) {
    for (const auto& frame : v.tracker->client->log()) {
      EXPECT_EQ(frame.find(seed_text), std::string::npos);
      EXPECT_EQ(frame.find("\"seed\""), std::string::npos);
      if (frame.find("\"game_over\"") == std::string::npos && frame.find("\"phase\":\"over\"") == std::string::npos) {
        EXPECT_EQ(frame.find("\"bag\":"), std::string::npos);
        EXPECT_EQ(frame.find("\"removed\":"), std::string::npos);
      }
    }
  }
  if (replayed) *replayed = std::move(state);
}

// Every seat of `seats` (seat p at index p) and, when given, a spectator.
inline std::vector<viewer_frames> players_and_spectator(const std::vector<seat_tracker>& seats,
                                                        const seat_tracker* spectator) {
  std::vector<viewer_frames> out;
  for (std::size_t p = 0; p < seats.size(); ++p) out.push_back({&seats[p], engine::Viewer::of_player(static_cast<int>(p))});
  if (spectator) out.push_back({spectator, engine::Viewer::spectator()});
  return out;
}

}  // namespace emporium::testing
