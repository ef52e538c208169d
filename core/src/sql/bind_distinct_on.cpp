// QueryBinder: SELECT DISTINCT ON (...) (Feldera's grammar, PostgreSQL's
// meaning): the first row of each group of equal ON values, first by the
// query's ORDER BY after the ON expressions (which must lead it); without
// one, the row that sorts first by its bytes, so the choice is the same in
// every run. It is Feldera's top-k rule with k = 1:
//
//   input ─► Project [input columns..., computed ORDER BY keys...]
//         ─► Window ROW_NUMBER() OVER (PARTITION BY on... ORDER BY rest...)
//         ─► Filter rank = 1 (the window keeps only rank 1: O(1) per partition)
//         ─► Project select list
#include <algorithm>
#include <cstdlib>

#include "binder.h"
#include "expression_binder.h"
#include "group_by_sets.h"

namespace freshet::sql {
namespace {

//! The expression an ORDER BY or DISTINCT ON item stands for: a select item
//! by position or alias (output names first, as ORDER BY reads them), else itself.
Result<const AstExpr*> order_expression(const AstExpr& expr, const Select& select) {
  if (expr.kind == AstExprKind::kLiteral && expr.literal_kind == LiteralKind::kInteger) {
    size_t position = std::strtoull(expr.text.c_str(), nullptr, 10);
    if (position < 1 || position > select.items.size() || expr.text.size() > 9 || select.items[position - 1].star) {
      return sql_error(expr.position, "position " + expr.text + " is not in the select list");
    }
    return select.items[position - 1].expr.get();
  }
  if (expr.kind == AstExprKind::kColumnRef && expr.names.size() == 1) {
    Result<const SelectItem*> aliased = find_alias(select, expr.names[0], expr.position);
    if (!aliased.ok()) return aliased.status();
    if (*aliased) return (*aliased)->expr.get();
  }
  return &expr;
}

}  // namespace

Result<QueryBinder::Bound> QueryBinder::bind_distinct_on(const Select& select, const std::vector<OrderItem>& order_by,
                                                         Bound input) {
  const size_t width = input.scope.columns.size();
  ExpressionBinder binder(input.scope);
  std::vector<ExprPtr> partition_by;
  std::vector<std::string> partition_texts;
  for (const AstExprPtr& item : select.distinct_on) {
    Result<const AstExpr*> on = order_expression(*item, select);
    if (!on.ok()) return on.status();
    if (contains_aggregate(**on) || contains_window(**on)) {
      return sql_error(item->position,
                       "DISTINCT ON takes expressions of the input, not aggregates or window functions");
    }
    Result<ExprPtr> bound = binder.bind(**on);
    if (!bound.ok()) return bound.status();
    partition_texts.push_back((*bound)->to_string());
    partition_by.push_back(std::move(*bound));
  }
  // ORDER BY: the ON expressions first (in any order), then the window's order.
  std::vector<ExprPtr> computed;
  std::vector<SortColumn> order;
  for (size_t i = 0; i < order_by.size(); ++i) {
    Result<const AstExpr*> expr = order_expression(*order_by[i].expr, select);
    if (!expr.ok()) return expr.status();
    if (contains_aggregate(**expr) || contains_window(**expr)) {
      return sql_error(order_by[i].expr->position, "ORDER BY of DISTINCT ON cannot use aggregates or window functions");
    }
    Result<ExprPtr> bound = binder.bind(**expr);
    if (!bound.ok()) return bound.status();
    if (i < partition_by.size()) {
      if (std::find(partition_texts.begin(), partition_texts.end(), (*bound)->to_string()) == partition_texts.end()) {
        return sql_error(order_by[i].expr->position,
                         "SELECT DISTINCT ON expressions must match the leading ORDER BY expressions");
      }
      continue;
    }
    size_t column = (*bound)->kind == ExprKind::kColumn ? (*bound)->column : width + computed.size();
    if ((*bound)->kind != ExprKind::kColumn) computed.push_back(std::move(*bound));
    order.push_back({column, order_by[i].descending, order_by[i].nulls_first.value_or(order_by[i].descending)});
  }
  if (!order_by.empty() && order_by.size() < partition_by.size()) {
    return sql_error(order_by.back().expr->position,
                     "SELECT DISTINCT ON expressions must match the leading ORDER BY expressions");
  }

  std::vector<Column> row_columns;
  for (const ScopeColumn& column : input.scope.columns) row_columns.push_back({column.name, column.type});
  PlanPtr plan = std::move(input.plan);
  if (!computed.empty()) {
    for (size_t i = 0; i < computed.size(); ++i) {
      row_columns.push_back({"order" + std::to_string(i), computed[i]->type});
    }
    PlanPtr project = make_plan(LogicalPlan::Kind::kProject, make_schema(row_columns), std::move(plan));
    for (size_t c = 0; c < width; ++c) project->expressions.push_back(column_expr(c, row_columns[c].type));
    for (ExprPtr& expr : computed) project->expressions.push_back(std::move(expr));
    plan = std::move(project);
  }
  const size_t rank_column = row_columns.size();
  WindowFunction rank;
  rank.kind = WindowFunctionKind::kRowNumber;
  rank.name = "distinct_on_rank";
  rank.result_type = SqlType::bigint(false);
  row_columns.push_back({rank.name, rank.result_type});
  PlanPtr window = make_plan(LogicalPlan::Kind::kWindow, make_schema(row_columns), std::move(plan));
  window->partition_by = std::move(partition_by);
  window->window.order_by = std::move(order);
  window->window.functions.push_back(std::move(rank));

  std::vector<ExprPtr> first;
  first.push_back(column_expr(rank_column, SqlType::bigint(false)));
  first.push_back(literal_expr(Value::integer(TypeId::kBigInt, 1), SqlType::bigint(false)));
  PlanPtr filter = wrap_plan(LogicalPlan::Kind::kFilter, std::move(window));
  filter->predicate = make_expr(ExprKind::kCompare, SqlType::boolean(false), std::move(first));
  filter->predicate->op = AstOperator::kEqual;

  // The select list over the input's columns (the window's come after them).
  return project_select_list(select, input.scope, binder, std::move(filter));
}

}  // namespace freshet::sql
