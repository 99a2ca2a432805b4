// The wire protocol: every client message valid and invalid, and every server frame read back.
#include "emporium/protocol/protocol.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace emporium::protocol {
namespace {

// ---- Helpers ----------------------------------------------------------------------------------

Request must_parse(std::string_view frame, const Limits& limits = {}) {
  auto r = parse_client_message(frame, limits);
  if (auto* e = std::get_if<ParseError>(&r)) {
    throw std::runtime_error("expected " + std::string(frame) + " to parse, got " + e->code + ": " + e->message);
  }
  return std::get<Request>(std::move(r));
}

template <class T>
T must_parse_as(std::string_view frame, const Limits& limits = {}) {
  Request r = must_parse(frame, limits);
  if (!std::holds_alternative<T>(r.message)) {
    throw std::runtime_error("parsed " + std::string(frame) + " as " + std::string(type_name(r.message)));
  }
  return std::get<T>(std::move(r.message));
}

ParseError must_fail(std::string_view frame, const Limits& limits = {}) {
  auto r = parse_client_message(frame, limits);
  if (auto* e = std::get_if<ParseError>(&r)) return *e;
  throw std::runtime_error("expected " + std::string(frame) + " to be refused, it parsed as " +
                           std::string(type_name(std::get<Request>(r).message)));
}

bool contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

// A refusal case: the frame, the code, and a piece the message must contain.
struct Bad {
  std::string frame;
  std::string code;
  std::string says;
};

void expect_refused(const std::vector<Bad>& cases) {
  for (const Bad& c : cases) {
    SCOPED_TRACE(c.frame);
    ParseError e = must_fail(c.frame);
    EXPECT_EQ(e.code, c.code) << e.message;
    EXPECT_TRUE(contains(e.message, c.says)) << "message: " << e.message << "\nexpected it to contain: " << c.says;
  }
}

std::string repeat(std::string_view s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

// ---- Framing, ids and types -------------------------------------------------------------------

TEST(ParseFrame, NotJsonArrayNumberAndEmptyAreBadJson) {
  for (std::string frame : {"", "   ", "{", "not json", "{\"type\":\"ping\"", "{'type':'ping'}", "[]",
                            R"([{"type":"ping"}])", "42", "\"ping\"", "null", "true", "{} {}"}) {
    SCOPED_TRACE(frame);
    ParseError e = must_fail(frame);
    EXPECT_EQ(e.code, errc::bad_json) << e.message;
    EXPECT_TRUE(e.id.is_null());
    EXPECT_FALSE(e.message.empty());
  }
  EXPECT_TRUE(contains(must_fail("").message, "empty"));
  EXPECT_TRUE(contains(must_fail("[1,2]").message, "array"));
  EXPECT_TRUE(contains(must_fail("42").message, "JSON object"));
}

TEST(ParseFrame, InvalidUtf8AnywhereInTheFrameIsBadJson) {
  // JSON text is UTF-8 (RFC 8259); the parser refuses ill-formed bytes before any field is looked at.
  ParseError e = must_fail("{\"type\":\"set_name\",\"name\":\"\xff\xfe\"}");
  EXPECT_EQ(e.code, errc::bad_json);
  // The message stays valid UTF-8 so that it can be rendered and logged.
  EXPECT_TRUE(Json::accept(render_error(e.id, e.code, e.message)));
  // An escaped lone surrogate is not a character either.
  EXPECT_EQ(must_fail(R"({"type":"set_name","name":"\udc00"})").code, errc::bad_json);
}

// Found by fuzzing: parsing does not recurse, but copying the parsed action (and writing it) recurses once per
// level, so a frame of 200000 nested arrays overflowed the stack in parse_client_message. Nesting is refused first.
TEST(ParseFrame, DeeplyNestedFramesAreBadJsonWithoutOverflowingTheStack) {
  const std::size_t n = 200000;
  const std::string deep = R"({"type":"act","table":"t1","version":1,"action":{"a":)" + std::string(n, '[') +
                           std::string(n, ']') + "}}";
  ParseError e = must_fail(deep);
  EXPECT_EQ(e.code, errc::bad_json);
  EXPECT_NE(e.message.find("200002 deep"), std::string::npos) << e.message;
  // The limit itself: 32 levels pass (the frame, the action and 30 arrays), 33 do not; brackets inside strings
  // (after an escaped quote too) do not count.
  std::string ok = R"({"type":"act","table":"t1","version":1,"action":{"a":)" + std::string(30, '[') +
                   std::string(30, ']') + R"(,"s":"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\"{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{"}})";
  EXPECT_TRUE(Json::parse(ok).is_object());
  must_parse_as<Act>(ok);
  std::string too_deep = R"({"type":"act","table":"t1","version":1,"action":{"a":)" + std::string(31, '[') +
                         std::string(31, ']') + "}}";
  EXPECT_EQ(must_fail(too_deep).code, errc::bad_json);
}

TEST(ParseFrame, TypeMissingOrNotAStringIsBadMessage) {
  expect_refused({
      {R"({})", errc::bad_message, "\"type\""},
      {R"({"id":1})", errc::bad_message, "missing field \"type\""},
      {R"({"type":1})", errc::bad_message, "\"type\" must be a string"},
      {R"({"type":null})", errc::bad_message, "got null"},
      {R"({"type":["ping"]})", errc::bad_message, "got an array"},
  });
}

TEST(ParseFrame, UnknownTypeNamesItTruncated) {
  ParseError e = must_fail(R"({"type":"dance","id":"r1"})");
  EXPECT_EQ(e.code, errc::unknown_type);
  EXPECT_TRUE(contains(e.message, "\"dance\"")) << e.message;
  EXPECT_EQ(e.id, Json("r1"));

  const std::string longer = std::string(40, 'a') + "TAIL";
  ParseError t = must_fail(R"({"type":")" + longer + R"("})");
  EXPECT_EQ(t.code, errc::unknown_type);
  EXPECT_TRUE(contains(t.message, std::string(40, 'a'))) << t.message;
  EXPECT_FALSE(contains(t.message, std::string(41, 'a'))) << t.message;
  EXPECT_FALSE(contains(t.message, "TAIL")) << t.message;

  // Types are case-sensitive.
  EXPECT_EQ(must_fail(R"({"type":"Ping"})").code, errc::unknown_type);
}

TEST(ParseId, StringAndIntegerIdsAreKept) {
  EXPECT_EQ(must_parse(R"({"type":"ping","id":"abc-1"})").id, Json("abc-1"));
  EXPECT_EQ(must_parse(R"({"type":"ping","id":7})").id, Json(7));
  EXPECT_EQ(must_parse(R"({"type":"ping","id":-7})").id, Json(-7));
  EXPECT_EQ(must_parse(R"({"type":"ping","id":""})").id, Json(""));
  EXPECT_TRUE(must_parse(R"({"type":"ping"})").id.is_null());
  const std::string id64(64, 'x');
  EXPECT_EQ(must_parse(R"({"type":"ping","id":")" + id64 + R"("})").id, Json(id64));
  // 64 code points of two bytes each are still 64 characters.
  const std::string wide = repeat("\xc3\xa9", 64);
  EXPECT_EQ(must_parse(R"({"type":"ping","id":")" + wide + R"("})").id, Json(wide));
}

TEST(ParseId, TooLongOrWrongTypeIdIsBadMessageWithNullId) {
  expect_refused({
      {R"({"type":"ping","id":")" + std::string(65, 'x') + R"("})", errc::bad_message, "\"id\""},
      {R"({"type":"ping","id":1.5})", errc::bad_message, "\"id\" must be a string or an integer"},
      {R"({"type":"ping","id":true})", errc::bad_message, "got a boolean"},
      {R"({"type":"ping","id":null})", errc::bad_message, "got null"},
      {R"({"type":"ping","id":{"a":1}})", errc::bad_message, "got an object"},
      {R"({"type":"ping","id":[1]})", errc::bad_message, "got an array"},
  });
  EXPECT_TRUE(must_fail(R"({"type":"ping","id":")" + std::string(65, 'x') + R"("})").id.is_null());
  EXPECT_TRUE(must_fail(R"({"type":"ping","id":1.5})").id.is_null());
  // An id that is bad is reported even when the type is missing too: the id is read first.
  EXPECT_TRUE(contains(must_fail(R"({"id":false})").message, "\"id\""));
}

TEST(RequestId, ReadsTheIdOfAnyObjectFrameWithoutParsingTheMessage) {
  EXPECT_EQ(request_id(R"({"type":"ping","id":"p-1"})"), Json("p-1"));
  EXPECT_EQ(request_id(R"({"type":"act","id":42,"table":5,"unknown":true})"), Json(42));  // the rest may be wrong
  EXPECT_EQ(request_id(R"({"id":-3})"), Json(-3));                                           // no type: still read
  EXPECT_TRUE(request_id(R"({"type":"ping"})").is_null());
}

TEST(RequestId, IsNullWheneverTheIdCannotBeReadAndNeverThrows) {
  for (const std::string& frame : {std::string(""), std::string("{not json"), std::string("[1,2]"), std::string("\"id\""),
                                  std::string("{\"id\":1.5}"), std::string("{\"id\":null}"), std::string("{\"id\":[1]}"),
                                  R"({"id":")" + std::string(65, 'x') + R"("})", std::string("{\"id\":\"\xff\"}"),
                                  std::string("{\"id\":\"a\"") /* cut short */}) {
    EXPECT_TRUE(request_id(frame).is_null()) << frame;
  }
  Limits limits;
  limits.max_id_chars = 3;
  EXPECT_TRUE(request_id(R"({"id":"abcd"})", limits).is_null());
  EXPECT_EQ(request_id(R"({"id":"abc"})", limits), Json("abc"));
}

TEST(ParseId, LimitIsConfigurable) {
  Limits limits;
  limits.max_id_chars = 3;
  EXPECT_EQ(must_parse(R"({"type":"ping","id":"abc"})", limits).id, Json("abc"));
  EXPECT_EQ(must_fail(R"({"type":"ping","id":"abcd"})", limits).code, errc::bad_message);
}

