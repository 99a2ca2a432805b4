#include "net/websocket_frame.hpp"

#include <gtest/gtest.h>

#include <vector>

using emporium::server::websocket_text_header;

namespace {

std::vector<int> header(std::uint64_t size) {
  std::array<unsigned char, 10> out{};
  const auto n = websocket_text_header(size, out);
  return {out.begin(), out.begin() + static_cast<long>(n)};
}

// RFC 6455 §5.2: FIN + text opcode, no mask, then a 7-bit length, or 126 and 16 bits, or 127 and 64 bits
// (big-endian).
TEST(WebSocketFrame, TheLengthTakesTheShortestFormTheRfcAllows) {
  EXPECT_EQ(header(0), (std::vector<int>{0x81, 0}));
  EXPECT_EQ(header(125), (std::vector<int>{0x81, 125}));
  EXPECT_EQ(header(126), (std::vector<int>{0x81, 126, 0, 126}));
  EXPECT_EQ(header(65535), (std::vector<int>{0x81, 126, 0xFF, 0xFF}));
  EXPECT_EQ(header(65536), (std::vector<int>{0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0}));
  EXPECT_EQ(header(0x0102030405060708ULL), (std::vector<int>{0x81, 127, 1, 2, 3, 4, 5, 6, 7, 8}));
}

}  // namespace
