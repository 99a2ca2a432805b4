// The account requests' bodies and the rule for one name (protocol/include/emporium/protocol/accounts.hpp).
#include <gtest/gtest.h>

#include <string>

#include <emporium/protocol/accounts.hpp>

namespace emporium::protocol::accounts {
namespace {

template <class T>
T ok(Parsed<T> parsed) {
  if (const auto* e = std::get_if<ParseError>(&parsed)) {
    ADD_FAILURE() << e->code << ": " << e->message;
    return T{};
  }
  return std::get<T>(std::move(parsed));
}

template <class T>
std::string refused(const Parsed<T>& parsed) {
  const auto* e = std::get_if<ParseError>(&parsed);
  if (e == nullptr) return "accepted";
  EXPECT_FALSE(e->message.empty());
  EXPECT_TRUE(e->id.is_null());
  return e->code;
}

TEST(AccountNames, CaseWidthAndSpacesMakeNoOtherName) {
  EXPECT_EQ(name_key("Ann Lee"), name_key("ann lee"));
  EXPECT_EQ(name_key("Ann Lee"), name_key("ANN  LEE"));
  EXPECT_EQ(name_key("Ann Lee"), name_key("\xEF\xBC\xA1\xEF\xBD\x8E\xEF\xBD\x8E Lee"));  // full-width "Ａｎｎ"
  EXPECT_EQ(name_key("Ann Lee"), name_key("Ann\xC2\xA0Lee"));                             // a no-break space
  EXPECT_EQ(name_key("Stra\xC3\x9F" "e"), name_key("STRASSE"));                           // ß folds to ss
  EXPECT_EQ(name_key("\xEF\xAC\x81nn"), name_key("finn"));                                // the ligature ﬁ
  // One é, composed or not.
  EXPECT_EQ(name_key("Ren\xC3\xA9"), name_key("Rene\xCC\x81"));
  EXPECT_NE(name_key("Ann"), name_key("Anna"));
  EXPECT_NE(name_key("Ren\xC3\xA9"), name_key("Rene"));
  EXPECT_EQ(name_key("Ann\xFF"), "");  // not UTF-8: no account's key
  EXPECT_EQ(name_key("   "), "");
  EXPECT_EQ(name_key("\xE7\x8E\x8B\xE5\xB0\x8F\xE6\x98\x8E"), "\xE7\x8E\x8B\xE5\xB0\x8F\xE6\x98\x8E");  // 王小明
}

TEST(AccountRequests, PasswordSignUpReadsItsFields) {
  const auto s = ok(parse_password_sign_up(R"({"name":"  Ann ","password":"correct horse","seats":["abc_1"]})"));
  EXPECT_EQ(s.name, "Ann");
  EXPECT_EQ(s.password, "correct horse");
  EXPECT_EQ(s.seats, std::vector<std::string>{"abc_1"});
  EXPECT_TRUE(ok(parse_password_sign_up(R"({"name":"Ann","password":"12345678"})")).seats.empty());
}

TEST(AccountRequests, BadSignUpsAreRefusedWithTheirCodes) {
  EXPECT_EQ(refused(parse_password_sign_up(R"({"name":"Ann","password":"short"})")), "bad_password");
  EXPECT_EQ(refused(parse_password_sign_up(R"({"name":"Ann","password":")" + std::string(257, 'x') + "\"}")),
            "bad_password");
  EXPECT_EQ(refused(parse_password_sign_up(R"({"name":"Ann","password":")" + std::string(256, 'x') + "\"}")),
            "accepted");
  EXPECT_EQ(refused(parse_password_sign_up(R"({"name":"","password":"12345678"})")), "bad_name");
  EXPECT_EQ(refused(parse_password_sign_up("{\"name\":\"A\\u202Enn\",\"password\":\"12345678\"}")), "bad_name");
  EXPECT_EQ(refused(parse_password_sign_up(R"({"name":"Ann","password":"12345678","admin":true})")), "bad_message");
  EXPECT_EQ(refused(parse_password_sign_up(R"({"name":"Ann","password":12345678})")), "bad_message");
  EXPECT_EQ(refused(parse_password_sign_up(R"({"name":"Ann","password":"12345678","seats":["a b"]})")),
            "bad_message");
  EXPECT_EQ(refused(parse_password_sign_up(R"(["Ann"])")), "bad_json");
  EXPECT_EQ(refused(parse_password_sign_up(R"({"name":)")), "bad_json");
  EXPECT_EQ(refused(parse_password_sign_up(std::string(100, '['))), "bad_json");
  EXPECT_EQ(refused(parse_password_sign_up("")), "bad_json");
}