TEST(ParseId, IdIsEchoedEvenWhenTheRestIsBad) {
  EXPECT_EQ(must_fail(R"({"id":"q1"})").id, Json("q1"));
  EXPECT_EQ(must_fail(R"({"id":5,"type":"act","table":"t1","version":"3","action":{}})").id, Json(5));
  EXPECT_EQ(must_fail(R"({"id":"n","type":"set_name","name":"  "})").id, Json("n"));
  EXPECT_EQ(must_fail(R"({"id":"u","type":"nope"})").id, Json("u"));
  EXPECT_EQ(must_fail(R"({"id":"p","type":"hello","protocol":2})").id, Json("p"));
  EXPECT_EQ(must_fail(R"({"id":9,"type":"ping","extra":1})").id, Json(9));
}

// ---- hello ------------------------------------------------------------------------------------

TEST(ParseHello, Valid) {
  Hello h = must_parse_as<Hello>(R"({"type":"hello","protocol":1,"name":"Ann"})");
  EXPECT_EQ(h.protocol, 1);
  ASSERT_TRUE(h.name.has_value());
  EXPECT_EQ(*h.name, "Ann");
  Hello anonymous = must_parse_as<Hello>(R"({"type":"hello","protocol":1})");
  EXPECT_FALSE(anonymous.name.has_value());
  EXPECT_EQ(*must_parse_as<Hello>(R"({"type":"hello","protocol":1,"name":"  Bo  "})").name, "Bo");
}

TEST(ParseHello, WrongProtocolIsUnsupported) {
  for (std::string p : {"0", "2", "-1", "18446744073709551615", "-9223372036854775808"}) {
    SCOPED_TRACE(p);
    ParseError e = must_fail(R"({"type":"hello","protocol":)" + p + "}");
    EXPECT_EQ(e.code, errc::unsupported_protocol) << e.message;
    EXPECT_TRUE(contains(e.message, "protocol 1")) << e.message;
    EXPECT_TRUE(contains(e.message, p)) << e.message;
  }
  // Past 2^64 a JSON number is no longer an integer to the parser: a type error, not a version.
  EXPECT_EQ(must_fail(R"({"type":"hello","protocol":99999999999999999999})").code, errc::bad_message);
}

TEST(ParseHello, Invalid) {
  expect_refused({
      {R"({"type":"hello"})", errc::bad_message, "missing field \"protocol\""},
      {R"({"type":"hello","name":"Ann"})", errc::bad_message, "\"protocol\""},
      {R"({"type":"hello","protocol":"1"})", errc::bad_message, "\"protocol\" must be an integer"},
      {R"({"type":"hello","protocol":1.0})", errc::bad_message, "got a number with a fraction"},
      {R"({"type":"hello","protocol":true})", errc::bad_message, "got a boolean"},
      {R"({"type":"hello","protocol":1,"name":7})", errc::bad_message, "\"name\" must be a string"},
      {R"({"type":"hello","protocol":1,"name":null})", errc::bad_message, "\"name\" must be a string"},
      {R"({"type":"hello","protocol":1,"version":1})", errc::bad_message, "unknown field \"version\""},
      {R"({"type":"hello","protocol":1,"name":" "})", errc::bad_name, "\"name\""},
  });
}

// ---- set_name and names -----------------------------------------------------------------------

TEST(ParseSetName, ValidAndTrimmed) {
  EXPECT_EQ(must_parse_as<SetName>(R"({"type":"set_name","name":"Ann"})").name, "Ann");
  EXPECT_EQ(must_parse_as<SetName>(R"({"type":"set_name","name":" \t Ann Lee \n\r"})").name, "Ann Lee");
  EXPECT_EQ(must_parse_as<SetName>(R"({"type":"set_name","name":"Zoë 😀"})").name, "Zoë 😀");
}

TEST(ParseSetName, Invalid) {
  expect_refused({
      {R"({"type":"set_name"})", errc::bad_message, "missing field \"name\""},
      {R"({"type":"set_name","name":1})", errc::bad_message, "\"name\" must be a string, got an integer"},
      {R"({"type":"set_name","name":["Ann"]})", errc::bad_message, "got an array"},
      {R"({"type":"set_name","name":"Ann","nick":"A"})", errc::bad_message, "unknown field \"nick\""},
  });
}

TEST(ParseNames, EmptyAfterTrimIsBadName) {
  for (std::string name : {"", " ", "\\t\\n ", "\\r"}) {
    SCOPED_TRACE(name);
    ParseError e = must_fail(R"({"type":"set_name","name":")" + name + R"("})");
    EXPECT_EQ(e.code, errc::bad_name);
    EXPECT_TRUE(contains(e.message, "empty")) << e.message;
  }
}

TEST(ParseNames, LengthCountsCodePointsAfterTrimming) {
  const std::string e32 = repeat("\xc3\xa9", 32);  // 32 'é', 64 bytes
  EXPECT_EQ(must_parse_as<SetName>(R"({"type":"set_name","name":")" + e32 + R"("})").name, e32);
  ParseError e = must_fail(R"({"type":"set_name","name":")" + e32 + "\xc3\xa9" + R"("})");
  EXPECT_EQ(e.code, errc::bad_name);
  EXPECT_TRUE(contains(e.message, "33")) << e.message;
  EXPECT_TRUE(contains(e.message, "32")) << e.message;

  const std::string a32(32, 'a');
  EXPECT_EQ(must_parse_as<SetName>(R"({"type":"set_name","name":"   )" + a32 + R"(   "})").name, a32);
  EXPECT_EQ(must_fail(R"({"type":"set_name","name":")" + a32 + R"(b"})").code, errc::bad_name);

  // Four-byte characters count once each.
  const std::string emoji32 = repeat("\xf0\x9f\x98\x80", 32);
  EXPECT_EQ(must_parse_as<SetName>(R"({"type":"set_name","name":")" + emoji32 + R"("})").name, emoji32);
  EXPECT_EQ(must_fail(R"({"type":"set_name","name":")" + emoji32 + R"(x"})").code, errc::bad_name);

  // Same rules in hello.
  EXPECT_EQ(must_fail(R"({"type":"hello","protocol":1,"name":")" + a32 + R"(b"})").code, errc::bad_name);
}

TEST(ParseNames, ControlCharactersAreBadName) {
  for (std::string name : {"A\\u0007B", "A\\tB", "A\\nB", "A\\u0000B", "A\\u007fB", "A\\u0085B", "\\u001b[31mred"}) {
    SCOPED_TRACE(name);
    ParseError e = must_fail(R"({"type":"set_name","name":")" + name + R"("})");
    EXPECT_EQ(e.code, errc::bad_name);
    EXPECT_TRUE(contains(e.message, "control")) << e.message;
  }
  ParseError h = must_fail(R"({"type":"hello","protocol":1,"name":"x\u0001"})");
  EXPECT_EQ(h.code, errc::bad_name);
}

// What an attacker tried: text that turns a line around, hides, or piles up marks.
TEST(ParseNames, InvisibleAndLookAlikeTextIsBadName) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"Ann\u202Eevil", "invisible formatting character (U+202E"},  // right-to-left override
      {"\u2066Ann", "U+2066"},                                     // bidi isolate
      {"A\u200BB", "U+200B"},                                      // zero-width space
      {"\uFEFFAnn", "U+FEFF"},                                     // byte-order mark
      {"Ann\u2028Lee", "line or paragraph separator (U+2028)"},
      {"Ann\uFFFF", "noncharacter (U+FFFF)"},
      {"Ann\uFDD0", "noncharacter (U+FDD0)"},
      {"\u200D\u200D\u200C", "nothing visible"},                 // joiners only
      {"\u00A0", "empty"},                                         // a no-break space is a space
      {"\u3000\u2003", "empty"},
      {"\u3164", "U+3164"},                                        // Hangul filler, looks blank
      {"a\u0301\u0302\u0303\u0304\u0305", "more than 4 combining marks"},
      {"\u0301\u0302", "nothing visible"},
  };
  for (const auto& [name, why] : cases) {
    SCOPED_TRACE(name);
    ParseError e = must_fail(R"({"type":"set_name","name":")" + name + R"("})");
    EXPECT_EQ(e.code, errc::bad_name);
    EXPECT_TRUE(contains(e.message, why)) << e.message;
  }
  // A letter with 31 combining marks, as tried.
  std::string zalgo = "a";
  for (int i = 0; i < 31; ++i) zalgo += "\u0300";
  EXPECT_EQ(must_fail(R"({"type":"set_name","name":")" + zalgo + R"("})").code, errc::bad_name);
}

TEST(ParseNames, RealNamesInEveryScriptPass) {
  // Unicode spaces at the ends are trimmed like ASCII ones; joiners and variation selectors inside emoji,
  // accents, Vietnamese, Thai, Hebrew points, Arabic, CJK and kana voicing marks are all fine.
  EXPECT_EQ(must_parse_as<SetName>(R"({"type":"set_name","name":"\u00A0Ann\u3000"})").name, "Ann");
  for (std::string name : {"Zoë", "Nguyễn Thị Minh", "สมชาย", "שָׁלוֹם", "محمد", "王小明", "さくら", "か\u3099",
                           "👩\u200D💻 Ann", "❤\uFE0F", "Ann Lee", "José\u0301"}) {
    SCOPED_TRACE(name);
    const auto parsed = parse_client_message(R"({"type":"set_name","name":")" + name + R"("})");
    EXPECT_TRUE(std::holds_alternative<Request>(parsed)) << std::get<ParseError>(parsed).message;
  }
}

TEST(ParseNames, LimitIsConfigurable) {
  Limits limits;
  limits.max_name_chars = 2;
  EXPECT_EQ(must_parse_as<SetName>(R"({"type":"set_name","name":"ab"})", limits).name, "ab");
  EXPECT_EQ(must_fail(R"({"type":"set_name","name":"abc"})", limits).code, errc::bad_name);
}

// ---- watch_lobby ------------------------------------------------------------------------------

TEST(ParseWatchLobby, ValidWithDefault) {
  EXPECT_TRUE(must_parse_as<WatchLobby>(R"({"type":"watch_lobby"})").on);
  EXPECT_TRUE(must_parse_as<WatchLobby>(R"({"type":"watch_lobby","on":true})").on);
  EXPECT_FALSE(must_parse_as<WatchLobby>(R"({"type":"watch_lobby","on":false})").on);
}

