// deploy/backup.sh, as an operator runs it: a backup taken while the server plays, restored into a new store, brings
// back exactly what was stored when it was taken. On both stores (SQLite's online backup; pg_dump and pg_restore).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "game_driver.hpp"
#include "postgres_local.hpp"
#include "test_client.hpp"

namespace {

using namespace emporium::testing;

class Backup : public ::testing::TestWithParam<std::string> {
 protected:
  static int script(const std::string& args) {
    return std::system((std::string(EMPORIUM_SOURCE_DIR) + "/deploy/backup.sh " + args + " >/dev/null").c_str());
  }
};

TEST_P(Backup, ARestoredBackupHoldsWhatWasStoredWhenItWasTaken) {
  const bool pg = GetParam() == "postgresql";
  std::string from, to;  // the stores: data directories, or database URIs
  std::vector<std::string> from_args, to_args;
  const std::string dir = make_temp_dir("emporium-backup");
  if (pg) {
    EMPORIUM_NEED_POSTGRES(server);
    from = server->new_database();
    to = server->new_database();
    from_args = {"--store", from};
    to_args = {"--store", to};
  } else {
    from = dir + "/live";
    to = dir + "/restored";
  }
  const std::string file = dir + "/backup";
  std::filesystem::create_directories(dir + "/live-dir");  // the servers' port files (their store is PostgreSQL)
  std::filesystem::create_directories(dir + "/restored-dir");
  std::string table, token;
  std::uint64_t at_backup = 0;
  {
    server_process live(from_args.empty() ? from : dir + "/live-dir", from_args);
    auto t = seat_players(live.port(), 3, false, "silkroad");
    start(t);
    auto seats = trackers(t);
    play(pointers(seats), {}, 41, 12);
    for (auto& s : seats) s.catch_up();
    at_backup = seats[0].version;
    ASSERT_EQ(script("backup " + GetParam() + " " + from + " " + file), 0);
    // Moves after the backup are not in it.
    play(pointers(seats), {}, 42, 5);
    for (auto& s : seats) s.catch_up();
    EXPECT_GT(seats[0].version, at_backup);
    table = t.id;
    token = t.tokens[1];
    EXPECT_EQ(live.terminate(), 0);
  }
  ASSERT_EQ(script("restore " + GetParam() + " " + file + " " + to), 0);
  server_process restored(to_args.empty() ? to : dir + "/restored-dir", to_args);
  ws_client player(restored.port());
  player.wait_type("welcome");
  const Json seated = player.request({{"type", "resume"}, {"token", token}});
  ASSERT_EQ(seated["type"], "seated") << seated;
  EXPECT_EQ(seated["table"]["id"], table);
  EXPECT_EQ(player.wait_type("snapshot")["version"], at_backup);
  EXPECT_EQ(restored.terminate(), 0);
  // A file that is not a backup is refused and changes nothing.
  std::filesystem::remove_all(dir + "/bad");
  { std::ofstream(dir + "/junk") << "not a database"; }
  if (!pg) {
    EXPECT_NE(script("restore sqlite " + dir + "/junk " + dir + "/bad"), 0);
    EXPECT_FALSE(std::filesystem::exists(dir + "/bad/emporium.db"));
  }
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Stores, Backup, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& info) { return info.param; });

}  // namespace
