#include "net/static_files.hpp"

#include <algorithm>
#include <cctype>

#include "common/url.hpp"

namespace emporium::server {

std::optional<std::string> resolve_static_path(std::string_view root, std::string_view target) {
  if (target.empty() || target.front() != '/') return std::nullopt;
  target = target.substr(0, target.find_first_of("?#"));
  const auto decoded = percent_decode(target);
  if (!decoded) return std::nullopt;
  const std::string& path = *decoded;
  // After decoding: one leading slash only, no backslash, no NUL, no "." or ".." segment.
  if (path.size() > 1 && path[1] == '/') return std::nullopt;
  if (path.find('\\') != std::string::npos || path.find('\0') != std::string::npos) return std::nullopt;
  std::size_t start = 1;
  while (start <= path.size()) {
    const std::size_t end = std::min(path.find('/', start), path.size());
    const std::string_view segment(path.data() + start, end - start);
    if (segment == ".." || segment == ".") return std::nullopt;
    if (end < path.size() && segment.empty()) return std::nullopt;  // "//" inside the path
    start = end + 1;
  }
  std::string file(root);
  if (!file.empty() && file.back() == '/') file.pop_back();
  file += path;
  if (file.back() == '/') file += "index.html";
  return file;
}

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](unsigned char x, unsigned char y) {
           return std::tolower(x) == std::tolower(y);
         });
}

// Calls `f(item)` for each comma-separated, trimmed, non-empty item of a header value.
template <class F>
void for_each_item(std::string_view list, F&& f) {
  while (!list.empty()) {
    const auto comma = list.find(',');
    const auto item = trim(list.substr(0, comma));
    if (!item.empty()) f(item);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
}

}  // namespace

bool accepts_gzip(std::string_view accept_encoding) {
  bool gzip_ok = false, star_ok = false, gzip_named = false;
  for_each_item(accept_encoding, [&](std::string_view item) {
    const auto semi = item.find(';');
    const auto coding = trim(item.substr(0, semi));
    bool allowed = true;
    if (semi != std::string_view::npos) {
      auto param = trim(item.substr(semi + 1));
      if (param.size() >= 2 && (param[0] == 'q' || param[0] == 'Q') && param[1] == '=') {
        // q=0, q=0.0, q=0.000: refused; anything else is some preference.
        allowed = param.substr(2).find_first_not_of("0.") != std::string_view::npos;
      }
    }
    if (iequals(coding, "gzip") || iequals(coding, "x-gzip")) {
      gzip_named = true;
      gzip_ok = allowed;
    } else if (coding == "*") {
      star_ok = allowed;
    }
  });
  return gzip_named ? gzip_ok : star_ok;
}

bool etag_matches(std::string_view if_none_match, std::string_view etag) {
  bool match = false;
  for_each_item(if_none_match, [&](std::string_view item) {
    if (item.starts_with("W/")) item.remove_prefix(2);
    if (item == "*" || item == etag) match = true;
  });
  return match;
}

}  // namespace emporium::server
