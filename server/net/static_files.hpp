#pragma once
// Pure helpers for serving web-client/ over HTTP: map a request target to a file under the web root (refusing
// anything that could escape it), and read the request's Accept-Encoding and If-None-Match. No I/O here. What a
// file is (its type, ETag and gzip copy) is web_files.hpp's.
#include <optional>
#include <string>
#include <string_view>

namespace emporium::server {

// The file path under `root` for a request target such as "/lobby/app.js?v=2", or nothing when the
// target is unsafe (".." segments, encoded traversal, backslashes, NUL, absolute paths after
// decoding). A target ending in '/' maps to its index.html.
std::optional<std::string> resolve_static_path(std::string_view root, std::string_view target);

// Whether an Accept-Encoding header value allows gzip (listed, or `*`, with a q-value above 0).
bool accepts_gzip(std::string_view accept_encoding);

// Whether an If-None-Match header value names `etag` (one of a comma-separated list, or `*`); weak
// validators (W/"…") match their strong twin, as RFC 9110 wants for If-None-Match.
bool etag_matches(std::string_view if_none_match, std::string_view etag);

}  // namespace emporium::server
