// Parsing input data (JSON with simdjson, and CSV) into rows of a table, in
// Feldera's formats. One call parses a whole ingest: all of it or, at the
// first bad record, nothing, with an error that names the record index, the
// column and the reason.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "freshet/common/status.h"
#include "freshet/format/parsed_updates.h"
#include "freshet/types/schema.h"

namespace freshet::format {

enum class UpdateFormat : uint8_t {
  kInsertDelete,  //!< records {"insert": row} / {"delete": row}
  kRaw,           //!< each record is a row to insert
};

//! Readable bytes after the text that let the JSON parser read it in place
//! (simdjson's SIMDJSON_PADDING); without them it copies the text first.
inline constexpr size_t kJsonPadding = 64;

struct InputOptions {
  UpdateFormat update_format = UpdateFormat::kInsertDelete;
  bool array = true;  //!< JSON: one array of records (true) or newline-delimited records (false)
  //! The text is followed by kJsonPadding readable bytes (their values do not
  //! matter): parsed in place, without a copy (small ingests from JS).
  bool padded = false;
};

//! The target of a parse: a table's schema and the positions of its PRIMARY
//! KEY columns (empty when it has none).
struct TableShape {
  const Schema* schema;
  std::vector<size_t> primary_key;
};

//! Parses JSON text. Errors: kParseError (malformed JSON or records, unknown
//! column, a value of the wrong kind) or kTypeError (NULL into NOT NULL,
//! out of range), each naming "record <i>" and the column.
Result<ParsedUpdates> parse_json(std::string_view data, const TableShape& table, const InputOptions& options);

namespace internal {
class JsonIngest;
}  // namespace internal

//! parse_json for one table, keeping what every call would otherwise build
//! again (the key's schema, row builders): a pipeline keeps one per table,
//! for the many one-record ingests of a live stream.
class JsonTableReader {
 public:
  explicit JsonTableReader(TableShape table);
  ~JsonTableReader();
  JsonTableReader(const JsonTableReader&) = delete;
  JsonTableReader& operator=(const JsonTableReader&) = delete;
  Result<ParsedUpdates> parse(std::string_view data, const InputOptions& options);

 private:
  std::unique_ptr<internal::JsonIngest> ingest_;
};

//! Parses CSV (RFC 4180, no header): one row per line, columns in table
//! order, each an insert. An unquoted empty field is NULL.
Result<ParsedUpdates> parse_csv(std::string_view data, const TableShape& table);

}  // namespace freshet::format
