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
#include "fields.hpp"
#include "unicode.hpp"

namespace emporium::protocol {
namespace {

using namespace fields;  // NOLINT: the shared readers of fields (fields.hpp)

// The requests that change a relation, each with its type's name.
constexpr std::pair<Relate::Kind, std::string_view> kRelateTypes[] = {
    {Relate::Kind::request, "friend_request"}, {Relate::Kind::accept, "friend_accept"},
    {Relate::Kind::decline, "friend_decline"}, {Relate::Kind::cancel, "friend_cancel"},
    {Relate::Kind::remove, "friend_remove"},   {Relate::Kind::block, "block"},
    {Relate::Kind::unblock, "unblock"},
};

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

// {"turn":S,"reserve":R,"vacations":B}: seconds per decision, then the seat's reserve; whether vacations stop it.
ClockConfig clock_config(const Json& clock, const Limits& limits) {
  Fields f(clock, "clock", {"turn", "reserve", "vacations"});
  ClockConfig c;
  c.turn_s = f.integer_between("turn", limits.min_turn_s, ClockConfig::kMaxTurn, "a number of seconds");
  c.reserve_s = f.integer_between("reserve", 0, ClockConfig::kMaxReserve, "a number of seconds");
  c.vacations = f.boolean("vacations", true);
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
    Fields f(j, type, {"game", "players", "options", "private", "clock", "rated", "friends_only", "undo"});
    CreateTable m;
    m.game = f.string("game");
    m.players = f.integer("players", std::numeric_limits<int>::min(), "an integer");
    m.options = f.object("options", false);
    m.is_private = f.boolean("private", false);
    if (f.find("clock")) m.clock = clock_config(f.object("clock", true), limits);
    if (f.find("rated")) m.rated = f.boolean("rated", false);
    m.friends_only = f.boolean("friends_only", false);
    if (f.find("undo")) m.undo = f.boolean("undo", true);
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
    Fields f(j, type, {"token", "table"});
    if ((f.find("token") == nullptr) == (f.find("table") == nullptr)) {
      refuse(errc::bad_message, "resume takes a seat's \"token\" or, signed in, a \"table\" (one of them)");
    }
    if (f.find("token")) return Resume{required_identifier(f, "token", limits), {}};
    return Resume{{}, required_identifier(f, "table", limits)};
  }
  if (type == "act") {
    Fields f(j, type, {"table", "version", "action"});
    Act m;
    m.table = required_identifier(f, "table", limits);
    m.version = f.version("version");
    m.action = f.object("action", true);
    return m;
  }
  if (type == "undo") {
    Fields f(j, type, {"table", "version"});
    return Act{required_identifier(f, "table", limits), f.version("version"), Json{{"type", "undo"}}};
  }
  if (type == "preview") {
    Fields f(j, type, {"table", "version", "actions"});
    Preview m;
    m.table = required_identifier(f, "table", limits);
    m.version = f.version("version");
    const Json& actions = f.require("actions", "an array of actions");
    if (!actions.is_array()) f.wrong("actions", "an array of actions", actions);
    if (actions.empty() || actions.size() > Preview::kMaxActions) {
      refuse(errc::bad_message, "\"actions\" holds 1 to " + std::to_string(Preview::kMaxActions) + " actions");
    }
    for (const auto& a : actions) {
      if (!a.is_object()) refuse(errc::bad_message, "each of \"actions\" must be an object");
      m.actions.push_back(a);
    }
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
  if (type == "friends") {
    Fields f(j, type, {});
    return Friends{};
  }
  for (const auto& [kind, name] : kRelateTypes) {
    if (type == name) {
      Fields f(j, type, {"name"});
      return Relate{kind, display_name("name", f.string("name"), limits)};
    }
  }
  if (type == "invite") {
    Fields f(j, type, {"table", "name"});
    Invite m{required_identifier(f, "table", limits), {}};
    m.name = display_name("name", f.string("name"), limits);
    return m;
  }
  if (type == "mute") {
    Fields f(j, type, {"table", "name", "on"});
    Mute m{required_identifier(f, "table", limits), {}, f.boolean("on", true)};
    m.name = display_name("name", f.string("name"), limits);
    return m;
  }
  if (type == "chat_settings") {
    Fields f(j, type, {"table", "see_spectators", "spectators_may_chat"});
    ChatSettings m{required_identifier(f, "table", limits), {}, {}};
    if (f.find("see_spectators")) m.see_spectators = f.boolean("see_spectators", false);
    if (f.find("spectators_may_chat")) m.spectators_may_chat = f.boolean("spectators_may_chat", true);
    if (!m.see_spectators && !m.spectators_may_chat) {
      refuse(errc::bad_message, "chat_settings changes \"see_spectators\" or \"spectators_may_chat\" (or both)");
    }
    return m;
  }
  if (type == "report") {
    Fields f(j, type, {"table", "name", "reason", "note", "line"});
    Report m;
    m.table = required_identifier(f, "table", limits);
    m.name = display_name("name", f.string("name"), limits);
    m.reason = f.string("reason");
    if (std::find(std::begin(Report::kReasons), std::end(Report::kReasons), m.reason) == std::end(Report::kReasons)) {
      refuse(errc::bad_message, "\"reason\" is one of abuse, cheating, spam, other");
    }
    m.note = f.optional_string("note").value_or("");
    if (!is_valid_utf8(m.note)) refuse(errc::bad_message, "\"note\" is not valid UTF-8");
    if (const std::size_t n = count_code_points(m.note); n > limits.max_chat_chars) {
      refuse(errc::chat_too_long, "\"note\" has " + std::to_string(n) + " characters; the most is " +
                                      std::to_string(limits.max_chat_chars));
    }
    if (f.find("line")) m.line = f.version("line");
    return m;
  }
  if (type == "decline_invitation") {
    Fields f(j, type, {"table"});
    return DeclineInvitation{required_identifier(f, "table", limits)};
  }
  refuse(errc::unknown_type, "unknown message type " + in_quotes(excerpt(type, 40)) +
                                 " (known: hello, set_name, watch_lobby, create_table, join, watch, leave, start, "
                                 "add_bot, remove_bot, replace_absent, resume, act, snapshot, chat, ping, rematch, "
                                 "my_games, friends, friend_request, friend_accept, friend_decline, friend_cancel, "
                                 "friend_remove, block, unblock, invite, decline_invitation, mute, chat_settings, "
                                 "report)");
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
    std::string_view operator()(const Preview&) const { return "preview"; }
    std::string_view operator()(const SnapshotRequest&) const { return "snapshot"; }
    std::string_view operator()(const Chat&) const { return "chat"; }
    std::string_view operator()(const Ping&) const { return "ping"; }
    std::string_view operator()(const Rematch&) const { return "rematch"; }
    std::string_view operator()(const MyGames&) const { return "my_games"; }
    std::string_view operator()(const Friends&) const { return "friends"; }
    std::string_view operator()(const Relate& m) const {
      for (const auto& [kind, name] : kRelateTypes) {
        if (kind == m.kind) return name;
      }
      return "relate";
    }
    std::string_view operator()(const Invite&) const { return "invite"; }
    std::string_view operator()(const DeclineInvitation&) const { return "decline_invitation"; }
    std::string_view operator()(const Mute&) const { return "mute"; }
    std::string_view operator()(const ChatSettings&) const { return "chat_settings"; }
    std::string_view operator()(const Report&) const { return "report"; }
  };
  return std::visit(Visitor{}, message);
}

}  // namespace emporium::protocol
