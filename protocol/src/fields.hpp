#pragma once
// What the parsers of client messages (parse.cpp) and of the account requests (accounts.cpp) share: reading a JSON
// object's fields with exact types, and the checks of ids, tokens and display names, each refusing with a message
// that says exactly what is wrong. Internal to the protocol library.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "emporium/protocol/protocol.hpp"

namespace emporium::protocol::fields {

// A refusal raised while reading a frame; parse_client_message turns it into a ParseError.
struct Refusal {
  const char* code;
  std::string message;
};

[[noreturn]] void refuse(const char* code, std::string message) { throw Refusal{code, std::move(message)}; }

std::string in_quotes(std::string_view s) { return "\"" + std::string(s) + "\""; }

// The first `max` code points of `s`, with "..." when something was cut; ill-formed bytes become U+FFFD,
// so the result is always valid UTF-8 and safe to put in a message.
std::string excerpt(std::string_view s, std::size_t max);
std::string_view trim(std::string_view s);  // of ASCII whitespace

// What a JSON value is, for messages: "got a string".
std::string kind_of(const Json& v);
// An integer value's exact text, for messages (only called on integers).
std::string integer_text(const Json& v);
// Is an integer value (signed or unsigned) equal to `want`?
bool integer_equals(const Json& v, std::int64_t want);
// An integer value within [lo, hi], or nullopt.
std::optional<std::int64_t> integer_in(const Json& v, std::int64_t lo, std::int64_t hi);

// The fields of one client message: the known ones, read with exact types.
class Fields {
 public:
  Fields(const Json& object, std::string_view type, std::initializer_list<const char*> allowed)
      : object_(object), type_(type) {
    for (const auto& [key, value] : object_.items()) {
      if (key == "type" || key == "id") continue;
      bool known = false;
      for (const char* name : allowed) known = known || key == name;
      if (!known) {
        std::string list;
        for (const char* name : allowed) list += (list.empty() ? "" : ", ") + in_quotes(name);
        refuse(errc::bad_message, "unknown field " + in_quotes(excerpt(key, 40)) + " in the " + in_quotes(type_) +
                                      " message (" +
                                      (list.empty() ? std::string("it takes no fields besides \"type\" and \"id\"")
                                                    : "its fields are " + list + ", \"type\" and \"id\"") +
                                      ")");
      }
    }
  }

  const Json* find(const char* key) const {
    auto it = object_.find(key);
    return it == object_.end() ? nullptr : &*it;
  }

  const Json& require(const char* key, std::string_view expected) const {
    const Json* v = find(key);
    if (v == nullptr) {
      refuse(errc::bad_message,
             "missing field " + in_quotes(key) + " (expected " + std::string(expected) + ") in the " + in_quotes(type_) +
                 " message");
    }
    return *v;
  }

  [[noreturn]] void wrong(const char* key, std::string_view expected, const Json& got) const {
    refuse(errc::bad_message, in_quotes(key) + " must be " + std::string(expected) + ", got " + kind_of(got));
  }

  // A required string, any content.
  std::string string(const char* key) const {
    const Json& v = require(key, "a string");
    if (!v.is_string()) wrong(key, "a string", v);
    return v.get<std::string>();
  }

  std::optional<std::string> optional_string(const char* key) const {
    const Json* v = find(key);
    if (v == nullptr) return std::nullopt;
    if (!v->is_string()) wrong(key, "a string", *v);
    return v->get<std::string>();
  }

  bool boolean(const char* key, bool fallback) const {
    const Json* v = find(key);
    if (v == nullptr) return fallback;
    if (!v->is_boolean()) wrong(key, "a boolean (true or false)", *v);
    return v->get<bool>();
  }

  int integer(const char* key, int lo, const char* expected) const {
    const Json& v = require(key, expected);
    return checked_int(key, v, lo, expected);
  }

  int integer_between(const char* key, int lo, int hi, const char* expected) const {
    return checked_int(key, require(key, expected), lo, expected, hi);
  }

  std::optional<int> optional_integer(const char* key, int lo, const char* expected) const {
    const Json* v = find(key);
    if (v == nullptr) return std::nullopt;
    return checked_int(key, *v, lo, expected);
  }

  std::uint64_t version(const char* key) const {
    constexpr const char* expected = "a non-negative integer";
    const Json& v = require(key, expected);
    if (!v.is_number_integer()) wrong(key, expected, v);
    if (v.is_number_unsigned()) return v.get<std::uint64_t>();
    const auto i = v.get<std::int64_t>();
    if (i < 0) refuse(errc::bad_message, in_quotes(key) + " must be " + expected + ", got " + std::to_string(i));
    return static_cast<std::uint64_t>(i);
  }

  Json object(const char* key, bool required) const {
    const Json* v = required ? &require(key, "an object") : find(key);
    if (v == nullptr) return Json::object();
    if (!v->is_object()) wrong(key, "an object", *v);
    return *v;
  }

 private:
  int checked_int(const char* key, const Json& v, int lo, const char* expected,
                  int hi = std::numeric_limits<int>::max()) const {
    if (!v.is_number_integer()) wrong(key, expected, v);
    auto i = integer_in(v, lo, hi);
    if (!i) {
      refuse(errc::bad_message, in_quotes(key) + " must be " + expected + " from " + std::to_string(lo) + " to " +
                                    std::to_string(hi) + ", got " + integer_text(v));
    }
    return static_cast<int>(*i);
  }

  const Json& object_;
  std::string_view type_;
};

// Table ids, invite codes and seat tokens: 1..max_chars (max_token_chars unless said) characters of [A-Za-z0-9_-].
std::string identifier(const std::string& key, std::string value, std::size_t max_chars);
std::string identifier(const char* key, std::string value, const Limits& limits);
std::string required_identifier(const Fields& f, const char* key, const Limits& limits);
// An array of at most max_my_games_tokens seat tokens (the ones a client kept), in the field `key`.
std::vector<std::string> token_list(const Fields& f, const Limits& limits, const char* key = "tokens");
// Display names: trimmed of spaces (Unicode's too); 1..max_name_chars code points of valid UTF-8 that
// are fit to show (unfit_to_show: no control, invisible or look-alike tricks).
std::string display_name(const char* key, const std::string& raw, const Limits& limits);

// How deeply arrays and objects nest in a JSON text (brackets inside strings do not count).
std::size_t nesting_depth(std::string_view text);
// Why a text is not JSON, for a person: nlohmann's message without its tag.
// `what`: what the text is, for the message ("the frame", "the request's body").
std::string bad_json_message(std::string_view text, const std::exception& e, std::string_view what = "the frame");

}  // namespace emporium::protocol::fields
