// How the row block fuzzer reads its bytes, shared with the test that replays
// its findings (tests/core/format/row_block_regression_test.cpp): the first
// byte picks the table (bit 2: keyed, as json_input_harness.h), the rest is
// the block.
#pragma once

#include <string_view>
#include <vector>

#include "freshet/format/row_block.h"
#include "json_input_harness.h"

namespace freshet::fuzzing {

inline Result<format::ParsedUpdates> read_fuzz_block(std::string_view input) {
  uint8_t mode = input.empty() ? 0 : static_cast<uint8_t>(input[0]);
  format::RowBlockReader reader(fuzz_table(mode));
  return reader.read(input.empty() ? input : input.substr(1));
}

}  // namespace freshet::fuzzing
