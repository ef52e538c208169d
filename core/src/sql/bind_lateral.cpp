// QueryBinder::bind_lateral_join: `FROM p, LATERAL (SELECT ... FROM q WHERE
// q.k = p.k) AS s`, a subquery in FROM that reads the FROM items on its left.
//
// It is decorrelated as a subquery in an expression is (bind_correlated.cpp):
// its rows keyed by the correlation (the WHERE's equalities with columns on
// the left, or the DISTINCT values of the left columns another condition
// reads), then joined to the rows on the left on that key. Nothing is
// evaluated per left row, and a change costs the rows it touches. An
// aggregate without GROUP BY has one row for every left row, as in
// PostgreSQL and Calcite: the row of its group, or for a left row that
// nothing matches the aggregates of no rows (COUNT 0, the others NULL).
#include "bind_subquery.h"
#include "expression_tools.h"

namespace freshet::sql {
namespace {

bool is_true_literal(const AstExpr& ast) {
  return ast.kind == AstExprKind::kLiteral && ast.literal_kind == LiteralKind::kBoolean && ast.text == "true";
}

Result<ExprPtr> bind_on(const AstExpr& condition, const Scope& scope) {
  if (contains_aggregate(condition)) return sql_error(condition.position, "aggregates are not allowed in ON");
  return ExpressionBinder(scope).bind_condition(condition, "ON");
}

}  // namespace

Status lateral_reference_error(const TableRef& from, const Status& status) {
  if (status.message().find("unknown column") == std::string::npos &&
      status.message().find("unknown table or alias") == std::string::npos) {
    return status;
  }
  const std::string& message = status.message();
  const size_t prefix = message.find(": ");  // the inner error's "line L, column C: "
  return sql_error(from.position, "LATERAL subquery: " + message.substr(prefix == std::string::npos ? 0 : prefix + 2) +
                                      " (a LATERAL subquery reads the FROM items on its left in its WHERE clause)");
}

std::optional<Result<QueryBinder::Bound>> QueryBinder::bind_lateral_join(const TableRef& join) {
  const TableRef& lateral = *join.right;
  Result<Bound> left = bind_from(*join.left);
  if (!left.ok()) return Result<Bound>(left.status());
  outer_scopes_.push_back(left->scope);
  Result<KeyedSubquery> bound = bind_keyed(*lateral.subquery, *left, false);
  outer_scopes_.pop_back();
  if (!bound.ok()) return Result<Bound>(lateral_reference_error(lateral, bound.status()));
  KeyedSubquery& keyed = *bound;
  if (keyed.key_types.empty()) return std::nullopt;

  if (join.join_type == JoinType::kRight || join.join_type == JoinType::kFull) {
    return Result<Bound>(sql_error(lateral.position,
                                   "a LATERAL subquery that reads the FROM items on its left cannot "
                                   "be the right side of a RIGHT or FULL JOIN"));
  }
  if (join.natural || !join.using_columns.empty()) {
    return Result<Bound>(sql_error(lateral.position,
                                   "NATURAL and USING joins with a LATERAL subquery that reads the "
                                   "FROM items on its left are not supported; use ON"));
  }
  const bool left_join = join.join_type == JoinType::kLeft;
  const bool condition = join.condition && !is_true_literal(*join.condition);
  if (condition && contains_subquery(*join.condition)) {
    return Result<Bound>(
        sql_error(join.condition->position, "subqueries in the ON of a LATERAL join are not supported"));
  }
  if (left_join && condition && keyed.one_row_per_key) {
    return Result<Bound>(sql_error(join.condition->position,
                                   "LEFT JOIN LATERAL over an aggregate without GROUP BY has a row for every row on "
                                   "its left: write ON TRUE, and the condition inside the subquery"));
  }
  std::vector<std::string> names = keyed.item_names;
  if (!lateral.column_aliases.empty()) {
    if (lateral.column_aliases.size() != names.size()) {
      return Result<Bound>(sql_error(lateral.position, "'" + lateral.alias + "' names " +
                                                           std::to_string(lateral.column_aliases.size()) +
                                                           " columns but has " + std::to_string(names.size())));
    }
    names = lateral.column_aliases;
  }

  // The facts: [keys..., items..., matched]; `matched` is TRUE, NULL where no row joined.
  const size_t keys = keyed.key_types.size();
  const size_t items = keyed.item_types.size();
  std::vector<ExprPtr> matched;
  matched.push_back(bool_literal(true));
  PlanPtr facts = keys_and(std::move(keyed.plan), keys + items, std::move(matched));
  Bound rows = std::move(*left);
  const size_t left_width = rows.scope.columns.size();
  const JoinType type = left_join || keyed.one_row_per_key ? JoinType::kLeft : JoinType::kInner;
  const size_t at = join_facts(rows.plan, rows.scope, std::move(facts), std::move(keyed.outer_keys),
                               keyed.null_safe ? keys : 0, type);
  if (left_join && condition) {
    // LEFT JOIN LATERAL ... ON c: c is the join's own condition, over [left..., facts...].
    Scope on_scope = rows.scope;
    for (size_t i = 0; i < items; ++i) {
      ScopeColumn& column = on_scope.columns[at + keys + i];
      column = {lateral.alias, names[i], column.type};
    }
    Result<ExprPtr> on = bind_on(*join.condition, on_scope);
    if (!on.ok()) return Result<Bound>(on.status());
    rows.plan->residual = std::move(*on);
  }
  ExprPtr marker = column_expr(at + keys + items, rows.scope.columns[at + keys + items].type);

  // The columns: the left's, then the subquery's (an empty group's where nothing matched).
  Scope scope;
  std::vector<ExprPtr> expressions;
  for (size_t c = 0; c < left_width; ++c) {
    scope.columns.push_back(rows.scope.columns[c]);
    expressions.push_back(column_expr(c, rows.scope.columns[c].type));
  }
  for (size_t i = 0; i < items; ++i) {
    ExprPtr value = column_expr(at + keys + i, rows.scope.columns[at + keys + i].type);
    if (keyed.one_row_per_key) {
      ExprPtr empty = std::move(keyed.empty_items[i]);
      SqlType type = keyed.item_types[i].with_nullable(keyed.item_types[i].nullable || empty->type.nullable ||
                                                       (left_join && keyed.empty_having));
      if (left_join && keyed.empty_having) {  // HAVING refuses the empty group: NULLs, as LEFT JOIN gives
        std::vector<std::pair<ExprPtr, ExprPtr>> when;
        when.emplace_back(clone_expr(*keyed.empty_having), std::move(empty));
        empty = case_expr(std::move(when), nullptr, type);
      }
      std::vector<std::pair<ExprPtr, ExprPtr>> whens;
      whens.emplace_back(is_null_expr(clone_expr(*marker)), std::move(empty));
      value = case_expr(std::move(whens), std::move(value), type);
    }
    scope.columns.push_back({lateral.alias, names[i], value->type});
    expressions.push_back(std::move(value));
  }
  if (keyed.one_row_per_key && keyed.empty_having && !left_join) {  // an inner join drops the refused empty group
    PlanPtr filter = wrap_plan(LogicalPlan::Kind::kFilter, std::move(rows.plan));
    filter->predicate = or_expr(is_null_expr(clone_expr(*marker), true), std::move(keyed.empty_having));
    rows.plan = std::move(filter);
  }
  PlanPtr project = make_plan(LogicalPlan::Kind::kProject, schema_of(scope), std::move(rows.plan));
  project->expressions = std::move(expressions);
  Bound joined{std::move(project), std::move(scope)};
  if (!condition || left_join) return Result<Bound>(std::move(joined));

  // ON after an inner join: a filter over both sides.
  Result<ExprPtr> on = bind_on(*join.condition, joined.scope);
  if (!on.ok()) return Result<Bound>(on.status());
  PlanPtr filter = wrap_plan(LogicalPlan::Kind::kFilter, std::move(joined.plan));
  filter->predicate = std::move(*on);
  joined.plan = std::move(filter);
  return Result<Bound>(std::move(joined));
}

}  // namespace freshet::sql
