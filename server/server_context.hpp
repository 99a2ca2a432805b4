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
  // A game's component data file, exactly as loaded and checked at start-up (GET /games/<id>/data.json),
  // with its ETag computed once.
  struct data_file {
    std::string text;
    std::string etag;
  };
  std::map<std::string, data_file> game_data;  // by game id
};

}  // namespace emporium::server
