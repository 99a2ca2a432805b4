#include "unicode.hpp"

#include <initializer_list>
#include <utility>

namespace emporium::protocol {
namespace {

using range = std::pair<char32_t, char32_t>;

bool in(char32_t cp, std::initializer_list<range> ranges) {
  for (const auto& [lo, hi] : ranges) {
    if (cp >= lo && cp <= hi) return true;
  }
  return false;
}

bool is_control(char32_t cp) { return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F); }

// Unicode's space separators (Zs) and the ASCII whitespace.
bool is_space(char32_t cp) {
  return cp == ' ' || (cp >= 0x09 && cp <= 0x0D) ||
         in(cp, {{0xA0, 0xA0}, {0x1680, 0x1680}, {0x2000, 0x200A}, {0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000}});
}

// Marks that change how the text runs or hide in it: the bidirectional controls (U+202E turns the rest of
// a line around), zero-width space, word joiner and the invisible operators, the byte-order mark, soft
// hyphen, the Hangul fillers that look blank, Mongolian selectors, interlinear annotation, music formatting
// and the language tag. (Zero-width joiners and variation selectors are allowed: emoji need them.)
bool is_hidden_format(char32_t cp) {
  return in(cp, {{0x00AD, 0x00AD}, {0x034F, 0x034F}, {0x061C, 0x061C}, {0x115F, 0x1160}, {0x17B4, 0x17B5},
                 {0x180B, 0x180F}, {0x200B, 0x200B}, {0x200E, 0x200F}, {0x202A, 0x202E}, {0x2060, 0x206F},
                 {0x3164, 0x3164}, {0xFEFF, 0xFEFF}, {0xFFA0, 0xFFA0}, {0xFFF0, 0xFFFB}, {0x1D173, 0x1D17A},
                 {0xE0001, 0xE0001}});
}

bool is_separator(char32_t cp) { return cp == 0x2028 || cp == 0x2029; }

bool is_noncharacter(char32_t cp) { return (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE; }

// The combining marks that pile up on a letter ("Zalgo" text), and the common ones of scripts that stack
// them legitimately (Hebrew, Arabic, Thai, kana voicing).
bool is_combining_mark(char32_t cp) {
  return in(cp, {{0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x05BF, 0x05C7}, {0x0610, 0x061A},
                 {0x064B, 0x065F}, {0x0670, 0x0670}, {0x06D6, 0x06ED}, {0x0E31, 0x0E31}, {0x0E34, 0x0E3A},
                 {0x0E47, 0x0E4E}, {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF}, {0x20D0, 0x20FF}, {0x3099, 0x309A},
                 {0xFE20, 0xFE2F}});
}

// Shown as nothing on its own: joiners, variation selectors and tag characters.
bool is_invisible(char32_t cp) {
  return cp == 0x200C || cp == 0x200D || in(cp, {{0xFE00, 0xFE0F}, {0xE0020, 0xE007F}, {0xE0100, 0xE01EF}});
}

std::string hex(char32_t cp) {
  static const char* digits = "0123456789ABCDEF";
  std::string out;
  for (int shift = cp > 0xFFFF ? 20 : 12; shift >= 0; shift -= 4) out += digits[(cp >> shift) & 0xF];
  return "U+" + out;
}

}  // namespace

std::size_t decode_one(std::string_view s, std::size_t i, char32_t& cp) {
  const auto c = static_cast<unsigned char>(s[i]);
  std::size_t len = 0;
  if (c < 0x80) {
    cp = c;
    return 1;
  }
  if (c >= 0xC2 && c <= 0xDF) {
    cp = c & 0x1Fu;
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    cp = c & 0x0Fu;
    len = 3;
  } else if (c >= 0xF0 && c <= 0xF4) {
    cp = c & 0x07u;
    len = 4;
  } else {
    return 0;
  }
  if (s.size() - i < len) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    const auto d = static_cast<unsigned char>(s[i + k]);
    if ((d & 0xC0u) != 0x80u) return 0;
    cp = (cp << 6) | (d & 0x3Fu);
  }
  if (len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) return 0;
  if (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) return 0;
  return len;
}

bool is_valid_utf8(std::string_view s) {
  return for_each_code_point(s, [](char32_t) {});
}

std::size_t count_code_points(std::string_view s) {
  std::size_t n = 0;
  for (char ch : s) {
    if ((static_cast<unsigned char>(ch) & 0xC0u) != 0x80u) ++n;
  }
  return n;
}


std::string_view trim_spaces(std::string_view s) {
  std::size_t begin = 0, end = 0, i = 0;
  bool seen = false;
  while (i < s.size()) {
    char32_t cp = 0;
    const std::size_t len = decode_one(s, i, cp);
    if (len == 0) return s;  // not valid UTF-8: left for the caller to refuse
    if (!is_space(cp)) {
      if (!seen) begin = i;
      seen = true;
      end = i + len;
    }
    i += len;
  }
  return seen ? s.substr(begin, end - begin) : std::string_view();
}

std::optional<std::string> unfit_to_show(std::string_view s, bool newlines) {
  std::optional<std::string> problem;
  bool visible = false;
  int marks_in_a_row = 0;
  for_each_code_point(s, [&](char32_t cp) {
    if (problem) return;
    if (newlines && cp == '\n') {
      marks_in_a_row = 0;
    } else if (is_control(cp)) {
      problem = "contains a control character (" + hex(cp) + ": a tab, a newline or another invisible one)";
    } else if (is_hidden_format(cp)) {
      problem = "contains an invisible formatting character (" + hex(cp) +
                ", such as a right-to-left override or a zero-width space)";
    } else if (is_separator(cp)) {
      problem = "contains a line or paragraph separator (" + hex(cp) + ")";
    } else if (is_noncharacter(cp)) {
      problem = "contains a noncharacter (" + hex(cp) + ")";
    } else if (is_combining_mark(cp)) {
      if (++marks_in_a_row > kMaxCombiningMarks) {
        problem = "has more than " + std::to_string(kMaxCombiningMarks) + " combining marks on one letter";
      }
    } else {
      marks_in_a_row = 0;
      visible = visible || (!is_space(cp) && !is_invisible(cp));
    }
  });
  if (!problem && !visible) problem = "has nothing visible in it (only spaces, joiners or marks)";
  return problem;
}

}  // namespace emporium::protocol
