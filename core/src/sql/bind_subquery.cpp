// QueryBinder: subqueries in expressions, by decorrelation into joins.
//
// Each subquery becomes a relation of facts keyed by its correlation key
// (bind_correlated.cpp makes the keyed rows), joined to the rows of the query
// it appears in; the subquery's node then binds to an expression over the
// joined columns, so nothing is re-evaluated per row:
//
//   EXISTS (q)              DISTINCT keys of q           LEFT JOIN: present?
//   x IN (q)                DISTINCT (keys, v) of q      LEFT JOIN on (keys, x): present?
//                           + COUNT(*), COUNT(v) by keys LEFT JOIN on keys: empty? has NULL?
//   x op ANY|ALL (q)        COUNT(*), COUNT(v), MIN(v), MAX(v) by keys
//   (q) as a value          COUNT(*), MAX(v) by keys     (more than one row: a step error)
//   (q) aggregating, no GROUP BY, correlated
//                           q grouped by keys            a key without rows: the
//                                                        aggregates of nothing
//
// A WHERE conjunct `EXISTS (q)` or `x IN (q)` needs no mark: an inner join
// with the DISTINCT facts keeps each outer row once, with its multiplicity.
// A WHERE conjunct `NOT EXISTS (q)` is an anti-join with q's keys as they
// are: it asks only whether a key has a row, so neither a DISTINCT nor a mark.
// Every join is incremental: a change costs the rows it touches.
#include "bind_subquery.h"

#include <unordered_set>

#include "expression_tools.h"
#include "type_rules.h"

