// How the JSON/CSV input fuzzer reads its bytes, shared with the test that
// replays its findings (tests/core/format/input_regression_test.cpp) so both
// parse an input exactly the same way. The first byte picks the options
// (bit 0: raw, bit 1: newline-delimited, bit 2: keyed table, bit 3: CSV);
// the rest is the data.
#pragma once

#include <string_view>
#include <vector>

#include "freshet/format/json_input.h"
#include "freshet/types/row.h"

namespace freshet::fuzzing {

//! The fuzzer's table: every type, and a key (id, day) when keyed.
inline const Schema& fuzz_schema() {
  static const Schema schema({{"id", SqlType::bigint(false)},
                              {"name", SqlType::varchar(true, 8)},
                              {"amount", SqlType::decimal(12, 2)},
                              {"b", SqlType::boolean()},
                              {"tiny", SqlType::tinyint()},
                              {"small", SqlType::smallint()},
                              {"i", SqlType::integer()},
                              {"r", SqlType::real()},
                              {"d", SqlType::double_precision()},
                              {"day", SqlType::date()},
                              {"ts", SqlType::timestamp()},
                              {"ID2", SqlType::bigint()}});
  return schema;
}

//! The table an input's mode byte selects (keyed or not).
inline format::TableShape fuzz_table(uint8_t mode) {
  return {&fuzz_schema(), (mode & 4) != 0 ? std::vector<size_t>{0, 9} : std::vector<size_t>{}};
}

//! Parses one fuzz input: the mode byte, then the data.
inline Result<format::ParsedUpdates> parse_fuzz_input(std::string_view input) {
  uint8_t mode = input.empty() ? 0 : static_cast<uint8_t>(input[0]);
  std::string_view text = input.empty() ? input : input.substr(1);
  format::TableShape table = fuzz_table(mode);
  if ((mode & 8) != 0) return format::parse_csv(text, table);
  return format::parse_json(text, table,
                            {(mode & 1) != 0 ? format::UpdateFormat::kRaw : format::UpdateFormat::kInsertDelete,
                             (mode & 2) == 0});
}

//! Whether updates are what a reader may return: deletes by key only from a
//! keyed table, every row decodes, and is canonical (its values encode back
//! to its bytes). What both input fuzzers check of every successful read.
inline bool updates_are_sound(const format::ParsedUpdates& updates, const format::TableShape& table) {
  std::vector<Column> key_columns;
  for (size_t column : table.primary_key) key_columns.push_back(table.schema->column(column));
  Schema key_schema(std::move(key_columns));
  for (const format::ParsedUpdate update : updates) {
    const Schema& row_schema = update.key_only ? key_schema : *table.schema;
    if (update.key_only && (update.insert || table.primary_key.empty())) return false;
    std::vector<Value> values = decode_row(row_schema, RowRef(update.row));  // must decode
    if (encode_row(row_schema, values) != update.row.bytes()) return false;  // and be canonical
  }
  return true;
}

}  // namespace freshet::fuzzing
