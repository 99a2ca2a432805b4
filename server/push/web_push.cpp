#include "push/web_push.hpp"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rand.h>

#include <cstdint>

#include <nlohmann/json.hpp>

#include "common/base64url.hpp"

namespace emporium::server {
namespace {

struct Free {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
  void operator()(EVP_PKEY_CTX* p) const { EVP_PKEY_CTX_free(p); }
  void operator()(EVP_MD_CTX* p) const { EVP_MD_CTX_free(p); }
  void operator()(EVP_CIPHER_CTX* p) const { EVP_CIPHER_CTX_free(p); }
  void operator()(OSSL_PARAM_BLD* p) const { OSSL_PARAM_BLD_free(p); }
  void operator()(OSSL_PARAM* p) const { OSSL_PARAM_free(p); }
  void operator()(BIGNUM* p) const { BN_free(p); }
  void operator()(ECDSA_SIG* p) const { ECDSA_SIG_free(p); }
  void operator()(BIO* p) const { BIO_free(p); }
};
template <class T>
using Owned = std::unique_ptr<T, Free>;

const unsigned char* bytes(std::string_view s) { return reinterpret_cast<const unsigned char*>(s.data()); }
unsigned char* bytes(std::string& s) { return reinterpret_cast<unsigned char*>(s.data()); }

// OpenSSL failing at what cannot fail on good input (memory, a broken library): not the caller's input.
void check(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("web push: OpenSSL failed: ") + what);
}

constexpr std::size_t kPoint = 65, kScalar = 32, kAuth = 16, kSalt = 16, kTag = 16, kRecord = 4096;
constexpr std::size_t kHeader = kSalt + 4 + 1 + kPoint;

// A P-256 key from its uncompressed point (and, for a key pair, its scalar); none when the point is not on the
// curve.
Owned<EVP_PKEY> p256_key(std::string_view point, std::string_view scalar = {}) {
  Owned<OSSL_PARAM_BLD> build(OSSL_PARAM_BLD_new());
  Owned<BIGNUM> d(scalar.empty() ? nullptr : BN_bin2bn(bytes(scalar), static_cast<int>(scalar.size()), nullptr));
  check(build && (scalar.empty() || d) &&
            OSSL_PARAM_BLD_push_utf8_string(build.get(), OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) &&
            OSSL_PARAM_BLD_push_octet_string(build.get(), OSSL_PKEY_PARAM_PUB_KEY, point.data(), point.size()) &&
            (!d || OSSL_PARAM_BLD_push_BN(build.get(), OSSL_PKEY_PARAM_PRIV_KEY, d.get())),
        "key parameters");
  Owned<OSSL_PARAM> params(OSSL_PARAM_BLD_to_param(build.get()));
  Owned<EVP_PKEY_CTX> ctx(EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr));
  check(params && ctx && EVP_PKEY_fromdata_init(ctx.get()) > 0, "key import");
  EVP_PKEY* made = nullptr;
  const int selection = d ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY;
  if (EVP_PKEY_fromdata(ctx.get(), &made, selection, params.get()) <= 0) return nullptr;
  Owned<EVP_PKEY> key(made);
  Owned<EVP_PKEY_CTX> checker(EVP_PKEY_CTX_new_from_pkey(nullptr, key.get(), nullptr));
  if (!checker || EVP_PKEY_public_check(checker.get()) <= 0) return nullptr;
  return key;
}

std::string point_of(EVP_PKEY* key) {
  std::string point(kPoint, '\0');
  std::size_t size = 0;
  check(EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, bytes(point), point.size(), &size) &&
            size == kPoint,
        "public point");
  return point;
}

Owned<EVP_PKEY> new_p256_key() {
  Owned<EVP_PKEY> key(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"));
  check(key != nullptr, "key generation");
  return key;
}

std::string ecdh(EVP_PKEY* mine, EVP_PKEY* theirs) {
  Owned<EVP_PKEY_CTX> ctx(EVP_PKEY_CTX_new_from_pkey(nullptr, mine, nullptr));
  std::string secret(kScalar, '\0');
  std::size_t size = secret.size();
  check(ctx && EVP_PKEY_derive_init(ctx.get()) > 0 && EVP_PKEY_derive_set_peer(ctx.get(), theirs) > 0 &&
            EVP_PKEY_derive(ctx.get(), bytes(secret), &size) > 0 && size == kScalar,
        "ECDH");
  return secret;
}

std::string hmac_sha256(std::string_view key, std::string_view data) {
  std::string out(32, '\0');
  unsigned size = 0;
  check(HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), bytes(data), data.size(), bytes(out), &size) &&
            size == 32,
        "HMAC");
  return out;
}

// HKDF (RFC 5869) with SHA-256, for at most one block of output: expand is HMAC(prk, info | 0x01).
std::string hkdf(std::string_view salt, std::string_view ikm, std::string info, std::size_t length) {
  return hmac_sha256(hmac_sha256(salt, ikm), info + '\x01').substr(0, length);
}

