// Parsing of client frames: strict, total (never throws), with messages that say exactly what is wrong.
#include <algorithm>
#include <cstdint>
#include <exception>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

#include "emporium/protocol/protocol.hpp"
#include "unicode.hpp"

namespace emporium::protocol {
namespace {

// A refusal raised while reading a frame; parse_client_message turns it into a ParseError.
struct Refusal {
  const char* code;
  std::string message;
};

[[noreturn]] void refuse(const char* code, std::string message) { throw Refusal{code, std::move(message)}; }

std::string in_quotes(std::string_view s) { return "\"" + std::string(s) + "\""; }

// The first `max` code points of `s`, with "..." when something was cut; ill-formed bytes become U+FFFD,
// so the result is always valid UTF-8 and safe to put in a message.
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

bool is_ascii_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
  return s;
}

// ---- JSON values ------------------------------------------------------------------------------

// What a JSON value is, for messages: "got a string".
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

// An integer value's exact text, for messages (only called on integers).
std::string integer_text(const Json& v) {
  if (v.is_number_unsigned()) return std::to_string(v.get<std::uint64_t>());
  return std::to_string(v.get<std::int64_t>());
}

// Is an integer value (signed or unsigned) equal to `want`?
bool integer_equals(const Json& v, std::int64_t want) {
  if (v.is_number_unsigned()) return want >= 0 && v.get<std::uint64_t>() == static_cast<std::uint64_t>(want);
  return v.get<std::int64_t>() == want;
}

// An integer value within [lo, hi], or nullopt.
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

// ---- Field contents ---------------------------------------------------------------------------

// Table ids, invite codes and seat tokens: 1..max_chars (max_token_chars unless said) characters of [A-Za-z0-9_-].
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

// my_games: an array of at most max_my_games_tokens seat tokens (the ones a client kept).
std::vector<std::string> token_list(const Fields& f, const Limits& limits) {
  constexpr const char* expected = "an array of seat tokens";
  const Json& v = f.require("tokens", expected);
  if (!v.is_array()) f.wrong("tokens", expected, v);
  if (v.size() > limits.max_my_games_tokens) {
    refuse(errc::bad_message, "\"tokens\" has " + std::to_string(v.size()) + " tokens; the most is " +
                                  std::to_string(limits.max_my_games_tokens));
  }
  std::vector<std::string> tokens;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::string key = "tokens[" + std::to_string(i) + "]";
    if (!v[i].is_string()) refuse(errc::bad_message, in_quotes(key) + " must be a string, got " + kind_of(v[i]));
    tokens.push_back(identifier(key, v[i].get<std::string>(), limits.max_my_games_token_chars));
  }
  return tokens;
}

// Display names: trimmed of spaces (Unicode's too); 1..max_name_chars code points of valid UTF-8 that
// are fit to show (unfit_to_show: no control, invisible or look-alike tricks).
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

int seat_number(const Fields& f) { return f.integer("seat", 0, "a seat number (an integer, 0 or more)"); }

TableRef table_ref(const Fields& f, const Limits& limits) {
  const Json* table = f.find("table");
  const Json* invite = f.find("invite");
  if ((table == nullptr) == (invite == nullptr)) {
    refuse(errc::bad_message, table == nullptr ? "give exactly one of \"table\" (a table id) or \"invite\" (an invite code); "
                                                 "neither was given"
                                               : "give exactly one of \"table\" (a table id) or \"invite\" (an invite "
                                                 "code), not both");
  }
  TableRef ref;
  if (table != nullptr) ref.table = identifier("table", *f.optional_string("table"), limits);
  if (invite != nullptr) ref.invite = identifier("invite", *f.optional_string("invite"), limits);
  return ref;
}

// {"turn":S,"reserve":R}: seconds per decision, then the seat's reserve.
ClockConfig clock_config(const Json& clock, const Limits& limits) {
  Fields f(clock, "clock", {"turn", "reserve"});
  ClockConfig c;
  c.turn_s = f.integer_between("turn", limits.min_turn_s, ClockConfig::kMaxTurn, "a number of seconds");
  c.reserve_s = f.integer_between("reserve", 0, ClockConfig::kMaxReserve, "a number of seconds");
  return c;
}

// ---- Messages ---------------------------------------------------------------------------------

