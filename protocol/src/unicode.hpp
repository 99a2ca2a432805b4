#pragma once
// UTF-8 decoding and the rules for text people are shown (names and chat): internal to the protocol library.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace emporium::protocol {

// The length of the well-formed UTF-8 sequence at s[i] (RFC 3629: no overlong forms, no surrogates,
// nothing past U+10FFFF), storing its code point in `cp`; 0 when the bytes there are ill-formed.
std::size_t decode_one(std::string_view s, std::size_t i, char32_t& cp);

// Calls `f` with each code point of `s`; false at the first ill-formed sequence.
template <class F>
bool for_each_code_point(std::string_view s, F&& f) {
  for (std::size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    const std::size_t len = decode_one(s, i, cp);
    if (len == 0) return false;
    f(cp);
    i += len;
  }
  return true;
}

bool is_valid_utf8(std::string_view s);
// Code points in a string already known to be valid UTF-8 (every byte that is not a continuation byte).
std::size_t count_code_points(std::string_view s);

// `s` (valid UTF-8) without the spaces at either end: ASCII whitespace and Unicode's spaces (no-break,
// ideographic, ...).
std::string_view trim_spaces(std::string_view s);

// Combining marks allowed in a row on one letter (enough for Vietnamese, Thai or pointed Hebrew).
inline constexpr int kMaxCombiningMarks = 4;

// Why `s` (valid UTF-8, trimmed) is unfit to show as a name or a chat line, or nothing when it is fine:
// control characters, bidirectional and other invisible format characters, line and paragraph separators,
// noncharacters, more than kMaxCombiningMarks combining marks on one letter, or nothing visible at all
// (only spaces, joiners and marks). The answer reads after the field's name: "\"name\" contains ...".
// `newlines`: a line feed is allowed (chat may have several lines; a name never).
std::optional<std::string> unfit_to_show(std::string_view s, bool newlines = false);

}  // namespace emporium::protocol
