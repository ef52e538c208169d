// QueryBinder: queries, set operations, SELECT, FROM and joins, ORDER BY / LIMIT.
#include "bind_join_using.h"
#include "binder.h"
#include "expression_binder.h"
#include "expression_tools.h"
#include "freshet/common/out_of_line.h"
#include "group_by_sets.h"
#include "subquery_tools.h"
#include "type_rules.h"

namespace freshet::sql {
namespace {

std::string describe(const SqlType& type) { return type.with_nullable(true).to_string(); }

const char* set_operator_name(SetOperator op) {
  switch (op) {
    case SetOperator::kUnion:
      return "UNION";
    case SetOperator::kUnionAll:
      return "UNION ALL";
    case SetOperator::kExcept:
      return "EXCEPT";
    case SetOperator::kExceptAll:
      return "EXCEPT ALL";
    case SetOperator::kIntersect:
      return "INTERSECT";
    case SetOperator::kIntersectAll:
      return "INTERSECT ALL";
  }
  return "UNION";
}

// Whether column `i` of `plan` is a bare NULL in every row (`SELECT NULL`,
// a VALUES column of NULLs, a set operation whose rows all come from such
// columns): its INTEGER type is only a default.
bool is_null_column(const LogicalPlan& plan, size_t i) {
  using Kind = LogicalPlan::Kind;
  if (plan.kind == Kind::kProject) return is_null_literal(*plan.expressions[i]);
  if (plan.kind == Kind::kDistinct || plan.kind == Kind::kExcept || plan.kind == Kind::kExceptAll ||
      plan.kind == Kind::kIntersect || plan.kind == Kind::kIntersectAll) {
    return is_null_column(*plan.inputs[0], i);  // every row is one of the first input's
  }
  if (plan.kind == Kind::kUnionAll) return is_null_column(*plan.inputs[0], i) && is_null_column(*plan.inputs[1], i);
  if (plan.kind != LogicalPlan::Kind::kValues) return false;
  for (const std::vector<ExprPtr>& row : plan.rows) {
    if (!is_null_literal(*row[i])) return false;
  }
  return true;
}

// Flags the columns of a subquery or WITH item that are a bare NULL in
// every row, so references to them stay untyped (ScopeColumn::null_only).
void mark_null_columns(const LogicalPlan& plan, Scope& scope) {
  for (size_t i = 0; i < scope.columns.size(); ++i) scope.columns[i].null_only = is_null_column(plan, i);
}

// The plan node of a set operation (UNION adds a DISTINCT over kUnionAll).
LogicalPlan::Kind set_operation_kind(SetOperator op) {
  switch (op) {
    case SetOperator::kUnion:
    case SetOperator::kUnionAll:
      return LogicalPlan::Kind::kUnionAll;
    case SetOperator::kExcept:
      return LogicalPlan::Kind::kExcept;
    case SetOperator::kExceptAll:
      return LogicalPlan::Kind::kExceptAll;
    case SetOperator::kIntersect:
      return LogicalPlan::Kind::kIntersect;
    case SetOperator::kIntersectAll:
      return LogicalPlan::Kind::kIntersectAll;
  }
  return LogicalPlan::Kind::kUnionAll;
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
  const size_t outer_tables = common_tables_.size();
  for (const CommonTableExpression& item : query.with) {
    // Every item is checked once, used or not; each use binds it again.
    Result<Bound> checked = bind_common_table(item);
    if (!checked.ok()) {
      common_tables_.resize(outer_tables);
      return checked.status();
    }
    common_tables_.push_back(&item);
  }
  select_order_by_ = &query.order_by;
  Result<Bound> body = query.select            ? bind_select(*query.select)
                       : !query.values.empty() ? call_out_of_line<&QueryBinder::bind_values>(this, query)
                                               : bind_set_operation(query);
  if (body.ok()) body = bind_order_limit(query, std::move(*body));
  common_tables_.resize(outer_tables);
  return body;
}

Result<QueryBinder::Bound> QueryBinder::bind_set_operation(const Query& query) {
  Result<Bound> left = bind_query(*query.left);
  if (!left.ok()) return left.status();
  Result<Bound> right = bind_query(*query.right);
  if (!right.ok()) return right.status();
  const char* name = set_operator_name(query.set_operator);
  if (left->scope.columns.size() != right->scope.columns.size()) {
    return sql_error(query.operator_position, std::string(name) + " operands have " +
                                                  std::to_string(left->scope.columns.size()) + " and " +
                                                  std::to_string(right->scope.columns.size()) + " columns");
  }
  // Both sides meet in one type per column; the left side names them.
  Scope scope;
  for (size_t i = 0; i < left->scope.columns.size(); ++i) {
    const SqlType& a = left->scope.columns[i].type;
    const SqlType& b = right->scope.columns[i].type;
    // A side whose column is only a NULL literal takes the other side's type.
    bool a_null = is_null_column(*left->plan, i), b_null = is_null_column(*right->plan, i);
    std::optional<SqlType> common = a_null && !b_null   ? b.with_nullable(true)
                                    : b_null && !a_null ? a.with_nullable(true)
                                                        : common_type(a, b);
    if (!common) {
      return sql_error(query.operator_position, std::string(name) + " column " + std::to_string(i + 1) + " mixes " +
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
      const bool null_column = is_null_column(*project->inputs[0], i);
      project->expressions.push_back(null_column
                                         ? null_literal(scope.columns[i].type.with_nullable(true))
                                         : cast_to(column_expr(i, side.scope.columns[i].type), scope.columns[i].type));
    }
    return project;
  };
  PlanPtr left_plan = conform(std::move(*left)), right_plan = conform(std::move(*right));
  LogicalPlan::Kind kind = set_operation_kind(query.set_operator);
  PlanPtr plan = make_plan(kind, schema, std::move(left_plan));
  plan->inputs.push_back(std::move(right_plan));
  if (query.set_operator == SetOperator::kUnion) plan = make_plan(LogicalPlan::Kind::kDistinct, schema, std::move(plan));
  return Bound{std::move(plan), std::move(scope)};
}

Result<QueryBinder::Bound> QueryBinder::bind_select(const Select& select, const std::vector<const AstExpr*>* hidden) {
  const std::vector<OrderItem>* order_by = select_order_by_;  // before FROM's subqueries bind theirs
  select_order_by_ = nullptr;
  Result<Bound> from = select.from ? bind_from(*select.from) : unit_row();
  if (!from.ok()) return from.status();
  return bind_select_body(select, std::move(*from), hidden, order_by);
}

Result<QueryBinder::Bound> QueryBinder::bind_select_body(const Select& select, Bound input,
                                                         const std::vector<const AstExpr*>* hidden,
                                                         const std::vector<OrderItem>* order_by) {
  const bool hiding = hidden && !hidden->empty();
  if (select.where && contains_subquery(*select.where)) {
    Result<Bound> filtered = call_out_of_line<&QueryBinder::bind_where_subqueries>(
        this, split_ast_conjuncts(*select.where), std::move(input));
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
  bool aggregating =
      select.has_group_by || !select.group_by.empty() || (select.having && contains_aggregate(*select.having));
  for (const SelectItem& item : select.items) {
    aggregating = aggregating || (item.expr && (contains_aggregate(*item.expr) || contains_grouping_call(*item.expr)));
  }
  bool windowed = select.qualify && contains_window(*select.qualify);
  for (const SelectItem& item : select.items) windowed = windowed || (item.expr && contains_window(*item.expr));
  if (select.qualify && !windowed) {
    return sql_error(select.qualify->position, "QUALIFY needs a window function (in QUALIFY or the select list)");
  }
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
  if (hiding && (windowed || aggregating || select.distinct)) {
    return sql_error((*hidden)[0]->position,
                     "ORDER BY with LIMIT must name an output column (by name or position) when the SELECT has "
                     "DISTINCT, GROUP BY, aggregates or window functions");
  }
  Result<Bound> body = Bound{};
  if (!select.distinct_on.empty()) {
    if (windowed || aggregating) {
      return sql_error(select.distinct_on_position,
                       "SELECT DISTINCT ON with GROUP BY, aggregates or window functions is not supported");
    }
    if (select.having) return sql_error(select.having->position, "HAVING needs GROUP BY or an aggregate");
    static const std::vector<OrderItem> kNoOrder;
    return call_out_of_line<&QueryBinder::bind_distinct_on>(this, select, order_by ? *order_by : kNoOrder,
                                                            std::move(input));
  }
  if (windowed || aggregating) {
    // Called through a pointer, so that each stays a wasm function of its
    // own instead of growing this one (bind_node.cpp says why).
    const BodyBinder binder = windowed                              ? &QueryBinder::bind_window
                              : has_subquery(select)                ? &QueryBinder::bind_aggregate_subqueries
                                                                    : &QueryBinder::bind_aggregate;
    body = (this->*binder)(select, std::move(input));
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
        Result<std::vector<size_t>> columns = star_columns(input.scope, item);
        if (!columns.ok()) return columns.status();
        for (size_t c : *columns) {
          const ScopeColumn& column = input.scope.columns[c];
          scope.columns.push_back({"", column.name, column.type});
          // A bare NULL column stays one (its type is still only a default).
          expressions.push_back(column.null_only ? untyped_null(column.type) : column_expr(c, column.type));
        }
        continue;
      }
      Result<ExprPtr> expr = binder.bind(*item.expr);
      if (!expr.ok()) return expr.status();
      // A column of only NULL is INTEGER unless a set operation's other side types it (is_null_column).
      if (is_null_literal(**expr)) *expr = untyped_null(SqlType::integer());
      scope.columns.push_back({"", output_name(item, i), (*expr)->type});
      expressions.push_back(std::move(*expr));
    }
    for (size_t i = 0; hiding && i < hidden->size(); ++i) {
      const AstExpr& order_expr = *(*hidden)[i];
      if (contains_aggregate(order_expr) || contains_window(order_expr)) {
        return sql_error(order_expr.position, "ORDER BY with LIMIT cannot use an aggregate or window function here");
      }
      Result<ExprPtr> expr = binder.bind(order_expr);
      if (!expr.ok()) return expr.status();
      scope.columns.push_back({"", "$order" + std::to_string(i), (*expr)->type});
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

// Each kind's binder is called through a pointer, so that it stays a wasm
// function of its own instead of growing this one (bind_node.cpp says why).
Result<QueryBinder::Bound> QueryBinder::bind_from(const TableRef& from) {
  FromBinder binder = nullptr;
  switch (from.kind) {
    case TableRef::Kind::kTable: binder = &QueryBinder::bind_table; break;
    case TableRef::Kind::kSubquery: binder = &QueryBinder::bind_derived_table; break;
    case TableRef::Kind::kJoin: binder = &QueryBinder::bind_join; break;
    case TableRef::Kind::kTimeWindow: binder = &QueryBinder::bind_time_window; break;
  }
  if (!binder) return sql_error(from.position, "unsupported FROM item");
  return (this->*binder)(from);
}

Result<QueryBinder::Bound> QueryBinder::bind_table(const TableRef& from) {
  if (std::optional<Result<Bound>> common = bind_common_table_reference(from)) {
    if (common->ok()) mark_null_columns(*(*common)->plan, (*common)->scope);
    return std::move(*common);
  }
  SchemaPtr schema = lookup_(from.name);
  if (!schema) return sql_error(from.position, "unknown table or view '" + from.name + "'");
  Scope scope;
  const std::string& table = from.alias.empty() ? from.name : from.alias;
  for (const Column& column : schema->columns()) scope.columns.push_back({table, column.name, column.type});
  PlanPtr scan = make_plan(LogicalPlan::Kind::kScan, schema, nullptr);
  scan->source = from.name;
  Bound bound{std::move(scan), std::move(scope)};
  FRESHET_RETURN_IF_ERROR(rename_columns(bound, from.column_aliases, from.position, "'" + table + "'"));
  return bound;
}

Result<QueryBinder::Bound> QueryBinder::bind_derived_table(const TableRef& from) {
  Result<Bound> bound = bind_query(*from.subquery);
  if (!bound.ok()) return from.lateral ? lateral_reference_error(from, bound.status()) : bound.status();
  for (ScopeColumn& column : bound->scope.columns) column.table = from.alias;
  FRESHET_RETURN_IF_ERROR(rename_columns(*bound, from.column_aliases, from.position, "'" + from.alias + "'"));
  mark_null_columns(*bound->plan, bound->scope);
  return bound;
}

Result<QueryBinder::Bound> QueryBinder::bind_join(const TableRef& join) {
  if (join.right->kind == TableRef::Kind::kSubquery && join.right->lateral) {
    if (std::optional<Result<Bound>> lateral = call_out_of_line<&QueryBinder::bind_lateral_join>(this, join)) {
      return std::move(*lateral);
    }
  }
  if (join.condition && contains_subquery(*join.condition)) {
    return call_out_of_line<&QueryBinder::bind_join_subqueries>(this, join);
  }
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
  const bool shares_columns = join.natural || !join.using_columns.empty();
  std::vector<UsingColumn> shared;
  if (shares_columns) {  // NATURAL / USING (bind_join_using.h)
    Result<std::vector<UsingColumn>> found = using_columns(join, left->scope, right->scope);
    if (!found.ok()) return found.status();
    shared = std::move(*found);
    add_using_keys(shared, *plan, scope, left_width);
  }
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
  // The right side of a LEFT JOIN may be missing, the left of a RIGHT JOIN,
  // either of a FULL JOIN: their columns become nullable.
  const bool left_missing = join.join_type == JoinType::kRight || join.join_type == JoinType::kFull;
  const bool right_missing = join.join_type == JoinType::kLeft || join.join_type == JoinType::kFull;
  for (size_t i = 0; i < scope.columns.size(); ++i) {
    if (i < left_width ? left_missing : right_missing) scope.columns[i].type.nullable = true;
  }
  // Columns the two sides share a name of are qualified ("o.id", "c.id"), so
  // that explain and runtime errors over the joined rows tell them apart.
  plan->schema = schema_of(scope);
  const ColumnNames names = scope.column_names();
  std::vector<Column> columns = plan->schema->columns();
  for (size_t c = 0; c < columns.size(); ++c) columns[c].name = names[c];
  plan->schema = make_schema(std::move(columns));
  for (size_t c = 0; c < left_width; ++c) plan->left_columns.push_back(c);
  for (size_t c = left_width; c < scope.columns.size(); ++c) plan->right_columns.push_back(c - left_width);
  plan->inputs.push_back(std::move(left->plan));
  plan->inputs.push_back(std::move(right->plan));
  if (shares_columns) {
    PlanPtr merged = merge_using_columns(shared, join.join_type, std::move(plan), scope, left_width);
    return Bound{std::move(merged), std::move(scope)};
  }
  return Bound{std::move(plan), std::move(scope)};
}

Result<QueryBinder::Bound> QueryBinder::bind_order_limit(const Query& query, Bound body) {
  // A view is a set: ORDER BY alone changes nothing, and is ignored (as Feldera).
  if (!query.limit && !query.offset) return body;
  const size_t width = body.scope.columns.size();
  std::vector<SortColumn> order;
  // ORDER BY items that are not output columns: computed as hidden columns
  // of the SELECT, after its own (at width + i), and dropped after the top-k.
  std::vector<const AstExpr*> hidden;
  for (const OrderItem& item : query.order_by) {
    size_t column = 0;
    const AstExpr& expr = *item.expr;
    bool output_name = false;
    if (expr.kind == AstExprKind::kColumnRef && expr.names.size() == 1) {
      for (const ScopeColumn& output : body.scope.columns) output_name = output_name || output.name == expr.names[0];
    }
    if (expr.kind == AstExprKind::kLiteral && expr.literal_kind == LiteralKind::kInteger) {
      size_t position = std::strtoull(expr.text.c_str(), nullptr, 10);
      if (position < 1 || position > width) {
        return sql_error(expr.position, "ORDER BY position " + expr.text + " is not in the select list");
      }
      column = position - 1;
    } else if (output_name) {
      Result<size_t> found = body.scope.resolve(expr.names, expr.position);
      if (!found.ok()) return found.status();
      column = *found;
    } else if (std::optional<size_t> repeated = repeated_select_item(query, expr)) {
      column = *repeated;  // `ORDER BY SUM(x)` for `SELECT SUM(x) ...` (group_by_sets.h)
    } else if (query.select) {
      column = width + hidden.size();
      hidden.push_back(&expr);
    } else {
      return sql_error(expr.position, "ORDER BY of a set operation must name an output column (by name or position)");
    }
    order.push_back({column, item.descending, item.nulls_first.value_or(item.descending)});
  }
  SchemaPtr schema = body.plan->schema;
  if (!hidden.empty()) {
    Result<Bound> wide = bind_select(*query.select, &hidden);
    if (!wide.ok()) return wide.status();
    body.plan = std::move(wide->plan);
  }
  PlanPtr top = wrap_plan(LogicalPlan::Kind::kTopK, std::move(body.plan));
  top->order = std::move(order);
  top->limit = query.limit.value_or(UINT64_MAX);  // OFFSET alone keeps every row after it
  top->offset = query.offset.value_or(0);
  body.plan = std::move(top);
  if (!hidden.empty()) {
    PlanPtr project = make_plan(LogicalPlan::Kind::kProject, schema, std::move(body.plan));
    for (size_t c = 0; c < width; ++c) project->expressions.push_back(column_expr(c, body.scope.columns[c].type));
    body.plan = std::move(project);
  }
  return body;
}

}  // namespace freshet::sql
