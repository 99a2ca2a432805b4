// Passkeys' registrations and assertions (server/people/webauthn.hpp), made here byte by byte as a browser sends
// them — clientDataJSON, authenticator data, CBOR attestation objects — over the tests' software keys and CBOR
// writers (test_authenticator.hpp), so that any part can be spoiled.
#include "people/webauthn.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "test_authenticator.hpp"

namespace emporium::server::webauthn {
namespace {

using nlohmann::json;

constexpr char kOrigin[] = "https://play.example";
constexpr char kRpId[] = "play.example";
constexpr char kChallenge[] = "3q2-7wABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhs";
constexpr char kCredentialId[] = "a credential id of an authenticator";

constexpr unsigned kUserPresent = 0x01, kUserVerified = 0x04, kBackupEligible = 0x08, kBackedUp = 0x10,
                   kAttestedCredential = 0x40, kExtensions = 0x80;

Expected expected() { return Expected{kChallenge, {"https://other.example", kOrigin}, kRpId, false}; }

using emporium::testing::big_endian;
using emporium::testing::cbor_bytes;
using emporium::testing::cbor_head;
using emporium::testing::cbor_int;
using emporium::testing::cbor_text;
using emporium::testing::ec2_key;
using emporium::testing::okp_key;
using emporium::testing::sha256;
// A software authenticator's key (test_authenticator.hpp): its COSE_Key, and signatures as a real one makes them.
using emporium::testing::software_key;

std::string rs256_key() {
  return cbor_head(5, 4) + cbor_int(1) + cbor_int(3) + cbor_int(3) + cbor_int(-257) + cbor_int(-1) +
         cbor_bytes(std::string(256, '\x9d')) + cbor_int(-2) + cbor_bytes(std::string_view("\x01\x00\x01", 3));
}

// Authenticator data (§6.1), field by field, so that a test can spoil any one of them.
struct AuthenticatorData {
  std::string rp_id = kRpId;
  unsigned flags = kUserPresent;
  std::uint32_t sign_count = 0;
  std::string credential_id{};  // written with its key when flags has kAttestedCredential
  std::string public_key{};
  std::string extensions{};  // CBOR, when flags has kExtensions

