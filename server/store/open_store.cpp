#include "store/open_store.hpp"

#include <stdexcept>

#include "common/config.hpp"
#include "store/postgres_store.hpp"
#include "store/sqlite_store.hpp"

namespace emporium::server {

std::unique_ptr<Store> open_store(const std::string& setting, const std::string& node, std::chrono::milliseconds lease) {
  switch (kind_of_store(setting)) {
    case StoreKind::sqlite: return std::make_unique<SqliteStore>(setting.substr(7));
    case StoreKind::postgresql: return std::make_unique<PostgresStore>(setting, node, lease);
    case StoreKind::none: break;
  }
  throw std::invalid_argument("the store must be sqlite:<directory> or a postgresql:// URI");
}

}  // namespace emporium::server