Message parse_body(const Json& j, const std::string& type, const Limits& limits) {
  if (type == "hello") {
    Fields f(j, type, {"protocol", "name"});
    const Json& p = f.require("protocol", "an integer, the protocol version 1");
    if (!p.is_number_integer()) f.wrong("protocol", "an integer, the protocol version 1", p);
    if (!integer_equals(p, kVersion)) {
      refuse(errc::unsupported_protocol, "this server speaks protocol " + std::to_string(kVersion) +
                                             "; the client asked for protocol " + integer_text(p));
    }
    Hello m;
    m.protocol = kVersion;
    if (auto name = f.optional_string("name")) m.name = display_name("name", *name, limits);
    return m;
  }
  if (type == "set_name") {
    Fields f(j, type, {"name"});
    return SetName{display_name("name", f.string("name"), limits)};
  }
  if (type == "watch_lobby") {
    Fields f(j, type, {"on"});
    return WatchLobby{f.boolean("on", true)};
  }
  if (type == "create_table") {
    Fields f(j, type, {"game", "players", "options", "private", "clock"});
    CreateTable m;
    m.game = f.string("game");
    m.players = f.integer("players", std::numeric_limits<int>::min(), "an integer");
    m.options = f.object("options", false);
    m.is_private = f.boolean("private", false);
    if (f.find("clock")) m.clock = clock_config(f.object("clock", true), limits);
    return m;
  }
  if (type == "join") {
    Fields f(j, type, {"table", "invite", "seat"});
    Join m;
    m.ref = table_ref(f, limits);
    m.seat = f.optional_integer("seat", 0, "an integer");
    return m;
  }
  if (type == "watch") {
    Fields f(j, type, {"table", "invite"});
    return Watch{table_ref(f, limits)};
  }
  if (type == "leave") {
    Fields f(j, type, {"table"});
    return Leave{required_identifier(f, "table", limits)};
  }
  if (type == "start") {
    Fields f(j, type, {"table"});
    return Start{required_identifier(f, "table", limits)};
  }
  if (type == "add_bot") {
    Fields f(j, type, {"table", "seat", "level"});
    AddBot m{required_identifier(f, "table", limits), seat_number(f)};
    if (auto level = f.optional_string("level")) m.level = *level;
    return m;
  }
  if (type == "remove_bot") {
    Fields f(j, type, {"table", "seat"});
    return RemoveBot{required_identifier(f, "table", limits), seat_number(f)};
  }
  if (type == "replace_absent") {
    Fields f(j, type, {"table", "seat"});
    return ReplaceAbsent{required_identifier(f, "table", limits), seat_number(f)};
  }
  if (type == "resume") {
    Fields f(j, type, {"token"});
    return Resume{required_identifier(f, "token", limits)};
  }
  if (type == "act") {
    Fields f(j, type, {"table", "version", "action"});
    Act m;
    m.table = required_identifier(f, "table", limits);
    m.version = f.version("version");
    m.action = f.object("action", true);
    return m;
  }
  if (type == "snapshot") {
    Fields f(j, type, {"table"});
    return SnapshotRequest{required_identifier(f, "table", limits)};
  }
  if (type == "chat") {
    Fields f(j, type, {"table", "text"});
    Chat m;
    m.table = required_identifier(f, "table", limits);
    m.text = f.string("text");
    if (!is_valid_utf8(m.text)) refuse(errc::bad_message, "\"text\" is not valid UTF-8");
    if (trim_spaces(m.text).empty()) refuse(errc::bad_message, "\"text\" is empty (after trimming spaces)");
    if (auto problem = unfit_to_show(trim_spaces(m.text), true)) refuse(errc::bad_message, "\"text\" " + *problem);
    const std::size_t n = count_code_points(m.text);
    if (n > limits.max_chat_chars) {
      refuse(errc::chat_too_long, "\"text\" has " + std::to_string(n) + " characters; the most is " +
                                      std::to_string(limits.max_chat_chars));
    }
    return m;
  }
  if (type == "ping") {
    Fields f(j, type, {});
    return Ping{};
  }
  if (type == "rematch") {
    Fields f(j, type, {"table"});
    return Rematch{required_identifier(f, "table", limits)};
  }
  if (type == "my_games") {
    Fields f(j, type, {"tokens"});
    return MyGames{token_list(f, limits)};
  }
  refuse(errc::unknown_type, "unknown message type " + in_quotes(excerpt(type, 40)) +
                                 " (known: hello, set_name, watch_lobby, create_table, join, watch, leave, start, "
                                 "add_bot, remove_bot, replace_absent, resume, act, snapshot, chat, ping, rematch, "
                                 "my_games)");
}

