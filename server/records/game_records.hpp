#pragma once
// A finished table's published record (GET /tables/<id>/record.json) and its replay, every position with
// everything revealed (GET /tables/<id>/replay.json). The store keeps finished tables, so both survive
// restarts. Building one replays the game: that runs on its own worker pool, never on a network thread, and
// the answers are kept (a finished game never changes) up to a memory budget, the least recently used dropped.
#include <cstddef>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "common/web_files.hpp"

namespace emporium::server {

class Store;
class WorkerPool;

class GameRecords {
 public:
  enum class Kind { record, replay };
  struct Request {
    std::string table;
    Kind what = Kind::record;
    std::string invite;  // ?invite=: a private table's are served only with it
  };
  // What the route answers: the document, or an HTTP status and a sentence saying why not.
  struct Answer {
    std::shared_ptr<const WebFiles::File> file;
    unsigned status = 200;
    std::string error;
  };

  GameRecords(server::Store& store, WorkerPool& workers, std::size_t cache_bytes = 32u << 20);

  // The request `target` makes, if it is one of these routes.
  static std::optional<Request> parse(std::string_view target);
  // Answers on a worker thread.
  void serve(Request r, std::function<void(Answer)> done);

 private:
  struct Entry {
    std::shared_ptr<const WebFiles::File> file;
    bool is_private = false;
    std::string invite;
  };
  Answer build(const Request& r);
  std::optional<Entry> cached(const std::string& key);
  void keep(const std::string& key, Entry e);

  server::Store& store_;
  WorkerPool& workers_;
  const std::size_t cache_bytes_;
  std::mutex mutex_;
  std::list<std::pair<std::string, Entry>> recent_;  // most recently used first
  std::unordered_map<std::string, std::list<std::pair<std::string, Entry>>::iterator> by_key_;
  std::size_t bytes_ = 0;
};

}  // namespace emporium::server
