#pragma once
// Pure helpers for serving web-client/: map a request target to a file under the web root
// (refusing anything that could escape it) and pick the MIME type. No I/O here.
#include <optional>
#include <string>
#include <string_view>

namespace emporium::server {

// The file path under `root` for a request target such as "/lobby/app.js?v=2", or nothing when the
// target is unsafe (".." segments, encoded traversal, backslashes, NUL, absolute paths after
// decoding). A target ending in '/' maps to its index.html.
std::optional<std::string> resolve_static_path(std::string_view root, std::string_view target);

// Percent-decoding; nothing when the encoding is broken.
std::optional<std::string> percent_decode(std::string_view in);

std::string_view mime_type(std::string_view path);

// A strong HTTP ETag for a file's text (quoted, as the header wants it).
std::string etag_of(std::string_view text);

// Whether a type is worth compressing (text: HTML, JS, CSS, JSON, SVG, plain text).
bool compressible(std::string_view mime);

// The gzip form of `data` (zlib, best compression): what a `Content-Encoding: gzip` body holds.
std::string gzip(std::string_view data);

// Whether an Accept-Encoding header value allows gzip (listed, or `*`, with a q-value above 0).
bool accepts_gzip(std::string_view accept_encoding);

// Whether an If-None-Match header value names `etag` (one of a comma-separated list, or `*`); weak
// validators (W/"…") match their strong twin, as RFC 9110 wants for If-None-Match.
bool etag_matches(std::string_view if_none_match, std::string_view etag);

}  // namespace emporium::server
