// Replays every input the input fuzzer (tests/fuzz/json_input_fuzzer.cpp)
// ever crashed on: each must parse or fail with a parse/type error naming a
// record, never crash. Every seed of its corpus must parse. As in the fuzzer,
// an input's first byte picks the options (bit 0: raw, bit 1: newline-
// delimited, bit 2: keyed table, bit 3: CSV) and the rest is the data. The
// folders are found from this file's path (works natively and under node).
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "freshet/format/json_input.h"
#include "support/fuzz_files.h"

namespace freshet::format {
namespace {

std::string fuzz_folder(const std::string& kind) { return freshet::testing::fuzz_folder(kind, "json_input"); }
using freshet::testing::files_in;
using freshet::testing::read_file;

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
