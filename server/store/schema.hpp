#pragma once
// The database's schema, in versions: one ordered list of migrations (schema.cpp) that every store applies when it
// opens, in either dialect, so that a database made by any earlier server opens in a later one. The table
// schema_version has one row per migration applied (version, applied_at in Unix seconds).
#include "store/sql_connection.hpp"

namespace emporium::server::schema {

// The newest version this server knows: that of the last migration.
int newest_version();

// Applies the migrations the database lacks, in order, each in a transaction of its own (on PostgreSQL under an
// advisory lock, so that several nodes starting at once apply each one once). Throws StoreError, and changes
// nothing, when the database's version is newer than this server knows: an older server must not write to it.
void migrate(SqlConnection& db);

}  // namespace emporium::server::schema
