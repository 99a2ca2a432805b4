#pragma once
#include <chrono>
#include <memory>
#include <string>

#include "store/store.hpp"

namespace emporium::server {

// The store a `--store` setting names: "sqlite:<directory>" or a "postgresql://…" (or "postgres://…") URI. Throws
// StoreError when it cannot be opened, std::invalid_argument when the setting names no store. `node`: this server's
// name in a PostgreSQL store shared by several (cluster/cluster.hpp), `lease` their lease length.
std::unique_ptr<Store> open_store(const std::string& setting, const std::string& node = "main",
                                  std::chrono::milliseconds lease = std::chrono::seconds(5));
// The people store of the same setting is opened beside it by open_people_store (people_store.hpp).

}  // namespace emporium::server
