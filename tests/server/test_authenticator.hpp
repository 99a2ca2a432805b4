#pragma once
// A software passkey for tests: what a browser's authenticator does for navigator.credentials.create() and .get()
// (WebAuthn §6: an attestation object with format "none", and assertions signed over authenticatorData ||
// SHA-256(clientDataJSON)), with a P-256 (ES256, alg -7) or Ed25519 (EdDSA, alg -8) key made by OpenSSL. Every
// part can be spoiled on purpose, to see the server refuse it.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>
#include <openssl/evp.h>

namespace emporium::testing {

std::string base64url(const std::string& bytes);
std::string from_base64url(const std::string& text);  // the test's own inputs only: no checks

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
  std::string sign(const std::string& data);
  std::string cose_key() const;

  int alg_;
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key_;
  std::string id_;
  std::uint32_t counter_ = 0;
};

}  // namespace emporium::testing
