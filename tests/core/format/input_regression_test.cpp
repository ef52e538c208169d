// Replays every input the input fuzzer (tests/fuzz/json_input_fuzzer.cpp)
// ever crashed on: each must parse or fail with a parse/type error naming a
// record, never crash. Every seed of its corpus must parse. As in the fuzzer,
// an input's first byte picks the options (bit 0: raw, bit 1: newline-
// delimited, bit 2: keyed table, bit 3: CSV) and the rest is the data. The
// folders are found from this file's path (works natively and under node).
#include <dirent.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "freshet/format/json_input.h"

namespace freshet::format {
namespace {

//! tests/fuzz/<kind>/json_input, found from this file's path.
std::string fuzz_folder(const std::string& kind) {
  std::string file = __FILE__;  // .../tests/core/format/input_regression_test.cpp
  for (int i = 0; i < 3; ++i) file = file.substr(0, file.find_last_of('/'));
  return file + "/fuzz/" + kind + "/json_input";
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

//! The fuzzer's table: every type, and a key (id, day) when keyed.
const Schema& fuzz_schema() {
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

Result<std::vector<ParsedUpdate>> run_input(const std::string& input) {
  uint8_t mode = input.empty() ? 0 : static_cast<uint8_t>(input[0]);
  std::string_view text = input.empty() ? std::string_view() : std::string_view(input).substr(1);
  TableShape table{&fuzz_schema(), (mode & 4) != 0 ? std::vector<size_t>{0, 9} : std::vector<size_t>{}};
  if ((mode & 8) != 0) return parse_csv(text, table);
  return parse_json(text, table,
                    {(mode & 1) != 0 ? UpdateFormat::kRaw : UpdateFormat::kInsertDelete, (mode & 2) == 0});
}

TEST(InputRegressionTest, EveryFuzzerFindingParsesOrFails) {
  for (const std::string& path : files_in(fuzz_folder("regressions"))) {
    SCOPED_TRACE(path);
    auto result = run_input(read_file(path));
    if (result.ok()) continue;
    EXPECT_TRUE(result.status().code() == ErrorCode::kParseError || result.status().code() == ErrorCode::kTypeError)
        << result.status().to_string();
  }
}

TEST(InputRegressionTest, EverySeedOfTheFuzzCorpusParses) {
  std::vector<std::string> files = files_in(fuzz_folder("corpus"));
  ASSERT_FALSE(files.empty()) << "no inputs in " << fuzz_folder("corpus");
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    auto result = run_input(read_file(path));
    EXPECT_TRUE(result.ok()) << result.status().to_string();
    if (result.ok()) {
      EXPECT_FALSE(result->empty());
    }
  }
}

}  // namespace
}  // namespace freshet::format
