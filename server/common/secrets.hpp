#pragma once
// Unguessable identifiers from the operating system's CSPRNG (std::random_device reads getrandom
// on Linux with libstdc++), as URL-safe base64 without padding.
#include <cstdint>
#include <string>
#include <string_view>

#include <emporium/engine/rng.hpp>

namespace emporium::server {

std::string random_token(std::size_t bytes);
std::uint64_t random_u64();

// A game's seed (128 bits) and the salt of its commitment (128 bits, as 32 hex digits): see records.hpp.
engine::Seed new_game_seed();
std::string new_salt();

inline std::string new_table_id() { return random_token(8); }      // 64 bits: public, not a secret
inline std::string new_invite_code() { return random_token(12); }  // 96 bits
inline std::string new_seat_token() { return random_token(18); }   // 144 bits

// What the server keeps of a seat token: its SHA-256, in hex. Only the player holds the token itself, so a
// copy of the database (or a look at memory) gives nobody a seat.
std::string hash_token(std::string_view token);
// Whether two token hashes are equal, in time that does not depend on where they differ.
bool same_hash(std::string_view a, std::string_view b);

}  // namespace emporium::server
