#pragma once
// Finished tables' documents kept in memory (a finished game never changes), each with what its table's privacy
// needs, up to a budget of bytes, the least recently used dropped: the records and replays (game_records.hpp)
// and the analyses (analyses/analyses.hpp). Thread-safe.
#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "common/web_files.hpp"

namespace emporium::server {

class KeptFiles {
 public:
  struct Entry {
    std::shared_ptr<const WebFiles::File> file;
    bool is_private = false;
    std::string invite;
  };
  explicit KeptFiles(std::size_t budget_bytes) : budget_(budget_bytes) {}

  std::optional<Entry> find(const std::string& key);
  void keep(const std::string& key, Entry e);

 private:
  const std::size_t budget_;
  std::mutex mutex_;
  std::list<std::pair<std::string, Entry>> recent_;  // most recently used first
  std::unordered_map<std::string, std::list<std::pair<std::string, Entry>>::iterator> by_key_;
  std::size_t bytes_ = 0;
};

}  // namespace emporium::server