TEST(AccountRequests, ASignInTakesAnyNameSoAnUnknownOneLooksLikeAWrongPassword) {
  // A name the sign-up rules would refuse is still read: the server answers "wrong name or password".
  EXPECT_EQ(ok(parse_password_sign_in(R"({"name":"   ","password":"x"})")).password, "x");
  EXPECT_EQ(refused(parse_password_sign_in(R"({"name":"Ann","password":")" + std::string(300, 'x') + "\"}")),
            "bad_password");
}

TEST(AccountRequests, PasskeyAnswersTakeTheirBase64urlFields) {
  const auto up = ok(parse_passkey_sign_up(
      R"({"name":"Ann","label":" My phone ","passkey":{"id":"AAEC","clientDataJSON":"eyJ9","attestationObject":"o2Nm"}})"));
  EXPECT_EQ(up.label, "My phone");
  EXPECT_EQ(up.passkey.attestation_object, "o2Nm");
  const auto in = ok(parse_passkey_sign_in(
      R"({"passkey":{"id":"AAEC","clientDataJSON":"eyJ9","authenticatorData":"SZYN","signature":"MEUC","userHandle":null}})"));
  EXPECT_EQ(in.passkey.signature, "MEUC");
  EXPECT_TRUE(in.passkey.user_handle.empty());
  // Standard base64 ('+', '/', '=') is not base64url.
  EXPECT_EQ(refused(parse_passkey_sign_in(
                R"({"passkey":{"id":"AA+C","clientDataJSON":"eyJ9","authenticatorData":"SZYN","signature":"MEUC"}})")),
            "bad_message");
  // An assertion's fields are not a registration's.
  EXPECT_EQ(refused(parse_passkey_sign_in(R"({"passkey":{"id":"AAEC","clientDataJSON":"eyJ9","attestationObject":"o2Nm"}})")),
            "bad_message");
  const std::string huge(25 * 1024, 'A');
  EXPECT_EQ(refused(parse_passkey_add(R"({"passkey":{"id":")" + huge + R"(","clientDataJSON":"eyJ9","attestationObject":"o2Nm"}})")),
            "bad_message");
}

TEST(AccountRequests, PasskeyOptionsNameOnlyASignUp) {
  EXPECT_EQ(ok(parse_passkey_options(R"({"purpose":"sign_up","name":"Ann"})")).name, "Ann");
  EXPECT_FALSE(ok(parse_passkey_options(R"({"purpose":"sign_in"})")).name);
  EXPECT_EQ(refused(parse_passkey_options(R"({"purpose":"sign_in","name":"Ann"})")), "bad_message");
  EXPECT_EQ(refused(parse_passkey_options(R"({"purpose":"steal"})")), "bad_message");
  EXPECT_EQ(refused(parse_passkey_options(R"({"purpose":"sign_up"})")), "bad_message");
}

TEST(AccountRequests, TheAccountPagesRequests) {
  EXPECT_EQ(ok(parse_passkey_rename(R"({"id":"AAEC","label":"Laptop"})")).label, "Laptop");
  EXPECT_EQ(refused(parse_passkey_rename(R"({"id":"AAEC","label":"  "})")), "bad_name");
  EXPECT_EQ(ok(parse_passkey_remove(R"({"id":"AAEC"})")).id, "AAEC");
  EXPECT_FALSE(ok(parse_set_password(R"({"password":"a new password"})")).current);
  EXPECT_EQ(ok(parse_set_password(R"({"current":"old","password":"a new password"})")).current, "old");
  EXPECT_EQ(refused(parse_set_password(R"({"password":"short"})")), "bad_password");
  EXPECT_EQ(ok(parse_session_sign_out(R"({"id":"s_1"})")).id, "s_1");
  EXPECT_EQ(ok(parse_claim_seats(R"({"seats":["t1","t2"]})")).seats.size(), 2u);
  EXPECT_EQ(refused(parse_claim_seats(R"({})")), "bad_message");
  EXPECT_EQ(ok(parse_delete_account(R"({"name":"Ann"})")).name, "Ann");
}

}  // namespace
}  // namespace emporium::protocol::accounts
