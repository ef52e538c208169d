// compile_program's bounds (CompileOptions): the program's bytes, its
// statements, the circuit's operators. Past one: LIMIT_EXCEEDED, no program.
#include <gtest/gtest.h>

#include <string>

#include "freshet/sql/compiler.h"

namespace freshet::sql {
namespace {

std::string tables(int count) {
  std::string sql;
  for (int i = 0; i < count; ++i) sql += "CREATE TABLE t" + std::to_string(i) + " (x INT);\n";
  return sql;
}

TEST(CompileLimitsTest, TextBytes) {
  CompileOptions options;
  options.max_program_bytes = 30;
  Result<std::unique_ptr<CompiledProgram>> compiled = compile_program(tables(2), options);
  ASSERT_FALSE(compiled.ok());
  EXPECT_EQ(compiled.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(compiled.status().message().find("the limit is 30"), std::string::npos) << compiled.status().message();
  EXPECT_TRUE(compile_program(tables(2)).ok());
}

TEST(CompileLimitsTest, StatementsByDefault) {
  EXPECT_TRUE(compile_program(tables(1000)).ok());
  Result<std::unique_ptr<CompiledProgram>> compiled = compile_program(tables(1001));
  ASSERT_FALSE(compiled.ok());
  EXPECT_EQ(compiled.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(compiled.status().message().find("1001 statements; the limit is 1000"), std::string::npos)
      << compiled.status().message();
}

TEST(CompileLimitsTest, Operators) {
  const std::string sql = "CREATE TABLE t (x INT, y INT);\n"
                          "CREATE VIEW a AS SELECT x, COUNT(*) AS n FROM t GROUP BY x;\n"
                          "CREATE VIEW b AS SELECT y, SUM(x) AS s FROM t GROUP BY y;\n";
  Result<std::unique_ptr<CompiledProgram>> unbounded = compile_program(sql);
  ASSERT_TRUE(unbounded.ok()) << unbounded.status().to_string();
  const size_t operators = (*unbounded)->circuit->operator_count();
  CompileOptions options;
  options.max_operators = operators;
  EXPECT_TRUE(compile_program(sql, options).ok());
  options.max_operators = operators - 1;
  Result<std::unique_ptr<CompiledProgram>> compiled = compile_program(sql, options);
  ASSERT_FALSE(compiled.ok());
  EXPECT_EQ(compiled.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(compiled.status().message().find("operators"), std::string::npos) << compiled.status().message();
}

}  // namespace
}  // namespace freshet::sql
