#include "common/base64url.hpp"

#include <cstdint>

namespace emporium::server {

std::string base64url_encode(std::string_view bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  out.reserve((bytes.size() * 4 + 2) / 3);
  std::uint32_t bits_held = 0;
  int bit_count = 0;
  for (const char byte : bytes) {
    bits_held = (bits_held << 8) | static_cast<unsigned char>(byte);
    bit_count += 8;
    while (bit_count >= 6) {
      bit_count -= 6;
      out.push_back(kAlphabet[(bits_held >> bit_count) & 63]);
    }
  }
  if (bit_count > 0) out.push_back(kAlphabet[(bits_held << (6 - bit_count)) & 63]);
  return out;
}

std::optional<std::string> base64url_decode(std::string_view text) {
  if (text.size() % 4 == 1) return std::nullopt;  // six bits cannot end a byte string
  std::string out;
  out.reserve(text.size() * 3 / 4);
  std::uint32_t bits_held = 0;
  int bit_count = 0;
  for (const char c : text) {
    int value;
    if (c >= 'A' && c <= 'Z') value = c - 'A';
    else if (c >= 'a' && c <= 'z') value = c - 'a' + 26;
    else if (c >= '0' && c <= '9') value = c - '0' + 52;
    else if (c == '-') value = 62;
    else if (c == '_') value = 63;
    else return std::nullopt;
    bits_held = (bits_held << 6) | static_cast<std::uint32_t>(value);
    bit_count += 6;
    if (bit_count >= 8) {
      bit_count -= 8;
      out.push_back(static_cast<char>((bits_held >> bit_count) & 0xff));
      bits_held &= (1u << bit_count) - 1;
    }
  }
  if (bits_held != 0) return std::nullopt;  // spare bits must be zero: one spelling per byte string
  return out;
}

}  // namespace emporium::server
