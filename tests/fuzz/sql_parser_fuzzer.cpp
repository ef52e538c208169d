// libFuzzer target: parse_program on arbitrary bytes must return a program or
// a kSqlError, never crash, hang or recurse without bound. Not part of the
// CMake build; run it with `scripts/fuzz.sh sql_parser [seconds]`. Inputs
// that ever crashed it live in tests/fuzz/regressions/sql_parser/ and are
// replayed by tests/core/sql/parser_regression_test.cpp.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "freshet/sql/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  freshet::Result<freshet::sql::Program> program = freshet::sql::parse_program(text);
  if (!program.ok() && program.status().code() != freshet::ErrorCode::kSqlError) std::abort();
  if (!program.ok() && program.status().message().rfind("line ", 0) != 0) std::abort();  // errors name a position
  freshet::Result<freshet::sql::Query> query = freshet::sql::parse_query(text);
  if (!query.ok() && query.status().code() != freshet::ErrorCode::kSqlError) std::abort();
  return 0;
}