TEST(ParseWatchLobby, Invalid) {
  expect_refused({
      {R"({"type":"watch_lobby","on":1})", errc::bad_message, "\"on\" must be a boolean"},
      {R"({"type":"watch_lobby","on":"true"})", errc::bad_message, "got a string"},
      {R"({"type":"watch_lobby","on":null})", errc::bad_message, "got null"},
      {R"({"type":"watch_lobby","off":true})", errc::bad_message, "unknown field \"off\""},
  });
}

// ---- create_table -----------------------------------------------------------------------------

TEST(ParseCreateTable, Valid) {
  CreateTable c = must_parse_as<CreateTable>(
      R"({"type":"create_table","game":"medici","players":3,"options":{"days":2},"private":true})");
  EXPECT_EQ(c.game, "medici");
  EXPECT_EQ(c.players, 3);
  EXPECT_EQ(c.options, Json({{"days", 2}}));
  EXPECT_TRUE(c.is_private);

  CreateTable d = must_parse_as<CreateTable>(R"({"type":"create_table","game":"medici","players":4})");
  EXPECT_EQ(d.players, 4);
  EXPECT_TRUE(d.options.is_object());
  EXPECT_TRUE(d.options.empty());
  EXPECT_FALSE(d.is_private);
  EXPECT_FALSE(d.clock);

  CreateTable timed = must_parse_as<CreateTable>(
      R"({"type":"create_table","game":"medici","players":3,"clock":{"turn":20,"reserve":120}})");
  ASSERT_TRUE(timed.clock);
  EXPECT_EQ(*timed.clock, (ClockConfig{20, 120}));
  CreateTable extremes = must_parse_as<CreateTable>(
      R"({"type":"create_table","game":"medici","players":3,"clock":{"turn":86400,"reserve":0}})");
  EXPECT_EQ(*extremes.clock, (ClockConfig{86400, 0}));
  // Vacations stop a correspondence clock unless the creator forbids them.
  EXPECT_TRUE(extremes.clock->vacations);
  CreateTable strict = must_parse_as<CreateTable>(
      R"({"type":"create_table","game":"medici","players":3,"clock":{"turn":86400,"reserve":0,"vacations":false}})");
  EXPECT_EQ(*strict.clock, (ClockConfig{86400, 0, false}));

  // "rated": absent (the server decides), or a boolean.
  EXPECT_FALSE(d.rated);
  EXPECT_EQ(must_parse_as<CreateTable>(R"({"type":"create_table","game":"medici","players":3,"rated":true})").rated, true);
  EXPECT_EQ(must_parse_as<CreateTable>(R"({"type":"create_table","game":"medici","players":3,"rated":false})").rated, false);
  expect_refused({{R"({"type":"create_table","game":"medici","players":3,"rated":1})", errc::bad_message,
                   "\"rated\" must be a boolean"}});
}

TEST(ParseCreateTable, ClockLimits) {
  expect_refused({
      {R"({"type":"create_table","game":"medici","players":3,"clock":{"turn":4,"reserve":0}})", errc::bad_message,
       "\"turn\" must be a number of seconds from 5 to 86400, got 4"},
      {R"({"type":"create_table","game":"medici","players":3,"clock":{"turn":86401,"reserve":0}})", errc::bad_message,
       "\"turn\" must be a number of seconds from 5 to 86400"},
      {R"({"type":"create_table","game":"medici","players":3,"clock":{"turn":20,"reserve":-1}})", errc::bad_message,
       "\"reserve\" must be a number of seconds from 0 to 86400, got -1"},
      {R"({"type":"create_table","game":"medici","players":3,"clock":{"turn":20}})", errc::bad_message,
       "missing field \"reserve\""},
      {R"({"type":"create_table","game":"medici","players":3,"clock":{"turn":20.5,"reserve":0}})", errc::bad_message,
       "\"turn\" must be a number of seconds"},
      {R"({"type":"create_table","game":"medici","players":3,"clock":{"turn":20,"reserve":0,"bonus":5}})",
       errc::bad_message, "unknown field \"bonus\""},
      {R"({"type":"create_table","game":"medici","players":3,"clock":{"turn":20,"reserve":0,"vacations":0}})",
       errc::bad_message, "\"vacations\" must be a boolean"},
      {R"({"type":"create_table","game":"medici","players":3,"clock":60})", errc::bad_message,
       "\"clock\" must be an object"},
      {R"({"type":"create_table","game":"medici","players":3,"clock":null})", errc::bad_message,
       "\"clock\" must be an object"},
  });
  // A server may allow shorter turns (tests do).
  Limits quick;
  quick.min_turn_s = 1;
  auto parsed = parse_client_message(
      R"({"type":"create_table","game":"medici","players":3,"clock":{"turn":2,"reserve":0}})", quick);
  ASSERT_TRUE(std::holds_alternative<Request>(parsed));
  EXPECT_EQ(std::get<CreateTable>(std::get<Request>(parsed).message).clock->turn_s, 2);
}

TEST(ParseCreateTable, Invalid) {
  expect_refused({
      {R"({"type":"create_table","players":3})", errc::bad_message, "missing field \"game\""},
      {R"({"type":"create_table","game":"medici"})", errc::bad_message, "missing field \"players\""},
      {R"({"type":"create_table","game":5,"players":3})", errc::bad_message, "\"game\" must be a string"},
      {R"({"type":"create_table","game":"medici","players":"3"})", errc::bad_message,
       "\"players\" must be an integer, got a string"},
      {R"({"type":"create_table","game":"medici","players":3.5})", errc::bad_message, "\"players\" must be an integer"},
      {R"({"type":"create_table","game":"medici","players":3.0})", errc::bad_message, "\"players\" must be an integer"},
      {R"({"type":"create_table","game":"medici","players":true})", errc::bad_message, "got a boolean"},
      {R"({"type":"create_table","game":"medici","players":99999999999})", errc::bad_message, "\"players\""},
      {R"({"type":"create_table","game":"medici","players":3,"options":[]})", errc::bad_message,
       "\"options\" must be an object, got an array"},
      {R"({"type":"create_table","game":"medici","players":3,"options":null})", errc::bad_message, "\"options\""},
      {R"({"type":"create_table","game":"medici","players":3,"private":"yes"})", errc::bad_message,
       "\"private\" must be a boolean"},
      {R"({"type":"create_table","game":"medici","players":3,"public":true})", errc::bad_message,
       "unknown field \"public\""},
  });
}

// ---- join and watch ---------------------------------------------------------------------------

TEST(ParseJoin, ValidByTableOrInvite) {
  Join a = must_parse_as<Join>(R"({"type":"join","table":"t8f3k2","seat":1})");
  EXPECT_EQ(a.ref.table, std::optional<std::string>("t8f3k2"));
  EXPECT_FALSE(a.ref.invite.has_value());
  EXPECT_EQ(a.seat, std::optional<int>(1));

  Join b = must_parse_as<Join>(R"({"type":"join","invite":"Ab_9-xyz"})");
  EXPECT_FALSE(b.ref.table.has_value());
  EXPECT_EQ(b.ref.invite, std::optional<std::string>("Ab_9-xyz"));
  EXPECT_FALSE(b.seat.has_value());

  EXPECT_EQ(must_parse_as<Join>(R"({"type":"join","table":"t","seat":0})").seat, std::optional<int>(0));
}

TEST(ParseJoin, Invalid) {
  expect_refused({
      {R"({"type":"join"})", errc::bad_message, "neither"},
      {R"({"type":"join","seat":1})", errc::bad_message, "exactly one of \"table\""},
      {R"({"type":"join","table":"t1","invite":"i1"})", errc::bad_message, "not both"},
      {R"({"type":"join","table":1})", errc::bad_message, "\"table\" must be a string"},
      {R"({"type":"join","invite":null})", errc::bad_message, "\"invite\" must be a string"},
      {R"({"type":"join","table":"t1","seat":-1})", errc::bad_message, "\"seat\""},
      {R"({"type":"join","table":"t1","seat":"1"})", errc::bad_message, "\"seat\" must be an integer"},
      {R"({"type":"join","table":"t1","seat":1.0})", errc::bad_message, "\"seat\" must be an integer"},
      {R"({"type":"join","table":"t1","seat":4294967296})", errc::bad_message, "\"seat\""},
      {R"({"type":"join","table":"t1","token":"x"})", errc::bad_message, "unknown field \"token\""},
  });
}

TEST(ParseWatch, ValidByTableOrInvite) {
  EXPECT_EQ(must_parse_as<Watch>(R"({"type":"watch","table":"t8f3k2"})").ref.table, std::optional<std::string>("t8f3k2"));
  Watch w = must_parse_as<Watch>(R"({"type":"watch","invite":"inv"})");
  EXPECT_EQ(w.ref.invite, std::optional<std::string>("inv"));
  EXPECT_FALSE(w.ref.table.has_value());
}

TEST(ParseWatch, Invalid) {
  expect_refused({
      {R"({"type":"watch"})", errc::bad_message, "neither"},
      {R"({"type":"watch","table":"a","invite":"b"})", errc::bad_message, "not both"},
      {R"({"type":"watch","table":["a"]})", errc::bad_message, "\"table\" must be a string"},
      {R"({"type":"watch","table":"a","seat":1})", errc::bad_message, "unknown field \"seat\""},
      {R"({"type":"watch","invite":"a b"})", errc::bad_message, "\"invite\" may contain only"},
  });
}

// ---- tokens, table ids and invite codes -------------------------------------------------------

