// libFuzzer target: compile_program (parser, binder, planner) on arbitrary
// bytes must return a program or a kSqlError naming a position, never crash.
// A program that compiles is then run for two steps over a few rows per
// table (zeros, ones, NULLs), which drives the evaluator and every operator
// the planner built; runtime errors (division by zero) are fine, crashes are
// not. Run with `scripts/fuzz.sh sql_compiler [seconds]`.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "freshet/sql/compiler.h"

namespace {

// Fills a row with the same small value in every column (or NULLs).
std::string row_of(const freshet::Schema& schema, int value) {
  freshet::RowBuilder row(schema);
  for (size_t c = 0; c < schema.size(); ++c) {
    const freshet::SqlType& type = schema.type(c);
    if (value < 0) {
      row.set_null(c);
    } else if (type.id == freshet::TypeId::kVarchar) {
      row.set_string(c, value ? "a" : "");
    } else if (type.is_floating()) {
      row.set_double(c, value);
    } else if (type.id == freshet::TypeId::kDecimal) {
      row.set_decimal(c, value);
    } else {
      row.set_int(c, value);
    }
  }
  return row.finish().to_bytes();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto compiled = freshet::sql::compile_program(text);
  if (!compiled.ok()) {
    if (compiled.status().code() != freshet::ErrorCode::kSqlError) std::abort();
    if (compiled.status().message().rfind("line ", 0) != 0) std::abort();
    return 0;
  }
  freshet::sql::CompiledProgram& program = **compiled;
  for (int round = 0; round < 2; ++round) {
    for (const freshet::sql::CompiledTable& table : program.tables) {
      for (int value : {0, 1, -1}) {
        std::string row = row_of(*table.schema, value);
        if (table.upsert_input) {
          table.upsert_input->push_upsert(freshet::RowRef(row));
        } else {
          table.input->push_row(freshet::RowRef(row), round == 0 ? 1 : -1);
        }
      }
    }
    (void)program.circuit->step();
  }
  return 0;
}
