// The evaluator's core: constructors, rendering, reading and writing rows,
// NULL and three-valued logic (AND, OR, NOT, IS NULL, IN, CASE, COALESCE),
// comparisons, and sticky errors.
#include "freshet/sql/expression.h"

#include <gtest/gtest.h>

#include "sql/expression_support.h"

namespace freshet::sql {
namespace {

using namespace testing;  // NOLINT: the test helpers

// TRUE, FALSE or NULL as a BOOLEAN literal.
enum class Tv { kTrue, kFalse, kNull };
ExprPtr truth(Tv value) {
  if (value == Tv::kNull) return null_of(SqlType::boolean());
  return boolean(value == Tv::kTrue);
}
const char* truth_text(Tv value) { return value == Tv::kTrue ? "TRUE" : value == Tv::kFalse ? "FALSE" : "NULL"; }

class ExpressionTest : public EvaluatorHarness {};

TEST_F(ExpressionTest, RendersReadably) {
  EXPECT_EQ(arithmetic(AstOperator::kAdd, column_expr(0, SqlType::bigint()), integer(1))->to_string(), "($0 + 1)");
  EXPECT_EQ(cast(column_expr(2, SqlType::integer()), SqlType::double_precision(false))->to_string(),
            "CAST($2 AS DOUBLE)");
  EXPECT_EQ(cast(column_expr(2, SqlType::integer()), SqlType::decimal(10, 2))->to_string(),
            "CAST($2 AS DECIMAL(10, 2))");
  EXPECT_EQ(text("abc")->to_string(), "'abc'");
  EXPECT_EQ(text("it's")->to_string(), "'it''s'");
  ExprPtr is_not_null =
      make_expr(ExprKind::kIsNull, SqlType::boolean(false), exprs(column_expr(1, SqlType::varchar())));
  is_not_null->negated = true;
  EXPECT_EQ(is_not_null->to_string(), "($1 IS NOT NULL)");
  EXPECT_EQ(call(ScalarFunction::kSubstring, SqlType::varchar(),
                 exprs(column_expr(0, SqlType::varchar()), integer(2), integer(3)))
                ->to_string(),
            "substring($0, 2, 3)");
  EXPECT_EQ(call(ScalarFunction::kConcat, SqlType::varchar(), exprs(column_expr(0, SqlType::varchar()), text("x")))
                ->to_string(),
            "($0 || 'x')");
  EXPECT_EQ(negate(column_expr(0, SqlType::bigint()))->to_string(), "(-$0)");
  EXPECT_EQ(compare(AstOperator::kNotEqual, column_expr(0, SqlType::bigint()), integer(1))->to_string(), "($0 <> 1)");
  EXPECT_EQ(make_expr(ExprKind::kAnd, SqlType::boolean(), exprs(boolean(true), truth(Tv::kNull), boolean(false)))
                ->to_string(),
            "(TRUE AND NULL AND FALSE)");
  ExprPtr in = make_expr(ExprKind::kInList, SqlType::boolean(),
                         exprs(column_expr(0, SqlType::bigint()), integer(1), integer(2)));
  in->negated = true;
  EXPECT_EQ(in->to_string(), "($0 NOT IN (1, 2))");
  ExprPtr when = make_expr(ExprKind::kCase, SqlType::bigint(), exprs(boolean(true), integer(1), integer(2)));
  when->has_else = true;
  EXPECT_EQ(when->to_string(), "CASE WHEN TRUE THEN 1 ELSE 2 END");
  EXPECT_EQ(like(column_expr(1, SqlType::varchar()), text("a%"), true)->to_string(), "($1 NOT LIKE 'a%')");
  EXPECT_EQ(make_expr(ExprKind::kCoalesce, SqlType::bigint(), exprs(column_expr(0, SqlType::bigint()), integer(0)))
                ->to_string(),
            "coalesce($0, 0)");
  EXPECT_EQ(extract(ExtractField::kYear, column_expr(5, SqlType::date()))->to_string(), "extract(YEAR FROM $5)");
  EXPECT_EQ(date("2024-01-02")->to_string(), "DATE '2024-01-02'");
  EXPECT_EQ(timestamp("2024-01-02 10:00:00")->to_string(), "TIMESTAMP '2024-01-02 10:00:00'");
  EXPECT_EQ(decimal("12.50", 10, 2)->to_string(), "12.50");
  EXPECT_EQ(floating(1.5)->to_string(), "1.5");
  EXPECT_EQ(floating(0.1)->to_string(), "0.1");
  EXPECT_EQ(null_of(SqlType::bigint())->to_string(), "NULL");
  EXPECT_EQ(call(ScalarFunction::kRound, SqlType::double_precision(),
                 exprs(column_expr(2, SqlType::double_precision()), integer(2, SqlType::integer(false))))
                ->to_string(),
            "round($2, 2)");
}

TEST_F(ExpressionTest, LiteralsTakeTheirTypes) {
  EXPECT_EQ(run(literal_expr(Value::bigint(5), SqlType::decimal(10, 2))), "5.00");
  EXPECT_EQ(run(literal_expr(Value::decimal(125, 2), SqlType::decimal(10, 1))), "1.3");
  EXPECT_EQ(run(literal_expr(Value::bigint(3), SqlType::double_precision())), "3");
  EXPECT_EQ(run(literal_expr(Value::null(TypeId::kBigInt), SqlType::bigint())), "NULL");
  EXPECT_EQ(run(null_of(SqlType::varchar())), "NULL");
}

TEST_F(ExpressionTest, StringLiteralSurvivesMovingTheExpr) {
  ExprPtr short_literal = text("ab");  // small enough for the string's inline buffer
  Expr moved = std::move(*short_literal);
  short_literal.reset();
  Datum value = evaluate(moved);
  EXPECT_EQ(value.string, "ab");
}

TEST_F(ExpressionTest, ScratchStringsStayValidUntilStartRow) {
  ExprPtr first = call(ScalarFunction::kUpper, SqlType::varchar(), exprs(text("first string")));
  ExprPtr second = call(ScalarFunction::kUpper, SqlType::varchar(), exprs(text("second string")));
  RowReader row(empty_schema_, RowRef());
  evaluator_.start_row();
  Datum a = evaluator_.evaluate(*first, row);
  Datum b = evaluator_.evaluate(*second, row);
  EXPECT_EQ(a.string, "FIRST STRING");
  EXPECT_EQ(b.string, "SECOND STRING");
}

TEST_F(ExpressionTest, ReadsAndWritesEveryType) {
  Schema schema({{"b", SqlType::boolean()},
                 {"t", SqlType::tinyint()},
                 {"s", SqlType::smallint()},
                 {"i", SqlType::integer()},
                 {"l", SqlType::bigint()},
                 {"r", SqlType::real()},
                 {"d", SqlType::double_precision()},
                 {"m", SqlType::decimal(10, 2)},
                 {"v", SqlType::varchar()},
                 {"dt", SqlType::date()},
                 {"ts", SqlType::timestamp()}});
  std::vector<Value> values = {Value::boolean(true),
                               Value::integer(TypeId::kTinyInt, -5),
                               Value::integer(TypeId::kSmallInt, 300),
                               Value::integer(TypeId::kInt, -70000),
                               Value::bigint(int64_t{1} << 40),
                               Value::floating(TypeId::kReal, 0.5),
                               Value::double_precision(-2.25),
                               Value::decimal(-1250, 2),
                               Value::varchar("héllo"),
                               Value::date(19000),
                               Value::timestamp(1'700'000'000'123'000)};
  for (bool nulls : {false, true}) {
    std::vector<Value> row_values = values;
    if (nulls) {
      for (size_t c = 0; c < row_values.size(); ++c) row_values[c] = Value::null(schema.type(c).id);
    }
    std::string bytes = encode_row(schema, row_values);
    RowReader reader(schema, RowRef(bytes));
    RowBuilder builder(schema);
    evaluator_.start_row();
    for (size_t c = 0; c < schema.size(); ++c) {
      Datum read = Evaluator::read(reader, c);
      Datum evaluated = evaluator_.evaluate(*column_expr(c, schema.type(c)), reader);
      EXPECT_EQ(show(read, schema.type(c)), show(evaluated, schema.type(c)));
      EXPECT_EQ(read.null, nulls);
      Evaluator::write(evaluated, schema.type(c), c, builder);
    }
    EXPECT_EQ(builder.finish().to_bytes(), bytes);
  }
}

TEST_F(ExpressionTest, AndOrNotFollowThreeValuedLogic) {
  const Tv all[] = {Tv::kTrue, Tv::kFalse, Tv::kNull};
  for (Tv a : all) {
    for (Tv b : all) {
      const char* expected_and = (a == Tv::kFalse || b == Tv::kFalse) ? "FALSE"
                                 : (a == Tv::kNull || b == Tv::kNull) ? "NULL"
                                                                      : "TRUE";
      const char* expected_or = (a == Tv::kTrue || b == Tv::kTrue)   ? "TRUE"
                                : (a == Tv::kNull || b == Tv::kNull) ? "NULL"
                                                                     : "FALSE";
      EXPECT_EQ(run(make_expr(ExprKind::kAnd, SqlType::boolean(), exprs(truth(a), truth(b)))), expected_and)
          << truth_text(a) << " AND " << truth_text(b);
      EXPECT_EQ(run(make_expr(ExprKind::kOr, SqlType::boolean(), exprs(truth(a), truth(b)))), expected_or)
          << truth_text(a) << " OR " << truth_text(b);
    }
    const char* expected_not = a == Tv::kTrue ? "FALSE" : a == Tv::kFalse ? "TRUE" : "NULL";
    EXPECT_EQ(run(make_expr(ExprKind::kNot, SqlType::boolean(), exprs(truth(a)))), expected_not);
  }
  EXPECT_EQ(
      run(make_expr(ExprKind::kAnd, SqlType::boolean(), exprs(truth(Tv::kTrue), truth(Tv::kNull), truth(Tv::kFalse)))),
      "FALSE");
  EXPECT_EQ(
      run(make_expr(ExprKind::kOr, SqlType::boolean(), exprs(truth(Tv::kFalse), truth(Tv::kNull), truth(Tv::kTrue)))),
      "TRUE");
  EXPECT_EQ(
      run(make_expr(ExprKind::kAnd, SqlType::boolean(), exprs(truth(Tv::kTrue), truth(Tv::kTrue), truth(Tv::kTrue)))),
      "TRUE");
}

TEST_F(ExpressionTest, AndOrStopAtTheDecidingChild) {
  auto divide_by_zero_is_one = [] {
    return compare(AstOperator::kEqual, arithmetic(AstOperator::kDivide, integer(1), integer(0)), integer(1));
  };
  EXPECT_EQ(run(make_expr(ExprKind::kAnd, SqlType::boolean(), exprs(boolean(false), divide_by_zero_is_one()))),
            "FALSE");
  EXPECT_EQ(run(make_expr(ExprKind::kOr, SqlType::boolean(), exprs(boolean(true), divide_by_zero_is_one()))), "TRUE");
}

TEST_F(ExpressionTest, IsNullIsNeverNull) {
  for (bool negated : {false, true}) {
    ExprPtr on_null = make_expr(ExprKind::kIsNull, SqlType::boolean(false), exprs(null_of(SqlType::bigint())));
    ExprPtr on_value = make_expr(ExprKind::kIsNull, SqlType::boolean(false), exprs(integer(1)));
    on_null->negated = on_value->negated = negated;
    EXPECT_EQ(run(on_null), negated ? "FALSE" : "TRUE");
    EXPECT_EQ(run(on_value), negated ? "TRUE" : "FALSE");
  }
}

// x [NOT] IN (items), items given as integers with -1 meaning NULL.
ExprPtr in_list(ExprPtr needle, std::vector<int64_t> items, bool negated) {
  std::vector<ExprPtr> children = exprs(std::move(needle));
  for (int64_t item : items) children.push_back(item < 0 ? null_of(SqlType::bigint()) : integer(item));
  ExprPtr expr = make_expr(ExprKind::kInList, SqlType::boolean(), std::move(children));
  expr->negated = negated;
  return expr;
}

TEST_F(ExpressionTest, InListFollowsSqlNullRules) {
  EXPECT_EQ(run(in_list(integer(1), {1, 2}, false)), "TRUE");
  EXPECT_EQ(run(in_list(integer(3), {1, 2}, false)), "FALSE");
  EXPECT_EQ(run(in_list(integer(1), {-1, 1}, false)), "TRUE");
  EXPECT_EQ(run(in_list(integer(3), {1, -1}, false)), "NULL");
  EXPECT_EQ(run(in_list(null_of(SqlType::bigint()), {1, 2}, false)), "NULL");
  EXPECT_EQ(run(in_list(integer(1), {1, 2}, true)), "FALSE");
  EXPECT_EQ(run(in_list(integer(3), {1, 2}, true)), "TRUE");
  EXPECT_EQ(run(in_list(integer(1), {-1, 1}, true)), "FALSE");
  EXPECT_EQ(run(in_list(integer(3), {1, -1}, true)), "NULL");
  EXPECT_EQ(run(in_list(null_of(SqlType::bigint()), {1}, true)), "NULL");
  ExprPtr strings = make_expr(ExprKind::kInList, SqlType::boolean(), exprs(text("b"), text("a"), text("b")));
  EXPECT_EQ(run(strings), "TRUE");
}

TEST_F(ExpressionTest, CaseTakesTheFirstTrueBranch) {
  auto make_case = [](Tv first, Tv second, bool with_else) {
    std::vector<ExprPtr> children = exprs(truth(first), integer(1), truth(second), integer(2));
    if (with_else) children.push_back(integer(3));
    ExprPtr expr = make_expr(ExprKind::kCase, SqlType::bigint(), std::move(children));
    expr->has_else = with_else;
    return expr;
  };
  EXPECT_EQ(run(make_case(Tv::kTrue, Tv::kTrue, true)), "1");
  EXPECT_EQ(run(make_case(Tv::kFalse, Tv::kTrue, true)), "2");
  EXPECT_EQ(run(make_case(Tv::kNull, Tv::kTrue, true)), "2");  // NULL is not true
  EXPECT_EQ(run(make_case(Tv::kNull, Tv::kFalse, true)), "3");
  EXPECT_EQ(run(make_case(Tv::kFalse, Tv::kNull, false)), "NULL");
}

TEST_F(ExpressionTest, CoalesceTakesTheFirstNonNull) {
  EXPECT_EQ(
      run(make_expr(ExprKind::kCoalesce, SqlType::bigint(), exprs(null_of(SqlType::bigint()), integer(2), integer(3)))),
      "2");
  EXPECT_EQ(run(make_expr(ExprKind::kCoalesce, SqlType::bigint(),
                          exprs(null_of(SqlType::bigint()), null_of(SqlType::bigint())))),
            "NULL");
  // Later arguments are not evaluated once a value is found.
  EXPECT_EQ(run(make_expr(ExprKind::kCoalesce, SqlType::bigint(),
                          exprs(integer(1), arithmetic(AstOperator::kDivide, integer(1), integer(0))))),
            "1");
}

TEST_F(ExpressionTest, ComparesEveryType) {
  struct Case {
    ExprPtr (*low)();
    ExprPtr (*high)();
  };
  const Case cases[] = {
      {[] { return integer(-3); }, [] { return integer(2); }},
      {[] { return integer(-3, SqlType::tinyint(false)); }, [] { return integer(2, SqlType::tinyint(false)); }},
      {[] { return floating(-0.5); }, [] { return floating(0.25); }},
      {[] { return decimal("1.05", 10, 2); }, [] { return decimal("1.50", 10, 2); }},
      {[] { return text("B"); }, [] { return text("a"); }},  // bytes: 'B' < 'a'
      {[] { return text("ab"); }, [] { return text("abc"); }},
      {[] { return text("z"); }, [] { return text("é"); }},  // 0x7a < 0xc3
      {[] { return boolean(false); }, [] { return boolean(true); }},
      {[] { return date("2023-12-31"); }, [] { return date("2024-01-01"); }},
      {[] { return timestamp("2024-01-01 00:00:00"); }, [] { return timestamp("2024-01-01 00:00:00.000001"); }},
  };
  for (const Case& c : cases) {
    std::string name = c.low()->to_string() + " vs " + c.high()->to_string();
    EXPECT_EQ(run(compare(AstOperator::kLess, c.low(), c.high())), "TRUE") << name;
    EXPECT_EQ(run(compare(AstOperator::kLess, c.high(), c.low())), "FALSE") << name;
    EXPECT_EQ(run(compare(AstOperator::kLessEqual, c.low(), c.low())), "TRUE") << name;
    EXPECT_EQ(run(compare(AstOperator::kGreater, c.high(), c.low())), "TRUE") << name;
    EXPECT_EQ(run(compare(AstOperator::kGreaterEqual, c.low(), c.high())), "FALSE") << name;
    EXPECT_EQ(run(compare(AstOperator::kEqual, c.low(), c.low())), "TRUE") << name;
    EXPECT_EQ(run(compare(AstOperator::kEqual, c.low(), c.high())), "FALSE") << name;
    EXPECT_EQ(run(compare(AstOperator::kNotEqual, c.low(), c.high())), "TRUE") << name;
  }
  EXPECT_EQ(run(compare(AstOperator::kEqual, null_of(SqlType::bigint()), integer(1))), "NULL");
  EXPECT_EQ(run(compare(AstOperator::kNotEqual, integer(1), null_of(SqlType::bigint()))), "NULL");
}

TEST_F(ExpressionTest, EvaluatesColumns) {
  Schema schema({{"a", SqlType::bigint()}, {"b", SqlType::varchar()}});
  std::string bytes = encode_row(schema, {Value::bigint(41), Value::null(TypeId::kVarchar)});
  RowReader row(schema, RowRef(bytes));
  ExprPtr plus_one = arithmetic(AstOperator::kAdd, column_expr(0, SqlType::bigint()), integer(1));
  EXPECT_EQ(evaluator_.evaluate(*plus_one, row).integer, 42);
  ExprPtr concat =
      call(ScalarFunction::kConcat, SqlType::varchar(), exprs(column_expr(1, SqlType::varchar()), text("x")));
  EXPECT_TRUE(evaluator_.evaluate(*concat, row).null);
}

class EvaluatorErrorTest : public EvaluatorHarness {};

TEST_F(EvaluatorErrorTest, FirstErrorStaysUntilTaken) {
  ExprPtr divide = arithmetic(AstOperator::kDivide, integer(1), integer(0));
  ExprPtr overflow = arithmetic(AstOperator::kAdd, integer(INT64_MAX), integer(1));
  ExprPtr fine = arithmetic(AstOperator::kAdd, integer(1), integer(2));
  EXPECT_TRUE(evaluate(*divide).null);
  EXPECT_TRUE(evaluate(*overflow).null);
  EXPECT_EQ(evaluate(*fine).integer, 3);  // evaluation goes on
  EXPECT_TRUE(evaluator_.failed());
  EXPECT_EQ(evaluator_.error().message(), "division by zero in (1 / 0)");
  Status first = evaluator_.take_error();
  EXPECT_EQ(first.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(first.message(), "division by zero in (1 / 0)");
  EXPECT_FALSE(evaluator_.failed());
  EXPECT_TRUE(evaluator_.take_error().ok());
  Status next = run_failing(overflow);
  EXPECT_EQ(next.code(), ErrorCode::kOverflow);
  EXPECT_EQ(next.message(), "integer overflow in (9223372036854775807 + 1)");
}

TEST_F(EvaluatorErrorTest, AnErrorInsideAnExpressionMakesItNull) {
  ExprPtr expr = make_expr(ExprKind::kIsNull, SqlType::boolean(false),
                           exprs(arithmetic(AstOperator::kModulo, integer(1), integer(0))));
  EXPECT_EQ(show(evaluate(*expr), expr->type), "TRUE");
  EXPECT_EQ(evaluator_.take_error().message(), "division by zero in (1 % 0)");
}

}  // namespace
}  // namespace freshet::sql