TEST(ParseIdentifiers, CharactersAndLength) {
  const std::string max(128, 'Z');
  EXPECT_EQ(must_parse_as<Resume>(R"({"type":"resume","token":")" + max + R"("})").token, max);
  EXPECT_EQ(must_parse_as<Resume>(R"({"type":"resume","token":"aZ09_-"})").token, "aZ09_-");
  expect_refused({
      {R"({"type":"resume","token":")" + std::string(129, 'Z') + R"("})", errc::bad_message, "longer than 128"},
      {R"({"type":"resume","token":""})", errc::bad_message, "non-empty"},
      {R"({"type":"resume","token":"abc def"})", errc::bad_message, "may contain only"},
      {R"({"type":"resume","token":"abc/def"})", errc::bad_message, "\"token\" may contain only"},
      {R"({"type":"resume","token":"abc+def="})", errc::bad_message, "may contain only"},
      {R"({"type":"resume","token":"abc.def"})", errc::bad_message, "may contain only"},
      {R"({"type":"resume","token":"tok\u00e9n"})", errc::bad_message, "may contain only"},
      {R"({"type":"resume","token":"a\u0000b"})", errc::bad_message, "may contain only"},
      {R"({"type":"start","table":"../etc"})", errc::bad_message, "\"table\" may contain only"},
      {R"({"type":"join","invite":"<script>"})", errc::bad_message, "\"invite\" may contain only"},
      {R"({"type":"leave","table":""})", errc::bad_message, "\"table\""},
  });
  Limits limits;
  limits.max_token_chars = 4;
  EXPECT_EQ(must_parse_as<Leave>(R"({"type":"leave","table":"abcd"})", limits).table, "abcd");
  EXPECT_EQ(must_fail(R"({"type":"leave","table":"abcde"})", limits).code, errc::bad_message);
}

// ---- leave, start, resume, snapshot, ping -----------------------------------------------------

TEST(ParseLeave, ValidAndInvalid) {
  EXPECT_EQ(must_parse_as<Leave>(R"({"type":"leave","table":"t8f3k2"})").table, "t8f3k2");
  expect_refused({
      {R"({"type":"leave"})", errc::bad_message, "missing field \"table\""},
      {R"({"type":"leave","table":3})", errc::bad_message, "\"table\" must be a string"},
      {R"({"type":"leave","table":"t","seat":0})", errc::bad_message, "unknown field \"seat\""},
      {R"({"type":"leave","invite":"i"})", errc::bad_message, "unknown field \"invite\""},
  });
}

TEST(ParseStart, ValidAndInvalid) {
  EXPECT_EQ(must_parse_as<Start>(R"({"type":"start","table":"t8f3k2"})").table, "t8f3k2");
  expect_refused({
      {R"({"type":"start"})", errc::bad_message, "missing field \"table\""},
      {R"({"type":"start","table":{}})", errc::bad_message, "got an object"},
      {R"({"type":"start","table":"t","now":true})", errc::bad_message, "unknown field \"now\""},
  });
}

TEST(ParseBots, AddAndRemove) {
  const auto add = must_parse_as<AddBot>(R"({"type":"add_bot","table":"t8f3k2","seat":2,"level":"easy"})");
  EXPECT_EQ(add.table, "t8f3k2");
  EXPECT_EQ(add.seat, 2);
  EXPECT_EQ(add.level, "easy");
  EXPECT_EQ(must_parse_as<AddBot>(R"({"type":"add_bot","table":"t","seat":0})").level, "normal");
  const auto remove = must_parse_as<RemoveBot>(R"({"type":"remove_bot","table":"t8f3k2","seat":1})");
  EXPECT_EQ(remove.table, "t8f3k2");
  EXPECT_EQ(remove.seat, 1);
  expect_refused({
      {R"({"type":"add_bot","table":"t"})", errc::bad_message, "missing field \"seat\""},
      {R"({"type":"add_bot","seat":1})", errc::bad_message, "missing field \"table\""},
      {R"({"type":"add_bot","table":"t","seat":-1})", errc::bad_message, "\"seat\""},
      {R"({"type":"add_bot","table":"t","seat":1.5})", errc::bad_message, "\"seat\""},
      {R"({"type":"add_bot","table":"t","seat":1,"level":3})", errc::bad_message, "\"level\" must be a string"},
      {R"({"type":"add_bot","table":"t","seat":1,"name":"R2"})", errc::bad_message, "unknown field \"name\""},
      {R"({"type":"remove_bot","table":"t"})", errc::bad_message, "missing field \"seat\""},
      {R"({"type":"remove_bot","table":"t","seat":1,"level":"easy"})", errc::bad_message, "unknown field \"level\""},
  });
}

TEST(ParseReplaceAbsent, ValidAndInvalid) {
  const auto m = must_parse_as<ReplaceAbsent>(R"({"type":"replace_absent","table":"t8f3k2","seat":2,"id":"r1"})");
  EXPECT_EQ(m.table, "t8f3k2");
  EXPECT_EQ(m.seat, 2);
  EXPECT_EQ(must_parse_as<ReplaceAbsent>(R"({"type":"replace_absent","table":"t","seat":0})").seat, 0);
  expect_refused({
      {R"({"type":"replace_absent","table":"t"})", errc::bad_message, "missing field \"seat\""},
      {R"({"type":"replace_absent","seat":1})", errc::bad_message, "missing field \"table\""},
      {R"({"type":"replace_absent","table":"t","seat":-1})", errc::bad_message, "\"seat\""},
      {R"({"type":"replace_absent","table":"t","seat":1.0})", errc::bad_message, "\"seat\""},
      {R"({"type":"replace_absent","table":"t","seat":"1"})", errc::bad_message, "\"seat\""},
      {R"({"type":"replace_absent","table":"t!","seat":1})", errc::bad_message, "\"table\""},
      {R"({"type":"replace_absent","table":"t","seat":1,"level":"easy"})", errc::bad_message,
       "unknown field \"level\""},
  });
}

TEST(ParseResume, ValidAndInvalid) {
  const auto by_token = must_parse_as<Resume>(R"({"type":"resume","token":"s3cr3t-T0ken_"})");
  EXPECT_EQ(by_token.token, "s3cr3t-T0ken_");
  EXPECT_EQ(by_token.table, "");
  const auto by_account = must_parse_as<Resume>(R"({"type":"resume","table":"t8f3k2"})");
  EXPECT_EQ(by_account.token, "");
  EXPECT_EQ(by_account.table, "t8f3k2");
  expect_refused({
      {R"({"type":"resume"})", errc::bad_message, "a seat's \"token\" or, signed in, a \"table\""},
      {R"({"type":"resume","token":12345})", errc::bad_message, "\"token\" must be a string"},
      {R"({"type":"resume","table":""})", errc::bad_message, "\"table\""},
      {R"({"type":"resume","token":"abc","table":"t"})", errc::bad_message, "(one of them)"},
      {R"({"type":"resume","token":"abc","seat":1})", errc::bad_message, "unknown field \"seat\""},
  });
}

TEST(ParseSnapshot, ValidAndInvalid) {
  EXPECT_EQ(must_parse_as<SnapshotRequest>(R"({"type":"snapshot","table":"t8f3k2"})").table, "t8f3k2");
  expect_refused({
      {R"({"type":"snapshot"})", errc::bad_message, "missing field \"table\""},
      {R"({"type":"snapshot","table":false})", errc::bad_message, "got a boolean"},
      {R"({"type":"snapshot","table":"t","version":3})", errc::bad_message, "unknown field \"version\""},
  });
}

TEST(ParsePing, ValidAndInvalid) {
  Request r = must_parse(R"({"type":"ping","id":"p1"})");
  EXPECT_TRUE(std::holds_alternative<Ping>(r.message));
  EXPECT_EQ(r.id, Json("p1"));
  must_parse_as<Ping>(R"({"type":"ping"})");
  expect_refused({
      {R"({"type":"ping","payload":1})", errc::bad_message, "unknown field \"payload\""},
  });
}

TEST(ParseRematch, ValidAndInvalid) {
  EXPECT_EQ(must_parse_as<Rematch>(R"({"type":"rematch","table":"t8f3k2","id":"r1"})").table, "t8f3k2");
  expect_refused({
      {R"({"type":"rematch"})", errc::bad_message, "missing field \"table\""},
      {R"({"type":"rematch","table":7})", errc::bad_message, "\"table\" must be a string"},
      {R"({"type":"rematch","table":"t/1"})", errc::bad_message, "\"table\" may contain only"},
      {R"({"type":"rematch","table":"t","seat":1})", errc::bad_message, "unknown field \"seat\""},
  });
}

TEST(ParseMyGames, ValidAndInvalid) {
  EXPECT_EQ(must_parse_as<MyGames>(R"({"type":"my_games","tokens":["a-1","B_2"]})").tokens,
            (std::vector<std::string>{"a-1", "B_2"}));
  EXPECT_TRUE(must_parse_as<MyGames>(R"({"type":"my_games","tokens":[]})").tokens.empty());
  // At most 50 tokens of at most 100 characters each.
  Json fifty = Json::array();
  for (int i = 0; i < 50; ++i) fifty.push_back(repeat("x", 100));
  const Json ok{{"type", "my_games"}, {"tokens", fifty}};
  EXPECT_EQ(must_parse_as<MyGames>(ok.dump()).tokens.size(), 50u);
  Json fifty_one = ok;
  fifty_one["tokens"].push_back("y");
  Json too_long = ok;
  too_long["tokens"][7] = repeat("x", 101);
  expect_refused({
      {fifty_one.dump(), errc::bad_message, "\"tokens\" has 51 tokens; the most is 50"},
      {too_long.dump(), errc::bad_message, "\"tokens[7]\" is longer than 100 characters"},
      {R"({"type":"my_games"})", errc::bad_message, "missing field \"tokens\""},
      {R"({"type":"my_games","tokens":"abc"})", errc::bad_message, "\"tokens\" must be an array of seat tokens"},
      {R"({"type":"my_games","tokens":["ok",3]})", errc::bad_message, "\"tokens[1]\" must be a string, got an integer"},
      {R"({"type":"my_games","tokens":[""]})", errc::bad_message, "\"tokens[0]\" must be a non-empty string"},
      {R"({"type":"my_games","tokens":["a b"]})", errc::bad_message, "\"tokens[0]\" may contain only"},
      {R"({"type":"my_games","tokens":[],"table":"t"})", errc::bad_message, "unknown field \"table\""},
  });
}

// ---- act --------------------------------------------------------------------------------------

