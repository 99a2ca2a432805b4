#include "net/static_files.hpp"
#include "common/web_files.hpp"
#include "gunzip.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace emporium::server {
namespace {

using testing::gunzip;


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

TEST(StaticFiles, GzipIsReadBackByZlibAsTheSameBytes) {
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "const line" + std::to_string(i % 37) + " = 'Emporium';\n";
  const auto packed = gzip(text);
  EXPECT_LT(packed.size(), text.size() / 4);  // repetitive text shrinks a lot
  ASSERT_GE(packed.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(packed[0]), 0x1f);  // the gzip magic
  EXPECT_EQ(static_cast<unsigned char>(packed[1]), 0x8b);
  EXPECT_EQ(gunzip(packed), text);
  EXPECT_EQ(gunzip(gzip("")), "");
}

TEST(StaticFiles, CompressesTextTypesOnly) {
  for (const char* path : {"a.html", "a.js", "a.css", "a.json", "a.svg", "a.txt"}) EXPECT_TRUE(compressible(mime_type(path))) << path;
  for (const char* path : {"a.png", "a.jpg", "a.woff2", "a.bin"}) EXPECT_FALSE(compressible(mime_type(path))) << path;
}

TEST(StaticFiles, AcceptEncodingAllowsGzipOnlyWhenTheClientSaysSo) {
  EXPECT_TRUE(accepts_gzip("gzip"));
  EXPECT_TRUE(accepts_gzip("gzip, deflate, br, zstd"));
  EXPECT_TRUE(accepts_gzip("br;q=1.0, GZip;q=0.5"));
  EXPECT_TRUE(accepts_gzip("x-gzip"));
  EXPECT_TRUE(accepts_gzip("*"));
  EXPECT_TRUE(accepts_gzip("gzip;q=0.001"));
  EXPECT_FALSE(accepts_gzip(""));
  EXPECT_FALSE(accepts_gzip("identity"));
  EXPECT_FALSE(accepts_gzip("br, deflate"));
  EXPECT_FALSE(accepts_gzip("gzip;q=0"));
  EXPECT_FALSE(accepts_gzip("gzip;q=0.000, deflate"));
  EXPECT_FALSE(accepts_gzip("*;q=0"));
  EXPECT_FALSE(accepts_gzip("gzip;q=0, *"));  // named and refused beats the wildcard
  EXPECT_FALSE(accepts_gzip("gzipped"));
}

TEST(StaticFiles, IfNoneMatchNamesTheValidatorInAListOrByWildcard) {
  const std::string etag = "\"0123456789abcdef\"";
  EXPECT_TRUE(etag_matches(etag, etag));
  EXPECT_TRUE(etag_matches("\"x\", " + etag, etag));
  EXPECT_TRUE(etag_matches("W/" + etag, etag));
  EXPECT_TRUE(etag_matches("*", etag));
  EXPECT_FALSE(etag_matches("", etag));
  EXPECT_FALSE(etag_matches("\"0123456789abcdee\"", etag));
  EXPECT_FALSE(etag_matches("0123456789abcdef", etag));  // unquoted is another string
}

TEST(WebFiles, ReadsAFileOnceAndAgainWhenItChanges) {
  const auto dir = std::filesystem::temp_directory_path() / ("emporium-web-files-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = (dir / "app.js").string();
  const auto write = [&](const std::string& text) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  };
  std::string first;
  for (int i = 0; i < 300; ++i) first += "console.log('first');\n";
  write(first);
  WebFiles files;
  const auto a = files.get(path);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->body, first);
  EXPECT_EQ(a->type, "text/javascript; charset=utf-8");
  EXPECT_EQ(a->etag, etag_of(first));
  ASSERT_FALSE(a->gzipped.empty());
  EXPECT_EQ(gunzip(a->gzipped), first);
  EXPECT_NE(a->gzipped_etag, a->etag);
  EXPECT_EQ(files.get(path), a);  // unchanged: the same entry, not read again

  write(first + "console.log('second');\n");  // another size: read again
  const auto b = files.get(path);
  ASSERT_NE(b, nullptr);
  EXPECT_NE(b, a);
  EXPECT_NE(b->etag, a->etag);
  EXPECT_EQ(a->body, first);  // an entry handed out earlier stays as it was

  write("x");  // too small to gain from gzip: served as is
  EXPECT_TRUE(files.get(path)->gzipped.empty());
  EXPECT_EQ(files.get((dir / "missing.js").string()), nullptr);
  EXPECT_EQ(files.get(dir.string()), nullptr);  // a directory is not a file
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace emporium::server
