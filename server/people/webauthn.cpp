#include "people/webauthn.hpp"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/sha.h>

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <memory>

#include <nlohmann/json.hpp>

namespace emporium::server::webauthn {
namespace {

constexpr std::size_t kMaxClientData = 4 * 1024;
constexpr std::size_t kMaxAttestationObject = 16 * 1024;
constexpr std::size_t kMaxAuthenticatorData = 4 * 1024;
constexpr std::size_t kMaxSignature = 512;
constexpr std::size_t kMaxCredentialId = 1023;  // the spec's own limit
// Deep enough for any attestation statement (a map, its statement, a certificate chain), and shallow enough that
// nlohmann's CBOR reader, which recurses, never runs out of stack on what a stranger sends.
constexpr int kMaxCborDepth = 8;

constexpr int kEs256 = -7;
constexpr int kEdDsa = -8;

// authenticatorData's flags (§6.1).
constexpr unsigned kUserPresent = 0x01;
constexpr unsigned kUserVerified = 0x04;
constexpr unsigned kBackupEligible = 0x08;
constexpr unsigned kBackedUp = 0x10;
constexpr unsigned kAttestedCredential = 0x40;
constexpr unsigned kExtensions = 0x80;

template <auto Free>
struct Freer {
  template <class T>
  void operator()(T* object) const { Free(object); }
};
using Pkey = std::unique_ptr<EVP_PKEY, Freer<&EVP_PKEY_free>>;
using PkeyContext = std::unique_ptr<EVP_PKEY_CTX, Freer<&EVP_PKEY_CTX_free>>;
using DigestContext = std::unique_ptr<EVP_MD_CTX, Freer<&EVP_MD_CTX_free>>;

Result<std::string> decode_input(std::string_view text, std::size_t max_bytes, std::string_view what) {
  // Measured before decoding, so that a huge input costs nothing: this many characters hold at most max_bytes.
  if (text.size() > (max_bytes * 4 + 2) / 3) {
    return Failure{"too_large", std::string(what) + " is over " + std::to_string(max_bytes) + " bytes"};
  }
  auto bytes = base64url_decode(text);
  if (!bytes) return Failure{"bad_encoding", std::string(what) + " is not base64url without padding"};
  return std::move(*bytes);
}

std::string sha256(std::string_view bytes) {
  std::string digest(SHA256_DIGEST_LENGTH, '\0');
  SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(),
         reinterpret_cast<unsigned char*>(digest.data()));
  return digest;
}

// Reads bytes front to back; each read says whether the bytes were there.
class Cursor {
 public:
  explicit Cursor(std::string_view bytes) : rest_(bytes) {}

  std::optional<std::string_view> take(std::uint64_t count) {
    if (count > rest_.size()) return std::nullopt;
    const auto taken = rest_.substr(0, count);
    rest_.remove_prefix(count);
    return taken;
  }
  std::optional<std::uint64_t> big_endian(std::size_t width) {
    const auto bytes = take(width);
    if (!bytes) return std::nullopt;
    std::uint64_t value = 0;
    for (const char byte : *bytes) value = (value << 8) | static_cast<unsigned char>(byte);
    return value;
  }
  std::string_view rest() const { return rest_; }

