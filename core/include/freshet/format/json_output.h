// Encoding rows as JSON in Feldera's formats, for output endpoints and
// snapshots: a row is an object keyed by column name; values as docs/js-api.md
// says (numbers keep every digit, DATE 'YYYY-MM-DD', TIMESTAMP
// 'YYYY-MM-DD HH:MM:SS[.fff]', NULL null).
//
// Numbers: integers and DECIMAL keep every digit (DECIMAL(p, 2) 12.5 is
// 12.50); REAL and DOUBLE are the shortest text that reads back as the same
// float / double (integer values below 1e17 as plain digits: 100, not 1e+02).
// JSON has no number for NaN and the infinities: they are the strings "NaN",
// "Infinity" and "-Infinity". Strings pass valid UTF-8 through unchanged and
// replace each maximal invalid subsequence with U+FFFD, as the WHATWG decoder
// (JS TextDecoder) does.
#pragma once

#include <string>
#include <string_view>
#include <vector>

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

class JsonRowEncoder;

//! Appends the rows of a Z-set batch (rows are the keys), split by sign: a
//! row of weight w > 0 w times to `positive`, of weight w < 0 |w| times to
//! `negative`, each a comma-separated list of JSON objects (the caller writes
//! the brackets). For hosts that hand out a chunk's inserts and deletes as two
//! arrays (the JS API).
void append_rows_by_sign(const Batch& batch, const JsonRowEncoder& encoder, std::string* positive,
                         std::string* negative);

//! JsonRowEncoder encodes many rows of one schema, the way append_json_row
//! does, with the column names escaped once instead of once per row. The
//! schema must outlive the encoder.
class JsonRowEncoder {
 public:
  explicit JsonRowEncoder(const Schema& schema);

  //! Appends one row (bytes in the encoder's schema) as a JSON object.
  void append_row(RowRef row, std::string* out) const;
  const Schema& schema() const { return *schema_; }

 private:
  const Schema* schema_;
  //! `{"name":` for the first column, `,"name":` for the others.
  std::vector<std::string> prefixes_;
};

}  // namespace freshet::format