TEST(ParseAct, Valid) {
  Act a = must_parse_as<Act>(R"({"type":"act","table":"t8f3k2","version":17,"action":{"type":"bid","amount":5}})");
  EXPECT_EQ(a.table, "t8f3k2");
  EXPECT_EQ(a.version, 17u);
  EXPECT_EQ(a.action, Json({{"type", "bid"}, {"amount", 5}}));
  EXPECT_EQ(must_parse_as<Act>(R"({"type":"act","table":"t","version":0,"action":{}})").version, 0u);
  EXPECT_EQ(must_parse_as<Act>(R"({"type":"act","table":"t","version":18446744073709551615,"action":{}})").version,
            18446744073709551615u);
  // The action's contents are the engine's business: anything inside an object is passed through.
  EXPECT_EQ(must_parse_as<Act>(R"({"type":"act","table":"t","version":1,"action":{"x":[1,{"y":null}]}})").action,
            Json::parse(R"({"x":[1,{"y":null}]})"));
}

TEST(ParseAct, Invalid) {
  expect_refused({
      {R"({"type":"act","version":1,"action":{}})", errc::bad_message, "missing field \"table\""},
      {R"({"type":"act","table":"t","action":{}})", errc::bad_message, "missing field \"version\""},
      {R"({"type":"act","table":"t","version":1})", errc::bad_message, "missing field \"action\""},
      {R"({"type":"act","table":"t","version":1.5,"action":{}})", errc::bad_message,
       "\"version\" must be a non-negative integer, got a number with a fraction"},
      {R"({"type":"act","table":"t","version":1.0,"action":{}})", errc::bad_message, "\"version\""},
      {R"({"type":"act","table":"t","version":1e3,"action":{}})", errc::bad_message, "\"version\""},
      {R"({"type":"act","table":"t","version":-1,"action":{}})", errc::bad_message,
       "\"version\" must be a non-negative integer, got -1"},
      {R"({"type":"act","table":"t","version":"17","action":{}})", errc::bad_message, "got a string"},
      {R"({"type":"act","table":"t","version":true,"action":{}})", errc::bad_message, "got a boolean"},
      {R"({"type":"act","table":"t","version":1,"action":"draw"})", errc::bad_message,
       "\"action\" must be an object, got a string"},
      {R"({"type":"act","table":"t","version":1,"action":[]})", errc::bad_message, "got an array"},
      {R"({"type":"act","table":"t","version":1,"action":null})", errc::bad_message, "got null"},
      {R"({"type":"act","table":"t","version":1,"action":{},"seat":0})", errc::bad_message, "unknown field \"seat\""},
      {R"({"type":"act","table":"t!","version":1,"action":{}})", errc::bad_message, "\"table\" may contain only"},
  });
}

// ---- undo and preview (docs/undo.md) ------------------------------------------------------------

TEST(ParseUndo, IsTheActOfTheEnginesUndo) {
  Act a = must_parse_as<Act>(R"({"type":"undo","table":"t8f3k2","version":18})");
  EXPECT_EQ(a.table, "t8f3k2");
  EXPECT_EQ(a.version, 18u);
  EXPECT_EQ(a.action, Json({{"type", "undo"}}));
  expect_refused({
      {R"({"type":"undo","version":1})", errc::bad_message, "missing field \"table\""},
      {R"({"type":"undo","table":"t"})", errc::bad_message, "missing field \"version\""},
      {R"({"type":"undo","table":"t","version":1,"steps":2})", errc::bad_message, "unknown field \"steps\""},
  });
}

TEST(ParsePreview, OneToEightActions) {
  Preview p = must_parse_as<Preview>(
      R"({"type":"preview","table":"t8f3k2","version":17,"actions":[{"type":"place","x":1},{"type":"pass"}]})");
  EXPECT_EQ(p.table, "t8f3k2");
  EXPECT_EQ(p.version, 17u);
  ASSERT_EQ(p.actions.size(), 2u);
  EXPECT_EQ(p.actions[1], Json({{"type", "pass"}}));
  std::string nine = R"({"type":"preview","table":"t","version":1,"actions":[)";
  for (int i = 0; i < 9; ++i) nine += std::string(i ? "," : "") + "{}";
  nine += "]}";
  expect_refused({
      {R"({"type":"preview","table":"t","version":1,"actions":[]})", errc::bad_message, "1 to 8 actions"},
      {nine, errc::bad_message, "1 to 8 actions"},
      {R"({"type":"preview","table":"t","version":1,"actions":{}})", errc::bad_message, "\"actions\" must be"},
      {R"({"type":"preview","table":"t","version":1,"actions":["draw"]})", errc::bad_message, "must be an object"},
      {R"({"type":"preview","table":"t","actions":[{}]})", errc::bad_message, "missing field \"version\""},
  });
}

TEST(ParseCreateTable, UndoIsOptional) {
  EXPECT_FALSE(must_parse_as<CreateTable>(R"({"type":"create_table","game":"medina","players":3})").undo);
  EXPECT_EQ(must_parse_as<CreateTable>(R"({"type":"create_table","game":"medina","players":3,"undo":false})").undo, false);
  expect_refused({{R"({"type":"create_table","game":"medina","players":3,"undo":1})", errc::bad_message, "\"undo\""}});
}

TEST(RenderPreview, AFinalStepShowsNothingOfAfterIt) {
  const Json shown = Json::parse(render_preview(7, "t1", 3, false, Json::array({{{"type", "place"}}}),
                                                Json{{"phase", "play"}}, Json::array({{{"type", "pass"}}})));
  EXPECT_EQ(shown, Json::parse(R"({"type":"preview","re":7,"table":"t1","version":3,"final":false,
    "events":[{"type":"place"}],"view":{"phase":"play"},"legal":[{"type":"pass"}]})"));
  const Json final = Json::parse(render_preview(nullptr, "t1", 3, true, Json::array()));
  EXPECT_EQ(final, Json::parse(R"({"type":"preview","table":"t1","version":3,"final":true,"events":[]})"));
  EXPECT_EQ(Json::parse(render_step_error(8, "occupied", "taken", 1))["step"], 1);
}

// ---- chat -------------------------------------------------------------------------------------

TEST(ParseChat, ValidTextIsKeptVerbatim) {
  Chat c = must_parse_as<Chat>(R"({"type":"chat","table":"t8f3k2","text":"hello"})");
  EXPECT_EQ(c.table, "t8f3k2");
  EXPECT_EQ(c.text, "hello");
  // No HTML escaping, no trimming: clients render chat as text.
  const std::string html = "<script>alert(\"x\")</script> & <b>bold</b>";
  EXPECT_EQ(must_parse_as<Chat>(R"({"type":"chat","table":"t","text":")" + Json(html).dump().substr(1) + "}").text,
            html);
  EXPECT_EQ(must_parse_as<Chat>(R"({"type":"chat","table":"t","text":"  two\nlines  "})").text, "  two\nlines  ");
}

TEST(ParseChat, ControlAndInvisibleTextIsRefused) {
  for (const auto& [text, why] : std::vector<std::pair<std::string, std::string>>{
           {"a\\u0000b", "control character (U+0000"},
           {"bell\\u0007", "control character"},
           {"\u200B\u200B", "U+200B"},
           {"\u200D", "nothing visible"},
           {"abc\u202Edef", "U+202E"},
           {"x\u2029y", "separator"}}) {
    SCOPED_TRACE(text);
    ParseError e = must_fail(R"({"type":"chat","table":"t","text":")" + text + R"("})");
    EXPECT_EQ(e.code, errc::bad_message);
    EXPECT_TRUE(contains(e.message, why)) << e.message;
  }
}

TEST(ParseChat, LengthCountsCodePoints) {
  const std::string max = repeat("\xc3\xa9", 500);
  EXPECT_EQ(must_parse_as<Chat>(R"({"type":"chat","table":"t","text":")" + max + R"("})").text, max);
  ParseError e = must_fail(R"({"type":"chat","table":"t","text":")" + max + R"(!"})");
  EXPECT_EQ(e.code, errc::chat_too_long);
  EXPECT_TRUE(contains(e.message, "501")) << e.message;
  EXPECT_TRUE(contains(e.message, "500")) << e.message;
  EXPECT_EQ(must_fail(R"({"type":"chat","table":"t","text":")" + std::string(501, 'a') + R"("})").code,
            errc::chat_too_long);
  Limits limits;
  limits.max_chat_chars = 3;
  EXPECT_EQ(must_parse_as<Chat>(R"({"type":"chat","table":"t","text":"abc"})", limits).text, "abc");
  EXPECT_EQ(must_fail(R"({"type":"chat","table":"t","text":"abcd"})", limits).code, errc::chat_too_long);
}

TEST(ParseChat, Invalid) {
  expect_refused({
      {R"({"type":"chat","table":"t","text":""})", errc::bad_message, "\"text\" is empty"},
      {R"({"type":"chat","table":"t","text":" \n\t "})", errc::bad_message, "\"text\" is empty"},
      {R"({"type":"chat","table":"t"})", errc::bad_message, "missing field \"text\""},
      {R"({"type":"chat","text":"hi"})", errc::bad_message, "missing field \"table\""},
      {R"({"type":"chat","table":"t","text":42})", errc::bad_message, "\"text\" must be a string, got an integer"},
      {R"({"type":"chat","table":"t","text":"hi","to":"Ann"})", errc::bad_message, "unknown field \"to\""},
      {R"({"type":"chat","table":"t t","text":"hi"})", errc::bad_message, "\"table\" may contain only"},
  });
}

// ---- misc -------------------------------------------------------------------------------------

TEST(ParseMisc, UnknownFieldMessageListsTheAllowedOnes) {
  ParseError e = must_fail(R"({"type":"join","table":"t","sit":1})");
  EXPECT_EQ(e.code, errc::bad_message);
  EXPECT_TRUE(contains(e.message, "\"sit\"")) << e.message;
  EXPECT_TRUE(contains(e.message, "\"seat\"")) << e.message;
  EXPECT_TRUE(contains(e.message, "\"join\"")) << e.message;
}

