// QueryBinder::project_select_list: a SELECT list over the columns of its
// input, for the binders that first add columns of their own behind those
// (a window's results, DISTINCT ON's rank): one Project that keeps what the
// list names, in its order.
#include "binder.h"
#include "expression_binder.h"

namespace freshet::sql {

Result<QueryBinder::Bound> QueryBinder::project_select_list(const Select& select, const Scope& input,
                                                            ExpressionBinder& binder, PlanPtr plan) {
  Scope scope;
  std::vector<ExprPtr> projections;
  for (size_t i = 0; i < select.items.size(); ++i) {
    const SelectItem& item = select.items[i];
    if (item.star) {
      Result<std::vector<size_t>> columns = star_columns(input, item);
      if (!columns.ok()) return columns.status();
      for (size_t c : *columns) {
        const ScopeColumn& column = input.columns[c];
        scope.columns.push_back({"", column.name, column.type});
        projections.push_back(column_expr(c, column.type));
      }
      continue;
    }
    Result<ExprPtr> expr = binder.bind(*item.expr);
    if (!expr.ok()) return expr.status();
    if (is_null_literal(**expr)) *expr = untyped_null(SqlType::integer());  // INTEGER unless a set operation types it
    scope.columns.push_back({"", output_name(item, i), (*expr)->type});
    projections.push_back(std::move(*expr));
  }
  PlanPtr project = make_plan(LogicalPlan::Kind::kProject, schema_of(scope), std::move(plan));
  project->expressions = std::move(projections);
  return Bound{std::move(project), std::move(scope)};
}

}  // namespace freshet::sql
