// Test support for the differential test against SQLite
// (sqlite_differential_test.cpp): a small wrapper over an in-memory SQLite
// database, and a canonical text rendering of rows from both engines so they
// compare as sorted multisets of strings.
//
// Native builds only: there is no SQLite in the wasm build (tests/CMakeLists.txt
// leaves the sqlite_* files out under Emscripten).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "freshet/common/status.h"
#include "freshet/types/row.h"

struct sqlite3;
struct sqlite3_stmt;

namespace freshet::testing {

//! One value as both engines are fed: the test's model of a table cell.
struct CellValue {
  enum Kind { kNull, kInt, kDouble, kText, kDate } kind = kNull;
  int64_t i = 0;
  double d = 0;
  std::string s;  //!< kText, and kDate as 'YYYY-MM-DD'

  static CellValue null() { return {}; }
  static CellValue integer(int64_t v) { return {kInt, v, 0, {}}; }
  static CellValue real(double v) { return {kDouble, 0, v, {}}; }
  static CellValue text(std::string v) { return {kText, 0, 0, std::move(v)}; }
  static CellValue date(std::string v) { return {kDate, 0, 0, std::move(v)}; }
  bool operator==(const CellValue& o) const {
    return kind == o.kind && i == o.i && d == o.d && s == o.s;
  }
};
using ModelRow = std::vector<CellValue>;

//! Canonical renderings shared by both engines. Numbers compare by value, so
//! SQLite's INTEGER-vs-REAL result types (and BOOLEAN as 0/1) do not matter:
//! an integral double renders as an integer, others with 12 significant digits.
std::string canonical_number(double value);
std::string canonical_text(std::string_view text);  //!< 'text' with '' doubled
std::string describe_cell(const CellValue& value);

//! A Freshet row in the canonical rendering: "1|'a'|NULL|2.5".
std::string canonical_row(const Schema& schema, RowRef row);

//! An in-memory SQLite database.
class SqliteDb {
 public:
  SqliteDb();
  ~SqliteDb();
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;

  //! Runs statements without results (DDL, PRAGMA).
  Status exec(const std::string& sql);
  //! Runs one statement with bound parameters (?1, ?2, ...).
  Status run(const std::string& sql, const std::vector<CellValue>& parameters);
  //! Runs a query; every row in the canonical rendering, sorted.
  Result<std::vector<std::string>> query(const std::string& sql);

 private:
  Result<sqlite3_stmt*> prepare(const std::string& sql);
  std::string error() const;

  sqlite3* db_ = nullptr;
  std::vector<std::pair<std::string, sqlite3_stmt*>> cache_;
};

}  // namespace freshet::testing
