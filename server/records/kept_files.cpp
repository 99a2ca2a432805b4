#include "records/kept_files.hpp"

namespace emporium::server {
namespace {

std::size_t size_of(const WebFiles::File& f) { return f.body.size() + f.gzipped.size(); }

}  // namespace

std::optional<KeptFiles::Entry> KeptFiles::find(const std::string& key) {
  std::lock_guard lock(mutex_);
  const auto it = by_key_.find(key);
  if (it == by_key_.end()) return std::nullopt;
  recent_.splice(recent_.begin(), recent_, it->second);
  return it->second->second;
}

void KeptFiles::keep(const std::string& key, Entry e) {
  std::lock_guard lock(mutex_);
  if (by_key_.contains(key) || size_of(*e.file) > budget_) return;
  bytes_ += size_of(*e.file);
  recent_.emplace_front(key, std::move(e));
  by_key_[key] = recent_.begin();
  while (bytes_ > budget_) {
    bytes_ -= size_of(*recent_.back().second.file);
    by_key_.erase(recent_.back().first);
    recent_.pop_back();
  }
}

}  // namespace emporium::server
