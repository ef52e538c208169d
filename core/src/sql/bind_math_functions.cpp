// ExpressionBinder::bind_math_function: Feldera's numeric functions
// (docs.feldera.com/docs/sql/float.md, integer.md, decimal.md) and the
// comparison functions NULLIF, GREATEST and LEAST (comparisons.md).
//   MOD(a, b)                 is a % b (the same types and errors)
//   POWER, SQRT, EXP, LN, LOG10, LOG(x [, base])   DOUBLE
//   SIGN(x), TRUNCATE(x [, d]) / TRUNC             the argument's type
//   NULLIF(a, b)              CASE WHEN a = b THEN NULL ELSE a END
//   GREATEST / LEAST(x, ...)  the common type; NULL if any argument is NULL
#include <algorithm>

#include "bind_function_call.h"
#include "type_rules.h"

namespace freshet::sql {
namespace {

std::string describe(const SqlType& type) { return type.with_nullable(true).to_string(); }

// TRUNCATE(x, d) and ROUND(x, d) need d as an integer literal: a DECIMAL result's scale depends on it.
Result<int64_t> digits_argument(FunctionCall& call) {
  std::vector<ExprPtr>& args = call.args();
  if (args.size() < 2) return int64_t{0};
  bool literal = args[1]->kind == ExprKind::kLiteral && args[1]->type.is_integer() && !args[1]->literal.null;
  FRESHET_RETURN_IF_ERROR(call.need(1, literal, "an integer literal"));
  return args[1]->literal.integer;
}

}  // namespace

Result<ExprPtr> ExpressionBinder::bind_math_function(const AstExpr& ast, std::vector<ExprPtr>& args) {
  const std::string& name = ast.name;
  FunctionCall call(ast, args);
  if (name == "mod") {
    FRESHET_RETURN_IF_ERROR(call.arity(2, 2));
    for (size_t i = 0; i < 2; ++i) {
      if (is_null_literal(*args[i]))
        args[i] = null_literal(args[1 - i]->type.is_numeric() ? args[1 - i]->type : SqlType::integer());
    }
    std::optional<SqlType> type = arithmetic_type(AstOperator::kModulo, args[0]->type, args[1]->type);
    if (!type) {
      return sql_error(ast.position, "mod() needs numeric arguments, not " + describe(args[0]->type) + " and " +
                                         describe(args[1]->type));
    }
    type->nullable = call.any_nullable();
    for (ExprPtr& arg : args) arg = cast_to(std::move(arg), *type);
    ExprPtr modulo = make_expr(ExprKind::kArithmetic, *type, std::move(args));
    modulo->op = AstOperator::kModulo;
    return modulo;
  }
  struct DoubleFunction {
    const char* name;
    ScalarFunction function;
    size_t low, high;
  };
  static const DoubleFunction kDoubleFunctions[] = {
      {"power", ScalarFunction::kPower, 2, 2}, {"sqrt", ScalarFunction::kSqrt, 1, 1},
      {"exp", ScalarFunction::kExp, 1, 1},     {"ln", ScalarFunction::kLn, 1, 1},
      {"log10", ScalarFunction::kLog10, 1, 1}, {"log", ScalarFunction::kLog, 1, 2},
  };
  for (const DoubleFunction& entry : kDoubleFunctions) {
    if (name != entry.name) continue;
    FRESHET_RETURN_IF_ERROR(call.arity(entry.low, entry.high));
    for (size_t i = 0; i < args.size(); ++i) FRESHET_RETURN_IF_ERROR(call.double_argument(i));
    return call.make(entry.function, SqlType::double_precision(call.any_nullable()));
  }
  if (name == "sign") {
    FRESHET_RETURN_IF_ERROR(call.arity(1, 1));
    if (is_null_literal(*args[0])) args[0] = null_literal(SqlType::integer());
    FRESHET_RETURN_IF_ERROR(call.need(0, args[0]->type.is_numeric(), "a number"));
    SqlType type = args[0]->type;
    // A DECIMAL's sign is ±1 at its scale: room for one integer digit.
    if (type.id == TypeId::kDecimal && type.precision != 0 && type.precision <= type.scale) {
      type.precision = static_cast<uint8_t>(std::min<int>(type.scale + 1, kMaxDecimalPrecision));
    }
    return call.make(ScalarFunction::kSign, type);
  }
  if (name == "truncate" || name == "trunc") {
    FRESHET_RETURN_IF_ERROR(call.arity(1, 2));
    if (is_null_literal(*args[0])) args[0] = null_literal(SqlType::integer());
    FRESHET_RETURN_IF_ERROR(call.need(0, args[0]->type.is_numeric(), "a number"));
    Result<int64_t> digits = digits_argument(call);
    if (!digits.ok()) return digits.status();
    SqlType type = args[0]->type;
    if (type.id == TypeId::kDecimal && *digits < type.scale) {
      type.scale = static_cast<uint8_t>(*digits < 0 ? type.scale : *digits);
    }
    if (args.size() == 2) args[1] = cast_to(std::move(args[1]), SqlType::bigint(false));
    return call.make(ScalarFunction::kTruncate, type);
  }
  return ExprPtr();
}

Result<ExprPtr> ExpressionBinder::bind_comparison_function(const AstExpr& ast, std::vector<ExprPtr>& args) {
  const std::string& name = ast.name;
  FunctionCall call(ast, args);
  if (name == "nullif") {
    FRESHET_RETURN_IF_ERROR(call.arity(2, 2));
    // Feldera: CASE WHEN a IS NOT DISTINCT FROM b THEN NULL ELSE a END; a NULL a gives NULL either way.
    Result<ExprPtr> otherwise = bind(*ast.children[0]);
    if (!otherwise.ok()) return otherwise.status();
    SqlType type = (*otherwise)->type.with_nullable(true);
    if (is_null_literal(**otherwise)) {  // NULL whatever b is, of b's type (untyped when b is too)
      return is_null_literal(*args[1]) ? untyped_null() : null_literal(args[1]->type.with_nullable(true));
    }
    Result<ExprPtr> equal = bind_comparison(AstOperator::kEqual, std::move(args[0]), std::move(args[1]), ast.position);
    if (!equal.ok()) return equal.status();
    std::vector<ExprPtr> children;
    children.push_back(std::move(*equal));
    children.push_back(null_literal(type));
    children.push_back(std::move(*otherwise));
    ExprPtr expr = make_expr(ExprKind::kCase, type, std::move(children));
    expr->has_else = true;
    return expr;
  }
  if (name == "greatest" || name == "least") {
    FRESHET_RETURN_IF_ERROR(call.arity(1, FunctionCall::kAny));
    std::optional<SqlType> common;
    for (const ExprPtr& arg : args) {
      if (is_null_literal(*arg)) continue;
      std::optional<SqlType> next = common ? common_type(*common, arg->type) : arg->type;
      if (!next) return sql_error(ast.position, name + "() mixes " + describe(*common) + " and " + describe(arg->type));
      common = next;
    }
    if (!common) return untyped_null();  // only bare NULLs: a bare NULL
    common->nullable = call.any_nullable();
    for (ExprPtr& arg : args) arg = cast_to(std::move(arg), *common);
    return call.make(name == "greatest" ? ScalarFunction::kGreatest : ScalarFunction::kLeast, *common);
  }
  return ExprPtr();
}

}  // namespace freshet::sql
