// libFuzzer target: parse_client_message on one client frame (the input, exactly as a WebSocket text frame
// would carry it; the corpus files are real frames). What must hold:
//  - it never throws, and never answers internal_error (that is an exception it did not expect);
//  - an error has a known code and a message in valid UTF-8, and render_error carries the request id and
//    the message back intact;
//  - a request's id is null, an integer or a string of at most max_id_chars characters; names and chat are
//    valid UTF-8 within their limits, and rendering them (hello, chat) reads back the same strings;
//  - type_name() names the frame's "type";
//  - the same JSON written another way (re-serialized) parses to the same outcome.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <variant>

#include "emporium/protocol/protocol.hpp"

namespace {

namespace proto = emporium::protocol;
using proto::Json;

[[noreturn]] void fail(const std::string& what, std::string_view frame) {
  std::fprintf(stderr, "protocol invariant broken: %s; frame of %zu bytes\n", what.c_str(), frame.size());
  std::abort();
}

bool valid_utf8(const std::string& s) {
  try {
    (void)Json(s).dump();
    return true;
  } catch (const Json::exception&) {
    return false;
  }
}

std::size_t code_points(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// A server frame must be one JSON object; returns it.
Json read_frame(const std::string& text, std::string_view frame) {
  Json j = Json::parse(text, nullptr, false);
  if (!j.is_object()) fail("a rendered frame is not a JSON object: " + text, frame);
  return j;
}

bool known_code(const std::string& code) {
  namespace e = proto::errc;
  for (const char* c : {e::bad_json, e::bad_message, e::unknown_type, e::unsupported_protocol, e::bad_name,
                        e::chat_too_long}) {
    if (code == c) return true;
  }
  return false;
}

void check_text(const std::string& s, std::size_t max, const char* what, std::string_view frame) {
  if (s.empty() || !valid_utf8(s) || code_points(s) > max) fail(std::string("bad ") + what + " accepted", frame);
}

void check_request(const proto::Request& r, std::string_view frame, const proto::Limits& limits) {
  if (!(r.id.is_null() || r.id.is_number_integer() ||
        (r.id.is_string() && valid_utf8(r.id.get<std::string>()) &&
         code_points(r.id.get<std::string>()) <= limits.max_id_chars))) {
    fail("bad id accepted", frame);
  }
  const Json j = Json::parse(frame);
  if (j.value("type", "") != proto::type_name(r.message)) fail("type_name differs from the frame's type", frame);
  const std::string* name = nullptr;
  if (const auto* h = std::get_if<proto::Hello>(&r.message); h && h->name) name = &*h->name;
  if (const auto* s = std::get_if<proto::SetName>(&r.message)) name = &s->name;
  if (name) {
    check_text(*name, limits.max_name_chars, "name", frame);
    const Json back = read_frame(proto::render_hello(r.id, *name), frame);
    if (back["name"] != *name || back.value("re", Json()) != r.id) fail("hello does not round-trip", frame);
  }
  if (const auto* c = std::get_if<proto::Chat>(&r.message)) {
    check_text(c->text, limits.max_chat_chars, "chat text", frame);
    check_text(c->table, limits.max_token_chars, "table", frame);
    const Json back = read_frame(proto::render_chat(c->table, proto::ChatLine{1, "Ann", 1, "players", c->text, 0}), frame);
    if (back["text"] != c->text || back["table"] != c->table) fail("chat does not round-trip", frame);
  }
  if (const auto* a = std::get_if<proto::Act>(&r.message)) {
    if (!a->action.is_object()) fail("act with an action that is not an object", frame);
    const Json back = read_frame(proto::render_ack(r.id, a->version), frame);
    if (back["version"] != a->version) fail("ack does not round-trip the version", frame);
  }
}

void check_error(const proto::ParseError& e, std::string_view frame) {
  if (!known_code(e.code)) fail("unexpected error code " + e.code + ": " + e.message, frame);
  if (e.message.empty() || !valid_utf8(e.message)) fail("an error message that is empty or not UTF-8", frame);
  const Json back = read_frame(proto::render_error(e.id, e.code, e.message), frame);
  if (back["message"] != e.message || back.value("re", Json()) != e.id) fail("error does not round-trip", frame);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view frame(reinterpret_cast<const char*>(data), size);
  const proto::Limits limits;
  const auto parsed = proto::parse_client_message(frame, limits);
  if (const auto* e = std::get_if<proto::ParseError>(&parsed)) {
    check_error(*e, frame);
  } else {
    check_request(std::get<proto::Request>(parsed), frame, limits);
  }
  // The same value written compactly must give the same outcome (frames refused as bad JSON aside: they may
  // nest too deep to be written back).
  const auto* error = std::get_if<proto::ParseError>(&parsed);
  const Json j = error && error->code == proto::errc::bad_json ? Json(Json::value_t::discarded)
                                                                : Json::parse(frame, nullptr, false);
  if (!j.is_discarded()) {
    const std::string again = j.dump(-1, ' ', false, Json::error_handler_t::replace);
    if (again != frame && valid_utf8(again)) {
      const auto reparsed = proto::parse_client_message(again, limits);
      if (reparsed.index() != parsed.index()) fail("re-serialized JSON parses to another outcome", frame);
      if (const auto* e = std::get_if<proto::ParseError>(&parsed)) {
        if (std::get<proto::ParseError>(reparsed).code != e->code) fail("re-serialized JSON gives another error", frame);
      }
    }
  }
  return 0;
}
