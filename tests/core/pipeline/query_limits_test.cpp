// Pipeline::query's bounds (QueryLimits, pipeline_query.cpp): the text, the
// work (rows and bytes its operators build, circuit/work_meter.h) and the
// answer (rows counted by weight, bytes). Past one: LIMIT_EXCEEDED naming
// it, and the pipeline answers on, unchanged. A cross join of two 2,000-row
// tables (4,000,000 pairs) is the runaway query.
#include <gtest/gtest.h>

#include <string>

#include "freshet/circuit/work_meter.h"
#include "freshet/pipeline/pipeline.h"
#include "pipeline/pipeline_support.h"

namespace freshet {
namespace {

std::unique_ptr<Pipeline> pipeline_with_rows(int rows) {
  Result<std::unique_ptr<Pipeline>> created = Pipeline::create(
      "CREATE TABLE t (id BIGINT NOT NULL, name VARCHAR) WITH ('materialized' = 'true');"
      "CREATE MATERIALIZED VIEW v AS SELECT * FROM t;");
  EXPECT_TRUE(created.ok()) << created.status().to_string();
  std::unique_ptr<Pipeline> p = std::move(*created);
  std::string json = "[";
  for (int i = 0; i < rows; ++i) {
    if (i) json += ',';
    json += R"({"insert":{"id":)" + std::to_string(i) + R"(,"name":"row )" + std::to_string(i) + R"("}})";
  }
  testing::must_ingest(*p, "t", json + "]");
  EXPECT_TRUE(p->step().ok());
  return p;
}

TEST(QueryLimitsTest, DefaultsAnswerOrdinaryQueries) {
  auto p = pipeline_with_rows(2000);
  Result<QueryResult> all = p->query("SELECT * FROM v");
  ASSERT_TRUE(all.ok()) << all.status().to_string();
  EXPECT_EQ(all->rows.size(), 2000u);
  Result<QueryResult> joined = p->query("SELECT COUNT(*) AS n FROM v a JOIN t b ON a.id = b.id");
  ASSERT_TRUE(joined.ok()) << joined.status().to_string();
}

TEST(QueryLimitsTest, ARunawayCrossJoinStopsAtTheWorkBound) {
  auto p = pipeline_with_rows(2000);
  // 4,000,000 pairs to compare (COUNT(*) alone would not: empty rows consolidate to one of weight 2,000).
  Result<QueryResult> result = p->query("SELECT COUNT(*) AS n FROM v a, v b WHERE a.name <> b.name");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(result.status().message().find("more than 4000000 rows on the way"), std::string::npos)
      << result.status().message();
  // A join fused with its aggregate builds no entry per pair: its pairs are counted as they are matched.
  // (An inner equi-join without residual is fused; every id / 2000 is 0: 4,000,000 pairs.)
  Result<QueryResult> fused = p->query("SELECT a.id, SUM(b.id) AS s FROM v a JOIN v b ON a.id / 2000 = b.id / 2000 GROUP BY a.id");
  ASSERT_FALSE(fused.ok());
  EXPECT_EQ(fused.status().code(), ErrorCode::kLimitExceeded);
  // The bound, not the query, refused it: within a raised bound the same query answers.
  QueryLimits generous;
  generous.max_work_rows = 20'000'000;
  generous.max_work_bytes = uint64_t{1} << 30;
  Result<QueryResult> counted = p->query("SELECT COUNT(*) AS n FROM v a, v b WHERE a.name <> b.name", generous);
  ASSERT_TRUE(counted.ok()) << counted.status().to_string();
  ASSERT_EQ(counted->rows.size(), 1u);
  // No meter is left active on the thread after a query, refused or not.
  EXPECT_EQ(active_work_meter(), nullptr);
  // The pipeline answers on, unchanged.
  Result<QueryResult> again = p->query("SELECT * FROM v");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->rows.size(), 2000u);
}

TEST(QueryLimitsTest, TheWorkBoundCountsBytesAndTheInputsCopies) {
  auto p = pipeline_with_rows(2000);
  QueryLimits limits;
  limits.max_work_bytes = 10'000;  // less than the copy of t itself
  Result<QueryResult> result = p->query("SELECT id FROM v WHERE id = 1", limits);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(result.status().message().find("10000 bytes on the way"), std::string::npos) << result.status().message();
}

TEST(QueryLimitsTest, TheAnswerIsBoundedByRowsCountedByWeightAndByBytes) {
  auto p = pipeline_with_rows(50);
  QueryLimits limits;
  limits.max_result_rows = 49;
  Result<QueryResult> result = p->query("SELECT * FROM v", limits);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_NE(result.status().message().find("more than 49 rows"), std::string::npos) << result.status().message();
  limits.max_result_rows = 50;
  EXPECT_TRUE(p->query("SELECT * FROM v", limits).ok());
  // One row of weight 50 (the same value 50 times) counts 50.
  limits.max_result_rows = 10;
  Result<QueryResult> weighted = p->query("SELECT 1 AS one FROM v", limits);
  ASSERT_FALSE(weighted.ok());
  EXPECT_EQ(weighted.status().code(), ErrorCode::kLimitExceeded);
  limits = QueryLimits();
  limits.max_result_bytes = 100;
  Result<QueryResult> wide = p->query("SELECT * FROM v", limits);
  ASSERT_FALSE(wide.ok());
  EXPECT_NE(wide.status().message().find("more than 100 bytes"), std::string::npos) << wide.status().message();
}

TEST(QueryLimitsTest, TheTextIsBounded) {
  auto p = pipeline_with_rows(1);
  QueryLimits limits;
  limits.max_sql_bytes = 20;
  Result<QueryResult> result = p->query("SELECT id, name FROM v WHERE id > 0", limits);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), ErrorCode::kLimitExceeded);
}

}  // namespace
}  // namespace freshet