 private:
  std::string_view rest_;
};

// CBOR (RFC 8949), as far as WebAuthn needs it: an item's head, and a whole item skipped. Definite lengths only and
// no tags, as CTAP2's canonical CBOR has it.
enum CborMajor { kUnsigned = 0, kNegative = 1, kByteString = 2, kTextString = 3, kArray = 4, kMap = 5, kTag = 6 };

struct CborHead {
  int major;
  std::uint64_t argument;
};

std::optional<CborHead> read_head(Cursor& cursor) {
  const auto first = cursor.big_endian(1);
  if (!first) return std::nullopt;
  const int major = static_cast<int>(*first >> 5);
  const auto info = *first & 31;
  if (info < 24) return CborHead{major, info};
  if (info > 27) return std::nullopt;  // reserved, or an indefinite length
  const auto argument = cursor.big_endian(std::size_t{1} << (info - 24));
  if (!argument) return std::nullopt;
  return CborHead{major, *argument};
}

// Whether one whole, well-formed item was there (and is now behind the cursor), nested at most `depth` deep.
bool skip_item(Cursor& cursor, int depth) {
  const auto head = read_head(cursor);
  if (!head || depth == 0) return false;
  switch (head->major) {
    case kByteString:
    case kTextString:
      return cursor.take(head->argument).has_value();
    case kArray:
    case kMap: {
      // Each item takes a byte at least, so a length the bytes cannot hold ends the loop early.
      const int items_per_entry = head->major == kMap ? 2 : 1;
      for (std::uint64_t entry = 0; entry < head->argument; ++entry) {
        for (int item = 0; item < items_per_entry; ++item) {
          if (!skip_item(cursor, depth - 1)) return false;
        }
      }
      return true;
    }
    case kTag:
      return false;
    default:  // integers, simple values and floats: the head is the whole item
      return true;
  }
}

// A COSE_Key's parameter: an integer, a byte string, or something this code has no use for.
using CoseValue = std::variant<std::monostate, std::int64_t, std::string_view>;

std::optional<CoseValue> read_cose_value(Cursor& cursor) {
  Cursor before = cursor;
  const auto head = read_head(cursor);
  if (!head) return std::nullopt;
  constexpr auto kMaxInt = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (head->major == kUnsigned && head->argument <= kMaxInt) return static_cast<std::int64_t>(head->argument);
  if (head->major == kNegative && head->argument <= kMaxInt) return -1 - static_cast<std::int64_t>(head->argument);
  if (head->major == kByteString) {
    const auto bytes = cursor.take(head->argument);
    if (!bytes) return std::nullopt;
    return *bytes;
  }
  cursor = before;
  if (!skip_item(cursor, kMaxCborDepth)) return std::nullopt;
  return std::monostate{};
}

struct PublicKey {
  int alg;
  Pkey key;
};

Failure bad_public_key(std::string_view why) { return {"bad_public_key", "the public key " + std::string(why)}; }

Failure unsupported_algorithm() {
  return {"unsupported_algorithm", "only ES256 (P-256) and EdDSA (Ed25519) keys are accepted"};
}

Pkey p256_key(std::string_view x, std::string_view y) {
  std::array<unsigned char, 65> point{0x04};  // uncompressed: 04 || x || y
  std::copy(x.begin(), x.end(), point.begin() + 1);
  std::copy(y.begin(), y.end(), point.begin() + 33);
  char group[] = "P-256";  // OSSL_PARAM takes a pointer it does not write through, but not a const one
  OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, group, 0),
                         OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, point.data(), point.size()),
                         OSSL_PARAM_construct_end()};
  const PkeyContext context(EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr));
  EVP_PKEY* made = nullptr;
  if (!context || EVP_PKEY_fromdata_init(context.get()) != 1 ||
      EVP_PKEY_fromdata(context.get(), &made, EVP_PKEY_PUBLIC_KEY, params) != 1) {
    return nullptr;
  }
  Pkey key(made);
  // EVP_PKEY_fromdata promises no validation: ask that the point be on the curve and its coordinates in range.
  const PkeyContext check(EVP_PKEY_CTX_new_from_pkey(nullptr, key.get(), nullptr));
  if (!check || EVP_PKEY_public_check_quick(check.get()) != 1) return nullptr;
  return key;
}

