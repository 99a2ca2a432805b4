#include "net/account_http.hpp"

#include <array>
#include <utility>

#include <openssl/crypto.h>

namespace emporium::server::account_http {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string cookie_text(std::string_view name, std::string_view value, std::string_view same_site, bool secure,
                        std::chrono::seconds max_age) {
  std::string c = std::string(name) + "=" + std::string(value) + "; Path=/; HttpOnly; SameSite=" +
                  std::string(same_site) + "; Max-Age=" + std::to_string(value.empty() ? 0 : max_age.count());
  if (secure) c += "; Secure";
  return c;
}

}  // namespace

std::string cookie(std::string_view header, std::string_view name) {
  while (!header.empty()) {
    const auto end = header.find(';');
    const std::string_view pair = trim(header.substr(0, end));
    const auto eq = pair.find('=');
    if (eq != std::string_view::npos && trim(pair.substr(0, eq)) == name) {
      std::string_view value = trim(pair.substr(eq + 1));
      if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
      return std::string(value);
    }
    if (end == std::string_view::npos) break;
    header.remove_prefix(end + 1);
  }
  return {};
}

std::string session_cookie(std::string_view value, bool secure, std::chrono::seconds max_age) {
  return cookie_text(kSessionCookie, value, "Lax", secure, max_age);
}

std::string csrf_cookie(std::string_view value, bool secure) {
  return cookie_text(kCsrfCookie, value, "Strict", secure, std::chrono::hours(24 * 365));
}

bool csrf_matches(std::string_view cookie_value, std::string_view header_value) {
  return !cookie_value.empty() && cookie_value.size() == header_value.size() &&
         CRYPTO_memcmp(cookie_value.data(), header_value.data(), cookie_value.size()) == 0;
}

std::string device_of(std::string_view ua) {
  // Checked in order: Edge and Opera say "Chrome" too, Chrome says "Safari".
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kBrowsers{{
      {"Edg/", "Edge"}, {"OPR/", "Opera"}, {"Firefox/", "Firefox"}, {"Chrome/", "Chrome"}, {"Safari/", "Safari"},
      {"curl/", "curl"}}};
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kSystems{{
      {"Android", "Android"}, {"iPhone", "iPhone"}, {"iPad", "iPad"}, {"Windows", "Windows"},
      {"Mac OS X", "macOS"}, {"CrOS", "ChromeOS"}, {"Linux", "Linux"}}};
  std::string browser = "a browser", system;
  for (const auto& [needle, name] : kBrowsers) {
    if (ua.find(needle) != std::string_view::npos) {
      browser = name;
      break;
    }
  }
  for (const auto& [needle, name] : kSystems) {
    if (ua.find(needle) != std::string_view::npos) {
      system = name;
      break;
    }
  }
  return system.empty() ? browser : browser + " on " + system;
}

std::string host_of(std::string_view authority) {
  if (!authority.empty() && authority.front() == '[') {
    const auto close = authority.find(']');
    return std::string(authority.substr(1, close == std::string_view::npos ? std::string_view::npos : close - 1));
  }
  return std::string(authority.substr(0, authority.find(':')));
}

}  // namespace emporium::server::account_http
