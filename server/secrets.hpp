#pragma once
// Unguessable identifiers from the operating system's CSPRNG (std::random_device reads getrandom
// on Linux with libstdc++), as URL-safe base64 without padding.
#include <cstdint>
#include <string>

namespace emporium::server {

std::string random_token(std::size_t bytes);
std::uint64_t random_seed();

inline std::string new_table_id() { return random_token(8); }      // 64 bits: public, not a secret
inline std::string new_invite_code() { return random_token(12); }  // 96 bits
inline std::string new_seat_token() { return random_token(18); }   // 144 bits

}  // namespace emporium::server
