#include "prune_columns.h"

#include "plan_sharing.h"

namespace freshet::sql {
namespace {

void mark_columns(const Expr& expr, std::vector<bool>& used, size_t offset = 0) {
  if (expr.kind == ExprKind::kColumn && expr.column >= offset && expr.column - offset < used.size()) {
    used[expr.column - offset] = true;
  }
  for (const ExprPtr& child : expr.children) mark_columns(*child, used, offset);
}

void remap_columns(Expr& expr, const std::vector<size_t>& mapping) {
  if (expr.kind == ExprKind::kColumn) expr.column = mapping[expr.column];
  for (ExprPtr& child : expr.children) remap_columns(*child, mapping);
}

std::vector<size_t> identity(size_t width) {
  std::vector<size_t> mapping(width);
  for (size_t i = 0; i < width; ++i) mapping[i] = i;
  return mapping;
}

// Every input needs all its columns (set operations, DISTINCT, top-k and
// aggregates depend on whole rows); the node itself stays as it is.
std::vector<size_t> keep_all(LogicalPlan& plan, ColumnDemand* demand) {
  for (PlanPtr& input : plan.inputs) prune_columns(*input, std::vector<bool>(input->schema->size(), true), demand);
  return identity(plan.schema->size());
}

std::vector<size_t> prune_project(LogicalPlan& plan, const std::vector<bool>& needed, ColumnDemand* demand) {
  std::vector<bool> input_needed(plan.inputs[0]->schema->size(), false);
  std::vector<ExprPtr> kept;
  std::vector<Column> columns;
  std::vector<size_t> mapping(needed.size(), SIZE_MAX);
  for (size_t i = 0; i < plan.expressions.size(); ++i) {
    if (!needed[i]) continue;
    mark_columns(*plan.expressions[i], input_needed);
    mapping[i] = kept.size();
    columns.push_back(plan.schema->column(i));
    kept.push_back(std::move(plan.expressions[i]));
  }
  std::vector<size_t> input_mapping = prune_columns(*plan.inputs[0], input_needed, demand);
  for (ExprPtr& expr : kept) remap_columns(*expr, input_mapping);
  plan.expressions = std::move(kept);
  plan.schema = make_schema(std::move(columns));
  return mapping;
}

std::vector<size_t> prune_filter(LogicalPlan& plan, std::vector<bool> needed, ColumnDemand* demand) {
  mark_columns(*plan.predicate, needed);
  std::vector<size_t> mapping = prune_columns(*plan.inputs[0], needed, demand);
  remap_columns(*plan.predicate, mapping);
  plan.schema = plan.inputs[0]->schema;
  return mapping;
}

std::vector<size_t> prune_join(LogicalPlan& plan, const std::vector<bool>& needed, ColumnDemand* demand) {
  // An anti-join's rows are its left's: of the right it reads the keys only.
  const bool anti = plan.join_type == JoinType::kAnti;
  size_t left_width = plan.inputs[0]->schema->size(), right_width = anti ? 0 : plan.inputs[1]->schema->size();
  // Columns kept in the join's rows: those needed above and by the residual.
  std::vector<bool> keep_left(needed.begin(), needed.begin() + left_width);
  std::vector<bool> keep_right(needed.begin() + left_width, needed.end());
  if (anti) keep_right.assign(plan.inputs[1]->schema->size(), false);
  if (plan.residual) {
    mark_columns(*plan.residual, keep_left);
    mark_columns(*plan.residual, keep_right, left_width);
  }
  // An outer join with a residual condition tells a side's rows apart by
  // their kept columns (outer_join.h), so those include what its keys read.
  if (plan.residual && plan.join_type != JoinType::kInner && plan.join_type != JoinType::kCross) {
    for (const ExprPtr& key : plan.left_keys) mark_columns(*key, keep_left);
    for (const ExprPtr& key : plan.right_keys) mark_columns(*key, keep_right);
  }
  // Joins indexing one input by the same keys keep the same columns of it,
  // and so share its arrangement (plan_arrange.cpp).
  if (demand) {
    keep_left = demand->widen_side(*plan.inputs[0], plan.left_keys, keep_left);
    if (!anti) keep_right = demand->widen_side(*plan.inputs[1], plan.right_keys, keep_right);
  }
  // Each input must also provide what its join keys read.
  std::vector<bool> left_needed = keep_left, right_needed = keep_right;
  for (const ExprPtr& key : plan.left_keys) mark_columns(*key, left_needed);
  for (const ExprPtr& key : plan.right_keys) mark_columns(*key, right_needed);
  std::vector<size_t> left_mapping = prune_columns(*plan.inputs[0], left_needed, demand);
  std::vector<size_t> right_mapping = prune_columns(*plan.inputs[1], right_needed, demand);
  for (ExprPtr& key : plan.left_keys) remap_columns(*key, left_mapping);
  for (ExprPtr& key : plan.right_keys) remap_columns(*key, right_mapping);

  std::vector<size_t> mapping(left_width + right_width, SIZE_MAX);
  std::vector<Column> columns;
  plan.left_columns.clear();
  plan.right_columns.clear();
  for (size_t c = 0; c < left_width; ++c) {
    if (!keep_left[c]) continue;
    mapping[c] = columns.size();
    columns.push_back(plan.schema->column(c));
    plan.left_columns.push_back(left_mapping[c]);
  }
  for (size_t c = 0; c < right_width; ++c) {
    if (!keep_right[c]) continue;
    mapping[left_width + c] = columns.size();
    columns.push_back(plan.schema->column(left_width + c));
    plan.right_columns.push_back(right_mapping[c]);
  }
  if (plan.residual) remap_columns(*plan.residual, mapping);
  plan.schema = make_schema(std::move(columns));
  return mapping;
}

// TUMBLE / HOP: the input keeps the columns needed above and the time
// column; window_start and window_end stay (after the kept columns).
std::vector<size_t> prune_window(LogicalPlan& plan, const std::vector<bool>& needed, ColumnDemand* demand) {
  const size_t width = plan.inputs[0]->schema->size();
  std::vector<bool> input_needed(needed.begin(), needed.begin() + width);
  input_needed[plan.time_window.time_column] = true;
  std::vector<size_t> input_mapping = prune_columns(*plan.inputs[0], input_needed, demand);
  plan.time_window.time_column = input_mapping[plan.time_window.time_column];
  // The rows are the (possibly wider than asked) pruned input's, then the
  // window's two columns.
  std::vector<size_t> mapping(input_mapping.begin(), input_mapping.end());
  mapping.resize(width + 2, SIZE_MAX);
  std::vector<Column> columns = plan.inputs[0]->schema->columns();
  for (size_t c = width; c < width + 2; ++c) {
    mapping[c] = columns.size();
    columns.push_back(plan.schema->column(c));
  }
  plan.schema = make_schema(std::move(columns));
  return mapping;
}

}  // namespace

std::vector<size_t> prune_columns(LogicalPlan& plan, const std::vector<bool>& asked, ColumnDemand* demand) {
  // A sub-plan other users share keeps what all of them need (plan_sharing.h).
  const std::vector<bool> needed = demand ? demand->widen(plan, asked) : asked;
  switch (plan.kind) {
    case LogicalPlan::Kind::kProject: return prune_project(plan, needed, demand);
    case LogicalPlan::Kind::kFilter: return prune_filter(plan, needed, demand);
    case LogicalPlan::Kind::kJoin: return prune_join(plan, needed, demand);
    case LogicalPlan::Kind::kTimeWindow: return prune_window(plan, needed, demand);
    case LogicalPlan::Kind::kScan: return identity(plan.schema->size());
    default: return keep_all(plan, demand);
  }
}

}  // namespace freshet::sql