// The request id: absent (null), a string of at most max_id_chars characters, or an integer.
Json read_id(const Json& j, const Limits& limits) {
  auto it = j.find("id");
  if (it == j.end()) return nullptr;
  const Json& id = *it;
  if (id.is_number_integer()) return id;
  if (id.is_string()) {
    const auto& s = id.get_ref<const std::string&>();
    if (!is_valid_utf8(s)) refuse(errc::bad_message, "\"id\" is not valid UTF-8");
    const std::size_t n = count_code_points(s);
    if (n > limits.max_id_chars) {
      refuse(errc::bad_message, "\"id\" has " + std::to_string(n) + " characters; the most is " +
                                    std::to_string(limits.max_id_chars));
    }
    return id;
  }
  refuse(errc::bad_message, "\"id\" must be a string or an integer, got " + kind_of(id));
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

std::string bad_json_message(std::string_view frame, const std::exception& e) {
  if (trim(frame).empty()) return "the frame is empty; expected a JSON object";
  std::string what = e.what();
  // "[json.exception.parse_error.101] parse error at line 1, column 2: ..." -> keep what follows the tag.
  if (auto pos = what.find("] "); !what.empty() && what.front() == '[' && pos != std::string::npos) {
    what.erase(0, pos + 2);
  }
  return "the frame is not valid JSON: " + excerpt(what, 200);
}

}  // namespace

std::variant<Request, ParseError> parse_client_message(std::string_view frame, const Limits& limits) {
  Json id = nullptr;
  if (const std::size_t depth = nesting_depth(frame); depth > limits.max_depth) {
    return ParseError{nullptr, errc::bad_json, "the frame nests arrays and objects " + std::to_string(depth) +
                                                   " deep; the most is " + std::to_string(limits.max_depth)};
  }
  try {
    Json j;
    try {
      j = Json::parse(frame.begin(), frame.end());
    } catch (const Json::exception& e) {
      return ParseError{nullptr, errc::bad_json, bad_json_message(frame, e)};
    }
    if (!j.is_object()) {
      return ParseError{nullptr, errc::bad_json, "the frame is " + kind_of(j) + "; expected a JSON object"};
    }
    id = read_id(j, limits);
    auto type_it = j.find("type");
    if (type_it == j.end()) {
      refuse(errc::bad_message, "missing field \"type\" (a string naming the message, e.g. \"hello\")");
    }
    if (!type_it->is_string()) {
      refuse(errc::bad_message, "\"type\" must be a string naming the message, got " + kind_of(*type_it));
    }
    Message message = parse_body(j, type_it->get<std::string>(), limits);
    return Request{std::move(id), std::move(message)};
  } catch (Refusal& r) {
    return ParseError{std::move(id), r.code, std::move(r.message)};
  } catch (const std::exception& e) {
    // Not expected (nlohmann's type errors are ruled out by the checks above); never let it escape.
    return ParseError{std::move(id), errc::internal_error, std::string("could not read the message: ") + e.what()};
  }
}

Json request_id(std::string_view frame, const Limits& limits) {
  try {
    const Json j = Json::parse(frame.begin(), frame.end(), nullptr, false);  // no exceptions: discarded on error
    return j.is_object() ? read_id(j, limits) : Json(nullptr);
  } catch (...) {  // read_id refuses a bad id by throwing
    return nullptr;
  }
}

std::string_view type_name(const Message& message) {
  struct Visitor {
    std::string_view operator()(const Hello&) const { return "hello"; }
    std::string_view operator()(const SetName&) const { return "set_name"; }
    std::string_view operator()(const WatchLobby&) const { return "watch_lobby"; }
    std::string_view operator()(const CreateTable&) const { return "create_table"; }
    std::string_view operator()(const Join&) const { return "join"; }
    std::string_view operator()(const Watch&) const { return "watch"; }
    std::string_view operator()(const Leave&) const { return "leave"; }
    std::string_view operator()(const Start&) const { return "start"; }
    std::string_view operator()(const AddBot&) const { return "add_bot"; }
    std::string_view operator()(const RemoveBot&) const { return "remove_bot"; }
    std::string_view operator()(const ReplaceAbsent&) const { return "replace_absent"; }
    std::string_view operator()(const Resume&) const { return "resume"; }
    std::string_view operator()(const Act&) const { return "act"; }
    std::string_view operator()(const SnapshotRequest&) const { return "snapshot"; }
    std::string_view operator()(const Chat&) const { return "chat"; }
    std::string_view operator()(const Ping&) const { return "ping"; }
    std::string_view operator()(const Rematch&) const { return "rematch"; }
    std::string_view operator()(const MyGames&) const { return "my_games"; }
  };
  return std::visit(Visitor{}, message);
}

}  // namespace emporium::protocol
