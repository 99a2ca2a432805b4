#pragma once
// The header of one unfragmented, unmasked WebSocket text frame (RFC 6455 §5.2): what a server puts before a
// message's payload. WebSocketSession writes its frames itself, to send several in one system call.
#include <array>
#include <cstddef>
#include <cstdint>

namespace emporium::server {

// Writes the header for a payload of `size` bytes into `out`; returns its length (2, 4 or 10 bytes).
inline std::size_t websocket_text_header(std::uint64_t size, std::array<unsigned char, 10>& out) {
  out[0] = 0x81;  // FIN, opcode 1 (text)
  if (size < 126) {
    out[1] = static_cast<unsigned char>(size);
    return 2;
  }
  if (size <= 0xFFFF) {
    out[1] = 126;
    out[2] = static_cast<unsigned char>(size >> 8);
    out[3] = static_cast<unsigned char>(size);
    return 4;
  }
  out[1] = 127;
  for (int i = 0; i < 8; ++i) out[2 + i] = static_cast<unsigned char>(size >> (56 - 8 * i));
  return 10;
}

}  // namespace emporium::server
