#include "static_files.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <functional>

namespace emporium::server {

std::optional<std::string> percent_decode(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '%') {
      out.push_back(in[i]);
      continue;
    }
    if (i + 2 >= in.size()) return std::nullopt;
    const int hi = hex(in[i + 1]), lo = hex(in[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  return out;
}

std::optional<std::string> resolve_static_path(std::string_view root, std::string_view target) {
  if (target.empty() || target.front() != '/') return std::nullopt;
  target = target.substr(0, target.find_first_of("?#"));
  const auto decoded = percent_decode(target);
  if (!decoded) return std::nullopt;
  const std::string& path = *decoded;
  // After decoding: one leading slash only, no backslash, no NUL, no "." or ".." segment.
  if (path.size() > 1 && path[1] == '/') return std::nullopt;
  if (path.find('\\') != std::string::npos || path.find('\0') != std::string::npos) return std::nullopt;
  std::size_t start = 1;
  while (start <= path.size()) {
    const std::size_t end = std::min(path.find('/', start), path.size());
    const std::string_view segment(path.data() + start, end - start);
    if (segment == ".." || segment == ".") return std::nullopt;
    if (end < path.size() && segment.empty()) return std::nullopt;  // "//" inside the path
    start = end + 1;
  }
  std::string file(root);
  if (!file.empty() && file.back() == '/') file.pop_back();
  file += path;
  if (file.back() == '/') file += "index.html";
  return file;
}

std::string_view mime_type(std::string_view path) {
  const auto dot = path.rfind('.');
  if (dot == std::string_view::npos) return "application/octet-stream";
  std::string ext(path.substr(dot + 1));
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  if (ext == "html" || ext == "htm") return "text/html; charset=utf-8";
  if (ext == "js" || ext == "mjs") return "text/javascript; charset=utf-8";
  if (ext == "css") return "text/css; charset=utf-8";
  if (ext == "json") return "application/json";
  if (ext == "svg") return "image/svg+xml";
  if (ext == "png") return "image/png";
  if (ext == "jpg" || ext == "jpeg") return "image/jpeg";
  if (ext == "gif") return "image/gif";
  if (ext == "ico") return "image/x-icon";
  if (ext == "webp") return "image/webp";
  if (ext == "woff2") return "font/woff2";
  if (ext == "txt" || ext == "md") return "text/plain; charset=utf-8";
  if (ext == "webmanifest") return "application/manifest+json";
  return "application/octet-stream";
}

std::string etag_of(std::string_view text) {
  char etag[24];
  std::snprintf(etag, sizeof etag, "\"%016zx\"", std::hash<std::string_view>{}(text));
  return etag;
}

}  // namespace emporium::server
