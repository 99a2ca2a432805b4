#pragma once
// A software passkey for tests, in two layers. Below, the parts an authenticator is made of: a key pair made by
// OpenSSL (P-256 for ES256, alg -7, or Ed25519 for EdDSA, alg -8), its COSE_Key, signatures, and the CBOR written
// by hand: what the unit tests of server/people/webauthn use byte by byte, to spoil any one part. Above,
// test_authenticator: what a browser's authenticator does for navigator.credentials.create() and .get() (WebAuthn
// §6: an attestation object with format "none", and assertions signed over authenticatorData ||
// SHA-256(clientDataJSON)), in the JSON a page sends, for the end-to-end tests; its parts can be spoiled too.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>
#include <openssl/evp.h>

namespace emporium::testing {

std::string base64url(const std::string& bytes);
std::string from_base64url(const std::string& text);  // the test's own inputs only: no checks

std::string sha256(std::string_view bytes);
std::string big_endian(std::uint64_t value, int width);

// CBOR items written by hand (RFC 8949) where nlohmann cannot: a COSE_Key's labels are integers.
std::string cbor_head(int major, std::uint64_t argument);
std::string cbor_int(std::int64_t value);
std::string cbor_bytes(std::string_view bytes);
std::string cbor_text(std::string_view text);

// COSE_Keys (RFC 9053): an EC2 key (ES256 on P-256 unless told otherwise) and an OKP key (EdDSA on Ed25519).
std::string ec2_key(std::string_view x, std::string_view y, std::int64_t alg = -7, std::int64_t curve = 1);
std::string okp_key(std::string_view x);

// One key pair of an authenticator: its COSE_Key, and signatures as a real one makes them.
class software_key {
 public:
  static software_key es256();
  static software_key ed25519();
  static software_key of(int alg) { return alg == -8 ? ed25519() : es256(); }

  int alg() const { return alg_; }
  const std::string& cose_key() const { return cose_key_; }
  // ES256: a DER ECDSA signature over SHA-256 of the message; Ed25519: 64 raw bytes over the message itself.
  std::string sign(std::string_view message) const;

 private:
  struct free_key {
    void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
  };
  software_key(std::unique_ptr<EVP_PKEY, free_key> key, int alg, std::string cose_key)
      : key_(std::move(key)), alg_(alg), cose_key_(std::move(cose_key)) {}

  std::unique_ptr<EVP_PKEY, free_key> key_;
  int alg_;
  std::string cose_key_;
};

class test_authenticator {
 public:
  explicit test_authenticator(int alg = -7, std::string rp_id = "127.0.0.1");

  // What the browser sends after create(): {"id","clientDataJSON","attestationObject"}, for `options` (the server's
  // "publicKey" object) on the page `origin`.
  nlohmann::json create(const nlohmann::json& options, const std::string& origin);
  // After get(): {"id","clientDataJSON","authenticatorData","signature","userHandle"}. Each call counts one more
  // use (the signature counter) unless `counter` is given.
  nlohmann::json get(const nlohmann::json& options, const std::string& origin, std::optional<std::uint32_t> counter = {});

  const std::string& credential_id() const { return id_; }
  std::string user_handle;  // what create() was given as user.id (base64url)

  // Spoilers, for the next call only where it makes sense.
  std::string rp_id;          // the relying party the authenticator believes it serves
  bool user_present = true;   // the UP flag
  std::string client_data_type_override;  // e.g. "webauthn.get" in a create()
  bool sign_other_data = false;

 private:
  std::string auth_data(bool with_credential);

  software_key key_;
  std::string id_;
  std::uint32_t counter_ = 0;
};

}  // namespace emporium::testing
