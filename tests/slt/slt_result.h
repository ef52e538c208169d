//! A view's rows printed as sqllogictest's C harness prints a query's
//! result (one string a value, by the record's type letters, converting as
//! SQLite's sqlite3_column_int64/double/text would), arranged by the sort
//! mode, and compared with the record's expected values or their MD5.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "freshet/types/row.h"
#include "freshet/types/schema.h"
#include "freshet/zset/batch.h"
#include "slt_file.h"

namespace freshet::slt {

//! One printed value and what SQLite's ORDER BY sorts it by
//! (NULLs first, then numbers by value, then text by bytes).
struct Cell {
  std::string text;
  int order_class = 0;  //!< 0 NULL, 1 number, 2 text
  long double number = 0;
};
using CellRow = std::vector<Cell>;

//! Value `column` of `row`, printed for type letter `type` (I, R or T).
Cell format_cell(const Schema& schema, RowReader row, size_t column, char type);

//! SQLite's "%.3f" (its printf rounds half away from zero and never prints -0.000).
std::string format_real(double value);
//! SQLite's text of a REAL ("%!.15g": 3.0 prints as "3.0").
std::string format_real_as_text(double value);
//! SQLite's sqlite3_column_int64 of a REAL: truncation, clamped to 64 bits.
int64_t real_to_integer(double value);

//! The rows of a consolidated Z-set (each row repeated by its weight);
//! an error text when a weight is negative.
std::optional<std::string> rows_of(const Batch& batch, const Schema& schema, const std::string& types,
                                   std::vector<CellRow>& rows);

//! The ORDER BY of a nosort query when it lists output columns by ordinal
//! (`ORDER BY 1, 3 DESC`): pairs of 0-based column and descending.
std::optional<std::vector<std::pair<size_t, bool>>> order_by_ordinals(const std::string& sql);

//! The values in the order the harness compares them: rowsort sorts rows by
//! their printed values, valuesort sorts all values, nosort keeps `rows`
//! (already ordered by the caller).
std::vector<std::string> arrange(std::vector<CellRow> rows, const std::string& sort);

//! Sorts rows as SQLite's ORDER BY over the given columns; ties keep the
//! order of their printed values, so a result is deterministic.
void order_rows(std::vector<CellRow>& rows, const std::vector<std::pair<size_t, bool>>& order);

//! Empty when `values` match the record's expected result, else what differs.
std::string compare_result(const Record& record, const std::vector<std::string>& values);

}  // namespace freshet::slt
