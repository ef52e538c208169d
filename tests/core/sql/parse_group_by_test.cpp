// The parser's GROUP BY items (parse_group_by.cpp), QUALIFY and DISTINCT ON:
// trees printed back as SQL (ast_printer.h), and the errors.
#include <gtest/gtest.h>

#include <string>

#include "freshet/sql/parser.h"
#include "sql/ast_printer.h"

namespace freshet::sql {
namespace {

using testing::print;

std::string query_text(std::string_view text) {
  Result<Query> query = parse_query(text);
  if (!query.ok()) return "error: " + query.status().message();
  return print(*query);
}

TEST(ParseGroupByTest, PlainItemsStayPlainExpressions) {
  Result<Query> query = parse_query("SELECT a FROM t GROUP BY a, (b + 1) * 2, (c)");
  ASSERT_TRUE(query.ok()) << query.status().to_string();
  EXPECT_EQ(query->select->group_by.size(), 3u);
  EXPECT_TRUE(query->select->grouping.empty());
  EXPECT_TRUE(query->select->has_group_by);
}

TEST(ParseGroupByTest, ListsRollupCubeAndGroupingSets) {
  EXPECT_EQ(query_text("SELECT a FROM t GROUP BY (a, b), ()"), "SELECT a FROM t GROUP BY (a, b), ()");
  EXPECT_EQ(query_text("SELECT a FROM t GROUP BY ROLLUP(a, (b, c)), CUBE(d)"),
            "SELECT a FROM t GROUP BY ROLLUP(a, (b, c)), CUBE(d)");
  EXPECT_EQ(query_text("SELECT a FROM t GROUP BY GROUPING SETS ((a, b), a, (), ROLLUP(b))"),
            "SELECT a FROM t GROUP BY GROUPING SETS ((a, b), a, (), ROLLUP(b))");
  EXPECT_EQ(query_text("SELECT a FROM t GROUP BY DISTINCT a, CUBE(b)"), "SELECT a FROM t GROUP BY DISTINCT a, CUBE(b)");
}

TEST(ParseGroupByTest, GroupByAll) {
  Result<Query> all = parse_query("SELECT a, COUNT(*) FROM t GROUP BY ALL HAVING COUNT(*) > 1");
  ASSERT_TRUE(all.ok()) << all.status().to_string();
  EXPECT_TRUE(all->select->group_by_all);
  EXPECT_TRUE(all->select->having);
  // `GROUP BY ALL a`: ALL before items is the default quantifier.
  Result<Query> items = parse_query("SELECT a FROM t GROUP BY ALL a");
  ASSERT_TRUE(items.ok());
  EXPECT_FALSE(items->select->group_by_all);
  EXPECT_EQ(items->select->group_by.size(), 1u);
  Result<Query> before_union = parse_query("SELECT a FROM t GROUP BY ALL UNION SELECT b FROM u");
  ASSERT_TRUE(before_union.ok()) << before_union.status().to_string();
  EXPECT_TRUE(before_union->left->select->group_by_all);
}

TEST(ParseGroupByTest, QualifyAndDistinctOn) {
  EXPECT_EQ(query_text("SELECT a FROM t QUALIFY ROW_NUMBER() OVER (ORDER BY a) = 1"),
            "SELECT a FROM t QUALIFY (= row_number() 1)");
  Result<Query> on = parse_query("SELECT DISTINCT ON (a, b) a, c FROM t");
  ASSERT_TRUE(on.ok()) << on.status().to_string();
  EXPECT_EQ(on->select->distinct_on.size(), 2u);
}

TEST(ParseGroupByTest, Errors) {
  EXPECT_EQ(query_text("SELECT a FROM t GROUP BY ROLLUP(a, ())"),
            "error: line 1, column 36: () is not allowed inside ROLLUP or CUBE");
  EXPECT_EQ(query_text("SELECT a FROM t GROUP BY GROUPING SETS (a"),
            "error: line 1, column 42: expected ',' or ')', found end of input");
  EXPECT_EQ(query_text("SELECT a FROM t GROUP BY (a, b"),
            "error: line 1, column 31: expected ',' or ')', found end of input");
}

}  // namespace
}  // namespace freshet::sql