// A COSE_Key (RFC 9053): EC2 P-256 with ES256, or OKP Ed25519 with EdDSA, and nothing after it.
Result<PublicKey> read_public_key(std::string_view cose) {
  Cursor cursor(cose);
  const auto head = read_head(cursor);
  if (!head || head->major != kMap) return bad_public_key("is not a CBOR map");
  std::map<std::int64_t, CoseValue> parameters;
  for (std::uint64_t entry = 0; entry < head->argument; ++entry) {
    const auto label = read_cose_value(cursor);
    const auto value = label ? read_cose_value(cursor) : std::nullopt;
    if (!value) return bad_public_key("is cut short or not CBOR");
    const auto* number = std::get_if<std::int64_t>(&*label);
    if (number && !parameters.emplace(*number, *value).second) return bad_public_key("repeats a parameter");
  }
  if (!cursor.rest().empty()) return bad_public_key("has bytes after it");

  const auto integer = [&](std::int64_t label) -> std::optional<std::int64_t> {
    const auto found = parameters.find(label);
    if (found == parameters.end() || !std::holds_alternative<std::int64_t>(found->second)) return std::nullopt;
    return std::get<std::int64_t>(found->second);
  };
  const auto coordinate = [&](std::int64_t label) -> std::optional<std::string_view> {
    const auto found = parameters.find(label);
    if (found == parameters.end() || !std::holds_alternative<std::string_view>(found->second)) return std::nullopt;
    const auto bytes = std::get<std::string_view>(found->second);
    if (bytes.size() != 32) return std::nullopt;
    return bytes;
  };
  constexpr std::int64_t kKty = 1, kAlg = 3, kCrv = -1, kX = -2, kY = -3;
  constexpr std::int64_t kEc2 = 2, kOkp = 1, kP256 = 1, kEd25519 = 6;
  const auto alg = integer(kAlg);
  if (!alg) return bad_public_key("names no algorithm");
  if (*alg == kEs256 && integer(kKty) == kEc2 && integer(kCrv) == kP256) {
    const auto x = coordinate(kX), y = coordinate(kY);
    if (!x || !y) return bad_public_key("lacks a 32-byte x or y");
    Pkey key = p256_key(*x, *y);
    if (!key) {
      ERR_clear_error();  // nothing of this key's refusal should meet the thread's next OpenSSL call
      return bad_public_key("is not a point on P-256");
    }
    return PublicKey{kEs256, std::move(key)};
  }
  if (*alg == kEdDsa && integer(kKty) == kOkp && integer(kCrv) == kEd25519) {
    const auto x = coordinate(kX);
    if (!x) return bad_public_key("lacks a 32-byte x");
    Pkey key(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr,
                                         reinterpret_cast<const unsigned char*>(x->data()), x->size()));
    if (!key) {
      ERR_clear_error();
      return bad_public_key("is not an Ed25519 key");
    }
    return PublicKey{kEdDsa, std::move(key)};
  }
  return unsupported_algorithm();
}

bool signature_holds(const PublicKey& key, std::string_view message, std::string_view signature) {
  const DigestContext context(EVP_MD_CTX_new());
  // ES256 signs SHA-256 of the message (its signature DER-encoded); Ed25519 hashes inside its scheme: no digest.
  const EVP_MD* digest = key.alg == kEs256 ? EVP_sha256() : nullptr;
  const bool holds =
      context && EVP_DigestVerifyInit(context.get(), nullptr, digest, nullptr, key.key.get()) == 1 &&
      EVP_DigestVerify(context.get(), reinterpret_cast<const unsigned char*>(signature.data()), signature.size(),
                       reinterpret_cast<const unsigned char*>(message.data()), message.size()) == 1;
  if (!holds) ERR_clear_error();
  return holds;
}

// §7.1 steps 7-14, §7.2 steps 11-16: the browser's own account of the ceremony.
std::optional<Failure> check_client_data(std::string_view json_text, std::string_view type,
                                         const Expected& expected) {
  const auto data = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (!data.is_object()) return Failure{"bad_client_data", "clientDataJSON is not a JSON object"};
  const auto text = [&](const char* name) -> const std::string* {
    const auto found = data.find(name);
    return found != data.end() && found->is_string() ? found->get_ptr<const std::string*>() : nullptr;
  };
  const auto* given_type = text("type");
  const auto* challenge = text("challenge");
  const auto* origin = text("origin");
  if (!given_type || !challenge || !origin) {
    return Failure{"bad_client_data", "clientDataJSON lacks its type, challenge or origin"};
  }
  if (*given_type != type) return Failure{"wrong_type", "clientDataJSON's type is not " + std::string(type)};
  // Compared in constant time, as a secret. An empty expected challenge is a caller's mistake: it matches nothing.
  if (expected.challenge.empty() || challenge->size() != expected.challenge.size() ||
      CRYPTO_memcmp(challenge->data(), expected.challenge.data(), challenge->size()) != 0) {
    return Failure{"wrong_challenge", "the challenge is not the one this server sent"};
  }
  if (std::find(expected.origins.begin(), expected.origins.end(), *origin) == expected.origins.end()) {
    return Failure{"wrong_origin", "the origin " + *origin + " is not this site's"};
  }
  const auto cross_origin = data.find("crossOrigin");
  if (cross_origin != data.end() && *cross_origin != false) {
    return Failure{"cross_origin", "the ceremony ran in a frame of another site"};
  }
  return std::nullopt;
}

