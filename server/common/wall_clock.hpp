#pragma once
// The wall clock, for moments that must outlive the process (what the store records). Durations and deadlines
// inside one run use std::chrono::steady_clock instead: it never jumps.
#include <chrono>
#include <cstdint>

namespace emporium::server {

// Unix seconds.
inline long long unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// Unix milliseconds.
inline std::int64_t unix_ms_now() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace emporium::server
