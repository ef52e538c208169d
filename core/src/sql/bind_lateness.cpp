#include "bind_lateness.h"

#include "expression_binder.h"
#include "freshet/circuit/circuit.h"
#include "freshet/types/temporal.h"
#include "scope.h"
#include "window_interval.h"

namespace freshet::sql {
namespace {

Result<int64_t> integer_constant(const AstExpr& ast, const std::string& what) {
  Scope no_columns;
  Result<ExprPtr> bound = ExpressionBinder(no_columns).bind(ast);
  if (!bound.ok()) return sql_error(ast.position, what + " must be a constant");
  if (!(*bound)->type.is_integer()) {
    return sql_error(ast.position, what + " of an integer column must be an integer, not " +
                                       (*bound)->type.with_nullable(true).to_string());
  }
  static const RowReader kNoRow(*empty_schema(), RowRef());
  Evaluator evaluator;
  Datum value = evaluator.evaluate(**bound, kNoRow);
  if (evaluator.failed()) return evaluator.take_error();
  if (value.null) return sql_error(ast.position, what + " must not be NULL");
  return value.integer;
}

}  // namespace

Result<int64_t> bind_lateness(const ColumnDefinition& column) {
  const AstExpr& ast = *column.lateness;
  const std::string what = "LATENESS of column '" + column.name + "'";
  Result<int64_t> value = Status::OK();
  switch (column.type.id) {
    case TypeId::kTimestamp:
      value = constant_interval_micros(ast, what);
      break;
    case TypeId::kDate:
      value = constant_interval_micros(ast, what);
      if (value.ok() && *value % kMicrosPerDay != 0) {
        return sql_error(ast.position, what + " must be whole days: the column is a DATE");
      }
      if (value.ok()) value = *value / kMicrosPerDay;
      break;
    default:
      if (!column.type.is_integer()) {
        return sql_error(column.lateness_position, "LATENESS on a " + column.type.with_nullable(true).to_string() +
                                                       " column is not supported (TIMESTAMP, DATE and integers are)");
      }
      value = integer_constant(ast, what);
  }
  if (value.ok() && *value < 0) return sql_error(ast.position, what + " must not be negative");
  return value;
}

}  // namespace freshet::sql