// The attestation object's authData. Its statement is not checked: we ask for attestation "none" and trust no
// authenticator's maker, so another format (a browser may send "packed" all the same) is taken as if it were none.
Result<std::string> authenticator_data_of(std::string_view attestation_object) {
  const auto malformed = [](std::string why) { return Failure{"bad_attestation", "the attestation object " + why}; };
  // Read first by our own reader, which bounds the depth (see kMaxCborDepth) and refuses a length past the end
  // of the input: the one thing nlohmann's reader throws on even when asked not to.
  Cursor cursor(attestation_object);
  if (!skip_item(cursor, kMaxCborDepth) || !cursor.rest().empty()) return malformed("is not CBOR");
  const auto attestation =
      nlohmann::json::from_cbor(attestation_object, /*strict=*/true, /*allow_exceptions=*/false);
  if (!attestation.is_object()) return malformed("is not a CBOR map with text keys");
  const auto fmt = attestation.find("fmt");
  const auto statement = attestation.find("attStmt");
  const auto data = attestation.find("authData");
  if (fmt == attestation.end() || !fmt->is_string() || statement == attestation.end() || !statement->is_object() ||
      data == attestation.end() || !data->is_binary()) {
    return malformed("lacks its fmt, attStmt or authData");
  }
  if (*fmt == "none" && !statement->empty()) return malformed("has format none but a statement");
  const auto& bytes = data->get_binary();
  return std::string(bytes.begin(), bytes.end());
}

struct AuthenticatorData {
  std::string_view rp_id_hash;
  unsigned flags = 0;
  std::uint32_t sign_count = 0;
  std::string_view credential_id;  // with attested credential data only
  std::string_view public_key;     // its COSE_Key bytes
};

// §6.1's layout: rpIdHash, flags, signCount, then attested credential data (registration only) and extensions.
Result<AuthenticatorData> read_authenticator_data(std::string_view bytes, bool registration) {
  const auto malformed = [](std::string why) {
    return Failure{"bad_authenticator_data", "the authenticator data " + why};
  };
  Cursor cursor(bytes);
  AuthenticatorData data;
  const auto rp_id_hash = cursor.take(32);
  const auto flags = cursor.big_endian(1);
  const auto sign_count = cursor.big_endian(4);
  if (!rp_id_hash || !flags || !sign_count) return malformed("is shorter than 37 bytes");
  data.rp_id_hash = *rp_id_hash;
  data.flags = static_cast<unsigned>(*flags);
  data.sign_count = static_cast<std::uint32_t>(*sign_count);
  if ((data.flags & kBackedUp) && !(data.flags & kBackupEligible)) {
    return malformed("says backed up but not eligible for backup");
  }

  if (registration != bool(data.flags & kAttestedCredential)) {
    return malformed(registration ? "holds no credential" : "holds a credential in an assertion");
  }
  if (registration) {
    const auto aaguid = cursor.take(16);
    const auto id_length = aaguid ? cursor.big_endian(2) : std::nullopt;
    if (!id_length) return malformed("is cut short in the credential");
    if (*id_length > kMaxCredentialId) {
      return Failure{"oversized_credential",
                     "the credential id is over " + std::to_string(kMaxCredentialId) + " bytes"};
    }
    const auto id = cursor.take(*id_length);
    if (!id || id->empty()) return malformed("is cut short in the credential id");
    data.credential_id = *id;
    const auto key_start = cursor.rest();
    if (!skip_item(cursor, kMaxCborDepth)) return malformed("is cut short in the public key");
    data.public_key = key_start.substr(0, key_start.size() - cursor.rest().size());
  }
  // Extensions we never ask for, so none is read; but an authenticator may add some, and they end the data.
  if ((data.flags & kExtensions) && !skip_item(cursor, kMaxCborDepth)) return malformed("is cut short in extensions");
  if (!cursor.rest().empty()) return Failure{"trailing_bytes", "the authenticator data has bytes after its end"};
  return data;
}

// §7.1 steps 15-17, §7.2 steps 17-19: the authenticator's account, for this site, with a person there.
std::optional<Failure> check_authenticator_data(const AuthenticatorData& data, const Expected& expected) {
  const auto expected_hash = sha256(expected.rp_id);
  if (CRYPTO_memcmp(data.rp_id_hash.data(), expected_hash.data(), expected_hash.size()) != 0) {
    return Failure{"wrong_rp_id", "the credential is not for " + expected.rp_id};
  }
  if (!(data.flags & kUserPresent)) return Failure{"user_not_present", "the authenticator saw nobody there"};
  if (expected.user_verification && !(data.flags & kUserVerified)) {
    return Failure{"user_not_verified", "the authenticator did not verify the person"};
  }
  return std::nullopt;
}

}  // namespace

