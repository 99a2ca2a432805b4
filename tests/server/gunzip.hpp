#pragma once
// Tests only: zlib's inflate reading a gzip stream, to check what the server compressed.
#include <zlib.h>

#include <string>

namespace emporium::testing {

// zlib's inflate reading a gzip stream (windowBits 15 + 16): the other side of gzip().
inline std::string gunzip(const std::string& packed) {
  z_stream zs{};
  if (inflateInit2(&zs, 15 + 16) != Z_OK) return "<inflateInit2 failed>";
  std::string out;
  char chunk[4096];
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(packed.data()));
  zs.avail_in = static_cast<uInt>(packed.size());
  int rc = Z_OK;
  while (rc == Z_OK) {
    zs.next_out = reinterpret_cast<Bytef*>(chunk);
    zs.avail_out = sizeof chunk;
    rc = inflate(&zs, Z_NO_FLUSH);
    out.append(chunk, sizeof chunk - zs.avail_out);
  }
  inflateEnd(&zs);
  return rc == Z_STREAM_END ? out : "<inflate failed>";
}

}  // namespace emporium::testing
