#include "Database.hpp"

#include <pva/pva.hpp>

namespace pva {
namespace detail {

std::string Row::text(int column) const {
  const auto *chars = sqlite3_column_text(stmt, column);
  if (!chars)
    return "";
  return std::string(reinterpret_cast<const char *>(chars),
                     static_cast<std::size_t>(sqlite3_column_bytes(stmt, column)));
}

Database::Database(const std::string &path) : file(path) {
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    const std::string message = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    db = nullptr;
    throw error("Cannot open the profile '" + path + "': " + message);
  }
}

Database::~Database() { sqlite3_close(db); }

void Database::query(const std::string &sql,
                     const std::function<void(const Row &)> &row) const {
  sqlite3_stmt *stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
    throw error("Cannot read the profile '" + file + "' (" + sql +
                "): " + sqlite3_errmsg(db));
  int status;
  try {
    while ((status = sqlite3_step(stmt)) == SQLITE_ROW)
      row(Row(stmt));
  } catch (const BadRow &e) {
    sqlite3_finalize(stmt);
    throw error("The profile '" + file + "' is corrupt: (" + sql + "): " + e.what());
  } catch (const std::out_of_range &) {
    // A row naming an entry that the profile does not have.
    sqlite3_finalize(stmt);
    throw error("The profile '" + file + "' is corrupt: a row of (" + sql +
                ") refers to an entry it does not have");
  } catch (...) {
    sqlite3_finalize(stmt);
    throw;
  }
  sqlite3_finalize(stmt);
  if (status != SQLITE_DONE)
    throw error("Cannot read the profile '" + file + "' (" + sql +
                "): " + sqlite3_errmsg(db));
}

std::size_t Row::index(int column, std::size_t limit, const char *what) const {
  const std::int64_t value = integer(column);
  if (value < 0 || std::uint64_t(value) >= limit)
    throw BadRow(std::string("a row gives ") + what + " " + std::to_string(value) +
                ", beyond the " + std::to_string(limit) + " the profile can have");
  return std::size_t(value);
}

std::int64_t Database::pragma(const std::string &sql) const {
  std::int64_t value = 0;
  query(sql, [&](const Row &r) { value = r.integer(0); });
  return value;
}

bool Database::hasTable(const std::string &name) const {
  bool found = false;
  query("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '" + name + "'",
        [&](const Row &) { found = true; });
  return found;
}

} // namespace detail
} // namespace pva