  std::string bytes() const {
    std::string out = sha256(rp_id) + static_cast<char>(flags) + big_endian(sign_count, 4);
    if (flags & kAttestedCredential) {
      out += std::string(16, '\0') + big_endian(credential_id.size(), 2) + credential_id + public_key;
    }
    return out + extensions;
  }
};

AuthenticatorData registration_data(const software_key& authenticator) {
  return {.flags = kUserPresent | kAttestedCredential, .credential_id = kCredentialId,
          .public_key = authenticator.cose_key()};
}

json client_data(std::string_view type) {
  return {{"type", type}, {"challenge", kChallenge}, {"origin", kOrigin}, {"crossOrigin", false}};
}

std::string attestation_object(const std::string& authenticator_data, std::string_view fmt = "none",
                               const json& statement = json::object()) {
  const auto cbor = json::to_cbor({{"fmt", fmt},
                                   {"attStmt", statement},
                                   {"authData", json::binary({authenticator_data.begin(), authenticator_data.end()})}});
  return std::string(cbor.begin(), cbor.end());
}

Result<NewCredential> register_raw(const std::string& client_data_json, const std::string& attestation,
                                   const Expected& asked = expected()) {
  return verify_registration(base64url_encode(client_data_json), base64url_encode(attestation), asked);
}

Result<NewCredential> register_data(const AuthenticatorData& data, const json& client = client_data("webauthn.create"),
                                    const Expected& asked = expected()) {
  return register_raw(client.dump(), attestation_object(data.bytes()), asked);
}

Result<NewCredential> register_with(const software_key& authenticator) {
  return register_data(registration_data(authenticator));
}

StoredCredential stored(const software_key& authenticator, std::uint32_t sign_count = 0) {
  return {base64url_encode(authenticator.cose_key()), authenticator.alg(), sign_count};
}

// An assertion whose signature covers exactly what is sent, unless the test signs something else.
Result<std::uint32_t> sign_in(const StoredCredential& credential, const software_key& authenticator,
                              const AuthenticatorData& data, const json& client = client_data("webauthn.get"),
                              const Expected& asked = expected()) {
  const auto client_json = client.dump();
  const auto authenticator_bytes = data.bytes();
  const auto signature = authenticator.sign(authenticator_bytes + sha256(client_json));
  return verify_assertion(credential, base64url_encode(client_json), base64url_encode(authenticator_bytes),
                          base64url_encode(signature), asked);
}

AuthenticatorData counting(std::uint32_t sign_count) { return {.sign_count = sign_count}; }

// The failure's code, or "accepted": a failed expectation then names what happened instead.
template <class T>
std::string code_of(const Result<T>& result) {
  const auto* failure = std::get_if<Failure>(&result);
  return failure ? failure->code : "accepted";
}

TEST(WebAuthn, AnEs256PasskeyRegistersAndSignsIn) {
  const auto authenticator = software_key::es256();
  auto data = registration_data(authenticator);
  data.sign_count = 7;
  const auto registered = register_data(data);
  ASSERT_EQ(code_of(registered), "accepted");
  const auto& credential = std::get<NewCredential>(registered);
  EXPECT_EQ(credential.id, base64url_encode(kCredentialId));
  EXPECT_EQ(credential.public_key, base64url_encode(authenticator.cose_key()));
  EXPECT_EQ(credential.alg, -7);
  EXPECT_EQ(credential.sign_count, 7u);
  EXPECT_FALSE(credential.backed_up);

  const StoredCredential kept{credential.public_key, credential.alg, credential.sign_count};
  const auto signed_in = sign_in(kept, authenticator, counting(8));
  ASSERT_EQ(code_of(signed_in), "accepted");
  EXPECT_EQ(std::get<std::uint32_t>(signed_in), 8u);
}

TEST(WebAuthn, AnEd25519PasskeyRegistersAndSignsIn) {
  const auto authenticator = software_key::ed25519();
  const auto registered = register_with(authenticator);
  ASSERT_EQ(code_of(registered), "accepted");
  const auto& credential = std::get<NewCredential>(registered);
  EXPECT_EQ(credential.alg, -8);
  EXPECT_EQ(credential.public_key, base64url_encode(authenticator.cose_key()));

  const StoredCredential kept{credential.public_key, credential.alg, credential.sign_count};
  auto data = counting(0);
  data.flags = kUserPresent | kUserVerified;
  auto asked = expected();
  asked.user_verification = true;
  EXPECT_EQ(code_of(sign_in(kept, authenticator, data, client_data("webauthn.get"), asked)), "accepted");
}

TEST(WebAuthn, ASyncedPasskeySaysItIsBackedUp) {
  const auto authenticator = software_key::es256();
  auto data = registration_data(authenticator);
  data.flags |= kBackupEligible | kBackedUp;
  const auto registered = register_data(data);
  ASSERT_EQ(code_of(registered), "accepted");
  EXPECT_TRUE(std::get<NewCredential>(registered).backed_up);

  data.flags &= ~kBackupEligible;  // backed up, yet not eligible: no honest authenticator says so
  EXPECT_EQ(code_of(register_data(data)), "bad_authenticator_data");
}

TEST(WebAuthn, MalformedCborIsRefused) {
  const auto refused = [](const std::string& attestation) {
    return code_of(register_raw(client_data("webauthn.create").dump(), attestation));
  };
  const auto authenticator = software_key::es256();
  const auto good = attestation_object(registration_data(authenticator).bytes());
  EXPECT_EQ(refused(good.substr(0, good.size() - 1)), "bad_attestation");  // cut short
  EXPECT_EQ(refused(good + '\0'), "bad_attestation");                      // something after it
  EXPECT_EQ(refused(""), "bad_attestation");
  EXPECT_EQ(refused("\xff"), "bad_attestation");
  EXPECT_EQ(refused("\x9f\x01\xff"), "bad_attestation");  // an indefinite length
  EXPECT_EQ(refused("\xc6\xa0"), "bad_attestation");      // a tag
  // A length no input holds, which nlohmann's reader would throw on.
  EXPECT_EQ(refused("\x9b\xff\xff\xff\xff\xff\xff\xff\xff"), "bad_attestation");
  // A statement nested deep enough to exhaust a recursive reader's stack, in an object otherwise good.
  const auto nested = [&](std::size_t depth) {
    return cbor_head(5, 3) + cbor_text("fmt") + cbor_text("packed") + cbor_text("attStmt") + cbor_head(5, 1) +
           cbor_text("x") + std::string(depth, '\x81') + cbor_int(0) + cbor_text("authData") +
           cbor_bytes(registration_data(authenticator).bytes());
  };
  EXPECT_EQ(refused(nested(4)), "accepted");
  EXPECT_EQ(refused(nested(15000)), "bad_attestation");
  EXPECT_EQ(refused("\xa1\x01\x02"), "bad_attestation");  // well-formed, but a map with an integer key
  EXPECT_EQ(refused("\x82\x01\x02"), "bad_attestation");  // an array, not a map
  const auto without_data = json::to_cbor({{"fmt", "none"}, {"attStmt", json::object()}});
  EXPECT_EQ(refused(std::string(without_data.begin(), without_data.end())), "bad_attestation");
  const auto text_data = json::to_cbor({{"fmt", "none"}, {"attStmt", json::object()}, {"authData", "text"}});
  EXPECT_EQ(refused(std::string(text_data.begin(), text_data.end())), "bad_attestation");
}

TEST(WebAuthn, OtherAttestationFormatsAreTakenAsNone) {
  const auto authenticator = software_key::es256();
  const auto bytes = registration_data(authenticator).bytes();
  const auto client = client_data("webauthn.create").dump();
  const json packed = {{"alg", -7}, {"sig", json::binary({1, 2, 3})}};
  EXPECT_EQ(code_of(register_raw(client, attestation_object(bytes, "packed", packed))), "accepted");
  // "none" with a statement is not what it says it is.
  EXPECT_EQ(code_of(register_raw(client, attestation_object(bytes, "none", packed))), "bad_attestation");
}

TEST(WebAuthn, TruncatedAuthenticatorDataIsRefused) {
  const auto authenticator = software_key::es256();
  const auto client = client_data("webauthn.create").dump();
  const auto bytes = registration_data(authenticator).bytes();
  const std::size_t credential_starts = 37 + 16 + 2;
  for (const std::size_t size : {std::size_t{0}, std::size_t{36}, std::size_t{37}, std::size_t{37 + 16 + 1},
                                 credential_starts + 3, bytes.size() - 1}) {
    EXPECT_EQ(code_of(register_raw(client, attestation_object(bytes.substr(0, size)))), "bad_authenticator_data")
        << size << " bytes";
  }
  // A registration without a credential, an assertion with one.
  auto data = registration_data(authenticator);
  data.flags = kUserPresent;
  EXPECT_EQ(code_of(register_data(data)), "bad_authenticator_data");
  EXPECT_EQ(code_of(sign_in(stored(authenticator), authenticator, registration_data(authenticator))),
            "bad_authenticator_data");

  const auto assertion_bytes = counting(1).bytes().substr(0, 36);
  const auto client_get = client_data("webauthn.get").dump();
  EXPECT_EQ(code_of(verify_assertion(stored(authenticator), base64url_encode(client_get),
                                     base64url_encode(assertion_bytes),
                                     base64url_encode(authenticator.sign(assertion_bytes + sha256(client_get))),
                                     expected())),
            "bad_authenticator_data");
}

TEST(WebAuthn, TrailingBytesAreRefusedButExtensionsAreSkipped) {
  const auto authenticator = software_key::es256();
  auto data = registration_data(authenticator);
  data.extensions = cbor_head(5, 1) + cbor_head(3, 4) + "blob" + cbor_int(1);
  EXPECT_EQ(code_of(register_data(data)), "trailing_bytes");  // no ED flag: they are not extensions
  data.flags |= kExtensions;
  EXPECT_EQ(code_of(register_data(data)), "accepted");
  data.extensions += '\0';
  EXPECT_EQ(code_of(register_data(data)), "trailing_bytes");
  data.extensions = "";
  EXPECT_EQ(code_of(register_data(data)), "bad_authenticator_data");  // the ED flag, and nothing

  auto assertion = counting(1);
  assertion.extensions = std::string(1, '\0');
  EXPECT_EQ(code_of(sign_in(stored(authenticator), authenticator, assertion)), "trailing_bytes");
}

TEST(WebAuthn, AWrongChallengeIsRefused) {
  const auto authenticator = software_key::ed25519();
  auto client = client_data("webauthn.create");
  client["challenge"] = "3q2-7wABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhw";
  EXPECT_EQ(code_of(register_data(registration_data(authenticator), client)), "wrong_challenge");
  client["challenge"] = std::string(kChallenge) + "A";
  EXPECT_EQ(code_of(register_data(registration_data(authenticator), client)), "wrong_challenge");

  auto client_get = client_data("webauthn.get");
  client_get["challenge"] = "";
  EXPECT_EQ(code_of(sign_in(stored(authenticator), authenticator, counting(0), client_get)), "wrong_challenge");
  auto asked = expected();
  asked.challenge = "";  // a caller's slip must not let an empty challenge through
  EXPECT_EQ(code_of(sign_in(stored(authenticator), authenticator, counting(0), client_get, asked)),
            "wrong_challenge");
}

TEST(WebAuthn, AWrongTypeIsRefused) {
  const auto authenticator = software_key::es256();
  EXPECT_EQ(code_of(register_data(registration_data(authenticator), client_data("webauthn.get"))), "wrong_type");
  EXPECT_EQ(code_of(sign_in(stored(authenticator), authenticator, counting(0), client_data("webauthn.create"))),
            "wrong_type");
}

TEST(WebAuthn, ClientDataThatIsNotItsShapeIsRefused) {
  const auto authenticator = software_key::es256();
  const auto attestation = attestation_object(registration_data(authenticator).bytes());
  EXPECT_EQ(code_of(register_raw("{\"type\":", attestation)), "bad_client_data");
  EXPECT_EQ(code_of(register_raw("[]", attestation)), "bad_client_data");
  auto client = client_data("webauthn.create");
  client.erase("origin");
  EXPECT_EQ(code_of(register_raw(client.dump(), attestation)), "bad_client_data");
  client["origin"] = 7;
  EXPECT_EQ(code_of(register_raw(client.dump(), attestation)), "bad_client_data");
}

TEST(WebAuthn, AWrongOriginIsRefused) {
  const auto authenticator = software_key::es256();
  const auto data = registration_data(authenticator);
  auto client = client_data("webauthn.create");
  for (const char* origin : {"https://evil.example", "http://play.example", "https://play.example:8443",
                             "https://sub.play.example", "https://play.example/"}) {
    client["origin"] = origin;
    EXPECT_EQ(code_of(register_data(data, client)), "wrong_origin") << origin;
  }
  client["origin"] = "https://other.example";  // the second origin allowed
  EXPECT_EQ(code_of(register_data(data, client)), "accepted");

  client["origin"] = kOrigin;
  client["crossOrigin"] = true;
  EXPECT_EQ(code_of(register_data(data, client)), "cross_origin");
  client.erase("crossOrigin");
  EXPECT_EQ(code_of(register_data(data, client)), "accepted");
}

TEST(WebAuthn, AWrongRpIdIsRefused) {
  const auto authenticator = software_key::es256();
  auto data = registration_data(authenticator);
  data.rp_id = "evil.example";
  EXPECT_EQ(code_of(register_data(data)), "wrong_rp_id");
  auto assertion = counting(0);
  assertion.rp_id = "example";
  EXPECT_EQ(code_of(sign_in(stored(authenticator), authenticator, assertion)), "wrong_rp_id");
}

TEST(WebAuthn, NobodyPresentOrUnverifiedIsRefused) {
  const auto authenticator = software_key::es256();
  auto data = registration_data(authenticator);
  data.flags = kAttestedCredential | kUserVerified;
  EXPECT_EQ(code_of(register_data(data)), "user_not_present");
  auto assertion = counting(0);
  assertion.flags = kUserVerified;
  EXPECT_EQ(code_of(sign_in(stored(authenticator), authenticator, assertion)), "user_not_present");

  auto asked = expected();
  asked.user_verification = true;
  data.flags = kAttestedCredential | kUserPresent;
  EXPECT_EQ(code_of(register_data(data, client_data("webauthn.create"), asked)), "user_not_verified");
  EXPECT_EQ(code_of(sign_in(stored(authenticator), authenticator, counting(0), client_data("webauthn.get"), asked)),
            "user_not_verified");
  data.flags |= kUserVerified;
  EXPECT_EQ(code_of(register_data(data, client_data("webauthn.create"), asked)), "accepted");
}

TEST(WebAuthn, ASignatureOverOtherDataIsRefused) {
  const software_key authenticators[] = {software_key::es256(), software_key::ed25519()};
  for (const auto& authenticator : authenticators) {
    const auto client_json = client_data("webauthn.get").dump();
    const auto sent = counting(5).bytes();
    const auto signed_for_other_client_data = authenticator.sign(sent + sha256(client_json + " "));
    EXPECT_EQ(code_of(verify_assertion(stored(authenticator), base64url_encode(client_json), base64url_encode(sent),
                                       base64url_encode(signed_for_other_client_data), expected())),
              "bad_signature");
    const auto signed_for_other_count = authenticator.sign(counting(4).bytes() + sha256(client_json));
    EXPECT_EQ(code_of(verify_assertion(stored(authenticator), base64url_encode(client_json), base64url_encode(sent),
                                       base64url_encode(signed_for_other_count), expected())),
              "bad_signature");
    EXPECT_EQ(code_of(verify_assertion(stored(authenticator), base64url_encode(client_json), base64url_encode(sent),
                                       "", expected())),
              "bad_signature");
  }
}

TEST(WebAuthn, ASignatureByAnotherKeyIsRefused) {
  const auto es256 = software_key::es256();
  const auto ed25519 = software_key::ed25519();
  EXPECT_EQ(code_of(sign_in(stored(es256), software_key::es256(), counting(0))), "bad_signature");
  EXPECT_EQ(code_of(sign_in(stored(ed25519), software_key::ed25519(), counting(0))), "bad_signature");
  EXPECT_EQ(code_of(sign_in(stored(es256), ed25519, counting(0))), "bad_signature");
  // A key kept with another algorithm than its own is refused before any signature is looked at.
  auto mislabelled = stored(es256);
  mislabelled.alg = -8;
  EXPECT_EQ(code_of(sign_in(mislabelled, es256, counting(0))), "bad_public_key");
}

TEST(WebAuthn, ACounterGoingBackwardsIsRefused) {
  const auto authenticator = software_key::es256();
  EXPECT_EQ(code_of(sign_in(stored(authenticator, 5), authenticator, counting(5))), "counter_went_backwards");
  EXPECT_EQ(code_of(sign_in(stored(authenticator, 5), authenticator, counting(4))), "counter_went_backwards");
  EXPECT_EQ(code_of(sign_in(stored(authenticator, 5), authenticator, counting(0))), "counter_went_backwards");
  const auto onwards = sign_in(stored(authenticator, 5), authenticator, counting(6));
  ASSERT_EQ(code_of(onwards), "accepted");
  EXPECT_EQ(std::get<std::uint32_t>(onwards), 6u);
}

TEST(WebAuthn, AZeroCounterStayingZeroIsAccepted) {
  const auto authenticator = software_key::ed25519();
  const auto signed_in = sign_in(stored(authenticator, 0), authenticator, counting(0));
  ASSERT_EQ(code_of(signed_in), "accepted");
  EXPECT_EQ(std::get<std::uint32_t>(signed_in), 0u);
}

TEST(WebAuthn, AnOversizedCredentialIdIsRefused) {
  const auto authenticator = software_key::es256();
  auto data = registration_data(authenticator);
  data.credential_id = std::string(1023, 'c');
  const auto largest = register_data(data);
  ASSERT_EQ(code_of(largest), "accepted");
  EXPECT_EQ(std::get<NewCredential>(largest).id, base64url_encode(data.credential_id));
  data.credential_id += 'c';
  const auto oversized = register_data(data);
  EXPECT_EQ(code_of(oversized), "oversized_credential");
  EXPECT_FALSE(std::get<Failure>(oversized).message.empty());
  data.credential_id = "";
  EXPECT_EQ(code_of(register_data(data)), "bad_authenticator_data");
}

TEST(WebAuthn, OversizedInputsAreRefused) {
  const auto authenticator = software_key::es256();
  const auto attestation = attestation_object(registration_data(authenticator).bytes());
  // JSON may carry spaces: a clientDataJSON of exactly 4 KiB is taken, one byte more is not.
  auto client_json = client_data("webauthn.create").dump();
  client_json.insert(1, 4096 - client_json.size(), ' ');
  EXPECT_EQ(code_of(register_raw(client_json, attestation)), "accepted");
  EXPECT_EQ(code_of(register_raw(client_json.insert(1, " "), attestation)), "too_large");

  const auto client = client_data("webauthn.create").dump();
  const json large_statement = {{"x", json::binary(std::vector<std::uint8_t>(16 * 1024, 0))}};
  EXPECT_EQ(code_of(register_raw(client, attestation_object(registration_data(authenticator).bytes(), "packed",
                                                             large_statement))),
            "too_large");

  const auto client_get = client_data("webauthn.get").dump();
  const auto bytes = counting(1).bytes();
  const auto signature = authenticator.sign(bytes + sha256(client_get));
  const auto assert_with = [&](const std::string& authenticator_data, const std::string& signature_bytes) {
    return code_of(verify_assertion(stored(authenticator), base64url_encode(client_get),
                                    base64url_encode(authenticator_data), base64url_encode(signature_bytes),
                                    expected()));
  };
  EXPECT_EQ(assert_with(bytes, signature), "accepted");
  EXPECT_EQ(assert_with(bytes + std::string(4096 - bytes.size(), '\0'), signature), "trailing_bytes");
  EXPECT_EQ(assert_with(bytes + std::string(4097 - bytes.size(), '\0'), signature), "too_large");
  EXPECT_EQ(assert_with(bytes, std::string(512, '\x30')), "bad_signature");
  EXPECT_EQ(assert_with(bytes, std::string(513, '\x30')), "too_large");
}

TEST(WebAuthn, Base64urlHasOneSpellingWithoutPadding) {
  EXPECT_EQ(base64url_encode(""), "");
  EXPECT_EQ(base64url_encode("f"), "Zg");
  EXPECT_EQ(base64url_encode("fo"), "Zm8");
  EXPECT_EQ(base64url_encode("foo"), "Zm9v");
  EXPECT_EQ(base64url_encode("\xfb\xff"), "-_8");
  std::string bytes;
  for (int size = 0; size < 70; ++size) {
    ASSERT_EQ(base64url_decode(base64url_encode(bytes)), bytes) << size << " bytes";
    bytes.push_back(static_cast<char>(size * 37 + 11));
  }
  for (const char* text : {"Zg==", "Zm8=", "Zm9v+", "Zm9v/", "Zm 9v", "Z", "Zm9vY", "Zh", "Zm9"}) {
    EXPECT_EQ(base64url_decode(text), std::nullopt) << text;
  }
}

TEST(WebAuthn, InputsNotInBase64urlAreRefused) {
  const auto authenticator = software_key::es256();
  const auto client = base64url_encode(client_data("webauthn.create").dump());
  const auto attestation = base64url_encode(attestation_object(registration_data(authenticator).bytes()));
  EXPECT_EQ(code_of(verify_registration(client + "=", attestation, expected())), "bad_encoding");
  EXPECT_EQ(code_of(verify_registration(client, "+" + attestation, expected())), "bad_encoding");
  EXPECT_EQ(code_of(verify_registration(client, attestation, expected())), "accepted");

  const auto client_get = client_data("webauthn.get").dump();
  const auto bytes = counting(1).bytes();
  const auto signature = base64url_encode(authenticator.sign(bytes + sha256(client_get)));
  EXPECT_EQ(code_of(verify_assertion(stored(authenticator), base64url_encode(client_get), base64url_encode(bytes),
                                     signature + "/", expected())),
            "bad_encoding");
  auto unreadable = stored(authenticator);
  unreadable.public_key += "=";
  EXPECT_EQ(code_of(verify_assertion(unreadable, base64url_encode(client_get), base64url_encode(bytes), signature,
                                     expected())),
            "bad_public_key");
}

TEST(WebAuthn, UnsupportedAlgorithmsAreRefused) {
  const auto authenticator = software_key::es256();
  auto data = registration_data(authenticator);
  data.public_key = rs256_key();
  EXPECT_EQ(code_of(register_data(data)), "unsupported_algorithm");
  const std::string x(48, '\x11'), y(48, '\x22');
  data.public_key = ec2_key(x, y, -35, 2);  // ES384 on P-384
  EXPECT_EQ(code_of(register_data(data)), "unsupported_algorithm");
  data.public_key = ec2_key(x.substr(0, 32), y.substr(0, 32), -7, 2);  // ES256's name on another curve
  EXPECT_EQ(code_of(register_data(data)), "unsupported_algorithm");
}

TEST(WebAuthn, AKeyThatIsNoKeyIsRefused) {
  const auto authenticator = software_key::es256();
  auto data = registration_data(authenticator);
  const std::string x = authenticator.cose_key().substr(10, 32);  // the real x: its y is known
  std::string y = authenticator.cose_key().substr(45, 32);
  data.public_key = ec2_key(x, y);
  ASSERT_EQ(code_of(register_data(data)), "accepted");
  y[31] = static_cast<char>(y[31] ^ 1);
  data.public_key = ec2_key(x, y);
  EXPECT_EQ(code_of(register_data(data)), "bad_public_key");  // off the curve
  data.public_key = ec2_key(x, y.substr(0, 31));
  EXPECT_EQ(code_of(register_data(data)), "bad_public_key");
  data.public_key = cbor_head(5, 1) + cbor_int(1) + cbor_int(2);  // no alg
  EXPECT_EQ(code_of(register_data(data)), "bad_public_key");
  // A parameter twice, its second value the good one.
  data.public_key = ec2_key(x, authenticator.cose_key().substr(45, 32), -257) + cbor_int(3) + cbor_int(-7);
  data.public_key[0] = static_cast<char>(0xa6);  // a map of six
  EXPECT_EQ(code_of(register_data(data)), "bad_public_key");

  auto kept_with_more = stored(authenticator);
  kept_with_more.public_key = base64url_encode(authenticator.cose_key() + '\0');
  EXPECT_EQ(code_of(sign_in(kept_with_more, authenticator, counting(1))), "bad_public_key");
}

}  // namespace
}  // namespace emporium::server::webauthn
