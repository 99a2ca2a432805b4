#include "static_files.hpp"

#include <gtest/gtest.h>

namespace emporium::server {
namespace {

TEST(StaticFiles, MapsTargetsUnderTheRoot) {
  EXPECT_EQ(resolve_static_path("/srv/web", "/"), "/srv/web/index.html");
  EXPECT_EQ(resolve_static_path("/srv/web/", "/app.js"), "/srv/web/app.js");
  EXPECT_EQ(resolve_static_path("web", "/games/medici.js?v=3#x"), "web/games/medici.js");
  EXPECT_EQ(resolve_static_path("web", "/css/"), "web/css/index.html");
  EXPECT_EQ(resolve_static_path("web", "/a%20b.txt"), "web/a b.txt");
}

TEST(StaticFiles, RefusesTraversalEncodedTraversalAndAbsolutePaths) {
  for (const char* target :
       {"/../etc/passwd", "/..", "/a/../../etc/passwd", "/%2e%2e/etc/passwd", "/%2E%2E%2Fetc%2Fpasswd",
        "/a/%2e%2e/%2e%2e/x", "//etc/passwd", "/%2Fetc/passwd", "/..%5c..%5cwindows", "/a\\..\\b",
        "/a/./b", "/x%00.html", "/bad%zz", "/trunc%2", "etc/passwd", "", "/a//b"}) {
    EXPECT_FALSE(resolve_static_path("/srv/web", target)) << target;
  }
}

TEST(StaticFiles, KnowsTheMimeTypesTheClientUses) {
  EXPECT_EQ(mime_type("a/index.html"), "text/html; charset=utf-8");
  EXPECT_EQ(mime_type("app.js"), "text/javascript; charset=utf-8");
  EXPECT_EQ(mime_type("x.CSS"), "text/css; charset=utf-8");
  EXPECT_EQ(mime_type("i.svg"), "image/svg+xml");
  EXPECT_EQ(mime_type("i.png"), "image/png");
  EXPECT_EQ(mime_type("data.json"), "application/json");
  EXPECT_EQ(mime_type("noext"), "application/octet-stream");
}

}  // namespace
}  // namespace emporium::server
