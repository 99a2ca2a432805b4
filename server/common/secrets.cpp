#include "common/secrets.hpp"

#include <openssl/crypto.h>
#include <openssl/sha.h>

#include <random>

#include "common/base64url.hpp"

namespace emporium::server {

namespace {
std::uint32_t os_random() {
  thread_local std::random_device device;  // libstdc++: getrandom(2), never a seeded PRNG
  return device();
}
}  // namespace

std::string random_token(std::size_t bytes) {
  std::string raw;
  while (raw.size() < bytes) {
    const std::uint32_t r = os_random();
    for (int i = 0; i < 4 && raw.size() < bytes; ++i) raw.push_back(static_cast<char>((r >> (8 * i)) & 0xff));
  }
  return base64url_encode(raw);
}

std::string hash_token(std::string_view token) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(token.data()), token.size(), digest);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char b : digest) {
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 15]);
  }
  return out;
}

bool same_hash(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::uint64_t random_u64() { return (static_cast<std::uint64_t>(os_random()) << 32) | os_random(); }

engine::Seed new_game_seed() { return {random_u64(), random_u64()}; }

// 16 random bytes, written as a seed is.
std::string new_salt() { return engine::Seed(random_u64(), random_u64()).to_hex(); }

}  // namespace emporium::server
