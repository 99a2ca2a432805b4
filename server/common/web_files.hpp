#pragma once
// The web client's files, served from memory: each file is read on first use and again whenever its size or
// modification time changes (a developer's edit shows at the next reload), with a strong ETag and, for text,
// a gzip copy made once. Thread-safe; the entries handed out stay valid while a response uses them.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace emporium::server {

// The MIME type of a file, by its extension.
std::string_view mime_type(std::string_view path);

// A strong HTTP ETag for a file's text (quoted, as the header wants it).
std::string etag_of(std::string_view text);

// Whether a type is worth compressing (text: HTML, JS, CSS, JSON, SVG, plain text).
bool compressible(std::string_view mime);

// The gzip form of `data` (zlib, best compression): what a `Content-Encoding: gzip` body holds.
std::string gzip(std::string_view data);

class WebFiles {
 public:
  struct File {
    std::string body;
    std::string gzipped;      // empty when the type is not worth compressing or it would not be smaller
    std::string etag;         // of the body
    std::string gzipped_etag; // of the gzip form (another representation, so another strong validator)
    std::string_view type;  // a literal or mime_type()'s: it lives as long as the program
    std::filesystem::file_time_type modified;  // of the file on disk (web root files only)
    std::uintmax_t size = 0;
  };

  // A file served from memory: `body` as it is, its ETag, and a gzip copy when `type` is text and it gains.
  static File make(std::string body, std::string_view type);

  // The file at `path` (already resolved under the web root), or null when it is not a readable regular file.
  std::shared_ptr<const File> get(const std::string& path);

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<const File>> files_;
};

}  // namespace emporium::server
