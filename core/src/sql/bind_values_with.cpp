// QueryBinder: VALUES, the one row a SELECT without FROM reads, WITH items
// and column renaming (`AS t (a, b)`).
#include "binder.h"
#include "expression_binder.h"
#include "expression_tools.h"
#include "type_rules.h"

namespace freshet::sql {
namespace {

std::string describe(const SqlType& type) { return type.with_nullable(true).to_string(); }

}  // namespace

//! Each row's expressions are bound with no columns in scope; a column's
//! type is the common type of its rows (a NULL literal takes the others'),
//! nullable when any row's value is. Columns are named EXPR$0, EXPR$1, ...
//! as Calcite names them.
Result<QueryBinder::Bound> QueryBinder::bind_values(const Query& query) {
  Scope no_columns;
  ExpressionBinder binder(no_columns);
  std::vector<std::vector<ExprPtr>> rows;
  for (const std::vector<AstExprPtr>& row : query.values) {
    std::vector<ExprPtr> bound_row;
    for (const AstExprPtr& value : row) {
      if (contains_aggregate(*value)) return sql_error(value->position, "aggregates are not allowed in VALUES");
      if (contains_window(*value)) return sql_error(value->position, "window functions are not allowed in VALUES");
      Result<ExprPtr> expr = binder.bind(*value);
      if (!expr.ok()) return expr.status();
      if (contains_now(**expr)) {
        return sql_error(value->position, "NOW() is not allowed in VALUES; use SELECT NOW() instead");
      }
      bound_row.push_back(std::move(*expr));
    }
    rows.push_back(std::move(bound_row));
  }
  Scope scope;
  const size_t width = rows[0].size();
  for (size_t c = 0; c < width; ++c) {
    std::optional<SqlType> common;
    bool nullable = false;
    for (size_t r = 0; r < rows.size(); ++r) {
      const ExprPtr& value = rows[r][c];
      nullable = nullable || value->type.nullable;
      if (is_null_literal(*value)) continue;
      std::optional<SqlType> next = common ? common_type(*common, value->type) : value->type;
      if (!next) {
        return sql_error(query.values[r][c]->position, "VALUES column " + std::to_string(c + 1) + " mixes " +
                                                           describe(*common) + " and " + describe(value->type));
      }
      common = next;
    }
    // All bare NULL: INTEGER as SELECT NULL, left untyped for a set operation's other side (is_null_column).
    SqlType type = common.value_or(SqlType::integer()).with_nullable(nullable);
    for (std::vector<ExprPtr>& row : rows) row[c] = common ? cast_to(std::move(row[c]), type) : untyped_null(type);
    scope.columns.push_back({"", "EXPR$" + std::to_string(c), type});
  }
  PlanPtr plan = make_plan(LogicalPlan::Kind::kValues, schema_of(scope), nullptr);
  plan->rows = std::move(rows);
  return Bound{std::move(plan), std::move(scope)};
}

QueryBinder::Bound QueryBinder::unit_row() {
  PlanPtr plan = make_plan(LogicalPlan::Kind::kValues, make_schema({}), nullptr);
  plan->rows.emplace_back();
  return Bound{std::move(plan), Scope{}};
}

Result<QueryBinder::Bound> QueryBinder::bind_common_table(const CommonTableExpression& item) {
  Result<Bound> bound = bind_query(*item.query);
  if (!bound.ok()) return bound.status();
  for (ScopeColumn& column : bound->scope.columns) column.table = item.name;
  FRESHET_RETURN_IF_ERROR(rename_columns(*bound, item.column_names, item.position, "WITH item '" + item.name + "'"));
  return bound;
}

std::optional<Result<QueryBinder::Bound>> QueryBinder::bind_common_table_reference(const TableRef& table) {
  for (size_t i = common_tables_.size(); i-- > 0;) {
    const CommonTableExpression& item = *common_tables_[i];
    if (item.name != table.name) continue;
    // The item sees only the items before it, as where it was written.
    std::vector<const CommonTableExpression*> in_scope = common_tables_;
    common_tables_.resize(i);
    Result<Bound> bound = bind_common_table(item);
    common_tables_ = std::move(in_scope);
    if (!bound.ok()) return Result<Bound>(bound.status());
    const std::string& name = table.alias.empty() ? table.name : table.alias;
    for (ScopeColumn& column : bound->scope.columns) column.table = name;
    Status renamed = rename_columns(*bound, table.column_aliases, table.position, "'" + name + "'");
    if (!renamed.ok()) return Result<Bound>(renamed);
    return bound;
  }
  return std::nullopt;
}

Status QueryBinder::rename_columns(Bound& bound, const std::vector<std::string>& names, SourcePosition position,
                                   const std::string& what) {
  if (names.empty()) return Status::OK();
  if (names.size() != bound.scope.columns.size()) {
    return sql_error(position, what + " names " + std::to_string(names.size()) + " columns but has " +
                                   std::to_string(bound.scope.columns.size()));
  }
  for (size_t i = 0; i < names.size(); ++i) bound.scope.columns[i].name = names[i];
  // The plan's schema names the relation's columns too (a view's output names come from it).
  std::vector<Column> columns = bound.plan->schema->columns();
  for (size_t i = 0; i < names.size(); ++i) columns[i].name = names[i];
  bound.plan->schema = make_schema(std::move(columns));
  return Status::OK();
}

}  // namespace freshet::sql
