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
#include "store/sqlite_store.hpp"

namespace emporium::testing {

// One connection's frames and who it is at the table.
struct viewer_frames;
void expect_seed_only_after_the_end(const server::StoredTable& stored, const std::vector<viewer_frames>& viewers);

struct viewer_frames {
  const seat_tracker* tracker;
  engine::Viewer viewer;
};

// Every viewer received exactly the events the engine filters for it, for every stored action (bots' moves
// included), and no frame carries the seed, its salt, the bag or the removed tiles before the end. `replayed`
// (when given) receives the state after the last stored action.
inline void expect_frames_match_engine(const std::string& data_dir, const std::string& table,
                                       const std::vector<viewer_frames>& viewers,
                                       std::unique_ptr<engine::State>* replayed = nullptr) {
  server::SqliteStore db(data_dir);
  auto stored = db.load(table);
  ASSERT_TRUE(stored);
  ASSERT_FALSE(engine::merkator::load_data_file(EMPORIUM_MERKATOR_DATA));  // the file the server loaded
  auto created = engine::create_game(stored->game, stored->players, stored->options, stored->seed);
  ASSERT_FALSE(created.error) << created.error->message;
  auto& state = created.state;
  state->allow_undo(true);  // as replay() does: the undos the table allowed
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
  // The seed and salt travel only once the game is over (the frames that end it reveal them); hidden parts of
  // the state never before the end.
  expect_seed_only_after_the_end(*stored, viewers);
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

// Whether `frame` shows table `stored` finished: the events of its last move, a snapshot at its last version,
// or a table object in state "finished".
inline bool shows_the_end(const Json& frame, const server::StoredTable& stored) {
  const auto last = stored.actions.size();
  const std::string type = frame.value("type", "");
  if ((type == "events" || type == "snapshot") && frame.value("version", std::uint64_t{0}) == last) return true;
  return frame.contains("table") && frame["table"].is_object() && frame["table"].value("state", "") == "finished";
}

// No frame before the one that shows the game over carries the seed or its salt, by value or by name, nor the bag
// or removed tiles; the frames that do carry them carry the stored ones. Without an end, no frame carries them.
inline void expect_seed_only_after_the_end(const server::StoredTable& stored, const std::vector<viewer_frames>& viewers) {
  const std::string seed_hex = stored.seed.to_hex();
  const bool finished = stored.state == server::TableState::finished;
  for (const auto& v : viewers) {
    bool revealed = false;
    for (const auto& text : v.tracker->client->log()) {
      const auto frame = Json::parse(text);
      revealed = revealed || (finished && shows_the_end(frame, stored));
      if (!revealed) {
        EXPECT_EQ(text.find(seed_hex), std::string::npos) << text.substr(0, 200);
        if (!stored.salt.empty()) {
          EXPECT_EQ(text.find(stored.salt), std::string::npos) << text.substr(0, 200);
        }
        EXPECT_EQ(text.find("\"seed\""), std::string::npos) << text.substr(0, 200);
        EXPECT_EQ(text.find("\"salt\""), std::string::npos) << text.substr(0, 200);
        EXPECT_EQ(text.find("\"bag\":"), std::string::npos);
        EXPECT_EQ(text.find("\"removed\":"), std::string::npos);
      } else {
        const Json& table = frame.contains("table") && frame["table"].is_object() ? frame["table"] : frame;
        for (const Json* carrier : {&frame, &table}) {
          if (carrier->contains("seed")) {
            EXPECT_EQ((*carrier)["seed"], seed_hex);
          }
          if (carrier->contains("salt")) {
            EXPECT_EQ((*carrier)["salt"], stored.salt);
          }
        }
      }
    }
  }
}

}  // namespace emporium::testing
