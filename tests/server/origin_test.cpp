// Which pages may open WebSocket connections: the server's own, the listed ones, and non-browser clients.
#include "net/origin.hpp"

#include <gtest/gtest.h>

namespace emporium::server {
namespace {

TEST(Origin, TheServersOwnOriginAndClientsWithoutOneAreAllowed) {
  EXPECT_TRUE(origin_allowed("", "games.example.org", {}));
  EXPECT_TRUE(origin_allowed("http://localhost:8080", "localhost:8080", {}));
  EXPECT_TRUE(origin_allowed("https://Games.Example.org", "games.example.org", {}));
  EXPECT_FALSE(origin_allowed("http://evil.example", "games.example.org", {}));
  EXPECT_FALSE(origin_allowed("http://localhost:9090", "localhost:8080", {})) << "another port is another origin";
  EXPECT_FALSE(origin_allowed("http://games.example.org.evil.example", "games.example.org", {}));
  EXPECT_FALSE(origin_allowed("null", "games.example.org", {}));
  EXPECT_FALSE(origin_allowed("http://evil.example", "", {}));
}

TEST(Origin, ListedOriginsAndTheWildcard) {
  const auto list = parse_origin_list(" https://play.example.org/, http://localhost:3000 ,,");
  EXPECT_EQ(list, (std::vector<std::string>{"https://play.example.org", "http://localhost:3000"}));
  EXPECT_TRUE(origin_allowed("https://play.example.org", "api.example.org", list));
  EXPECT_TRUE(origin_allowed("HTTP://LOCALHOST:3000", "api.example.org", list));
  EXPECT_FALSE(origin_allowed("https://other.example.org", "api.example.org", list));
  EXPECT_TRUE(origin_allowed("https://anything.example", "api.example.org", parse_origin_list("*")));
  EXPECT_TRUE(parse_origin_list("").empty());
}

}  // namespace
}  // namespace emporium::server
