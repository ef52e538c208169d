// Typing of datetime and interval arithmetic (Feldera's rules, type_rules.h):
// `ts + INTERVAL '1' HOUR`, `INTERVAL '1' DAY * 2`, `(t1 - t2) MINUTE`.
// The bound form is a kArithmetic node whose first operand is the datetime
// (for datetime ± interval) or the interval (for interval * number), so the
// evaluator (evaluate_temporal.cpp) never looks at operand order.
#include "expression_binder.h"
#include "expression_tools.h"
#include "type_rules.h"

namespace freshet::sql {
namespace {

std::string describe(const SqlType& type) { return type.with_nullable(true).to_string(); }

ExprPtr binary(AstOperator op, SqlType type, ExprPtr left, ExprPtr right) {
  std::vector<ExprPtr> children;
  children.push_back(std::move(left));
  children.push_back(std::move(right));
  ExprPtr expr = make_expr(ExprKind::kArithmetic, type, std::move(children));
  expr->op = op;
  return expr;
}

// The result type of `op` between a NULL literal and `other` (a datetime or
// an interval): the NULL stands for what fits (an interval beside a
// datetime, a number for * and /), so the result has the type it would.
std::optional<SqlType> null_result(AstOperator op, const SqlType& other) {
  if (other.is_datetime()) {
    if (op == AstOperator::kAdd || op == AstOperator::kSubtract) return other;
    return std::nullopt;
  }
  if (op == AstOperator::kAdd || op == AstOperator::kSubtract || op == AstOperator::kMultiply ||
      op == AstOperator::kDivide) {
    return other;
  }
  return std::nullopt;
}

}  // namespace

Result<ExprPtr> ExpressionBinder::bind_temporal_arithmetic(const AstExpr& ast, ExprPtr left, ExprPtr right) {
  AstOperator op = ast.op;
  bool nullable = left->type.nullable || right->type.nullable;
  // A NULL literal beside a datetime or interval: a NULL of the result type.
  if (is_null_literal(*left) != is_null_literal(*right)) {
    const SqlType& other = is_null_literal(*left) ? right->type : left->type;
    if (std::optional<SqlType> type = null_result(op, other)) return null_literal(type->with_nullable(true));
  }
  // + and * are commutative: the datetime (or the interval of *) goes first.
  bool swap = (op == AstOperator::kAdd && left->type.is_interval() && right->type.is_datetime()) ||
              (op == AstOperator::kMultiply && left->type.is_numeric() && right->type.is_interval());
  if (swap) std::swap(left, right);
  std::optional<SqlType> type = temporal_arithmetic_type(op, left->type, right->type);
  if (!type) {
    if (op == AstOperator::kSubtract && left->type.is_datetime() && right->type.is_datetime()) {
      return sql_error(ast.operator_position,
                       "the difference of " + describe(left->type) + " and " + describe(right->type) +
                           " needs an interval qualifier, as in (a - b) SECOND or (a - b) MONTH");
    }
    if (swap) std::swap(left, right);
    return sql_error(ast.operator_position, std::string("cannot apply ") + operator_text(op) + " to " +
                                                describe(left->type) + " and " + describe(right->type));
  }
  return binary(op, type->with_nullable(nullable), std::move(left), std::move(right));
}

Result<ExprPtr> ExpressionBinder::bind_datetime_difference(const AstExpr& ast) {
  Result<std::vector<ExprPtr>> children = bind_children(ast);
  if (!children.ok()) return children.status();
  ExprPtr left = std::move((*children)[0]), right = std::move((*children)[1]);
  if (is_null_literal(*left)) left = null_literal(right->type);
  if (is_null_literal(*right)) right = null_literal(left->type);
  const SqlType& a = left->type;
  const SqlType& b = right->type;
  // DATE and TIMESTAMP meet as TIMESTAMP; TIME only with TIME.
  bool dates =
      (a.id == TypeId::kDate || a.id == TypeId::kTimestamp) && (b.id == TypeId::kDate || b.id == TypeId::kTimestamp);
  bool times = a.id == TypeId::kTime && b.id == TypeId::kTime;
  if (!dates && !times) {
    return sql_error(ast.operator_position, "(a - b) " + ast.cast_type.to_string().substr(9) +
                                                " needs two dates, timestamps or times, not " + describe(a) + " and " +
                                                describe(b));
  }
  if (times && ast.cast_type.id == TypeId::kIntervalYearMonth) {
    return sql_error(ast.operator_position, "the difference of two TIMEs cannot be a year-month interval");
  }
  if (a.id != b.id) {
    left = cast_to(std::move(left), SqlType::timestamp());
    right = cast_to(std::move(right), SqlType::timestamp());
  }
  bool nullable = left->type.nullable || right->type.nullable;
  return binary(AstOperator::kSubtract, ast.cast_type.with_nullable(nullable), std::move(left), std::move(right));
}

}  // namespace freshet::sql