// RFC 8291 §3.3-3.4 then RFC 8188 §2.2-2.3: the content encryption key and the nonce of the (only) record.
struct ContentKeys {
  std::string cek, nonce;
};
ContentKeys content_keys(std::string_view ecdh_secret, const SubscriptionKeys& ua, std::string_view as_public,
                         std::string_view salt) {
  const std::string ikm = hkdf(ua.auth, ecdh_secret,
                               std::string("WebPush: info") + '\0' + ua.p256dh + std::string(as_public), 32);
  return {hkdf(salt, ikm, std::string("Content-Encoding: aes128gcm") + '\0', 16),
          hkdf(salt, ikm, std::string("Content-Encoding: nonce") + '\0', 12)};
}

std::string random_bytes(std::size_t n) {
  std::string out(n, '\0');
  check(RAND_bytes(bytes(out), static_cast<int>(n)) == 1, "random bytes");
  return out;
}

std::string json_b64(const nlohmann::json& j) { return base64url_encode(j.dump()); }

}  // namespace

SubscriptionKeys subscription_keys(std::string_view p256dh_base64url, std::string_view auth_base64url) {
  // Some browsers pad their base64url: the padding says nothing.
  const auto unpadded = [](std::string_view s) { return s.substr(0, s.find_last_not_of('=') + 1); };
  const auto p256dh = base64url_decode(unpadded(p256dh_base64url));
  if (!p256dh) throw PushKeyError("the subscription's p256dh key is not base64url");
  if (p256dh->size() != kPoint || (*p256dh)[0] != '\x04') {
    throw PushKeyError("the subscription's p256dh key is not an uncompressed P-256 point (65 bytes, 0x04 first)");
  }
  if (!p256_key(*p256dh)) throw PushKeyError("the subscription's p256dh key is not a point on the P-256 curve");
  const auto auth = base64url_decode(unpadded(auth_base64url));
  if (!auth) throw PushKeyError("the subscription's auth secret is not base64url");
  if (auth->size() != kAuth) throw PushKeyError("the subscription's auth secret is not 16 bytes");
  return {*p256dh, *auth};
}

std::string encrypt_push(const SubscriptionKeys& to, std::string_view message, const PushRandomness* fixed) {
  if (message.size() > kMaxPushMessage) {
    throw PushKeyError("a push message is at most " + std::to_string(kMaxPushMessage) + " bytes");
  }
  const auto ua = p256_key(to.p256dh);
  if (!ua) throw PushKeyError("the subscription's p256dh key is not a point on the P-256 curve");
  const auto as = fixed ? p256_key(fixed->as_public, fixed->as_private) : new_p256_key();
  check(as != nullptr, "the given ephemeral key");
  const std::string as_public = point_of(as.get());
  const std::string salt = fixed ? fixed->salt : random_bytes(kSalt);
  const auto keys = content_keys(ecdh(as.get(), ua.get()), to, as_public, salt);

  // The header (RFC 8188 §2.1): the key id is the ephemeral public key (RFC 8291 §4).
  std::string body = salt + std::string{'\0', '\0', '\x10', '\0', static_cast<char>(kPoint)} + as_public;
  const std::string record = std::string(message) + '\x02';  // the last record's delimiter, no more padding
  Owned<EVP_CIPHER_CTX> ctx(EVP_CIPHER_CTX_new());
  std::string sealed(record.size() + kTag, '\0');
  int n = 0, last = 0;
  check(ctx && EVP_EncryptInit_ex(ctx.get(), EVP_aes_128_gcm(), nullptr, bytes(keys.cek), bytes(keys.nonce)) &&
            EVP_EncryptUpdate(ctx.get(), bytes(sealed), &n, bytes(record), static_cast<int>(record.size())) &&
            EVP_EncryptFinal_ex(ctx.get(), bytes(sealed) + n, &last) &&
            EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, kTag, bytes(sealed) + record.size()),
        "AES-128-GCM");
  return body + sealed;
}

std::optional<std::string> decrypt_push(std::string_view ua_private, const SubscriptionKeys& ua,
                                        std::string_view body) {
  if (body.size() < kHeader + kTag + 1 || static_cast<unsigned char>(body[20]) != kPoint) return std::nullopt;
  const std::uint32_t rs = (std::uint32_t{bytes(body)[16]} << 24) | (std::uint32_t{bytes(body)[17]} << 16) |
                           (std::uint32_t{bytes(body)[18]} << 8) | bytes(body)[19];
  const std::string_view salt = body.substr(0, kSalt), as_public = body.substr(21, kPoint);
  const std::string_view sealed = body.substr(kHeader);
  if (sealed.size() > rs) return std::nullopt;  // one record only: what encrypt_push makes
  const auto mine = p256_key(ua.p256dh, ua_private);
  const auto theirs = p256_key(as_public);
  if (!mine || !theirs) return std::nullopt;
  const auto keys = content_keys(ecdh(mine.get(), theirs.get()), ua, as_public, salt);
  Owned<EVP_CIPHER_CTX> ctx(EVP_CIPHER_CTX_new());
  std::string plain(sealed.size() - kTag, '\0');
  std::string tag(sealed.substr(plain.size()));
  int n = 0, last = 0;
  check(ctx && EVP_DecryptInit_ex(ctx.get(), EVP_aes_128_gcm(), nullptr, bytes(keys.cek), bytes(keys.nonce)) &&
            EVP_DecryptUpdate(ctx.get(), bytes(plain), &n, bytes(sealed), static_cast<int>(plain.size())) &&
            EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, kTag, tag.data()),
        "AES-128-GCM");
  if (EVP_DecryptFinal_ex(ctx.get(), bytes(plain) + n, &last) <= 0) return std::nullopt;  // the tag is wrong
  // The padding: zeros after the delimiter, which is 0x02 in the last record.
  const auto end = plain.find_last_not_of('\0');
  if (end == std::string::npos || plain[end] != '\x02') return std::nullopt;
  plain.resize(end);
  return plain;
}

