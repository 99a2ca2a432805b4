#pragma once
// Passkeys: the checks a relying party makes of what a browser's navigator.credentials.create() and .get() return
// (WebAuthn Level 2, §7.1 registration and §7.2 assertion), for a server that asks for attestation "none" and
// accepts ES256 (P-256) and EdDSA (Ed25519) keys. A pure unit: no I/O, no clock, no state. The caller keeps the
// challenges (one use each, so nothing is replayed) and the credentials, and looks a credential up by its id.
// docs/accounts.md, "Passkeys (WebAuthn)", says what each failure's code means.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/base64url.hpp"  // every byte string here is base64url

namespace emporium::server::webauthn {

// What the server asked the browser for.
struct Expected {
  std::string challenge;             // base64url, as it was sent
  std::vector<std::string> origins;  // e.g. "https://play.example", matched exactly
  std::string rp_id;                 // e.g. "play.example"
  bool user_verification = false;    // whether the authenticator must have verified the person (UV flag)
};

// A credential registered: what the server keeps of it.
struct NewCredential {
  std::string id;          // base64url of the raw credential id
  std::string public_key;  // base64url of the COSE_Key bytes
  int alg = 0;             // -7 (ES256) or -8 (EdDSA)
  std::uint32_t sign_count = 0;
  bool backed_up = false;  // a synced passkey (BS flag): it outlives the device it was made on
};

// What the server keeps of a credential, for verifying its assertions.
struct StoredCredential {
  std::string public_key;  // as NewCredential::public_key
  int alg = 0;
  std::uint32_t sign_count = 0;
};

struct Failure {
  std::string code;     // a short stable token, for the client and the logs
  std::string message;  // for people
};
template <class T>
using Result = std::variant<T, Failure>;

Result<NewCredential> verify_registration(std::string_view client_data_json_b64url,
                                          std::string_view attestation_object_b64url, const Expected& expected);

// The credential's new sign count, for the caller to store.
Result<std::uint32_t> verify_assertion(const StoredCredential& credential, std::string_view client_data_json_b64url,
                                       std::string_view authenticator_data_b64url, std::string_view signature_b64url,
                                       const Expected& expected);

}  // namespace emporium::server::webauthn
