#include "window_interval.h"

#include "expression_binder.h"
#include "freshet/circuit/circuit.h"
#include "scope.h"

namespace freshet::sql {
namespace {

// The interval types come from the i16-intervals branch; the test below
// lets this file build before and after it is merged.
template <typename T = TypeId>
Result<int64_t> interval_value(const Expr& expr, const AstExpr& ast, const std::string& what) {
  if constexpr (requires { T::kIntervalDayTime; }) {
    if (expr.type.id == T::kIntervalYearMonth) {
      return sql_error(ast.position, what + " must be a day-time interval (DAY or shorter): "
                                            "months and years have no fixed length");
    }
    if (expr.type.id == T::kIntervalDayTime) {
      static const RowReader kNoRow(*empty_schema(), RowRef());
      Evaluator evaluator;
      Datum value = evaluator.evaluate(expr, kNoRow);
      if (evaluator.failed()) return evaluator.take_error();
      if (value.null) return sql_error(ast.position, what + " must not be NULL");
      return value.integer;
    }
  }
  return sql_error(ast.position, what + " must be an INTERVAL such as INTERVAL '1' MINUTE, not " +
                                     expr.type.with_nullable(true).to_string());
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
  return interval_value(**bound, ast, what);
}

}  // namespace freshet::sql
