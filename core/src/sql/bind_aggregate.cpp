// QueryBinder: SELECT with GROUP BY or aggregates.
//
// The plan has three parts:
//
//   input ─► Project [group keys..., aggregate arguments...]
//         ─► Aggregate (group by the keys)        rows: [keys..., aggregates...]
//         ─► Filter HAVING ─► Project select list
//
// With several grouping sets (ROLLUP, CUBE, GROUPING SETS) an Expand sits
// between the projection and the aggregate: each row once per set, the
// keys the set lacks NULL, the set's number a further group key column
// (rows [keys..., set, aggregates...]); GROUPING(...) reads that number.
//
// Select items and HAVING are bound over the aggregate's output: an aggregate
// call becomes its output column, an expression equal to a GROUP BY key
// becomes that key's column, and any other column reference is an error.
// HAVING may name a select item by its alias (Calcite's LENIENT conformance)
// when no input column has that name.
#include <algorithm>

#include "binder.h"
#include "expression_binder.h"
#include "group_by_sets.h"

namespace freshet::sql {
namespace {

struct AggregateCalls {
  size_t key_width = 0;                 // the aggregate's group columns: the keys, then the set number if any
  std::vector<ExprPtr> arguments;       // aggregate arguments over the input
  std::vector<std::string> argument_texts;
  std::vector<AggregateSpec> specs;
  std::vector<std::string> spec_texts;  // "SUM(<argument>)": equal calls share a column
};

Result<AggregateKind> aggregate_kind(const AstExpr& call) {
  const std::string& name = call.name;
  if (name == "count") {
    if (call.star) return AggregateKind::kCountStar;
    return call.distinct ? AggregateKind::kCountDistinct : AggregateKind::kCount;
  }
  if (call.distinct && (name == "sum" || name == "avg")) {
    return sql_error(call.position, name + "(DISTINCT ...) is not supported; only COUNT(DISTINCT ...) is");
  }
  if (name == "sum") return AggregateKind::kSum;
  if (name == "avg") return AggregateKind::kAvg;
  if (name == "min") return AggregateKind::kMin;
  return AggregateKind::kMax;
}

// Binds one aggregate call: its argument over the input, its output column.
Result<ExprPtr> bind_call(const AstExpr& call, const Scope& input, AggregateCalls& calls) {
  Result<AggregateKind> kind = aggregate_kind(call);
  if (!kind.ok()) return kind.status();
  bool star = *kind == AggregateKind::kCountStar;
  if (!star && call.children.size() != 1) {
    return sql_error(call.position, call.name + "() takes one argument, not " + std::to_string(call.children.size()));
  }
  std::string argument_text = "*";
  SqlType argument_type = SqlType::bigint(false);
  size_t column = 0;
  if (!star) {
    if (contains_aggregate(*call.children[0])) {
      return sql_error(call.children[0]->position, "aggregate calls cannot be nested");
    }
    Result<ExprPtr> argument = ExpressionBinder(input).bind(*call.children[0]);
    if (!argument.ok()) return argument.status();
    if (is_null_literal(**argument)) *argument = null_literal(SqlType::integer());
    argument_type = (*argument)->type;
    bool numeric_only = *kind == AggregateKind::kSum || *kind == AggregateKind::kAvg;
    if (numeric_only && !argument_type.is_numeric()) {
      return sql_error(call.position, call.name + "() needs a numeric argument, not " + argument_type.to_string());
    }
    argument_text = (*argument)->to_string();
    auto found = std::find(calls.argument_texts.begin(), calls.argument_texts.end(), argument_text);
    column = calls.key_width + static_cast<size_t>(found - calls.argument_texts.begin());
    if (found == calls.argument_texts.end()) {
      calls.argument_texts.push_back(argument_text);
      calls.arguments.push_back(std::move(*argument));
    }
  }
  std::string spec_text = std::string(aggregate_kind_name(*kind)) + "(" + argument_text + ")";
  auto found = std::find(calls.spec_texts.begin(), calls.spec_texts.end(), spec_text);
  size_t index = static_cast<size_t>(found - calls.spec_texts.begin());
  if (found == calls.spec_texts.end()) {
    calls.spec_texts.push_back(spec_text);
    calls.specs.push_back({*kind, column, spec_text, default_aggregate_type(*kind, argument_type)});
  }
  return column_expr(calls.key_width + index, calls.specs[index].result_type);
}

//! input ─► Project [keys..., arguments...] (─► Expand) ─► Aggregate.
PlanPtr aggregate_plan(PlanPtr input, GroupingSpec& grouping, const std::vector<SqlType>& key_types,
                       AggregateCalls& calls) {
  const size_t key_count = grouping.keys.size();
  // input -> [keys..., arguments...]
  std::vector<Column> pre_columns;
  for (size_t k = 0; k < key_count; ++k) pre_columns.push_back({"key" + std::to_string(k), grouping.keys[k]->type});
  for (size_t a = 0; a < calls.arguments.size(); ++a) {
    pre_columns.push_back({"arg" + std::to_string(a), calls.arguments[a]->type});
  }
  PlanPtr pre = make_plan(LogicalPlan::Kind::kProject, make_schema(pre_columns), std::move(input));
  for (ExprPtr& key : grouping.keys) pre->expressions.push_back(std::move(key));
  for (ExprPtr& argument : calls.arguments) pre->expressions.push_back(std::move(argument));

  // -> [keys..., set, arguments...] once per grouping set
  std::vector<Column> group_columns;
  for (size_t k = 0; k < key_count; ++k) group_columns.push_back({pre_columns[k].name, key_types[k]});
  if (grouping.expanded()) {
    group_columns.push_back({"grouping_set", SqlType::integer(false)});
    std::vector<Column> expanded_columns = group_columns;
    expanded_columns.insert(expanded_columns.end(), pre_columns.begin() + static_cast<std::ptrdiff_t>(key_count),
                            pre_columns.end());
    PlanPtr expand = make_plan(LogicalPlan::Kind::kExpand, make_schema(expanded_columns), std::move(pre));
    expand->group_count = key_count;
    expand->grouping_sets = grouping.sets;
    pre = std::move(expand);
  }

  // -> [keys..., (set,) aggregates...]
  std::vector<Column> aggregate_columns = group_columns;
  for (const AggregateSpec& spec : calls.specs) aggregate_columns.push_back({spec.name, spec.result_type});
  PlanPtr aggregate = make_plan(LogicalPlan::Kind::kAggregate, make_schema(aggregate_columns), std::move(pre));
  aggregate->group_count = calls.key_width;
  aggregate->aggregates = std::move(calls.specs);
  aggregate->global = calls.key_width == 0;

  return aggregate;
}

}  // namespace

Result<QueryBinder::Bound> QueryBinder::bind_aggregate(const Select& select, Bound input) {
  Result<GroupingSpec> resolved = resolve_grouping(select, input.scope);
  if (!resolved.ok()) return resolved.status();
  GroupingSpec grouping = std::move(*resolved);
  const size_t key_count = grouping.keys.size();
  AggregateCalls calls;
  calls.key_width = key_count + (grouping.expanded() ? 1 : 0);
  const std::vector<SqlType> key_types = grouping.output_key_types();
  bool in_having = false;
  std::vector<std::string> expanding_aliases;  // HAVING aliases being bound (a cycle is an unknown column)
  ExpressionBinder* self = nullptr;
  // Over the aggregate's output, column references resolve through the keys.
  auto intercept = [&](const AstExpr& ast) -> Result<ExprPtr> {
    if (ast.kind == AstExprKind::kFunction && !ast.over && is_aggregate_function(ast.name)) {
      return bind_call(ast, input.scope, calls);
    }
    if (ast.kind == AstExprKind::kFunction && !ast.over && (ast.name == "grouping" || ast.name == "grouping_id")) {
      return bind_grouping(ast, input.scope, grouping);
    }
    if (in_having && ast.kind == AstExprKind::kColumnRef && ast.names.size() == 1 &&
        !input.scope.resolve(ast.names, ast.position).ok() &&
        std::find(expanding_aliases.begin(), expanding_aliases.end(), ast.names[0]) == expanding_aliases.end()) {
      Result<const SelectItem*> item = find_alias(select, ast.names[0], ast.position);
      if (!item.ok()) return item.status();
      if (*item) {
        expanding_aliases.push_back(ast.names[0]);
        Result<ExprPtr> expr = self->bind(*(*item)->expr);
        expanding_aliases.pop_back();
        return expr;
      }
    }
    if (contains_aggregate(ast) || contains_grouping_call(ast)) return ExprPtr();  // bind its parts
    // Without aggregates the expression must bind over the input; its error
    // (an unknown function or column, a type error) is the one to report.
    Result<ExprPtr> plain = ExpressionBinder(input.scope).bind(ast);
    if (!plain.ok()) {
      if (in_having && mentions_alias(ast, select, input.scope)) return ExprPtr();  // bind its parts
      return plain.status();
    }
    std::string text = (*plain)->to_string();
    for (size_t k = 0; k < key_count; ++k) {
      if (grouping.key_texts[k] == text) return column_expr(k, key_types[k]);
    }
    if (ast.kind == AstExprKind::kColumnRef) {
      std::string name = ast.names.size() == 2 ? ast.names[0] + "." + ast.names[1] : ast.names[0];
      return sql_error(ast.position, "column '" + name + "' must appear in GROUP BY or be used in an aggregate");
    }
    return ExprPtr();
  };
  Scope keys_only;  // never consulted: every column reference is intercepted
  ExpressionBinder binder(keys_only, intercept);
  self = &binder;

  Scope scope;
  std::vector<ExprPtr> projections;
  for (size_t i = 0; i < select.items.size(); ++i) {
    const SelectItem& item = select.items[i];
    if (item.star) return sql_error(item.position, "* cannot be used with GROUP BY or aggregates");
    Result<ExprPtr> expr = binder.bind(*item.expr);
    if (!expr.ok()) return expr.status();
    std::string name = !item.alias.empty() ? item.alias
                       : item.expr->kind == AstExprKind::kColumnRef ? item.expr->names.back()
                                                                    : "EXPR$" + std::to_string(i);
    scope.columns.push_back({"", name, (*expr)->type});
    projections.push_back(std::move(*expr));
  }
  ExprPtr having;
  if (select.having) {
    in_having = true;
    Result<ExprPtr> bound = binder.bind_condition(*select.having, "HAVING");
    if (!bound.ok()) return bound.status();
    having = std::move(*bound);
  }

  PlanPtr plan = aggregate_plan(std::move(input.plan), grouping, key_types, calls);
  if (having) {
    PlanPtr filter = wrap_plan(LogicalPlan::Kind::kFilter, std::move(plan));
    filter->predicate = std::move(having);
    plan = std::move(filter);
  }
  PlanPtr project = make_plan(LogicalPlan::Kind::kProject, schema_of(scope), std::move(plan));
  project->expressions = std::move(projections);
  return Bound{std::move(project), std::move(scope)};
}

}  // namespace freshet::sql
