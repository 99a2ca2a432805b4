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

#include "web_files.hpp"

namespace emporium::server {

class store;
class worker_pool;

class game_records {
 public:
  enum class kind { record, replay };
  struct request {
    std::string table;
    kind what = kind::record;
    std::string invite;  // ?invite=: a private table's are served only with it
  };
  // What the route answers: the document, or an HTTP status and a sentence saying why not.
  struct answer {
    std::shared_ptr<const web_files::file> file;
    unsigned status = 200;
    std::string error;
  };

  game_records(server::store& store, worker_pool& workers, std::size_t cache_bytes = 32u << 20);

  // The request `target` makes, if it is one of these routes.
  static std::optional<request> parse(std::string_view target);
  // Answers on a worker thread.
  void serve(request r, std::function<void(answer)> done);

 private:
  struct entry {
    std::shared_ptr<const web_files::file> file;
    bool is_private = false;
    std::string invite;
  };
  answer build(const request& r);
  std::optional<entry> cached(const std::string& key);
  void keep(const std::string& key, entry e);

  server::store& store_;
  worker_pool& workers_;
  const std::size_t cache_bytes_;
  std::mutex mutex_;
  std::list<std::pair<std::string, entry>> recent_;  // most recently used first
  std::unordered_map<std::string, std::list<std::pair<std::string, entry>>::iterator> by_key_;
  std::size_t bytes_ = 0;
};

}  // namespace emporium::server
