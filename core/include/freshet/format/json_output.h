// Encoding rows as JSON in Feldera's formats, for output endpoints and
// snapshots: a row is an object keyed by column name; values as API.md §2
// says (numbers keep every digit, DATE 'YYYY-MM-DD', TIMESTAMP
// 'YYYY-MM-DD HH:MM:SS[.fff]', NULL null).
#pragma once

#include <string>

#include "freshet/types/row.h"
#include "freshet/zset/batch.h"

namespace freshet::format {

//! Appends one row as a JSON object: {"id":1,"region":"north"}.
void append_json_row(const RowReader& row, std::string* out);

//! Appends one JSON value of a row's column.
void append_json_value(const RowReader& row, size_t column, std::string* out);

//! Appends a JSON string literal (quoted, escaped; invalid UTF-8 becomes U+FFFD).
void append_json_string(std::string_view text, std::string* out);

//! Appends the entries of a Z-set batch (rows are the keys) as insert_delete
//! records, a row of weight w repeated |w| times: `{"insert":{...}}` for
//! positive weights and `{"delete":{...}}` for negative ones, separated by
//! commas (the caller writes the surrounding array brackets). Returns the
//! number of records written.
size_t append_insert_delete(const Batch& batch, const Schema& schema, std::string* out);

}  // namespace freshet::format