Result<NewCredential> verify_registration(std::string_view client_data_json_b64url,
                                          std::string_view attestation_object_b64url, const Expected& expected) {
  auto client_data = decode_input(client_data_json_b64url, kMaxClientData, "clientDataJSON");
  if (const auto* failure = std::get_if<Failure>(&client_data)) return *failure;
  auto attestation = decode_input(attestation_object_b64url, kMaxAttestationObject, "the attestation object");
  if (const auto* failure = std::get_if<Failure>(&attestation)) return *failure;

  if (auto failure = check_client_data(std::get<std::string>(client_data), "webauthn.create", expected)) {
    return *failure;
  }
  const auto bytes = authenticator_data_of(std::get<std::string>(attestation));
  if (const auto* failure = std::get_if<Failure>(&bytes)) return *failure;
  const auto data = read_authenticator_data(std::get<std::string>(bytes), /*registration=*/true);
  if (const auto* failure = std::get_if<Failure>(&data)) return *failure;
  const auto& authenticator = std::get<AuthenticatorData>(data);
  if (auto failure = check_authenticator_data(authenticator, expected)) return *failure;
  // Read now, so that no credential is kept whose key could never verify a signature.
  const auto key = read_public_key(authenticator.public_key);
  if (const auto* failure = std::get_if<Failure>(&key)) return *failure;

  return NewCredential{base64url_encode(authenticator.credential_id), base64url_encode(authenticator.public_key),
                       std::get<PublicKey>(key).alg, authenticator.sign_count,
                       bool(authenticator.flags & kBackedUp)};
}

Result<std::uint32_t> verify_assertion(const StoredCredential& credential, std::string_view client_data_json_b64url,
                                       std::string_view authenticator_data_b64url, std::string_view signature_b64url,
                                       const Expected& expected) {
  auto client_data = decode_input(client_data_json_b64url, kMaxClientData, "clientDataJSON");
  if (const auto* failure = std::get_if<Failure>(&client_data)) return *failure;
  auto bytes = decode_input(authenticator_data_b64url, kMaxAuthenticatorData, "the authenticator data");
  if (const auto* failure = std::get_if<Failure>(&bytes)) return *failure;
  auto signature = decode_input(signature_b64url, kMaxSignature, "the signature");
  if (const auto* failure = std::get_if<Failure>(&signature)) return *failure;

  const auto& client_data_json = std::get<std::string>(client_data);
  if (auto failure = check_client_data(client_data_json, "webauthn.get", expected)) return *failure;
  const auto& authenticator_bytes = std::get<std::string>(bytes);
  const auto data = read_authenticator_data(authenticator_bytes, /*registration=*/false);
  if (const auto* failure = std::get_if<Failure>(&data)) return *failure;
  const auto& authenticator = std::get<AuthenticatorData>(data);
  if (auto failure = check_authenticator_data(authenticator, expected)) return *failure;

  const auto stored_key = base64url_decode(credential.public_key);
  if (!stored_key) return bad_public_key("kept for this credential is not base64url");
  const auto key = read_public_key(*stored_key);
  if (const auto* failure = std::get_if<Failure>(&key)) return *failure;
  if (std::get<PublicKey>(key).alg != credential.alg) return bad_public_key("is not of the algorithm kept with it");
  // §7.2 steps 20-21: the signature covers authenticatorData || SHA-256(clientDataJSON).
  if (!signature_holds(std::get<PublicKey>(key), authenticator_bytes + sha256(client_data_json),
                       std::get<std::string>(signature))) {
    return Failure{"bad_signature", "the signature does not verify with this credential's key"};
  }
  // §7.2 step 22: a count that does not rise, once counting, means the credential was copied to a second device.
  // Authenticators that count nothing (synced passkeys) send zero every time.
  if ((credential.sign_count != 0 || authenticator.sign_count != 0) &&
      authenticator.sign_count <= credential.sign_count) {
    return Failure{"counter_went_backwards", "the signature counter went backwards: a cloned authenticator?"};
  }
  return authenticator.sign_count;
}


}  // namespace emporium::server::webauthn
