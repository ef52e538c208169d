// QueryBinder: queries, set operations, SELECT, FROM and joins, ORDER BY / LIMIT.
#include "binder.h"
#include "expression_binder.h"
#include "expression_tools.h"
#include "subquery_tools.h"
#include "type_rules.h"

namespace freshet::sql {
namespace {

std::string describe(const SqlType& type) { return type.with_nullable(true).to_string(); }

// The name SQL gives an output column: its alias, the column it names, or EXPR$i.
std::string output_name(const SelectItem& item, size_t index) {
  if (!item.alias.empty()) return item.alias;
  if (item.expr && item.expr->kind == AstExprKind::kColumnRef) return item.expr->names.back();
  return "EXPR$" + std::to_string(index);
}

}  // namespace

SchemaPtr schema_of(const Scope& scope) {
  std::vector<Column> columns;
  for (const ScopeColumn& column : scope.columns) columns.push_back({column.name, column.type});
  return make_schema(std::move(columns));
}

PlanPtr make_plan(LogicalPlan::Kind kind, SchemaPtr schema, PlanPtr input) {
  auto plan = std::make_unique<LogicalPlan>();
  plan->kind = kind;
  plan->schema = std::move(schema);
  if (input) plan->inputs.push_back(std::move(input));
  return plan;
}

PlanPtr wrap_plan(LogicalPlan::Kind kind, PlanPtr input) {
  SchemaPtr schema = input->schema;  // read before `input` moves into the new node
  return make_plan(kind, std::move(schema), std::move(input));
}

Result<PlanPtr> QueryBinder::bind(const Query& query) {
  Result<Bound> bound = bind_query(query);
  if (!bound.ok()) return bound.status();
  return std::move(bound->plan);
}

Result<QueryBinder::Bound> QueryBinder::bind_query(const Query& query) {
  Result<Bound> body = query.select ? bind_select(*query.select) : bind_set_operation(query);
  if (!body.ok()) return body.status();
  return bind_order_limit(query, std::move(*body));
}

Result<QueryBinder::Bound> QueryBinder::bind_set_operation(const Query& query) {
  Result<Bound> left = bind_query(*query.left);
  if (!left.ok()) return left.status();
  Result<Bound> right = bind_query(*query.right);
  if (!right.ok()) return right.status();
  const char* name = query.set_operator == SetOperator::kExcept ? "EXCEPT" : "UNION";
  if (left->scope.columns.size() != right->scope.columns.size()) {
    return sql_error(query.position, std::string(name) + " operands have " +
                                         std::to_string(left->scope.columns.size()) + " and " +
                                         std::to_string(right->scope.columns.size()) + " columns");
  }
  // Both sides meet in one type per column; the left side names them.
  Scope scope;
  for (size_t i = 0; i < left->scope.columns.size(); ++i) {
    const SqlType& a = left->scope.columns[i].type;
    const SqlType& b = right->scope.columns[i].type;
    std::optional<SqlType> common = common_type(a, b);
    if (!common) {
      return sql_error(query.position, std::string(name) + " column " + std::to_string(i + 1) + " mixes " +
                                           describe(a) + " and " + describe(b));
    }
    scope.columns.push_back({"", left->scope.columns[i].name, *common});
  }
  SchemaPtr schema = schema_of(scope);
  auto conform = [&](Bound side) {
    bool same = true;
    for (size_t i = 0; i < scope.columns.size(); ++i) same = same && side.scope.columns[i].type == scope.columns[i].type;
    if (same) return std::move(side.plan);
    PlanPtr project = make_plan(LogicalPlan::Kind::kProject, schema, std::move(side.plan));
    for (size_t i = 0; i < scope.columns.size(); ++i) {
      project->expressions.push_back(cast_to(column_expr(i, side.scope.columns[i].type), scope.columns[i].type));
    }
    return project;
  };
  PlanPtr left_plan = conform(std::move(*left)), right_plan = conform(std::move(*right));
  LogicalPlan::Kind kind =
      query.set_operator == SetOperator::kExcept ? LogicalPlan::Kind::kExcept : LogicalPlan::Kind::kUnionAll;
  PlanPtr plan = make_plan(kind, schema, std::move(left_plan));
  plan->inputs.push_back(std::move(right_plan));
  if (query.set_operator == SetOperator::kUnion) plan = make_plan(LogicalPlan::Kind::kDistinct, schema, std::move(plan));
  return Bound{std::move(plan), std::move(scope)};
}

Result<QueryBinder::Bound> QueryBinder::bind_select(const Select& select) {
  if (!select.from) return sql_error(select.position, "expected FROM: a SELECT needs a table, view or subquery");
  Result<Bound> from = bind_from(*select.from);
  if (!from.ok()) return from.status();
  return bind_select_body(select, std::move(*from));
}

Result<QueryBinder::Bound> QueryBinder::bind_select_body(const Select& select, Bound input) {
  if (select.where && contains_subquery(*select.where)) {
    Result<Bound> filtered = bind_where_subqueries(split_ast_conjuncts(*select.where), std::move(input));
    if (!filtered.ok()) return filtered.status();
    input = std::move(*filtered);
  } else if (select.where) {
    if (contains_window(*select.where)) {
      return sql_error(select.where->position, "window functions are not allowed in WHERE");
    }
    if (contains_aggregate(*select.where)) {
      return sql_error(select.where->position, "aggregates are not allowed in WHERE; use HAVING");
    }
    Result<ExprPtr> predicate = ExpressionBinder(input.scope).bind_condition(*select.where, "WHERE");
    if (!predicate.ok()) return predicate.status();
    PlanPtr filter = wrap_plan(LogicalPlan::Kind::kFilter, std::move(input.plan));
    filter->predicate = std::move(*predicate);
    input.plan = std::move(filter);
  }
  bool aggregating = !select.group_by.empty() || (select.having && contains_aggregate(*select.having));
  for (const SelectItem& item : select.items) aggregating = aggregating || (item.expr && contains_aggregate(*item.expr));
  bool windowed = false;
  for (const SelectItem& item : select.items) windowed = windowed || (item.expr && contains_window(*item.expr));
  FRESHET_RETURN_IF_ERROR(check_subquery_places(select, windowed));
  for (const AstExprPtr& key : select.group_by) {
    if (contains_window(*key)) return sql_error(key->position, "window functions are not allowed in GROUP BY");
  }
  if (select.having && contains_window(*select.having)) {
    return sql_error(select.having->position, "window functions are not allowed in HAVING");
  }
  if (windowed && aggregating) {
    return sql_error(select.position, "window functions in a query with GROUP BY or aggregates are not supported");
  }
  if (!select.windows.empty() && !windowed) {
    return sql_error(select.windows[0].position, "window '" + select.windows[0].name + "' is not used");
  }
  Result<Bound> body = Bound{};
  if (windowed) {
    body = bind_window(select, std::move(input));
  } else if (aggregating && has_subquery(select)) {
    body = bind_aggregate_subqueries(select, std::move(input));
  } else if (aggregating) {
    body = bind_aggregate(select, std::move(input));
  } else {
    if (select.having) return sql_error(select.having->position, "HAVING needs GROUP BY or an aggregate");
    Scope scope;
    std::vector<ExprPtr> expressions;
    SubqueryValues subqueries;
    for (const SelectItem& item : select.items) {
      if (item.expr) FRESHET_RETURN_IF_ERROR(attach_subqueries(*item.expr, input, subqueries));
    }
    ExpressionBinder binder(input.scope, subqueries.values.empty() ? nullptr : subqueries.interceptor());
    for (size_t i = 0; i < select.items.size(); ++i) {
      const SelectItem& item = select.items[i];
      if (item.star) {
        if (!item.star_table.empty() && !input.scope.has_table(item.star_table)) {
          return sql_error(item.position, "unknown table or alias '" + item.star_table + "' in " + item.star_table + ".*");
        }
        for (size_t c = 0; c < input.scope.columns.size(); ++c) {
          const ScopeColumn& column = input.scope.columns[c];
          if ((!item.star_table.empty() && column.table != item.star_table) || column.hidden) continue;
          scope.columns.push_back({"", column.name, column.type});
          expressions.push_back(column_expr(c, column.type));
        }
        continue;
      }
      Result<ExprPtr> expr = binder.bind(*item.expr);
      if (!expr.ok()) return expr.status();
      if (is_null_literal(**expr)) *expr = null_literal(SqlType::integer());
      scope.columns.push_back({"", output_name(item, i), (*expr)->type});
      expressions.push_back(std::move(*expr));
    }
    PlanPtr project = make_plan(LogicalPlan::Kind::kProject, schema_of(scope), std::move(input.plan));
    project->expressions = std::move(expressions);
    body = Bound{std::move(project), std::move(scope)};
  }
  if (!body.ok() || !select.distinct) return body;
  body->plan = wrap_plan(LogicalPlan::Kind::kDistinct, std::move(body->plan));
  return body;
}

Result<QueryBinder::Bound> QueryBinder::bind_from(const TableRef& from) {
  switch (from.kind) {
    case TableRef::Kind::kTable: {
      SchemaPtr schema = lookup_(from.name);
      if (!schema) return sql_error(from.position, "unknown table or view '" + from.name + "'");
      Scope scope;
      const std::string& table = from.alias.empty() ? from.name : from.alias;
      for (const Column& column : schema->columns()) scope.columns.push_back({table, column.name, column.type});
      PlanPtr scan = make_plan(LogicalPlan::Kind::kScan, schema, nullptr);
      scan->source = from.name;
      return Bound{std::move(scan), std::move(scope)};
    }
    case TableRef::Kind::kSubquery: {
      Result<Bound> bound = bind_query(*from.subquery);
      if (!bound.ok()) return bound.status();
      for (ScopeColumn& column : bound->scope.columns) column.table = from.alias;
      return bound;
    }
    case TableRef::Kind::kJoin: return bind_join(from);
    case TableRef::Kind::kTimeWindow: return bind_time_window(from);
  }
  return sql_error(from.position, "unsupported FROM item");
}

Result<QueryBinder::Bound> QueryBinder::bind_join(const TableRef& join) {
  if (join.condition && contains_subquery(*join.condition)) return bind_join_subqueries(join);
  Result<Bound> left = bind_from(*join.left);
  if (!left.ok()) return left.status();
  Result<Bound> right = bind_from(*join.right);
  if (!right.ok()) return right.status();
  for (const ScopeColumn& column : right->scope.columns) {
    if (!column.table.empty() && left->scope.has_table(column.table)) {
      return sql_error(join.right->position,
                       "'" + column.table + "' appears twice in FROM; give one of them an alias");
    }
  }
  size_t left_width = left->scope.columns.size();
  Scope scope = left->scope;
  scope.columns.insert(scope.columns.end(), right->scope.columns.begin(), right->scope.columns.end());

  auto plan = std::make_unique<LogicalPlan>();
  plan->kind = LogicalPlan::Kind::kJoin;
  plan->join_type = join.join_type;
  if (join.condition) {
    if (contains_aggregate(*join.condition)) return sql_error(join.condition->position, "aggregates are not allowed in ON");
    Result<ExprPtr> condition = ExpressionBinder(scope).bind_condition(*join.condition, "ON");
    if (!condition.ok()) return condition.status();
    // Conjuncts `left = right` become the equi-join key; the rest stays a residual.
    std::vector<ExprPtr> residual;
    for (ExprPtr& conjunct : split_conjuncts(std::move(*condition))) {
      if (conjunct->kind == ExprKind::kCompare && conjunct->op == AstOperator::kEqual) {
        ColumnRange a = referenced_columns(*conjunct->children[0]), b = referenced_columns(*conjunct->children[1]);
        bool straight = a.within(0, left_width) && b.within(left_width, scope.columns.size());
        bool swapped = b.within(0, left_width) && a.within(left_width, scope.columns.size());
        // A key reading NOW() stays a residual: the planner joins the clock in there.
        if ((straight || swapped) && !contains_now(*conjunct)) {
          ExprPtr left_key = std::move(conjunct->children[straight ? 0 : 1]);
          ExprPtr right_key = std::move(conjunct->children[straight ? 1 : 0]);
          shift_columns(*right_key, left_width);
          plan->left_keys.push_back(std::move(left_key));
          plan->right_keys.push_back(std::move(right_key));
          continue;
        }
      }
      residual.push_back(std::move(conjunct));
    }
    plan->residual = conjoin(std::move(residual));
  }
  // The right side of a LEFT JOIN may be missing: its columns become nullable.
  if (join.join_type == JoinType::kLeft) {
    for (size_t i = left_width; i < scope.columns.size(); ++i) scope.columns[i].type.nullable = true;
  }
  plan->schema = schema_of(scope);
  for (size_t c = 0; c < left_width; ++c) plan->left_columns.push_back(c);
  for (size_t c = left_width; c < scope.columns.size(); ++c) plan->right_columns.push_back(c - left_width);
  plan->inputs.push_back(std::move(left->plan));
  plan->inputs.push_back(std::move(right->plan));
  return Bound{std::move(plan), std::move(scope)};
}

Result<QueryBinder::Bound> QueryBinder::bind_order_limit(const Query& query, Bound body) {
  if (!query.limit) return body;  // a view is a set: ORDER BY alone changes nothing
  std::vector<SortColumn> order;
  for (const OrderItem& item : query.order_by) {
    std::optional<size_t> column;
    const AstExpr& expr = *item.expr;
    if (expr.kind == AstExprKind::kLiteral && expr.literal_kind == LiteralKind::kInteger) {
      size_t position = std::strtoull(expr.text.c_str(), nullptr, 10);
      if (position < 1 || position > body.scope.columns.size()) {
        return sql_error(expr.position, "ORDER BY position " + expr.text + " is not in the select list");
      }
      column = position - 1;
    } else if (expr.kind == AstExprKind::kColumnRef && expr.names.size() == 1) {
      Result<size_t> found = body.scope.resolve(expr.names, expr.position);
      if (!found.ok()) return found.status();
      column = *found;
    } else {
      return sql_error(expr.position, "ORDER BY with LIMIT must name an output column (by name or position)");
    }
    order.push_back({*column, item.descending, item.nulls_first.value_or(item.descending)});
  }
  PlanPtr top = wrap_plan(LogicalPlan::Kind::kTopK, std::move(body.plan));
  top->order = std::move(order);
  top->limit = *query.limit;
  body.plan = std::move(top);
  return body;
}

}  // namespace freshet::sql