TEST(ParseMisc, NeverThrowsOnOddInput) {
  const std::vector<std::string> frames = {
      std::string("\0\0\0", 3), std::string(100000, '['), "{\"type\":\"act\",\"table\":\"t\",\"version\":1,\"action\":" +
                                                              std::string(5000, '[') + std::string(5000, ']') + "}",
      "{\"type\":\"chat\",\"table\":\"t\",\"text\":\"\xed\xa0\x80\"}",  // an encoded surrogate
      "{\"type\":\"ping\",\"id\":1e999}", "\xef\xbb\xbf{\"type\":\"ping\"}"};
  for (const std::string& f : frames) {
    EXPECT_NO_THROW({
      auto r = parse_client_message(f);
      if (auto* e = std::get_if<ParseError>(&r)) {
        EXPECT_NE(e->code, errc::internal_error) << e->message;
        EXPECT_TRUE(Json::accept(render_error(e->id, e->code, e->message)));
      }
    });
  }
  EXPECT_EQ(must_fail(frames[0]).code, errc::bad_json);
  EXPECT_EQ(must_fail(frames[1]).code, errc::bad_json);
  EXPECT_EQ(must_fail(frames[2]).code, errc::bad_json);  // nested 5000 deep: more than max_depth
  EXPECT_EQ(must_fail(frames[3]).code, errc::bad_json);
}

TEST(TypeName, EveryAlternative) {
  EXPECT_EQ(type_name(Hello{}), "hello");
  EXPECT_EQ(type_name(SetName{}), "set_name");
  EXPECT_EQ(type_name(WatchLobby{}), "watch_lobby");
  EXPECT_EQ(type_name(CreateTable{}), "create_table");
  EXPECT_EQ(type_name(Join{}), "join");
  EXPECT_EQ(type_name(Watch{}), "watch");
  EXPECT_EQ(type_name(Leave{}), "leave");
  EXPECT_EQ(type_name(Start{}), "start");
  EXPECT_EQ(type_name(AddBot{}), "add_bot");
  EXPECT_EQ(type_name(RemoveBot{}), "remove_bot");
  EXPECT_EQ(type_name(ReplaceAbsent{}), "replace_absent");
  EXPECT_EQ(type_name(Resume{}), "resume");
  EXPECT_EQ(type_name(Act{}), "act");
  EXPECT_EQ(type_name(SnapshotRequest{}), "snapshot");
  EXPECT_EQ(type_name(Chat{}), "chat");
  EXPECT_EQ(type_name(Ping{}), "ping");
  EXPECT_EQ(type_name(Rematch{}), "rematch");
  EXPECT_EQ(type_name(MyGames{}), "my_games");
}

TEST(TypeName, MatchesTheWireTypeOfEveryParsedMessage) {
  for (std::string frame : {R"({"type":"hello","protocol":1})", R"({"type":"set_name","name":"a"})",
                            R"({"type":"watch_lobby"})", R"({"type":"create_table","game":"g","players":2})",
                            R"({"type":"join","table":"t"})", R"({"type":"watch","table":"t"})",
                            R"({"type":"leave","table":"t"})", R"({"type":"start","table":"t"})",
                            R"({"type":"add_bot","table":"t","seat":1})", R"({"type":"remove_bot","table":"t","seat":1})",
                            R"({"type":"replace_absent","table":"t","seat":1})",
                            R"({"type":"resume","token":"k"})", R"({"type":"act","table":"t","version":0,"action":{}})",
                            R"({"type":"snapshot","table":"t"})", R"({"type":"chat","table":"t","text":"x"})",
                            R"({"type":"ping"})", R"({"type":"rematch","table":"t"})",
                            R"({"type":"my_games","tokens":[]})"}) {
    SCOPED_TRACE(frame);
    EXPECT_EQ(type_name(must_parse(frame).message), Json::parse(frame)["type"].get<std::string>());
  }
}

// ---- Rendering --------------------------------------------------------------------------------

TableInfo sample_table() {
  TableInfo t;
  t.id = "t8f3k2";
  t.game = "medici";
  t.players = 3;
  t.options = Json{{"days", 3}};
  t.is_private = false;
  t.state = "waiting";
  t.seats = {{0, "Ann", true, std::nullopt, std::nullopt, std::nullopt},
             {1, std::nullopt, false, std::nullopt, std::nullopt, std::nullopt},
             {2, "Bot 1", true, "easy", std::nullopt, std::nullopt}};
  t.spectators = 2;
  t.creator_seat = 0;
  return t;
}

void expect_sample_table(const Json& t) {
  ASSERT_TRUE(t.is_object()) << t.dump();
  EXPECT_EQ(t.size(), 11u) << t.dump();
  EXPECT_EQ(t.at("rated"), false);
  EXPECT_EQ(t.at("undo"), true);
  EXPECT_EQ(t.at("id"), "t8f3k2");
  EXPECT_EQ(t.at("game"), "medici");
  EXPECT_EQ(t.at("players"), 3);
  EXPECT_EQ(t.at("options"), Json({{"days", 3}}));
  EXPECT_EQ(t.at("private"), false);
  EXPECT_EQ(t.at("state"), "waiting");
  EXPECT_EQ(t.at("spectators"), 2);
  EXPECT_EQ(t.at("creator_seat"), 0);
  ASSERT_EQ(t.at("seats").size(), 3u);
  EXPECT_EQ(t.at("seats")[0], Json::parse(R"({"seat":0,"name":"Ann","connected":true})"));
  EXPECT_EQ(t.at("seats")[1], Json::parse(R"({"seat":1,"name":null,"connected":false})"));
  // A bot's seat names its level; a person's seat has no "bot" field.
  EXPECT_EQ(t.at("seats")[2], Json::parse(R"({"seat":2,"name":"Bot 1","connected":true,"bot":"easy"})"));
}

TEST(ParseFriends, EachRelationRequestNamesItsKindAndAName) {
  EXPECT_NO_THROW(must_parse_as<Friends>(R"({"type":"friends"})"));
  const std::vector<std::pair<std::string, Relate::Kind>> kinds = {
      {"friend_request", Relate::Kind::request}, {"friend_accept", Relate::Kind::accept},
      {"friend_decline", Relate::Kind::decline}, {"friend_cancel", Relate::Kind::cancel},
      {"friend_remove", Relate::Kind::remove},   {"block", Relate::Kind::block},
      {"unblock", Relate::Kind::unblock}};
  for (const auto& [type, kind] : kinds) {
    const Request r = must_parse(R"({"type":")" + type + R"(","name":"  Ann Lee "})");
    const auto& m = std::get<Relate>(r.message);
    EXPECT_EQ(m.kind, kind) << type;
    EXPECT_EQ(m.name, "Ann Lee");
    EXPECT_EQ(type_name(r.message), type);
  }
  const auto invite = must_parse_as<Invite>(R"({"type":"invite","table":"t1","name":"Bo"})");
  EXPECT_EQ(invite.table, "t1");
  EXPECT_EQ(invite.name, "Bo");
  EXPECT_EQ(must_parse_as<DeclineInvitation>(R"({"type":"decline_invitation","table":"t1"})").table, "t1");
  EXPECT_TRUE(must_parse_as<CreateTable>(R"({"type":"create_table","game":"medici","players":3,"friends_only":true})")
                  .friends_only);
  expect_refused({
      {R"({"type":"friend_request"})", "bad_message", "name"},
      {R"({"type":"block","name":""})", "bad_name", "name"},
      {R"({"type":"unblock","name":"Ann","extra":1})", "bad_message", "extra"},
      {R"({"type":"invite","name":"Bo"})", "bad_message", "table"},
      {R"({"type":"invite","table":"t1","name":5})", "bad_message", "name"},
      {R"({"type":"decline_invitation"})", "bad_message", "table"},
      {R"({"type":"friends","name":"Ann"})", "bad_message", "name"},
      {R"({"type":"create_table","game":"medici","players":3,"friends_only":"yes"})", "bad_message", "friends_only"},
  });
}

TEST(Render, FriendsListsPeopleByRelationAndInvitations) {
  const std::vector<Person> people = {
      {"Ann", "friend", Presence{"playing", "t1", "medici", std::nullopt}, 5},
      {"Bo", "friend", Presence{"offline", std::nullopt, std::nullopt, 7}, 6},
      {"Cy", "incoming", std::nullopt, 8},
      {"Di", "outgoing", std::nullopt, 9},
      {"Ed", "blocked", std::nullopt, 10}};
  const std::vector<Invitation> invitations = {{"t2", "medina", "Ann", 4, std::string("k9"), 11}};
  EXPECT_EQ(Json::parse(render_friends(3, people, invitations)),
            Json::parse(R"({"type":"friends","re":3,
              "friends":[{"name":"Ann","presence":{"status":"playing","table":"t1","game":"medici"},"since":5},
                         {"name":"Bo","presence":{"status":"offline","last_seen":7},"since":6}],
              "incoming":[{"name":"Cy","at":8}],"outgoing":[{"name":"Di","at":9}],"blocked":[{"name":"Ed","at":10}],
              "invitations":[{"table":"t2","game":"medina","from":"Ann","players":4,"invite":"k9","at":11}]})"));
  EXPECT_EQ(Json::parse(render_person(nullptr, {"Ann", "none", std::nullopt, std::nullopt})),
            Json::parse(R"({"type":"friend","name":"Ann","relation":"none"})"));
  EXPECT_EQ(Json::parse(render_invitation({"t2", "medina", "Ann", 4, std::nullopt, 11})),
            Json::parse(R"({"type":"invitation","table":"t2","game":"medina","from":"Ann","players":4,"at":11})"));
  EXPECT_EQ(Json::parse(render_invited(1, "t2", "Bo")), Json::parse(R"({"type":"invited","re":1,"table":"t2","name":"Bo"})"));
  EXPECT_EQ(Json::parse(render_invitation_declined(nullptr, "t2", "Bo")),
            Json::parse(R"({"type":"invitation_declined","table":"t2","name":"Bo"})"));
}

TEST(Render, TableJson) {
  expect_sample_table(table_json(sample_table()));
  TableInfo p = sample_table();
  p.is_private = true;
  p.state = "playing";
  p.creator_seat = 2;
  Json j = table_json(p);
  EXPECT_EQ(j.at("private"), true);
  EXPECT_EQ(j.at("state"), "playing");
  EXPECT_EQ(j.at("creator_seat"), 2);
}

