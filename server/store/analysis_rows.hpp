#pragma once
// A finished table's analysis in the `analyses` table (schema version 8), written once for both stores.
#include <optional>
#include <string>

#include "store/sql_connection.hpp"

namespace emporium::server {

// Replaces the table's analysis, of whatever engine version it was.
void write_analysis(SqlConnection& db, const std::string& table, const std::string& engine_version,
                    const std::string& body, long long now);
// The table's analysis if it is of `engine_version`.
std::optional<std::string> read_analysis(SqlConnection& db, const std::string& table,
                                         const std::string& engine_version);

}  // namespace emporium::server
