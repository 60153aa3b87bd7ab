// A read-only SQLite database and queries over it, row by row.
#ifndef PVA_SRC_DATABASE_HPP
#define PVA_SRC_DATABASE_HPP

#include <sqlite3.h>

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

namespace pva {
namespace detail {

/// A row that names an entry the profile cannot have (Row::index);
/// Database::query reports it as a pva::error naming the file.
struct BadRow : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// One row of a query's result.
class Row {
public:
  explicit Row(sqlite3_stmt *stmt) : stmt(stmt) {}
  std::int64_t integer(int column) const { return sqlite3_column_int64(stmt, column); }
  std::uint64_t count(int column) const {
    return static_cast<std::uint64_t>(integer(column));
  }
  double real(int column) const { return sqlite3_column_double(stmt, column); }
  std::string text(int column) const;
  bool isNull(int column) const { return sqlite3_column_type(stmt, column) == SQLITE_NULL; }
  /// The integer as an index below `limit`; BadRow naming `what` if it is
  /// negative or not below the limit.
  std::size_t index(int column, std::size_t limit, const char *what) const;
  /// The integer, or `otherwise` when the column is NULL.
  std::int64_t integerOr(int column, std::int64_t otherwise) const {
    return isNull(column) ? otherwise : integer(column);
  }

private:
  sqlite3_stmt *stmt;
};

class Database {
public:
  /// Opens `path` read-only; pva::error naming the file if it cannot.
  explicit Database(const std::string &path);
  ~Database();
  Database(const Database &) = delete;
  Database &operator=(const Database &) = delete;

  /// Runs `sql` and calls `row` for each row of the result.
  void query(const std::string &sql, const std::function<void(const Row &)> &row) const;
  /// The first column of the first row of an integer query (a PRAGMA).
  std::int64_t pragma(const std::string &sql) const;
  bool hasTable(const std::string &name) const;
  const std::string &path() const { return file; }

private:
  std::string file;
  sqlite3 *db = nullptr;
};

} // namespace detail
} // namespace pva

#endif
