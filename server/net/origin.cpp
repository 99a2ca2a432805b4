#include "net/origin.hpp"

#include <algorithm>
#include <cctype>

namespace emporium::server {
namespace {

bool same_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '/')) s.remove_suffix(1);
  return s;
}

}  // namespace

bool origin_allowed(std::string_view origin, std::string_view host, const std::vector<std::string>& allowed) {
  if (origin.empty()) return true;
  if (!host.empty()) {
    for (std::string_view scheme : {"http://", "https://"}) {
      if (origin.size() == scheme.size() + host.size() && same_ignoring_case(origin.substr(0, scheme.size()), scheme) &&
          same_ignoring_case(origin.substr(scheme.size()), host)) {
        return true;
      }
    }
  }
  return std::any_of(allowed.begin(), allowed.end(),
                     [&](const std::string& a) { return a == "*" || same_ignoring_case(a, origin); });
}

std::vector<std::string> parse_origin_list(std::string_view list) {
  std::vector<std::string> out;
  while (!list.empty()) {
    const auto comma = list.find(',');
    const auto item = trimmed(list.substr(0, comma));
    if (!item.empty()) out.emplace_back(item);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return out;
}

}  // namespace emporium::server
