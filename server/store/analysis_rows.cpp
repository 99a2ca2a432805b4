#include "store/analysis_rows.hpp"

namespace emporium::server {

void write_analysis(SqlConnection& db, const std::string& table, const std::string& engine_version,
                    const std::string& body, long long now) {
  db.rows("INSERT INTO analyses (table_id, engine_version, body, created_at) VALUES ($1, $2, $3, $4) "
          "ON CONFLICT (table_id) DO UPDATE SET engine_version = excluded.engine_version, body = excluded.body, "
          "created_at = excluded.created_at",
          {table, engine_version, body, now});
}

std::optional<std::string> read_analysis(SqlConnection& db, const std::string& table,
                                         const std::string& engine_version) {
  const auto rows = db.rows("SELECT body FROM analyses WHERE table_id = $1 AND engine_version = $2",
                            {table, engine_version});
  if (rows.empty()) return std::nullopt;
  return rows[0].text(0);
}

}  // namespace emporium::server