VapidKey VapidKey::generate() {
  Owned<EVP_PKEY> key = new_p256_key();
  Owned<BIO> out(BIO_new(BIO_s_mem()));
  check(out && PEM_write_bio_PrivateKey(out.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr), "PEM");
  char* data = nullptr;
  const long size = BIO_get_mem_data(out.get(), &data);
  return VapidKey(std::string_view(data, static_cast<std::size_t>(size)));
}

VapidKey::VapidKey(std::string_view pem) {
  Owned<BIO> in(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  check(in != nullptr, "BIO");
  Owned<EVP_PKEY> key(PEM_read_bio_PrivateKey(in.get(), nullptr, nullptr, nullptr));
  if (!key || !EVP_PKEY_is_a(key.get(), "EC")) throw PushKeyError("the VAPID key is not an EC private key in PEM");
  char group[32] = {};
  std::size_t size = 0;
  if (!EVP_PKEY_get_utf8_string_param(key.get(), OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof group, &size) ||
      std::string_view(group) != "prime256v1") {
    throw PushKeyError("the VAPID key is not on the P-256 curve");
  }
  public_ = base64url_encode(point_of(key.get()));
  key_ = std::shared_ptr<void>(key.release(), [](void* k) { EVP_PKEY_free(static_cast<EVP_PKEY*>(k)); });
}

std::string VapidKey::pem() const {
  Owned<BIO> out(BIO_new(BIO_s_mem()));
  check(out && PEM_write_bio_PrivateKey(out.get(), static_cast<EVP_PKEY*>(key_.get()), nullptr, nullptr, 0, nullptr,
                                        nullptr),
        "PEM");
  char* data = nullptr;
  const long size = BIO_get_mem_data(out.get(), &data);
  return std::string(data, static_cast<std::size_t>(size));
}

std::string VapidKey::authorization(std::string_view endpoint, std::string_view contact, long long now) const {
  const auto origin = url_origin(endpoint);
  if (!origin) throw PushKeyError("a push endpoint is not an http(s) URL");
  const std::string signed_part = json_b64({{"typ", "JWT"}, {"alg", "ES256"}}) + "." +
                                  json_b64({{"aud", *origin}, {"exp", now + 12 * 3600}, {"sub", std::string(contact)}});
  // ES256 (RFC 7518 §3.4): OpenSSL signs in DER; a JWT carries r and s, 32 bytes each.
  Owned<EVP_MD_CTX> md(EVP_MD_CTX_new());
  std::string der(80, '\0');
  std::size_t size = der.size();
  check(md && EVP_DigestSignInit(md.get(), nullptr, EVP_sha256(), nullptr, static_cast<EVP_PKEY*>(key_.get())) > 0 &&
            EVP_DigestSign(md.get(), bytes(der), &size, bytes(signed_part), signed_part.size()) > 0,
        "ES256");
  const unsigned char* p = bytes(der);
  Owned<ECDSA_SIG> sig(d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(size)));
  check(sig != nullptr, "the signature's DER");
  std::string raw(64, '\0');
  check(BN_bn2binpad(ECDSA_SIG_get0_r(sig.get()), bytes(raw), 32) == 32 &&
            BN_bn2binpad(ECDSA_SIG_get0_s(sig.get()), bytes(raw) + 32, 32) == 32,
        "r||s");
  return "vapid t=" + signed_part + "." + base64url_encode(raw) + ", k=" + public_;
}

std::optional<std::string> url_origin(std::string_view url) {
  const auto scheme = url.starts_with("https://") ? 8 : url.starts_with("http://") ? 7 : 0;
  if (scheme == 0) return std::nullopt;
  const auto end = url.find_first_of("/?#", static_cast<std::size_t>(scheme));
  const auto origin = url.substr(0, end);
  if (origin.size() == static_cast<std::size_t>(scheme) ||
      origin.find_first_of("@\"\\ \t\r\n") != std::string_view::npos) {
    return std::nullopt;
  }
  return std::string(origin);
}

}  // namespace emporium::server
