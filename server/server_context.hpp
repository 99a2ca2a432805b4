#pragma once
#include <string>

namespace emporium::server {

// What every session needs to know about the server it belongs to.
struct server_context {
  std::string web_root;
};

}  // namespace emporium::server
