// libFuzzer target: RowBlockReader on arbitrary bytes must return updates
// or a kParseError / kTypeError naming the record or the malformed block,
// never crash or read out of bounds: a block comes from JS, and a bug there
// must not become one in wasm. Not part of the CMake build; run it with
// `scripts/fuzz.sh row_block [seconds]`. The first input byte picks a keyed
// or keyless table (bit 2, as json_input's); the rest is the block. Inputs
// that ever crashed it go to tests/fuzz/regressions/row_block/, replayed by
// tests/core/format/row_block_regression_test.cpp.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "row_block_harness.h"

namespace {

using namespace freshet;

bool acceptable(const Status& status) {
  if (status.code() != ErrorCode::kParseError && status.code() != ErrorCode::kTypeError) return false;
  const std::string& message = status.message();
  return message.rfind("record ", 0) == 0 || message.rfind("malformed row block", 0) == 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  Result<format::ParsedUpdates> result = fuzzing::read_fuzz_block(input);
  if (!result.ok()) {
    if (!acceptable(result.status())) std::abort();
    return 0;
  }
  if (!fuzzing::updates_are_sound(*result, fuzzing::fuzz_table(data[0]))) std::abort();
  return 0;
}
