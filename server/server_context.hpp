#pragma once
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "web_files.hpp"

namespace emporium::server {

class address_limits;
class cluster;
class commit_queue;
class game_records;
class worker_pool;
class lobby;
class metrics;
class store;

// What every session and room needs to know about the server it belongs to.
struct server_context {
  std::string web_root;
  server::web_files* web_files = nullptr;  // the web root's files in memory, with ETags and gzip copies
  server::lobby* lobby = nullptr;
  server::metrics* metrics = nullptr;
  server::store* store = nullptr;
  server::commit_queue* commits = nullptr;  // where rooms write their moves (group commit)
  server::worker_pool* bots = nullptr;
  server::game_records* records = nullptr;  // finished games' records and replays (GET /tables/<id>/...)
  server::address_limits* addresses = nullptr;  // per-address caps on connections and tables created
  server::cluster* cluster = nullptr;  // several nodes on one PostgreSQL (cluster.hpp); null on one node
  std::chrono::milliseconds bot_delay{800};  // the pause before a bot's move, after the previous move
  std::chrono::seconds absent_after{300};    // replace_absent: how long a player must have been disconnected
  std::chrono::seconds abandoned_after{600};  // a waiting table with nobody connected closes after this
  std::chrono::seconds finished_unwatched_after{60};  // a finished table nobody is connected to leaves memory (0: never)
  // When the previous run of the server was last alive (Unix ms), if it ever ran: turn clocks resume from it.
  std::optional<std::int64_t> last_alive_ms;
  int min_turn_s = 5;  // the shortest turn a clock may have
  std::vector<std::string> allowed_origins;  // besides the server's own (origin.hpp)
  // A game's component data file, exactly as loaded and checked at start-up (GET /games/<id>/data.json),
  // served as the client's files are (its ETag and gzip copy made once).
  std::map<std::string, web_files::file> game_data;  // by game id
};

}  // namespace emporium::server
