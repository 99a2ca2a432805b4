#include "web_files.hpp"

#include <fstream>
#include <iterator>
#include <system_error>

#include "static_files.hpp"

namespace emporium::server {

web_files::file web_files::make(std::string body, std::string_view type) {
  file f;
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

std::shared_ptr<const web_files::file> web_files::get(const std::string& path) {
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
  auto entry = std::make_shared<file>(make(std::move(body), mime_type(path)));
  entry->size = size;
  entry->modified = modified;
  std::lock_guard lock(mutex_);
  files_[path] = entry;
  return entry;
}

}  // namespace emporium::server
