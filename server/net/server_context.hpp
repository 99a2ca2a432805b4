#pragma once
// What every listener, HTTP session and WebSocket session needs to know about the server it belongs to. main()
// fills it in; the sessions share one copy.
#include <map>
#include <string>
#include <vector>

#include "common/web_files.hpp"
#include "tables/tables_context.hpp"

namespace emporium::server {

class Accounts;
class AddressLimits;
class Analyses;
class GameRecords;
class Mailer;
class Metrics;
class PushSender;
class OpenConnections;

struct ServerContext {
  const TablesContext* tables = nullptr;  // what each WebSocket's Member works with; the lobby's counts for /metrics
  OpenConnections* connections = nullptr;  // the WebSocket connections, told "going away" at shutdown
  std::string web_root;
  WebFiles* web_files = nullptr;  // the web root's files in memory, with ETags and gzip copies
  Metrics* metrics = nullptr;
  GameRecords* records = nullptr;  // finished games' records and replays (GET /tables/<id>/...)
  Analyses* analyses = nullptr;    // finished games' analyses (POST /tables/<id>/analysis, GET .../analysis.json)
  AddressLimits* addresses = nullptr;  // per-address caps on connections and tables created
  std::vector<std::string> allowed_origins;  // besides the server's own (origin.hpp)
  Accounts* accounts = nullptr;  // the account requests (/api/...); none: they are not served
  const Mailer* mailer = nullptr;      // its counts on /metrics while mail is on
  const PushSender* push = nullptr;    // the same of pushes, while push is on
  std::string public_origin;     // --public-origin: where players reach the server; empty: each request's own
  // A game's component data file, exactly as loaded and checked at start-up (GET /games/<id>/data.json),
  // served as the client's files are (its ETag and gzip copy made once).
  std::map<std::string, WebFiles::File> game_data;  // by game id
};

}  // namespace emporium::server
