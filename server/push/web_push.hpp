#pragma once
// Web Push's cryptography (docs/push.md), pure: a message encrypted for one browser's subscription (RFC 8291, with
// RFC 8188's aes128gcm content coding), and the VAPID header (RFC 8292) that tells the push service it is from this
// server. OpenSSL 3's EVP interfaces only. Bad input throws PushKeyError with a sentence saying what is wrong.
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace emporium::server {

struct PushKeyError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// A subscription's keys as the browser gives them (PushSubscription.toJSON(): base64url), checked: p256dh an
// uncompressed P-256 point on the curve (65 bytes), auth 16 bytes. The raw bytes.
struct SubscriptionKeys {
  std::string p256dh, auth;
};
SubscriptionKeys subscription_keys(std::string_view p256dh_base64url, std::string_view auth_base64url);

// The largest message one record carries (4096 bytes of record, less the padding delimiter and the tag; the
// header is outside the record).
inline constexpr std::size_t kMaxPushMessage = 4096 - 1 - 16;

// What encryption picks at random, given instead by a test (RFC 8291 Appendix A): the ephemeral key (32-byte
// scalar and its 65-byte point) and the 16-byte salt.
struct PushRandomness {
  std::string as_private, as_public, salt;
};
// The body of the push: salt | rs = 4096 | idlen = 65 | the ephemeral public key, then one record (the message,
// the 0x02 delimiter, the tag). Throws PushKeyError for a message longer than kMaxPushMessage.
std::string encrypt_push(const SubscriptionKeys& to, std::string_view message, const PushRandomness* fixed = nullptr);
// The browser's side (tests; docs/push.md): the message in `body`, given the subscription's private key (32-byte
// scalar) and its keys; nothing when it does not decrypt.
std::optional<std::string> decrypt_push(std::string_view ua_private, const SubscriptionKeys& ua, std::string_view body);

// The server's VAPID key (P-256), kept in the store as its PKCS#8 PEM (which holds the public point too).
class VapidKey {
 public:
  static VapidKey generate();
  explicit VapidKey(std::string_view pem);  // throws PushKeyError
  std::string pem() const;
  const std::string& public_base64url() const { return public_; }  // the 65-byte point: applicationServerKey
  // `Authorization: vapid t=<JWT>, k=<public key>` for a push to `endpoint`: the JWT (ES256, its signature the raw
  // r||s) says aud = the endpoint's origin, exp = now + 12 h, sub = `contact` (mailto: or https:).
  std::string authorization(std::string_view endpoint, std::string_view contact, long long now) const;

 private:
  std::shared_ptr<void> key_;  // EVP_PKEY
  std::string public_;
};

// "https://push.example:8443" of "https://push.example:8443/send/abc"; nothing when it is not an http(s) URL.
std::optional<std::string> url_origin(std::string_view url);

}  // namespace emporium::server
