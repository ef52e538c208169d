// How the JSON/CSV input fuzzer reads its bytes, shared with the test that
// replays its findings (tests/core/format/input_regression_test.cpp) so both
// parse an input exactly the same way. The first byte picks the options
// (bit 0: raw, bit 1: newline-delimited, bit 2: keyed table, bit 3: CSV);
// the rest is the data.
#pragma once

#include <string_view>
#include <vector>

#include "freshet/format/json_input.h"

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
inline Result<std::vector<format::ParsedUpdate>> parse_fuzz_input(std::string_view input) {
  uint8_t mode = input.empty() ? 0 : static_cast<uint8_t>(input[0]);
  std::string_view text = input.empty() ? input : input.substr(1);
  format::TableShape table = fuzz_table(mode);
  if ((mode & 8) != 0) return format::parse_csv(text, table);
  return format::parse_json(text, table,
                            {(mode & 1) != 0 ? format::UpdateFormat::kRaw : format::UpdateFormat::kInsertDelete,
                             (mode & 2) == 0});
}

}  // namespace freshet::fuzzing
