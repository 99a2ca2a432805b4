#pragma once
// A finished table's published record (GET /tables/<id>/record.json) and its replay, every position with
// everything revealed (GET /tables/<id>/replay.json). The store keeps finished tables, so both survive
// restarts. Building one replays the game: that runs on its own worker pool, never on a network thread, and
// the answers are kept (a finished game never changes) up to a memory budget, the least recently used dropped.
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <emporium/records/records.hpp>

#include "common/web_files.hpp"
#include "records/kept_files.hpp"

namespace emporium::server {

class Store;
class WorkerPool;
struct StoredTable;

// A finished table's published record (what record.json serves, records::to_json of it), from the stored table
// with its actions: the one place that decides what a record publishes (the analyses read the same).
records::Published published_record(const StoredTable& stored);
// Whether a request with `given` (its ?invite=) may read a table's record: a private table's needs its invite.
bool invite_allows(bool is_private, const std::string& invite, const std::string& given);
// A table id as the routes take it (letters, digits, '-' and '_'): anything else is no table.
bool valid_table_id(std::string_view id);
// A request for one of a table's files, /tables/<id>/<file>[?invite=...] (the records', the analyses').
struct TableFileRequest {
  std::string table;
  std::string file;
  std::string invite;  // ?invite=: a private table's files are served only with it
};
std::optional<TableFileRequest> parse_table_file(std::string_view target);

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
  Answer build(const Request& r);

  server::Store& store_;
  WorkerPool& workers_;
  KeptFiles kept_;
};

}  // namespace emporium::server
