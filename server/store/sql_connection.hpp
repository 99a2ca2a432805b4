#pragma once
// One connection to the database in either dialect, for SQL written once for both (the schema's migrations,
// schema.hpp; the people store, sql_people_store.hpp): parameters are $1, $2, … in both, results are read as text.
// SqliteConnection (sqlite_connection.hpp) and PgSqlConnection (pg_connection.hpp) implement it. Not thread-safe:
// its owner serializes the calls. Failures throw StoreError.
#include <functional>
#include <string>
#include <variant>
#include <vector>

namespace emporium::server {

enum class Dialect { sqlite, postgresql };

// A parameter: NULL, text or an integer.
using SqlValue = std::variant<std::monostate, std::string, long long>;
// Empty text as NULL (an optional column).
inline SqlValue text_or_null(const std::string& text) { return text.empty() ? SqlValue() : SqlValue(text); }

// One row of a result, every column as text; it reads as stored_rows.hpp expects (NULL as "" and 0).
struct SqlRow {
  std::vector<std::string> columns;
  const std::string& text(int col) const { return columns.at(static_cast<std::size_t>(col)); }
  long long integer(int col) const { return text(col).empty() ? 0 : std::stoll(text(col)); }
};

class SqlConnection {
 public:
  virtual ~SqlConnection() = default;
  virtual Dialect dialect() const = 0;
  // One statement: its rows (those of RETURNING too).
  virtual std::vector<SqlRow> rows(const std::string& sql, const std::vector<SqlValue>& params = {}) = 0;
  // Statements without parameters, separated by semicolons.
  virtual void script(const std::string& sql) = 0;
  // `body` in a transaction: committed, or rolled back if it throws (and the exception passed on). On SQLite it
  // holds the write lock from its start, so that one that reads and then writes never fails for a writer between.
  virtual void transaction(const std::function<void()>& body) = 0;
};

}  // namespace emporium::server