TEST(Render, StandInBotsAndAwayPlayers) {
  TableInfo t = sample_table();
  t.state = "playing";
  t.seats[0].away_s = 372;
  t.seats[0].connected = false;
  t.seats[1] = {1, "Bo", true, "normal", "left", std::nullopt};
  t.seats[2] = {2, "Cy", true, "normal", "absent", std::nullopt};
  const Json j = table_json(t);
  EXPECT_EQ(j.at("seats")[0], Json::parse(R"({"seat":0,"name":"Ann","connected":false,"away_s":372})"));
  EXPECT_EQ(j.at("seats")[1], Json::parse(R"({"seat":1,"name":"Bo","connected":true,"bot":"normal","stand_in":"left"})"));
  EXPECT_EQ(j.at("seats")[2],
            Json::parse(R"({"seat":2,"name":"Cy","connected":true,"bot":"normal","stand_in":"absent"})"));
}

TEST(Render, RematchOfferReservedSeatsAndRematchOf) {
  TableInfo finished = sample_table();
  finished.state = "finished";
  finished.rematch = RematchOffer{"n3w", 2, std::nullopt};
  Json j = table_json(finished);
  EXPECT_EQ(j.at("rematch"), Json::parse(R"({"table":"n3w","by":2})"));
  EXPECT_FALSE(j.contains("rematch_of"));
  finished.rematch->invite = "inv-1";
  EXPECT_EQ(table_json(finished).at("rematch"), Json::parse(R"({"table":"n3w","by":2,"invite":"inv-1"})"));

  TableInfo next = sample_table();
  next.rematch_of = "t8f3k2";
  next.seats[1] = {1, "Bo", false, std::nullopt, std::nullopt, std::nullopt, true};
  const Json k = table_json(next);
  EXPECT_EQ(k.at("rematch_of"), "t8f3k2");
  EXPECT_FALSE(k.contains("rematch"));
  EXPECT_EQ(k.at("seats")[1], Json::parse(R"({"seat":1,"name":"Bo","connected":false,"reserved":true})"));
  EXPECT_FALSE(k.at("seats")[0].contains("reserved"));
}

TEST(Render, RatedTablesShowSeatsRatingsAndTheChanges) {
  TableInfo t = sample_table();
  t.rated = true;
  t.state = "finished";
  t.seats[0].rating = SeatRating{1234, true, false};
  t.seats[2].rating = SeatRating{1375, false, true};
  t.rating_changes = {{0, 1000, 1023, true}};
  const Json j = table_json(t);
  EXPECT_EQ(j.at("rated"), true);
  EXPECT_EQ(j.at("seats")[0].at("rating"), Json::parse(R"({"value":1234,"provisional":true})"));
  EXPECT_EQ(j.at("seats")[2].at("rating"), Json::parse(R"({"value":1375,"provisional":false,"bot":true})"));
  EXPECT_FALSE(j.at("seats")[1].contains("rating"));
  EXPECT_EQ(j.at("rating_changes"),
            Json::parse(R"([{"seat":0,"before":1000,"after":1023,"delta":23,"provisional":true}])"));
  EXPECT_FALSE(table_json(sample_table()).contains("rating_changes"));
  const auto back = table_info_from_json(j);
  ASSERT_TRUE(back);
  EXPECT_EQ(table_json(*back), j);
}

TEST(Render, ATableReadsBackFromItsJson) {
  // What one node announces of its tables to the others (docs/scaling.md) reads back to the same table.
  TableInfo t = sample_table();
  t.state = "playing";
  t.seats[0].away_s = 12;
  t.seats[1] = {1, "Bo", true, "normal", "absent", std::nullopt, true};
  t.clock = ClockConfig{30, 300};
  t.rematch = RematchOffer{"n3w", 1, "inv"};
  t.rematch_of = "old";
  t.commitment = std::string(64, 'c');
  t.seed = std::string(32, 'a');
  t.salt = std::string(32, 'b');
  for (const TableInfo& table : {sample_table(), t}) {
    const auto back = table_info_from_json(table_json(table));
    ASSERT_TRUE(back);
    EXPECT_EQ(table_json(*back), table_json(table));
  }
  // Not a table: a field missing or of the wrong type.
  Json j = table_json(t);
  j.erase("state");
  EXPECT_FALSE(table_info_from_json(j));
  j = table_json(t);
  j["seats"][0]["connected"] = "yes";
  EXPECT_FALSE(table_info_from_json(j));
  EXPECT_FALSE(table_info_from_json(Json::array()));
}

TEST(Render, MyGamesCarriesOnlyTheListedFields) {
  MyGame running;
  running.token = "tok-1";
  running.table = "t8f3k2";
  running.game = "medici";
  running.state = "playing";
  running.seat = 1;
  // Whatever else a seat knows (connection, stand-in, absence) stays out.
  running.seats = {{0, "Ann", false, std::nullopt, std::nullopt, 40, false},
                   {1, "Bo", true, std::nullopt, std::nullopt, std::nullopt, false},
                   {2, "Bot 1", true, "easy", "absent", std::nullopt, false}};
  running.your_turn = true;
  running.result = nullptr;
  running.updated = 1700000000;
  running.to_move = {1};
  running.clock = MyGame::Clock{1, 86000000};
  MyGame done = running;
  done.to_move.clear();
  done.clock.reset();
  done.token = "tok-2";
  done.state = "finished";
  done.your_turn = false;
  done.result = Json::parse(R"({"ranking":[{"player":0,"rank":1}],"winners":[0]})");
  done.invite = "inv-9";
  done.rated = true;
  const Json j = Json::parse(render_my_games("m1", {running, done}, {"gone"}));
  EXPECT_EQ(j.at("type"), "my_games");
  EXPECT_EQ(j.at("re"), "m1");
  EXPECT_EQ(j.at("unknown"), Json::array({"gone"}));
  ASSERT_EQ(j.at("games").size(), 2u);
  EXPECT_EQ(j.at("games")[0], Json::parse(R"({"token":"tok-1","table":"t8f3k2","game":"medici","state":"playing",
      "seat":1,"seats":[{"seat":0,"name":"Ann"},{"seat":1,"name":"Bo"},{"seat":2,"name":"Bot 1","bot":"easy"}],
      "your_turn":true,"result":null,"updated":1700000000,"to_move":[1],"rated":false,
      "clock":{"seat":1,"left_ms":86000000}})"));
  EXPECT_EQ(j.at("games")[1].at("result"), done.result);
  EXPECT_EQ(j.at("games")[1].at("to_move"), Json::array());
  EXPECT_EQ(j.at("games")[1].at("clock"), nullptr);
  EXPECT_EQ(j.at("games")[1].at("invite"), "inv-9");
  EXPECT_EQ(j.at("games")[1].at("your_turn"), false);
  EXPECT_EQ(j.at("games")[1].at("rated"), true);
  // A seat of a signed-in account's that the request did not name: the server has no token to give.
  MyGame claimed = running;
  claimed.token.clear();
  EXPECT_EQ(Json::parse(render_my_games(nullptr, {claimed}, {})).at("games")[0].at("token"), nullptr);
  EXPECT_EQ(Json::parse(render_my_games(nullptr, {}, {})),
            Json::parse(R"({"type":"my_games","games":[],"unknown":[]})"));
}

TEST(Render, Welcome) {
  Json games = Json::array({Json{{"id", "medici"}, {"name", "Medici"}}});
  Json j = Json::parse(render_welcome(games));
  EXPECT_EQ(j, Json({{"type", "welcome"}, {"protocol", 1}, {"server", "emporium"}, {"games", games}}));
  EXPECT_FALSE(j.contains("re"));
  EXPECT_EQ(Json::parse(render_welcome(games, 300)).at("absent_after_s"), 300);
  EXPECT_FALSE(j.contains("node"));  // one server
  EXPECT_EQ(Json::parse(render_welcome(games, 300, "n2")).at("node"), "n2");
  EXPECT_EQ(Json::parse(render_welcome(games, 300, {}, 259200)).at("forsaken_after_s"), 259200);
  EXPECT_FALSE(Json::parse(render_welcome(games, 300, {}, 0)).contains("forsaken_after_s"));
}

TEST(Render, Hello) {
  Json j = Json::parse(render_hello("h1", "Ann"));
  EXPECT_EQ(j, Json({{"type", "hello"}, {"re", "h1"}, {"name", "Ann"}, {"account", nullptr}, {"protocol", 1}}));
  Json n = Json::parse(render_hello(nullptr, "Ann"));
  EXPECT_FALSE(n.contains("re"));
  EXPECT_EQ(n.at("name"), "Ann");
  EXPECT_EQ(Json::parse(render_hello(12, "x")).at("re"), 12);
  const Json account = {{"id", "a1"}, {"name", "Ann"}};
  EXPECT_EQ(Json::parse(render_hello(nullptr, "Ann", account)).at("account"), account);
}

TEST(Render, Lobby) {
  Json j = Json::parse(render_lobby(3, {sample_table(), sample_table()}));
  EXPECT_EQ(j.at("type"), "lobby");
  EXPECT_EQ(j.at("re"), 3);
  ASSERT_EQ(j.at("tables").size(), 2u);
  expect_sample_table(j.at("tables")[0]);
  Json empty = Json::parse(render_lobby(nullptr, {}));
  EXPECT_EQ(empty, Json({{"type", "lobby"}, {"tables", Json::array()}}));
}

TEST(Render, LobbyChangedAndRemoved) {
  Json changed = Json::parse(render_lobby_changed(sample_table()));
  EXPECT_EQ(changed.size(), 2u);
  EXPECT_EQ(changed.at("type"), "lobby_changed");
  expect_sample_table(changed.at("table"));
  EXPECT_EQ(Json::parse(render_lobby_removed("t8f3k2")), Json({{"type", "lobby_removed"}, {"table", "t8f3k2"}}));
}

TEST(Render, Table) {
  Json j = Json::parse(render_table("r", sample_table()));
  EXPECT_EQ(j.size(), 3u);
  EXPECT_EQ(j.at("type"), "table");
  EXPECT_EQ(j.at("re"), "r");
  expect_sample_table(j.at("table"));
  EXPECT_FALSE(Json::parse(render_table(nullptr, sample_table())).contains("re"));
}

