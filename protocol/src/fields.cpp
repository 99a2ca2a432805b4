#include "fields.hpp"

#include <algorithm>

#include "unicode.hpp"

namespace emporium::protocol::fields {

std::string excerpt(std::string_view s, std::size_t max) {
  std::string out;
  std::size_t count = 0;
  for (std::size_t i = 0; i < s.size(); ++count) {
    if (count == max) return out + "...";
    char32_t cp = 0;
    const std::size_t len = decode_one(s, i, cp);
    if (len == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
      i += 1;
    } else {
      out.append(s.substr(i, len));
      i += len;
    }
  }
  return out;
}

namespace {
bool is_ascii_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }
}  // namespace

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
  return s;
}

// ---- JSON values ------------------------------------------------------------------------------

std::string kind_of(const Json& v) {
  switch (v.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::boolean:
      return "a boolean";
    case Json::value_t::string:
      return "a string";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
      return "an integer";
    case Json::value_t::number_float:
      return "a number with a fraction or exponent";
    case Json::value_t::object:
      return "an object";
    case Json::value_t::array:
      return "an array";
    case Json::value_t::binary:
      return "binary data";
    case Json::value_t::discarded:
      break;
  }
  return "nothing";
}

std::string integer_text(const Json& v) {
  if (v.is_number_unsigned()) return std::to_string(v.get<std::uint64_t>());
  return std::to_string(v.get<std::int64_t>());
}

bool integer_equals(const Json& v, std::int64_t want) {
  if (v.is_number_unsigned()) return want >= 0 && v.get<std::uint64_t>() == static_cast<std::uint64_t>(want);
  return v.get<std::int64_t>() == want;
}

std::optional<std::int64_t> integer_in(const Json& v, std::int64_t lo, std::int64_t hi) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(hi)) return std::nullopt;
    const auto i = static_cast<std::int64_t>(u);
    if (i < lo) return std::nullopt;
    return i;
  }
  const auto i = v.get<std::int64_t>();
  if (i < lo || i > hi) return std::nullopt;
  return i;
}

// ---- Field contents ---------------------------------------------------------------------------

std::string identifier(const std::string& key, std::string value, std::size_t max_chars) {
  if (value.empty()) refuse(errc::bad_message, in_quotes(key) + " must be a non-empty string, got an empty one");
  if (value.size() > max_chars) {
    refuse(errc::bad_message, in_quotes(key) + " is longer than " + std::to_string(max_chars) + " characters");
  }
  for (char c : value) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    if (!ok) {
      refuse(errc::bad_message, in_quotes(key) + " may contain only the characters A-Z, a-z, 0-9, '_' and '-'");
    }
  }
  return value;
}

std::string identifier(const char* key, std::string value, const Limits& limits) {
  return identifier(key, std::move(value), limits.max_token_chars);
}

std::string required_identifier(const Fields& f, const char* key, const Limits& limits) {
  return identifier(key, f.string(key), limits);
}

std::vector<std::string> token_list(const Fields& f, const Limits& limits, const char* key) {
  constexpr const char* expected = "an array of seat tokens";
  const Json& v = f.require(key, expected);
  if (!v.is_array()) f.wrong(key, expected, v);
  if (v.size() > limits.max_my_games_tokens) {
    refuse(errc::bad_message, in_quotes(key) + " has " + std::to_string(v.size()) + " tokens; the most is " +
                                  std::to_string(limits.max_my_games_tokens));
  }
  std::vector<std::string> tokens;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::string item = std::string(key) + "[" + std::to_string(i) + "]";
    if (!v[i].is_string()) refuse(errc::bad_message, in_quotes(item) + " must be a string, got " + kind_of(v[i]));
    tokens.push_back(identifier(item, v[i].get<std::string>(), limits.max_my_games_token_chars));
  }
  return tokens;
}

std::string display_name(const char* key, const std::string& raw, const Limits& limits) {
  if (!is_valid_utf8(raw)) refuse(errc::bad_name, in_quotes(key) + " is not valid UTF-8");
  const std::string_view name = trim_spaces(raw);
  if (name.empty()) refuse(errc::bad_name, in_quotes(key) + " is empty (after trimming spaces)");
  if (auto problem = unfit_to_show(name)) refuse(errc::bad_name, in_quotes(key) + " " + *problem);
  const std::size_t n = count_code_points(name);
  if (n > limits.max_name_chars) {
    refuse(errc::bad_name, in_quotes(key) + " has " + std::to_string(n) + " characters; the most is " +
                               std::to_string(limits.max_name_chars));
  }
  return std::string(name);
}

// How deeply arrays and objects nest in a JSON text (brackets inside strings do not count). Read before
// parsing: copying and writing a parsed value recurse once per level, so a frame of a million '[' would
// overflow the stack long after parsing (which does not recurse) had accepted it.
std::size_t nesting_depth(std::string_view text) {
  std::size_t depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

std::string bad_json_message(std::string_view frame, const std::exception& e, std::string_view what) {
  if (trim(frame).empty()) return std::string(what) + " is empty; expected a JSON object";
  std::string reason = e.what();
  // "[json.exception.parse_error.101] parse error at line 1, column 2: ..." -> keep what follows the tag.
  if (auto pos = reason.find("] "); !reason.empty() && reason.front() == '[' && pos != std::string::npos) {
    reason.erase(0, pos + 2);
  }
  return std::string(what) + " is not valid JSON: " + excerpt(reason, 200);
}

}  // namespace emporium::protocol::fields
