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
#include "../../fuzz/json_input_harness.h"
#include "support/fuzz_files.h"

namespace freshet::format {
namespace {

std::string fuzz_folder(const std::string& kind) { return freshet::testing::fuzz_folder(kind, "json_input"); }
using freshet::testing::files_in;
using freshet::testing::read_file;

Result<ParsedUpdates> run_input(const std::string& input) { return fuzzing::parse_fuzz_input(input); }

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
