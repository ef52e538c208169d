// The type a bare NULL takes from its context (docs/sql.md, "The type of
// NULL"): the view column types the compiler gives, and the errors where a
// NULL is typed (CAST) or nothing decides. The values are null_typing.test's
// and the differential test's (sqlite_differential_null_typing.cpp).
#include <gtest/gtest.h>

#include <string>

#include "freshet/sql/compiler.h"

namespace freshet::sql {
namespace {

const char* kTable = "CREATE TABLE t (x INT, b BIGINT, s VARCHAR, d DATE, m DECIMAL(6, 2));\n";

// The column types of view v defined by `query` over t, comma separated.
std::string types_of(const std::string& query) {
  Result<std::unique_ptr<CompiledProgram>> compiled =
      compile_program(std::string(kTable) + "CREATE VIEW v AS " + query + ";");
  if (!compiled.ok()) return "error: " + compiled.status().message();
  const CompiledView* view = (*compiled)->find_view("v");
  std::string text;
  for (size_t c = 0; c < view->schema->size(); ++c) text += (c ? ", " : "") + view->schema->type(c).to_string();
  return text;
}

TEST(NullTypingTest, CaseOfOnlyNullsTakesTheContextsType) {
  EXPECT_EQ(types_of("SELECT CASE WHEN x > 0 THEN NULL ELSE NULL END + 1 FROM t"), "INTEGER");
  EXPECT_EQ(types_of("SELECT CASE WHEN x > 0 THEN NULL ELSE NULL END + b FROM t"), "BIGINT");
  EXPECT_EQ(types_of("SELECT CASE WHEN x > 0 THEN NULL END || 'a' FROM t"), "VARCHAR");
  EXPECT_EQ(types_of("SELECT CASE x WHEN 1 THEN NULL END < d FROM t"), "BOOLEAN");
  EXPECT_EQ(types_of("SELECT CASE WHEN x > 0 THEN NULL ELSE NULL END FROM t"), "INTEGER");
}

TEST(NullTypingTest, CastNullIsTyped) {
  EXPECT_EQ(types_of("SELECT CASE WHEN x > 0 THEN NULL ELSE CAST(NULL AS BIGINT) END + 1 FROM t"), "BIGINT");
  EXPECT_EQ(types_of("SELECT CASE WHEN x > 0 THEN NULL ELSE CAST(NULL AS INTEGER) END || 'a' FROM t"),
            "error: line 2, column 82: || needs VARCHAR operands, not INTEGER");
  EXPECT_EQ(types_of("SELECT CAST(NULL AS INTEGER) || s FROM t"),
            "error: line 2, column 47: || needs VARCHAR operands, not INTEGER");
  EXPECT_EQ(types_of("SELECT COALESCE(CAST(NULL AS DATE), s) FROM t"),
            "error: line 2, column 25: coalesce() mixes DATE and VARCHAR");
  EXPECT_EQ(types_of("SELECT CAST(NULL AS VARCHAR) FROM t"), "VARCHAR");
}

TEST(NullTypingTest, NullAndATypedBranch) {
  EXPECT_EQ(types_of("SELECT CASE WHEN x > 0 THEN NULL ELSE m END * 2 FROM t"), "DECIMAL(16, 2)");
  EXPECT_EQ(types_of("SELECT CASE WHEN x > 0 THEN s END || 'a', CASE WHEN x > 0 THEN NULL ELSE 1.5 END FROM t"),
            "VARCHAR, DECIMAL(2, 1)");
}

TEST(NullTypingTest, FunctionsOfNulls) {
  EXPECT_EQ(types_of("SELECT COALESCE(NULL, NULL, 1), COALESCE(NULL, s), COALESCE(NULL, NULL) || 'a' FROM t"),
            "INTEGER NOT NULL, VARCHAR, VARCHAR");
  EXPECT_EQ(types_of("SELECT NULLIF(NULL, s), NULLIF(NULL, NULL) + b, NULLIF(x, NULL) FROM t"),
            "VARCHAR, BIGINT, INTEGER");
  EXPECT_EQ(types_of("SELECT GREATEST(NULL, d), LEAST(NULL, NULL) || s, GREATEST(NULL, x, b) FROM t"),
            "DATE, VARCHAR, BIGINT");
  EXPECT_EQ(types_of("SELECT x IN (NULL, 1, 2), x IN (NULL), NULL IN (s, 'a') FROM t"), "BOOLEAN, BOOLEAN, BOOLEAN");
  EXPECT_EQ(types_of("SELECT SUM(CASE WHEN x > 0 THEN NULL END), MAX(COALESCE(NULL, NULL)) FROM t"),
            "INTEGER, INTEGER");
}

TEST(NullTypingTest, ColumnsOfNullsMeetTheOtherSide) {
  EXPECT_EQ(types_of("SELECT NULL AS a, NULL + 1 AS b"), "INTEGER, INTEGER");
  EXPECT_EQ(types_of("VALUES (1, NULL), (NULL, 'a')"), "INTEGER, VARCHAR");
  EXPECT_EQ(types_of("VALUES (NULL, 1), (NULL, 2)"), "INTEGER, INTEGER NOT NULL");
  EXPECT_EQ(types_of("SELECT s, d FROM t UNION SELECT NULL, CASE WHEN TRUE THEN NULL END FROM t"), "VARCHAR, DATE");
  EXPECT_EQ(types_of("SELECT NULL, NULL FROM t UNION ALL SELECT s, m FROM t"), "VARCHAR, DECIMAL(6, 2)");
  EXPECT_EQ(types_of("VALUES (NULL), (NULL) EXCEPT SELECT s FROM t"), "VARCHAR");
  EXPECT_EQ(types_of("SELECT d FROM t INTERSECT SELECT COALESCE(NULL, NULL) FROM t"), "DATE");
  EXPECT_EQ(types_of("SELECT x, NULL FROM t GROUP BY x UNION SELECT 1, s FROM t"), "INTEGER, VARCHAR");
  EXPECT_EQ(types_of("SELECT DISTINCT NULL, x FROM t UNION SELECT d, 1 FROM t"), "DATE, INTEGER");
  // A set operation of only NULL columns is one too, for the next one.
  EXPECT_EQ(types_of("SELECT NULL UNION SELECT NULL UNION SELECT s FROM t"), "VARCHAR");
  EXPECT_EQ(types_of("(SELECT NULL FROM t EXCEPT SELECT NULL FROM t) UNION ALL SELECT d FROM t"), "DATE");
}

TEST(NullTypingTest, NothingDecides) {
  EXPECT_EQ(types_of("SELECT NULL + NULL FROM t"), "error: line 2, column 30: arithmetic on NULL and NULL has no "
                                                   "type: CAST one of them");
  EXPECT_EQ(types_of("SELECT NULL = NULL, NOT NULL, NULL || NULL FROM t"), "BOOLEAN, BOOLEAN, VARCHAR");
}

}  // namespace
}  // namespace freshet::sql
