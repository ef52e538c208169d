#include "bind_join_using.h"

#include "binder.h"
#include "expression_binder.h"
#include "type_rules.h"

namespace freshet::sql {
namespace {

// The position of the one column a bare `name` reaches in `scope`, SIZE_MAX
// when none; `ambiguous` when several.
size_t find_visible(const Scope& scope, const std::string& name, bool& ambiguous) {
  size_t found = SIZE_MAX;
  ambiguous = false;
  for (size_t i = 0; i < scope.columns.size(); ++i) {
    if (scope.columns[i].hidden || scope.columns[i].name != name) continue;
    if (found != SIZE_MAX) ambiguous = true;
    found = i;
  }
  return found;
}

Result<UsingColumn> shared_column(const std::string& name, SourcePosition position, const Scope& left,
                                  const Scope& right, const char* clause) {
  UsingColumn column;
  column.name = name;
  bool ambiguous = false;
  const char* sides[] = {"left", "right"};
  for (int side = 0; side < 2; ++side) {
    size_t found = find_visible(side == 0 ? left : right, name, ambiguous);
    std::string what = std::string("column '") + name + "' of " + clause;
    if (ambiguous) return sql_error(position, what + " is ambiguous on the " + sides[side] + " side of the join");
    if (found == SIZE_MAX)
      return sql_error(position, what + " is not a column of the " + sides[side] + " side of the join");
    (side == 0 ? column.left : column.right) = found;
  }
  const SqlType& a = left.columns[column.left].type;
  const SqlType& b = right.columns[column.right].type;
  std::optional<SqlType> common = common_type(a, b);
  if (!common) {
    return sql_error(position, std::string("column '") + name + "' of " + clause + " has types " +
                                   a.with_nullable(true).to_string() + " and " + b.with_nullable(true).to_string() +
                                   ", which cannot be compared");
  }
  column.type = *common;
  column.both_nullable = a.nullable && b.nullable;
  return column;
}

}  // namespace

Result<std::vector<UsingColumn>> using_columns(const TableRef& join, const Scope& left, const Scope& right) {
  std::vector<UsingColumn> columns;
  if (!join.natural) {
    for (size_t i = 0; i < join.using_columns.size(); ++i) {
      const std::string& name = join.using_columns[i];
      for (size_t j = 0; j < i; ++j) {
        if (join.using_columns[j] == name) {
          return sql_error(join.using_positions[i], "column '" + name + "' appears twice in USING");
        }
      }
      Result<UsingColumn> column = shared_column(name, join.using_positions[i], left, right, "USING");
      if (!column.ok()) return column.status();
      columns.push_back(std::move(*column));
    }
    return columns;
  }
  // NATURAL: every name a bare reference reaches on both sides, once each.
  for (size_t i = 0; i < left.columns.size(); ++i) {
    const ScopeColumn& candidate = left.columns[i];
    if (candidate.hidden) continue;
    bool seen = false, ambiguous = false;
    for (const UsingColumn& column : columns) seen = seen || column.name == candidate.name;
    if (seen || find_visible(right, candidate.name, ambiguous) == SIZE_MAX) continue;
    Result<UsingColumn> column = shared_column(candidate.name, join.right->position, left, right, "the NATURAL join");
    if (!column.ok()) return column.status();
    columns.push_back(std::move(*column));
  }
  return columns;
}

void add_using_keys(const std::vector<UsingColumn>& columns, LogicalPlan& join, const Scope& scope, size_t left_width) {
  for (const UsingColumn& column : columns) {
    const SqlType& left_type = scope.columns[column.left].type;
    const SqlType& right_type = scope.columns[left_width + column.right].type;
    join.left_keys.push_back(
        cast_to(column_expr(column.left, left_type), column.type.with_nullable(left_type.nullable)));
    join.right_keys.push_back(
        cast_to(column_expr(column.right, right_type), column.type.with_nullable(right_type.nullable)));
  }
}

PlanPtr merge_using_columns(const std::vector<UsingColumn>& columns, JoinType type, PlanPtr join, Scope& scope,
                            size_t left_width) {
  Scope merged;
  std::vector<ExprPtr> expressions;
  for (const UsingColumn& column : columns) {
    const size_t l = column.left, r = left_width + column.right;
    ExprPtr left =
        cast_to(column_expr(l, scope.columns[l].type), column.type.with_nullable(scope.columns[l].type.nullable));
    ExprPtr right =
        cast_to(column_expr(r, scope.columns[r].type), column.type.with_nullable(scope.columns[r].type.nullable));
    ExprPtr value;
    if (type == JoinType::kFull) {
      std::vector<ExprPtr> both;
      both.push_back(cast_to(std::move(left), column.type.with_nullable(true)));
      both.push_back(cast_to(std::move(right), column.type.with_nullable(true)));
      value = make_expr(ExprKind::kCoalesce, column.type.with_nullable(column.both_nullable), std::move(both));
    } else {
      value = type == JoinType::kRight ? std::move(right) : std::move(left);
    }
    merged.columns.push_back({"", column.name, value->type});
    expressions.push_back(std::move(value));
  }
  std::vector<bool> shared(scope.columns.size(), false);
  for (const UsingColumn& column : columns) shared[column.left] = shared[left_width + column.right] = true;
  for (size_t c = 0; c < scope.columns.size(); ++c) {
    ScopeColumn copy = scope.columns[c];
    copy.hidden = copy.hidden || shared[c];
    expressions.push_back(column_expr(c, copy.type));
    merged.columns.push_back(std::move(copy));
  }
  PlanPtr project = make_plan(LogicalPlan::Kind::kProject, schema_of(merged), std::move(join));
  project->expressions = std::move(expressions);
  scope = std::move(merged);
  return project;
}

}  // namespace freshet::sql
