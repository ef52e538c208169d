// The circuit printer on a live pipeline (program_explain.h,
// circuit_printer.h): state rows and bytes grow on the operators that keep
// state, a view's explanation holds only what it depends on, describe()
// names parameters, and the step loop times each operator.
#include "freshet/pipeline/program_explain.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "pipeline/pipeline_support.h"

namespace freshet {
namespace {

constexpr const char* kProgram = R"(
CREATE TABLE orders (id BIGINT NOT NULL, customer BIGINT NOT NULL, amount BIGINT NOT NULL);
CREATE TABLE customers (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR);
CREATE VIEW big AS SELECT id, amount FROM orders WHERE amount > 10;
CREATE VIEW spend AS SELECT c.name, o.amount FROM orders o JOIN customers c ON o.customer = c.id;
CREATE MATERIALIZED VIEW by_name AS SELECT name, SUM(amount) AS total FROM spend GROUP BY name;
CREATE VIEW top2 AS SELECT id, amount FROM orders ORDER BY amount DESC LIMIT 2;
)";

std::unique_ptr<Pipeline> loaded_pipeline() {
  Result<std::unique_ptr<Pipeline>> created = Pipeline::create(kProgram);
  EXPECT_TRUE(created.ok()) << created.status().to_string();
  Pipeline& p = **created;
  testing::must_ingest(p, "customers", R"([{"insert":{"id":1,"name":"ann"}},{"insert":{"id":2,"name":"bob"}}])");
  testing::must_ingest(p, "orders",
                       R"([{"insert":{"id":1,"customer":1,"amount":5}},{"insert":{"id":2,"customer":2,"amount":50}},)"
                       R"({"insert":{"id":3,"customer":1,"amount":20}}])");
  EXPECT_TRUE(p.step().ok());
  return std::move(*created);
}

std::vector<OperatorReport> explained(const Pipeline& p, std::string_view view) {
  Result<std::vector<OperatorReport>> reports = explain_program(p.program(), view);
  EXPECT_TRUE(reports.ok()) << reports.status().to_string();
  return reports.ok() ? *reports : std::vector<OperatorReport>{};
}

const OperatorReport* find_kind(const std::vector<OperatorReport>& reports, std::string_view kind) {
  for (const OperatorReport& r : reports) {
    if (r.kind == kind) return &r;
  }
  return nullptr;
}

TEST(ProgramExplainTest, StateGrowsOnTheOperatorsThatKeepIt) {
  Result<std::unique_ptr<Pipeline>> fresh = Pipeline::create(kProgram);
  ASSERT_TRUE(fresh.ok());
  const std::vector<OperatorReport> fresh_reports = explained(**fresh, "");  // find_kind points into it
  const OperatorReport* empty_join = find_kind(fresh_reports, "join");
  ASSERT_NE(empty_join, nullptr);
  EXPECT_EQ(empty_join->rows, 0u);

  std::unique_ptr<Pipeline> p = loaded_pipeline();
  std::vector<OperatorReport> reports = explained(*p, "");
  const OperatorReport* join = find_kind(reports, "join");
  ASSERT_NE(join, nullptr);
  EXPECT_EQ(join->rows, 0u);  // the sides are the arrangements' (3 orders, 2 customers)
  std::vector<size_t> arranged;
  for (const OperatorReport& r : reports) {
    if (r.kind == "arrange") {
      arranged.push_back(r.rows);
      EXPECT_GT(r.bytes, 0u);
    }
  }
  std::sort(arranged.begin(), arranged.end());
  EXPECT_EQ(arranged, (std::vector<size_t>{2, 3}));
  const OperatorReport* aggregate = find_kind(reports, "aggregate");
  ASSERT_NE(aggregate, nullptr);
  EXPECT_EQ(aggregate->rows, 2u);  // groups ann and bob
  // Keys, calls and conditions are said over the columns' names.
  EXPECT_EQ(aggregate->description, "SUM(amount) by (name)");
  EXPECT_EQ(join->description, "on (customer)");
  const OperatorReport* top = find_kind(reports, "top_k");
  ASSERT_NE(top, nullptr);
  EXPECT_EQ(top->rows, 3u);
  EXPECT_EQ(top->description, "limit 2");
  const OperatorReport* filter = find_kind(reports, "filter");
  ASSERT_NE(filter, nullptr);
  EXPECT_EQ(filter->description, "(amount > 10)");
  EXPECT_EQ(filter->rows, 0u);
  EXPECT_EQ(filter->bytes, 0u);
}

TEST(ProgramExplainTest, AViewListsOnlyWhatItDependsOn) {
  std::unique_ptr<Pipeline> p = loaded_pipeline();
  std::vector<OperatorReport> all = explained(*p, "");
  std::vector<OperatorReport> big = explained(*p, "big");
  ASSERT_FALSE(big.empty());
  EXPECT_LT(big.size(), all.size());
  for (const OperatorReport& r : big) {
    EXPECT_NE(std::find(r.views.begin(), r.views.end(), "big"), r.views.end()) << r.id << " " << r.kind;
  }
  EXPECT_EQ(find_kind(big, "join"), nullptr);
  EXPECT_EQ(find_kind(big, "upsert input"), nullptr);  // customers: not read by big
  EXPECT_NE(find_kind(big, "filter"), nullptr);
  // by_name reads spend: the join serves both, and is what spend's stream is.
  std::vector<OperatorReport> by_name = explained(*p, "by_name");
  const OperatorReport* join = find_kind(by_name, "join");
  ASSERT_NE(join, nullptr);
  EXPECT_NE(std::find(join->views.begin(), join->views.end(), "spend"), join->views.end());
  EXPECT_NE(std::find(join->views.begin(), join->views.end(), "by_name"), join->views.end());
}

TEST(ProgramExplainTest, AnUnknownViewIsAnError) {
  std::unique_ptr<Pipeline> p = loaded_pipeline();
  Result<std::vector<OperatorReport>> reports = explain_program(p->program(), "nope");
  ASSERT_FALSE(reports.ok());
  EXPECT_EQ(reports.status().code(), ErrorCode::kUnknownView);
  EXPECT_EQ(p->explain_json("nope").status().code(), ErrorCode::kUnknownView);
}

TEST(ProgramExplainTest, TheStepTimesEachOperator) {
  std::unique_ptr<Pipeline> p = loaded_pipeline();
  for (const OperatorReport& r : explained(*p, "")) EXPECT_EQ(r.time.total_nanos, 0u) << r.id;  // nobody looked yet
  ASSERT_TRUE(p->explain_json("").ok());  // the first look turns timing on
  testing::must_ingest(*p, "orders", R"([{"insert":{"id":4,"customer":2,"amount":7}}])");
  ASSERT_TRUE(p->step().ok());
  uint64_t total = 0;
  for (const OperatorReport& r : explained(*p, "")) {
    EXPECT_EQ(r.time.total_nanos, r.time.last_step_nanos) << r.id;  // one timed step so far
    total += r.time.total_nanos;
  }
  EXPECT_GT(total, 0u);
  ASSERT_TRUE(p->step().ok());
  uint64_t after = 0;
  for (const OperatorReport& r : explained(*p, "")) after += r.time.total_nanos;
  EXPECT_GT(after, total);
}

TEST(ProgramExplainTest, TextAndJsonNameOperatorsInputsAndViews) {
  std::unique_ptr<Pipeline> p = loaded_pipeline();
  std::vector<OperatorReport> reports = explained(*p, "top2");
  std::string text = circuit_text(reports, /*figures=*/false);
  EXPECT_NE(text.find("top_k limit 2 <- "), std::string::npos) << text;
  EXPECT_NE(text.find("= table orders"), std::string::npos) << text;
  EXPECT_EQ(text.find(" B,"), std::string::npos) << text;  // no figures
  Result<std::string> json = p->explain_json("by_name");
  ASSERT_TRUE(json.ok());
  EXPECT_NE(json->find("\"name\":\"by_name\""), std::string::npos) << *json;
  EXPECT_NE(json->find("\"materialized\":true"), std::string::npos) << *json;
  EXPECT_NE(json->find("\"kind\":\"join\""), std::string::npos) << *json;
}

// A window function's frame other than SQL's default is printed after it,
// with RANGE offsets in the ORDER BY column's terms, so that two windows
// differing only in their frames do not read alike.
TEST(ProgramExplainTest, AWindowSaysItsFrames) {
  Result<std::unique_ptr<Pipeline>> p = Pipeline::create(R"(
CREATE TABLE r (g BIGINT, d DECIMAL(6, 2), x DOUBLE, at TIMESTAMP, v BIGINT);
CREATE VIEW by_d AS SELECT SUM(v) OVER (PARTITION BY g ORDER BY d RANGE BETWEEN 1.5 PRECEDING AND CURRENT ROW) AS s FROM r;
CREATE VIEW by_x AS SELECT MAX(v) OVER (ORDER BY x RANGE BETWEEN 0.25 PRECEDING AND 0.25 FOLLOWING) AS m FROM r;
CREATE VIEW by_at AS SELECT COUNT(*) OVER (ORDER BY at RANGE BETWEEN INTERVAL '90' SECOND PRECEDING AND CURRENT ROW) AS a,
  COUNT(*) OVER (ORDER BY at RANGE BETWEEN INTERVAL '1.5' SECOND PRECEDING AND CURRENT ROW) AS b FROM r;
CREATE VIEW plain AS SELECT SUM(v) OVER (PARTITION BY g ORDER BY d) AS running, SUM(v) OVER (PARTITION BY g) AS whole,
  SUM(v) OVER (PARTITION BY g ORDER BY d ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS by_rows FROM r;
)");
  ASSERT_TRUE(p.ok()) << p.status().to_string();
  auto window_of = [&](std::string_view view) {
    const std::vector<OperatorReport> reports = explained(**p, view);
    std::string text;
    for (const OperatorReport& r : reports) {
      if (r.kind == "window") text += (text.empty() ? "" : " | ") + r.description;
    }
    return text;
  };
  EXPECT_EQ(window_of("by_d"), "SUM (RANGE BETWEEN 1.50 PRECEDING AND CURRENT ROW) partition by (g) order by (d)");
  EXPECT_EQ(window_of("by_x"), "MAX (RANGE BETWEEN 0.25 PRECEDING AND 0.25 FOLLOWING) partition by () order by (x)");
  EXPECT_EQ(window_of("by_at"),
            "COUNT(*) (RANGE BETWEEN INTERVAL '90' SECOND PRECEDING AND CURRENT ROW), "
            "COUNT(*) (RANGE BETWEEN INTERVAL '1.500000' SECOND PRECEDING AND CURRENT ROW) partition by () order by (at)");
  // The defaults (RANGE to CURRENT ROW with ORDER BY, the whole partition
  // without) say nothing; the same frame in ROWS does.
  EXPECT_EQ(window_of("plain"),
            "SUM, SUM (ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) partition by (g) order by (d) | "
            "SUM partition by (g)");
}

}  // namespace
}  // namespace freshet
