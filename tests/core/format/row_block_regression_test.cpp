// Replays every input the row block fuzzer (tests/fuzz/row_block_fuzzer.cpp)
// ever crashed on: each must read or fail with a parse/type error, never
// crash. Every seed of its corpus (blocks the JS writer made,
// tests/fuzz/make_row_block_seeds.mjs) must read. As in the fuzzer, an
// input's first byte picks the table and the rest is the block.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "../../fuzz/row_block_harness.h"
#include "support/fuzz_files.h"

namespace freshet::format {
namespace {

std::string fuzz_folder(const std::string& kind) { return freshet::testing::fuzz_folder(kind, "row_block"); }
using freshet::testing::files_in;
using freshet::testing::read_file;

// As the fuzzer checks: every row read decodes and is canonical (encoding
// its values again gives the same bytes), or the block fails cleanly.
TEST(RowBlockRegressionTest, EveryFuzzerFindingReadsOrFails) {
  std::vector<std::string> files = files_in(fuzz_folder("regressions"));
  EXPECT_FALSE(files.empty());
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    std::string input = read_file(path);
    auto result = fuzzing::read_fuzz_block(input);
    if (!result.ok()) {
      EXPECT_TRUE(result.status().code() == ErrorCode::kParseError || result.status().code() == ErrorCode::kTypeError)
          << result.status().to_string();
      continue;
    }
    EXPECT_TRUE(fuzzing::updates_are_sound(*result, fuzzing::fuzz_table(static_cast<uint8_t>(input[0]))));
  }
}

TEST(RowBlockRegressionTest, EverySeedOfTheFuzzCorpusReads) {
  std::vector<std::string> files = files_in(fuzz_folder("corpus"));
  ASSERT_FALSE(files.empty()) << "no inputs in " << fuzz_folder("corpus");
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    auto result = fuzzing::read_fuzz_block(read_file(path));
    ASSERT_TRUE(result.ok()) << result.status().to_string();
    EXPECT_FALSE(result->empty());
  }
}

}  // namespace
}  // namespace freshet::format
