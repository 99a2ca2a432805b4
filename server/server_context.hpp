#pragma once
#include <map>
#include <string>

namespace emporium::server {

class lobby;
class metrics;
class store;

// What every session and room needs to know about the server it belongs to.
struct server_context {
  std::string web_root;
  server::lobby* lobby = nullptr;
  server::metrics* metrics = nullptr;
  server::store* store = nullptr;
  // Game id → its component data file, exactly as loaded and checked at start-up (GET /games/<id>/data.json).
  std::map<std::string, std::string> game_data;
};

}  // namespace emporium::server
