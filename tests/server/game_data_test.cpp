#include "merkator/data_file.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "emporium/engine/registry.hpp"
#include "merkator/catalog.hpp"

namespace emporium::server {
namespace {

TEST(GameData, TheShippedMerkatorFileLoadsAndMakesTheGameAvailable) {
  ASSERT_FALSE(engine::merkator::load_data_file(EMPORIUM_MERKATOR_DATA));
  EXPECT_FALSE(engine::create_game("merkator", 3, engine::Json::object(), 1).error);
}

TEST(GameData, AMissingOrBrokenFileIsRefusedWithTheEntryNamed) {
  const auto missing = engine::merkator::load_data_file("/nonexistent/merkator-data.json");
  ASSERT_TRUE(missing);
  EXPECT_NE(missing->find("/nonexistent/merkator-data.json"), std::string::npos);

  std::ifstream in(EMPORIUM_MERKATOR_DATA);
  auto data = engine::Json::parse(in);
  data["buildings"][3]["scoring"]["kind"] = "foo";
  const std::string path = ::testing::TempDir() + "broken-merkator.json";
  std::ofstream(path) << data.dump();
  const auto broken = engine::merkator::load_data_file(path);
  ASSERT_TRUE(broken);
  EXPECT_NE(broken->find("buildings[3].scoring.kind: unknown kind 'foo'"), std::string::npos) << *broken;
  std::ofstream(path) << "{not json";
  EXPECT_TRUE(engine::merkator::load_data_file(path));
  std::remove(path.c_str());
}

}  // namespace
}  // namespace emporium::server
