#include "freshet/common/status.h"

#include <set>
#include <string>

#include <gtest/gtest.h>

#include "freshet/common/hash.h"

namespace freshet {
namespace {

TEST(StatusTest, CarriesCodeAndMessage) {
  Status status(ErrorCode::kSqlError, "line 1, column 8: expected a table name");
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.code(), ErrorCode::kSqlError);
  EXPECT_EQ(status.to_string(), "SQL_ERROR: line 1, column 8: expected a table name");
  EXPECT_TRUE(Status::OK().ok());
  EXPECT_EQ(Status::OK().to_string(), "OK");
}

TEST(StatusTest, ResultHoldsValueOrError) {
  Result<std::string> good(std::string("value"));
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, "value");
  EXPECT_EQ(good->size(), 5u);
  Result<std::string> bad(Status(ErrorCode::kUnknownTable, "no table t"));
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), ErrorCode::kUnknownTable);
}

Status fails_then_continues(bool fail, int* reached) {
  FRESHET_RETURN_IF_ERROR(fail ? Status(ErrorCode::kInternal, "stop") : Status::OK());
  *reached = 1;
  return Status::OK();
}

TEST(StatusTest, ReturnIfErrorStopsEarly) {
  int reached = 0;
  EXPECT_EQ(fails_then_continues(true, &reached).code(), ErrorCode::kInternal);
  EXPECT_EQ(reached, 0);
  EXPECT_TRUE(fails_then_continues(false, &reached).ok());
  EXPECT_EQ(reached, 1);
}

TEST(StatusTest, EveryCodeHasADistinctName) {
  // The JS layer mirrors these names; two codes must never share one.
  std::set<std::string> names;
  for (int code = 0; code <= static_cast<int>(ErrorCode::kInternal); ++code) {
    names.insert(error_code_name(static_cast<ErrorCode>(code)));
  }
  EXPECT_EQ(names.size(), static_cast<size_t>(ErrorCode::kInternal) + 1);
  EXPECT_STREQ(error_code_name(ErrorCode::kNotMaterialized), "NOT_MATERIALIZED");
  EXPECT_STREQ(error_code_name(ErrorCode::kCheckpointCorrupt), "CHECKPOINT_CORRUPT");
}

TEST(HashTest, DependsOnEveryByteAndTheLength) {
  std::string a = "abcdefghijk", b = a;
  b[9] = 'X';
  auto hash = [](const std::string& s) { return hash_bytes(reinterpret_cast<const uint8_t*>(s.data()), s.size()); };
  EXPECT_NE(hash(a), hash(b));
  EXPECT_NE(hash(std::string("a\0", 2)), hash(std::string("a")));
  EXPECT_EQ(hash(a), hash(std::string("abcdefghijk")));
}

}  // namespace
}  // namespace freshet