namespace freshet::sql {
namespace {

std::string describe(const SqlType& type) { return type.with_nullable(true).to_string(); }

// `input` ([keys..., v]) grouped by its keys, with aggregates of v.
PlanPtr aggregate_by_keys(PlanPtr input, size_t key_count, const std::vector<AggregateKind>& kinds) {
  std::vector<Column> columns(input->schema->columns().begin(), input->schema->columns().begin() + key_count);
  const SqlType value_type = input->schema->type(key_count);
  std::vector<AggregateSpec> specs;
  for (AggregateKind kind : kinds) {
    std::string name = aggregate_kind_name(kind);
    specs.push_back({kind, key_count, name, default_aggregate_type(kind, value_type)});
    columns.push_back({name + std::to_string(specs.size()), specs.back().result_type});
  }
  PlanPtr plan = make_plan(LogicalPlan::Kind::kAggregate, make_schema(std::move(columns)), std::move(input));
  plan->group_count = key_count;
  plan->aggregates = std::move(specs);
  return plan;
}

PlanPtr project(PlanPtr input, std::vector<ExprPtr> expressions) {
  std::vector<Column> columns;
  for (size_t i = 0; i < expressions.size(); ++i) columns.push_back({"c" + std::to_string(i), expressions[i]->type});
  PlanPtr plan = make_plan(LogicalPlan::Kind::kProject, make_schema(std::move(columns)), std::move(input));
  plan->expressions = std::move(expressions);
  return plan;
}

}  // namespace

// The first `count` columns of `plan`, then `extra`.
PlanPtr keys_and(PlanPtr plan, size_t count, std::vector<ExprPtr> extra) {
  std::vector<ExprPtr> expressions;
  for (size_t i = 0; i < count; ++i) expressions.push_back(column_expr(i, plan->schema->type(i)));
  for (ExprPtr& expr : extra) expressions.push_back(std::move(expr));
  return project(std::move(plan), std::move(expressions));
}

namespace {

// NULL-safe key parts: (k IS NULL, COALESCE(k, zero)) never hold a NULL.
void push_key(std::vector<ExprPtr>& keys, ExprPtr key, bool null_safe) {
  if (!null_safe) {
    keys.push_back(std::move(key));
    return;
  }
  keys.push_back(is_null_expr(clone_expr(*key)));
  keys.push_back(or_zero(std::move(key)));
}

}  // namespace

// Joins `facts` (its first keys.size() columns the key) to the rows of
// `plan`/`scope`, on `keys` over them (the first `null_safe_count` matching
// NULL to NULL). The facts' columns come last, hidden. Returns where they start.
// An anti-join (kAnti) keeps the rows that match no fact, and adds no column.
size_t join_facts(PlanPtr& plan, Scope& scope, PlanPtr facts, std::vector<ExprPtr> keys, size_t null_safe_count,
                  JoinType type) {
  const size_t offset = scope.columns.size();
  auto join = std::make_unique<LogicalPlan>();
  join->kind = LogicalPlan::Kind::kJoin;
  join->join_type = type;
  for (size_t i = 0; i < keys.size(); ++i) {
    push_key(join->left_keys, std::move(keys[i]), i < null_safe_count);
    push_key(join->right_keys, column_expr(i, facts->schema->type(i)), i < null_safe_count);
  }
  // Every column, as the binder's joins have them (prune_columns drops those unused above).
  for (size_t c = 0; c < facts->schema->size() && type != JoinType::kAnti; ++c) {
    SqlType column_type = facts->schema->type(c);
    if (type == JoinType::kLeft) column_type.nullable = true;
    scope.columns.push_back({"", "$fact" + std::to_string(offset + c), column_type, false, true});
    join->right_columns.push_back(c);
  }
  for (size_t c = 0; c < offset; ++c) join->left_columns.push_back(c);
  join->schema = schema_of(scope);
  join->inputs.push_back(std::move(plan));
  join->inputs.push_back(std::move(facts));
  plan = std::move(join);
  return offset;
}

namespace {

std::vector<ExprPtr> clone_keys(const std::vector<ExprPtr>& keys) {
  std::vector<ExprPtr> copies;
  for (const ExprPtr& key : keys) copies.push_back(clone_expr(*key));
  return copies;
}

ExprPtr column_of(const Scope& scope, size_t column) { return column_expr(column, scope.columns[column].type); }

// The value of a scalar subquery for each row of `plan`/`scope`, its facts joined in.
ExprPtr scalar_value(KeyedSubquery& keyed, PlanPtr& plan, Scope& scope, SourcePosition position,
                     const std::string& view) {
  const size_t keys = keyed.key_types.size();
  SqlType type = keyed.item_types[0].with_nullable(true);
  if (keyed.one_row_per_key) {
    std::vector<ExprPtr> matched;
    matched.push_back(bool_literal(true));
    PlanPtr facts = keys_and(std::move(keyed.plan), keys + 1, std::move(matched));
    size_t at = join_facts(plan, scope, std::move(facts), std::move(keyed.outer_keys), keyed.null_safe ? keys : 0,
                           JoinType::kLeft);
    ExprPtr empty = std::move(keyed.empty_items[0]);
    if (keyed.empty_having) {
      std::vector<std::pair<ExprPtr, ExprPtr>> when;
      when.emplace_back(std::move(keyed.empty_having), std::move(empty));
      empty = case_expr(std::move(when), nullptr, type);
    }
    std::vector<std::pair<ExprPtr, ExprPtr>> whens;
    whens.emplace_back(is_null_expr(column_of(scope, at + keys + 1)), std::move(empty));
    return case_expr(std::move(whens), column_of(scope, at + keys), type);
  }
  PlanPtr facts = aggregate_by_keys(std::move(keyed.plan), keys, {AggregateKind::kCountStar, AggregateKind::kMax});
  size_t at = join_facts(plan, scope, std::move(facts), std::move(keyed.outer_keys), keyed.null_safe ? keys : 0,
                         JoinType::kLeft);
  std::vector<ExprPtr> count;
  count.push_back(column_of(scope, at + keys));
  ExprPtr check = function_expr(ScalarFunction::kScalarSubquery, SqlType::boolean(), std::move(count));
  check->literal_text = (view.empty() ? std::string() : "view " + view + ": ") + "the scalar subquery at line " +
                        std::to_string(position.line) + ", column " + std::to_string(position.column) +
                        " returned more than one row";
  std::vector<std::pair<ExprPtr, ExprPtr>> whens;
  whens.emplace_back(is_null_expr(column_of(scope, at + keys)), null_literal(type));
  whens.emplace_back(std::move(check), column_of(scope, at + keys + 1));
  return case_expr(std::move(whens), nullptr, type);
}

// The three-valued test over a set's facts: `empty` (no rows for the key),
// then x NULL, then `decided` (whose result is `decided_value`), then a NULL
// in the set (total > nonnull) makes it unknown.
ExprPtr set_test(ExprPtr empty, bool empty_value, ExprPtr x, ExprPtr decided, bool decided_value, ExprPtr total,
                 ExprPtr nonnull) {
  std::vector<std::pair<ExprPtr, ExprPtr>> whens;
  whens.emplace_back(std::move(empty), bool_literal(empty_value));
  whens.emplace_back(is_null_expr(std::move(x)), null_bool());
  whens.emplace_back(std::move(decided), bool_literal(decided_value));
  whens.emplace_back(compare_expr(AstOperator::kGreater, std::move(total), std::move(nonnull)), null_bool());
  return case_expr(std::move(whens), bool_literal(!decided_value), SqlType::boolean());
}

}  // namespace

Result<QueryBinder::Bound> QueryBinder::bind_where_subqueries(const std::vector<const AstExpr*>& conjuncts,
                                                              Bound input) {
  const Scope original = input.scope;
  SubqueryValues values;
  std::unordered_set<const AstExpr*> anti_joined;
  for (const AstExpr* conjunct : conjuncts) {
    if (contains_window(*conjunct)) return sql_error(conjunct->position, "window functions are not allowed in WHERE");
    if (contains_aggregate(*conjunct)) {
      return sql_error(conjunct->position, "aggregates are not allowed in WHERE; use HAVING");
    }
    bool semi = conjunct->kind == AstExprKind::kExists ||
                (conjunct->kind == AstExprKind::kInSubquery && !conjunct->negated) ||
                (conjunct->kind == AstExprKind::kQuantified && conjunct->op == AstOperator::kEqual && !conjunct->all);
    // `NOT EXISTS (q)`: an anti-join with q's keys, where a LEFT JOIN with
    // its DISTINCT keys and a test of the mark would keep two more traces.
    const bool anti = conjunct->kind == AstExprKind::kUnary && conjunct->op == AstOperator::kNot &&
                      conjunct->children[0]->kind == AstExprKind::kExists;
    if (anti) {
      Result<bool> planned = attach_anti_join(*conjunct->children[0], input);
      if (!planned.ok()) return planned.status();
      if (*planned) {
        anti_joined.insert(conjunct);
        continue;
      }
    }
    FRESHET_RETURN_IF_ERROR(attach_subqueries(*conjunct, input, values, semi));
  }
  std::vector<ExprPtr> predicates;
  ExpressionBinder binder(input.scope, values.interceptor());
  for (const AstExpr* conjunct : conjuncts) {
    if (anti_joined.count(conjunct)) continue;  // the anti-join has done its filtering
    Result<ExprPtr> predicate = binder.bind_condition(*conjunct, "WHERE");
    if (!predicate.ok()) return predicate.status();
    // A semi-join's conjunct is TRUE: the join has done its filtering.
    const Expr& bound = **predicate;
    if (bound.kind == ExprKind::kLiteral && !bound.literal.null && bound.literal.integer != 0) continue;
    predicates.push_back(std::move(*predicate));
  }
  if (!predicates.empty()) {
    PlanPtr filter = wrap_plan(LogicalPlan::Kind::kFilter, std::move(input.plan));
    filter->predicate = conjoin(std::move(predicates));
    input.plan = std::move(filter);
  }
  if (input.scope.columns.size() == original.columns.size()) return input;
  // Back to the input's columns: the facts served the condition only.
  std::vector<ExprPtr> columns;
  for (size_t c = 0; c < original.columns.size(); ++c) columns.push_back(column_of(original, c));
  PlanPtr back = make_plan(LogicalPlan::Kind::kProject, schema_of(original), std::move(input.plan));
  back->expressions = std::move(columns);
  return Bound{std::move(back), original};
}

Status QueryBinder::attach_subqueries(const AstExpr& ast, Bound& input, SubqueryValues& values, bool semi) {
  return for_each_subquery(
      ast, [&](const AstExpr& node) { return attach_subquery(node, input, values, semi && &node == &ast); });
}

Result<bool> QueryBinder::attach_anti_join(const AstExpr& exists, Bound& input) {
  outer_scopes_.push_back(input.scope);
  Result<KeyedSubquery> bound = bind_keyed(*exists.subquery, input, true);
  outer_scopes_.pop_back();
  if (!bound.ok()) return bound.status();
  KeyedSubquery& keyed = *bound;
  // An aggregate without GROUP BY has a row for every key: the general path
  // (EXISTS is TRUE, or its HAVING's error).
  if (keyed.one_row_per_key) return false;
  // The keys alone: the anti-join asks only whether a key has a row.
  const size_t keys = keyed.key_types.size();
  PlanPtr facts = keys_and(std::move(keyed.plan), keys, {});
  join_facts(input.plan, input.scope, std::move(facts), std::move(keyed.outer_keys), keyed.null_safe ? keys : 0,
             JoinType::kAnti);
  return true;
}

Status QueryBinder::attach_subquery(const AstExpr& node, Bound& input, SubqueryValues& values, bool semi) {
  outer_scopes_.push_back(input.scope);
  Result<KeyedSubquery> bound = bind_keyed(*node.subquery, input, node.kind == AstExprKind::kExists);
  outer_scopes_.pop_back();
  if (!bound.ok()) return bound.status();
  KeyedSubquery& keyed = *bound;
  const size_t keys = keyed.key_types.size();
  const size_t null_safe = keyed.null_safe ? keys : 0;
  ExprPtr& value = values.values[&node];

  if (node.kind == AstExprKind::kExists) {
    if (keyed.one_row_per_key) {
      // An aggregate without GROUP BY has a row for every key.
      if (keyed.empty_having) {
        return sql_error(node.position, "EXISTS over a correlated aggregate subquery with HAVING is not supported");
      }
      value = bool_literal(true);
      return Status::OK();
    }
    std::vector<ExprPtr> present;
    present.push_back(bool_literal(true));
    PlanPtr facts = wrap_plan(LogicalPlan::Kind::kDistinct, keys_and(std::move(keyed.plan), keys, std::move(present)));
    size_t at = join_facts(input.plan, input.scope, std::move(facts), std::move(keyed.outer_keys), null_safe,
                           semi ? JoinType::kInner : JoinType::kLeft);
    value = semi ? bool_literal(true) : is_null_expr(column_of(input.scope, at + keys), true);
    return Status::OK();
  }
  const char* what = node.kind == AstExprKind::kSubquery ? "a scalar subquery" : "the subquery of IN, ANY or ALL";
  if (keyed.item_types.size() != 1) {
    return sql_error(node.position,
                     std::string(what) + " must return one column, not " + std::to_string(keyed.item_types.size()));
  }
  if (node.kind == AstExprKind::kSubquery) {
    value = scalar_value(keyed, input.plan, input.scope, node.position, view_name_);
    return Status::OK();
  }

  // x [NOT] IN (q), x op ANY|ALL (q): x and the subquery's column meet in one type.
  Result<ExprPtr> bound_x = ExpressionBinder(input.scope, values.interceptor()).bind(*node.children[0]);
  if (!bound_x.ok()) return bound_x.status();
  ExprPtr x = std::move(*bound_x);
  SqlType item_type = keyed.item_types[0];
  std::optional<SqlType> common = is_null_literal(*x) ? item_type : common_type(x->type, item_type);
  if (!common) return sql_error(node.position, "cannot compare " + describe(x->type) + " with " + describe(item_type));
  x = cast_to(std::move(x), *common);
  AstOperator op = node.kind == AstExprKind::kInSubquery ? AstOperator::kEqual : node.op;
  bool all = node.kind == AstExprKind::kQuantified && node.all;
  bool negated = node.kind == AstExprKind::kInSubquery && node.negated;
  if (op == AstOperator::kNotEqual && all) {  // <> ALL is NOT IN
    op = AstOperator::kEqual;
    all = false;
    negated = true;
  }
  if (keyed.one_row_per_key) {
    // One row for every key: the set is that one value.
    if (keyed.empty_having) {
      return sql_error(node.position, std::string(what) + " over a correlated aggregate with HAVING is not supported");
    }
    ExprPtr single = cast_to(scalar_value(keyed, input.plan, input.scope, node.position, view_name_), *common);
    ExprPtr test = compare_expr(op, std::move(x), std::move(single));
    value = negated ? not_expr(std::move(test)) : std::move(test);
    return Status::OK();
  }
  auto cast_item = [&] { return cast_to(column_expr(keys, item_type), *common); };
  auto keys_and_x = [&] {
    std::vector<ExprPtr> join_keys = clone_keys(keyed.outer_keys);
    join_keys.push_back(clone_expr(*x));
    return join_keys;
  };
  if (op == AstOperator::kEqual && !all) {
    // Membership: the DISTINCT (keys, v) with v not NULL, joined on (keys, x).
    PlanPtr rows = clone_plan(*keyed.plan);
    PlanPtr not_null = wrap_plan(LogicalPlan::Kind::kFilter, std::move(rows));
    not_null->predicate = is_null_expr(column_expr(keys, item_type), true);
    std::vector<ExprPtr> extra;
    extra.push_back(cast_item());
    extra.push_back(bool_literal(true));
    PlanPtr present = wrap_plan(LogicalPlan::Kind::kDistinct, keys_and(std::move(not_null), keys, std::move(extra)));
    if (semi && !negated) {
      join_facts(input.plan, input.scope, std::move(present), keys_and_x(), null_safe, JoinType::kInner);
      value = bool_literal(true);
      return Status::OK();
    }
    size_t hit = join_facts(input.plan, input.scope, std::move(present), keys_and_x(), null_safe, JoinType::kLeft);
    std::vector<ExprPtr> item;
    item.push_back(cast_item());
    PlanPtr counts = aggregate_by_keys(keys_and(std::move(keyed.plan), keys, std::move(item)), keys,
                                       {AggregateKind::kCountStar, AggregateKind::kCount});
    size_t at =
        join_facts(input.plan, input.scope, std::move(counts), std::move(keyed.outer_keys), null_safe, JoinType::kLeft);
    ExprPtr in = set_test(is_null_expr(column_of(input.scope, at + keys)), false, std::move(x),
                          is_null_expr(column_of(input.scope, hit + keys + 1), true), true,
                          column_of(input.scope, at + keys), column_of(input.scope, at + keys + 1));
    value = negated ? not_expr(std::move(in)) : std::move(in);
    return Status::OK();
  }
  // Order comparisons, <> ANY and = ALL: the set's MIN and MAX decide.
  std::vector<ExprPtr> item;
  item.push_back(cast_item());
  PlanPtr facts =
      aggregate_by_keys(keys_and(std::move(keyed.plan), keys, std::move(item)), keys,
                        {AggregateKind::kCountStar, AggregateKind::kCount, AggregateKind::kMin, AggregateKind::kMax});
  size_t at =
      join_facts(input.plan, input.scope, std::move(facts), std::move(keyed.outer_keys), null_safe, JoinType::kLeft);
  auto total = [&] { return column_of(input.scope, at + keys); };
  auto nonnull = [&] { return column_of(input.scope, at + keys + 1); };
  auto min = [&] { return column_of(input.scope, at + keys + 2); };
  auto max = [&] { return column_of(input.scope, at + keys + 3); };
  auto cmp = [&](AstOperator o, ExprPtr bound_value) {
    return compare_expr(o, clone_expr(*x), std::move(bound_value));
  };
  auto differs = [&] { return or_expr(cmp(AstOperator::kNotEqual, min()), cmp(AstOperator::kNotEqual, max())); };
  ExprPtr decided;
  if (!all) {  // ANY holds when some value passes: the extreme one decides
    switch (op) {
      case AstOperator::kLess:
      case AstOperator::kLessEqual:
        decided = cmp(op, max());
        break;
      case AstOperator::kGreater:
      case AstOperator::kGreaterEqual:
        decided = cmp(op, min());
        break;
      default:
        decided = differs();
        break;  // <> ANY
    }
  } else {  // ALL fails when some value fails: the other extreme decides
    switch (op) {
      case AstOperator::kLess:
        decided = cmp(AstOperator::kGreaterEqual, min());
        break;
      case AstOperator::kLessEqual:
        decided = cmp(AstOperator::kGreater, min());
        break;
      case AstOperator::kGreater:
        decided = cmp(AstOperator::kLessEqual, max());
        break;
      case AstOperator::kGreaterEqual:
        decided = cmp(AstOperator::kLess, max());
        break;
      default:
        decided = differs();
        break;  // = ALL
    }
  }
  value = set_test(is_null_expr(total()), all, std::move(x), std::move(decided), !all, total(), nonnull());
  return Status::OK();
}

}  // namespace freshet::sql
