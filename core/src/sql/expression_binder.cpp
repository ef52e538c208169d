#include "expression_binder.h"

#include <cstdlib>

#include "aggregate_functions.h"
#include "freshet/types/interval.h"
#include "freshet/types/temporal.h"
#include "runtime_error_typing.h"
#include "type_rules.h"

namespace freshet::sql {
namespace {

bool is_temporal(const SqlType& type) { return type.is_datetime(); }

std::string describe(const SqlType& type) { return type.with_nullable(true).to_string(); }

}  // namespace

bool is_null_literal(const Expr& expr) { return expr.kind == ExprKind::kLiteral && expr.literal.null && expr.untyped; }

ExprPtr untyped_null(SqlType placeholder) {
  ExprPtr null = null_literal(placeholder.with_nullable(true));
  null->untyped = true;
  return null;
}

ExprPtr cast_to(ExprPtr expr, const SqlType& type) {
  SqlType target = type.with_nullable(expr->type.nullable);
  if (expr->kind == ExprKind::kLiteral && expr->literal.null) return null_literal(type.with_nullable(true));
  if (expr->type == target) return expr;
  std::vector<ExprPtr> children;
  children.push_back(std::move(expr));
  return make_expr(ExprKind::kCast, target, std::move(children));
}

bool is_aggregate_function(const std::string& name) { return find_aggregate_function(name) != nullptr; }

bool contains_aggregate(const AstExpr& ast) {
  if (ast.kind == AstExprKind::kFunction && ast.over) return false;  // a window function, not an aggregate
  if (ast.kind == AstExprKind::kFunction && is_aggregate_function(ast.name)) return true;
  for (const AstExprPtr& child : ast.children) {
    if (child && contains_aggregate(*child)) return true;
  }
  return (ast.case_operand && contains_aggregate(*ast.case_operand)) ||
         (ast.else_result && contains_aggregate(*ast.else_result));
}

bool contains_window(const AstExpr& ast) {
  if (ast.kind == AstExprKind::kFunction && ast.over) return true;
  for (const AstExprPtr& child : ast.children) {
    if (child && contains_window(*child)) return true;
  }
  return (ast.case_operand && contains_window(*ast.case_operand)) ||
         (ast.else_result && contains_window(*ast.else_result));
}

Result<ExprPtr> ExpressionBinder::bind(const AstExpr& ast) {
  if (depth_ >= kMaxExpressionDepth) {
    return sql_error(ast.position, "expression nested too deeply (more than " +
                                       std::to_string(kMaxExpressionDepth) + " levels)");
  }
  struct DepthGuard {
    size_t& depth;
    explicit DepthGuard(size_t& d) : depth(d) { ++depth; }
    ~DepthGuard() { --depth; }
  } guard(depth_);
  if (interceptor_) {
    Result<ExprPtr> intercepted = interceptor_(ast);
    if (!intercepted.ok()) return intercepted.status();
    if (*intercepted) return std::move(*intercepted);
  }
  Result<ExprPtr> bound = bind_node(ast);
  // 'null' mode: what can fail yields NULL (runtime_error_typing.h).
  if (bound.ok() && NullOnErrorTyping::active() && can_fail_at_run_time(**bound)) {
    (*bound)->type = (*bound)->type.with_nullable(true);
  }
  return bound;
}

Result<ExprPtr> ExpressionBinder::bind_condition(const AstExpr& ast, const char* clause) {
  Result<ExprPtr> bound = bind(ast);
  if (!bound.ok()) return bound.status();
  if (is_null_literal(**bound)) return null_literal(SqlType::boolean());
  if ((*bound)->type.id != TypeId::kBoolean) {
    return sql_error(ast.position, std::string(clause) + " needs a BOOLEAN condition, not " +
                                       describe((*bound)->type));
  }
  return bound;
}

Result<std::vector<ExprPtr>> ExpressionBinder::bind_children(const AstExpr& ast) {
  std::vector<ExprPtr> children;
  for (const AstExprPtr& child : ast.children) {
    Result<ExprPtr> bound = bind(*child);
    if (!bound.ok()) return bound.status();
    children.push_back(std::move(*bound));
  }
  return children;
}

Result<ExprPtr> ExpressionBinder::bind_literal(const AstExpr& ast) {
  switch (ast.literal_kind) {
    case LiteralKind::kNull: return untyped_null();
    case LiteralKind::kBoolean: return literal_expr(Value::boolean(ast.text == "true"), SqlType::boolean(false));
    case LiteralKind::kInteger: {
      errno = 0;
      char* end = nullptr;
      long long value = std::strtoll(ast.text.c_str(), &end, 10);
      if (errno == 0 && *end == '\0') {
        bool fits_int = value >= INT32_MIN && value <= INT32_MAX;
        SqlType type = fits_int ? SqlType::integer(false) : SqlType::bigint(false);
        return literal_expr(Value::integer(type.id, value), type);
      }
      [[fallthrough]];  // too large for BIGINT: an exact DECIMAL
    }
    case LiteralKind::kDecimal: {
      size_t point = ast.text.find('.');
      uint8_t scale = point == std::string::npos ? 0 : static_cast<uint8_t>(ast.text.size() - point - 1);
      size_t digits = ast.text.size() - (point == std::string::npos ? 0 : 1) - (ast.text[0] == '-' ? 1 : 0);
      if (digits > kMaxDecimalPrecision) return sql_error(ast.position, "number " + ast.text + " has too many digits");
      uint8_t precision = static_cast<uint8_t>(std::max<size_t>(digits, scale));
      Result<int128> value = parse_decimal(ast.text, precision, scale);
      if (!value.ok()) return sql_error(ast.position, value.status().message());
      return literal_expr(Value::decimal(*value, scale), SqlType::decimal(precision, scale, false));
    }
    case LiteralKind::kFloat:
      return literal_expr(Value::double_precision(std::strtod(ast.text.c_str(), nullptr)),
                          SqlType::double_precision(false));
    case LiteralKind::kString: return literal_expr(Value::varchar(ast.text), SqlType::varchar(false));
    case LiteralKind::kDate: {
      Result<int32_t> days = parse_date(ast.text);
      if (!days.ok()) return sql_error(ast.position, days.status().message());
      return literal_expr(Value::date(*days), SqlType::date(false));
    }
    case LiteralKind::kTimestamp: {
      Result<int64_t> micros = parse_timestamp(ast.text);
      if (!micros.ok()) return sql_error(ast.position, micros.status().message());
      return literal_expr(Value::timestamp(*micros), SqlType::timestamp(false));
    }
    case LiteralKind::kTime: {
      Result<int64_t> micros = parse_time(ast.text);
      if (!micros.ok()) return sql_error(ast.position, micros.status().message());
      return literal_expr(Value::time(*micros), SqlType::time(false));
    }
    case LiteralKind::kInterval: {
      // The parser has checked the text (and the leading precision).
      Result<int64_t> value = parse_interval(ast.text, ast.cast_type);
      if (!value.ok()) return sql_error(ast.position, value.status().message());
      SqlType type = ast.cast_type.with_nullable(false);
      return literal_expr(Value::integer(type.id, *value), type);
    }
  }
  return sql_error(ast.position, "unsupported literal");
}

Result<ExprPtr> ExpressionBinder::bind_comparison(AstOperator op, ExprPtr left, ExprPtr right,
                                                  SourcePosition position) {
  // A string literal compared with a date or timestamp is read as one.
  if (is_temporal(left->type) && right->type.id == TypeId::kVarchar && right->kind == ExprKind::kLiteral) {
    right = cast_to(std::move(right), left->type);
  } else if (is_temporal(right->type) && left->type.id == TypeId::kVarchar && left->kind == ExprKind::kLiteral) {
    left = cast_to(std::move(left), right->type);
  }
  SqlType common;
  if (is_null_literal(*left)) {
    common = right->type;
  } else if (is_null_literal(*right)) {
    common = left->type;
  } else if (std::optional<SqlType> type = common_type(left->type, right->type)) {
    common = *type;
  } else {
    return sql_error(position, "cannot compare " + describe(left->type) + " with " + describe(right->type));
  }
  bool nullable = left->type.nullable || right->type.nullable;
  std::vector<ExprPtr> children;
  children.push_back(cast_to(std::move(left), common));
  children.push_back(cast_to(std::move(right), common));
  ExprPtr compare = make_expr(ExprKind::kCompare, SqlType::boolean(nullable), std::move(children));
  compare->op = op;
  return compare;
}

Result<ExprPtr> ExpressionBinder::bind_binary(const AstExpr& ast) {
  Result<std::vector<ExprPtr>> children = bind_children(ast);
  if (!children.ok()) return children.status();
  ExprPtr left = std::move((*children)[0]), right = std::move((*children)[1]);
  bool nullable = left->type.nullable || right->type.nullable;
  switch (ast.op) {
    case AstOperator::kAnd:
    case AstOperator::kOr: {
      for (ExprPtr* side : {&left, &right}) {
        if (is_null_literal(**side)) *side = null_literal(SqlType::boolean());
        if ((*side)->type.id != TypeId::kBoolean) {
          return sql_error(ast.operator_position, std::string(ast.op == AstOperator::kAnd ? "AND" : "OR") +
                                             " needs BOOLEAN operands, not " + describe((*side)->type));
        }
      }
      std::vector<ExprPtr> operands;
      operands.push_back(std::move(left));
      operands.push_back(std::move(right));
      return make_expr(ast.op == AstOperator::kAnd ? ExprKind::kAnd : ExprKind::kOr, SqlType::boolean(nullable),
                       std::move(operands));
    }
    case AstOperator::kConcat: {
      for (ExprPtr* side : {&left, &right}) {
        if (is_null_literal(**side)) *side = null_literal(SqlType::varchar());
        if ((*side)->type.id != TypeId::kVarchar) {
          return sql_error(ast.operator_position, "|| needs VARCHAR operands, not " + describe((*side)->type));
        }
      }
      std::vector<ExprPtr> operands;
      operands.push_back(std::move(left));
      operands.push_back(std::move(right));
      return function_expr(ScalarFunction::kConcat, SqlType::varchar(nullable), std::move(operands));
    }
    case AstOperator::kEqual:
    case AstOperator::kNotEqual:
    case AstOperator::kLess:
    case AstOperator::kLessEqual:
    case AstOperator::kGreater:
    case AstOperator::kGreaterEqual: return bind_comparison(ast.op, std::move(left), std::move(right), ast.operator_position);
    default: break;
  }
  if (left->type.is_datetime() || left->type.is_interval() || right->type.is_datetime() || right->type.is_interval()) {
    return bind_temporal_arithmetic(ast, std::move(left), std::move(right));
  }
  // Arithmetic. A NULL literal takes the other side's type; two give no type (as Calcite).
  if (is_null_literal(*left) && is_null_literal(*right)) {
    return sql_error(ast.operator_position, "arithmetic on NULL and NULL has no type: CAST one of them");
  }
  if (is_null_literal(*left)) left = null_literal(right->type);
  if (is_null_literal(*right)) right = null_literal(left->type);
  std::optional<SqlType> type = arithmetic_type(ast.op, left->type, right->type);
  if (!type) {
    return sql_error(ast.operator_position, "arithmetic needs numeric operands, not " + describe(left->type) + " and " +
                                       describe(right->type));
  }
  type->nullable = nullable;
  bool keep_operand_types = type->id == TypeId::kDecimal &&
                            (ast.op == AstOperator::kMultiply || ast.op == AstOperator::kDivide);
  std::vector<ExprPtr> operands;
  for (ExprPtr* side : {&left, &right}) {
    if (keep_operand_types) {
      // DECIMAL * and / keep each operand's scale; integers become DECIMAL.
      const SqlType& t = (*side)->type;
      operands.push_back(t.id == TypeId::kDecimal ? std::move(*side) : cast_to(std::move(*side), decimal_for_integer(t)));
    } else {
      operands.push_back(cast_to(std::move(*side), *type));
    }
  }
  ExprPtr arithmetic = make_expr(ExprKind::kArithmetic, *type, std::move(operands));
  arithmetic->op = ast.op;
  return arithmetic;
}

Result<ExprPtr> ExpressionBinder::bind_in_list(const AstExpr& ast) {
  Result<std::vector<ExprPtr>> children = bind_children(ast);
  if (!children.ok()) return children.status();
  std::optional<SqlType> common;
  bool nullable = false;
  for (const ExprPtr& child : *children) {
    nullable = nullable || child->type.nullable;
    if (is_null_literal(*child)) continue;
    std::optional<SqlType> next = common ? common_type(*common, child->type) : child->type;
    if (!next) {
      return sql_error(ast.position, "IN list mixes " + describe(*common) + " and " + describe(child->type));
    }
    common = next;
  }
  if (!common) common = SqlType::boolean();
  for (ExprPtr& child : *children) child = cast_to(std::move(child), *common);
  ExprPtr in = make_expr(ExprKind::kInList, SqlType::boolean(nullable), std::move(*children));
  in->negated = ast.negated;
  sort_in_list(*in);
  return in;
}

Result<ExprPtr> ExpressionBinder::bind_case(const AstExpr& ast) {
  // CASE x WHEN a THEN ... is CASE WHEN x = a THEN ...
  std::vector<ExprPtr> children;
  std::optional<SqlType> result_type;
  bool nullable = !ast.else_result;
  for (size_t i = 0; i + 1 < ast.children.size(); i += 2) {
    ExprPtr condition;
    if (ast.case_operand) {
      Result<ExprPtr> operand = bind(*ast.case_operand), value = bind(*ast.children[i]);
      if (!operand.ok()) return operand.status();
      if (!value.ok()) return value.status();
      Result<ExprPtr> equal =
          bind_comparison(AstOperator::kEqual, std::move(*operand), std::move(*value), ast.children[i]->position);
      if (!equal.ok()) return equal.status();
      condition = std::move(*equal);
    } else {
      Result<ExprPtr> bound = bind_condition(*ast.children[i], "CASE WHEN");
      if (!bound.ok()) return bound.status();
      condition = std::move(*bound);
    }
    children.push_back(std::move(condition));
    Result<ExprPtr> then = bind(*ast.children[i + 1]);
    if (!then.ok()) return then.status();
    children.push_back(std::move(*then));
  }
  if (ast.else_result) {
    Result<ExprPtr> otherwise = bind(*ast.else_result);
    if (!otherwise.ok()) return otherwise.status();
    children.push_back(std::move(*otherwise));
  }
  // The results: every THEN, then the ELSE; they meet in one type.
  std::vector<size_t> results;
  for (size_t i = 1; i < children.size(); i += 2) results.push_back(i);
  if (ast.else_result) results.push_back(children.size() - 1);
  for (size_t i : results) {
    const ExprPtr& result = children[i];
    nullable = nullable || result->type.nullable;
    if (is_null_literal(*result)) continue;
    std::optional<SqlType> next = result_type ? common_type(*result_type, result->type) : result->type;
    if (!next) return sql_error(ast.position, "CASE mixes " + describe(*result_type) + " and " + describe(result->type));
    result_type = next;
  }
  if (!result_type) return untyped_null();  // every result a bare NULL: the CASE is one too
  result_type->nullable = nullable;
  for (size_t i : results) children[i] = cast_to(std::move(children[i]), *result_type);
  ExprPtr expr = make_expr(ExprKind::kCase, *result_type, std::move(children));
  expr->has_else = static_cast<bool>(ast.else_result);
  return expr;
}

}  // namespace freshet::sql
