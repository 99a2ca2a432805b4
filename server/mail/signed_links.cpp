#include "mail/signed_links.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "common/base64url.hpp"

namespace emporium::server {
namespace {

std::string mac(std::string_view key, std::string_view payload) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(payload.data()),
       payload.size(), out, &size);
  return std::string(reinterpret_cast<const char*>(out), size);
}

}  // namespace

std::string sign_link(std::string_view key, std::string_view payload) {
  return base64url_encode(payload) + "." + base64url_encode(mac(key, payload));
}

std::optional<std::string> verified_link(std::string_view key, std::string_view token) {
  const auto dot = token.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  auto payload = base64url_decode(token.substr(0, dot));
  const auto given = base64url_decode(token.substr(dot + 1));
  if (!payload || !given) return std::nullopt;
  const std::string expected = mac(key, *payload);
  if (given->size() != expected.size() || CRYPTO_memcmp(given->data(), expected.data(), expected.size()) != 0) {
    return std::nullopt;
  }
  return payload;
}

}  // namespace emporium::server
