// The HTTP side of the account requests (server/net/account_http.hpp).
#include <gtest/gtest.h>

#include "net/account_http.hpp"

namespace emporium::server::account_http {
namespace {

TEST(AccountHttp, CookiesAreFoundByTheirExactName) {
  EXPECT_EQ(cookie("a=1; emporium_session=abc_D-9; b=2", "emporium_session"), "abc_D-9");
  EXPECT_EQ(cookie("emporium_session_old=x; emporium_session=y", "emporium_session"), "y");
  EXPECT_EQ(cookie(" emporium_csrf = \"tok\" ", "emporium_csrf"), "tok");
  EXPECT_EQ(cookie("a=1", "emporium_session"), "");
  EXPECT_EQ(cookie("", "emporium_session"), "");
  EXPECT_EQ(cookie("emporium_session", "emporium_session"), "");
}

TEST(AccountHttp, TheSessionCookieIsHttpOnlyLaxAndSecureOverTls) {
  const auto plain = session_cookie("id1", false, std::chrono::seconds(60));
  EXPECT_EQ(plain, "emporium_session=id1; Path=/; HttpOnly; SameSite=Lax; Max-Age=60");
  EXPECT_NE(session_cookie("id1", true, std::chrono::seconds(60)).find("; Secure"), std::string::npos);
  EXPECT_NE(session_cookie("", false, std::chrono::seconds(60)).find("Max-Age=0"), std::string::npos);
  const auto csrf = csrf_cookie("t", true);
  EXPECT_NE(csrf.find("SameSite=Strict"), std::string::npos);
  EXPECT_NE(csrf.find("HttpOnly"), std::string::npos);
}

TEST(AccountHttp, TheTokenMustMatchItsCookieExactly) {
  EXPECT_TRUE(csrf_matches("abc", "abc"));
  EXPECT_FALSE(csrf_matches("abc", "abd"));
  EXPECT_FALSE(csrf_matches("abc", "ab"));
  EXPECT_FALSE(csrf_matches("", ""));  // no cookie: nothing matches
}

TEST(AccountHttp, ADeviceIsNamedShortly) {
  EXPECT_EQ(device_of("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36"),
            "Chrome on Linux");
  EXPECT_EQ(device_of("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 "
                      "Mobile/15E148 Safari/604.1"),
            "Safari on iPhone");
  EXPECT_EQ(device_of("Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0 Safari/537.36 Edg/120.0"),
            "Edge on Windows");
  EXPECT_EQ(device_of(std::string(5000, 'x')), "a browser");
}

TEST(AccountHttp, TheRelyingPartyIsTheHostWithoutItsPort) {
  EXPECT_EQ(host_of("play.example:8443"), "play.example");
  EXPECT_EQ(host_of("play.example"), "play.example");
  EXPECT_EQ(host_of("[::1]:8080"), "::1");
  EXPECT_EQ(host_of("127.0.0.1:8080"), "127.0.0.1");
}

}  // namespace
}  // namespace emporium::server::account_http
