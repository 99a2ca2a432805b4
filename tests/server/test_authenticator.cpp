#include "test_authenticator.hpp"

#include <stdexcept>
#include <vector>

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

namespace emporium::testing {
namespace {

using Json = nlohmann::json;

void need(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("test authenticator: ") + what);
}

}  // namespace

// Written here again, not taken from the server (common/base64url): the test's side of the wire stays independent
// of the code it checks.
std::string base64url(const std::string& bytes) {
  static const char* abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  std::uint32_t acc = 0;
  int bits = 0;
  for (unsigned char c : bytes) {
    acc = (acc << 8) | c;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += abc[(acc >> bits) & 0x3F];
    }
  }
  if (bits > 0) out += abc[(acc << (6 - bits)) & 0x3F];
  return out;
}

std::string from_base64url(const std::string& text) {
  std::string out;
  std::uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    int v = c >= 'A' && c <= 'Z' ? c - 'A' : c >= 'a' && c <= 'z' ? c - 'a' + 26 : c >= '0' && c <= '9' ? c - '0' + 52
                                                                                : c == '-' ? 62 : 63;
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xFF);
    }
  }
  return out;
}

std::string sha256(std::string_view bytes) {
  std::string digest(SHA256_DIGEST_LENGTH, '\0');
  SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(),
         reinterpret_cast<unsigned char*>(digest.data()));
  return digest;
}

std::string big_endian(std::uint64_t value, int width) {
  std::string out;
  for (int shift = 8 * (width - 1); shift >= 0; shift -= 8) out.push_back(static_cast<char>((value >> shift) & 0xff));
  return out;
}

std::string cbor_head(int major, std::uint64_t argument) {
  const char first = static_cast<char>(major << 5);
  if (argument < 24) return std::string(1, static_cast<char>(first | static_cast<char>(argument)));
  if (argument < 0x100) return std::string(1, static_cast<char>(first | 24)) + big_endian(argument, 1);
  if (argument < 0x10000) return std::string(1, static_cast<char>(first | 25)) + big_endian(argument, 2);
  return std::string(1, static_cast<char>(first | 26)) + big_endian(argument, 4);
}
std::string cbor_int(std::int64_t value) {
  return value >= 0 ? cbor_head(0, static_cast<std::uint64_t>(value))
                    : cbor_head(1, static_cast<std::uint64_t>(-1 - value));
}
std::string cbor_bytes(std::string_view bytes) { return cbor_head(2, bytes.size()) + std::string(bytes); }
std::string cbor_text(std::string_view text) { return cbor_head(3, text.size()) + std::string(text); }

std::string ec2_key(std::string_view x, std::string_view y, std::int64_t alg, std::int64_t curve) {
  return cbor_head(5, 5) + cbor_int(1) + cbor_int(2) + cbor_int(3) + cbor_int(alg) + cbor_int(-1) + cbor_int(curve) +
         cbor_int(-2) + cbor_bytes(x) + cbor_int(-3) + cbor_bytes(y);
}
std::string okp_key(std::string_view x) {
  return cbor_head(5, 4) + cbor_int(1) + cbor_int(1) + cbor_int(3) + cbor_int(-8) + cbor_int(-1) + cbor_int(6) +
         cbor_int(-2) + cbor_bytes(x);
}

software_key software_key::es256() {
  std::unique_ptr<EVP_PKEY, free_key> key(EVP_EC_gen("P-256"));
  unsigned char point[65];  // 04 || x || y
  std::size_t size = 0;
  need(key && EVP_PKEY_get_octet_string_param(key.get(), OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, point, sizeof point,
                                              &size) == 1 && size == sizeof point,
       "no P-256 key");
  const std::string encoded(reinterpret_cast<const char*>(point), size);
  return software_key(std::move(key), -7, ec2_key(encoded.substr(1, 32), encoded.substr(33, 32)));
}