TEST(Render, Seated) {
  Json j = Json::parse(render_seated("c1", sample_table(), 1, "tok_EN-123", std::string("inv-ABC")));
  EXPECT_EQ(j.at("type"), "seated");
  EXPECT_EQ(j.at("re"), "c1");
  expect_sample_table(j.at("table"));
  EXPECT_EQ(j.at("seat"), 1);
  EXPECT_EQ(j.at("token"), "tok_EN-123");
  EXPECT_EQ(j.at("invite"), "inv-ABC");

  Json k = Json::parse(render_seated(nullptr, sample_table(), 0, "tok", std::nullopt));
  EXPECT_FALSE(k.contains("re"));
  EXPECT_FALSE(k.contains("invite"));
  EXPECT_EQ(k.at("seat"), 0);
  EXPECT_EQ(k.at("token"), "tok");
  EXPECT_FALSE(k.contains("reclaimed"));

  // A resume that took the seat back from a stand-in bot says so.
  Json r = Json::parse(render_seated("r1", sample_table(), 0, "tok", std::nullopt, true));
  EXPECT_EQ(r.at("reclaimed"), true);

  // Resumed by a signed-in account, with no token (the server keeps only its hash): none is sent.
  EXPECT_FALSE(Json::parse(render_seated("r2", sample_table(), 0, "", std::nullopt)).contains("token"));
}

TEST(Render, Watching) {
  Json j = Json::parse(render_watching(4, sample_table()));
  EXPECT_EQ(j.at("type"), "watching");
  EXPECT_EQ(j.at("re"), 4);
  expect_sample_table(j.at("table"));
  EXPECT_FALSE(Json::parse(render_watching(nullptr, sample_table())).contains("re"));
}

TEST(Render, Left) {
  EXPECT_EQ(Json::parse(render_left("l", "t8f3k2")), Json({{"type", "left"}, {"re", "l"}, {"table", "t8f3k2"}}));
  EXPECT_EQ(Json::parse(render_left(nullptr, "t8f3k2")), Json({{"type", "left"}, {"table", "t8f3k2"}}));
}

TEST(Render, Snapshot) {
  Json view = Json{{"phase", "draw"}, {"version", 17}};
  Json legal = Json::array({Json{{"type", "draw"}}});
  Json j = Json::parse(render_snapshot("s", "t8f3k2", 17, 2, view, legal));
  EXPECT_EQ(j, Json({{"type", "snapshot"},
                     {"re", "s"},
                     {"table", "t8f3k2"},
                     {"version", 17},
                     {"seat", 2},
                     {"view", view},
                     {"legal", legal}}));
  // A spectator: seat null (present, not omitted), no re.
  Json s = Json::parse(render_snapshot(nullptr, "t8f3k2", 0, nullptr, view, Json::array()));
  EXPECT_FALSE(s.contains("re"));
  ASSERT_TRUE(s.contains("seat"));
  EXPECT_TRUE(s.at("seat").is_null());
  EXPECT_EQ(s.at("legal"), Json::array());
  EXPECT_EQ(s.at("version"), 0);
  // Versions past 2^53 are written exactly.
  EXPECT_EQ(Json::parse(render_snapshot(nullptr, "t", 9007199254740993u, nullptr, view, legal))
                .at("version")
                .get<std::uint64_t>(),
            9007199254740993u);
}

TEST(Render, Events) {
  Json events = Json::array({Json{{"type", "draw"}, {"player", 0}}, Json{{"type", "turn"}, {"player", 1}}});
  Json legal = Json::array({Json{{"type", "stop"}}});
  Json j = Json::parse(render_events("t8f3k2", 18, events.dump(), legal.dump()));
  EXPECT_EQ(j, Json({{"type", "events"}, {"table", "t8f3k2"}, {"version", 18}, {"events", events}, {"legal", legal}}));
  EXPECT_FALSE(j.contains("re"));
}

TEST(Render, TimedTablesCarryTheirClock) {
  TableInfo t = sample_table();
  EXPECT_FALSE(table_json(t).contains("clock"));
  t.clock = ClockConfig{60, 300};
  EXPECT_EQ(table_json(t)["clock"], Json::parse(R"({"turn":60,"reserve":300})"));
  // A table that forbids vacations says so (and reads back the same); a seat on vacation says until when.
  t.clock->vacations = false;
  t.seats[0].vacation_until = 1767225600;
  EXPECT_EQ(table_json(t)["clock"], Json::parse(R"({"turn":60,"reserve":300,"vacations":false})"));
  EXPECT_EQ(table_json(t)["seats"][0]["vacation_until"], 1767225600);
  EXPECT_EQ(table_info_from_json(table_json(t))->clock, t.clock);
  EXPECT_EQ(table_info_from_json(table_json(t))->seats[0].vacation_until, 1767225600);
  t.clock->vacations = true;
  t.seats[0].vacation_until.reset();
  // The live clock rides on the frames a started table sends; without one the field is absent.
  const Json live = Json::parse(R"({"reserve_ms":[300000,1000],"timeouts":[0,2],"running":{"seat":1,"turn_ms":500,"reserve_ms":1000}})");
  EXPECT_EQ(Json::parse(render_table(nullptr, t, live))["clock"], live);
  EXPECT_EQ(Json::parse(render_events("t1", 3, "[]", "[]", live))["clock"], live);
  EXPECT_EQ(Json::parse(render_snapshot(nullptr, "t1", 3, 0, Json::object(), Json::array(), live))["clock"], live);
  EXPECT_EQ(Json::parse(render_seated(nullptr, t, 0, "tok", std::nullopt, false, live))["clock"], live);
  EXPECT_EQ(Json::parse(render_watching(nullptr, t, live))["clock"], live);
  EXPECT_FALSE(Json::parse(render_events("t1", 3, "[]", "[]")).contains("clock"));
  EXPECT_FALSE(Json::parse(render_table(nullptr, t)).contains("clock"));
}

TEST(Render, Ack) {
  EXPECT_EQ(Json::parse(render_ack("a1", 18)), Json({{"type", "ack"}, {"re", "a1"}, {"version", 18}}));
  EXPECT_EQ(Json::parse(render_ack(nullptr, 5)), Json({{"type", "ack"}, {"version", 5}}));
}

TEST(Render, Chat) {
  const std::string html = "<img src=x onerror=alert(1)> & \"quotes\"";
  Json j = Json::parse(render_chat("t8f3k2", ChatLine{7, "Ann", 0, "players", html, 1700000000}));
  EXPECT_EQ(j, Json({{"type", "chat"}, {"table", "t8f3k2"}, {"id", 7}, {"from", "Ann"}, {"seat", 0},
                     {"channel", "players"}, {"text", html}, {"at", 1700000000}}));
  Json s = Json::parse(render_chat("t8f3k2", ChatLine{8, "Watcher", nullptr, "spectators", "hi", 0}));
  ASSERT_TRUE(s.contains("seat"));
  EXPECT_TRUE(s.at("seat").is_null());
  EXPECT_FALSE(s.contains("re"));
}

TEST(Render, Pong) {
  EXPECT_EQ(Json::parse(render_pong("p")), Json({{"type", "pong"}, {"re", "p"}}));
  EXPECT_EQ(Json::parse(render_pong(nullptr)), Json({{"type", "pong"}}));
}

TEST(Render, Error) {
  EXPECT_EQ(Json::parse(render_error(7, errc::stale_version, "the table is at version 18")),
            Json({{"type", "error"}, {"re", 7}, {"code", "stale_version"}, {"message", "the table is at version 18"}}));
  EXPECT_EQ(Json::parse(render_error(nullptr, "bid_too_low", "a bid must be at least 5")),
            Json({{"type", "error"}, {"code", "bid_too_low"}, {"message", "a bid must be at least 5"}}));
}

TEST(Render, ParseErrorsRenderWithTheirId) {
  ParseError e = must_fail(R"({"id":"x1","type":"act","table":"t","version":-1,"action":{}})");
  Json j = Json::parse(render_error(e.id, e.code, e.message));
  EXPECT_EQ(j.at("re"), "x1");
  EXPECT_EQ(j.at("code"), "bad_message");
  EXPECT_EQ(j.at("message"), e.message);
}

TEST(Render, InvalidUtf8NeverThrowsAndIsReplaced) {
  const std::string bad = "A\xff\xfe" "B";
  std::string out;
  ASSERT_NO_THROW(out = render_hello(nullptr, bad));
  Json j = Json::parse(out);
  EXPECT_EQ(j.at("name"), "A\xef\xbf\xbd\xef\xbf\xbd" "B");
  TableInfo t = sample_table();
  t.seats[0].name = bad;
  t.game = bad;
  EXPECT_TRUE(Json::accept(render_lobby(nullptr, {t})));
  EXPECT_TRUE(Json::accept(render_table(nullptr, t)));
  EXPECT_TRUE(Json::accept(render_lobby_changed(t)));
  EXPECT_TRUE(Json::accept(render_lobby_removed(bad)));
  EXPECT_TRUE(Json::accept(render_seated(nullptr, t, 0, bad, bad)));
  EXPECT_TRUE(Json::accept(render_watching(nullptr, t)));
  EXPECT_TRUE(Json::accept(render_left(bad, bad)));
  EXPECT_TRUE(Json::accept(render_snapshot(nullptr, bad, 1, nullptr, Json{{"k", bad}}, Json::array({bad}))));
  EXPECT_TRUE(Json::accept(render_events(bad, 1, Json::array({bad}).dump(-1, ' ', false, Json::error_handler_t::replace), "[]")));
  EXPECT_TRUE(Json::accept(render_chat(bad, ChatLine{1, bad, nullptr, bad, bad, 0})));
  EXPECT_TRUE(Json::accept(render_error(bad, bad, bad)));
  EXPECT_TRUE(Json::accept(render_welcome(Json::array({bad}))));
}

TEST(Render, ChatRoundTripsThroughParse) {
  // What a client sends is what the others receive, byte for byte.
  const std::string text = "<b>hi</b> 😀 \"q\" \\ / \u00e9";
  Chat c = must_parse_as<Chat>(Json{{"type", "chat"}, {"table", "t1"}, {"text", text}}.dump());
  EXPECT_EQ(Json::parse(render_chat(c.table, ChatLine{1, "Ann", 1, "players", c.text, 0})).at("text"), text);
}

}  // namespace
}  // namespace emporium::protocol
