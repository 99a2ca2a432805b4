#pragma once
// The parts of a request target the server reads itself: percent-decoding and a query string's values. Pure.
#include <optional>
#include <string>
#include <string_view>

namespace emporium::server {

// Percent-decoding; nothing when the encoding is broken.
std::optional<std::string> percent_decode(std::string_view in);

// The value of the first `name=` in a query string ("a=1&invite=XYZ"), as written (not decoded); nothing if absent.
std::optional<std::string> query_value(std::string_view query, std::string_view name);

}  // namespace emporium::server
