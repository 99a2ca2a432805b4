#include "common/web_files.hpp"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iterator>
#include <stdexcept>
#include <system_error>

namespace emporium::server {

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

bool compressible(std::string_view mime) {
  return mime.starts_with("text/") || mime.starts_with("application/json") || mime.starts_with("image/svg+xml") ||
         mime.starts_with("application/manifest+json");
}

std::string gzip(std::string_view data) {
  z_stream zs{};
  // windowBits 15 + 16: a gzip header and trailer instead of zlib's.
  if (deflateInit2(&zs, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::runtime_error("gzip: deflateInit2 failed");
  }
  std::string out(deflateBound(&zs, static_cast<uLong>(data.size())) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) throw std::runtime_error("gzip: deflate did not finish");
  return out;
}


WebFiles::File WebFiles::make(std::string body, std::string_view type) {
  File f;
  f.body = std::move(body);
  f.type = type;
  f.etag = etag_of(f.body);
  if (compressible(type)) {
    auto packed = gzip(f.body);
    if (packed.size() < f.body.size()) {
      f.gzipped = std::move(packed);
      f.gzipped_etag = etag_of(f.gzipped);
    }
  }
  return f;
}

std::shared_ptr<const WebFiles::File> WebFiles::get(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return nullptr;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return nullptr;
  const auto modified = std::filesystem::last_write_time(path, ec);
  if (ec) return nullptr;
  {
    std::lock_guard lock(mutex_);
    const auto it = files_.find(path);
    if (it != files_.end() && it->second->size == size && it->second->modified == modified) return it->second;
  }
  // Read and compress outside the lock; two threads racing on a changed file both store a current copy.
  std::ifstream in(path, std::ios::binary);
  if (!in) return nullptr;
  std::string body(std::istreambuf_iterator<char>(in), {});
  if (in.bad()) return nullptr;
  auto entry = std::make_shared<File>(make(std::move(body), mime_type(path)));
  entry->size = size;
  entry->modified = modified;
  std::lock_guard lock(mutex_);
  files_[path] = entry;
  return entry;
}

}  // namespace emporium::server
