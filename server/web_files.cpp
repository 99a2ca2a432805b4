#include "web_files.hpp"

#include <fstream>
#include <iterator>
#include <system_error>

#include "static_files.hpp"

namespace emporium::server {

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
  auto entry = std::make_shared<file>();
  entry->body.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (in.bad()) return nullptr;
  entry->size = size;
  entry->modified = modified;
  entry->type = mime_type(path);
  entry->etag = etag_of(entry->body);
  if (compressible(entry->type)) {
    auto packed = gzip(entry->body);
    if (packed.size() < entry->body.size()) {
      entry->gzipped = std::move(packed);
      entry->gzipped_etag = etag_of(entry->gzipped);
    }
  }
  std::lock_guard lock(mutex_);
  files_[path] = entry;
  return entry;
}

}  // namespace emporium::server
