// QueryBinder::bind_aggregate_subqueries: subqueries in the select list or
// HAVING of a query with GROUP BY or aggregates.
//
//   input ─► Aggregate [keys..., every aggregate call...]   (bind_aggregate)
//         ─► the subqueries' facts joined in               (bind_subquery.cpp)
//         ─► Filter HAVING ─► Project select list
//
// A GROUP BY key that is a plain column keeps its name over the aggregate's
// rows, so a subquery may be correlated with it
// (`HAVING COUNT(*) > (SELECT COUNT(*) FROM o WHERE o.dept = t.dept)`).
#include "bind_subquery.h"

namespace freshet::sql {
namespace {

// The aggregate calls of a tree, not looking inside calls or subqueries.
void collect_calls(const AstExpr& ast, std::vector<const AstExpr*>& calls) {
  if (ast.kind == AstExprKind::kFunction && !ast.over && is_aggregate_function(ast.name)) {
    calls.push_back(&ast);
    return;
  }
  for (const AstExprPtr& child : ast.children) {
    if (child) collect_calls(*child, calls);
  }
  if (ast.case_operand) collect_calls(*ast.case_operand, calls);
  if (ast.else_result) collect_calls(*ast.else_result, calls);
}

}  // namespace

Result<QueryBinder::Bound> QueryBinder::bind_aggregate_subqueries(const Select& select, Bound input) {
  std::vector<const AstExpr*> calls;
  for (const SelectItem& item : select.items) {
    if (item.star) return sql_error(item.position, "* cannot be used with GROUP BY or aggregates");
    collect_calls(*item.expr, calls);
  }
  if (select.having) collect_calls(*select.having, calls);

  // The aggregate: its rows are [keys..., calls...].
  const Scope input_scope = input.scope;
  std::vector<std::string> key_texts;
  Scope scope;
  Select aggregate;
  aggregate.position = select.position;
  for (size_t k = 0; k < select.group_by.size(); ++k) {
    const AstExpr& key = *select.group_by[k];
    Result<ExprPtr> bound = ExpressionBinder(input_scope).bind(key);
    if (!bound.ok()) return bound.status();
    key_texts.push_back((*bound)->to_string());
    ScopeColumn column{"", "$g" + std::to_string(k), (*bound)->type, false, true};
    if (key.kind == AstExprKind::kColumnRef) {
      const ScopeColumn& named = input_scope.columns[*input_scope.resolve(key.names, key.position)];
      column = {named.table, named.name, (*bound)->type, false};
    }
    scope.columns.push_back(column);
    aggregate.items.push_back({key.position, clone_ast(key), false, "", "$g" + std::to_string(k)});
    aggregate.group_by.push_back(clone_ast(key));
  }
  for (size_t c = 0; c < calls.size(); ++c) {
    aggregate.items.push_back({calls[c]->position, clone_ast(*calls[c]), false, "", "$a" + std::to_string(c)});
  }
  Result<Bound> grouped = bind_aggregate(aggregate, std::move(input));
  if (!grouped.ok()) return grouped.status();
  for (size_t c = 0; c < calls.size(); ++c) {
    scope.columns.push_back({"", "$a" + std::to_string(c), grouped->scope.columns[key_texts.size() + c].type, false, true});
  }
  Bound rows{std::move(grouped->plan), scope};

  // Over the aggregate's rows: a call is its column, a GROUP BY expression its key.
  auto grouped_value = [&](const AstExpr& ast) -> Result<ExprPtr> {
    auto call = std::find(calls.begin(), calls.end(), &ast);
    if (call != calls.end()) {
      size_t column = key_texts.size() + static_cast<size_t>(call - calls.begin());
      return column_expr(column, rows.scope.columns[column].type);
    }
    if (contains_aggregate(ast) || contains_subquery(ast)) return ExprPtr();  // bind its parts
    Result<ExprPtr> plain = ExpressionBinder(input_scope).bind(ast);
    if (plain.ok()) {
      std::string text = (*plain)->to_string();
      for (size_t k = 0; k < key_texts.size(); ++k) {
        if (key_texts[k] == text) return column_expr(k, rows.scope.columns[k].type);
      }
    }
    if (ast.kind == AstExprKind::kColumnRef) {
      if (!plain.ok()) return plain.status();
      std::string name = ast.names.size() == 2 ? ast.names[0] + "." + ast.names[1] : ast.names[0];
      return sql_error(ast.position, "column '" + name + "' must appear in GROUP BY or be used in an aggregate");
    }
    return ExprPtr();
  };
  SubqueryValues values;
  values.fallback = grouped_value;
  for (const SelectItem& item : select.items) FRESHET_RETURN_IF_ERROR(attach_subqueries(*item.expr, rows, values));
  if (select.having) FRESHET_RETURN_IF_ERROR(attach_subqueries(*select.having, rows, values));
  Scope none;
  ExpressionBinder binder(none, values.interceptor());
  if (select.having) {
    Result<ExprPtr> having = binder.bind_condition(*select.having, "HAVING");
    if (!having.ok()) return having.status();
    PlanPtr filter = wrap_plan(LogicalPlan::Kind::kFilter, std::move(rows.plan));
    filter->predicate = std::move(*having);
    rows.plan = std::move(filter);
  }
  Scope output;
  std::vector<ExprPtr> expressions;
  for (size_t i = 0; i < select.items.size(); ++i) {
    Result<ExprPtr> expr = binder.bind(*select.items[i].expr);
    if (!expr.ok()) return expr.status();
    if (is_null_literal(**expr)) *expr = untyped_null(SqlType::integer());  // INTEGER unless a set operation types it
    output.columns.push_back({"", output_name(select.items[i], i), (*expr)->type});
    expressions.push_back(std::move(*expr));
  }
  PlanPtr project = make_plan(LogicalPlan::Kind::kProject, schema_of(output), std::move(rows.plan));
  project->expressions = std::move(expressions);
  return Bound{std::move(project), std::move(output)};
}

}  // namespace freshet::sql