software_key software_key::ed25519() {
  std::unique_ptr<EVP_PKEY, free_key> key(EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519"));
  unsigned char x[32];
  std::size_t size = sizeof x;
  need(key && EVP_PKEY_get_raw_public_key(key.get(), x, &size) == 1 && size == sizeof x, "no Ed25519 key");
  return software_key(std::move(key), -8, okp_key(std::string(reinterpret_cast<const char*>(x), size)));
}

std::string software_key::sign(std::string_view message) const {
  const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  const auto* bytes = reinterpret_cast<const unsigned char*>(message.data());
  std::size_t size = 0;
  need(context &&
           EVP_DigestSignInit(context.get(), nullptr, alg_ == -7 ? EVP_sha256() : nullptr, nullptr, key_.get()) == 1 &&
           EVP_DigestSign(context.get(), nullptr, &size, bytes, message.size()) == 1,
       "cannot sign");
  std::string signature(size, '\0');
  need(EVP_DigestSign(context.get(), reinterpret_cast<unsigned char*>(signature.data()), &size, bytes,
                      message.size()) == 1,
       "cannot sign");
  signature.resize(size);
  return signature;
}

test_authenticator::test_authenticator(int alg, std::string rp) : rp_id(std::move(rp)), key_(software_key::of(alg)) {
  std::string raw(16, '\0');
  need(RAND_bytes(reinterpret_cast<unsigned char*>(raw.data()), 16) == 1, "no random bytes");
  id_ = base64url(raw);
}

std::string test_authenticator::auth_data(bool with_credential) {
  // rpIdHash, flags (UP 0x01, UV 0x04, AT 0x40), the signature counter, then the attested credential.
  std::uint8_t flags = (user_present ? 0x01 : 0x00) | 0x04 | (with_credential ? 0x40 : 0x00);
  std::string data = sha256(rp_id) + static_cast<char>(flags) + big_endian(counter_, 4);
  if (with_credential) {
    const std::string raw_id = from_base64url(id_);
    data += std::string(16, '\0') + big_endian(raw_id.size(), 2) + raw_id + key_.cose_key();  // AAGUID: zeros
  }
  return data;
}

Json test_authenticator::create(const Json& options, const std::string& origin) {
  user_handle = options["user"]["id"].get<std::string>();
  const Json client_data = {{"type", client_data_type_override.empty() ? "webauthn.create" : client_data_type_override},
                            {"challenge", options["challenge"]},
                            {"origin", origin},
                            {"crossOrigin", false}};
  // The attestation object: format "none", with the authenticator data as a byte string. Its keys are text, so
  // nlohmann's CBOR writer makes it (the COSE key inside authData is integer-keyed and made by hand: ec2_key).
  const std::string ad = auth_data(true);
  const Json att = {{"fmt", "none"}, {"attStmt", Json::object()},
                    {"authData", Json::binary(std::vector<std::uint8_t>(ad.begin(), ad.end()))}};
  const auto cbor = Json::to_cbor(att);
  return {{"id", id_},
          {"clientDataJSON", base64url(client_data.dump())},
          {"attestationObject", base64url(std::string(cbor.begin(), cbor.end()))}};
}

Json test_authenticator::get(const Json& options, const std::string& origin, std::optional<std::uint32_t> counter) {
  counter_ = counter ? *counter : counter_ + 1;
  const Json client_data = {{"type", client_data_type_override.empty() ? "webauthn.get" : client_data_type_override},
                            {"challenge", options["challenge"]},
                            {"origin", origin},
                            {"crossOrigin", false}};
  const std::string cdj = client_data.dump();
  const std::string ad = auth_data(false);
  const std::string signed_data = ad + sha256(sign_other_data ? cdj + " " : cdj);
  return {{"id", id_},
          {"clientDataJSON", base64url(cdj)},
          {"authenticatorData", base64url(ad)},
          {"signature", base64url(key_.sign(signed_data))},
          {"userHandle", user_handle}};
}

}  // namespace emporium::testing
