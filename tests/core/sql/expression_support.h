// Helpers for the evaluator's tests: literal and node builders, and a harness
// that evaluates an expression over an empty row and renders the result.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "freshet/sql/expression.h"
#include "freshet/types/interval.h"
#include "freshet/types/temporal.h"

namespace freshet::sql::testing {

template <typename... Children>
std::vector<ExprPtr> exprs(Children... children) {
  std::vector<ExprPtr> list;
  (list.push_back(std::move(children)), ...);
  return list;
}

inline ExprPtr integer(int64_t value, SqlType type = SqlType::bigint(false)) {
  return literal_expr(Value::integer(type.id, value), type);
}
inline ExprPtr floating(double value, SqlType type = SqlType::double_precision(false)) {
  return literal_expr(Value::floating(type.id, value), type);
}
//! A DECIMAL(precision, scale) literal from its text ("12.50").
inline ExprPtr decimal(std::string_view text, uint8_t precision, uint8_t scale) {
  Result<int128> value = parse_decimal(text, precision, scale);
  EXPECT_TRUE(value.ok()) << value.status().to_string();
  return literal_expr(Value::decimal(*value, scale), SqlType::decimal(precision, scale, false));
}
inline ExprPtr text(std::string_view value) { return literal_expr(Value::varchar(value), SqlType::varchar(false)); }
inline ExprPtr boolean(bool value) { return literal_expr(Value::boolean(value), SqlType::boolean(false)); }
inline ExprPtr date(std::string_view value) {
  return literal_expr(Value::date(*parse_date(value)), SqlType::date(false));
}
inline ExprPtr timestamp(std::string_view value) {
  return literal_expr(Value::timestamp(*parse_timestamp(value)), SqlType::timestamp(false));
}
inline ExprPtr null_of(SqlType type) { return null_literal(type.with_nullable(true)); }

inline ExprPtr arithmetic(AstOperator op, ExprPtr left, ExprPtr right, SqlType type) {
  ExprPtr expr = make_expr(ExprKind::kArithmetic, type, exprs(std::move(left), std::move(right)));
  expr->op = op;
  return expr;
}
//! Arithmetic whose result type is the left operand's.
inline ExprPtr arithmetic(AstOperator op, ExprPtr left, ExprPtr right) {
  SqlType type = left->type;
  return arithmetic(op, std::move(left), std::move(right), type);
}
inline ExprPtr compare(AstOperator op, ExprPtr left, ExprPtr right) {
  ExprPtr expr = make_expr(ExprKind::kCompare, SqlType::boolean(), exprs(std::move(left), std::move(right)));
  expr->op = op;
  return expr;
}
inline ExprPtr cast(ExprPtr value, SqlType to) { return make_expr(ExprKind::kCast, to, exprs(std::move(value))); }
inline ExprPtr negate(ExprPtr value) {
  SqlType type = value->type;
  return make_expr(ExprKind::kNegate, type, exprs(std::move(value)));
}
inline ExprPtr call(ScalarFunction function, SqlType type, std::vector<ExprPtr> arguments) {
  return function_expr(function, type, std::move(arguments));
}
inline ExprPtr like(ExprPtr value, ExprPtr pattern, bool negated = false) {
  ExprPtr expr = make_expr(ExprKind::kLike, SqlType::boolean(), exprs(std::move(value), std::move(pattern)));
  expr->negated = negated;
  return expr;
}
inline ExprPtr extract(ExtractField field, ExprPtr value) {
  ExprPtr expr = make_expr(ExprKind::kExtract, SqlType::bigint(), exprs(std::move(value)));
  expr->field = field;
  return expr;
}

//! A result as text: "NULL", "TRUE", "42", "1.5" (%.17g), "12.50", "2024-01-02", or the string itself.
inline std::string show(const Datum& value, const SqlType& type) {
  if (value.null) return "NULL";
  switch (type.id) {
    case TypeId::kBoolean: return value.integer ? "TRUE" : "FALSE";
    case TypeId::kReal:
    case TypeId::kDouble: {
      char buffer[40];
      std::snprintf(buffer, sizeof buffer, "%.17g", value.floating);
      return buffer;
    }
    case TypeId::kDecimal: return decimal_to_string(value.decimal, type.scale);
    case TypeId::kVarchar: return std::string(value.string);
    case TypeId::kDate: return format_date(static_cast<int32_t>(value.integer));
    case TypeId::kTimestamp: return format_timestamp(value.integer);
    case TypeId::kTime: return format_time(value.integer);
    case TypeId::kIntervalDayTime:
    case TypeId::kIntervalYearMonth: return format_interval(value.integer, type);
    default: return std::to_string(value.integer);
  }
}

//! Evaluates expressions over an empty row.
class EvaluatorHarness : public ::testing::Test {
 protected:
  Datum evaluate(const Expr& expr) {
    evaluator_.start_row();
    return evaluator_.evaluate(expr, RowReader(empty_schema_, RowRef()));
  }
  //! The rendered result; fails the test when the evaluator records an error.
  std::string run(const ExprPtr& expr) {
    std::string result = show(evaluate(*expr), expr->type);
    EXPECT_FALSE(evaluator_.failed()) << expr->to_string() << ": " << evaluator_.error().to_string();
    evaluator_.take_error().ok();
    return result;
  }
  //! Evaluates an expression that must fail: it yields NULL, and the error is returned (and cleared).
  Status run_failing(const ExprPtr& expr) {
    EXPECT_TRUE(evaluate(*expr).null) << expr->to_string();
    EXPECT_TRUE(evaluator_.failed()) << expr->to_string() << " did not fail";
    return evaluator_.take_error();
  }

  Schema empty_schema_;
  Evaluator evaluator_;
};

}  // namespace freshet::sql::testing
