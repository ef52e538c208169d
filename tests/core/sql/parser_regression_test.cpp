// Replays every input the fuzzer (tests/fuzz/sql_parser_fuzzer.cpp) ever
// crashed on, plus hand-made hostile inputs: each must come back as a program
// or an error, never a crash. The folder is found next to this source file,
// which works natively and under node (NODERAWFS shows the real filesystem).
#include <dirent.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "freshet/sql/compiler.h"
#include "freshet/sql/parser.h"

namespace freshet::sql {
namespace {

//! tests/fuzz/<kind>/<target>, found from this file's path.
std::string fuzz_folder(const std::string& kind, const std::string& target = "sql_parser") {
  std::string file = __FILE__;  // .../tests/core/sql/parser_regression_test.cpp
  for (int i = 0; i < 3; ++i) file = file.substr(0, file.find_last_of('/'));
  return file + "/fuzz/" + kind + "/" + target;
}

std::vector<std::string> files_in(const std::string& folder) {
  std::vector<std::string> files;
  DIR* dir = opendir(folder.c_str());
  if (dir == nullptr) return files;
  while (dirent* entry = readdir(dir)) {
    std::string name = entry->d_name;
    if (name == "." || name == ".." || name == "README.md") continue;
    files.push_back(folder + "/" + name);
  }
  closedir(dir);
  std::sort(files.begin(), files.end());
  return files;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  std::stringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

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
