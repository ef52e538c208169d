// Runtime errors in the words of the program: the expression that failed is
// shown over its input's column names (qualified where two joined tables
// share one), never the binder's $n, and the view (and operator) it failed
// in is named, in 'fail' mode and in the error view of 'null' mode.
#include <gtest/gtest.h>

#include "freshet/pipeline/pipeline.h"
#include "pipeline/pipeline_support.h"

namespace freshet {
namespace {

std::unique_ptr<Pipeline> create(const std::string& program,
                                 sql::RuntimeErrorMode mode = sql::RuntimeErrorMode::kFail) {
  sql::CompileOptions options;
  options.on_runtime_error = mode;
  Result<std::unique_ptr<Pipeline>> created = Pipeline::create(program, options);
  EXPECT_TRUE(created.ok()) << created.status().to_string();
  return created.ok() ? std::move(*created) : nullptr;
}

// The failure of `view` after one step over `rows` ingested into `table`.
std::string failure_after(const std::string& program, const std::string& table, const std::string& rows,
                          const std::string& view) {
  std::unique_ptr<Pipeline> p = create(program);
  if (!p) return "no pipeline";
  testing::must_ingest(*p, table, rows);
  EXPECT_TRUE(p->step().ok());  // a failed view never fails the step
  return p->view_failure(view).message();
}

TEST(RuntimeErrorNamesTest, OverflowNamesTheColumnsAndTheView) {
  EXPECT_EQ(failure_after("CREATE TABLE t (a INT, b INT);"
                          "CREATE MATERIALIZED VIEW v AS SELECT a + b AS s FROM t;",
                          "t", R"([{"insert":{"a":2147483647,"b":1}}])", "v"),
            "view 'v' failed at step 0: map: integer overflow in (a + b)");
}

TEST(RuntimeErrorNamesTest, DivisionByZeroInAWhereNamesTheFilter) {
  EXPECT_EQ(failure_after("CREATE TABLE t (total INT, n INT);"
                          "CREATE MATERIALIZED VIEW v AS SELECT total FROM t WHERE total / n > 1;",
                          "t", R"([{"insert":{"total":5,"n":0}}])", "v"),
            "view 'v' failed at step 0: filter: division by zero in (total / n)");
}

TEST(RuntimeErrorNamesTest, ACastNamesItsColumn) {
  EXPECT_EQ(failure_after("CREATE TABLE t (code VARCHAR);"
                          "CREATE MATERIALIZED VIEW v AS SELECT CAST(code AS INT) AS c FROM t;",
                          "t", R"([{"insert":{"code":"x1"}}])", "v"),
            "view 'v' failed at step 0: map: cannot cast 'x1' to INTEGER in CAST(code AS INTEGER)");
  EXPECT_EQ(failure_after("CREATE TABLE t (qty BIGINT);"
                          "CREATE MATERIALIZED VIEW v AS SELECT CAST(qty AS SMALLINT) AS c FROM t;",
                          "t", R"([{"insert":{"qty":40000}}])", "v"),
            "view 'v' failed at step 0: map: cannot cast 40000 to SMALLINT: out of range in CAST(qty AS SMALLINT)");
}

TEST(RuntimeErrorNamesTest, ACastOfAnIntegerLiteralIsStillNamedACast) {
  // Descriptions show a widened integer literal bare; the CAST that failed is said as written.
  EXPECT_EQ(failure_after("CREATE TABLE t (a INT);"
                          "CREATE MATERIALIZED VIEW v AS SELECT a, CAST(40000 AS SMALLINT) AS c FROM t;",
                          "t", R"([{"insert":{"a":1}}])", "v"),
            "view 'v' failed at step 0: map: cannot cast 40000 to SMALLINT: out of range in CAST(40000 AS SMALLINT)");
}

TEST(RuntimeErrorNamesTest, AFunctionsBadArgumentNamesTheCall) {
  EXPECT_EQ(failure_after("CREATE TABLE t (x DOUBLE);"
                          "CREATE MATERIALIZED VIEW v AS SELECT LN(x) AS l FROM t;",
                          "t", R"([{"insert":{"x":-1}}])", "v"),
            "view 'v' failed at step 0: map: LN of a negative number in ln(x)");
  EXPECT_EQ(
      failure_after("CREATE TABLE t (s VARCHAR, n INT);"
                    "CREATE MATERIALIZED VIEW v AS SELECT SUBSTRING(s, 1, n) AS p FROM t;",
                    "t", R"([{"insert":{"s":"abc","n":-1}}])", "v"),
      "view 'v' failed at step 0: map: negative substring length not allowed in substring(s, 1, CAST(n AS BIGINT))");
}

TEST(RuntimeErrorNamesTest, AJoinsSharedColumnNameIsQualified) {
  // Both tables have `id`: the message says which one.
  const std::string program =
      "CREATE TABLE o (id INT, customer INT, amount INT);"
      "CREATE TABLE c (id INT, credit INT);"
      "CREATE MATERIALIZED VIEW v AS SELECT o.id * c.id AS k, amount / credit AS r "
      "FROM o JOIN c ON o.customer = c.id;";
  std::unique_ptr<Pipeline> p = create(program);
  ASSERT_NE(p, nullptr);
  testing::must_ingest(*p, "c", R"([{"insert":{"id":7,"credit":0}}])");
  testing::must_ingest(*p, "o", R"([{"insert":{"id":1,"customer":7,"amount":10}}])");
  ASSERT_TRUE(p->step().ok());
  EXPECT_EQ(p->view_failure("v").message(), "view 'v' failed at step 0: map: division by zero in (amount / credit)");

  p = create(program);
  testing::must_ingest(*p, "c", R"([{"insert":{"id":65536,"credit":1}}])");
  testing::must_ingest(*p, "o", R"([{"insert":{"id":65536,"customer":65536,"amount":10}}])");
  ASSERT_TRUE(p->step().ok());
  EXPECT_EQ(p->view_failure("v").message(), "view 'v' failed at step 0: map: integer overflow in (o.id * c.id)");
}

TEST(RuntimeErrorNamesTest, AGroupKeyExpressionNamesItsColumns) {
  EXPECT_EQ(failure_after("CREATE TABLE t (a INT, b INT);"
                          "CREATE MATERIALIZED VIEW v AS SELECT a * b AS k, COUNT(*) AS n FROM t GROUP BY a * b;",
                          "t", R"([{"insert":{"a":65536,"b":65536}}])", "v"),
            "view 'v' failed at step 0: map: integer overflow in (a * b)");
}

TEST(RuntimeErrorNamesTest, AViewFailedThroughAViewItReadsNamesThatView) {
  const std::string program =
      "CREATE TABLE t (x INT);"
      "CREATE MATERIALIZED VIEW ratio AS SELECT 36 / COUNT(*) AS r FROM t;"
      "CREATE MATERIALIZED VIEW doubled AS SELECT r * 2 AS d FROM ratio;";
  std::unique_ptr<Pipeline> p = create(program);
  ASSERT_NE(p, nullptr);
  ASSERT_TRUE(p->step().ok());
  EXPECT_EQ(p->view_failure("ratio").message(),
            "view 'ratio' failed at step 0: map: division by zero in (36 / COUNT(*))");
  EXPECT_EQ(p->view_failure("doubled").message(),
            "view 'doubled' failed at step 0: map: division by zero in (36 / COUNT(*)) (in view 'ratio', which it reads)");
}

TEST(RuntimeErrorNamesTest, TheErrorViewShowsTheExpressionByName) {
  std::unique_ptr<Pipeline> p = create(
      "CREATE TABLE t (price INT, qty INT);"
      "CREATE MATERIALIZED VIEW v AS SELECT price * qty AS total FROM t;",
      sql::RuntimeErrorMode::kNull);
  ASSERT_NE(p, nullptr);
  testing::must_ingest(*p, "t", R"([{"insert":{"price":65536,"qty":65536}}])");
  ASSERT_TRUE(p->step().ok());
  Result<QueryResult> listed = p->query("SELECT table_or_view_name, message, metadata FROM error_view");
  ASSERT_TRUE(listed.ok()) << listed.status().to_string();
  ASSERT_EQ(listed->rows.size(), 1u);
  RowReader row(*listed->schema, RowRef(listed->rows[0]));
  EXPECT_EQ(row.get_string(0), "v");
  EXPECT_EQ(row.get_string(1), "integer overflow in (price * qty)");
  EXPECT_NE(std::string(row.get_string(2)).find(R"json("expression":"(price * qty)")json"), std::string::npos)
      << row.get_string(2);
}

}  // namespace
}  // namespace freshet
