#pragma once
// Passwords, kept only as Argon2id hashes: libsodium's crypto_pwhash_str, whose text carries its salt and its
// parameters, so a hash made with older parameters still verifies (and needs_rehash says to make it anew).
// Parameters: libsodium's "interactive" ones, 2 passes over 64 MiB (docs/accounts.md gives the time they take).
// Hashing is slow and takes that memory by design: it runs on the hashing worker only, never a network thread.
#include <string>
#include <string_view>

namespace emporium::server::passwords {

// Throws std::runtime_error when the memory for it cannot be had.
std::string hash(std::string_view password);
// Whether `password` is the one `stored` was made from. False for a text that is not such a hash.
bool verify(std::string_view stored, std::string_view password);
// The same work as a verify, against nothing: a sign-in with an unknown name takes as long as a wrong password.
void verify_nothing(std::string_view password);
// Whether `stored` was made with other parameters than today's: hash the password again at its next sign-in.
bool needs_rehash(std::string_view stored);

}  // namespace emporium::server::passwords
