// Web Push's cryptography (server/push/web_push.hpp, docs/push.md): RFC 8291's encryption against its Appendix A
// byte for byte, the browser's decryption of it, VAPID's JWT (RFC 8292) verified with OpenSSL, and bad keys refused.
#include <gtest/gtest.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "common/base64url.hpp"
#include "common/delivery_queue.hpp"
#include "push/web_push.hpp"

namespace emporium::server {
namespace {

std::string b64(std::string_view text) { return base64url_decode(text).value(); }

// RFC 8291 Appendix A (the RFC wraps the long values over lines; here they are whole).
constexpr const char* kPlaintext = "When I grow up, I want to be a watermelon";
constexpr const char* kAsPublic =
    "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8";
constexpr const char* kAsPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw";
constexpr const char* kUaPublic =
    "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
constexpr const char* kUaPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94";
constexpr const char* kSalt = "DGv6ra1nlYgDCS1FRnbzlw";
constexpr const char* kAuth = "BTBZMqHH6r4Tts7J_aSIgg";
constexpr const char* kBody =
    "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27ml"
    "mlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPT"
    "pK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN";

TEST(WebPush, EncryptionGivesRfc8291AppendixAByteForByte) {
  const auto ua = subscription_keys(kUaPublic, kAuth);
  const PushRandomness fixed{b64(kAsPrivate), b64(kAsPublic), b64(kSalt)};
  EXPECT_EQ(base64url_encode(encrypt_push(ua, kPlaintext, &fixed)), kBody);
}

TEST(WebPush, TheBrowserDecryptsWhatIsSentAndNothingTampered) {
  const auto ua = subscription_keys(kUaPublic, kAuth);
  EXPECT_EQ(decrypt_push(b64(kUaPrivate), ua, b64(kBody)), kPlaintext) << "the RFC's own body";
  // A fresh ephemeral key and salt each time: two bodies differ, both decrypt.
  const std::string message = R"({"title":"Your turn in Medici","body":"It is your turn.","url":"/t/x"})";
  const auto one = encrypt_push(ua, message), two = encrypt_push(ua, message);
  EXPECT_NE(one, two);
  EXPECT_EQ(decrypt_push(b64(kUaPrivate), ua, one), message);
  EXPECT_EQ(decrypt_push(b64(kUaPrivate), ua, two), message);
  auto tampered = one;
  tampered.back() = static_cast<char>(tampered.back() ^ 1);
  EXPECT_EQ(decrypt_push(b64(kUaPrivate), ua, tampered), std::nullopt);
  const auto other = subscription_keys(kUaPublic, "AAAAAAAAAAAAAAAAAAAAAA");
  EXPECT_EQ(decrypt_push(b64(kUaPrivate), other, one), std::nullopt) << "another auth secret";
  EXPECT_EQ(decrypt_push(b64(kUaPrivate), ua, one.substr(0, 90)), std::nullopt) << "cut short";
  EXPECT_NO_THROW(encrypt_push(ua, std::string(kMaxPushMessage, 'x')));
  EXPECT_THROW(encrypt_push(ua, std::string(kMaxPushMessage + 1, 'x')), PushKeyError);
}

// The message of a PushKeyError `f` throws.
template <class F>
std::string refusal(F f) {
  try {
    f();
  } catch (const PushKeyError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(WebPush, BadSubscriptionKeysAreRefusedClearly) {
  EXPECT_NE(refusal([] { subscription_keys("not base64!", kAuth); }).find("not base64url"), std::string::npos);
  // 64 bytes: a point without its 0x04.
  EXPECT_NE(refusal([] { subscription_keys(base64url_encode(b64(kUaPublic).substr(1)), kAuth); }).find("65 bytes"),
            std::string::npos);
  auto off_curve = b64(kUaPublic);
  off_curve.back() = static_cast<char>(off_curve.back() ^ 1);
  EXPECT_NE(refusal([&] { subscription_keys(base64url_encode(off_curve), kAuth); }).find("not a point on the P-256"),
            std::string::npos);
  EXPECT_NE(refusal([] { subscription_keys(kUaPublic, "BTBZMqHH6r4Tts7J_aSI"); }).find("not 16 bytes"),
            std::string::npos);
  EXPECT_EQ(refusal([] { subscription_keys(kUaPublic, std::string(kAuth) + "=="); }), "(accepted)") << "padded";
  EXPECT_NE(refusal([] { VapidKey("not a key"); }).find("PEM"), std::string::npos);
}

// A JWT's part decoded as JSON.
nlohmann::json part(const std::string& jwt, int index) {
  std::size_t begin = 0;
  for (int i = 0; i < index; ++i) begin = jwt.find('.', begin) + 1;
  return nlohmann::json::parse(b64(jwt.substr(begin, jwt.find('.', begin) - begin)));
}

// Whether the ES256 signature `raw` (r||s) of `data` verifies with the P-256 point `point`: OpenSSL's own verify,
// the signature back in DER.
bool es256_verifies(const std::string& point, const std::string& data, const std::string& raw) {
  OSSL_PARAM_BLD* build = OSSL_PARAM_BLD_new();
  OSSL_PARAM_BLD_push_utf8_string(build, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0);
  OSSL_PARAM_BLD_push_octet_string(build, OSSL_PKEY_PARAM_PUB_KEY, point.data(), point.size());
  OSSL_PARAM* params = OSSL_PARAM_BLD_to_param(build);
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr);
  EVP_PKEY* key = nullptr;
  EVP_PKEY_fromdata_init(ctx);
  EVP_PKEY_fromdata(ctx, &key, EVP_PKEY_PUBLIC_KEY, params);
  ECDSA_SIG* sig = ECDSA_SIG_new();
  const auto* r = reinterpret_cast<const unsigned char*>(raw.data());
  ECDSA_SIG_set0(sig, BN_bin2bn(r, 32, nullptr), BN_bin2bn(r + 32, 32, nullptr));
  unsigned char* der = nullptr;
  const int der_size = i2d_ECDSA_SIG(sig, &der);
  EVP_MD_CTX* md = EVP_MD_CTX_new();
  const bool ok = key && raw.size() == 64 && EVP_DigestVerifyInit(md, nullptr, EVP_sha256(), nullptr, key) > 0 &&
                  EVP_DigestVerify(md, der, static_cast<std::size_t>(der_size),
                                   reinterpret_cast<const unsigned char*>(data.data()), data.size()) == 1;
  EVP_MD_CTX_free(md);
  OPENSSL_free(der);
  ECDSA_SIG_free(sig);
  EVP_PKEY_free(key);
  EVP_PKEY_CTX_free(ctx);
  OSSL_PARAM_free(params);
  OSSL_PARAM_BLD_free(build);
  return ok;
}

TEST(WebPush, TheVapidJwtVerifiesWithThePublicKeyAndSaysAudExpSub) {
  const auto key = VapidKey::generate();
  const VapidKey again(key.pem());  // as every node reads it from the store
  EXPECT_EQ(again.public_base64url(), key.public_base64url());
  ASSERT_EQ(b64(key.public_base64url()).size(), 65u);

  const auto header =
      again.authorization("https://push.example:8443/wpush/v2/abc?x=1", "mailto:ops@play.example", 1000);
  ASSERT_TRUE(header.starts_with("vapid t="));
  const auto comma = header.find(", k=");
  ASSERT_NE(comma, std::string::npos);
  EXPECT_EQ(header.substr(comma + 4), key.public_base64url());
  const std::string jwt = header.substr(8, comma - 8);
  EXPECT_EQ(part(jwt, 0), (nlohmann::json{{"typ", "JWT"}, {"alg", "ES256"}}));
  EXPECT_EQ(part(jwt, 1),
            (nlohmann::json{
                {"aud", "https://push.example:8443"}, {"exp", 1000 + 12 * 3600}, {"sub", "mailto:ops@play.example"}}));
  const auto dot = jwt.rfind('.');
  const auto signature = b64(jwt.substr(dot + 1));
  EXPECT_EQ(signature.size(), 64u) << "raw r||s, not DER";
  EXPECT_TRUE(es256_verifies(b64(key.public_base64url()), jwt.substr(0, dot), signature));
  EXPECT_FALSE(es256_verifies(b64(key.public_base64url()), jwt.substr(0, dot) + "x", signature));
  EXPECT_FALSE(es256_verifies(b64(VapidKey::generate().public_base64url()), jwt.substr(0, dot), signature));
  EXPECT_THROW(key.authorization("ftp://push.example/x", "mailto:ops@play.example", 1000), PushKeyError);
}

TEST(WebPush, AnEndpointsOriginIsItsSchemeHostAndPort) {
  EXPECT_EQ(url_origin("https://fcm.googleapis.com/fcm/send/abc"), "https://fcm.googleapis.com");
  EXPECT_EQ(url_origin("http://127.0.0.1:9000/push/1"), "http://127.0.0.1:9000");
  EXPECT_EQ(url_origin("https://push.example"), "https://push.example");
  EXPECT_EQ(url_origin("https://"), std::nullopt);
  EXPECT_EQ(url_origin("https://user@push.example/"), std::nullopt);
  EXPECT_EQ(url_origin("wss://push.example/"), std::nullopt);
}

// The queue the push sender and the mailer share: in order, an item not taken tried again at the head (after a
// pause), dropped after `max_tries`; one refused dropped at once.
TEST(DeliveryQueue, TriesAgainAtTheHeadInOrderAndGivesUpAfterMaxTries) {
  std::mutex mutex;
  std::vector<std::string> tried;
  std::atomic<int> flaky{2};  // "b" is not taken twice, then it is
  DeliveryQueue<std::string> queue(
      "test", DeliveryQueueSettings{10, std::chrono::milliseconds(1), std::chrono::milliseconds(4), 3},
      [&](const std::string& item, std::string& error) {
        {
          std::lock_guard lock(mutex);
          tried.push_back(item);
        }
        error = "down";
        if (item == "never") return Delivery::try_again;
        if (item == "bad") return Delivery::refused;
        return item == "b" && flaky-- > 0 ? Delivery::try_again : Delivery::sent;
      });
  for (const char* item : {"a", "b", "never", "bad", "c"}) EXPECT_TRUE(queue.push(item));
  for (int i = 0; i < 500 && queue.counts().waiting > 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  const auto counts = queue.counts();
  EXPECT_EQ(counts.waiting, 0u);
  EXPECT_EQ(counts.sent, 3);
  EXPECT_EQ(counts.refused, 1);
  EXPECT_EQ(counts.dropped, 1) << "given up after 3 tries";
  EXPECT_EQ(counts.retries, 4);
  std::lock_guard lock(mutex);
  EXPECT_EQ(tried, (std::vector<std::string>{"a", "b", "b", "b", "never", "never", "never", "bad", "c"}));
}

}  // namespace
}  // namespace emporium::server
