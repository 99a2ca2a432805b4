#include "test_authenticator.hpp"

#include <stdexcept>
#include <vector>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

namespace emporium::testing {
namespace {

using Json = nlohmann::json;

std::string sha256(const std::string& data) {
  unsigned char out[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), out);
  return std::string(reinterpret_cast<const char*>(out), sizeof out);
}

void need(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("test authenticator: ") + what);
}

// The few CBOR items a COSE key needs (RFC 8949): small integers, byte strings, a map's head.
std::string cbor_head(unsigned major, std::uint64_t n) {
  std::string out;
  const auto m = static_cast<char>(major << 5);
  if (n < 24) {
    out += static_cast<char>(m | static_cast<char>(n));
  } else {
    out += static_cast<char>(m | 24);
    out += static_cast<char>(n);
  }
  return out;
}
std::string cbor_int(int v) { return v >= 0 ? cbor_head(0, static_cast<unsigned>(v)) : cbor_head(1, static_cast<unsigned>(-1 - v)); }
std::string cbor_bytes(const std::string& b) { return cbor_head(2, b.size()) + b; }

std::string big_endian(std::uint64_t v, int bytes) {
  std::string out(static_cast<std::size_t>(bytes), '\0');
  for (int i = bytes - 1; i >= 0; --i, v >>= 8) out[static_cast<std::size_t>(i)] = static_cast<char>(v & 0xFF);
  return out;
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

test_authenticator::test_authenticator(int alg, std::string rp)
    : rp_id(std::move(rp)),
      alg_(alg),
      key_(alg == -8 ? EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519")
                     : EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"),
           &EVP_PKEY_free) {
  need(key_ != nullptr, "no key");
  std::string raw(16, '\0');
  need(RAND_bytes(reinterpret_cast<unsigned char*>(raw.data()), 16) == 1, "no random bytes");
  id_ = base64url(raw);
}

std::string test_authenticator::cose_key() const {
  if (alg_ == -8) {
    unsigned char x[32];
    std::size_t n = sizeof x;
    need(EVP_PKEY_get_raw_public_key(key_.get(), x, &n) == 1 && n == 32, "no Ed25519 key");
    return cbor_head(5, 4) + cbor_int(1) + cbor_int(1) + cbor_int(3) + cbor_int(-8) + cbor_int(-1) + cbor_int(6) +
           cbor_int(-2) + cbor_bytes(std::string(reinterpret_cast<char*>(x), 32));
  }
  BIGNUM* x = nullptr;
  BIGNUM* y = nullptr;
  need(EVP_PKEY_get_bn_param(key_.get(), OSSL_PKEY_PARAM_EC_PUB_X, &x) == 1 &&
           EVP_PKEY_get_bn_param(key_.get(), OSSL_PKEY_PARAM_EC_PUB_Y, &y) == 1,
       "no P-256 point");
  std::string xb(32, '\0'), yb(32, '\0');
  BN_bn2binpad(x, reinterpret_cast<unsigned char*>(xb.data()), 32);
  BN_bn2binpad(y, reinterpret_cast<unsigned char*>(yb.data()), 32);
  BN_free(x);
  BN_free(y);
  return cbor_head(5, 5) + cbor_int(1) + cbor_int(2) + cbor_int(3) + cbor_int(-7) + cbor_int(-1) + cbor_int(1) +
         cbor_int(-2) + cbor_bytes(xb) + cbor_int(-3) + cbor_bytes(yb);
}

std::string test_authenticator::auth_data(bool with_credential) {
  // rpIdHash, flags (UP 0x01, UV 0x04, AT 0x40), the signature counter, then the attested credential.
  std::uint8_t flags = (user_present ? 0x01 : 0x00) | 0x04 | (with_credential ? 0x40 : 0x00);
  std::string data = sha256(rp_id) + static_cast<char>(flags) + big_endian(counter_, 4);
  if (with_credential) {
    const std::string raw_id = from_base64url(id_);
    data += std::string(16, '\0') + big_endian(raw_id.size(), 2) + raw_id + cose_key();  // AAGUID: zeros
  }
  return data;
}

std::string test_authenticator::sign(const std::string& data) {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  need(EVP_DigestSignInit(ctx.get(), nullptr, alg_ == -8 ? nullptr : EVP_sha256(), nullptr, key_.get()) == 1,
       "cannot sign");
  std::size_t n = 0;
  const auto* in = reinterpret_cast<const unsigned char*>(data.data());
  need(EVP_DigestSign(ctx.get(), nullptr, &n, in, data.size()) == 1, "cannot size the signature");
  std::string sig(n, '\0');
  need(EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(sig.data()), &n, in, data.size()) == 1,
       "cannot sign");
  sig.resize(n);
  return sig;
}

Json test_authenticator::create(const Json& options, const std::string& origin) {
  user_handle = options["user"]["id"].get<std::string>();
  const Json client_data = {{"type", client_data_type_override.empty() ? "webauthn.create" : client_data_type_override},
                            {"challenge", options["challenge"]},
                            {"origin", origin},
                            {"crossOrigin", false}};
  // The attestation object: format "none", with the authenticator data as a byte string. Its keys are text, so
  // nlohmann's CBOR writer makes it (the COSE key inside authData is integer-keyed and made by hand above).
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
          {"signature", base64url(sign(signed_data))},
          {"userHandle", user_handle}};
}

}  // namespace emporium::testing
