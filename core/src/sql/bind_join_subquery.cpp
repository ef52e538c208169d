// QueryBinder::bind_join_subqueries: an INNER or CROSS join whose ON holds
// subqueries. ON of an inner join filters the pairs as WHERE would, so the
// conjuncts without subqueries make the join (equalities between the sides
// its keys, the rest its residual) and those with subqueries filter its
// rows, their facts joined in (bind_subquery.cpp).
#include "bind_subquery.h"
#include "expression_tools.h"

namespace freshet::sql {

Result<QueryBinder::Bound> QueryBinder::bind_join_subqueries(const TableRef& join) {
  if (join.join_type == JoinType::kLeft) {
    return sql_error(join.condition->position, "a subquery in the ON condition of a LEFT JOIN is not supported");
  }
  Result<Bound> left = bind_from(*join.left);
  if (!left.ok()) return left.status();
  Result<Bound> right = bind_from(*join.right);
  if (!right.ok()) return right.status();
  for (const ScopeColumn& column : right->scope.columns) {
    if (!column.table.empty() && left->scope.has_table(column.table)) {
      return sql_error(join.right->position, "'" + column.table + "' appears twice in FROM; give one of them an alias");
    }
  }
  const size_t left_width = left->scope.columns.size();
  Scope scope = left->scope;
  scope.columns.insert(scope.columns.end(), right->scope.columns.begin(), right->scope.columns.end());
  auto plan = std::make_unique<LogicalPlan>();
  plan->kind = LogicalPlan::Kind::kJoin;
  plan->join_type = JoinType::kInner;
  std::vector<const AstExpr*> filters;
  std::vector<ExprPtr> residual;
  for (const AstExpr* conjunct : split_ast_conjuncts(*join.condition)) {
    if (contains_aggregate(*conjunct)) return sql_error(conjunct->position, "aggregates are not allowed in ON");
    if (contains_subquery(*conjunct)) {
      filters.push_back(conjunct);
      continue;
    }
    Result<ExprPtr> bound = ExpressionBinder(scope).bind_condition(*conjunct, "ON");
    if (!bound.ok()) return bound.status();
    ExprPtr condition = std::move(*bound);
    if (condition->kind == ExprKind::kCompare && condition->op == AstOperator::kEqual && !contains_now(*condition)) {
      ColumnRange a = referenced_columns(*condition->children[0]), b = referenced_columns(*condition->children[1]);
      bool straight = a.within(0, left_width) && b.within(left_width, scope.columns.size());
      bool swapped = b.within(0, left_width) && a.within(left_width, scope.columns.size());
      if (straight || swapped) {
        ExprPtr right_key = std::move(condition->children[straight ? 1 : 0]);
        shift_columns(*right_key, left_width);
        plan->left_keys.push_back(std::move(condition->children[straight ? 0 : 1]));
        plan->right_keys.push_back(std::move(right_key));
        continue;
      }
    }
    residual.push_back(std::move(condition));
  }
  plan->residual = conjoin(std::move(residual));
  plan->schema = schema_of(scope);
  for (size_t c = 0; c < left_width; ++c) plan->left_columns.push_back(c);
  for (size_t c = left_width; c < scope.columns.size(); ++c) plan->right_columns.push_back(c - left_width);
  plan->inputs.push_back(std::move(left->plan));
  plan->inputs.push_back(std::move(right->plan));
  return bind_where_subqueries(filters, Bound{std::move(plan), std::move(scope)});
}

}  // namespace freshet::sql
