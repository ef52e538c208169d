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

#include "aggregate_functions.h"
#include "binder.h"
#include "expression_binder.h"
#include "freshet/common/out_of_line.h"
#include "function_catalog.h"
#include "group_by_sets.h"

namespace freshet::sql {
namespace {

struct AggregateCalls {
  size_t key_width = 0;                 // the aggregate's group columns: the keys, then the set number if any
  std::vector<ExprPtr> arguments;       // aggregate arguments over the input
  std::vector<std::string> argument_texts;  // Expr::to_string(): equal texts, equal arguments
  std::vector<std::string> argument_names;  // the same over the input's column names: "amount * 2"
  std::vector<AggregateSpec> specs;
  std::vector<std::string> spec_texts;  // "SUM(<argument>)": equal calls share a column
};

// Binds one argument of an aggregate call over the input, FILTER applied
// (CASE WHEN filter THEN argument END: every aggregate but COUNT(*) skips
// NULLs), and returns its column among the aggregate's input columns.
Result<size_t> bind_argument(const AstExpr& call, const AstExpr& ast, ExprPtr filter, const AggregateFunction& function,
                             const Scope& input, AggregateCalls& calls) {
  if (contains_aggregate(ast)) {
    return sql_error(ast.position, "aggregate calls cannot be nested");
  }
  Result<ExprPtr> argument = ExpressionBinder(input).bind(ast);
  if (!argument.ok()) return argument.status();
  if (is_null_literal(**argument)) {
    *argument =
        null_literal(function.argument == AggregateArgument::kBoolean ? SqlType::boolean() : SqlType::integer());
  }
  if (!argument_fits(function.argument, (*argument)->type)) {
    return sql_error(call.position, call.name + "() needs " + describe_argument(function.argument) + " argument, not " +
                                        (*argument)->type.to_string());
  }
  if (filter) {
    SqlType type = (*argument)->type.with_nullable(true);
    std::vector<ExprPtr> children;
    children.push_back(std::move(filter));
    children.push_back(std::move(*argument));
    *argument = make_expr(ExprKind::kCase, type, std::move(children));
  }
  std::string text = (*argument)->to_string();
  auto found = std::find(calls.argument_texts.begin(), calls.argument_texts.end(), text);
  const size_t index = static_cast<size_t>(found - calls.argument_texts.begin());
  if (found == calls.argument_texts.end()) {
    calls.argument_texts.push_back(text);
    const ColumnNames names = input.column_names();
    calls.argument_names.push_back((*argument)->to_string(&names));
    calls.arguments.push_back(std::move(*argument));
  }
  return calls.key_width + index;
}

// Binds one aggregate call: its arguments over the input, its output column.
Result<ExprPtr> bind_call(const AstExpr& call, const Scope& input, AggregateCalls& calls) {
  const AggregateFunction* function = find_aggregate_function(call.name);
  if (!function) return sql_error(call.position, call.name + "() is not an aggregate function");
  AggregateKind kind = function->kind;
  ExprPtr filter;
  if (call.filter) {
    if (contains_aggregate(*call.filter)) {
      return sql_error(call.filter->position, "aggregates are not allowed in FILTER (WHERE ...)");
    }
    Result<ExprPtr> bound = ExpressionBinder(input).bind_condition(*call.filter, "FILTER");
    if (!bound.ok()) return bound.status();
    filter = std::move(*bound);
  }
  AstExpr filter_as_argument;  // COUNT(*) FILTER (WHERE c) is COUNTIF(c)
  std::vector<const AstExpr*> arguments;
  for (const AstExprPtr& child : call.children) arguments.push_back(child.get());
  if (call.star && filter) {
    kind = AggregateKind::kCountIf;
    function = find_aggregate_function("countif");
    arguments = {call.filter.get()};
    filter.reset();
  } else if (call.star) {
    kind = AggregateKind::kCountStar;
  } else if (arguments.size() != function->arguments) {
    const char* noun = function->arguments == 1 ? " argument" : " arguments";
    return sql_error(call.position, call.name + "() takes " + std::to_string(function->arguments) + noun + ", not " +
                                        std::to_string(arguments.size()));
  }
  if (kind == AggregateKind::kCount && call.distinct) kind = AggregateKind::kCountDistinct;
  const bool distinct = call.distinct && kind != AggregateKind::kCountDistinct;
  std::vector<size_t> columns;
  for (const AstExpr* argument : arguments) {
    // ARG_MIN/ARG_MAX: FILTER drops the row through its compared (last) argument alone.
    const bool last = columns.size() + 1 == arguments.size();
    Result<size_t> column =
        bind_argument(call, *argument, last ? std::move(filter) : ExprPtr(), *function, input, calls);
    if (!column.ok()) return column.status();
    columns.push_back(*column);
  }
  AggregateSpec spec{kind, columns.empty() ? 0 : columns[0], "", SqlType::bigint(false)};
  spec.distinct = distinct;
  if (columns.size() == 2) spec.compared_column = columns[1];
  SqlType argument_type =
      columns.empty() ? SqlType::bigint(false) : calls.arguments[columns[0] - calls.key_width]->type;
  spec.result_type = default_aggregate_type(kind, argument_type);
  // "SUM(<argument>)" with the argument's text (what tells calls apart) or
  // its names (what messages and explain say: "SUM(amount)").
  auto call_text = [&](const std::vector<std::string>& argument_texts) {
    if (kind == AggregateKind::kCountStar) return std::string("COUNT(*)");
    const bool counts_distinct = kind == AggregateKind::kCountDistinct;
    std::string text = std::string(counts_distinct ? "COUNT" : aggregate_kind_name(kind)) +
                       (distinct || counts_distinct ? "(DISTINCT " : "(");
    for (size_t i = 0; i < columns.size(); ++i) text += (i ? ", " : "") + argument_texts[columns[i] - calls.key_width];
    return text + (columns.empty() ? "*)" : ")");
  };
  const std::string spec_text = call_text(calls.argument_texts);
  auto found = std::find(calls.spec_texts.begin(), calls.spec_texts.end(), spec_text);
  size_t index = static_cast<size_t>(found - calls.spec_texts.begin());
  if (found == calls.spec_texts.end()) {
    spec.name = call_text(calls.argument_names);
    calls.spec_texts.push_back(spec_text);
    calls.specs.push_back(std::move(spec));
  }
  return column_expr(calls.key_width + index, calls.specs[index].result_type);
}

//! input ─► Project [keys..., arguments...] (─► Expand) ─► Aggregate.
//! The projection's columns are named by their expressions over the input
//! (`input_names`), which is how explain names group keys: "by (region)".
PlanPtr aggregate_plan(PlanPtr input, const ColumnNames& input_names, GroupingSpec& grouping,
                       const std::vector<SqlType>& key_types, AggregateCalls& calls) {
  const size_t key_count = grouping.keys.size();
  // input -> [keys..., arguments...]
  std::vector<Column> pre_columns;
  for (size_t k = 0; k < key_count; ++k) {
    pre_columns.push_back({grouping.keys[k]->to_string(&input_names), grouping.keys[k]->type});
  }
  for (size_t a = 0; a < calls.arguments.size(); ++a) {
    pre_columns.push_back({calls.argument_names[a], calls.arguments[a]->type});
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
  // The parts are called out of line (out_of_line.h says why); the interceptor runs for every node.
  Result<GroupingSpec> resolved = call_out_of_line<&resolve_grouping>(select, input.scope);
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
      return call_out_of_line<&bind_call>(ast, input.scope, calls);
    }
    if (ast.kind == AstExprKind::kFunction && !ast.over && is_grouping_function(ast.name)) {
      return call_out_of_line<&bind_grouping>(ast, input.scope, grouping);
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
    if (item.star) {
      // `*` (or `t.*`) when every column it stands for is a group key.
      Result<std::vector<size_t>> columns = star_columns(input.scope, item);
      if (!columns.ok()) return columns.status();
      for (size_t c : *columns) {
        const ScopeColumn& column = input.scope.columns[c];
        const std::string text = column_expr(c, column.type)->to_string();
        size_t k = 0;
        while (k < key_count && grouping.key_texts[k] != text) ++k;
        if (k == key_count) {
          return sql_error(item.position, "* stands for column '" + column.name +
                                              "', which must appear in GROUP BY or be used in an aggregate");
        }
        scope.columns.push_back({"", column.name, key_types[k]});
        projections.push_back(column_expr(k, key_types[k]));
      }
      continue;
    }
    Result<ExprPtr> expr = binder.bind(*item.expr);
    if (!expr.ok()) return expr.status();
    scope.columns.push_back({"", output_name(item, i), (*expr)->type});
    projections.push_back(std::move(*expr));
  }
  ExprPtr having;
  if (select.having) {
    in_having = true;
    Result<ExprPtr> bound = binder.bind_condition(*select.having, "HAVING");
    if (!bound.ok()) return bound.status();
    having = std::move(*bound);
  }

  PlanPtr plan =
      call_out_of_line<&aggregate_plan>(std::move(input.plan), input.scope.column_names(), grouping, key_types, calls);
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
