// libFuzzer target: parse_json and parse_csv on arbitrary bytes must return
// updates or a kParseError / kTypeError naming a record, never crash, hang or
// read out of bounds. Not part of the CMake build; run it with
// `scripts/fuzz.sh json_input [seconds]`. The first input byte picks the
// options (array or lines, insert_delete or raw, keyed or not, JSON or CSV);
// the rest is the data. Inputs that ever crashed it live in
// tests/fuzz/regressions/json_input/ and are replayed by
// tests/core/format/input_regression_test.cpp.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "freshet/format/json_input.h"
#include "json_input_harness.h"

namespace {

using namespace freshet;

bool acceptable(const Status& status) {
  if (status.code() != ErrorCode::kParseError && status.code() != ErrorCode::kTypeError) return false;
  const std::string& message = status.message();
  return message.rfind("record ", 0) == 0 || message.rfind("malformed JSON", 0) == 0 ||
         message.rfind("expected a JSON array", 0) == 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  Result<format::ParsedUpdates> result = fuzzing::parse_fuzz_input(input);
  if (!result.ok()) {
    if (!acceptable(result.status())) std::abort();
    return 0;
  }
  if (!fuzzing::updates_are_sound(*result, fuzzing::fuzz_table(data[0]))) std::abort();
  return 0;
}
