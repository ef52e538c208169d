#include "window_interval.h"

#include "expression_binder.h"
#include "expression_tools.h"
#include "freshet/circuit/circuit.h"
#include "scope.h"

namespace freshet::sql {
namespace {

Result<int64_t> interval_value(const Expr& expr, const AstExpr& ast, const std::string& what) {
  if (expr.type.id == TypeId::kIntervalYearMonth) {
    return sql_error(ast.position, what +
                                       " must be a day-time interval (DAY or shorter): "
                                       "months and years have no fixed length");
  }
  if (expr.type.id != TypeId::kIntervalDayTime) {
    return sql_error(ast.position, what + " must be an INTERVAL such as INTERVAL '1' MINUTE, not " +
                                       expr.type.with_nullable(true).to_string());
  }
  static const RowReader kNoRow(*empty_schema(), RowRef());
  Evaluator evaluator;
  Datum value = evaluator.evaluate(expr, kNoRow);
  if (evaluator.failed()) return evaluator.take_error();
  if (value.null) return sql_error(ast.position, what + " must not be NULL");
  return value.integer;
}

}  // namespace

Result<int64_t> constant_interval_micros(const AstExpr& ast, const std::string& what) {
  Scope no_columns;
  Result<ExprPtr> bound = ExpressionBinder(no_columns).bind(ast);
  if (!bound.ok()) {
    if (bound.status().message().find("unknown column") != std::string::npos) {
      return sql_error(ast.position, what + " must be a constant interval");
    }
    return bound.status();
  }
  if ((*bound)->kind == ExprKind::kLiteral && (*bound)->literal.null) {  // a bare NULL or CAST(NULL AS ...)
    return sql_error(ast.position, what + " must not be NULL");
  }
  return interval_value(**bound, ast, what);
}

}  // namespace freshet::sql
