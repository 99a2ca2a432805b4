#include "store/open_store.hpp"

#include <stdexcept>
#include <string_view>

#include "common/config.hpp"
#include "store/people_store.hpp"
#include "store/postgres_store.hpp"
#include "store/sql_people_store.hpp"
#include "store/sqlite_store.hpp"

namespace emporium::server {
namespace {

std::string sqlite_directory(const std::string& setting) { return setting.substr(std::string_view("sqlite:").size()); }

[[noreturn]] void no_store() {
  throw std::invalid_argument("the store must be sqlite:<directory> or a postgresql:// URI");
}

}  // namespace

std::unique_ptr<Store> open_store(const std::string& setting, const std::string& node,
                                  std::chrono::milliseconds lease) {
  switch (kind_of_store(setting)) {
    case StoreKind::sqlite: return std::make_unique<SqliteStore>(sqlite_directory(setting));
    case StoreKind::postgresql: return std::make_unique<PostgresStore>(setting, node, lease);
    case StoreKind::none: break;
  }
  no_store();
}

std::unique_ptr<PeopleStore> open_people_store(const std::string& setting) {
  switch (kind_of_store(setting)) {
    case StoreKind::sqlite: return std::make_unique<SqlitePeopleStore>(sqlite_directory(setting));
    case StoreKind::postgresql: return std::make_unique<PostgresPeopleStore>(setting);
    case StoreKind::none: break;
  }
  no_store();
}

}  // namespace emporium::server
