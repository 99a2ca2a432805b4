#include "people/passwords.hpp"

#include <mutex>
#include <stdexcept>

#include <sodium.h>

namespace emporium::server::passwords {
namespace {

constexpr auto kOps = crypto_pwhash_OPSLIMIT_INTERACTIVE;
constexpr auto kMemory = crypto_pwhash_MEMLIMIT_INTERACTIVE;

void ready() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (sodium_init() < 0) throw std::runtime_error("libsodium could not start");
  });
}

}  // namespace

std::string hash(std::string_view password) {
  ready();
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str(out, password.data(), password.size(), kOps, kMemory) != 0) {
    throw std::runtime_error("out of memory for a password's hash");
  }
  return out;
}

bool verify(std::string_view stored, std::string_view password) {
  ready();
  // crypto_pwhash_str_verify reads a NUL-terminated text of at most crypto_pwhash_STRBYTES.
  if (stored.empty() || stored.size() >= crypto_pwhash_STRBYTES) return false;
  const std::string text(stored);
  return crypto_pwhash_str_verify(text.c_str(), password.data(), password.size()) == 0;
}

void verify_nothing(std::string_view password) {
  static const std::string decoy = hash("a password that no account has, to spend a verify's time on");
  (void)verify(decoy, password);
}

bool needs_rehash(std::string_view stored) {
  ready();
  if (stored.empty() || stored.size() >= crypto_pwhash_STRBYTES) return true;
  const std::string text(stored);
  return crypto_pwhash_str_needs_rehash(text.c_str(), kOps, kMemory) != 0;
}

}  // namespace emporium::server::passwords
