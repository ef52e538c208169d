// Replays every input the fuzzer (tests/fuzz/sql_parser_fuzzer.cpp) ever
// crashed on, plus hand-made hostile inputs: each must come back as a program
// or an error, never a crash. The folder is found next to this source file,
// which works natively and under node (NODERAWFS shows the real filesystem).
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "freshet/sql/compiler.h"
#include "freshet/sql/parser.h"
#include "support/fuzz_files.h"

namespace freshet::sql {
namespace {

std::string fuzz_folder(const std::string& kind, const std::string& target = "sql_parser") {
  return freshet::testing::fuzz_folder(kind, target);
}
using freshet::testing::files_in;
using freshet::testing::read_file;

TEST(ParserRegressionTest, EveryFuzzerFindingParsesOrFails) {
  std::vector<std::string> files = files_in(fuzz_folder("regressions"));
  ASSERT_FALSE(files.empty()) << "no inputs in " << fuzz_folder("regressions");
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    Result<Program> program = parse_program(read_file(path));
    EXPECT_TRUE(program.ok() || program.status().code() == ErrorCode::kSqlError) << program.status().to_string();
  }
}

TEST(ParserRegressionTest, EverySeedOfTheFuzzCorpusIsValid) {
  std::vector<std::string> files = files_in(fuzz_folder("corpus"));
  ASSERT_FALSE(files.empty()) << "no inputs in " << fuzz_folder("corpus");
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    Result<Program> program = parse_program(read_file(path));
    EXPECT_TRUE(program.ok()) << program.status().to_string();
    if (program.ok()) {
      EXPECT_FALSE(program->statements.empty());
    }
  }
}

// The compiler fuzzer's findings, and the parser's hostile inputs (deeply
// nested expressions reach the binder's recursion too), compile or fail
// with an SQL error; every seed of the compiler corpus compiles.
TEST(CompilerRegressionTest, EveryFuzzerFindingCompilesOrFails) {
  std::vector<std::string> files = files_in(fuzz_folder("regressions", "sql_compiler"));
  std::vector<std::string> parser_files = files_in(fuzz_folder("regressions"));
  files.insert(files.end(), parser_files.begin(), parser_files.end());
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    auto program = compile_program(read_file(path));
    EXPECT_TRUE(program.ok() || program.status().code() == ErrorCode::kSqlError) << program.status().to_string();
  }
}

TEST(CompilerRegressionTest, EverySeedOfTheCompilerCorpusCompiles) {
  std::vector<std::string> files = files_in(fuzz_folder("corpus", "sql_compiler"));
  ASSERT_FALSE(files.empty());
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    auto program = compile_program(read_file(path));
    EXPECT_TRUE(program.ok()) << program.status().to_string();
  }
}

}  // namespace
}  // namespace freshet::sql
